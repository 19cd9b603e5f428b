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
#include "ui/layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/screen.hpp"
#include "ui/i18n.hpp"
#include "ui/sharing.hpp"
#include "ui/theme.hpp"
#include "ui/train_mode.hpp"
#include "ui/walk_mode.hpp"

namespace ui {

namespace {

// The wide layouts' left column (Explore, Walk through, Heads): Controls above the tokens' vectors,
// or either one alone, `w` wide from `body_y` down `body_h`. On a short display (a phone in
// landscape) the controls get at most 60 % of what is on screen (down to the causal row; the rest
// scrolls inside the panel), so the vectors panel starts above the fold.
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

// Explore: every panel at once. Wide: controls above the vectors on the left; scores | weights above
// mask | output on the right. Narrow (phones in portrait): one column that scrolls as a whole. One
// full-size panel (view=) fills the window at any width; the wide layout does that.
// Walk through (walk = true): the same panels with the step card on top of the right column (wide)
// or of the column (narrow), where the step's panels come first, right under the card.
void layout_panels(Screen& sc, bool walk) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  if (!sc.narrow || sc.state.sharing.view) {
    const int d_max = std::max({state.scene.d_k(), state.scene.d_v(), int(state.scene.X.cols())});
    const float want_left = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
    const float left_w = std::floor(std::clamp(want_left, 24.0f * em, 0.42f * W));
    const float body_y = sc.top_h > 0 ? sc.top_h : margin;
    // Below ~38 em of height (phones in landscape) the page scrolls instead of squeezing panels
    // (a single full-size panel of an embed fits any height).
    const float body_h = std::max(H - body_y - margin, (sc.state.sharing.view ? 10.0f : 38.0f) * em);
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
    const float half_w = show_scores && show_weights ? std::floor(0.5f * (rw - gap)) : rw;
    if (show_scores) sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, ry), ImVec2(half_w, top_row_h));
    if (show_weights) {
      const float x = show_scores ? rx + half_w + gap : rx;
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, ry), ImVec2(rx + rw - x, top_row_h));
    }
    const float by = top_row ? ry + top_row_h + gap : ry;
    const float bh = ry + rh - by;
    // The mask needs little room for few tokens: give the rest to the output bars.
    const float mask_want = 8.0f * em + float(state.scene.n()) * 2.6f * em;  // labels + cells
    const float mask_w =
        !show_out ? rw
                  : std::floor(std::clamp(std::min(0.34f * rw, mask_want), (walk ? 24.0f : 16.0f) * em, 0.5f * rw));
    if (show_mask) sc.mask(ImVec2(rx, by), ImVec2(mask_w, bh));
    if (show_out) {
      const float x = show_mask ? rx + mask_w + gap : rx;
      sc.output(ImVec2(x, by), ImVec2(rx + rw - x, bh));
    }
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    const float x = margin;
    float y = sc.top_h > 0 ? sc.top_h : margin;
    // A learned scene has four rows per token (x, q, k, v) and the W grids below them.
    const bool learned = state.scene.mode == scene::Mode::Projected;
    const float per_token = learned ? 7.4f * em : 5.6f * em;
    const float tokens_h =
        std::min(learned ? 40.0f * em : 28.0f * em, std::max(12.0f * em, float(state.scene.n()) * per_token));
    const float square = std::min(w, 30.0f * em);
    if (walk) {
      const float card_h = walk_card_height(state, sc.fonts, w);
      sc.walk_card(ImVec2(x, y), ImVec2(w, card_h));
      y += card_h + gap;
    }
    // Panels in their usual order; in the walk, the step's own panels first.
    const Panel order[] = {Panel::Controls, Panel::Vectors, Panel::Scores,
                           Panel::Weights,  Panel::Mask,    Panel::Output};
    for (int pass = walk ? 0 : 1; pass < 2; ++pass) {
      for (Panel panel : order) {
        if (!panel_shown(sc.state, panel)) continue;
        if (walk && walk_panel_lit(state, panel) != (pass == 0)) continue;
        switch (panel) {
          case Panel::Controls:
            sc.controls(ImVec2(x, y), ImVec2(w, controls_h));
            y += controls_h + gap;
            break;
          case Panel::Vectors:
            sc.vectors(ImVec2(x, y), ImVec2(w, tokens_h));
            y += tokens_h + gap;
            break;
          case Panel::Scores:
            sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
            y += square * 0.9f + 6.0f * em + gap;
            break;
          case Panel::Weights:
            sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
            y += square * 0.9f + 6.0f * em + gap;
            break;
          case Panel::Mask: {
            // Tall enough for cells about the heatmaps' size (the mask is read against them).
            const float mask_h = square * 0.75f + 6.0f * em;
            sc.mask(ImVec2(x, y), ImVec2(w, mask_h));
            y += mask_h + gap;
            break;
          }
          case Panel::Output: {
            const float out_h = float(state.scene.n()) * 2.5f * em + 6.0f * em;
            sc.output(ImVec2(x, y), ImVec2(w, out_h));
            y += out_h + gap;
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
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  const bool show_ctrl = panel_shown(sc.state, Panel::Controls),
             show_vec = panel_shown(sc.state, Panel::Vectors);
  const bool show_scores = panel_shown(sc.state, Panel::Scores),
             show_weights = panel_shown(sc.state, Panel::Weights);
  const bool show_out = panel_shown(sc.state, Panel::Output);
  if (!sc.narrow || sc.state.sharing.view) {
    const int d_max = std::max(state.scene.d_k(), state.scene.d_v());
    const float want_left = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
    const float left_w = std::floor(std::clamp(want_left, 24.0f * em, 0.42f * W));
    const float body_y = sc.top_h > 0 ? sc.top_h : margin;
    const float body_h = std::max(H - body_y - margin, (sc.state.sharing.view ? 10.0f : 38.0f) * em);
    const bool left = show_ctrl || show_vec;
    left_column(sc, left_w, body_y, body_h, show_ctrl, show_vec);
    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    const bool bottom = show_scores || show_out;
    const float top_h = !bottom ? body_h : std::floor(0.52f * body_h);
    if (show_weights) sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, top_h));
    const float by = show_weights ? body_y + top_h + gap : body_y;
    const float bh = body_y + body_h - by;
    const float scores_w = !show_out ? rw : std::floor(std::min(0.42f * rw, bh + 6.0f * em));
    if (show_scores) sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, by), ImVec2(scores_w, bh));
    if (show_out) {
      const float x = show_scores ? rx + scores_w + gap : rx;
      sc.output(ImVec2(x, by), ImVec2(rx + rw - x, bh));
    }
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    const float x = margin;
    float y = sc.top_h > 0 ? sc.top_h : margin;
    const float tokens_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 5.6f * em));
    const float square = std::min(w, 30.0f * em);
    if (show_ctrl) {
      sc.controls(ImVec2(x, y), ImVec2(w, controls_h));
      y += controls_h + gap;
    }
    if (show_weights) {  // the small multiples two or three across
      const float weights_h = square * 1.1f + 8.0f * em;
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, weights_h));
      y += weights_h + gap;
    }
    if (show_vec) {
      sc.vectors(ImVec2(x, y), ImVec2(w, tokens_h));
      y += tokens_h + gap;
    }
    if (show_scores) {
      sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (show_out) sc.output(ImVec2(x, y), ImVec2(w, float(state.scene.n()) * 4.0f * em + 16.0f * em));
  }
}

