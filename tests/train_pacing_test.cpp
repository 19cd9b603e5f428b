// train_pacing_test.cpp — the modes' run pacer (ui/widgets/run_pacer.hpp: Train, Circuits) and the
// Train mode's frame budget (ui/modes/train/train_pacing.hpp): owed steps at the pace, the first
// always, more while they fit, the backlog dropped; steps and the live accuracy share 6 ms a frame;
// a due accuracy keeps its room; a machine too slow for both in one frame still measures (a phone
// used to show its step-0 accuracy for ever).
#include "ui/modes/train/train_pacing.hpp"
#include "ui/widgets/run_pacer.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace pacing = ui::train_pacing;

namespace {
// A clock that moves only when a simulated step or measurement takes time (ms).
struct FakeClock {
  double now = 1000.0;
  double operator()() const { return now; }
};
}  // namespace

TEST_CASE("run pacer: steps owed at the pace, the first always, more while they fit, the backlog dropped") {
  CHECK(ui::pacer_may_step(0, 100.0, 50.0, 50.0, 6.0));  // at least one step per frame
  CHECK(ui::pacer_may_step(3, 3.0, 1.0, 0.0, 6.0));      // 3 + 1 ≤ 6
  CHECK(!ui::pacer_may_step(3, 5.5, 1.0, 0.0, 6.0));     // 5.5 + 1 > 6
  CHECK(!ui::pacer_may_step(3, 3.0, 1.0, 2.5, 6.0));     // 3 + 1 + 2.5 > 6: the reserved room
  CHECK(ui::pacer_may_step(3, 2.0, 1.0, 2.5, 6.0));      // 2 + 1 + 2.5 ≤ 6

  ui::RunPacer pacer{120.0f, 0.0, 2.0};
  FakeClock clock;
  int steps = 0;
  const auto step = [&] {  // a step of 2 ms
    clock.now += 2.0;
    ++steps;
    return true;
  };
  const auto no_reserve = [] { return 0.0; };
  // 1/60 s at 120 steps/s owes 2 steps; both fit 10 ms.
  pacer.owe(1.0 / 60.0);
  CHECK(pacer.owed == doctest::Approx(2.0));
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, step, no_reserve, clock) == 2);
  CHECK(pacer.owed == doctest::Approx(0.0));
  CHECK(pacer.step_ms == doctest::Approx(2.0));
  // 0.25 s owes 30: 5 fit 10 ms (2 ms each), the rest is dropped to one step.
  pacer.owe(0.25);
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, step, no_reserve, clock) == 5);
  CHECK(pacer.owed == doctest::Approx(1.0));
  // Half a step owed runs nothing and carries over; Play owes one at once, Pause none.
  pacer.owed = 0.5;
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, step, no_reserve, clock) == 0);
  CHECK(pacer.owed == doctest::Approx(0.5));
  pacer.start(true);
  CHECK(pacer.owed == 1.0);
  pacer.start(false);
  CHECK(pacer.owed == 0.0);
  // A step slower than the budget still runs, one a frame, and the average follows it.
  const auto slow = [&] {
    clock.now += 30.0;
    ++steps;
    return true;
  };
  pacer.owed = 5.0;
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, slow, no_reserve, clock) == 1);
  CHECK(pacer.step_ms == doctest::Approx(0.8 * 2.0 + 0.2 * 30.0));
  // The run ends (step() says so): the loop stops there, nothing more counted.
  int left = 2;
  pacer.owed = 5.0;
  pacer.step_ms = 0.1;
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, [&] { return left-- > 0; }, no_reserve, clock) == 2);
  // Room kept for other work: with 5 ms reserved, a 2 ms step fits twice less often.
  pacer.owed = 10.0;
  pacer.step_ms = 2.0;
  // the first step; then 2 + 2 + 5 ≤ 10; not 4 + 2 + 5
  CHECK(ui::run_owed_steps(pacer, clock(), 10.0, step, [] { return 5.0; }, clock) == 2);
}

TEST_CASE("train pacing: a due accuracy keeps its room") {
  CHECK(pacing::reserve_ms(9, 2.5) == 0.0);
  CHECK(pacing::reserve_ms(10, 2.5) == 2.5);
  CHECK(!pacing::accuracy_due(9));
  CHECK(pacing::accuracy_due(10));
  CHECK(pacing::may_measure(10, 3.0, 2.0));
  CHECK(!pacing::may_measure(10, 5.0, 2.0));   // due, but no room this frame
  CHECK(!pacing::may_measure(9, 0.0, 0.1));    // not due
  CHECK(pacing::may_measure(40, 50.0, 20.0));  // four times overdue: measured anyway
}

// train_tick's work over simulated frames on a machine with the given step and measurement times
// (ms), through the modes' pacer: the steps at which the accuracy was measured in `frames` frames.
static std::vector<int> measured_at(double step_ms, double eval_ms, int frames) {
  std::vector<int> at;
  int steps = 0, accuracy_step = 0;
  ui::RunPacer pacer{240.0f, 0.0, step_ms};  // 240 steps/s at 60 fps: always more owed than done
  FakeClock clock;
  const auto measure = [&] {
    clock.now += eval_ms;
    accuracy_step = steps;
    at.push_back(steps);
  };
  for (int f = 0; f < frames; ++f) {
    const double start = clock();
    pacer.owe(1.0 / 60.0);
    if (pacing::may_measure(steps - accuracy_step, 0.0, eval_ms)) measure();  // first, when it fits
    ui::run_owed_steps(
        pacer, start, pacing::kBudgetMs,
        [&] {
          clock.now += step_ms;
          ++steps;
          return true;
        },
        [&] { return pacing::reserve_ms(steps - accuracy_step, eval_ms); }, clock);
    if (pacing::may_measure(steps - accuracy_step, clock() - start, eval_ms)) measure();
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
