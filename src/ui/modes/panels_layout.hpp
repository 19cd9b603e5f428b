// panels_layout.hpp — every shared panel at once (Controls, Tokens and vectors, Scores, Weights, Mask,
// Output), wide or narrow: Explore's layout, and with a card on top the Walk through's.
#pragma once

#include "imgui.h"
#include "ui/modes/screen.hpp"

namespace ui {

// What a mode puts above the panels (a guide's card) and which panels the card lights.
struct PanelsCard {
  float (*height)(const AppState& state, const Fonts& fonts, float width);  // at this width
  void (*draw)(Screen& screen, ImVec2 pos, ImVec2 size);
  bool (*lit)(const AppState& state, Panel panel);  // lit panels come first in the narrow column
};

// The panels; `card` (nullptr: none) on top of the right column (wide) or of the column (narrow).
void layout_panels(Screen& screen, const PanelsCard* card);

}  // namespace ui
