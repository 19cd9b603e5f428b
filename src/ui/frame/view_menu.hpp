// view_menu.hpp — how the screen looks: the View menu on the mode bar (theme, zoom) and the
// keyboard's zoom (Ctrl + / Ctrl − / Ctrl 0). The choices are the link's view keys theme= and zoom=
// (scene/link.hpp), so the address follows them.
//
// Widget ids (widgetRect / --rects): view/menu (the button) and, while the menu is open,
// view/theme/dark, view/theme/light, view/theme/contrast, zoom/out, zoom/reset, zoom/in,
// view/lang/en, view/lang/es, view/lang/de.
#pragma once

#include <string_view>

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"

namespace ui {

// The zoom steps of Ctrl + / Ctrl − and the menu's buttons, in percent (as browsers step).
inline constexpr int kZoomSteps[] = {75, 90, 100, 110, 125, 150, 175, 200};

// The next zoom step above (direction > 0) or below (< 0) `zoom`; 100 for direction 0.
int next_zoom(int zoom, int direction);

// Pick a theme / step the zoom (direction as next_zoom); the address follows.
void choose_theme(AppState& state, Theme theme);
void step_zoom(AppState& state, int direction);
// Pick the language of the screen's words (one of scene::link::kLanguages; the address follows).
void choose_language(AppState& state, std::string_view code);

// The View button and its menu (theme, zoom, language), drawn at the cursor of the mode bar. Returns the
// button's width (so the bar can place it before drawing).
float view_button_width();
void draw_view_menu(AppState& state, const Fonts& fonts);

}  // namespace ui
