// keyspace_state.hpp — the Key space mode's state (AppState::keyspace).
#pragma once

#include <cstdint>

#include "core/keyspace.hpp"
#include "imgui.h"

namespace ui {

// The Key space mode's pictures (keyspace_panel.cpp): which query they follow, the planes
// they draw in, and a drag in progress (during which plane and view stay fixed, so the point stays
// under the mouse).
struct KeySpaceState {
  enum Drag { None = 0, Query = 1, Key = 2, Value = 3 };
  int selected = 0;                       // the followed query (click an arrow)
  std::uint64_t planes_version = ~0ull;   // result_version the planes were fitted to
  attn::Plane key_plane, value_plane;     // queries + keys together; values
  attn::Matrix key_points, value_points;  // what they were fitted to (a refit only when these change)
  int drag_kind = None, drag_index = -1;  // what is being dragged
  ImVec2 grab;                            // mouse − point at the press, pixels
  ImVec4 key_view, value_view;            // data bounds (x0, y0, x1, y1) as last fitted
};

}  // namespace ui
