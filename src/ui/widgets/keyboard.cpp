// keyboard.cpp — focus across the panels, the ring, the keys, synthetic clicks and announcements
// (see keyboard.hpp).
#include "ui/widgets/keyboard.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "imgui_internal.h"  // GetItemID, ScrollToItem, the test-engine hooks (item labels)
#include "ui/app_state.hpp"
#include "ui/look/theme.hpp"
#include "ui/text/number_format.hpp"

// --- item labels: ImGui's test-engine hooks (IMGUI_ENABLE_TEST_ENGINE, src/app/CMakeLists.txt) ----
// While the keyboard has the focus, ImGui reports each item's label and status as it is drawn; the
// focused item's label is what the live region says ("Causal mask, checkbox, checked").
namespace {
struct ItemInfo {
  std::string label;
  ImGuiItemStatusFlags flags = 0;
};
std::unordered_map<ImGuiID, ItemInfo> g_item_info;  // this frame's, cleared per frame

// "Explore##mode" → "Explore"; "##s" → "".
std::string visible_label(const char* label) {
  if (!label) return {};
  const char* end = ImGui::FindRenderedTextEnd(label);
  return std::string(label, end);
}
}  // namespace

void ImGuiTestEngineHook_ItemAdd(ImGuiContext*, const ImRect&, ImGuiID) {}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext*, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
  ItemInfo& info = g_item_info[id];
  const std::string text = visible_label(label);
  if (!text.empty()) info.label = text;
  info.flags = flags;
}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) {
  return nullptr;
}

namespace ui {

void IdIndex::set(ImGuiID key, int value) {
  if (2 * (used_ + 1) > keys_.size()) {  // grow (first use: 1,024 slots), re-placing every key
    std::vector<ImGuiID> keys = std::move(keys_);
    std::vector<int> values = std::move(values_);
    keys_.assign(std::max<std::size_t>(1024, 2 * keys.size()), 0);
    values_.assign(keys_.size(), 0);
    used_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (values[i] != 0) set(keys[i], values[i]);
  }
  std::size_t at = slot(key);
  while (values_[at] != 0 && keys_[at] != key) at = (at + 1) & (keys_.size() - 1);
  if (values_[at] == 0) ++used_;
  keys_[at] = key;
  values_[at] = value;
}

namespace {

const FocusItem* find_item(const std::vector<FocusItem>& items, const std::string& id) {
  for (const FocusItem& item : items)
    if (item.id == id) return &item;
  return nullptr;
}

// The item drawn this frame under `id`, or null.
FocusItem* drawn_item(KeyboardUi& k, const std::string& id) {
  const int at = k.drawn_by_id.get(ImHashStr(id.data(), id.size()));
  if (at > 0 && k.drawn[std::size_t(at - 1)].id == id) return &k.drawn[std::size_t(at - 1)];
  if (at == 0) return nullptr;
  for (FocusItem& item : k.drawn)  // two ids with one hash: look through the list
    if (item.id == id) return &item;
  return nullptr;
}

FocusItem& add_item(KeyboardUi& k, const std::string& id, FocusKind kind, ImVec4 rect) {
  if (FocusItem* item = drawn_item(k, id)) {         // drawn twice (a value cell registers as a value and
    if (kind != FocusKind::Item) item->kind = kind;  // as an item): one stop
    item->rect = rect;
    return *item;
  }
  k.drawn.push_back(FocusItem{id, kind, rect});
  const ImGuiID hash = ImHashStr(id.data(), id.size());
  if (k.drawn_by_id.get(hash) == 0) k.drawn_by_id.set(hash, int(k.drawn.size()));
  return k.drawn.back();
}

ImVec4 last_item_rect() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return ImVec4(a.x, a.y, b.x, b.y);
}

// The nearest multiple of `unit` (a power of ten), as the double nearest the decimal: 1.0 + 0.1 is
// 1.1 (110 / 100), not 110 × 0.01 = 1.1000000000000001.
double snap(double value, double unit) {
  if (unit < 1.0) {
    const double inverse = std::round(1.0 / unit);
    return std::round(value * inverse) / inverse;
  }
  return std::round(value / unit) * unit;
}

}  // namespace

