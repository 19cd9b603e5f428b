// colormap.cpp — ImGui colours from the shared colormap table (scene/colormap).
#include "ui/look/colormap.hpp"

#include <cmath>

namespace ui {

ImU32 colormap_color(Colormap map, float t) {
  const std::uint8_t* c = scene::colormap_entry(map, t);
  return IM_COL32(c[0], c[1], c[2], c[3]);
}

ImU32 contrasting_text(ImU32 background) {
  auto linear = [](unsigned channel) {
    const float c = float(channel & 0xff) / 255.0f;
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
  };
  const float luminance = 0.2126f * linear(background >> IM_COL32_R_SHIFT) +
                          0.7152f * linear(background >> IM_COL32_G_SHIFT) +
                          0.0722f * linear(background >> IM_COL32_B_SHIFT);
  // Contrast against black (L + 0.05) / 0.05 vs. against white 1.05 / (L + 0.05): equal at
  // L = 0.179, where both are 4.58:1, so every background gets ≥ 4.5:1 (WCAG AA; tests/theme_test).
  // Pure black and white: an off-black (20, 22, 28) left cells near L = 0.19 at 4.2:1.
  return luminance > 0.179f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

}  // namespace ui
