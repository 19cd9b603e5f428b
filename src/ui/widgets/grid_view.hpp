// grid_view.hpp — zoom and pan of the n×m heatmaps (plain C++, no ImGui: unit-tested).
//
// The Scores and Weights grids share one view, so the same cells stay side by side. The view shows
// the cells [col0, col0 + m/zoom) × [row0, row0 + n/zoom), in cell units (fractional: the cells at
// the edges may be cut); n rows (queries), m columns (keys: m = n but for cross-attention). zoom = 1
// shows the whole grid; the view never leaves the grid and keeps at least kMinCellsAcross cells
// across its shorter side.
#pragma once

namespace ui {

struct GridView {
  int n = 0;                  // the grid's rows this view belongs to (another size fits it again)
  int m = 0;                  // … and its columns
  double zoom = 1.0;          // 1 … max_zoom(n)
  double row0 = 0, col0 = 0;  // top-left corner of the view, in cells
  int panning = 0;  // a drag that started on a grid moves the view: that grid's id (1, 2, …), 0 none
  // Where the zoomable grids were drawn in the last frame (screen pixels, as the mouse's; id 1
  // Scores, 2 Weights; x1 <= x0 when not drawn), so a touch pinch can ask whether it is over one.
  struct Frame {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  } frames[2];
  int frames_stamp[2] = {-1, -1};  // the frame number each was drawn in

  double span() const { return double(n) / zoom; }      // rows down the view
  double col_span() const { return double(m) / zoom; }  // columns across it
  bool zoomed() const { return zoom > 1.0; }
  // Whether the point (x, y) is over a grid drawn in frame `frame` (or the one before it).
  bool grid_at(float x, float y, int frame) const {
    for (int i = 0; i < 2; ++i) {
      const Frame& f = frames[i];
      if (frames_stamp[i] >= frame - 1 && x >= f.x0 && x < f.x1 && y >= f.y0 && y < f.y1) return true;
    }
    return false;
  }
};

inline constexpr double kMinCellsAcross = 2.0;
inline constexpr double kWheelZoomStep = 1.25;  // one wheel notch zooms by this factor

// The largest zoom for a grid whose shorter side has n cells: kMinCellsAcross cells across, and
// never below 1.
double max_zoom(int n);
// The whole n×m grid again (also for a new size; m = n: a square grid).
void fit_view(GridView& view, int n, int m);
inline void fit_view(GridView& view, int n) {
  fit_view(view, n, n);
}
// Zoom by `factor` keeping the grid point (at_col, at_row) — cell units, e.g. under the pointer —
// at the same place on screen; zoom clamped to [1, max_zoom(n)], the view clamped to the grid.
void zoom_view_about(GridView& view, double factor, double at_col, double at_row);
// Move the view by (d_cols, d_rows) cells, clamped to the grid.
void pan_view(GridView& view, double d_cols, double d_rows);

// The rows (or columns) [first, last) the view shows at least partly.
struct CellRange {
  int first = 0, last = 0;
};
CellRange visible_cells(double start, double span, int n);

}  // namespace ui
