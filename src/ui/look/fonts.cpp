// fonts.cpp — ImGui font atlas from the subset fonts embedded by src/app/CMakeLists.txt.
#include "ui/look/fonts.hpp"

#include "font_math.hpp"       // font_math[]:      DejaVu Sans subset (what Inter lacks: ᵀ ⋅ ∑ …)
#include "font_ranges.hpp"     // kFontRanges[]:    the code points the subsets hold (subset_fonts.py)
#include "font_text.hpp"       // font_text[]:      Inter Regular subset
#include "font_text_bold.hpp"  // font_text_bold[]: Inter SemiBold subset

namespace ui {
namespace {

ImFont* add_font(const unsigned char* data, std::size_t size, float pixel_size, bool merge) {
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // static data embedded in the binary
  config.MergeMode = merge;
  config.OversampleH = 2;
  config.OversampleV = 1;
  config.PixelSnapH = false;
  // Inter's and DejaVu's metrics differ slightly: nudge merged math glyphs onto Inter's baseline.
  if (merge) config.GlyphOffset = ImVec2(0.0f, pixel_size * 0.02f);
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(data), int(size), pixel_size,
                                                    &config, kFontRanges);  // unsigned short = ImWchar16
}

// One font face at one size with the math glyphs merged in.
ImFont* add_face(const unsigned char* data, std::size_t size, float pixel_size) {
  ImFont* font = add_font(data, size, pixel_size, false);
  add_font(font_math, font_math_size, pixel_size, true);
  return font;
}

}  // namespace

ImFont* add_text_face(float pixel_size) {
  return add_face(font_text, font_text_size, pixel_size);
}

Fonts load_fonts(float pixel_size) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  Fonts fonts;
  fonts.text = add_face(font_text, font_text_size, pixel_size);
  fonts.heading = add_face(font_text_bold, font_text_bold_size, pixel_size * 1.07f);
  fonts.small = add_face(font_text, font_text_size, pixel_size * 0.82f);
  fonts.formula = add_face(font_text, font_text_size, pixel_size * 1.4f);
  atlas->Build();
  return fonts;
}

}  // namespace ui
