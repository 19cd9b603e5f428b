// train_pacing_test.cpp — the Train mode's frame budget (ui/modes/train/train_pacing.hpp): steps and
// the live accuracy share 6 ms a frame; a due accuracy keeps its room; a machine too slow for both
// in one frame still measures (a phone used to show its step-0 accuracy for ever).
#include "ui/modes/train/train_pacing.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace pacing = ui::train_pacing;

TEST_CASE("train pacing: the first step always; more while they fit; a due accuracy keeps its room") {
  CHECK(pacing::may_step(0, 100.0, 50.0, true, 50.0));  // at least one step per frame
  CHECK(pacing::may_step(3, 3.0, 1.0, false, 2.5));     // 3 + 1 ≤ 6
  CHECK(!pacing::may_step(3, 5.5, 1.0, false, 2.5));    // 5.5 + 1 > 6
  CHECK(!pacing::may_step(3, 3.0, 1.0, true, 2.5));     // 3 + 1 + 2.5 > 6: the accuracy's room
  CHECK(pacing::may_step(3, 2.0, 1.0, true, 2.5));      // 2 + 1 + 2.5 ≤ 6
  CHECK(!pacing::accuracy_due(9));
  CHECK(pacing::accuracy_due(10));
  CHECK(pacing::may_measure(10, 3.0, 2.0));
  CHECK(!pacing::may_measure(10, 5.0, 2.0));   // due, but no room this frame
  CHECK(!pacing::may_measure(9, 0.0, 0.1));    // not due
  CHECK(pacing::may_measure(40, 50.0, 20.0));  // four times overdue: measured anyway
}

// train_tick's loop over simulated frames on a machine with the given step and measurement times
// (ms): the steps at which the accuracy was measured in `frames` frames at 60 steps per second.
static std::vector<int> measured_at(double step_ms, double eval_ms, int frames) {
  std::vector<int> at;
  int steps = 0, accuracy_step = 0;
  double owed = 0.0;
  for (int f = 0; f < frames; ++f) {
    owed += 60.0 / 60.0 * 4.0;  // a pace of 240 steps/s at 60 fps: always more owed than done
    double elapsed = 0.0;
    if (pacing::may_measure(steps - accuracy_step, elapsed, eval_ms)) {  // first, when it fits
      elapsed += eval_ms;
      accuracy_step = steps;
      at.push_back(steps);
    }
    int done = 0;
    while (owed >= 1.0 &&
           pacing::may_step(done, elapsed, step_ms, pacing::accuracy_due(steps - accuracy_step), eval_ms)) {
      elapsed += step_ms;
      ++steps;
      owed -= 1.0;
      ++done;
    }
    owed = owed < 1.0 ? owed : 1.0;
    if (pacing::may_measure(steps - accuracy_step, elapsed, eval_ms)) {
      elapsed += eval_ms;
      accuracy_step = steps;
      at.push_back(steps);
    }
  }
  return at;
}

TEST_CASE("train pacing: every machine measures its accuracy as it trains") {
  // A desktop: 0.3 ms a step, 1.5 ms a measurement — every 10 steps, in budget.
  const std::vector<int> fast = measured_at(0.3, 1.5, 100);
  REQUIRE(fast.size() >= 30);
  for (std::size_t i = 1; i < fast.size(); ++i) CHECK(fast[i] - fast[i - 1] <= 2 * pacing::kAccuracyEvery);
  // A slow phone: a step alone (4 ms) and a measurement alone (5 ms) fit, not both: the measurement
  // comes first in its frame, every 10 steps.
  const std::vector<int> phone = measured_at(4.0, 5.0, 200);
  REQUIRE(phone.size() >= 15);
  for (std::size_t i = 1; i < phone.size(); ++i) CHECK(phone[i] - phone[i - 1] <= pacing::kAccuracyEvery);
  // Slower still: a step (7 ms) and a measurement (9 ms) each over the budget — measured when four
  // times overdue, never left at step 0.
  const std::vector<int> slow = measured_at(7.0, 9.0, 200);
  REQUIRE(slow.size() >= 4);
  for (std::size_t i = 1; i < slow.size(); ++i) CHECK(slow[i] - slow[i - 1] == 4 * pacing::kAccuracyEvery);
}
