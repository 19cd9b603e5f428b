// heads_layout.cpp — the Heads mode: every head's weights side by side (the panels are shared:
// panels/heads_panel.cpp draws a multi-head scene in every mode).
#include <algorithm>
#include <cmath>

#include "ui/modes/heads/heads.hpp"
#include "ui/modes/layout_parts.hpp"

namespace ui {

// Heads: the heads side by side. Wide: controls (with the heads control) above the vectors (each
// head's columns underlined) on the left; on the right the weights of every head as small multiples
// across the top, and below them the focused head's scores beside the output (each head's Y_t, the
// concat, W_o). Narrow: the same panels in one scrolling column.
void layout_heads(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.frame.controls_h;
  const bool show_ctrl = sc.state.sharing.shown(Panel::Controls),
             show_vec = sc.state.sharing.shown(Panel::Vectors);
  const bool show_scores = sc.state.sharing.shown(Panel::Scores),
             show_weights = sc.state.sharing.shown(Panel::Weights);
  const bool show_out = sc.state.sharing.shown(Panel::Output);
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

}  // namespace ui
