// decode.hpp — the Decode mode: causal decoding token by token with a KV cache (core/kv_cache.hpp).
// State: decode_state.hpp (UiState::decode); panels: decode_panel.cpp; layout: decode_layout.cpp.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"

namespace ui {

struct Screen;

// the stepper with the multiply counter; the cache at step t.
void decode_tick(AppState& state);
void draw_decode_panel(AppState& state, const Fonts& fonts);
void draw_decode_cache(AppState& state, const Fonts& fonts);

// The layout: the stepper and the multiply counter beside the cache.
void layout_decode(Screen& screen);

}  // namespace ui
