// theme.hpp — one calm dark theme: slate panels, a teal accent, muted secondary text.
// Colours used by the panels' custom drawing live here too so the screen stays consistent.
#pragma once

#include "imgui.h"

namespace ui {

namespace palette {
constexpr ImU32 kBackground = IM_COL32(22, 25, 31, 255);
constexpr ImU32 kPanel = IM_COL32(30, 34, 42, 255);
constexpr ImU32 kPanelBorder = IM_COL32(48, 54, 66, 255);
constexpr ImU32 kText = IM_COL32(228, 231, 237, 255);
constexpr ImU32 kTextDim = IM_COL32(150, 158, 172, 255);
constexpr ImU32 kAccent = IM_COL32(94, 200, 190, 255);  // highlight (hover links, focus)
constexpr ImU32 kAccentSoft = IM_COL32(94, 200, 190, 48);
constexpr ImU32 kQuery = IM_COL32(240, 170, 90, 255);   // q: orange
constexpr ImU32 kKey = IM_COL32(120, 170, 250, 255);    // k: blue
constexpr ImU32 kValue = IM_COL32(170, 215, 120, 255);  // v: green
// Each role's diverging partner: negative components in the compact vector strips.
constexpr ImU32 kQueryNeg = IM_COL32(150, 140, 245, 255);  // q < 0: violet
constexpr ImU32 kKeyNeg = IM_COL32(240, 125, 160, 255);    // k < 0: rose
constexpr ImU32 kValueNeg = IM_COL32(215, 125, 225, 255);  // v < 0: magenta
constexpr ImU32 kError = IM_COL32(235, 100, 95, 255);
constexpr ImU32 kGap = IM_COL32(30, 34, 42, 255);             // between heatmap cells (= panel)
constexpr ImU32 kHatch = IM_COL32(92, 100, 116, 255);         // masked-cell stripes
constexpr ImU32 kAllowed = IM_COL32(86, 150, 145, 255);       // mask grid: may attend
constexpr ImU32 kAllowedText = IM_COL32(235, 245, 243, 255);  // mask grid: the 1 on kAllowed
constexpr ImU32 kSelection = IM_COL32(255, 255, 255, 230);    // outline of the selected/hovered cell
constexpr ImU32 kTrack = IM_COL32(38, 43, 53, 255);           // output panel: a bar's track
constexpr ImU32 kAxis = IM_COL32(120, 128, 142, 255);         // output panel: the zero line

// `color` with its alpha replaced (0…255).
constexpr ImU32 with_alpha(ImU32 color, int alpha) {
  return (color & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha & 0xFF) << IM_COL32_A_SHIFT);
}
}  // namespace palette

// Colours and sizes; sizes are multiplied by `scale` (device pixels per CSS pixel).
void apply_theme(float scale);

ImVec4 to_vec4(ImU32 color);

}  // namespace ui
