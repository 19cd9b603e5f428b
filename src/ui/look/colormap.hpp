// colormap.hpp — the heatmaps' colour scales for ImGui drawing.
//
// The table itself is scene/colormap (plain RGBA8, shared with the SVG export); render/ uploads it
// as a texture that heatmap.frag samples, and the UI uses the same entries (colormap_color) to pick
// legible text colours on top of cells and to draw the legends' tick marks, so all agree.
#pragma once

#include <cstdint>

#include "imgui.h"
#include "scene/colormap.hpp"

namespace ui {

using scene::Colormap;
using scene::colormap_rgba8;
using scene::kColormapCount;
using scene::kColormapSize;

// The colour of t ∈ [0, 1] (clamped), quantized exactly as the shader does: index = ⌊t·255 + ½⌋.
ImU32 colormap_color(Colormap map, float t);

// Black or white, whichever reads better on `background` (WCAG relative luminance).
ImU32 contrasting_text(ImU32 background);

}  // namespace ui
