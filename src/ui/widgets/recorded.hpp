// recorded.hpp — ImGui's widgets under a widget id: each draws the widget, then records its rectangle
// (the page API's widgetRect, the desktop's --rects) and makes it a stop of the keyboard's Tab order
// (record_item_rect → focus_item, ui/frame/keyboard.hpp), so a panel reads as ImGui code:
//
//   if (button(state, "train/step", label, size)) train_step(state);
//
// instead of the widget, then record_item_rect(state, "train/step") by hand. The ids are listed in
// docs/PAGE_API.md; tests/widget_ids_test.py reads the first string argument of these calls.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "ui/app_state.hpp"

namespace ui {

bool button(AppState& state, const std::string& id, const char* label, ImVec2 size = ImVec2(0, 0));
bool small_button(AppState& state, const std::string& id, const char* label);
bool checkbox(AppState& state, const std::string& id, const char* label, bool* value);
bool radio_button(AppState& state, const std::string& id, const char* label, bool active);
bool selectable(AppState& state, const std::string& id, const char* label, bool selected);
bool slider_float(AppState& state, const std::string& id, const char* label, float* value, float lo, float hi,
                  const char* format, ImGuiSliderFlags flags = 0);
bool input_int(AppState& state, const std::string& id, const char* label, int* value, int step,
               int step_fast);

// The bottom of the last item in its window's content coordinates (scrolling included): a place a
// panel cut short may end on, after a whole row (UiState::controls_rows).
inline void note_row_bottom(std::vector<float>& rows) {
  rows.push_back(ImGui::GetItemRectMax().y - ImGui::GetWindowPos().y + ImGui::GetScrollY());
}

}  // namespace ui
