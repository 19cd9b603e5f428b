// explore.hpp — the Explore mode: every panel at once (explore_layout.cpp, on modes/panels_layout.hpp,
// which the Walk through mode shares with its step card on top).
#pragma once

namespace ui {

struct Screen;

void layout_explore(Screen& screen);

}  // namespace ui
