// keyspace_state.hpp — the Key space mode's state (UiState::keyspace).
#pragma once

#include <cstdint>

#include "core/keyspace.hpp"

namespace ui {

// A picture's data bounds (the plane's units), as last fitted.
struct PlotBounds {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

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
  float grab_x = 0, grab_y = 0;           // mouse − point at the press, pixels
  PlotBounds key_view, value_view;        // data bounds as last fitted
};

}  // namespace ui