// FlashAttention: the stepper on the left; on the right the Scores grid cut into tiles above each
// query row's running state. Narrow: one scrolling column.
void layout_flash(Screen& sc) {
  flash_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    // Top: the stepper beside the tiled Scores grid; below, across the width, the rows' state.
    const float body_h = std::max(H - body_y - margin, 36.0f * em);
    const float rows_h = std::floor(std::clamp(float(n) * 1.7f * em + 8.5f * em, 9.0f * em, 0.45f * body_h));
    const float top_h = body_h - rows_h - gap;
    const float left_w = std::floor(std::clamp(0.36f * W, 22.0f * em, 30.0f * em));
    sc.panel("FlashAttention", draw_flash_panel, ImVec2(margin, body_y), ImVec2(left_w, top_h));
    const float rx = margin + left_w + gap;
    sc.flash_scores(ImVec2(rx, body_y), ImVec2(W - rx - margin, top_h));
    sc.panel("Running state", draw_flash_rows, ImVec2(margin, body_y + top_h + gap),
             ImVec2(W - 2.0f * margin, rows_h));
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float stepper_h = 23.5f * em, square = std::min(w, 30.0f * em);
    sc.panel("FlashAttention", draw_flash_panel, ImVec2(margin, y), ImVec2(w, stepper_h));
    y += stepper_h + gap;
    sc.flash_scores(ImVec2(margin, y), ImVec2(w, square * 0.9f + 6.0f * em));
    y += square * 0.9f + 6.0f * em + gap;
    sc.panel("Running state", draw_flash_rows, ImVec2(margin, y),
             ImVec2(w, float(n) * 2.0f * em + 8.0f * em));
  }
}

