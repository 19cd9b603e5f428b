// cell_rows.hpp — the per-cell loop behind the heatmaps' images (panels/heatmap_image.cpp): one row
// of an n×n stage's doubles to the floats the painter uploads, and that row's largest |value|.
//
// Plain C++ (no ImGui, unit-tested), written without a call per cell: the web build's UI is compiled
// for size, which inlines no function that is not marked inline, and at n = 1024 a dragged key gives
// every row of the weights new values — 1024² cells a frame, where the cell-by-cell loop (a call to
// painted() per cell) took 7 ms of the frame in headless Chromium (1.5 ms now).
#pragma once

namespace ui {

// out[j] = allowed[j] ? float(v[j]) : masked, j < n; returns max |out[j]| over the allowed cells
// (0 when none is allowed). v is finite (the core clamps every stage), so no NaN reaches the max.
float paint_row_linear(const double* v, const unsigned char* allowed, int n, float masked, float* out);

}  // namespace ui
