// fonts.cpp — ImGui font atlas from the subset fonts embedded by src/app/CMakeLists.txt.
#include "ui/look/fonts.hpp"

#include <algorithm>
#include <cmath>

#include "font_math.hpp"    // font_math[]:   DejaVu Sans subset (what Inter lacks: ᵀ ⋅ ∑ …)
#include "font_ranges.hpp"  // kFontRanges[]: the code points the subsets hold (subset_fonts.py)
#include "font_text.hpp"    // font_text[]:   Inter Regular subset

namespace ui {
namespace {

constexpr int kOversampleH = 2;  // atlas columns per screen pixel across (ImFontConfig::OversampleH)
// The synthetic semibold's stroke, per pixel of the heading's size (see embolden): side by side with
// Inter SemiBold (the face it replaces) at 1× and 2×, 1/20 looked as heavy; 1/14 looked bold. Inter
// SemiBold's stems are only 0.045 em (size / 27) wider than Regular's, but they thicken across too.
constexpr float kStrokePerPx = 1.0f / 20.0f;

ImFont* add_font(const unsigned char* data, std::size_t size, float pixel_size, bool merge) {
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // static data embedded in the binary
  config.MergeMode = merge;
  config.OversampleH = kOversampleH;
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

// The atlas columns a stroke of `stroke` pixels spreads each glyph by (the last one partly).
int stroke_columns(float stroke) {
  return int(std::ceil(stroke * float(kOversampleH) - 1e-3f));
}

// Synthetic bold (as FreeType's FT_Bitmap_Embolden, or a browser's for a face without a bold):
// every glyph of `font`, already rasterized in the atlas, gets `stroke` pixels wider. Each row's
// coverage is dilated by the stroke — a column takes the largest coverage of itself and the
// stroke's columns to its right, the last one weighted by the stroke's fraction — so every
// vertical stem and curve thickens by the stroke while the glyph keeps its height. The ink grows to
// the left, into the glyph's own padding (load_fonts reserves TexGlyphPadding = 1 + the stroke's
// columns, and stb_truetype leaves that padding left of and above each glyph, inside the glyph's
// packed rectangle): nothing of another glyph is touched, and a blank column still separates the
// two for the GPU's filtering. The quad grows by the stroke's columns to the left in the atlas and to
// the right on screen; like Inter SemiBold against Regular (the 'l': ink +0.045 em, advance
// +0.023 em, each side bearing −0.011 em), the advance grows by half the stroke and the ink moves a
// quarter stroke left, so each side bearing gives up a quarter and a heading is hardly wider than
// it was in SemiBold (spaces keep their width).
void embolden(ImFontAtlas& atlas, ImFont& font, float stroke) {
  const float texels = stroke * float(kOversampleH);
  const int whole = int(texels);  // columns each column reads at full weight (besides itself)
  const float part = texels - float(whole);
  const int extra = stroke_columns(stroke);
  IM_ASSERT(extra < atlas.TexGlyphPadding && "load_fonts reserves the stroke's columns");
  const int width = atlas.TexWidth;
  for (ImFontGlyph& glyph : font.Glyphs) {
    if (!glyph.Visible) continue;  // a space keeps its width (a semibold's spaces are no wider)
    glyph.AdvanceX += 0.5f * stroke;
    const int x0 = int(std::lround(glyph.U0 * float(width))), x1 = int(std::lround(glyph.U1 * float(width)));
    const int y0 = int(std::lround(glyph.V0 * float(atlas.TexHeight)));
    const int y1 = int(std::lround(glyph.V1 * float(atlas.TexHeight)));
    for (int y = y0; y < y1; ++y) {
      unsigned char* row = atlas.TexPixelsAlpha8 + std::size_t(y) * std::size_t(width);
      // Left to right in place: column x reads columns x .. x + whole + 1, none written yet.
      for (int x = x0 - extra; x < x1; ++x) {
        int alpha = 0;
        for (int c = std::max(x, x0); c <= std::min(x + whole, x1 - 1); ++c)
          alpha = std::max(alpha, int(row[c]));
        const int last = x + whole + 1;
        if (part > 0.0f && last >= x0 && last < x1)
          alpha = std::max(alpha, int(std::lround(part * float(row[last]))));
        row[x] = (unsigned char)alpha;
      }
    }
    glyph.U0 -= float(extra) / float(width);
    glyph.X0 -= 0.25f * stroke;
    glyph.X1 += float(extra) / float(kOversampleH) - 0.25f * stroke;
  }
  font.BuildLookupTable();  // the advances changed
}

}  // namespace

float heading_stroke(float pixel_size) {
  return pixel_size * kHeadingScale * kStrokePerPx;
}

ImFont* add_text_face(float pixel_size) {
  return add_face(font_text, font_text_size, pixel_size);
}

Fonts load_fonts(float pixel_size) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  const float stroke = heading_stroke(pixel_size);
  atlas->TexGlyphPadding = 1 + stroke_columns(stroke);  // room for the heading's stroke: see embolden
  Fonts fonts;
  fonts.text = add_face(font_text, font_text_size, pixel_size);
  fonts.heading = add_face(font_text, font_text_size, pixel_size * kHeadingScale);
  fonts.small = add_face(font_text, font_text_size, pixel_size * 0.82f);
  fonts.formula = add_face(font_text, font_text_size, pixel_size * 1.4f);
  atlas->Build();
  embolden(*atlas, *fonts.heading, stroke);
  return fonts;
}

}  // namespace ui