std::string spoken_component(const char* matrix_id, int row, int component) {
  const std::string_view m = matrix_id;
  const char* word = m == "Q" ? "query" : m == "K" ? "key" : m == "V" ? "value" : m == "X" ? "x" : matrix_id;
  return std::string(word) + " " + std::to_string(row) + " component " + std::to_string(component);
}

double step_for_range(double range) {
  const double r = std::max(std::abs(range), 1e-12);
  return 0.1 * std::pow(10.0, std::floor(std::log10(r) + 1e-9));
}

void draw_focus_ring(ImVec4 r) {
  const float em = ImGui::GetFontSize();
  const float pad = std::max(2.0f, 0.15f * em);
  ImGui::GetForegroundDrawList()->AddRect(ImVec2(r.x - pad, r.y - pad), ImVec2(r.z + pad, r.w + pad),
                                          palette::focus(), 0.25f * em, 0, std::max(2.0f, 0.14f * em));
}

bool keyboard_before_imgui_frame(AppState& state) {
  ImGuiIO& io = ImGui::GetIO();
  KeyboardUi& k = state.ui.keyboard;
  k.tab = k.shift_tab = false;
  const int tab = io.KeyMap[ImGuiKey_Tab];
  const bool popup = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
  // A text field being typed in as the last frame ended. Not io.WantTextInput: it lags a frame, so a
  // Tab delivered in the frame after the Enter that closed a field (keys tapped faster than frames,
  // app/key_queue) would go to ImGui's own tabbing, which opens the next field for typing.
  const ImGuiContext& g = *GImGui;
  const bool typing = g.ActiveId != 0 && g.ActiveId == g.InputTextState.ID;
  if (tab >= 0 && tab < int(IM_ARRAYSIZE(io.KeysDown)) && io.KeysDown[tab] && !typing && !popup &&
      !io.KeyCtrl && !io.KeyAlt) {
    (io.KeyShift ? k.shift_tab : k.tab) = true;
    io.KeysDown[tab] = false;  // ImGui would tab inside one window only: the screen's Tab is ours
  }
  // ImGui's arrow-key navigation would move its own highlight as well: off while an item has ours.
  if (k.focus.empty() || popup)
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  else
    io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
  GImGui->TestEngineHookItems = !k.focus.empty();
  g_item_info.clear();
  if (k.click_frames > 0) {  // press on this frame, release on the next: ImGui sees a click
    io.MousePos = k.click_at;
    io.MouseDown[0] = k.click_frames == 2;
    --k.click_frames;
    return true;
  }
  return false;
}

