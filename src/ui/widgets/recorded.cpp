// recorded.cpp — ImGui's widgets under a widget id (see recorded.hpp).
#include "ui/widgets/recorded.hpp"

namespace ui {
namespace {

// The widget's result, once its rectangle and focus stop are recorded.
bool recorded(AppState& state, const std::string& id, bool result) {
  record_item_rect(state, id);
  return result;
}

}  // namespace

bool button(AppState& state, const std::string& id, const char* label, ImVec2 size) {
  return recorded(state, id, ImGui::Button(label, size));
}

bool small_button(AppState& state, const std::string& id, const char* label) {
  return recorded(state, id, ImGui::SmallButton(label));
}

bool checkbox(AppState& state, const std::string& id, const char* label, bool* value) {
  return recorded(state, id, ImGui::Checkbox(label, value));
}

bool radio_button(AppState& state, const std::string& id, const char* label, bool active) {
  return recorded(state, id, ImGui::RadioButton(label, active));
}

bool selectable(AppState& state, const std::string& id, const char* label, bool selected) {
  return recorded(state, id, ImGui::Selectable(label, selected));
}

bool slider_float(AppState& state, const std::string& id, const char* label, float* value, float lo, float hi,
                  const char* format, ImGuiSliderFlags flags) {
  return recorded(state, id, ImGui::SliderFloat(label, value, lo, hi, format, flags));
}

bool input_int(AppState& state, const std::string& id, const char* label, int* value, int step,
               int step_fast) {
  return recorded(state, id, ImGui::InputInt(label, value, step, step_fast));
}

}  // namespace ui
