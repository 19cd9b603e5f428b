// matrix_painter.hpp — how a panel asks for a matrix to be drawn as coloured cells.
//
// The UI knows only this interface; render/HeatmapRenderer implements it with GL shaders. A paint
// request is queued in the draw list (ImDrawList::AddCallback), so the heatmap is drawn in ImGui's
// draw order: below the numbers and labels that the panel adds afterwards.
#pragma once

#include <cstdint>
#include <vector>

#include "imgui.h"
#include "ui/look/colormap.hpp"

namespace ui {

// Cells whose value is ≥ kMaskedValue are drawn hatched (a masked cell: −∞ before softmax).
constexpr float kMaskedValue = 1e30f;

// Named images, one GPU texture each. A texture is uploaded at most once per frame and may be
// painted several times (each paint its own rectangle and view: the heads of one mosaic).
enum class MatrixSlot : int {
  Scores,
  Weights,
  ScoresLegend,
  WeightsLegend,
  ScoresMaskedSwatch,
  WeightsMaskedSwatch,
  Mask,
  HeadWeights,                         // multi-head: head t's weights at HeadWeights + t …
  HeadWeightsLast = HeadWeights + 16,  // … for up to 16 heads, then their average
  Bias,                                // ALiBi's B of the focused head (the Mask panel)
  ModelHeads,                          // the Model mode's layers × heads patterns, one mosaic
  ModelHeadLarge,                      // the Model mode's hovered head, large
  CircuitsHeads,                       // the Circuits mode's layers × heads patterns, one mosaic
  Count,
};

// What a pixel shows when the grid has more cells than pixels (shaders/heatmap.frag): one sampled
// cell, or an aggregate of the block of cells it covers.
enum class CellAggregate : int {
  Sample = 0,     // the cell under the pixel's centre (a thin band can vanish between samples)
  Max = 1,        // the largest value: weights (a sharp band stays visible)
  Mean = 2,       // the mean of the block's allowed cells
  Magnitude = 3,  // the value of largest |v|, with its sign: scores (strong negatives stay visible)
};

// A promise with a new version of an image: its values differ from those of version `since` only in
// rows `rows` and columns `cols` (ascending; null: none). A texture that holds version `since` then
// uploads just those (a dragged query is one row of 1024 instead of 1024² cells). since 0: no promise.
struct TextureChange {
  std::uint64_t since = 0;
  const std::vector<int>* rows = nullptr;
  const std::vector<int>* cols = nullptr;
};

struct MatrixImage {
  MatrixSlot slot = MatrixSlot::Scores;
  int rows = 0, cols = 0;
  const float* values = nullptr;  // rows × cols, row-major
  std::uint64_t version = 0;      // the painter re-uploads when this (or the size) changes; 0 = always
  TextureChange changed;          // optional: only these cells differ from an older version
  Colormap colormap = Colormap::Viridis;
  float lo = 0, hi = 1;                             // value range mapped onto the colormap
  float gap_px = 0;                                 // gap between cells, in ImGui (framebuffer) pixels
  CellAggregate aggregate = CellAggregate::Sample;  // smaller than a pixel: what a pixel shows
  // The part of the matrix stretched over the rectangle, in cells (zoom, ui/widgets/grid_view.hpp):
  // columns [view_col0, view_col1) and rows [view_row0, view_row1). view_col1 ≤ view_col0 (the
  // default) shows the whole matrix.
  float view_col0 = 0, view_row0 = 0, view_col1 = 0, view_row1 = 0;
};

class MatrixPainter {
 public:
  virtual ~MatrixPainter() = default;
  // Draw `image` stretched over [min, max] (ImGui coordinates) in `draw_list`'s order.
  virtual void paint(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const MatrixImage& image) = 0;
};

}  // namespace ui