void keyboard_begin_frame(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  KeyboardUi& k = state.ui.keyboard;
  k.steps = k.dx = k.dy = 0;
  k.fine = k.type = k.press = k.toggle = false;
  k.next_announce.clear();
  // A real click (not ours) hands the screen back to the mouse.
  if (io.MouseClicked[0] && k.click_frames == 0) {
    k.ring = false;
    k.focus.clear();
  }
  if (k.tab || k.shift_tab) {
    const int n = int(k.items.size());
    if (n > 0) {
      int at = -1;
      for (int i = 0; i < n; ++i)
        if (k.items[std::size_t(i)].id == k.focus) at = i;
      const int next = at < 0 ? (k.tab ? 0 : n - 1) : (at + (k.tab ? 1 : n - 1)) % n;
      const FocusItem& item = k.items[std::size_t(next)];
      if (item.id != k.focus) k.grid_row = k.grid_col = 0;
      k.focus = item.id;
      k.ring = true;
      k.scroll_to_focus = true;
      state.ui.frame.layout_changed = true;  // draw again: the ring, the scroll
    }
  }
  if (k.focus.empty() || io.WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
  const FocusItem* item = find_item(k.items, k.focus);
  if (!item) return;
  auto pressed = [](ImGuiKey key, bool repeat) {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat);
  };
  if (pressed(ImGuiKey_Escape, false)) {
    k.focus.clear();
    k.ring = false;
    return;
  }
  const int right = pressed(ImGuiKey_RightArrow, true) ? 1 : 0,
            left = pressed(ImGuiKey_LeftArrow, true) ? 1 : 0;
  const int down = pressed(ImGuiKey_DownArrow, true) ? 1 : 0, up = pressed(ImGuiKey_UpArrow, true) ? 1 : 0;
  const bool enter = pressed(ImGuiKey_Enter, false) || pressed(ImGuiKey_KeyPadEnter, false);
  const bool space = pressed(ImGuiKey_Space, false);
  if (right || left || down || up || enter || space) k.ring = true;
  switch (item->kind) {
    case FocusKind::Value:
      k.steps = (right + up) - (left + down);
      if (pressed(ImGuiKey_PageUp, false)) k.steps += 10;  // no auto-repeat: ten steps per press
      if (pressed(ImGuiKey_PageDown, false)) k.steps -= 10;
      k.fine = io.KeyShift;
      if (enter) k.type_pending = true;
      break;
    case FocusKind::Grid:
      k.dx = right - left;
      k.dy = down - up;
      k.toggle = space;
      break;
    case FocusKind::Item:
      if (item->inputable) {
        // A slider without arrow steps here (temperature, W_o …): Enter types a number, as ImGui's
        // own navigation does (SliderScalar opens its text field for NavActivateInputId).
        if (enter) GImGui->NavActivateInputId = item->imgui_id;
      } else if (enter || space) {
        k.click_at = ImVec2(0.5f * (item->rect.x + item->rect.z), 0.5f * (item->rect.y + item->rect.w));
        k.click_frames = 2;
        state.ui.frame.layout_changed = true;  // the click plays over the next frames
      }
      break;
  }
}

void keyboard_end_frame(AppState& state) {
  KeyboardUi& k = state.ui.keyboard;
  k.items = std::move(k.drawn);
  k.drawn.clear();
  k.drawn_by_id.clear();
  k.drawn_by_imgui_id.clear();
  k.scroll_to_focus = false;
  if (!find_item(k.items, k.focus)) k.next_announce.clear();
  k.announce = std::move(k.next_announce);
  k.next_announce.clear();
}

bool focus_item(AppState& state, const std::string& id, const std::string& spoken) {
  const ImGuiID imgui_id = ImGui::GetItemID();
  if (imgui_id == 0) return false;  // text, a dummy: nothing to operate
  KeyboardUi& k = state.ui.keyboard;
  // The same widget under a second id (mode/walk = walk/start): the first id drawn is its stop.
  const int holder = k.drawn_by_imgui_id.get(imgui_id);
  if (holder > 0 && k.drawn[std::size_t(holder - 1)].id != id) return false;
  FocusItem& item = add_item(k, id, FocusKind::Item, last_item_rect());
  item.imgui_id = imgui_id;
  if (holder == 0) k.drawn_by_imgui_id.set(imgui_id, int(&item - k.drawn.data()) + 1);
  item.inputable = (GImGui->LastItemData.InFlags & ImGuiItemFlags_Inputable) != 0;
  if (item.kind != FocusKind::Item) return k.focus == id;  // a value cell: focus_value did the rest
  if (k.focus != id) return false;
  if (k.ring) draw_focus_ring(last_item_rect());
  if (k.scroll_to_focus) ImGui::ScrollToItem();
  if (k.next_announce.empty()) {  // a value or grid announces itself with its number
    std::string text = spoken;
    const auto info = g_item_info.find(imgui_id);
    if (text.empty() && info != g_item_info.end()) text = info->second.label;
    if (text.empty()) text = id;
    if (info != g_item_info.end() && (info->second.flags & ImGuiItemStatusFlags_Checkable))
      text += (info->second.flags & ImGuiItemStatusFlags_Checked) ? ", checked" : ", not checked";
    k.next_announce = text;
  }
  return true;
}

bool typing_requested(AppState& state, const std::string& id) {
  KeyboardUi& k = state.ui.keyboard;
  if (!k.type_pending || k.focus != id) return false;
  k.type_pending = false;
  return true;
}

