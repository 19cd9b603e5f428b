// theme_test.cpp — the themes' palettes (ui/look/palette.hpp) and the heatmaps' colormaps checked for
// readability and for colour-blind viewers.
//
// References:
//   * WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) of relative luminances; 4.5:1 is level AA
//     for normal-size text. Worked example from the WCAG "understanding" note: #767676 on white is
//     4.54:1, the lightest grey that passes.
//   * Colour-vision deficiency simulated with Machado, Oliveira & Fernandes (2009), "A
//     Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0 matrices
//     (protanopia, deuteranopia), applied to linear RGB; differences as CIE76 ΔE in CIELAB (D65).
//     ΔE ≈ 2.3 is a just-noticeable difference; we ask ≥ 25 for the roles' colours (clearly
//     different hues or lightness) and ≥ 15 for the diverging map's ±t pairs.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>

#include "scene/colormap.hpp"
#include "ui/look/palette.hpp"

namespace {

using ui::Rgba;
using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

constexpr Mat3 kIdentity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Mat3 kProtanopia = {
    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Mat3 kDeuteranopia = {
    {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};

struct Vision {
  const char* name;
  const Mat3* matrix;
};
constexpr Vision kVisions[] = {
    {"normal", &kIdentity}, {"protanopia", &kProtanopia}, {"deuteranopia", &kDeuteranopia}};

double to_linear(int channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// CIELAB (D65) of sRGB `rgb` as seen through `m` (linear RGB → simulated linear RGB).
Vec3 lab(int r, int g, int b, const Mat3& m) {
  const Vec3 lin = {to_linear(r), to_linear(g), to_linear(b)};
  Vec3 sim{};
  for (int i = 0; i < 3; ++i) {
    double v = 0;
    for (int j = 0; j < 3; ++j) v += m[i][j] * lin[j];
    sim[i] = std::min(1.0, std::max(0.0, v));
  }
  const double x = 0.4124 * sim[0] + 0.3576 * sim[1] + 0.1805 * sim[2];
  const double y = 0.2126 * sim[0] + 0.7152 * sim[1] + 0.0722 * sim[2];
  const double z = 0.0193 * sim[0] + 0.1192 * sim[1] + 0.9505 * sim[2];
  auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  const double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
  return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}
Vec3 lab(Rgba c, const Mat3& m) {
  return lab(ui::red_of(c), ui::green_of(c), ui::blue_of(c), m);
}
Vec3 lab(const std::uint8_t* c, const Mat3& m) {
  return lab(c[0], c[1], c[2], m);
}
double delta_e(const Vec3& a, const Vec3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

}  // namespace

TEST_CASE("WCAG contrast ratio: the reference values") {
  CHECK(ui::contrast_ratio(ui::rgba(0, 0, 0), ui::rgba(255, 255, 255)) == doctest::Approx(21.0));
  CHECK(ui::contrast_ratio(ui::rgba(0x76, 0x76, 0x76), ui::rgba(255, 255, 255)) ==
        doctest::Approx(4.54).epsilon(0.002));
  CHECK(ui::contrast_ratio(ui::rgba(0x77, 0x77, 0x77), ui::rgba(255, 255, 255)) < 4.5);
  CHECK(ui::contrast_ratio(ui::rgba(9, 9, 9), ui::rgba(9, 9, 9)) == doctest::Approx(1.0));
}

TEST_CASE("every theme: text reads at 4.5:1 or more on its panels and page") {
  for (const scene::link::ThemeInfo& t : scene::link::kThemes) {
    const ui::Palette& p = ui::palette_of(t.theme);
    struct Text {
      const char* name;
      Rgba color;
    };
    const Text texts[] = {{"text", p.text},   {"text_dim", p.text_dim},   {"accent", p.accent},
                          {"error", p.error}, {"query", p.query},         {"key", p.key},
                          {"value", p.value}, {"embedding", p.embedding}, {"output_marker", p.output_marker}};
    for (const Text& text : texts) {
      for (const Rgba ground : {p.panel, p.background}) {
        INFO((std::string(t.name) + ": " + text.name + (ground == p.panel ? " on panel" : " on background")));
        CHECK(ui::contrast_ratio(text.color, ground) >= 4.5);
      }
    }
    for (int h = 0; h < ui::kHeadColorCount; ++h) {  // head captions are text too
      INFO((std::string(t.name) + ": head " + std::to_string(h)));
      CHECK(ui::contrast_ratio(p.head[h], p.panel) >= 4.5);
    }
    // The mask grid's "1" on its teal (the mask colormap's 1), the quiz's text on its marks.
    const std::uint8_t* allowed = scene::colormap_entry(scene::Colormap::Mask, 1.0f);
    INFO((std::string(t.name) + ": mask 1 and quiz marks"));
    CHECK(ui::contrast_ratio(p.allowed_text, ui::rgba(allowed[0], allowed[1], allowed[2])) >= 4.5);
    CHECK(ui::contrast_ratio(p.text, p.right) >= 4.5);
    CHECK(ui::contrast_ratio(p.text, p.wrong) >= 4.5);
    // The light theme is light and the others dark: the page itself, not only the panels.
    if (t.theme == ui::Theme::Light) {
      CHECK(ui::relative_luminance(p.background) > 0.8);
    } else {
      CHECK(ui::relative_luminance(p.background) < 0.02);
    }
  }
  CHECK(ui::contrast_ratio(ui::palette_of(ui::Theme::Contrast).text,
                           ui::palette_of(ui::Theme::Contrast).panel) >= 15.0);
}

TEST_CASE("heatmap numbers: black or white text reads at 4.5:1 on every colormap entry") {
  // ui/look/colormap.cpp's contrasting_text picks pure black or white at the luminance where both give
  // the same ratio (0.179); the worst entry then still has 4.58:1.
  double worst = 21;
  for (const scene::Colormap map :
       {scene::Colormap::Viridis, scene::Colormap::Diverging, scene::Colormap::Mask}) {
    for (int i = 0; i < scene::kColormapSize; ++i) {
      const std::uint8_t* c = scene::colormap_rgba8() + (int(map) * scene::kColormapSize + i) * 4;
      const Rgba cell = ui::rgba(c[0], c[1], c[2]);
      const Rgba text = ui::relative_luminance(cell) > 0.179 ? ui::rgba(0, 0, 0) : ui::rgba(255, 255, 255);
      worst = std::min(worst, ui::contrast_ratio(cell, text));
    }
  }
  CHECK(worst >= 4.5);
}

TEST_CASE("colour blindness: q, k, v stay apart, and each role from its negative partner") {
  for (const scene::link::ThemeInfo& t : scene::link::kThemes) {
    const ui::Palette& p = ui::palette_of(t.theme);
    for (const Vision& v : kVisions) {
      const Vec3 q = lab(p.query, *v.matrix), k = lab(p.key, *v.matrix), val = lab(p.value, *v.matrix);
      INFO((std::string(t.name) + ", " + v.name));
      CHECK(delta_e(q, k) >= 25);
      CHECK(delta_e(q, val) >= 25);
      CHECK(delta_e(k, val) >= 25);
      CHECK(delta_e(q, lab(p.query_neg, *v.matrix)) >= 25);
      CHECK(delta_e(k, lab(p.key_neg, *v.matrix)) >= 25);
      CHECK(delta_e(val, lab(p.value_neg, *v.matrix)) >= 25);
    }
  }
  // The old value colour failed: a yellow-green protanopes saw as the query's orange.
  CHECK(delta_e(lab(ui::rgba(240, 170, 90), kProtanopia), lab(ui::rgba(170, 215, 120), kProtanopia)) < 15);
}

TEST_CASE("colour blindness: the scores' diverging map keeps its sign, viridis its order") {
  for (const Vision& v : kVisions) {
    INFO(v.name);
    // Blue for negative, red for positive (ColorBrewer RdBu): under protanopia and deuteranopia the
    // red half turns yellow-brown, still opposite the blue on CIELAB's b* axis, and ±t stay apart.
    for (int i = 0; i < scene::kColormapSize / 2; ++i) {
      const float t = float(i) / float(scene::kColormapSize - 1);
      const Vec3 neg = lab(scene::colormap_entry(scene::Colormap::Diverging, t), *v.matrix);
      const Vec3 pos = lab(scene::colormap_entry(scene::Colormap::Diverging, 1.0f - t), *v.matrix);
      if (t <= 0.45f) {
        CHECK(neg[2] < 0);  // b* < 0: blue
        CHECK(pos[2] > 0);  // b* > 0: red or yellow
      }
      if (t <= 0.4f) CHECK(delta_e(neg, pos) >= 15);
    }
    // Viridis: lightness rises along the map (8 entries apart), whatever the hue perception.
    for (int i = 0; i + 8 < scene::kColormapSize; i += 8) {
      const float a = float(i) / 255.0f, b = float(i + 8) / 255.0f;
      CHECK(lab(scene::colormap_entry(scene::Colormap::Viridis, b), *v.matrix)[0] >
            lab(scene::colormap_entry(scene::Colormap::Viridis, a), *v.matrix)[0]);
    }
  }
}
