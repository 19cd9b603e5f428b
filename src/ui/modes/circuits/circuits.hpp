// circuits.hpp — the Circuits mode: a 2-layer attention-only transformer (core/model*.hpp) learns
// to continue repeated text, and an induction head forms while you watch (Olsson et al. 2022).
//
// The mode's panels (circuits_panels.cpp, circuits_grid.cpp): Circuits (task, Play / Pause / Step /
// Reset, learning rate, seed, layers, heads, d_model, pace; step, loss, in-context score; the
// guide and the exports), the curve (loss, in-context score, each head's prefix-matching and
// previous-token scores over the steps, the phase change marked), the layers × heads grid of
// attention patterns on a typed text (scores, role, an ablate toggle; a click opens the head in
// Explore), the predictions on that text, and the K-composition matrix. The run is the mode's own:
// the scene on screen is untouched until a head is opened in Explore.
//
// Budget: circuits_tick runs whole steps at the chosen pace but starts no new step once kBudgetMs of
// CPU time have gone into this frame (at least one step per frame while one is owed), as Train does.
#pragma once

#include <string>

#include "scene/model_json.hpp"
#include "ui/app_state.hpp"
#include "ui/link_start.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/panel_draw.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

struct Screen;

// Once per frame in the Circuits mode, before the panels: create the run on first use, advance it.
void circuits_tick(AppState& state);
void layout_circuits(Screen& screen);
// The panels, in the order the mode's comment above describes them.
PanelDraw draw_circuits_panel, draw_circuits_curve, draw_circuits_predictions, draw_circuits_composition,
    draw_circuits_guide;
// The heads' grid paints every pattern from one texture (MatrixSlot::CircuitsHeads).
void draw_circuits_grid(AppState& state, MatrixPainter& painter, const Fonts& fonts);

// --- the run's actions (panels, page API, tests)
void circuits_play(AppState& state, bool play);
void circuits_step(AppState& state);
// A new run with the current settings (task, sizes, seed, lr).
void circuits_reset(AppState& state);
// The typed text: "" when applied, else the reason (the text on screen is kept).
std::string circuits_set_text(AppState& state, const std::string& text);
void circuits_toggle_ablation(AppState& state, int layer, int head);
// The head's stages on the text as an ordinary scene in Explore (scene::head_scene), and back.
void circuits_open_head(AppState& state, int layer, int head);
void circuits_back(AppState& state);
// In the Explore controls while a head opened from the Circuits mode is on screen: which head, on
// which text, and a button back to the mode (circuits/back).
void draw_circuits_back(AppState& state, const Fonts& fonts);
// The run as a recipe (config and steps done), and a new run rebuilt from one (trained to its step
// count over the next frames at full speed: bit for bit the weights the recipe was made from).
scene::Recipe circuits_recipe(const AppState& state);
// `at_once`: train every step now, before returning (the desktop's --circuits).
void circuits_load_recipe(AppState& state, const scene::Recipe& recipe, bool at_once = false);
// A link's circuits= or --circuits (its row's apply_start hook): circuits_load_recipe of its recipe,
// then its probe= (--circuits-probe) once the model is rebuilt: the text typed, the heads ablated,
// the head opened in Explore. A part the model cannot take (a head it does not have, a text it
// cannot read) is left out with the reason in the notice; the rest applies.
void circuits_apply_start(AppState& state, const LinkStart& start);
// The desktop's --circuits RECIPE and --circuits-probe PROBE (circuits_page.cpp; not in the web's builds).
extern const ModeFlag kCircuitsFlags[2];
// What the learner probed the model with, for the link: the text when not the default, the ablated
// heads, and the opened head while Explore shows it unedited (an edited head's link is its scene's).
scene::link::CircuitsProbe circuits_probe(const AppState& state);
// Make the run exist (the page API asks before the mode is first drawn).
void circuits_ensure_run(AppState& state);

// Which head plays which role now, for the composition picture and the grid's labels: the layer-1
// head with the highest prefix-matching score (the induction head) and the layer-0 head with the
// highest previous-token score (the one whose output its keys read); "formed" once the first is
// ≥ 0.5. The layer-0 half stays softer in these small models (seed 1: its previous-token score is
// 0.19 when the induction head forms at step 450 and levels off near 0.46 by step 1000, against 0.10
// untrained), so it is named by rank, not by the 0.5 of core::head_role.
struct CircuitLink {
  int previous = -1, induction = -1;
  bool formed = false;
};
CircuitLink circuit_link(const attn::model::Scores& scores);
// A head's role label: core::head_role's, else "previous token" for the layer-0 head of a formed
// link; "" when it has none.
std::string circuit_role(const attn::model::Scores& scores, int layer, int head);

// --- its part of the page API and its link (circuits_page.cpp; the row's hooks, modes/modes.hpp)
PageJson circuits_page_call(AppState& state, std::string_view call, std::string_view arg);  // get, getExport
void circuits_page_rects(const AppState& state, PageJson& rects);                           // "circuits"
bool circuits_link(const AppState& state, scene::link::MadeFragment& made);

}  // namespace ui
