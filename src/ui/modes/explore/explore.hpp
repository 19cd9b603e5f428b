// explore.hpp — the Explore mode: every panel at once (explore_layout.cpp). The Walk through mode
// places the same panels with its step card.
#pragma once

namespace ui {

struct Screen;

void layout_explore(Screen& screen);
// Explore's panels; `walk`: with the walk's step card on top and its step's panels lit.
void layout_panels(Screen& screen, bool walk);

}  // namespace ui
