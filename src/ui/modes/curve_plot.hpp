// curve_plot.hpp — the plot of a curve over training steps, as the Train mode's loss panel and the
// Circuits mode's curve draw it: the area that fills the rest of the panel, the step axis, tick
// labels on the left, a dashed threshold, and a series drawn as one point per pixel column (the
// mean of that column's steps).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/look/theme.hpp"
#include "ui/text/i18n.hpp"

namespace ui {

struct CurveArea {
  ImDrawList* dl;
  float em;     // the font size when the area was made: its margins and dashes are in these ems
  ImVec2 size;  // the whole area (the caller records it as its widget: invisible_button)
  ImVec2 a, b;  // the plot's top-left and bottom-right corners, inside the axes' labels
  int x_max;    // the step at the right edge (step 0 at the left)
  float x_of(double step) const { return float(a.x + step / x_max * (b.x - a.x)); }
  // The height of `fraction` of the plot: 0 at the bottom, 1 at the top.
  float y_at(double fraction) const { return float(b.y - fraction * (b.y - a.y)); }
};

// The rest of the window's content region (at least 4 em each way) from the cursor, with margins of
// `left`, `right` and `bottom` ems for the labels (0.3 em at the top); the plot filled with the
// background colour.
inline CurveArea curve_area(float left, float right, float bottom, int x_max) {
  const float em = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(avail.x, 4.0f * em), std::max(avail.y, 4.0f * em));
  const ImVec2 a(p0.x + left * em, p0.y + 0.3f * em),
      b(p0.x + size.x - right * em, p0.y + size.y - bottom * em);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, palette::background());
  return {dl, em, size, a, b, x_max};
}

// Under the plot: "0" at the left, "step N" (N = x_max) at the right (in the current font).
inline void draw_step_axis(const CurveArea& c) {
  const std::string text = fill(tr(Text::TrainCurveStep), {std::to_string(c.x_max)});
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  c.dl->AddText(ImVec2(c.b.x - ts.x, c.b.y + 0.1f * c.em), palette::text_dim(), text.c_str());
  c.dl->AddText(ImVec2(c.a.x, c.b.y + 0.1f * c.em), palette::text_dim(), "0");
}

// A tick label left of the plot, centred on height y.
inline void draw_left_label(const CurveArea& c, float y, const char* text) {
  const ImVec2 ts = ImGui::CalcTextSize(text);
  c.dl->AddText(ImVec2(c.a.x - ts.x - 0.3f * c.em, y - 0.5f * ts.y), palette::text_dim(), text);
}

// A dashed line across the plot at height y (dashes of 0.4 em every 0.8 em), faint.
inline void draw_dashed_line(const CurveArea& c, float y, ImU32 color) {
  for (float x = c.a.x; x < c.b.x; x += 0.8f * c.em)
    c.dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 0.4f * c.em, c.b.x), y), palette::with_alpha(color, 110));
}

// The series value_of(s) for steps s = 0 … steps−1: one point per pixel column, at the mean of the
// steps that column covers (at least one), y_of(mean) high; nothing with fewer than two points.
template <class ValueOf, class YOf>
void draw_column_means(const CurveArea& c, int steps, ValueOf value_of, YOf y_of, ImU32 color, float width) {
  const int columns = std::max(1, int(c.b.x - c.a.x));
  std::vector<ImVec2> points;
  for (int col = 0; col < columns && steps > 0; ++col) {
    const int s0 = int(double(col) / columns * c.x_max);
    const int s1 = std::min(steps, std::max(int(double(col + 1) / columns * c.x_max), s0 + 1));
    if (s0 >= steps) break;
    double sum = 0;
    for (int s = s0; s < s1; ++s) sum += value_of(s);
    points.emplace_back(c.x_of(0.5 * (s0 + s1)), y_of(sum / (s1 - s0)));
  }
  // A whole-pixel width takes ImGui's textured anti-aliased lines: 2 vertices a point instead of 4
  // (a curve is redrawn every frame while a run plays; 1.92 px and 2 px look the same).
  const float whole = std::max(1.0f, std::round(width));
  if (points.size() >= 2) c.dl->AddPolyline(points.data(), int(points.size()), color, 0, whole);
}

}  // namespace ui
