// keyboard.hpp — the whole screen from the keyboard, with a visible focus ring, and what a screen
// reader should hear about the focused item.
//
// ImGui's own keyboard navigation moves inside one window; this screen is many panel windows of
// value cells and grids, so focus is kept here, across all of them, in reading order (the order
// the panels draw their items, top bar first):
//
//   Tab / Shift+Tab   the next / previous item: every interactive widget with an id (record_item_rect
//                     registers it), each value cell (Q/i/c …) and each grid (one stop per grid)
//   ← → ↓ ↑           a value cell: −/+ one step (Shift: a tenth of it; PageUp / PageDown: ten steps)
//                     a grid: move over its cells; the cell's derivation shows as if hovered
//                     a point (key space): move it a step (0.5 em) on the picture
//   Enter             a value cell or any other slider: type a number (ImGui's text field, Enter to
//                     set); a button, checkbox, radio button or tab: press it
//   Space             a mask cell: toggle it; a button …: press it (a slider is never clicked: a
//                     click would set it to the value under its centre)
//   Esc               drop the focus
//
// A press is a synthetic click at the item's centre (apply_synthetic_click, before ImGui's frame),
// so every ImGui button, checkbox, radio button and tab works without per-widget code.
// The announcement (announcement()) is the focused item's name and value, e.g.
// "query 0 component 1: 0.50" or "weight row cat, column sat: 0.284, highest in row"; the web page
// puts it in an aria-live region (web/a11y.js).
#pragma once

#include <string>

#include "imgui.h"
#include "ui/widgets/keyboard_state.hpp"

namespace ui {

struct AppState;

// --- the app's frame (main.cpp), around ImGui::NewFrame
// Before ImGui::NewFrame: take Tab from ImGui's input (ImGui would tab within one window) into
// state.ui.keyboard, play a synthetic click, and turn ImGui's own arrow-key navigation off while an
// item here has the focus. Returns true when the frame must be followed by another (a click).
bool keyboard_before_imgui_frame(AppState& state);

// --- draw_screen
void keyboard_begin_frame(AppState& state);  // first: move the focus, read this frame's keys
void keyboard_end_frame(AppState& state);    // last: keep this frame's items, the announcement

// --- items (after drawing the ImGui item, so its rectangle is known)
// Any interactive item with an id (record_item_rect calls this). `spoken`: its name for the live
// region ("" = the id). True when it has the focus.
bool focus_item(AppState& state, const std::string& id, const std::string& spoken = "");
// A value cell: registers it; when focused, the arrow keys change *value by steps of
// step_for_range(range) within [lo, hi] (true = changed); `spoken` names it ("query 0 component 1").
bool focus_value(AppState& state, const std::string& id, double* value, double lo, double hi, double range,
                 const std::string& spoken);
// An integer slider (ImGui::SliderInt) as a value: arrows ±1, PageUp/PageDown ±10 within [lo, hi].
bool focus_int(AppState& state, const std::string& id, int* value, int lo, int hi, const std::string& spoken);
// Before drawing value cell `id`: should it open its text field now (Enter was pressed on it)?
bool typing_requested(AppState& state, const std::string& id);
// A grid of rows × cols cells at `min` with square cells of `cell` pixels: one stop; when focused the
// arrows move over its cells. Returns true when focused, with the cell in *row, *col; *toggle is set
// when Space asks to toggle it.
bool focus_grid(AppState& state, const std::string& id, ImVec2 min, float cell, int rows, int cols, int* row,
                int* col, bool* toggle = nullptr);
// A point of a picture (the key-space points): one stop; when focused the arrows give *dx, *dy (−1, 0
// or 1 each, screen directions: right, down) to move it by. True when focused.
bool focus_point(AppState& state, const std::string& id, int* dx, int* dy);
// Before a tooltip of a keyboard-focused grid cell at `cell_min` (size `cell`): place it beside the
// cell (right of it, or left of it in the right half of the display), not at the mouse.
void place_tooltip_beside_cell(ImVec2 cell_min, float cell);
// Say `text` for the focused item this frame (a grid or value adds its value this way).
void announce(AppState& state, const std::string& text);

// How the live region names a vector component: "query 0 component 1" (Q), "key …", "value …", "x …".
std::string spoken_component(const char* matrix_id, int row, int component);

// One arrow-key step for a slider of ±range: 0.1 × the range's power of ten (±1 → 0.1, ±5 → 0.1,
// ±20 → 1); Shift gives a tenth of it, PageUp/PageDown ten.
double step_for_range(double range);

// Draw the focus ring around `rect` (x0, y0, x1, y1) on the foreground.
void draw_focus_ring(ImVec4 rect);

}  // namespace ui
