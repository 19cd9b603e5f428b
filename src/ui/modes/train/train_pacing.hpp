// train_pacing.hpp — how one frame's training work (train_tick, train_mode.cpp) splits its budget
// between steps (run by the modes' one pacer, widgets/run_pacer.hpp) and the live accuracy. Plain
// C++ (no ImGui): tests/train_pacing_test.cpp.
//
// Each frame may spend kBudgetMs on training (of the 8 ms frame budget). The accuracy (64 sequences
// through the model) is due every kAccuracyEvery steps: a frame measures a due accuracy first when it
// fits the budget, else after its steps when it still fits; steps stop early to leave it room. The
// frame then takes one step when one is owed, so a slow machine still makes progress, and further
// steps while one more fits. A machine too slow for a measurement inside one frame's budget still
// measures when the accuracy is four times overdue — before this, a phone trained on showing its
// step-0 accuracy for ever (found by the phone E2E test with the model's code built -Oz).
#pragma once

namespace ui::train_pacing {

constexpr double kBudgetMs = 6.0;   // training work per frame (of the 8 ms frame budget)
constexpr int kAccuracyEvery = 10;  // steps between accuracy measurements while playing

// `since`: steps since the accuracy was last measured.
inline bool accuracy_due(int since) {
  return since >= kAccuracyEvery;
}

// The room the steps leave in the budget (widgets/run_pacer.hpp's reserve): a due accuracy's
// measurement (`eval_ms`), `since` steps after the last one.
inline double reserve_ms(int since, double eval_ms) {
  return accuracy_due(since) ? eval_ms : 0.0;
}

// Whether to measure the accuracy now, `elapsed_ms` into this frame's work (0 at its start, before the
// steps): due and it fits, or four times overdue.
inline bool may_measure(int since, double elapsed_ms, double eval_ms) {
  return accuracy_due(since) && (elapsed_ms + eval_ms <= kBudgetMs || since >= 4 * kAccuracyEvery);
}

}  // namespace ui::train_pacing
