// layout.cpp — the screen: the top bar (title, formula strip, caption, mode bar) and, below it, the
// current mode's layout of the panels, fitted to the display (wide: columns; narrow phones: one
// scrolling column).
//
// Modes. The screen has one mode bar; each mode is a layout function that places the shared panels
// (src/ui/panels/) with a Screen (screen.hpp). The bar lists every mode of scene::link::kModes (it
// would be hidden with only one: a lone tab says nothing). To add a mode, e.g. Heads:
//   1. src/scene/link.hpp: a value in `enum class Mode` and a row in `kModes`:
//        {Mode::Heads, "heads", "Heads"}   // name: the link's mode=heads; label: the tab's text
//      (links parse and write mode=heads from then on; add a round trip to tests/link_test.cpp).
//   2. here: a layout function `void layout_heads(Screen& screen)` that places panels with
//      screen.controls(pos, size), screen.heatmap(…), … (new panels go in src/ui/panels/ with their
//      declaration in panel_parts.hpp; a panel that only draws itself is placed with
//      screen.panel("Name", draw_fn, pos, size), one with hover links gets a Screen method in
//      screen.hpp/.cpp), and its row in `kLayouts` below.
//      Lay it out for 1280×720 and for a phone (screen.narrow), and look at both screenshots.
//   3. The tab is drawn by draw_mode_bar (top_bar.cpp) with the widget id `mode/heads` (widgetRect /
//   --rects);
//      list it in web/attention-lab-api.js's header and README. getState().ui.mode says "heads".
// The mode lives in AppState::ui.mode; a link sets it (mode=, default explore), a tab click sets it
// and updates the address.
#include "ui/frame/frame.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/text/i18n.hpp"
#include "ui/frame/screen.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/train/train_mode.hpp"
#include "ui/modes/walk/walk_mode.hpp"

