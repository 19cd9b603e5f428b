// fonts_test.cpp — the UI's font atlas (ui/look/fonts.hpp): the headings are a synthetic semibold of
// the one text face, emboldened in the atlas after it is built, and no glyph's ink reaches another's.
//
// The reference is the text face alone at the heading's size, built in a second ImGui context (its
// own atlas): the same face, size and oversampling, so the same bitmaps before emboldening.
#include "ui/look/fonts.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"

namespace {

// A box of atlas texels, [x0, x1) × [y0, y1).
struct Box {
  int x0, y0, x1, y1;
  bool glyph;  // a glyph's (else one of ImGui's own rectangles: the white pixel, cursors, lines)
};

Box texels(const ImFontAtlas& atlas, const ImFontGlyph& g) {
  return {int(std::lround(g.U0 * float(atlas.TexWidth))), int(std::lround(g.V0 * float(atlas.TexHeight))),
          int(std::lround(g.U1 * float(atlas.TexWidth))), int(std::lround(g.V1 * float(atlas.TexHeight))),
          true};
}

// The sum of a glyph's coverage in the atlas.
std::int64_t coverage(const ImFontAtlas& atlas, const Box& b) {
  std::int64_t sum = 0;
  for (int y = b.y0; y < b.y1; ++y)
    for (int x = b.x0; x < b.x1; ++x) sum += atlas.TexPixelsAlpha8[y * atlas.TexWidth + x];
  return sum;
}

// One atlas as the app builds it (load_fonts) and, in a second context, the plain text face at
// the heading's size.
struct Atlases {
  ImGuiContext* app = ImGui::CreateContext();
  ImGuiContext* plain = ImGui::CreateContext();
  ui::Fonts fonts;
  ImFont* reference = nullptr;

  explicit Atlases(float pixel_size) {
    ImGui::SetCurrentContext(plain);
    reference = ui::add_text_face(pixel_size * ui::kHeadingScale);
    REQUIRE(ImGui::GetIO().Fonts->Build());
    ImGui::SetCurrentContext(app);
    fonts = ui::load_fonts(pixel_size);
  }
  ~Atlases() {
    ImGui::DestroyContext(plain);
    ImGui::DestroyContext(app);
  }
  const ImFontAtlas& app_atlas() const { return *fonts.heading->ContainerAtlas; }
  const ImFontAtlas& plain_atlas() const { return *reference->ContainerAtlas; }
};

// 1× and 2× displays (the web passes devicePixelRatio into the size), ImGui's 13 px and a zoom.
constexpr float kSizes[] = {13.0f, 16.0f, 24.0f, 32.0f};

}  // namespace

TEST_CASE(
    "the headings are the text face emboldened: each glyph wider by the stroke and inkier, never thinner") {
  for (const float size : kSizes) {
    CAPTURE(size);
    const Atlases atlases(size);
    const ImFontAtlas& app = atlases.app_atlas();
    const ImFontAtlas& plain = atlases.plain_atlas();
    const float stroke = ui::heading_stroke(size);
    CHECK(stroke == doctest::Approx(size * ui::kHeadingScale / 20.0f));
    const int columns = int(std::ceil(2.0f * stroke - 1e-3f));  // OversampleH = 2 atlas columns a pixel
    CHECK(atlases.fonts.heading->FontSize == doctest::Approx(size * ui::kHeadingScale));
    for (char c = 'A'; c <= 'z'; ++c) {
      CAPTURE(c);
      const ImFontGlyph* bold = atlases.fonts.heading->FindGlyphNoFallback(ImWchar(c));
      const ImFontGlyph* regular = atlases.reference->FindGlyphNoFallback(ImWchar(c));
      REQUIRE(bold != nullptr);
      REQUIRE(regular != nullptr);
      // Ink a stroke wider (whole atlas columns), a quarter stroke further left; advance half a stroke more.
      CHECK(bold->AdvanceX == doctest::Approx(regular->AdvanceX + 0.5f * stroke).epsilon(1e-4));
      CHECK((bold->X1 - bold->X0) == doctest::Approx(regular->X1 - regular->X0 + 0.5f * float(columns)));
      CHECK((bold->X1 - bold->X0) >= regular->X1 - regular->X0 + stroke - 1e-4f);
      CHECK(bold->X0 == doctest::Approx(regular->X0 - 0.25f * stroke));
      CHECK(bold->Y0 == regular->Y0);
      CHECK(bold->Y1 == regular->Y1);
      const Box b = texels(app, *bold), r = texels(plain, *regular);
      REQUIRE(b.x1 - b.x0 == r.x1 - r.x0 + columns);
      REQUIRE(b.y1 - b.y0 == r.y1 - r.y0);
      // Dilated, never eroded: right-aligned, every texel at least as covered as the regular one.
      int thinner = 0;
      for (int y = 0; y < r.y1 - r.y0; ++y)
        for (int x = 0; x < r.x1 - r.x0; ++x)
          thinner += app.TexPixelsAlpha8[(b.y0 + y) * app.TexWidth + b.x0 + columns + x] <
                     plain.TexPixelsAlpha8[(r.y0 + y) * plain.TexWidth + r.x0 + x];
      CHECK(thinner == 0);
      // More ink: a stroke's worth per row of each stem. Measured: the letters 23 % more or better
      // (z, Z, E at 13 px the least), '_' (one bar, no stem) 11 %.
      const double gain = double(coverage(app, b)) / double(coverage(plain, r));
      CAPTURE(gain);
      CHECK(gain > (std::isalpha(c) ? 1.15 : 1.05));
    }
  }
}

TEST_CASE("no glyph's ink in the font atlas reaches another's: every glyph keeps a blank texel around it") {
  for (const float size : kSizes) {
    CAPTURE(size);
    const Atlases atlases(size);
    const ImFontAtlas& atlas = atlases.app_atlas();
    std::vector<Box> boxes;
    for (const ImFont* font : atlas.Fonts)
      for (const ImFontGlyph& g : font->Glyphs)
        if (g.Visible) boxes.push_back(texels(atlas, g));
    for (const ImFontAtlasCustomRect& r : atlas.CustomRects)
      if (r.IsPacked()) boxes.push_back({r.X, r.Y, r.X + r.Width, r.Y + r.Height, false});
    REQUIRE(boxes.size() > 4 * 200);
    // Every inked texel lies in some glyph's (or ImGui's own) box ...
    std::vector<unsigned char> owned(std::size_t(atlas.TexWidth) * std::size_t(atlas.TexHeight), 0);
    for (const Box& b : boxes) {
      REQUIRE(b.x0 >= 0);
      REQUIRE(b.y0 >= 0);
      REQUIRE(b.x1 <= atlas.TexWidth);
      REQUIRE(b.y1 <= atlas.TexHeight);
      for (int y = b.y0; y < b.y1; ++y)
        for (int x = b.x0; x < b.x1; ++x)
          owned[std::size_t(y) * std::size_t(atlas.TexWidth) + std::size_t(x)] = 1;
    }
    int stray = 0;
    for (std::size_t i = 0; i < owned.size(); ++i) stray += atlas.TexPixelsAlpha8[i] != 0 && !owned[i];
    CHECK(stray == 0);
    // ... and no two boxes overlap or touch: a glyph's bilinear edge samples only blank texels.
    int touching = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        const Box &a = boxes[i], &b = boxes[j];
        if (!a.glyph && !b.glyph) continue;
        const bool apart = a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0;
        touching += !apart;
      }
    CHECK(touching == 0);
  }
}
