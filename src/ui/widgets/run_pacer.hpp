// run_pacer.hpp — Play at a pace within a frame's CPU budget: the one loop of every mode whose run
// advances by whole steps over frames (Train's training, Circuits' training and a link's rebuild; a
// model's token-by-token generation the same way). Plain C++ (no ImGui): tests/train_pacing_test.cpp.
//
// A run owes steps at its pace (steps per second × the frame's seconds) and carries the fraction to
// the next frame. Each frame runs the owed whole steps while the next one fits the frame's budget,
// judged by what a step took so far (a running average): the first owed step always runs, so a
// machine slower than the budget still makes progress; what is still owed after the budget is
// dropped down to one step, so a slow frame never makes later frames catch up for it.
//
// Use, from a mode's tick (its state holds a RunPacer):
//
//   const double start = pacer_clock_ms();
//   pacer.owe(ImGui::GetIO().DeltaTime);                        // or pacer.owed = steps_left
//   const int done = run_owed_steps(pacer, start, kBudgetMs,
//                                   [&] { return my_step(); });  // false: the run ended
//   if (done > 0) { …show the new state… }
//   pacer.last_work_ms = pacer_clock_ms() - start;
//
// Play sets `owed` to 1 (start(true): the first step at once), Pause to 0. An optional `reserve_ms`
// callback keeps room in the budget for other work of the frame (Train's accuracy measurement).
#pragma once

#include <algorithm>
#include <chrono>

namespace ui {

struct RunPacer {
  float steps_per_second = 30.0f;  // the pace of Play (the mode's pace slider)
  double owed = 0.0;               // steps owed: whole ones run this frame, the fraction carries over
  double step_ms = 1.0;            // what one step took (ms of CPU; a running average)
  double last_work_ms = 0.0;       // CPU ms the run took in the last frame (0 while it is stopped)

  // Play (the first step at once) or Pause (nothing owed).
  void start(bool play) { owed = play ? 1.0 : 0.0; }
  // The steps `seconds` of playing owe at the pace.
  void owe(double seconds) { owed += seconds * double(steps_per_second); }
};

// The steady clock in milliseconds: what run_owed_steps times steps with unless given another.
inline double pacer_clock_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Whether another step may start `elapsed_ms` into the frame's run work, `done` steps taken: the
// first always; then while one more (`step_ms`) and the room kept for other work fit the budget.
inline bool pacer_may_step(int done, double elapsed_ms, double step_ms, double reserve_ms, double budget_ms) {
  return done == 0 || elapsed_ms + step_ms + reserve_ms <= budget_ms;
}

// Runs the owed whole steps that fit `budget_ms` (counted from `start_ms`, on `clock_ms`'s time):
// step() runs one and returns false when the run cannot go on (then the loop stops, nothing more is
// counted); held_back_ms() is the room to keep for other work, asked before each step after the first.
// Updates the running average of a step and drops the backlog to at most one step; returns the
// steps taken.
template <class Step, class Reserve, class Clock>
int run_owed_steps(RunPacer& pacer, double start_ms, double budget_ms, Step&& step, Reserve&& held_back_ms,
                   Clock&& clock_ms) {
  int done = 0;
  while (pacer.owed >= 1.0 &&
         pacer_may_step(done, clock_ms() - start_ms, pacer.step_ms, done == 0 ? 0.0 : held_back_ms(), budget_ms)) {
    const double step_start = clock_ms();
    if (!step()) break;
    pacer.step_ms = 0.8 * pacer.step_ms + 0.2 * (clock_ms() - step_start);
    pacer.owed -= 1.0;
    ++done;
  }
  pacer.owed = std::min(pacer.owed, 1.0);  // over budget: drop the backlog rather than stall later frames
  return done;
}

// The same on the steady clock, with no room kept for other work.
template <class Step>
int run_owed_steps(RunPacer& pacer, double start_ms, double budget_ms, Step&& step) {
  return run_owed_steps(pacer, start_ms, budget_ms, step, [] { return 0.0; }, pacer_clock_ms);
}

}  // namespace ui
