// quiz.hpp — the lessons' check questions as a multiple-choice quiz, as data (no ImGui).
//
// Each question has 3–4 choices, one right; the explanation says why; "show me" opens a preset
// with one query row selected at the step of the walk that demonstrates the answer (the causal
// question opens causal-5 at "+ M" with row 2 'sat' lit).
#pragma once

#include <string>
#include <vector>

#include "ui/modes/walk/walk_steps.hpp"

namespace ui::quiz {

struct ShowMe {
  std::string preset;  // a name scene::preset() knows
  int row = 0;         // the query row to light
  walk::Stage stage;   // the walk step to open at
};

struct Question {
  std::string prompt;
  std::vector<std::string> choices;  // 3 or 4
  int answer = 0;                    // index of the right choice
  std::string explanation;           // shown once a choice is picked, right or wrong
  ShowMe show_me;
};

// The questions, in the order the quiz asks them.
const std::vector<Question>& questions();

// Feedback line for picking `choice` of question `q`: "Right." / "Not quite: the answer is …".
std::string feedback(const Question& q, int choice);

}  // namespace ui::quiz