namespace ui {

namespace {

//-------------------------------------------------------------------------------------------------
// Geometry shared by the layouts
//-------------------------------------------------------------------------------------------------

// Where the body (everything under the top bar) starts.
float body_top(const Screen& sc) {
  return sc.top_h > 0 ? sc.top_h : sc.margin;
}

// The wide layouts' body height: what the display has left under `body_y`, but at least `min_em`
// ems (below that the page scrolls instead of squeezing the panels).
float body_height(const Screen& sc, float body_y, float min_em) {
  return std::max(sc.H - body_y - sc.margin, min_em * sc.em);
}

// Two panels side by side in the rectangle (pos, size): `first` is `first_w` wide when both are
// shown (the whole width alone), `second` takes the rest, a gap to its right. Either may be hidden.
template <class DrawFirst, class DrawSecond>
void side_by_side(const Screen& sc, ImVec2 pos, ImVec2 size, float first_w, bool show_first, bool show_second,
                  DrawFirst first, DrawSecond second) {
  const float w = show_second ? first_w : size.x;
  if (show_first) first(pos, ImVec2(w, size.y));
  if (show_second) {
    const float x = show_first ? pos.x + w + sc.gap : pos.x;
    second(ImVec2(x, pos.y), ImVec2(pos.x + size.x - x, size.y));
  }
}

// The narrow layouts (phones in portrait): one column, the page's width less its scrollbar, in which
// the panels stack from the top bar down, a gap apart; the page scrolls as a whole.
struct Column {
  float x, w, y, gap, em;
  explicit Column(const Screen& sc)
      : x(sc.margin),
        w(sc.W - 2.0f * sc.margin - ImGui::GetStyle().ScrollbarSize),
        y(body_top(sc)),
        gap(sc.gap),
        em(sc.em) {}
  // The side of a square grid (heatmap, mask): the column's width, at most 30 em.
  float square() const { return std::min(w, 30.0f * em); }
  // A heatmap panel's height: `f` of the square plus 6 em of title, tabs and labels.
  float grid_h(float f = 0.9f) const { return square() * f + 6.0f * em; }
  // The next `h` of the column: its top-left corner; the column continues below it.
  ImVec2 take(float h) {
    const ImVec2 pos(x, y);
    y += h + gap;
    return pos;
  }
  ImVec2 size(float h) const { return ImVec2(w, h); }
};

// A wide layout's side column (the steppers, the Train panel): `share` of the display's width, kept
// between min_em and max_em.
float side_width(const Screen& sc, float share, float min_em, float max_em) {
  return std::floor(std::clamp(share * sc.W, min_em * sc.em, max_em * sc.em));
}

// The wide layouts' left column (Explore, Walk through, Heads) is wide enough for the widest vector
// (`d_max` sliders of 4.2 em beside a token label), between 24 em and 42 % of the display.
float left_column_width(const Screen& sc, int d_max) {
  const float em = sc.em;
  const float want = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
  return std::floor(std::clamp(want, 24.0f * em, 0.42f * sc.W));
}

// The wide layouts' left column: Controls above the tokens' vectors, or either one alone, `w` wide
// from `body_y` down `body_h`. On a short display (a phone in landscape) the controls get at most
// 60 % of what is on screen (down to the causal row; the rest scrolls inside the panel), so the
// vectors panel starts above the fold.
void left_column(Screen& sc, float w, float body_y, float body_h, bool show_ctrl, bool show_vec) {
  const float em = sc.em, margin = sc.margin, gap = sc.gap;
  if (show_ctrl && show_vec) {
    const float visible_h = sc.H - body_y - margin;
    const float ctrl_cap = visible_h < 38.0f * em ? std::max(9.0f * em, 0.6f * visible_h) : 0.6f * body_h;
    const float ctrl_h = std::min(sc.state.ui.controls_h, ctrl_cap);
    sc.controls(ImVec2(margin, body_y), ImVec2(w, ctrl_h));
    sc.vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(w, body_h - ctrl_h - gap));
  } else if (show_ctrl) {
    sc.controls(ImVec2(margin, body_y), ImVec2(w, body_h));
  } else if (show_vec) {
    sc.vectors(ImVec2(margin, body_y), ImVec2(w, body_h));
  }
}

//-------------------------------------------------------------------------------------------------
// The modes' layouts
//-------------------------------------------------------------------------------------------------

// Explore: every panel at once. Wide: controls above the vectors on the left; scores | weights above
// mask | output on the right. Narrow (phones in portrait): one column that scrolls as a whole. One
// full-size panel (view=) fills the window at any width; the wide layout does that.
// Walk through (walk = true): the same panels with the step card on top of the right column (wide)
// or of the column (narrow), where the step's panels come first, right under the card.
void layout_panels(Screen& sc, bool walk) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  const auto scores = [&](ImVec2 pos, ImVec2 size) { sc.heatmap("Scores", HeatmapKind::Scores, pos, size); };
  const auto weights = [&](ImVec2 pos, ImVec2 size) {
    sc.heatmap("Weights", HeatmapKind::Weights, pos, size);
  };
  const auto mask = [&](ImVec2 pos, ImVec2 size) { sc.mask(pos, size); };
  const auto output = [&](ImVec2 pos, ImVec2 size) { sc.output(pos, size); };
  if (!sc.narrow || sc.state.sharing.view) {
    const int d_max = std::max({state.scene.d_k(), state.scene.d_v(), int(state.scene.X.cols())});
    const float left_w = left_column_width(sc, d_max);
    const float body_y = body_top(sc);
    // Below ~38 em of height (phones in landscape) the page scrolls instead of squeezing panels
    // (a single full-size panel of an embed fits any height).
    const float body_h = body_height(sc, body_y, sc.state.sharing.view ? 10.0f : 38.0f);
    const bool show_ctrl = panel_shown(sc.state, Panel::Controls),
               show_vec = panel_shown(sc.state, Panel::Vectors);
    const bool show_scores = panel_shown(sc.state, Panel::Scores),
               show_weights = panel_shown(sc.state, Panel::Weights);
    const bool show_mask = panel_shown(sc.state, Panel::Mask),
               show_out = panel_shown(sc.state, Panel::Output);
    const bool left = show_ctrl || show_vec;
    const bool top_row = show_scores || show_weights, bottom_row = show_mask || show_out;
    const float full_w = W - 2.0f * margin;
    const float left_w_used = !(top_row || bottom_row) ? full_w : left_w;
    left_column(sc, left_w_used, body_y, body_h, show_ctrl, show_vec);

    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    // The right column, below the walk's step card when there is one.
    float ry = body_y, rh = body_h;
    if (walk) {
      const float card_h = walk_card_height(state, sc.fonts, rw);
      sc.walk_card(ImVec2(rx, body_y), ImVec2(rw, card_h));
      ry += card_h + gap;
      rh -= card_h + gap;
    }
    float top_row_h = !bottom_row ? rh : std::floor(0.62f * rh);
    if (walk && top_row && bottom_row) {
      // The step card takes the top of the column: keep the mask and output readable (the mask's
      // hint, grid and question need ~13 em when it is 24 em wide) by taking the room from the top row, and below a
      // readable minimum for both rows let the page scroll instead of squeezing them.
      const float bottom_min = 13.0f * em, top_min = 16.0f * em;
      rh = std::max(rh, top_min + gap + bottom_min);
      top_row_h = std::clamp(top_row_h, top_min, rh - gap - bottom_min);
    }
    side_by_side(sc, ImVec2(rx, ry), ImVec2(rw, top_row_h), std::floor(0.5f * (rw - gap)), show_scores,
                 show_weights, scores, weights);
    const float by = top_row ? ry + top_row_h + gap : ry;
    // The mask needs little room for few tokens: give the rest to the output bars.
    const float mask_want = 8.0f * em + float(state.scene.n()) * 2.6f * em;  // labels + cells
    // (The lower bound gives way to half the column when the column is narrow: clamp needs lo ≤ hi.)
    const float mask_min = std::min((walk ? 24.0f : 16.0f) * em, 0.5f * rw);
    const float mask_w = std::floor(std::clamp(std::min(0.34f * rw, mask_want), mask_min, 0.5f * rw));
    side_by_side(sc, ImVec2(rx, by), ImVec2(rw, ry + rh - by), mask_w, show_mask, show_out, mask, output);
  } else {
    Column col(sc);
    // A learned scene has four rows per token (x, q, k, v) and the W grids below them.
    const bool learned = state.scene.mode == scene::Mode::Projected;
    const float per_token = learned ? 7.4f * em : 5.6f * em;
    const float tokens_h =
        std::min(learned ? 40.0f * em : 28.0f * em, std::max(12.0f * em, float(state.scene.n()) * per_token));
    if (walk) {
      const float card_h = walk_card_height(state, sc.fonts, col.w);
      sc.walk_card(col.take(card_h), col.size(card_h));
    }
    // Panels in their usual order; in the walk, the step's own panels first.
    const Panel order[] = {Panel::Controls, Panel::Vectors, Panel::Scores,
                           Panel::Weights,  Panel::Mask,    Panel::Output};
    for (int pass = walk ? 0 : 1; pass < 2; ++pass) {
      for (Panel panel : order) {
        if (!panel_shown(sc.state, panel)) continue;
        if (walk && walk_panel_lit(state, panel) != (pass == 0)) continue;
        // The mask's grid is 0.75 of the square: cells about the heatmaps' size (it is read against them).
        switch (panel) {
          case Panel::Controls:
            sc.controls(col.take(controls_h), col.size(controls_h));
            break;
          case Panel::Vectors:
            sc.vectors(col.take(tokens_h), col.size(tokens_h));
            break;
          case Panel::Scores:
            scores(col.take(col.grid_h()), col.size(col.grid_h()));
            break;
          case Panel::Weights:
            weights(col.take(col.grid_h()), col.size(col.grid_h()));
            break;
          case Panel::Mask:
            mask(col.take(col.grid_h(0.75f)), col.size(col.grid_h(0.75f)));
            break;
          case Panel::Output: {
            const float out_h = float(state.scene.n()) * 2.5f * em + 6.0f * em;
            output(col.take(out_h), col.size(out_h));
            break;
          }
          case Panel::Formula:
            break;
        }
      }
    }
  }
  // A new step scrolls the page back up to its card (phones; short landscape displays).
  if (walk && state.ui.walk.scroll_to_top) ImGui::SetScrollY(0.0f);
}

