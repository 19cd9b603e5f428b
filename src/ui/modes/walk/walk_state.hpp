// walk_state.hpp — the Walk through mode's state and the quiz's (UiState::walk, UiState::quiz;
// drawn and changed by walk_mode.cpp).
#pragma once

#include <vector>

namespace ui {

namespace walk {
// One stage of the pipeline, in order (walk_steps.hpp: each stage's words and numbers).
enum class Stage { Inputs, Projections, Scores, Scale, Mask, Softmax, Blend, Output };
}  // namespace walk

// The walk-through (Mode::Walk): which stage it shows and which query row its numbers follow. The
// stage, not an index, is kept: dragging a slider of a learned scene makes it direct and removes
// the X step, and the walk stays on the same stage.
struct WalkUi {
  walk::Stage stage = walk::Stage::Inputs;
  int row = 0;                 // query row of the live numbers (clamped to n − 1 when drawn)
  bool scroll_to_top = false;  // set at a step change: the page scrolls up to the step card
  float card_h = 0;            // the step card's content height, measured last frame (0: not yet)
};

// The quiz (ui/modes/walk/quiz.hpp): open or not, the question shown, each question's pick.
struct QuizUi {
  bool open = false;
  int question = 0;
  std::vector<int> picked;  // per question: the choice picked (−1: none yet)
  int return_to = -1;       // after "show me": the question the step card offers to go back to
};

}  // namespace ui
