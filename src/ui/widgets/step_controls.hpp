// step_controls.hpp — the Start / Prev / Next / Play row and Play's clock of the stepping modes
// (FlashAttention's tiles, Decode's tokens): one copy for every mode that steps through a pass.
//
//   [ Start ][ Prev ][ Next ][ Play ]   four equal buttons across the panel
//    └ disabled at step 0 ┘└ disabled at the end ┘
//
// Widget ids: the caller's four, written out where it calls (docs/PAGE_API.md lists them;
// tests/widget_ids_test.py reads them from the call).
#pragma once

#include "ui/app_state.hpp"

namespace ui {

// Play's state in a stepper: whether it plays, and the seconds since its last automatic step.
struct StepPlay {
  bool& playing;
  double& clock;
  double seconds;  // one step per this many seconds
};

// The step Play wants this frame: `step` + 1 once `seconds` have passed while playing (and frames keep
// coming: the app idles otherwise), else `step`.
int play_tick(AppState& state, StepPlay play, int step);

// A stepping mode's tick (decode_tick, flash_tick): once there is a result, the stepper goes to the
// step Play wants this frame through `go_to(want)` (its update), which says whether that is the
// last step: then Play stops.
template <class GoTo>
void stepper_tick(AppState& state, StepPlay play, int step, GoTo go_to) {
  if (!state.computed) return;
  if (go_to(play_tick(state, play, step))) play.playing = false;
}

// The four buttons' widget ids, e.g. {"flash/start", "flash/prev", "flash/next", "flash/play"}.
struct StepIds {
  const char* start;
  const char* prev;
  const char* next;
  const char* play;
};

// The row of four buttons; returns the step asked for (`step` when none was pressed). Going back
// stops Play; Play's first step comes at once.
int step_controls(AppState& state, const StepIds& ids, int step, bool at_end, StepPlay play);

}  // namespace ui
