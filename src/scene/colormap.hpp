// colormap.hpp — the heatmaps' colour scales as plain RGBA8 tables (no ImGui, no GL).
//
// One table of kColormapCount rows × kColormapSize entries serves every consumer, so they always
// agree: render/ uploads it as the texture heatmap.frag samples, ui/colormap picks legible text
// colours from it, and scene/export draws SVG figures with it. It lives here, below the UI, because
// the exports (scene layer) need it too.
#pragma once

#include <cstdint>

namespace scene {

enum class Colormap : int {
  Viridis = 0,    // perceptual, sequential: weights in [0, 1]
  Diverging = 1,  // blue – white – red: signed scores, white at 0
  Mask = 2,       // dark (0 = hidden) to teal (1 = may attend)
};
constexpr int kColormapCount = 3;
constexpr int kColormapSize = 256;

// kColormapCount × kColormapSize × 4 bytes (R, G, B, A), row = colormap.
const std::uint8_t* colormap_rgba8();

// The table index of t ∈ [0, 1] (clamped; NaN → 0), exactly as heatmap.frag computes it:
// index = ⌊t·255 + ½⌋ in float.
int colormap_index(float t);

// The table entry of t: 4 bytes R, G, B, A.
const std::uint8_t* colormap_entry(Colormap map, float t);

}  // namespace scene