void layout_explore(Screen& sc) {
  layout_panels(sc, false);
}
void layout_walk(Screen& sc) {
  layout_panels(sc, true);
}

// Heads: the heads side by side. Wide: controls (with the heads control) above the vectors (each
// head's columns underlined) on the left; on the right the weights of every head as small multiples
// across the top, and below them the focused head's scores beside the output (each head's Y_t, the
// concat, W_o). Narrow: the same panels in one scrolling column.
void layout_heads(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  const bool show_ctrl = panel_shown(sc.state, Panel::Controls),
             show_vec = panel_shown(sc.state, Panel::Vectors);
  const bool show_scores = panel_shown(sc.state, Panel::Scores),
             show_weights = panel_shown(sc.state, Panel::Weights);
  const bool show_out = panel_shown(sc.state, Panel::Output);
  if (!sc.narrow || sc.state.sharing.view) {
    const float left_w = left_column_width(sc, std::max(state.scene.d_k(), state.scene.d_v()));
    const float body_y = body_top(sc);
    const float body_h = body_height(sc, body_y, sc.state.sharing.view ? 10.0f : 38.0f);
    const bool left = show_ctrl || show_vec;
    left_column(sc, left_w, body_y, body_h, show_ctrl, show_vec);
    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    const bool bottom = show_scores || show_out;
    const float top_h = !bottom ? body_h : std::floor(0.52f * body_h);
    if (show_weights) sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, top_h));
    const float by = show_weights ? body_y + top_h + gap : body_y;
    const float bh = body_y + body_h - by;
    side_by_side(
        sc, ImVec2(rx, by), ImVec2(rw, bh), std::floor(std::min(0.42f * rw, bh + 6.0f * em)), show_scores,
        show_out, [&](ImVec2 pos, ImVec2 size) { sc.heatmap("Scores", HeatmapKind::Scores, pos, size); },
        [&](ImVec2 pos, ImVec2 size) { sc.output(pos, size); });
  } else {
    Column col(sc);
    const float tokens_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 5.6f * em));
    if (show_ctrl) sc.controls(col.take(controls_h), col.size(controls_h));
    if (show_weights) {  // the small multiples two or three across
      const float weights_h = col.square() * 1.1f + 8.0f * em;
      sc.heatmap("Weights", HeatmapKind::Weights, col.take(weights_h), col.size(weights_h));
    }
    if (show_vec) sc.vectors(col.take(tokens_h), col.size(tokens_h));
    if (show_scores)
      sc.heatmap("Scores", HeatmapKind::Scores, col.take(col.grid_h()), col.size(col.grid_h()));
    const float out_h = float(state.scene.n()) * 4.0f * em + 16.0f * em;
    if (show_out) sc.output(col.take(out_h), col.size(out_h));
  }
}

