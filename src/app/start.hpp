// start.hpp — the one door from outside: what a link (web) or the command line (desktop) asks the
// screen to show besides its scene, applied by one function on both platforms.
//
// The web's al_share_load (web_share.cpp) fills a Start from a link's fragment, the desktop's main.cpp
// from its options (--theme, --zoom, --lang, --mode, --circuits, --model-state, --model-text, --step,
// --quiz); each loads the scene its own way first (a link's s=/demo=, --preset/--demo/SCENE.json),
// then calls apply_start.
#pragma once

#include <optional>
#include <string>

#include "scene/link.hpp"
#include "ui/app_state.hpp"

namespace app {

struct Start {
  // The look: each kept as it is when not given (a link without theme= keeps the viewer's theme).
  std::optional<scene::link::Theme> theme;
  std::optional<int> zoom;  // percent, kMinZoom … kMaxZoom
  std::string lang;         // "": not given
  // What is shown: the mode (not given: unchanged), …
  std::optional<scene::link::Mode> mode;
  std::optional<scene::Recipe> circuits;        // … the Circuits mode's run rebuilt from a recipe …
  bool circuits_at_once = false;                // … trained now (desktop) or over the next frames (web)
  std::optional<scene::link::ModelLink> model;  // … the Model mode's text, sampling, opened head …
  std::string model_text;                       // … or only its text ("": not given)
  int step = 0;  // the walk-through at this step, 1-based as its counter shows it (0: left alone)
  int quiz = 0;  // the quiz opened at this question, 1-based (0: closed)
};

// Applies `start` over the scene already loaded: look, mode, the Circuits run, the Model mode's state
// (and starts loading its model when shown or linked), the walk's step (clamped to the scene's last
// step), the quiz. Every value was checked when parsed (scene::link::parse_fragment, the options).
void apply_start(ui::AppState& state, const Start& start);

}  // namespace app
