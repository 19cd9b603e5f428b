// app_records.cpp — what the app reads back about its screen and its frames, apart from the edit path
// of app_state.cpp: a widget's rectangle by id (the page API and the desktop's --rects: a grid cell's
// from its grid's geometry), the reading aids kept row by row, and the frame-time records.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/app_state.hpp"

namespace ui {

std::optional<ImVec4> widget_rect(const AppState& state, std::string_view id) {
  if (auto it = state.ui.frame.widget_rects.find(std::string(id)); it != state.ui.frame.widget_rects.end()) return it->second;
  // cell/<grid>/<i>/<j>; the multi-head weights grids: head/<t>/weights/<i>/<j> and
  // head/average/weights/<i>/<j>.
  char grid[16] = {0};
  int i = -1, j = -1, t = -1;
  char tail = 0;
  const std::string text(id);
  const int h = int(state.ui.frame.head_grids.size()) - 1;  // the last grid is the average
  const GridGeometry* g = nullptr;
  if (std::sscanf(text.c_str(), "head/%d/weights/%d/%d%c", &t, &i, &j, &tail) == 3) {
    if (t >= 0 && t < h) g = &state.ui.frame.head_grids[std::size_t(t)];
  } else if (std::sscanf(text.c_str(), "head/average/weights/%d/%d%c", &i, &j, &tail) == 2) {
    if (h >= 1) g = &state.ui.frame.head_grids[std::size_t(h)];
  } else if (std::sscanf(text.c_str(), "cell/%15[a-z]/%d/%d%c", grid, &i, &j, &tail) == 3) {
    const std::string name = grid;
    g = name == "scores"    ? &state.ui.frame.scores_grid
        : name == "weights" ? &state.ui.frame.weights_grid
        : name == "mask"    ? &state.ui.frame.mask_grid
                            : nullptr;
  }
  if (!g || !g->visible || i < 0 || j < 0 || i >= g->rows || j >= g->cols) return std::nullopt;
  const float x0 = g->origin.x + g->cell * float(j), y0 = g->origin.y + g->cell * float(i);
  // Report only cells whose centre is visible (scrolled-away cells cannot be clicked).
  const float cx = x0 + 0.5f * g->cell, cy = y0 + 0.5f * g->cell;
  if (cx < g->clip.x || cx > g->clip.z || cy < g->clip.y || cy > g->clip.w) return std::nullopt;
  return ImVec4(x0, y0, g->cell, g->cell);
}

const attn::ReadingAids& reading_aids(const AppState& state) {
  if (state.ui.caches.aids_stale_all) {
    state.ui.caches.aids = attn::reading_aids(state.result);
  } else {
    std::vector<int> rows;
    for (std::size_t i = 0; i < state.ui.caches.aids_stale_rows.size(); ++i)
      if (state.ui.caches.aids_stale_rows[i]) rows.push_back(int(i));
    if (!rows.empty())
      attn::update_reading_aids(state.result.weights, state.result.allowed, rows, &state.ui.caches.aids);
  }
  state.ui.caches.aids_stale_all = false;
  state.ui.caches.aids_stale_rows.clear();
  return state.ui.caches.aids;
}

void record_frame(FrameStats& stats, double ms, const FrameParts& parts) {
  ++stats.frames;
  stats.last_frame_ms = ms;
  stats.total_frame_ms += ms;
  stats.recent_ms[stats.recent_next] = ms;
  stats.recent_parts_ms[stats.recent_next][0] = parts.recompute_ms;
  stats.recent_parts_ms[stats.recent_next][1] = parts.ui_ms;
  stats.recent_parts_ms[stats.recent_next][2] = parts.render_ms;
  stats.recent_next = (stats.recent_next + 1) % FrameStats::kWindow;
  stats.recent_count = std::min(stats.recent_count + 1, FrameStats::kWindow);
}

}  // namespace ui
