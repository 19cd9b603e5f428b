// palette.hpp — the colours of each theme (dark, light, high contrast) as plain data, no ImGui, so
// the unit tests can check them: text contrast (WCAG 2.x ≥ 4.5:1) and the roles' colours under
// colour-blindness simulation (tests/theme_test.cpp).
//
// Colours are packed exactly as ImGui's IM_COL32(r, g, b, a): a << 24 | b << 16 | g << 8 | r
// (theme.cpp checks that), so a Palette entry is an ImU32.
#pragma once

#include <cstdint>

#include "scene/link.hpp"

namespace ui {

using Theme = scene::link::Theme;
using Rgba = std::uint32_t;  // = ImU32

constexpr Rgba rgba(int r, int g, int b, int a = 255) {
  return Rgba(a & 0xff) << 24 | Rgba(b & 0xff) << 16 | Rgba(g & 0xff) << 8 | Rgba(r & 0xff);
}
constexpr int red_of(Rgba c) {
  return int(c & 0xff);
}
constexpr int green_of(Rgba c) {
  return int((c >> 8) & 0xff);
}
constexpr int blue_of(Rgba c) {
  return int((c >> 16) & 0xff);
}
constexpr int alpha_of(Rgba c) {
  return int(c >> 24);
}
// `c` with its alpha replaced (0 … 255).
constexpr Rgba with_alpha(Rgba c, int alpha) {
  return (c & 0x00ffffffu) | Rgba(alpha & 0xff) << 24;
}

constexpr int kHeadColorCount = 8;

// Every colour the screen's own drawing uses (ImGui's widgets get theirs from the style, which
// theme.cpp derives from the same palette). Text entries are read on `panel` and `background`.
struct Palette {
  Rgba background;    // behind the panels, the top bar
  Rgba panel;         // panel fill
  Rgba panel_border;  // panel outlines, separators
  Rgba frame;         // a value cell's own fill (vectors' slider cells)
  Rgba text, text_dim;
  Rgba accent, accent_soft;  // highlight: hover links, focus, the current tab
  Rgba focus;                // the keyboard focus ring
  Rgba query, key, value;    // the roles q, k, v (labels, strips, arrows)
  // Each role's diverging partner: negative components in the compact vector strips.
  Rgba query_neg, key_neg, value_neg;
  Rgba embedding;      // x, the token's own vector (learned scenes)
  Rgba output_marker;  // y in the key-space pictures
  Rgba error;
  Rgba gap;                    // between heatmap cells
  Rgba hatch;                  // masked-cell stripes
  Rgba allowed;                // mask grid: may attend (the mask colormap's 1)
  Rgba allowed_text;           // the 1 drawn on `allowed`
  Rgba selection;              // outline of the selected / hovered cell
  Rgba track;                  // a bar's empty track (output bars, counters)
  Rgba axis;                   // zero lines
  Rgba tile_line;              // FlashAttention's tile outlines
  Rgba strip_zero;             // a compact strip cell at 0
  Rgba plot_grid, plot_axis;   // the key-space pictures' grid and axes
  Rgba right, wrong;           // quiz: the right answer / a wrong pick (fill behind text)
  Rgba head[kHeadColorCount];  // multi-head: one colour per head (cycled)
};

// The three palettes (constant data, so a palette copy is initialized before any code runs).
// Choices, each checked by tests/theme_test.cpp:
//   * text, dim text, the accent, the error colour and the role colours q/k/v reach 4.5:1 against
//     the panel and the background in every theme (WCAG 2.x AA for normal text);
//   * q, k, v stay apart under protanopia and deuteranopia (Machado et al. 2009): the value colour
//     was a yellow-green (170, 215, 120) that protanopes saw as the query's orange (ΔE 11), now a
//     sea green.
inline constexpr Palette kDarkPalette = {
    /*background*/ rgba(22, 25, 31),
    /*panel*/ rgba(30, 34, 42),
    /*panel_border*/ rgba(48, 54, 66),
    /*frame*/ rgba(22, 25, 31),
    /*text*/ rgba(228, 231, 237),
    /*text_dim*/ rgba(150, 158, 172),
    /*accent*/ rgba(94, 200, 190),
    /*accent_soft*/ rgba(94, 200, 190, 48),
    /*focus*/ rgba(255, 214, 90),
    /*query*/ rgba(240, 170, 90),       // orange
    /*key*/ rgba(120, 170, 250),        // blue
    /*value*/ rgba(60, 200, 150),       // sea green
    /*query_neg*/ rgba(150, 140, 245),  // violet
    /*key_neg*/ rgba(240, 125, 160),    // rose
    /*value_neg*/ rgba(215, 125, 225),  // magenta
    /*embedding*/ rgba(190, 160, 240),
    /*output_marker*/ rgba(236, 120, 220),
    /*error*/ rgba(235, 100, 95),
    /*gap*/ rgba(30, 34, 42),
    /*hatch*/ rgba(92, 100, 116),
    /*allowed*/ rgba(86, 150, 145),
    /*allowed_text*/ rgba(0, 0, 0),  // black on the teal: 6.3:1 (white was 3:1)
    /*selection*/ rgba(255, 255, 255, 230),
    /*track*/ rgba(38, 43, 53),
    /*axis*/ rgba(120, 128, 142),
    /*tile_line*/ rgba(200, 205, 215, 110),
    /*strip_zero*/ rgba(40, 45, 56),
    /*plot_grid*/ rgba(255, 255, 255, 14),
    /*plot_axis*/ rgba(255, 255, 255, 60),
    /*right*/ rgba(40, 100, 66),
    /*wrong*/ rgba(140, 60, 60),
    /*head*/
    {rgba(196, 150, 255), rgba(80, 215, 205), rgba(255, 125, 180), rgba(235, 205, 90), rgba(240, 240, 245),
     rgba(255, 110, 100), rgba(150, 120, 220), rgba(170, 220, 240)},
};

// For projectors and bright rooms: white panels on a pale grey page, the role colours darkened until
// they read as text on white.
inline constexpr Palette kLightPalette = {
    /*background*/ rgba(236, 239, 243),
    /*panel*/ rgba(255, 255, 255),
    /*panel_border*/ rgba(196, 202, 212),
    /*frame*/ rgba(240, 242, 246),
    /*text*/ rgba(22, 26, 34),
    /*text_dim*/ rgba(82, 90, 106),
    /*accent*/ rgba(0, 112, 104),
    /*accent_soft*/ rgba(0, 112, 104, 40),
    /*focus*/ rgba(200, 80, 0),
    /*query*/ rgba(160, 76, 0),
    /*key*/ rgba(30, 96, 200),
    /*value*/ rgba(0, 124, 92),
    /*query_neg*/ rgba(100, 80, 210),
    /*key_neg*/ rgba(196, 40, 100),
    /*value_neg*/ rgba(160, 40, 170),
    /*embedding*/ rgba(110, 70, 190),
    /*output_marker*/ rgba(180, 40, 160),
    /*error*/ rgba(190, 30, 30),
    /*gap*/ rgba(255, 255, 255),
    /*hatch*/ rgba(150, 158, 172),
    /*allowed*/ rgba(86, 150, 145),
    /*allowed_text*/ rgba(0, 0, 0),  // black on the teal: 6.3:1 (white was 3:1)
    /*selection*/ rgba(20, 22, 28, 230),
    /*track*/ rgba(226, 230, 236),
    /*axis*/ rgba(110, 118, 132),
    /*tile_line*/ rgba(60, 66, 80, 110),
    /*strip_zero*/ rgba(226, 230, 236),
    /*plot_grid*/ rgba(0, 0, 0, 18),
    /*plot_axis*/ rgba(0, 0, 0, 80),
    /*right*/ rgba(176, 226, 192),
    /*wrong*/ rgba(244, 190, 186),
    /*head*/
    {rgba(120, 70, 200), rgba(0, 130, 122), rgba(196, 40, 110), rgba(150, 110, 0), rgba(60, 62, 72),
     rgba(196, 50, 40), rgba(90, 60, 170), rgba(30, 120, 170)},
};

// High contrast: black panels, white text and outlines, saturated role colours, a yellow accent.
inline constexpr Palette kContrastPalette = {
    /*background*/ rgba(0, 0, 0),
    /*panel*/ rgba(0, 0, 0),
    /*panel_border*/ rgba(255, 255, 255),
    /*frame*/ rgba(20, 20, 20),
    /*text*/ rgba(255, 255, 255),
    /*text_dim*/ rgba(220, 220, 220),
    /*accent*/ rgba(255, 220, 0),
    /*accent_soft*/ rgba(255, 220, 0, 70),
    /*focus*/ rgba(0, 230, 255),
    /*query*/ rgba(255, 180, 80),
    /*key*/ rgba(130, 190, 255),
    /*value*/ rgba(80, 230, 180),
    /*query_neg*/ rgba(180, 160, 255),
    /*key_neg*/ rgba(255, 140, 180),
    /*value_neg*/ rgba(240, 140, 255),
    /*embedding*/ rgba(210, 180, 255),
    /*output_marker*/ rgba(255, 140, 240),
    /*error*/ rgba(255, 120, 110),
    /*gap*/ rgba(0, 0, 0),
    /*hatch*/ rgba(170, 170, 170),
    /*allowed*/ rgba(86, 150, 145),
    /*allowed_text*/ rgba(0, 0, 0),
    /*selection*/ rgba(255, 255, 0, 255),
    /*track*/ rgba(45, 45, 45),
    /*axis*/ rgba(200, 200, 200),
    /*tile_line*/ rgba(255, 255, 255, 160),
    /*strip_zero*/ rgba(40, 40, 40),
    /*plot_grid*/ rgba(255, 255, 255, 40),
    /*plot_axis*/ rgba(255, 255, 255, 140),
    /*right*/ rgba(0, 110, 50),
    /*wrong*/ rgba(150, 0, 0),
    /*head*/
    {rgba(210, 170, 255), rgba(80, 235, 225), rgba(255, 140, 200), rgba(255, 225, 90), rgba(255, 255, 255),
     rgba(255, 120, 110), rgba(175, 150, 255), rgba(170, 230, 255)},
};

// The palette of each theme.
const Palette& palette_of(Theme theme);

// WCAG 2.x relative luminance of an sRGB colour (alpha ignored), 0 … 1.
double relative_luminance(Rgba c);
// WCAG 2.x contrast ratio (L_light + 0.05) / (L_dark + 0.05), 1 … 21.
double contrast_ratio(Rgba a, Rgba b);

}  // namespace ui
