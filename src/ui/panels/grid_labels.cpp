// grid_labels.cpp — see grid_labels.hpp.
#include "ui/panels/grid_labels.hpp"

#include <algorithm>
#include <cmath>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {
namespace {

void record_label(AppState& state, const GridLabels& g, const char* axis, int k, ImVec2 min, ImVec2 size) {
  state.ui.frame.widget_rects["label/" + std::string(g.grid) + "/" + axis + "/" + std::to_string(k)] =
      ImVec4(min.x, min.y, size.x, size.y);
}

}  // namespace

int label_step(float cell, float need) {
  int step = 1;
  while (float(step) * cell < need && step < (1 << 24)) step *= 2;
  return step;
}

float widest_label(const std::vector<std::string>& tokens) {
  float w = 0;
  for (const std::string& t : tokens) w = std::max(w, ImGui::CalcTextSize(t.c_str()).x);
  return w;
}

void draw_query_labels(AppState& state, const GridLabels& g, float right_x, float max_w, ImU32 color) {
  const float line = ImGui::GetTextLineHeight();
  const int step = label_step(g.cell, line);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int i = (g.row_first + step - 1) / step * step; i < g.row_last; i += step) {
    const std::string& name = (*g.tokens)[std::size_t(i)];
    const std::string text = fit_text(name, max_w);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 at(right_x - size.x, g.origin.y + g.cell * (float(i) + 0.5f) - 0.5f * line);
    dl->AddText(at, i == g.lit_row ? palette::text() : color, text.c_str());
    record_label(state, g, "row", i, at, size);
    // A cut name: the whole of it on hover.
    if (text != name && ImGui::IsWindowHovered() && mouse.x >= at.x && mouse.x < at.x + size.x &&
        mouse.y >= at.y && mouse.y < at.y + size.y)
      ImGui::SetTooltip("%s", name.c_str());
  }
}

void draw_key_labels(AppState& state, const GridLabels& g, float top_y, ImU32 color) {
  const float em = ImGui::GetFontSize();
  const std::vector<std::string>& keys = g.col_tokens ? *g.col_tokens : *g.tokens;
  const int step = label_step(g.cell, widest_label(keys) + 0.5f * em);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int j = (g.col_first + step - 1) / step * step; j < g.col_last; j += step) {
    const std::string& name = keys[std::size_t(j)];
    const ImVec2 size = ImGui::CalcTextSize(name.c_str());
    const ImVec2 at(g.origin.x + g.cell * (float(j) + 0.5f) - 0.5f * size.x, top_y);
    dl->AddText(at, j == g.lit_col ? palette::text() : color, name.c_str());
    record_label(state, g, "col", j, at, size);
  }
}

}  // namespace ui
