// decode.hpp — the Decode mode: causal decoding token by token with a KV cache (core/kv_cache.hpp).
// State: decode_state.hpp (UiState::decode); panels: decode_panel.cpp; layout: decode_layout.cpp.
#pragma once

#include <string>

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/panel_draw.hpp"

namespace ui {

struct Screen;

// the stepper with the multiply counter; the cache at step t.
void decode_tick(AppState& state);
PanelDraw draw_decode_panel, draw_decode_cache;

// The cache policy, the sink comparison and the KV calculator (decode_policy.cpp, kv_calculator.cpp).
PanelDraw draw_decode_policy, draw_kv_calculator;
// The cache drawn per KV head, with its size (above the cache's rows).
PanelDraw draw_cache_per_kv_head;
// Linear attention's recurrent state beside the cache (decode_linear.cpp), for a scene with the key
// "linear"; decode_linear_sync keeps DecodeStepper::linear on step t of the focused head.
PanelDraw draw_decode_linear;
bool decode_shows_linear(const AppState& state);
void decode_linear_sync(AppState& state);
// "1.25 MiB": binary units, three figures ("512 bytes" below 1 KiB).
std::string byte_text(long long bytes);

// The layout: the stepper and the multiply counter beside the cache.
void layout_decode(Screen& screen);

// Its part of getState().ui (the row's page_state hook, modes/modes.hpp):
void decode_page_state(const AppState& state, PageJson& ui);  // "decode" (decode_page.cpp)

}  // namespace ui
