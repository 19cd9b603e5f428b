// panel_draw.hpp — the one signature of the modes' drawing functions: each draws a panel (or a part
// of one) into the window the layout opened, reading the state and editing through its functions.
// The modes' headers declare theirs with it (`PanelDraw draw_train_panel;`); the layouts hand the
// panels to Screen::panel, whose DrawPanel is a pointer to one.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"

namespace ui {

using PanelDraw = void(AppState& state, const Fonts& fonts);

}  // namespace ui
