// train_layout.cpp — the Train mode's layout (the panels: train_mode.cpp).
#include <algorithm>
#include <cmath>

#include "ui/modes/layout_parts.hpp"
#include "ui/modes/train/train_mode.hpp"

namespace ui {

// Train: the controls above the loss curve on the left; the weights of the sample sequence (the
// model itself, updated every step) above its predictions on the right. Narrow: controls, weights,
// predictions, curve in one scrolling column.
void layout_train(Screen& sc) {
  const float em = sc.em, margin = sc.margin, gap = sc.gap;
  if (!sc.narrow) {
    const auto [body_y, body_h, left_w, rx, rw] = side_body(sc, 34.0f, 0.36f, 24.0f, 32.0f);
    stack_panels(sc, ImVec2(margin, body_y), ImVec2(left_w, body_h), std::min(24.0f * em, 0.64f * body_h),
                 {"Train", draw_train_panel}, {"Loss", draw_train_curve, kFitted});
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
    sc.panel("Loss", draw_train_curve, col.take(curve_h), col.size(curve_h), kFitted);
  }
}

}  // namespace ui
