// panels_layout.cpp — every shared panel at once, with an optional card on top (see panels_layout.hpp).
#include "ui/modes/panels_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "ui/modes/layout_parts.hpp"

namespace ui {

// Every panel at once. Wide: controls above the vectors on the left; scores | weights above
// mask | output on the right. Narrow (phones in portrait): one column that scrolls as a whole. One
// full-size panel (view=) fills the window at any width; the wide layout does that.
// With a card: the same panels with the card on top of the right column (wide) or of the column
// (narrow), where the card's lit panels come first, right under it.
void layout_panels(Screen& sc, const PanelsCard* card) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.frame.controls_h;
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
    const bool show_ctrl = sc.state.sharing.shown(Panel::Controls),
               show_vec = sc.state.sharing.shown(Panel::Vectors);
    const bool show_scores = sc.state.sharing.shown(Panel::Scores),
               show_weights = sc.state.sharing.shown(Panel::Weights);
    const bool show_mask = sc.state.sharing.shown(Panel::Mask),
               show_out = sc.state.sharing.shown(Panel::Output);
    const bool left = show_ctrl || show_vec;
    const bool top_row = show_scores || show_weights, bottom_row = show_mask || show_out;
    const float full_w = W - 2.0f * margin;
    const float left_w_used = !(top_row || bottom_row) ? full_w : left_w;
    left_column(sc, left_w_used, body_y, body_h, show_ctrl, show_vec);

    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    // The right column, below the card when there is one.
    float ry = body_y, rh = body_h;
    if (card) {
      const float card_h = card->height(state, sc.fonts, rw);
      card->draw(sc, ImVec2(rx, body_y), ImVec2(rw, card_h));
      ry += card_h + gap;
      rh -= card_h + gap;
    }
    // A window, sinks or ALiBi add rows (and the bias grid B) to the mask: give the bottom row more. A
    // large scene's grids are its picture: the top row takes more of the height.
    const bool variants = state.scene.window > 0 || state.scene.alibi;
    const float top_share = variants ? 0.54f : large_scene(sc) ? 0.66f : 0.62f;
    float top_row_h = !bottom_row ? rh : std::floor(top_share * rh);
    if (card && top_row && bottom_row) {
      // The card takes the top of the column: keep the mask and output readable (the mask's
      // hint, grid and question need ~13 em when it is 24 em wide) by taking the room from the top row, and
      // below a readable minimum for both rows let the page scroll instead of squeezing them.
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
    const float mask_min = std::min((card ? 24.0f : 16.0f) * em, 0.5f * rw);
    const float mask_w = std::floor(std::clamp(std::min(0.34f * rw, mask_want), mask_min, 0.5f * rw));
    side_by_side(sc, ImVec2(rx, by), ImVec2(rw, ry + rh - by), mask_w, show_mask, show_out, mask, output);
  } else {
    Column col(sc);
    // A learned scene has four rows per token (x, q, k, v) and the W grids below them.
    const bool learned = state.scene.mode == scene::Mode::Projected;
    const float per_token = learned ? 7.4f * em : 5.6f * em;
    const float tokens_h =
        std::min(learned ? 40.0f * em : 28.0f * em, std::max(12.0f * em, float(state.scene.n()) * per_token));
    if (card) {
      const float card_h = card->height(state, sc.fonts, col.w);
      card->draw(sc, col.take(card_h), col.size(card_h));
    }
    // Panels in their usual order; under a card, the panels it lights first. A large scene shows its
    // pattern first: the grids above the controls and the vectors.
    using Order = std::array<Panel, 6>;
    const Order usual{Panel::Controls, Panel::Vectors, Panel::Scores,
                      Panel::Weights,  Panel::Mask,    Panel::Output};
    const Order grids_first{Panel::Weights, Panel::Scores, Panel::Controls,
                            Panel::Vectors, Panel::Mask,   Panel::Output};
    const Order& order = large_scene(sc) ? grids_first : usual;
    for (int pass = card ? 0 : 1; pass < 2; ++pass) {
      for (Panel panel : order) {
        if (!sc.state.sharing.shown(panel)) continue;
        if (card && card->lit(state, panel) != (pass == 0)) continue;
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
}

}  // namespace ui