// Decode: the stepper and the multiply counter on the left, the cache on the right. Narrow: stacked.
void layout_decode(Screen& sc) {
  decode_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 30.0f * em);
    const float left_w = std::floor(std::clamp(0.34f * W, 22.0f * em, 30.0f * em));
    sc.panel("Decode", draw_decode_panel, ImVec2(margin, body_y), ImVec2(left_w, body_h));
    const float rx = margin + left_w + gap;
    sc.panel("KV cache", draw_decode_cache, ImVec2(rx, body_y), ImVec2(W - rx - margin, body_h),
             ImGuiWindowFlags_NoScrollbar);
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float stepper_h = 25.5f * em;
    sc.panel("Decode", draw_decode_panel, ImVec2(margin, y), ImVec2(w, stepper_h));
    y += stepper_h + gap;
    sc.panel("KV cache", draw_decode_cache, ImVec2(margin, y),
             ImVec2(w, float(n + 3) * 2.1f * em + 10.0f * em), ImGuiWindowFlags_NoScrollbar);
  }
}

// Key space: the soft dictionary as pictures. Wide: key space | value space | weights on top (the
// two pictures are read together: move q toward k_j, watch y slide onto v_j; hovering a weights row
// follows that query), the vectors across the bottom. Narrow: key space, value space, weights, vectors in one
// scrolling column. The pictures are drawn first so a drag in them shows in every other panel in the same
// frame.
void layout_keyspace(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 34.0f * em);
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
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float pic = std::min(w, 26.0f * em) + 5.0f * em;
    sc.keyspace(ImVec2(margin, y), ImVec2(w, pic));
    y += pic + gap;
    sc.valuespace(ImVec2(margin, y), ImVec2(w, pic));
    y += pic + gap;
    const float square = std::min(w, 30.0f * em);
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(margin, y), ImVec2(w, square * 0.9f + 6.0f * em));
    y += square * 0.9f + 6.0f * em + gap;
    sc.vectors(ImVec2(margin, y),
               ImVec2(w, std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 7.0f * em))));
  }
}

// Train: the controls above the loss curve on the left; the weights of the sample sequence (the
// model itself, updated every step) above its predictions on the right. Narrow: controls, weights,
// predictions, curve in one scrolling column.
void layout_train(Screen& sc) {
  train_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 34.0f * em);
    const float left_w = std::floor(std::clamp(0.36f * W, 24.0f * em, 32.0f * em));
    const float controls_h = std::min(24.0f * em, 0.64f * body_h);
    sc.panel("Train", draw_train_panel, ImVec2(margin, body_y), ImVec2(left_w, controls_h));
    sc.panel("Loss", draw_train_curve, ImVec2(margin, body_y + controls_h + gap),
             ImVec2(left_w, body_h - controls_h - gap),
             ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const float rx = margin + left_w + gap, rw = W - rx - margin;
    const float pred_h = 10.4f * em;
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, body_h - pred_h - gap));
    sc.panel("Predictions", draw_train_predictions, ImVec2(rx, body_y + body_h - pred_h), ImVec2(rw, pred_h),
             ImGuiWindowFlags_NoScrollbar);
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float controls_h = 24.5f * em, square = std::min(w, 30.0f * em);
    sc.panel("Train", draw_train_panel, ImVec2(margin, y), ImVec2(w, controls_h));
    y += controls_h + gap;
    const float weights_h = square * (sc.state.scene.heads > 1 ? 1.1f : 0.9f) + 7.0f * em;
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(margin, y), ImVec2(w, weights_h));
    y += weights_h + gap;
    sc.panel("Predictions", draw_train_predictions, ImVec2(margin, y), ImVec2(w, 9.0f * em),
             ImGuiWindowFlags_NoScrollbar);
    y += 9.0f * em + gap;
    sc.panel("Loss", draw_train_curve, ImVec2(margin, y), ImVec2(w, 16.0f * em),
             ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
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
  state.ui.tooltip = std::move(state.ui.next_tooltip);  // the tooltip text drawn last frame
  state.ui.overflow = std::move(state.ui.next_overflow);  // texts that did not fit, last frame
  state.ui.next_overflow.clear();
  set_language(shown_language(state.ui));  // the words of this frame (ui/i18n.hpp)
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

  keyboard_begin_frame(state);  // Tab moves the focus; the focused item's keys (ui/keyboard.hpp)
  handle_walk_keys(state);  // ←/→ and Esc: before anything is drawn, so the frame shows the new step
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
