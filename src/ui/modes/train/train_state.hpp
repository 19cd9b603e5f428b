// train_state.hpp — the Train mode's state (ui/modes/train/train_mode.cpp): the run, its settings, its pace
// and what was measured. Part of UiState (app_state.hpp).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "core/train.hpp"
#include "ui/widgets/run_pacer.hpp"

namespace ui {

struct TrainUi {
  attn::train::Config config;                         // task, seed, lr (0 = the optimizer's default), heads
  std::shared_ptr<attn::train::Trainer> trainer;      // the run; null until the mode is first shown
  bool running = false;                               // Play (true) / Pause (false)
  RunPacer pace{30.0f, 0.0, 0.5};                     // Play's pace (the speed slider), what a step takes
  double accuracy = -1.0;                             // last measured (−1: not yet)
  int accuracy_step = -1;                             // the step it was measured at
  std::vector<std::pair<int, float>> accuracy_curve;  // (step, accuracy) as measured
  double eval_ms = 1.0;                               // what an accuracy measurement took (ms)
};

}  // namespace ui
