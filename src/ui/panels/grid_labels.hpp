// grid_labels.hpp — the token labels along a grid's rows (queries) and columns (keys), for any number
// of tokens: every step-th token, step a power of two (1, 2, 4, … — the same tokens at every size and
// while panning), each name whole, none overlapping. A row label wider than the label column is cut
// with "…" and its full name shows on hover. Each label drawn is recorded as a widget rectangle,
// label/GRID/row/i and label/GRID/col/j, so tests can check that none overlaps (tests/ui_frame_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "ui/app_state.hpp"

namespace ui {

// The smallest power of two k ≥ 1 with k · cell ≥ need: every k-th label gets k cells of room.
int label_step(float cell, float need);

// The widest token name in the current font.
float widest_label(const std::vector<std::string>& tokens);

// One grid's labels: cell (i, j) has its top-left corner at origin + cell · (j, i) on screen (zoom and
// pan included); rows and columns [first, last) are in view.
struct GridLabels {
  const char* grid;  // GRID of the widget ids: "scores", "weights", "mask"
  const std::vector<std::string>* tokens;
  const std::vector<std::string>* col_tokens = nullptr;  // the keys' labels when not the tokens (sources)
  ImVec2 origin;
  float cell = 0;
  int row_first = 0, row_last = 0, col_first = 0, col_last = 0;
  int lit_row = -1, lit_col = -1;  // drawn in the text colour (hovered, the walk's row)
};

// Row labels (queries) right-aligned to `right_x` (a small gap before the grid), at most `max_w` wide.
void draw_query_labels(AppState& state, const GridLabels& g, float right_x, float max_w, ImU32 color);
// Column labels (keys) centred over their columns on one line whose top is `top_y`; the step is set by the
// widest name of all tokens (so it does not change while panning).
void draw_key_labels(AppState& state, const GridLabels& g, float top_y, ImU32 color);

}  // namespace ui
