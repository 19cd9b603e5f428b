// keyboard_state.hpp — the keyboard focus's state (UiState::keyboard): the focusable items of the
// last frame and this one, the focused item, this frame's keys (widgets/keyboard.hpp moves and reads
// them). Plain structs over ImGui's vector and id types, so app_state.hpp holds it without an include
// pointing up.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "imgui.h"

namespace ui {

enum class FocusKind { Item, Value, Grid };

struct FocusItem {
  std::string id;
  FocusKind kind = FocusKind::Item;
  ImVec4 rect;             // x0, y0, x1, y1 (ImGui coordinates) as drawn
  ImGuiID imgui_id = 0;    // the ImGui item (0: a grid); one widget recorded under two ids is one stop
  bool inputable = false;  // an ImGui slider, drag or field: Enter types into it, it is never clicked
};

// A 32-bit key (a hash) → a positive int: open addressing with linear probing, emptied every frame.
// get() is 0 for a key never set. The table doubles at half full, so a lookup probes ~1.5 slots.
class IdIndex {
 public:
  int get(ImGuiID key) const {
    if (values_.empty()) return 0;
    for (std::size_t at = slot(key);; at = (at + 1) & (keys_.size() - 1))
      if (values_[at] == 0 || keys_[at] == key) return values_[at];
  }
  void set(ImGuiID key, int value);  // value ≥ 1
  void clear() {
    std::fill(values_.begin(), values_.end(), 0);
    used_ = 0;
  }

 private:
  std::size_t slot(ImGuiID key) const { return (key * 2654435761u) & (keys_.size() - 1); }
  std::vector<ImGuiID> keys_;
  std::vector<int> values_;  // 0: an empty slot
  std::size_t used_ = 0;
};

struct KeyboardUi {
  std::string focus;             // the focused item's id ("" = none)
  std::vector<FocusItem> items;  // last frame's focusable items, in drawing order
  std::vector<FocusItem> drawn;  // this frame's, so far
  // drawn[] indexed (index + 1) by the hash of its id and by its ImGui item (the first drawn for
  // it): a screen at 1024 tokens registers thousands of items a frame, and a search through drawn[]
  // for each made the frame O(items²) — as did ImGui's sorted map (ImGuiStorage), whose every
  // insert moves the pairs above it (Key space at n = 1024: 6,000 inserts, 12 ms a frame).
  IdIndex drawn_by_id, drawn_by_imgui_id;
  bool ring = false;               // the keyboard is in use: draw the focus ring
  bool scroll_to_focus = false;    // focus moved: scroll it into view when drawn
  int grid_row = 0, grid_col = 0;  // the focused grid's cell
  // This frame's keys (keyboard_begin_frame), for the focused item.
  bool tab = false, shift_tab = false;               // read by the app before ImGui sees Tab (take_tab_key)
  int steps = 0;                                     // value: signed steps (±1 arrows, ±10 PageUp/PageDown)
  bool fine = false;                                 // Shift: a tenth of a step
  int dx = 0, dy = 0;                                // grid: cell moves
  bool type = false, press = false, toggle = false;  // Enter on a value; Enter/Space; Space on a grid
  bool type_pending = false;  // typing starts next frame, when the value item is drawn again
  // A synthetic click in progress: the item's centre, and frames left (2: press, 1: release).
  ImVec2 click_at;
  int click_frames = 0;
  std::string announce;       // what the focused item says (name and value), "" for none
  std::string next_announce;  // built while drawing this frame
};

}  // namespace ui
