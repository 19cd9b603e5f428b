// train_state.hpp — the Train mode's state (ui/modes/train/train_mode.cpp): the run, its settings, its pace
// and what was measured. Part of UiState (app_state.hpp).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core/train.hpp"

namespace ui {

struct TrainUi {
  attn::train::Config config;                         // task, seed, lr (0 = the optimizer's default), heads
  std::shared_ptr<attn::train::Trainer> trainer;      // the run; null until the mode is first shown
  bool running = false;                               // Play (true) / Pause (false)
  float steps_per_second = 30.0f;                     // the pace of Play (the speed slider)
  double owed = 0.0;                                  // fractional steps carried to the next frame
  double accuracy = -1.0;                             // last measured (−1: not yet)
  int accuracy_step = -1;                             // the step it was measured at
  std::vector<std::pair<int, float>> accuracy_curve;  // (step, accuracy) as measured
  double last_work_ms = 0.0;                          // CPU ms training took in the last frame
  double step_ms = 0.5, eval_ms = 1.0;  // what a step / an accuracy measurement took (ms; running average)
};

}  // namespace ui
