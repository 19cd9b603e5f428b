// fonts.hpp — the embedded UI font (Inter Regular, with DejaVu Sans merged in for ᵀ and ⋅), rasterized
// at the display's pixel size so text stays sharp on HiDPI screens. The headings are a synthetic
// semibold of the same face (its glyphs emboldened in the atlas): no second face to download.
#pragma once

#include "imgui.h"

namespace ui {

struct Fonts {
  ImFont* text = nullptr;     // body text and widgets: 1 em
  ImFont* heading = nullptr;  // panel titles: synthetic semibold, kHeadingScale em
  ImFont* small = nullptr;    // numbers inside cells, legends: 0.82 em
  ImFont* formula = nullptr;  // the formula strip: 1.4 em
};

inline constexpr float kHeadingScale = 1.07f;  // the heading's size, in text sizes

// The stroke, in pixels, that load_fonts(pixel_size) adds to every heading glyph: its ink is that
// much wider (its quad by the stroke rounded up to whole atlas columns) than the text face's glyph at
// the heading's size, its advance half that much (fonts.cpp, embolden).
float heading_stroke(float pixel_size);

// Rebuild the atlas with the text font at `pixel_size` (= CSS px × devicePixelRatio on the web).
// The caller re-uploads the font texture (the GL backend does it on the next NewFrame when the
// device objects are recreated).
Fonts load_fonts(float pixel_size);

// The text face at `pixel_size` added to the atlas (with the math glyphs merged in), as load_fonts
// adds it: what the web build gives ImGui in place of its built-in font (src/app/web_default_font.cpp).
ImFont* add_text_face(float pixel_size);

}  // namespace ui
