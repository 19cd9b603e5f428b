// keyspace.hpp — the Key space mode: the soft dictionary as pictures. State: keyspace_state.hpp
// (UiState::keyspace); panels: keyspace_panel.cpp; layout: keyspace_layout.cpp.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/panel_draw.hpp"

namespace ui {

struct Screen;

// The pictures: keys as points and queries as arrows; values and outputs.
PanelDraw draw_keyspace_panel, draw_valuespace_panel;
// The layout: key space | value space | weights above the vectors.
void layout_keyspace(Screen& screen);

}  // namespace ui
