// recorded.cpp — ImGui's widgets under a widget id (see recorded.hpp).
#include "ui/widgets/recorded.hpp"

#include <utility>

#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

void record_item_rect(AppState& state, const std::string& id, const std::string& spoken) {
  focus_item(state, id, spoken);  // every interactive widget with an id is a stop of Tab (keyboard.hpp)
  if (!ImGui::IsItemVisible()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  state.ui.frame.widget_rects[id] = ImVec4(a.x, a.y, b.x - a.x, b.y - a.y);
}

void record_item_text(AppState& state, const std::string& id, float width) {
  state.ui.frame.widget_text_w[id] = width;
}

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

bool invisible_button(AppState& state, const std::string& id, const char* str_id, ImVec2 size) {
  return recorded(state, id, ImGui::InvisibleButton(str_id, size));
}

bool checkbox(AppState& state, const std::string& id, const char* label, bool* value) {
  return recorded(state, id, ImGui::Checkbox(label, value));
}

bool radio_button(AppState& state, const std::string& id, const char* label, bool active) {
  return recorded(state, id, ImGui::RadioButton(label, active));
}

bool radio_button(AppState& state, const std::string& id, const char* label, int* value, int button_value) {
  return recorded(state, id, ImGui::RadioButton(label, value, button_value));
}

bool selectable(AppState& state, const std::string& id, const char* label, bool selected,
                ImGuiSelectableFlags flags, ImVec2 size) {
  return recorded(state, id, ImGui::Selectable(label, selected, flags, size));
}

bool slider_float(AppState& state, const std::string& id, const char* label, float* value, float lo, float hi,
                  const char* format, ImGuiSliderFlags flags) {
  return recorded(state, id, ImGui::SliderFloat(label, value, lo, hi, format, flags));
}

bool slider_double(AppState& state, const std::string& id, const char* label, double* value, double lo,
                   double hi, const char* format, ImGuiSliderFlags flags) {
  return recorded(state, id,
                  ImGui::SliderScalar(label, ImGuiDataType_Double, value, &lo, &hi, format, flags));
}

bool slider_int(AppState& state, const std::string& id, const char* label, int* value, int lo, int hi,
                const char* format, ImGuiSliderFlags flags) {
  return recorded(state, id, ImGui::SliderInt(label, value, lo, hi, format, flags));
}

bool slider_int(AppState& state, const std::string& id, const char* label, int* value, int lo, int hi,
                const char* format, const IntKeys& keys) {
  if (typing_requested(state, id)) ImGui::SetKeyboardFocusHere();  // Enter was pressed on it: type
  const bool dragged = ImGui::SliderInt(label, value, lo, hi, format);
  const bool stepped = focus_int(state, id, value, keys.lo, keys.hi, keys.spoken);
  return recorded(state, id, dragged || stepped);
}

bool input_int(AppState& state, const std::string& id, const char* label, int* value, int step,
               int step_fast) {
  return recorded(state, id, ImGui::InputInt(label, value, step, step_fast));
}

bool input_double(AppState& state, const std::string& id, const char* label, double* value,
                  const char* format, ImGuiInputTextFlags flags) {
  return recorded(state, id, ImGui::InputDouble(label, value, 0.0, 0.0, format, flags));
}

bool input_scalar(AppState& state, const std::string& id, const char* label, ImGuiDataType type,
                  void* value) {
  return recorded(state, id, ImGui::InputScalar(label, type, value));
}

bool input_text(AppState& state, const std::string& id, const char* label, char* buffer, std::size_t size) {
  return recorded(state, id, ImGui::InputText(label, buffer, size));
}

bool value_cell(AppState& state, const std::string& id, double* value, double lo, double hi, double range,
                const std::string& spoken) {
  return recorded(state, id, focus_value(state, id, value, lo, hi, range, spoken));
}

void dummy(AppState& state, const std::string& id, ImVec2 size) {
  ImGui::Dummy(size);
  record_item_rect(state, id);
}

void wrapped_text(AppState& state, const std::string& id, std::string_view text) {
  wrapped_text(text);
  record_item_rect(state, id);
}

Group::Group(AppState& state, std::string id) : state_(state), id_(std::move(id)) {
  ImGui::BeginGroup();
}

Group::~Group() {
  ImGui::EndGroup();
  record_item_rect(state_, id_);
}

Combo::Combo(AppState& state, std::string id, const char* label, const char* preview)
    : state_(state), id_(std::move(id)), open_(ImGui::BeginCombo(label, preview)) {}

Combo::~Combo() {
  if (open_) ImGui::EndCombo();
  record_item_rect(state_, id_);
}

}  // namespace ui
