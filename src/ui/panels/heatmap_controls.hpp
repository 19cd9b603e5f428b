// heatmap_controls.hpp — the Scores and Weights panels' parts around the grid (heatmap_controls.cpp),
// shared by heatmap_panel.cpp only.
#pragma once

#include <string>

#include "imgui.h"
#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/panels/heatmap_image.hpp"
#include "ui/panels/panel_parts.hpp"  // HeatmapKind
#include "ui/widgets/grid_view.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

// Decimals that fit a cell: 3 (like the lessons' printouts) when there is room, else fewer; −1: no
// numbers.
int decimals_for(float cell, const ImFont* font);
// The colour ramp under the grid with its end values (and the masked cells' swatch).
void draw_legend(MatrixPainter& painter, const Fonts& fonts, const HeatmapImage& d, HeatmapKind kind,
                 ImVec2 pos, float width, bool any_masked, const char* masked_label);
// A toggle chip (widget id `id`), lit when on; true when pressed.
bool chip(AppState& state, const char* label, const std::string& id, bool on);
// Toggle chips on the title line, right-aligned: the Scores panel's two grids (raw QKᵀ, and the
// scaled + masked stage), the Weights panel's reading aids. Drawn on their own line when the
// title leaves no room.
void draw_grid_switches(AppState& state, const Fonts& fonts, HeatmapKind kind, ImVec2 header_pos,
                        const std::string& title);
// Zoom and pan (ui/widgets/grid_view.hpp) from the mouse over the grid's frame [min, max], whose cells are
// `cell` pixels at zoom 1: the wheel (a trackpad's pinch too) zooms about the pointer, a drag pans
// (when zoomed), a double-click fits the whole grid. `id` names the grid whose drag moves the view.
void zoom_and_pan(GridView& view, int id, ImVec2 min, ImVec2 max, float cell);

}  // namespace ui
