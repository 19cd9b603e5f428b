// colormap.hpp — the heatmaps' colour scales, as one table shared by the GPU and the CPU.
//
// The table is kColormapCount rows × kColormapSize RGBA8 entries. render/ uploads it as a texture
// that heatmap.frag samples; the UI uses the same entries (colormap_color) to pick legible text
// colours on top of cells and to draw the legends' tick marks, so both always agree.
#pragma once

#include <cstdint>

#include "imgui.h"

namespace ui {

enum class Colormap : int {
  Viridis = 0,    // perceptual, sequential: weights in [0, 1]
  Diverging = 1,  // blue – white – red: signed scores, white at 0
  Mask = 2,       // dark (0 = hidden) to teal (1 = may attend)
};
constexpr int kColormapCount = 3;
constexpr int kColormapSize = 256;

// kColormapCount × kColormapSize × 4 bytes (R, G, B, A), row = colormap.
const std::uint8_t* colormap_rgba8();

// The colour of t ∈ [0, 1] (clamped), quantized exactly as the shader does: index = ⌊t·255 + ½⌋.
ImU32 colormap_color(Colormap map, float t);

// Black or white, whichever reads better on `background` (WCAG relative luminance).
ImU32 contrasting_text(ImU32 background);

}  // namespace ui
