// model_mode.hpp — the Model mode: a real language model (web/models/fortunes.alm: GPT blocks and a
// byte-level BPE, core/model.hpp) on the learner's own text.
//
// Panels (model_panels.cpp, model_grid.cpp): Text (the text box, its tokens as chips with their ids on
// hover and each one's loss as a bar; Generate / Step with temperature, top-k, top-p and seed), Next
// token (the top 10 with bars), Every head (the layers × heads grid of patterns as ONE texture, each
// with its role, an ablate choice and Open), and the logit lens. Opening a head puts its real q, k, v
// on the text in Explore as an ordinary scene; the Controls panel then shows the model's prediction
// with the scene's numbers (draw_model_back), so dragging a cell moves it.
//
// The model file is loaded on first use: the row's `file`, read by the platform (modes.hpp's
// request_file; web: fetched with a progress bar; desktop: read from --model's path), reported through
// model_file_news: progress, then model_loaded() or model_load_failed().
#pragma once

#include <string>
#include <string_view>

#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/link_start.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/panel_draw.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

struct Screen;

// Once per frame in the Model mode: ask for the model on first use; draw generated tokens at the pace.
void model_tick(AppState& state);
void layout_model(Screen& screen);
PanelDraw draw_model_text, draw_model_prediction, draw_model_lens;
void draw_model_heads(AppState& state, MatrixPainter& painter, const Fonts& fonts);
// In the Explore controls while a head opened from the Model mode is on screen: which head, the
// model's prediction with the scene's numbers, Reset, and the way back (model/back).
void draw_model_back(AppState& state, const Fonts& fonts);

// --- loading
void model_request_load(AppState& state);  // once: the platform starts loading
void model_file_news(AppState& state, const FileNews& news);
void model_load_progress(AppState& state, float fraction);
// The file's bytes: "" when the model is ready (a link's state applied), else the error (shown).
std::string model_loaded(AppState& state, std::string_view bytes);
void model_load_failed(AppState& state, const std::string& why);

// --- actions (panels, page API, desktop flags, tests)
void model_set_text(AppState& state, const std::string& text);
// Sampling and seed ("" when applied; else the field and why, nothing changed). The generated tokens
// start again from the prompt.
std::string model_set_sampling(AppState& state, double temperature, int top_k, double top_p,
                               std::uint64_t seed);
void model_step(AppState& state);  // one token now
// Generate's button draws this many tokens (or up to n_ctx).
constexpr int kGenerateCount = 20;
void model_generate(AppState& state, int count);  // `count` more tokens, at the frame's pace
void model_stop(AppState& state);
// kind: 0 on, 1 zero, 2 mean.
void model_set_ablation(AppState& state, int layer, int head, int kind);
int model_ablation_kind(const AppState& state, int layer, int head);
void model_open_head(AppState& state, int layer, int head);
void model_reset_head(AppState& state);  // the opened head's scene back to the model's numbers
void model_back(AppState& state);
// The link's state (what lm= holds) and applying one (before the model has loaded: kept and applied
// when it has).
scene::link::ModelLink model_link(const AppState& state);
void model_apply_link(AppState& state, const scene::link::ModelLink& link);
// A link's lm= or --model-state / --model-text (its row's apply_start hook): the link or the text
// applied, and the model's loading started when the mode is shown or a link opened a head.
void model_apply_start(AppState& state, const LinkStart& start);
// The desktop's --model PATH, --model-state LM and --model-text T (model_page.cpp; not in the web's
// builds).
extern const ModeFlag kModelFlags[3];
// Run the opened head's prediction again if the scene's numbers changed (the Controls row calls it;
// the page API too, so that a reply reads the same numbers as the panel).
void model_update_opened(AppState& state);

// --- its part of the page API and its link (model_page.cpp; the row's hooks, modes/modes.hpp)
PageJson model_page_call(AppState& state, std::string_view call, std::string_view arg);  // "get" ["full"]
void model_page_rects(const AppState& state, PageJson& rects);                           // "model"
bool model_link_fragment(const AppState& state, scene::link::MadeFragment& made);

}  // namespace ui
