// recorded.hpp — ImGui's widgets under a widget id: each draws the widget, then records its rectangle
// (the page API's widgetRect, the desktop's --rects) and makes it a stop of the keyboard's Tab order
// (record_item_rect → focus_item, ui/widgets/keyboard.hpp), so a panel reads as ImGui code:
//
//   if (button(state, "train/step", label, size)) train_step(state);
//
// instead of the widget, then record_item_rect(state, "train/step") by hand. The ids are listed in
// docs/PAGE_API.md; tests/widget_ids_test.py reads the first string argument of these calls.
//
// Besides the plain widgets: an integer slider that also takes the keyboard (IntKeys), a value
// cell's keyboard (value_cell), a picture's space (invisible_button, dummy), wrapped text, and two
// scopes that record when they end — Group (BeginGroup … EndGroup) and Combo (BeginCombo … EndCombo):
//
//   { const Group group(state, "scale"); radio …; radio …; }   // "scale" = the rectangle of both
//   if (const Combo combo{state, "preset", "##preset", preview}) { selectable …; }
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"
#include "ui/app_state.hpp"

namespace ui {

// Record the last ImGui item's rectangle under `id` (only when it is visible); it is also a stop of
// Tab, named `spoken` for the live region ("" = the id).
void record_item_rect(AppState& state, const std::string& id, const std::string& spoken = "");
// Record the width of the text drawn inside widget `id` (ImGui pixels).
void record_item_text(AppState& state, const std::string& id, float width);

bool button(AppState& state, const std::string& id, const char* label, ImVec2 size = ImVec2(0, 0));
bool small_button(AppState& state, const std::string& id, const char* label);
bool invisible_button(AppState& state, const std::string& id, const char* str_id, ImVec2 size);
bool checkbox(AppState& state, const std::string& id, const char* label, bool* value);
bool radio_button(AppState& state, const std::string& id, const char* label, bool active);
bool radio_button(AppState& state, const std::string& id, const char* label, int* value, int button_value);
bool selectable(AppState& state, const std::string& id, const char* label, bool selected,
                ImGuiSelectableFlags flags = 0, ImVec2 size = ImVec2(0, 0));
bool slider_float(AppState& state, const std::string& id, const char* label, float* value, float lo, float hi,
                  const char* format, ImGuiSliderFlags flags = 0);
bool slider_double(AppState& state, const std::string& id, const char* label, double* value, double lo,
                   double hi, const char* format, ImGuiSliderFlags flags = 0);
bool slider_int(AppState& state, const std::string& id, const char* label, int* value, int lo, int hi,
                const char* format = "%d", ImGuiSliderFlags flags = 0);
bool input_int(AppState& state, const std::string& id, const char* label, int* value, int step = 1,
               int step_fast = 100);
bool input_double(AppState& state, const std::string& id, const char* label, double* value,
                  const char* format, ImGuiInputTextFlags flags);
bool input_scalar(AppState& state, const std::string& id, const char* label, ImGuiDataType type, void* value);
bool input_text(AppState& state, const std::string& id, const char* label, char* buffer, std::size_t size);

// An integer slider that also takes the keyboard (focus_int): Enter types a number, the arrows step
// ±1 (PageUp/PageDown ±10) within [lo, hi], which may reach past the slider's own range; `spoken`
// names it for the live region. True when dragged, typed or stepped.
struct IntKeys {
  int lo, hi;
  const char* spoken;
};
bool slider_int(AppState& state, const std::string& id, const char* label, int* value, int lo, int hi,
                const char* format, const IntKeys& keys);

// After a value cell's hidden ImGui slider or drag: its keyboard (focus_value: the arrows step *value
// within [lo, hi]; true = changed) and its rectangle, under `id`.
bool value_cell(AppState& state, const std::string& id, double* value, double lo, double hi, double range,
                const std::string& spoken);

// Space for a picture drawn with the draw list (ImGui::Dummy), its rectangle under `id`.
void dummy(AppState& state, const std::string& id, ImVec2 size);
// Text wrapped at spaces (ui/widgets/wrapped_text.hpp), its rectangle (every line) under `id`.
void wrapped_text(AppState& state, const std::string& id, std::string_view text);

// ImGui::BeginGroup now, EndGroup when it goes out of scope; the group's rectangle (all its items)
// is recorded under `id` then.
class Group {
 public:
  Group(AppState& state, std::string id);
  ~Group();
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

 private:
  AppState& state_;
  std::string id_;
};

// ImGui::BeginCombo now; when it goes out of scope, EndCombo (if open) and the box's rectangle under
// `id` (recorded after EndCombo: while the list is open, ImGui's last item is the list's window).
class Combo {
 public:
  Combo(AppState& state, std::string id, const char* label, const char* preview);
  ~Combo();
  Combo(const Combo&) = delete;
  Combo& operator=(const Combo&) = delete;
  explicit operator bool() const { return open_; }  // the list is open: draw its items

 private:
  AppState& state_;
  std::string id_;
  bool open_;
};

// The bottom of the last item in its window's content coordinates (scrolling included): a place a
// panel cut short may end on, after a whole row (UiState::controls_rows).
inline void note_row_bottom(std::vector<float>& rows) {
  rows.push_back(ImGui::GetItemRectMax().y - ImGui::GetWindowPos().y + ImGui::GetScrollY());
}

}  // namespace ui
