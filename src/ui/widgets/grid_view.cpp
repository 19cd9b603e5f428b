// grid_view.cpp — see grid_view.hpp.
#include "ui/widgets/grid_view.hpp"

#include <algorithm>
#include <cmath>

namespace ui {
namespace {

void clamp_view(GridView& view) {
  view.zoom = std::clamp(view.zoom, 1.0, max_zoom(std::min(view.n, view.m)));
  view.row0 = std::clamp(view.row0, 0.0, std::max(0.0, double(view.n) - view.span()));
  view.col0 = std::clamp(view.col0, 0.0, std::max(0.0, double(view.m) - view.col_span()));
}

}  // namespace

double max_zoom(int n) {
  return std::max(1.0, double(n) / kMinCellsAcross);
}

void fit_view(GridView& view, int n, int m) {
  view.n = n;
  view.m = m;
  view.zoom = 1.0;
  view.row0 = view.col0 = 0.0;
  view.panning = 0;
}

void zoom_view_about(GridView& view, double factor, double at_col, double at_row) {
  if (!(factor > 0.0) || !std::isfinite(factor)) return;
  const double old_zoom = view.zoom;
  view.zoom = std::clamp(old_zoom * factor, 1.0, max_zoom(std::min(view.n, view.m)));
  // The anchor's offset from the corner, in cells, shrinks by old/new zoom: same pixels on screen.
  const double keep = old_zoom / view.zoom;
  view.col0 = at_col - (at_col - view.col0) * keep;
  view.row0 = at_row - (at_row - view.row0) * keep;
  clamp_view(view);
}

void pan_view(GridView& view, double d_cols, double d_rows) {
  if (!std::isfinite(d_cols) || !std::isfinite(d_rows)) return;
  view.col0 += d_cols;
  view.row0 += d_rows;
  clamp_view(view);
}

CellRange visible_cells(double start, double span, int n) {
  CellRange r;
  r.first = std::clamp(int(std::floor(start)), 0, n);
  r.last = std::clamp(int(std::ceil(start + span - 1e-9)), r.first, n);
  return r;
}

}  // namespace ui