// FlashAttention: the stepper on the left; on the right the Scores grid cut into tiles above each
// query row's running state. Narrow: one scrolling column.
void layout_flash(Screen& sc) {
  flash_tick(sc.state);
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  if (!sc.narrow) {
    // Top: the stepper beside the tiled Scores grid; below, across the width, the rows' state.
    const float body_y = body_top(sc), body_h = body_height(sc, body_y, 36.0f);
    const float rows_h = std::floor(std::clamp(float(n) * 1.7f * em + 8.5f * em, 9.0f * em, 0.45f * body_h));
    const float top_h = body_h - rows_h - gap;
    const float left_w = side_width(sc, 0.36f, 22.0f, 30.0f);
    sc.panel("FlashAttention", draw_flash_panel, ImVec2(margin, body_y), ImVec2(left_w, top_h));
    const float rx = margin + left_w + gap;
    sc.flash_scores(ImVec2(rx, body_y), ImVec2(W - rx - margin, top_h));
    sc.panel("Running state", draw_flash_rows, ImVec2(margin, body_y + top_h + gap),
             ImVec2(W - 2.0f * margin, rows_h));
  } else {
    Column col(sc);
    const float stepper_h = 23.5f * em, rows_h = float(n) * 2.0f * em + 8.0f * em;
    sc.panel("FlashAttention", draw_flash_panel, col.take(stepper_h), col.size(stepper_h));
    sc.flash_scores(col.take(col.grid_h()), col.size(col.grid_h()));
    sc.panel("Running state", draw_flash_rows, col.take(rows_h), col.size(rows_h));
  }
}

