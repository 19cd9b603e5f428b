// flash_layout.cpp — the FlashAttention mode's layout (the panels: flash_panel.cpp).
#include <algorithm>
#include <cmath>

#include "ui/modes/flash/flash.hpp"
#include "ui/modes/layout_parts.hpp"

namespace ui {

// FlashAttention: the stepper on the left; on the right the Scores grid cut into tiles above each
// query row's running state. Narrow: one scrolling column.
void layout_flash(Screen& sc) {
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  if (!sc.narrow) {
    // Top: the stepper beside the tiled Scores grid; below, across the width, the rows' state.
    const auto [body_y, body_h, left_w, rx, rw] = side_body(sc, 36.0f, 0.36f, 22.0f, 30.0f);
    const float rows_h = std::floor(std::clamp(float(n) * 1.7f * em + 8.5f * em, 9.0f * em, 0.45f * body_h));
    const float top_h = body_h - rows_h - gap;
    sc.panel("FlashAttention", draw_flash_panel, ImVec2(margin, body_y), ImVec2(left_w, top_h));
    sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, body_y), ImVec2(rw, top_h), draw_flash_tiles);
    sc.panel("Running state", draw_flash_rows, ImVec2(margin, body_y + top_h + gap),
             ImVec2(W - 2.0f * margin, rows_h));
  } else {
    Column col(sc);
    const float stepper_h = 23.5f * em, rows_h = float(n) * 2.0f * em + 8.0f * em;
    sc.panel("FlashAttention", draw_flash_panel, col.take(stepper_h), col.size(stepper_h));
    sc.heatmap("Scores", HeatmapKind::Scores, col.take(col.grid_h()), col.size(col.grid_h()),
               draw_flash_tiles);
    sc.panel("Running state", draw_flash_rows, col.take(rows_h), col.size(rows_h));
  }
}

}  // namespace ui
