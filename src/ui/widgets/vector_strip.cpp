// vector_strip.cpp — a matrix row as a strip of colour cells (see vector_strip.hpp).
#include "ui/widgets/vector_strip.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui_internal.h"  // ImGuiSliderFlags_Vertical: DragScalar along y (up = larger)
#include "scene/scene.hpp"
#include "ui/look/theme.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {
namespace {

// Vertical drag (up = larger), no ImGui text field in the cell (typing opens our wider field).
constexpr ImGuiSliderFlags kDragFlags =
    ImGuiSliderFlags(ImGuiSliderFlags_Vertical) | ImGuiSliderFlags_NoInput;

// A cell's colour: the theme's zero colour (palette::strip_zero()) mixed towards the role's colours.

ImU32 mix(ImU32 a, ImU32 b, float t) {
  auto channel = [&](int shift) {
    const float x = float((a >> shift) & 0xFF), y = float((b >> shift) & 0xFF);
    return ImU32(std::lround(x + (y - x) * t)) << shift;
  };
  return channel(IM_COL32_R_SHIFT) | channel(IM_COL32_G_SHIFT) | channel(IM_COL32_B_SHIFT) |
         (ImU32(255) << IM_COL32_A_SHIFT);
}

// Draw one cell: tint by |t| towards the sign's colour; a bar from the mid-line (strips) or the
// number (zoomed view).
void paint_cell(ImDrawList* dl, ImVec2 a, ImVec2 b, const StripRole& role, double value, bool numbers,
                bool hot, const std::string& text) {
  const float t = float(std::clamp(value / role.range, -1.0, 1.0));
  const ImU32 end = t >= 0 ? role.color : role.negative;
  const float mag = std::abs(t);
  dl->AddRectFilled(a, b,
                    mix(palette::strip_zero(), end, numbers ? 0.1f + 0.35f * mag : 0.08f + 0.32f * mag));
  if (!numbers) {
    const float mid = 0.5f * (a.y + b.y);
    const float half = 0.5f * (b.y - a.y) - 1.5f;
    const float inset = (b.x - a.x) >= 5.0f ? 1.0f : 0.0f;
    dl->AddLine(ImVec2(a.x, mid), ImVec2(b.x, mid), palette::panel_border());
    if (mag > 0) {
      const float tip = mid - t * half;
      dl->AddRectFilled(ImVec2(a.x + inset, std::min(mid, tip)),
                        ImVec2(b.x - inset, std::max(mid, tip) + 1.0f), end);
    }
  } else {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    dl->AddText(ImVec2(0.5f * (a.x + b.x - size.x), 0.5f * (a.y + b.y - size.y)), palette::text(),
                text.c_str());
  }
  if (hot) dl->AddRect(a, b, palette::text(), 0.0f, 0, 1.0f);
}

}  // namespace

float strip_min_cell(const AppState& state) {
  return std::ceil(6.0f * (state.ui_scale > 0 ? state.ui_scale : 1.0f));
}

float slider_text_need(double range) {
  // The widest text of ±range: a minus sign, the integer digits of range, two decimals.
  std::string text = format_number(-std::max(1.0, range), 2);
  for (char& ch : text) {
    if (ch >= '0' && ch <= '9') ch = '0';
  }
  // draw_slider_value keeps 2 px either side of the text; a little more so it does not touch.
  return ImGui::CalcTextSize(text.c_str()).x + std::max(4.0f, 0.3f * ImGui::GetFontSize());
}

StripEdit draw_vector_strip(AppState& state, const StripRole& role, int i, const double* values, int d,
                            float cell_w, float gap, int per_line, bool numbers) {
  StripEdit edit;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  const float line_gap = std::max(gap, 0.25f * ImGui::GetFontSize());
  per_line = std::max(1, per_line);
  const int lines = (d + per_line - 1) / per_line;
  const std::string prefix = std::string(role.id) + "/" + std::to_string(i) + "/";

  ImGui::PushID(role.id);
  for (int c = 0; c < d; ++c) {
    const int line = c / per_line, col = c % per_line;
    const ImVec2 a(start.x + float(col) * (cell_w + gap), start.y + float(line) * (h + line_gap));
    const ImVec2 b(a.x + cell_w, a.y + h);
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(c);
    double value = values[c];
    const double lo = -role.range, hi = role.range;
    const ImVec4 clear(0, 0, 0, 0);
    const ImGuiCol hidden[] = {ImGuiCol_FrameBg, ImGuiCol_FrameBgHovered, ImGuiCol_FrameBgActive,
                               ImGuiCol_Text};
    for (ImGuiCol col_id : hidden) ImGui::PushStyleColor(col_id, clear);
    ImGui::SetNextItemWidth(cell_w);
    bool moved = ImGui::DragScalar("##c", ImGuiDataType_Double, &value, float(role.range / 60.0), &lo, &hi,
                                   "%.2f", kDragFlags);
    ImGui::PopStyleColor(4);
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    const std::string id = prefix + std::to_string(c);
    // The keyboard: arrows step the focused cell as they do a slider; Enter opens the typing field.
    moved |= value_cell(state, id, &value, lo, hi, role.range, spoken_component(role.id, i, c));
    if (typing_requested(state, id)) ImGui::OpenPopup("type");
    if (ImGui::IsItemVisible()) {
      const std::string text = numbers ? format_number(value, 2) : std::string();
      paint_cell(dl, a, b, role, value, numbers, hovered || active, text);
      record_item_text(state, id, numbers ? ImGui::CalcTextSize(text.c_str()).x : 0.0f);
    }
    if (moved && std::isfinite(value)) {
      edit.c = c;
      edit.value = value;
    }
    // Double-click or Ctrl+click: type the exact number in a field next to the cell.
    if (hovered && (ImGui::IsMouseDoubleClicked(0) || (ImGui::IsMouseClicked(0) && ImGui::GetIO().KeyCtrl))) {
      ImGui::OpenPopup("type");
    }
    if (hovered && !active && !ImGui::IsPopupOpen("type")) {
      ImGui::SetTooltip("%s_%d[%d] = %s   %s", role.name, i, c, format_number(values[c], 4).c_str(),
                        tr(Text::VectorTip));
    }
    ImGui::SetNextWindowPos(ImVec2(a.x, b.y + 2.0f));
    if (ImGui::BeginPopup("type")) {
      ImGui::Text("%s_%d[%d] =", role.name, i, c);
      ImGui::SameLine();
      if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
      double typed = values[c];
      ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
      if (input_double(state, "type/" + id, "##typed", &typed, "%.6g",
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
        if (std::isfinite(typed)) {
          edit.c = c;
          edit.value = typed;  // the edit (set_entry) clamps it to the scene's limits
        }
        ImGui::CloseCurrentPopup();
      }
      ImGui::EndPopup();
    }
    ImGui::PopID();
  }
  ImGui::PopID();
  // Leave the cursor below the strip (one item covering it, so the window's extent includes it).
  ImGui::SetCursorScreenPos(start);
  const int cols = std::min(d, per_line);
  ImGui::Dummy(ImVec2(float(cols) * (cell_w + gap) - gap, float(lines) * h + float(lines - 1) * line_gap));
  return edit;
}

}  // namespace ui