// Decode: the stepper and the multiply counter on the left, the cache on the right. Narrow: stacked.
void layout_decode(Screen& sc) {
  decode_tick(sc.state);
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  if (!sc.narrow) {
    const float body_y = body_top(sc), body_h = body_height(sc, body_y, 30.0f);
    const float left_w = side_width(sc, 0.34f, 22.0f, 30.0f);
    sc.panel("Decode", draw_decode_panel, ImVec2(margin, body_y), ImVec2(left_w, body_h));
    const float rx = margin + left_w + gap;
    sc.panel("KV cache", draw_decode_cache, ImVec2(rx, body_y), ImVec2(W - rx - margin, body_h),
             ImGuiWindowFlags_NoScrollbar);
  } else {
    Column col(sc);
    const float stepper_h = 25.5f * em, cache_h = float(sc.state.scene.n() + 3) * 2.1f * em + 10.0f * em;
    sc.panel("Decode", draw_decode_panel, col.take(stepper_h), col.size(stepper_h));
    sc.panel("KV cache", draw_decode_cache, col.take(cache_h), col.size(cache_h),
             ImGuiWindowFlags_NoScrollbar);
  }
}

// Key space: the soft dictionary as pictures. Wide: key space | value space | weights on top (the
// two pictures are read together: move q toward k_j, watch y slide onto v_j; hovering a weights row
// follows that query), the vectors across the bottom. Narrow: key space, value space, weights, vectors in one
// scrolling column. The pictures are drawn first so a drag in them shows in every other panel in the same
// frame.
void layout_keyspace(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  if (!sc.narrow) {
    const float body_y = body_top(sc), body_h = body_height(sc, body_y, 34.0f);
    const float full_w = W - 2.0f * margin;
    const float top_h = std::floor(0.62f * body_h);
    const float weights_w = std::floor(std::clamp(0.22f * full_w, 16.0f * em, 26.0f * em));
    const float pic_w = std::floor(0.5f * (full_w - weights_w - 2.0f * gap));
    sc.keyspace(ImVec2(margin, body_y), ImVec2(pic_w, top_h));
    sc.valuespace(ImVec2(margin + pic_w + gap, body_y), ImVec2(pic_w, top_h));
    const float wx = margin + 2.0f * (pic_w + gap);
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(wx, body_y), ImVec2(margin + full_w - wx, top_h));
    const float by = body_y + top_h + gap;
    sc.vectors(ImVec2(margin, by), ImVec2(full_w, body_y + body_h - by));
  } else {
    Column col(sc);
    const float pic = std::min(col.w, 26.0f * em) + 5.0f * em;
    const float vectors_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 7.0f * em));
    sc.keyspace(col.take(pic), col.size(pic));
    sc.valuespace(col.take(pic), col.size(pic));
    sc.heatmap("Weights", HeatmapKind::Weights, col.take(col.grid_h()), col.size(col.grid_h()));
    sc.vectors(col.take(vectors_h), col.size(vectors_h));
  }
}

// Train: the controls above the loss curve on the left; the weights of the sample sequence (the
// model itself, updated every step) above its predictions on the right. Narrow: controls, weights,
// predictions, curve in one scrolling column.
void layout_train(Screen& sc) {
  train_tick(sc.state);
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const ImGuiWindowFlags curve_flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (!sc.narrow) {
    const float body_y = body_top(sc), body_h = body_height(sc, body_y, 34.0f);
    const float left_w = side_width(sc, 0.36f, 24.0f, 32.0f);
    const float controls_h = std::min(24.0f * em, 0.64f * body_h);
    sc.panel("Train", draw_train_panel, ImVec2(margin, body_y), ImVec2(left_w, controls_h));
    sc.panel("Loss", draw_train_curve, ImVec2(margin, body_y + controls_h + gap),
             ImVec2(left_w, body_h - controls_h - gap), curve_flags);
    const float rx = margin + left_w + gap, rw = W - rx - margin;
    const float pred_h = 10.4f * em;
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, body_h - pred_h - gap));
    sc.panel("Predictions", draw_train_predictions, ImVec2(rx, body_y + body_h - pred_h), ImVec2(rw, pred_h),
             ImGuiWindowFlags_NoScrollbar);
  } else {
    Column col(sc);
    const float controls_h = 24.5f * em, pred_h = 9.0f * em, curve_h = 16.0f * em;
    const float weights_h = col.square() * (sc.state.scene.heads > 1 ? 1.1f : 0.9f) + 7.0f * em;
    sc.panel("Train", draw_train_panel, col.take(controls_h), col.size(controls_h));
    sc.heatmap("Weights", HeatmapKind::Weights, col.take(weights_h), col.size(weights_h));
    sc.panel("Predictions", draw_train_predictions, col.take(pred_h), col.size(pred_h),
             ImGuiWindowFlags_NoScrollbar);
    sc.panel("Loss", draw_train_curve, col.take(curve_h), col.size(curve_h), curve_flags);
  }
}

