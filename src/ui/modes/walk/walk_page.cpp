// walk_page.cpp — the walk-through's and the quiz's part of the page API (window.attentionLab's
// getStep/setStep, getQuiz/openQuiz; the desktop's --rects file) and the desktop's --step and --quiz:
// its row's page hooks and flags (modes.cpp).
#include <string>

#include "ui/modes/walk/quiz.hpp"
#include "ui/modes/walk/walk_mode.hpp"

namespace ui {
namespace {

// {"index", "count", "title", "text", "numbers", "row"}; index −1 (no walk): only index and count, and
// an empty title.
PageJson step_json(const AppState& state) {
  const WalkStepView v = walk_step_view(state);
  if (v.index < 0) return {{"index", v.index}, {"count", v.count}, {"title", ""}};
  return {{"index", v.index}, {"count", v.count},     {"title", v.title},
          {"text", v.text},   {"numbers", v.numbers}, {"row", v.row}};
}

// {"open", "question", "count", "answer", "picked", "right", "feedback", "explanation", "questions"}.
PageJson quiz_json(const AppState& state) {
  const QuizView v = quiz_view(state);
  return {{"open", v.open},         {"question", v.question},       {"count", v.count},
          {"answer", v.answer},     {"picked", v.picked},           {"right", v.right},
          {"feedback", v.feedback}, {"explanation", v.explanation}, {"questions", v.questions}};
}

}  // namespace

void walk_page_state(const AppState& state, PageJson& ui) {
  ui["step"] = walk_index(state);
}

// "get": the step; "set" i: go to step i (0-based; −1 leaves the walk); "getQuiz": the quiz;
// "openQuiz" q: open it at question q (0-based; −1 closes it).
PageJson walk_page_call(AppState& state, std::string_view call, std::string_view arg) {
  if (call == "get") return step_json(state);
  if (call == "getQuiz") return quiz_json(state);
  int index = 0;
  const bool number = page_int(arg, &index);
  if (call == "set") {
    if (number && set_walk_step(state, index)) return page_ok();
    return page_fail("step: " + std::string(arg) + " is not a step of this walk (0 to " +
                     std::to_string(walk_count(state) - 1) + ", or -1 to leave)");
  }
  if (call == "openQuiz" && number) {  // the page checked the number (web/attention-lab-api.js)
    if (index < 0)
      state.ui.quiz.open = false;
    else
      open_quiz(state, index);
    return page_ok();
  }
  return nullptr;
}

int walk_link_step(const AppState& state) {
  return walk_index(state) + 1;
}

void walk_page_rects(const AppState& state, PageJson& rects) {
  rects["walk"] = step_json(state);
  rects["quiz"] = quiz_json(state);
}

#ifndef __EMSCRIPTEN__
const ModeFlag kWalkFlags[2] = {
    {"--step", "N", "open the walk-through at step N (1 = first; as a link's step=N)",
     [](const std::string& value, LinkStart& start) {
       return flag_whole_number(value, 1, scene::link::kMaxWalkStep, &start.step);
     }},
    {"--quiz", "Q", "open the quiz at question Q (1 = first)",
     [](const std::string& value, LinkStart& start) {
       return flag_whole_number(value, 1, int(quiz::questions().size()), &start.quiz);
     }},
};
#endif

}  // namespace ui
