// theme.hpp — the screen's look: three themes (dark, light, high contrast; ui/look/palette.hpp holds
// their colours), the ImGui style derived from the current one, and the names the panels draw with.
//
// The current palette is part of the drawing style, like ImGui's own style (ImGui::GetStyle(), also
// one per context): apply_theme() sets both, between frames, and the panels read
// palette::kText, … which always name the current palette's entries.
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

// The current palette's entries by their drawing names (see Palette for what each is).
namespace palette {
inline const ImU32& kBackground = detail::g_palette.background;
inline const ImU32& kPanel = detail::g_palette.panel;
inline const ImU32& kPanelBorder = detail::g_palette.panel_border;
inline const ImU32& kFrame = detail::g_palette.frame;
inline const ImU32& kText = detail::g_palette.text;
inline const ImU32& kTextDim = detail::g_palette.text_dim;
inline const ImU32& kAccent = detail::g_palette.accent;
inline const ImU32& kAccentSoft = detail::g_palette.accent_soft;
inline const ImU32& kFocus = detail::g_palette.focus;
inline const ImU32& kQuery = detail::g_palette.query;
inline const ImU32& kKey = detail::g_palette.key;
inline const ImU32& kValue = detail::g_palette.value;
inline const ImU32& kQueryNeg = detail::g_palette.query_neg;
inline const ImU32& kKeyNeg = detail::g_palette.key_neg;
inline const ImU32& kValueNeg = detail::g_palette.value_neg;
inline const ImU32& kEmbedding = detail::g_palette.embedding;
inline const ImU32& kOutputMarker = detail::g_palette.output_marker;
inline const ImU32& kError = detail::g_palette.error;
inline const ImU32& kGap = detail::g_palette.gap;
inline const ImU32& kHatch = detail::g_palette.hatch;
inline const ImU32& kAllowed = detail::g_palette.allowed;
inline const ImU32& kAllowedText = detail::g_palette.allowed_text;
inline const ImU32& kSelection = detail::g_palette.selection;
inline const ImU32& kTrack = detail::g_palette.track;
inline const ImU32& kAxis = detail::g_palette.axis;
inline const ImU32& kTileLine = detail::g_palette.tile_line;
inline const ImU32& kStripZero = detail::g_palette.strip_zero;
inline const ImU32& kPlotGrid = detail::g_palette.plot_grid;
inline const ImU32& kPlotAxis = detail::g_palette.plot_axis;
inline const ImU32& kRight = detail::g_palette.right;
inline const ImU32& kWrong = detail::g_palette.wrong;

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
