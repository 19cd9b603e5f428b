// heatmap_image.hpp — the n×m floats a Scores or Weights heatmap paints, kept up to date with the
// result: rebuilt whole after a full pass, or only in the rows and columns an edit changed
// (AppState::result_change), which the painter then uploads alone.
#pragma once

#include "ui/app_state.hpp"
#include "ui/text/grid_captions.hpp"
#include "ui/widgets/grid_view.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

// Weights with `log_scale`: log₁₀ a from log₁₀ kLogFloor (a ≤ 10⁻⁶, and exact zeros) to 0, so the small
// weights of a big scene (most are ~1/n) still show their structure.
constexpr double kLogFloor = 1e-6;

// Bring `image` to grid `which` of the current result:
//   values  n×m, row-major: the grid's value (grid_value), log₁₀ for weights with `log_scale`, and
//           kMaskedValue where the mask hides the cell;
//   range   Scores: diverging colours symmetric around 0, ±max |v| over the allowed cells;
//           Weights: [0, 1], or [log₁₀ kLogFloor, 0] with `log_scale`.
// Only the rows and columns of state.result_change when the image holds the version it starts
// from (same grid, same scale); the returned change then says which, in result versions (since 0:
// upload everything).
TextureChange update_heatmap_image(const AppState& state, captions::Grid which, bool log_scale,
                                   HeatmapImage* image);

// The largest allowed value in rows × cols of the image (the cells in view): the weights' auto colour
// range. The whole grid reads each row's largest; a zoomed view scans its cells once per version and view.
float shown_max(HeatmapImage* image, CellRange rows, CellRange cols);

}  // namespace ui
