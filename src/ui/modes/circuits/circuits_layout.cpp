// circuits_layout.cpp — the Circuits mode's layout (the panels: circuits_panels.cpp, circuits_grid.cpp).
#include <algorithm>
#include <cmath>

#include "ui/look/theme.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/circuits/circuits_parts.hpp"
#include "ui/modes/layout_parts.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {
namespace {

void heads_panel(Screen& sc, ImVec2 pos, ImVec2 size) {
  if (sc.open("Heads", pos, size)) draw_circuits_grid(sc.state, sc.painter, sc.fonts);
  sc.close();
}

}  // namespace

void guide_outline(const AppState& state, int step) {
  if (state.ui.circuits.guide_step + 1 != step) return;
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const float t = std::max(2.0f, 0.15f * ImGui::GetFontSize());
  ImGui::GetForegroundDrawList()->AddRect(ImVec2(pos.x + 0.5f * t, pos.y + 0.5f * t),
                                          ImVec2(pos.x + size.x - 0.5f * t, pos.y + size.y - 0.5f * t),
                                          palette::accent(), ImGui::GetStyle().ChildRounding, 0, t);
}

// Circuits, wide: the controls above the curve on the left; the heads' grid in the middle with the
// predictions under it; the composition matrix above the guide on the right. Narrow: one column.
void layout_circuits(Screen& sc) {
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  const int n_heads = sc.state.ui.circuits.config.dims.heads;
  if (!sc.narrow) {
    // The middle column (Heads above Predictions) is the side body's rest less the right column.
    const auto [body_y, body_h, left_w, mx, rest_w] = side_body(sc, 36.0f, 0.3f, 23.0f, 30.0f);
    stack_panels(sc, ImVec2(margin, body_y), ImVec2(left_w, body_h), std::min(29.0f * em, 0.68f * body_h),
                 {"Circuits", draw_circuits_panel}, {"Curve", draw_circuits_curve, kFitted});
    const float right_w = side_width(sc, 0.2f, 15.0f, 22.0f);
    const float mw = rest_w - right_w - gap;
    const float pred_h = 8.8f * em;
    heads_panel(sc, ImVec2(mx, body_y), ImVec2(mw, body_h - pred_h - gap));
    sc.panel("Predictions", draw_circuits_predictions, ImVec2(mx, body_y + body_h - pred_h),
             ImVec2(mw, pred_h), ImGuiWindowFlags_HorizontalScrollbar);
    const float rx = W - margin - right_w;
    const float comp_h = std::min(0.6f * body_h, 10.5f * em + float(n_heads) * 3.3f * em);
    stack_panels(sc, ImVec2(rx, body_y), ImVec2(right_w, body_h), comp_h,
                 {"Composition", draw_circuits_composition}, {"Guide", draw_circuits_guide});
  } else {
    Column col(sc);
    const int layers = sc.state.ui.circuits.config.dims.layers;
    const float side = std::min(22.0f * em, (col.w - 2.0f * em) / float(n_heads));
    const float grid_h = 6.5f * em + float(layers) * (side + 3.2f * em);
    const float controls_h = 31.0f * em, pred_h = 9.0f * em, curve_h = 17.0f * em;
    const float comp_h = 10.5f * em + float(n_heads) * 3.3f * em, guide_h = 16.0f * em;
    sc.panel("Circuits", draw_circuits_panel, col.take(controls_h), col.size(controls_h));
    heads_panel(sc, col.take(grid_h), col.size(grid_h));
    sc.panel("Predictions", draw_circuits_predictions, col.take(pred_h), col.size(pred_h),
             ImGuiWindowFlags_HorizontalScrollbar);
    sc.panel("Curve", draw_circuits_curve, col.take(curve_h), col.size(curve_h), kFitted);
    sc.panel("Composition", draw_circuits_composition, col.take(comp_h), col.size(comp_h));
    sc.panel("Guide", draw_circuits_guide, col.take(guide_h), col.size(guide_h));
  }
}

}  // namespace ui
