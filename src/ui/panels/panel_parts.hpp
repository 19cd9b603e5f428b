// panel_parts.hpp — the panels of the screen and the helpers they share (internal to src/ui).
// One file per panel in this folder (controls_panel.cpp, …); the helpers are in panel_parts.cpp;
// src/ui/frame/frame.cpp places the panels.
#pragma once

#include <string>
#include <vector>

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

enum class HeatmapKind { Scores, Weights };

// Grid cells (heatmaps, mask) grow with their panel up to this many em: big enough to fill a panel
// shown alone (view=weights) or a 2-token example, small enough that a cell still reads as a cell.
constexpr float kMaxCellEm = 12.0f;

// The side of one cell of an n×n grid in a room of room_w × room_h pixels: as large as the room
// allows, up to kMaxCellEm; whole pixels from 4 px up (cells big enough to show gaps), fractional
// below (the shader samples one texel per fragment, so a 1024×1024 grid fits ~100 px). Never below
// 0.1 px, nor below what keeps the grid 2 em wide — so a large grid in a cramped panel (1024 tokens
// in the Mask panel at 1280×720) shrinks to its room instead of running out of the panel, and a
// panel with no room at all still shows a grid (which then scrolls).
float fit_grid_cell(float room_w, float room_h, int n, float em);

// From this many tokens a grid is read as a picture (cells of a few pixels, no numbers in them): the
// layouts give the grids the room and the vectors (colour strips by then; a token's numbers open on
// demand) less of it, and the grids say what a pixel shows.
constexpr int kLargeSceneTokens = 64;

// Panel bodies: each draws into the current window/child, below a header.
void draw_controls_panel(AppState& state, const Fonts& fonts);
void draw_vectors_panel(AppState& state, const Fonts& fonts);
void draw_heatmap_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts, HeatmapKind kind);
void draw_mask_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts);
void draw_output_panel(AppState& state, const Fonts& fonts);
// Multi-head (heads_panel.cpp): the weights of every head as small multiples plus their average
// (click one to focus it); each head's Y_t, the concat, W_o and the output; the heads control.
void draw_heads_weights_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts);
void draw_heads_output_panel(AppState& state, const Fonts& fonts);
void draw_heads_control(AppState& state);
ImU32 head_color(int head);  // head t's colour (captions, column underlines)
// The derivation tooltips (tooltips.cpp): of weight a[i][j] of one head's stages `r` (`head` ≥ 0
// names the head), and of score QKᵀ[i][j] of the shown result (the focused head's).
void weight_tooltip(AppState& state, const attn::Result& r, int head, int i, int j);
void score_tooltip(AppState& state, int i, int j);
// RoPE in the Controls panel (rope_controls.cpp): the toggle, base, layout and offset, and the plot
// of one query/key pair's score against their distance.
void draw_rope_controls(AppState& state, const Fonts& fonts);
#if AL_ALL_MODES
// "Variants…" after Generate (modern_variants.cpp): the popup of the 2024–26 attention variants.
void draw_variants_button(AppState& state, const Fonts& fonts);
#endif
// What the modes add to the shared panels, answered from the table of modes (modes/modes.cpp), so
// that a panel names no mode:
// the terms the shown mode lights while nothing is hovered (the walk: its step's terms);
bool mode_lights_term(const AppState& state, Term term);
// whether the shown mode lights whole panels itself (the walk's step: Screen::mode_light), and
// whether `panel` is one it lights (true when it lights none);
bool mode_lights_panels(const AppState& state);
bool mode_lights_panel(const AppState& state, scene::link::Panel panel);
// the query row the shown mode follows, which the grids mark (the walk's), or −1;
int mode_lit_row(const AppState& state);
// whether the shown mode's Controls panel offers the heads even for one head (the Heads mode);
bool mode_offers_heads(const AppState& state);
// a check question clicked: the mode that holds the quiz opens it at `question` (0-based);
void open_check_question(AppState& state, int question);
// rows a mode adds at the top of the Controls panel, whichever mode is shown (a head opened from
// the Circuits mode: the way back).
void draw_mode_controls_rows(AppState& state, const Fonts& fonts);
// The Controls panel's "Share" row (share_buttons.cpp): Copy link, Export JSON, Import JSON, Export
// PNG, Gallery, and the Export… menu (NumPy, PyTorch, LaTeX and SVG of a chosen stage).
void draw_share_buttons(AppState& state, const Fonts& fonts);
// "Share this exact scene, or open a demo…", drawn under the buttons (and Generate…).
void draw_share_hint(AppState& state, const Fonts& fonts);

