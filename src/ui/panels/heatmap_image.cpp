// heatmap_image.cpp — see heatmap_image.hpp.
#include "ui/panels/heatmap_image.hpp"

#include <algorithm>
#include <cmath>

#include "ui/widgets/cell_rows.hpp"
#if AL_ALL_MODES
#include "scene/variant_keys.hpp"
#endif

namespace ui {
namespace {

// The n×n stage grid `which` shows (masked cells are skipped by the caller).
const attn::Matrix& stage_of(captions::Grid which, const attn::Result& r) {
  switch (which) {
    case captions::Grid::Raw:
      return r.scores;
    case captions::Grid::Scaled:
      return r.scaled;
    case captions::Grid::Weights:
      break;
  }
  return r.weights;
}

// Cell value as painted: log₁₀ (floored) for weights on the log scale, kMaskedValue where hidden
// (fill_row's linear rows: the same, a row at a time, widgets/cell_rows.hpp).
float painted(double v, bool allowed, bool log_scale) {
  if (!allowed) return kMaskedValue;
  return log_scale ? float(std::log10(std::max(v, kLogFloor))) : float(v);
}

// Row i's values and its largest |value| over the allowed cells.
void fill_row(const attn::Matrix& stage, const attn::MaskMatrix& allowed, bool log_scale, int i,
              HeatmapImage* d) {
  const int m = d->m;
  float* out = &d->values[std::size_t(i) * std::size_t(m)];
  if (!log_scale) {  // the common case, at the speed of a drag (widgets/cell_rows.hpp)
    d->row_largest[std::size_t(i)] = paint_row_linear(&stage(i, 0), &allowed(i, 0), m, kMaskedValue, out);
    return;
  }
  const double* v = &stage(i, 0);
  const unsigned char* ok = &allowed(i, 0);
  float largest = 0;
  for (int j = 0; j < m; ++j) {
    out[j] = painted(v[j], ok[j] != 0, true);
    if (ok[j]) largest = std::max(largest, std::abs(out[j]));
  }
  d->row_largest[std::size_t(i)] = largest;
}

// Column j's values; a row's largest is raised by the new value, or found again when the old value
// was it and shrank.
void fill_column(const attn::Matrix& stage, const attn::MaskMatrix& allowed, bool log_scale, int j,
                 HeatmapImage* d) {
  const int n = d->n;
  for (int i = 0; i < n; ++i) {
    float& cell = d->values[std::size_t(i) * std::size_t(d->m) + std::size_t(j)];
    const float old = cell;
    const bool ok = allowed(i, j) != 0;
    cell = painted(stage(i, j), ok, log_scale);
    if (!ok) continue;
    float& largest = d->row_largest[std::size_t(i)];
    if (std::abs(cell) >= largest) {
      largest = std::abs(cell);
    } else if (std::abs(old) == largest) {
      fill_row(stage, allowed, log_scale, i, d);
    }
  }
}

// Scores: symmetric around 0 over the largest |value| (1 when all are ~0); weights: fixed, [0, 1] —
// or, when they can be negative (`two_sided` > 0: differential attention's A₁ − λA₂), the diverging
// colours over [−two_sided, two_sided], 0 white.
void set_range(captions::Grid which, bool log_scale, float two_sided, HeatmapImage* d) {
  if (which == captions::Grid::Weights && two_sided > 0.0f && !log_scale) {
    d->lo = -two_sided;
    d->hi = two_sided;
    d->colormap = Colormap::Diverging;
  } else if (which != captions::Grid::Weights) {
    float largest = 0;
    for (float v : d->row_largest) largest = std::max(largest, v);
    const float span = largest > 1e-9f ? largest : 1.0f;
    d->lo = -span;
    d->hi = span;
    d->colormap = Colormap::Diverging;
  } else {
    d->lo = log_scale ? float(std::log10(kLogFloor)) : 0.0f;
    d->hi = log_scale ? 0.0f : 1.0f;
    d->colormap = Colormap::Viridis;
  }
}

}  // namespace

TextureChange update_heatmap_image(const AppState& state, captions::Grid which, bool log_scale,
                                   HeatmapImage* d) {
  const attn::Result& r = state.result;
  const int n = int(r.scores.rows()), m = int(r.scores.cols());
  const attn::Matrix& stage = stage_of(which, r);
  const attn::StageChange& change = state.result_change;
  // Differential attention's weights A₁ − λA₂ lie in [−|λ|, 1]: a two-sided scale (0 in the middle).
  float two_sided = 0.0f;
#if AL_ALL_MODES
  if (state.scene.variants && state.scene.variants->core.differential)
    two_sided = float(std::max(1.0, std::abs(state.scene.variants->core.lambda)));
#endif
  bool colours_changed = false;  // the weights' scale turned one- or two-sided: repaint them all
#if AL_ALL_MODES
  colours_changed =
      which == captions::Grid::Weights && (d->colormap == Colormap::Diverging) != (two_sided > 0.0f);
#endif
  const bool same_kind =
      d->grid == int(which) && d->log_scale == log_scale && d->n == n && d->m == m && !colours_changed;
  if (same_kind && d->version == state.result_version) return {};  // already up to date (not uploaded again)
  // The weights changed in rows `rows` (a key's column changed only the rows that allow it); scores
  // and scaled in rows `score_rows()` and columns `keys` (a key: its column alone, 1,024 cells of 1024²).
  if (same_kind && changed_only_since(state, d->version)) {
    const std::uint64_t since = d->version;
    const bool weights = which == captions::Grid::Weights;
    const std::vector<int>& rows = weights ? change.rows : change.score_rows();
    for (int i : rows) fill_row(stage, r.allowed, log_scale, i, d);
    if (!weights)
      for (int j : change.keys) fill_column(stage, r.allowed, log_scale, j, d);
    set_range(which, log_scale, two_sided, d);
    d->version = state.result_version;
    return {since, &rows, weights ? nullptr : &change.keys};
  }
  d->grid = int(which);
  d->log_scale = log_scale;
  d->n = n;
  d->m = m;
  d->values.resize(std::size_t(n) * std::size_t(m));
  d->row_largest.assign(std::size_t(n), 0.0f);
  for (int i = 0; i < n; ++i) fill_row(stage, r.allowed, log_scale, i, d);
  set_range(which, log_scale, two_sided, d);
  d->version = state.result_version;
  return {};
}

float shown_max(HeatmapImage* d, CellRange rows, CellRange cols) {
  const int n = d->n, m = d->m;
  rows.first = std::clamp(rows.first, 0, n);
  rows.last = std::clamp(rows.last, rows.first, n);
  cols.first = std::clamp(cols.first, 0, m);
  cols.last = std::clamp(cols.last, cols.first, m);
  if (d->shown_version == d->version && d->shown_rows[0] == rows.first && d->shown_rows[1] == rows.last &&
      d->shown_cols[0] == cols.first && d->shown_cols[1] == cols.last)
    return d->shown_max;
  float largest = 0;
  if (cols.first == 0 && cols.last == m) {
    for (int i = rows.first; i < rows.last; ++i) largest = std::max(largest, d->row_largest[std::size_t(i)]);
  } else {
    for (int i = rows.first; i < rows.last; ++i) {
      const float* row = &d->values[std::size_t(i) * std::size_t(m)];
      for (int j = cols.first; j < cols.last; ++j)
        if (row[j] < kMaskedValue) largest = std::max(largest, std::abs(row[j]));
    }
  }
  d->shown_max = largest;
  d->shown_version = d->version;
  d->shown_rows[0] = rows.first;
  d->shown_rows[1] = rows.last;
  d->shown_cols[0] = cols.first;
  d->shown_cols[1] = cols.last;
  return largest;
}

}  // namespace ui
