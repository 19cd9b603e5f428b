// start.hpp — the one door from outside: what a link (web) or the command line (desktop) asks the
// screen to show besides its scene (ui::LinkStart), applied by one function on both platforms.
//
// The web's al_share_load (web_share.cpp) fills a ui::LinkStart from a link's fragment, the desktop's
// main.cpp from its options (--theme, --zoom, --lang, --mode, --circuits, --model-state,
// --model-text, --step, --quiz); each loads the scene its own way first (a link's s=/demo=,
// --preset/--demo/SCENE.json), then calls apply_start.
#pragma once

#include "ui/app_state.hpp"
#include "ui/link_start.hpp"

namespace app {

// Applies `start` over the scene already loaded: the look and the mode, then each mode's part through
// its row's apply_start hook (the Circuits run, the Model mode's state — and its model's loading when
// shown or linked —, the walk's step clamped to the scene's last, the quiz). Every value was checked
// when parsed (scene::link::parse_fragment, the desktop's options).
void apply_start(ui::AppState& state, const ui::LinkStart& start);

}  // namespace app