// Which result the FlashAttention and Decode steppers follow: the result's version and the focused
// head (a multi-head scene shows that head's pass; heads ≤ 16).
inline std::uint64_t result_key(const AppState& state) {
  return state.result_version * 32 + std::uint64_t(state.ui.focus_head);
}

// The formula strip Y = softmax( QKᵀ / √d_k + M ) V centred at `center`, shrunk to `max_width`;
// hovering a term makes it this frame's hovered term.
void draw_formula_strip(AppState& state, const Fonts& fonts, ImVec2 center, float max_width);
#if AL_ALL_MODES
// The strip's formula as text, its terms joined by spaces (what draw_formula_strip draws).
std::string formula_text(const AppState& state);
#endif
// One line saying what `term` means (the top bar's caption).
const char* term_caption(const AppState& state, Term term);

// Title (heading font) and a hint (dim, wrapped), taking at least `min_hint_lines` lines. The hint
// is left out when state.ui.frame.compact_headers (short displays keep the sliders in view).
void panel_header(const AppState& state, const Fonts& fonts, const char* title, const char* hint,
                  int min_hint_lines = 1);

// Is `term` lit this frame (hovered in the formula strip or its panel)?
bool term_lit(const AppState& state, Term term);

// Truncate `text` with "…" so it fits in `width` pixels with the current font.
std::string fit_text(const std::string& text, float width);

// Flowing items (buttons that wrap): the next item, `w` wide, goes on the current line when it fits
// before `right_edge` (screen x), else on the next line. Unlike SameLine() + NewLine(), a wrap never
// leaves the cursor past the edge (which counts as an overflow, Screen::close).
void same_line_if_fits(float w, float right_edge);

// One of the lessons' check questions, one per panel: the question, the answer shown on hover, the
// quiz question (ui/modes/walk/quiz.cpp, 0-based) a click opens, and the widget id of the line.
// The words are in the language tables (ui/i18n_*.cpp).
struct CheckQuestion {
  Text question;
  Text answer;
  int quiz_question;
  const char* id;
};
inline constexpr CheckQuestion kCheckScores = {Text::CheckScoresQ, Text::CheckScoresA, 0, "check/scores"};
inline constexpr CheckQuestion kCheckWeights = {Text::CheckWeightsQ, Text::CheckWeightsA, 1, "check/weights"};
inline constexpr CheckQuestion kCheckMask = {Text::CheckMaskQ, Text::CheckMaskA, 6, "check/mask"};
inline constexpr CheckQuestion kCheckOutput = {Text::CheckOutputQ, Text::CheckOutputA, 7, "check/output"};

// The check question at the bottom of the current panel (when there is room): the whole question,
// wrapped under itself when it is longer than the panel is wide.
void check_question(AppState& state, const Fonts& fonts, const CheckQuestion& check);
// The height `question` takes at the bottom of the current window (to reserve below its content).
float check_question_height(const Fonts& fonts, Text question);

// Hover the current panel window → `term` becomes this frame's hovered term (unless something more
// specific claimed it).
void claim_hover(AppState& state, Term term);
// A lit panel (term_lit) gets an accent border, drawn outside the window's clip rect.
void panel_border(const AppState& state, Term term);

// Outline a rectangle (hover/selection) in the accent colour.
void outline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, ImU32 color, float thickness);

}  // namespace ui
