// theme.hpp — the screen's look: three themes (dark, light, high contrast; ui/look/palette.hpp holds
// their colours), the ImGui style derived from the current one, and the names the panels draw with.
//
// The current palette is part of the drawing style, like ImGui's own style (ImGui::GetStyle(), also
// one per context): apply_theme() sets both, between frames, and the panels read it through
// palette::text(), palette::accent(), … (functions, not constants: the theme changes them).
#pragma once

#include "imgui.h"
#include "ui/look/palette.hpp"

namespace ui {

namespace detail {
inline Palette g_palette = kDarkPalette;  // set by apply_theme()
}  // namespace detail

// The palette the screen draws with now.
inline const Palette& current_palette() {
  return detail::g_palette;
}

// The current palette's entries by their drawing names (see Palette for what each is), read when
// drawn.
namespace palette {
inline ImU32 background() {
  return detail::g_palette.background;
}
inline ImU32 panel() {
  return detail::g_palette.panel;
}
inline ImU32 panel_border() {
  return detail::g_palette.panel_border;
}
inline ImU32 frame() {
  return detail::g_palette.frame;
}
inline ImU32 text() {
  return detail::g_palette.text;
}
inline ImU32 text_dim() {
  return detail::g_palette.text_dim;
}
inline ImU32 accent() {
  return detail::g_palette.accent;
}
inline ImU32 accent_soft() {
  return detail::g_palette.accent_soft;
}
inline ImU32 focus() {
  return detail::g_palette.focus;
}
inline ImU32 query() {
  return detail::g_palette.query;
}
inline ImU32 key() {
  return detail::g_palette.key;
}
inline ImU32 value() {
  return detail::g_palette.value;
}
inline ImU32 query_neg() {
  return detail::g_palette.query_neg;
}
inline ImU32 key_neg() {
  return detail::g_palette.key_neg;
}
inline ImU32 value_neg() {
  return detail::g_palette.value_neg;
}
inline ImU32 embedding() {
  return detail::g_palette.embedding;
}
inline ImU32 output_marker() {
  return detail::g_palette.output_marker;
}
inline ImU32 error() {
  return detail::g_palette.error;
}
inline ImU32 gap() {
  return detail::g_palette.gap;
}
inline ImU32 hatch() {
  return detail::g_palette.hatch;
}
inline ImU32 allowed() {
  return detail::g_palette.allowed;
}
inline ImU32 allowed_text() {
  return detail::g_palette.allowed_text;
}
inline ImU32 selection() {
  return detail::g_palette.selection;
}
inline ImU32 track() {
  return detail::g_palette.track;
}
inline ImU32 axis() {
  return detail::g_palette.axis;
}
inline ImU32 tile_line() {
  return detail::g_palette.tile_line;
}
inline ImU32 strip_zero() {
  return detail::g_palette.strip_zero;
}
inline ImU32 plot_grid() {
  return detail::g_palette.plot_grid;
}
inline ImU32 plot_axis() {
  return detail::g_palette.plot_axis;
}
inline ImU32 right() {
  return detail::g_palette.right;
}
inline ImU32 wrong() {
  return detail::g_palette.wrong;
}

// `color` with its alpha replaced (0…255).
constexpr ImU32 with_alpha(ImU32 color, int alpha) {
  return ui::with_alpha(color, alpha);
}
}  // namespace palette

// Head t's colour (cycled over the palette's kHeadColorCount).
inline ImU32 head_palette_color(int head) {
  return current_palette().head[static_cast<unsigned>(head) % kHeadColorCount];
}

// Make `theme` current: its palette, and ImGui's style from it with sizes multiplied by `scale`
// (device pixels per CSS pixel × the UI zoom).
void apply_theme(Theme theme, float scale);

ImVec4 to_vec4(ImU32 color);

}  // namespace ui