// Each mode's layout, in the order of scene::link::kModes.
struct ModeLayout {
  scene::link::Mode mode;
  void (*layout)(Screen&);
};
// One mode a line:
// clang-format off
constexpr ModeLayout kLayouts[] = {
    {scene::link::Mode::Explore, layout_explore},
    {scene::link::Mode::Walk, layout_walk},
    {scene::link::Mode::Heads, layout_heads},
    {scene::link::Mode::KeySpace, layout_keyspace},
    {scene::link::Mode::Flash, layout_flash},
    {scene::link::Mode::Decode, layout_decode},
    {scene::link::Mode::Train, layout_train},
};
// clang-format on
static_assert(sizeof(kLayouts) / sizeof(kLayouts[0]) == std::size_t(scene::link::kModeCount),
              "every mode of scene::link::kModes needs its layout here");

void layout_mode(Screen& screen) {
  for (const ModeLayout& m : kLayouts) {
    if (m.mode == screen.state.ui.mode) return m.layout(screen);
  }
  layout_explore(screen);  // unreachable: the static_assert and the link's validation keep modes known
}

}  // namespace

void draw_screen(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  // Hover links are one frame behind: what was hovered while drawing the last frame lights now.
  state.hovered_term = state.next_hovered_term;
  state.hovered_row = state.next_hovered_row;
  state.hovered_col = state.next_hovered_col;
  state.next_hovered_term = Term::None;
  state.next_hovered_row = state.next_hovered_col = -1;
  state.ui.tooltip = std::move(state.ui.next_tooltip);    // the tooltip text drawn last frame
  state.ui.overflow = std::move(state.ui.next_overflow);  // texts that did not fit, last frame
  state.ui.next_overflow.clear();
  set_language(shown_language(state.ui));  // the words of this frame (ui/text/i18n.hpp)
  state.ui.next_tooltip.clear();
  state.widget_rects.clear();
  state.widget_text_w.clear();

  const ImGuiIO& io = ImGui::GetIO();
  Screen screen{state, painter, fonts};
  const float em = screen.em = ImGui::GetFontSize();
  const float W = screen.W = io.DisplaySize.x, H = screen.H = io.DisplaySize.y;
  screen.margin = screen.gap = std::floor(0.5f * em);
  // Links may hide panels (hide=) or show one full-size (view=); see sharing.hpp.
  screen.show_formula = panel_shown(state, Panel::Formula) || state.sharing.view == Panel::Formula;
  const float formula_h = screen.show_formula ? std::floor(3.6f * em) : 0.0f;
  const bool mode_bar = kShowModeBar && !state.sharing.view;
  screen.top_h = formula_h + (mode_bar ? mode_bar_height() : 0.0f);
  screen.narrow = W < 48.0f * em;
  state.ui.compact_headers = H < 40.0f * em;
  if (state.ui.controls_h <= 0) state.ui.controls_h = 16.0f * em;  // until the first measurement

  keyboard_begin_frame(state);  // Tab moves the focus; the focused item's keys (ui/frame/keyboard.hpp)
  handle_walk_keys(state);      // ←/→ and Esc: before anything is drawn, so the frame shows the new step
  if (screen.show_formula) draw_top_bar(state, fonts, ImVec2(0, 0), ImVec2(W, formula_h));
  if (mode_bar) draw_mode_bar(state, fonts, ImVec2(0, formula_h), ImVec2(W, screen.top_h - formula_h));
  recompute_if_dirty(state);  // an edit made by the formula strip (none today) would show at once

  // The page: everything below the top bar, scrolling when the panels need more height.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  begin_panel("##page", ImVec2(0, screen.top_h), ImVec2(W, H - screen.top_h));
  ImGui::PopStyleVar(3);
  layout_mode(screen);
  ImGui::Dummy(ImVec2(0, screen.margin));  // bottom margin when the page scrolls
  ImGui::End();
  ImGui::PopStyleColor();
  state.ui.walk.scroll_to_top = false;
  draw_quiz_window(state, fonts);  // over the panels, which stay live
  draw_sharing(state, fonts);      // the gallery window over the panels; the page follows edits
  keyboard_end_frame(state);
}

}  // namespace ui
