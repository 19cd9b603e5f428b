// bias_grid.cpp — ALiBi's bias B(i, j) = −m·|i − j| of the focused head as a grid beside the mask
// (variant_parts.hpp): the "+ B" of softmax(QKᵀ / s + B + M) V, read from the core's result
// (Result::bias), never recomputed here.
#include <algorithm>
#include <cmath>
#include <string>

#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

void draw_bias_grid(AppState& state, MatrixPainter& painter, const Fonts& fonts, ImVec2 origin, float cell) {
  const attn::Matrix& B = state.result.bias;
  const int n = int(B.rows());
  if (n < 1 || B.cols() != n) return;
  // The values as floats for the painter (rebuilt when the result changes), range [min B, 0].
  std::vector<float>& values = state.ui.caches.bias_values;
  if (state.ui.caches.bias_version != state.result_version || values.size() != std::size_t(n) * n) {
    state.ui.caches.bias_version = state.result_version;
    values.resize(std::size_t(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) values[std::size_t(i) * n + j] = float(B(i, j));
  }
  const float lo = std::min(*std::min_element(values.begin(), values.end()), -1e-6f);
  const float side = cell * float(n);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  MatrixImage image;
  image.slot = MatrixSlot::Bias;
  image.rows = image.cols = n;
  image.values = values.data();
  image.version = state.result_version;
  image.colormap = Colormap::Viridis;
  image.lo = lo;
  image.hi = 0;
  image.gap_px = cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * cell, 3.0f))) : 0.0f;
  painter.paint(dl, origin, ImVec2(origin.x + side, origin.y + side), image);
  // The numbers when they fit (two decimals: the slopes are powers of 1/2).
  ImGui::PushFont(fonts.small);
  if (cell >= 2.2f * ImGui::GetFontSize()) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const std::string t = format_number(B(i, j), 2);
        const ImVec2 size = ImGui::CalcTextSize(t.c_str());
        const ImU32 bg = colormap_color(Colormap::Viridis, (values[std::size_t(i) * n + j] - lo) / (0 - lo));
        dl->AddText(ImVec2(origin.x + cell * (float(j) + 0.5f) - 0.5f * size.x,
                           origin.y + cell * (float(i) + 0.5f) - 0.5f * size.y),
                    contrasting_text(bg), t.c_str());
      }
    }
  }
  ImGui::PopFont();
  ImGui::SetCursorScreenPos(origin);
  invisible_button(state, "bias", "##biasgrid", ImVec2(std::max(side, 1.0f), std::max(side, 1.0f)));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int i = std::clamp(int((mouse.y - origin.y) / cell), 0, n - 1);
    const int j = std::clamp(int((mouse.x - origin.x) / cell), 0, n - 1);
    state.ui.frame.next.hovered_row = i;
    state.ui.frame.next.hovered_col = j;
    state.ui.frame.next.hovered_term = Term::Bias;
    const double m = n > 1 ? -B(1, 0) : 0.0;  // the head's slope: B(1, 0) = −m
    ImGui::SetTooltip(
        "%s", fill(tr(Text::BiasCellTip), {std::to_string(i), std::to_string(j), format_number(m, 4),
                                           std::to_string(std::abs(i - j)), format_number(B(i, j), 4)})
                  .c_str());
  }
}

}  // namespace ui
