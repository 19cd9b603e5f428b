// grid_view_test.cpp — the heatmaps' zoom and pan (ui/widgets/grid_view.hpp): the point under the pointer
// stays put, the view never leaves the grid, zoom stays in [1, n/2], fit restores the whole grid.
#include "ui/widgets/grid_view.hpp"

#include <doctest/doctest.h>

#include <limits>

using ui::GridView;

TEST_CASE("grid view: zooming about a point keeps that point where it was on screen") {
  GridView v;
  ui::fit_view(v, 64);
  CHECK(v.span() == 64.0);
  // The pointer over cell column 16.5, row 40.25 (in cells). Its offset from the view's corner in
  // screen units is (at − corner) · zoom; it must not move.
  const double at_col = 16.5, at_row = 40.25;
  const double before_x = (at_col - v.col0) * v.zoom, before_y = (at_row - v.row0) * v.zoom;
  ui::zoom_view_about(v, 4.0, at_col, at_row);
  CHECK(v.zoom == 4.0);
  CHECK(v.span() == 16.0);
  CHECK((at_col - v.col0) * v.zoom == doctest::Approx(before_x).epsilon(1e-12));
  CHECK((at_row - v.row0) * v.zoom == doctest::Approx(before_y).epsilon(1e-12));
  CHECK(v.col0 == doctest::Approx(16.5 - 16.5 / 4));    // 12.375
  CHECK(v.row0 == doctest::Approx(40.25 - 40.25 / 4));  // 30.1875
  // A wheel notch back: zoom / 1.25 about the same point, still fixed.
  ui::zoom_view_about(v, 1.0 / ui::kWheelZoomStep, at_col, at_row);
  CHECK(v.zoom == doctest::Approx(3.2));
  CHECK((at_col - v.col0) * v.zoom == doctest::Approx(before_x).epsilon(1e-12));
}

TEST_CASE("grid view: the view stays inside the grid; zoom stays in [1, n/2]") {
  GridView v;
  ui::fit_view(v, 10);
  ui::zoom_view_about(v, 100.0, 9.9, 9.9);  // past the limit, at the bottom-right corner
  CHECK(v.zoom == 5.0);                     // 2 cells across
  CHECK(v.span() == 2.0);
  CHECK(v.col0 <= 8.0);
  CHECK(v.row0 <= 8.0);
  CHECK(v.col0 + v.span() <= 10.0);
  ui::pan_view(v, -1000.0, 3.0);  // far left, then down past the edge
  CHECK(v.col0 == 0.0);
  CHECK(v.row0 == 8.0);
  ui::zoom_view_about(v, 0.01, 5.0, 5.0);  // below 1: the whole grid
  CHECK(v.zoom == 1.0);
  CHECK(v.col0 == 0.0);
  CHECK(v.row0 == 0.0);
  // Bad factors change nothing.
  ui::zoom_view_about(v, 2.0, 5.0, 5.0);
  const GridView kept = v;
  ui::zoom_view_about(v, 0.0, 1.0, 1.0);
  ui::zoom_view_about(v, -3.0, 1.0, 1.0);
  ui::zoom_view_about(v, std::numeric_limits<double>::infinity(), 1.0, 1.0);
  ui::pan_view(v, std::numeric_limits<double>::quiet_NaN(), 1.0);
  CHECK(v.zoom == kept.zoom);
  CHECK(v.col0 == kept.col0);
  CHECK(v.row0 == kept.row0);
  // A 1×1 or 2×2 grid does not zoom.
  CHECK(ui::max_zoom(1) == 1.0);
  CHECK(ui::max_zoom(2) == 1.0);
  CHECK(ui::max_zoom(1024) == 512.0);
}

TEST_CASE("grid view: visible rows are those the view meets, cut ones included") {
  CHECK(ui::visible_cells(0.0, 64.0, 64).first == 0);
  CHECK(ui::visible_cells(0.0, 64.0, 64).last == 64);
  const ui::CellRange r = ui::visible_cells(12.375, 16.0, 64);  // rows 12 (cut) … 28 (cut)
  CHECK(r.first == 12);
  CHECK(r.last == 29);
  const ui::CellRange exact = ui::visible_cells(8.0, 2.0, 10);
  CHECK(exact.first == 8);
  CHECK(exact.last == 10);
}
