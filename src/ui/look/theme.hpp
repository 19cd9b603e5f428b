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
// palette::NAME() returns detail::g_palette.NAME: one line per entry.
#define AL_PALETTE_ENTRY(name)     \
  inline ImU32 name() {            \
    return detail::g_palette.name; \
  }
AL_PALETTE_ENTRY(background)
AL_PALETTE_ENTRY(panel)
AL_PALETTE_ENTRY(panel_border)
AL_PALETTE_ENTRY(frame)
AL_PALETTE_ENTRY(text)
AL_PALETTE_ENTRY(text_dim)
AL_PALETTE_ENTRY(accent)
AL_PALETTE_ENTRY(accent_soft)
AL_PALETTE_ENTRY(focus)
AL_PALETTE_ENTRY(query)
AL_PALETTE_ENTRY(key)
AL_PALETTE_ENTRY(value)
AL_PALETTE_ENTRY(query_neg)
AL_PALETTE_ENTRY(key_neg)
AL_PALETTE_ENTRY(value_neg)
AL_PALETTE_ENTRY(embedding)
AL_PALETTE_ENTRY(output_marker)
AL_PALETTE_ENTRY(error)
AL_PALETTE_ENTRY(gap)
AL_PALETTE_ENTRY(hatch)
AL_PALETTE_ENTRY(allowed)
AL_PALETTE_ENTRY(allowed_text)
AL_PALETTE_ENTRY(selection)
AL_PALETTE_ENTRY(track)
AL_PALETTE_ENTRY(axis)
AL_PALETTE_ENTRY(tile_line)
AL_PALETTE_ENTRY(strip_zero)
AL_PALETTE_ENTRY(plot_grid)
AL_PALETTE_ENTRY(plot_axis)
AL_PALETTE_ENTRY(right)
AL_PALETTE_ENTRY(wrong)
#undef AL_PALETTE_ENTRY

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