bool focus_value(AppState& state, const std::string& id, double* value, double lo, double hi, double range,
                 const std::string& spoken) {
  KeyboardUi& k = state.ui.keyboard;
  add_item(k, id, FocusKind::Value, last_item_rect());
  if (k.focus != id) return false;
  bool changed = false;
  if (k.steps != 0 && std::isfinite(*value)) {
    const double base = step_for_range(range);
    const double step = base * (k.fine ? 0.1 : 1.0);
    // Snapped to the finest step: 1.09 − 10 × 0.1 is 0.09, not 0.09000000000000008.
    const double next = std::clamp(snap(*value + double(k.steps) * step, 0.1 * base), lo, hi);
    changed = next != *value;
    *value = next;
    k.steps = 0;  // once per frame
  }
  if (k.ring) draw_focus_ring(last_item_rect());
  if (k.scroll_to_focus) ImGui::ScrollToItem();
  k.next_announce = spoken + ": " + format_number(*value, 2);
  return changed;
}

bool focus_int(AppState& state, const std::string& id, int* value, int lo, int hi,
               const std::string& spoken) {
  KeyboardUi& k = state.ui.keyboard;
  add_item(k, id, FocusKind::Value, last_item_rect());
  if (k.focus != id) return false;
  bool changed = false;
  if (k.steps != 0) {
    const int next = std::clamp(*value + k.steps, lo, hi);
    changed = next != *value;
    *value = next;
    k.steps = 0;
  }
  if (k.ring) draw_focus_ring(last_item_rect());
  if (k.scroll_to_focus) ImGui::ScrollToItem();
  k.next_announce = spoken + ": " + std::to_string(*value);
  return changed;
}

bool focus_grid(AppState& state, const std::string& id, ImVec2 min, float cell, int rows, int cols, int* row,
                int* col, bool* toggle) {
  KeyboardUi& k = state.ui.keyboard;
  const ImVec4 rect(min.x, min.y, min.x + cell * float(cols), min.y + cell * float(rows));
  add_item(k, id, FocusKind::Grid, rect);
  if (k.focus != id || rows <= 0 || cols <= 0) return false;
  k.grid_row = std::clamp(k.grid_row + k.dy, 0, rows - 1);
  k.grid_col = std::clamp(k.grid_col + k.dx, 0, cols - 1);
  const bool moved = k.dx != 0 || k.dy != 0;
  k.dx = k.dy = 0;  // once per frame, even if the grid is drawn twice
  *row = k.grid_row;
  *col = k.grid_col;
  if (toggle) *toggle = k.toggle;
  k.toggle = false;
  const ImVec2 a(min.x + cell * float(k.grid_col), min.y + cell * float(k.grid_row));
  if (k.ring) draw_focus_ring(ImVec4(a.x, a.y, a.x + cell, a.y + cell));
  if (k.scroll_to_focus || moved) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    ImGui::ScrollToRect(window, ImRect(a, ImVec2(a.x + cell, a.y + cell)));
  }
  return true;
}

bool focus_point(AppState& state, const std::string& id, int* dx, int* dy) {
  KeyboardUi& k = state.ui.keyboard;
  add_item(k, id, FocusKind::Grid, last_item_rect());  // a grid's keys: the arrows give dx, dy
  if (k.focus != id) return false;
  *dx = k.dx;
  *dy = k.dy;
  k.dx = k.dy = 0;  // once per frame
  if (k.ring) draw_focus_ring(last_item_rect());
  if (k.scroll_to_focus) ImGui::ScrollToItem();
  return true;
}

void place_tooltip_beside_cell(ImVec2 a, float cell) {
  const float gap = 0.3f * ImGui::GetFontSize();
  const bool right_half = a.x + 0.5f * cell > 0.5f * ImGui::GetIO().DisplaySize.x;
  ImGui::SetNextWindowPos(ImVec2(right_half ? a.x - gap : a.x + cell + gap, a.y + cell + gap),
                          ImGuiCond_Always, ImVec2(right_half ? 1.0f : 0.0f, 0.0f));
}

void announce(AppState& state, const std::string& text) {
  state.ui.keyboard.next_announce = text;
}

}  // namespace ui
