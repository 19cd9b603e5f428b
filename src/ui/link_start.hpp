// link_start.hpp — what a link (web) or the command line (desktop) asks the screen to show besides its
// scene: the look, the mode and each mode's part (a Circuits recipe, the Model mode's state, the
// walk's step, the quiz). app::apply_start (src/app/start.cpp) applies the look and the mode, then
// every mode's `apply_start` hook (modes/modes.hpp) its part, so the one door names no mode.
#pragma once

#include <optional>
#include <string>

#include "scene/link.hpp"

namespace ui {

struct LinkStart {
  // The look: each kept as it is when not given (a link without theme= keeps the viewer's theme).
  std::optional<scene::link::Theme> theme;
  std::optional<int> zoom;  // percent, kMinZoom … kMaxZoom
  std::string lang;         // "": not given
  // What is shown: the mode (not given: unchanged), …
  std::optional<scene::link::Mode> mode;
  std::optional<scene::Recipe> recipe;  // … a run of an attention-only model rebuilt from a recipe …
  bool recipe_at_once = false;          // … trained now (desktop) or over the next frames (web)
  std::string probe;  // … then probed: a probe= value (text, ablations, opened head; "": none) …
  std::optional<scene::link::ModelLink> lm;  // … the language model's text, sampling, opened head …
  std::string lm_text;                       // … or only its text ("": not given)
  int step = 0;  // the walk-through at this step, 1-based as its counter shows it (0: left alone)
  int quiz = 0;  // the quiz opened at this question, 1-based (0: closed)
};

}  // namespace ui
