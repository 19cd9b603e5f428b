// vector_strip.hpp — one row of a matrix (a token's q_i, k_i, v_i, …) as a strip of small colour
// cells: the compact picture of a vector with many components, used by the vectors panel for any
// matrix whose slider cells would be narrower than their numbers.
//
//   q ▕▆▆▂▂▆▂▆▆▂▂▆▂▂▆▆▂▏   one cell per component, at least 6 CSS px wide
//       │
//       └ cell: tinted by the value on the role's diverging colours (its colour for +, the paired
//         colour for −, the panel's grey at 0) with a bar from the mid-line up (+) or down (−),
//         |bar| ∝ |value| / range, so the strip reads as a small bar chart even without colour.
//
// Interaction per cell (the widget id is the caller's, e.g. "Q/i/c"): hover shows the exact value;
// drag up/down changes it (range / 60 per pixel; Shift ×10, Alt ÷100); double-click or Ctrl+click
// opens a field to type the exact number. The same cells with the number drawn in them (`numbers`)
// make the zoomed view of one token, wrapped over as many lines as the panel needs.
#pragma once

#include <string>

#include "ui/app_state.hpp"

namespace ui {

// The look and ids of one role's strip.
struct StripRole {
  const char* name;  // "q": the tooltip says q_i[c]
  const char* id;    // "Q": cell ids are "Q/i/c"
  ImU32 color;       // positive values
  ImU32 negative;    // negative values (the role's diverging partner, palette::kQueryNeg …)
  double range;      // ±range fills a cell (the panel's slider range)
};

// What the user did to one strip this frame: component `c` now holds `value` (c = −1: nothing).
struct StripEdit {
  int c = -1;
  double value = 0;
};

// The narrowest cell allowed: 6 CSS px (× state.ui_scale ImGui pixels).
float strip_min_cell(const AppState& state);

// Width a slider cell needs to show every value of ±range with 2 decimals (the widest text,
// "−" + integer digits of range + ".00", plus the cell's padding), in the current font.
float slider_text_need(double range);

// Draw `d` cells of `values` (a row pointer, d contiguous doubles) at the cursor: `per_line` cells
// per line, each `cell_w` wide and one frame high, `gap` apart. With `numbers` the value is drawn in
// each cell (the zoomed view; cell_w must be ≥ slider_text_need). Records rect and text width of
// every visible cell as "<id>/<i>/<c>". Leaves the cursor below the strip.
StripEdit draw_vector_strip(AppState& state, const StripRole& role, int i, const double* values, int d,
                            float cell_w, float gap, int per_line, bool numbers);

}  // namespace ui
