// flash.hpp — the FlashAttention mode: the tiled pass with the online softmax, one tile per step
// (core/online.hpp). State: flash_state.hpp (UiState::flash); panels: flash_panel.cpp; layout:
// flash_layout.cpp.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/panel_draw.hpp"

namespace ui {

struct Screen;

// flash_tick once per frame keeps the pass on its step and
// plays; the stepper panel; the tiles over the Scores grid (call inside the Scores panel, after it
// is drawn); each query row's running m, ℓ, rescale and output.
void flash_tick(AppState& state);
PanelDraw draw_flash_panel;
void draw_flash_tiles(AppState& state);
PanelDraw draw_flash_rows;
// The layout: the stepper beside the tiled Scores grid, the rows' running state below.
void layout_flash(Screen& screen);

// Its part of getState().ui (the row's page_state hook, modes/modes.hpp):
void flash_page_state(const AppState& state, PageJson& ui);  // "flash" (flash_page.cpp)

}  // namespace ui
