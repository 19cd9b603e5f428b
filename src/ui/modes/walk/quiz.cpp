// quiz.cpp — see quiz.hpp. Questions 1–3 and 7–8 are LESSONS.md's own check questions and
// examples (the "match" question as one choice of three pairings); 4–6 ask about its other ideas.
// Every number in an explanation is a lesson's (tests/walk_test.cpp recomputes them). The words are
// in the language tables (ui/i18n_*.cpp); this table says how they make questions.
#include "ui/modes/walk/quiz.hpp"

#include <array>

#include "ui/text/i18n.hpp"

namespace ui::quiz {
namespace {

// One question: its prompt, its choices (consecutive keys from `first_choice`), the right one, the
// explanation, and what "show me" opens.
struct Row {
  Text prompt;
  Text first_choice;
  int choices;
  int answer;
  Text explanation;
  const char* preset;
  int row;
  walk::Stage stage;
};

using walk::Stage;
constexpr Row kRows[] = {
    {Text::Quiz1Prompt, Text::Quiz1A, 4, 1, Text::Quiz1Why, "practice-qkv", 0, Stage::Scores},
    {Text::Quiz2Prompt, Text::Quiz2A, 4, 2, Text::Quiz2Why, "practice-qkv", 0, Stage::Scores},
    {Text::Quiz3Prompt, Text::Quiz3A, 3, 1, Text::Quiz3Why, "practice-qkv", 0, Stage::Projections},
    {Text::Quiz4Prompt, Text::Quiz4A, 4, 3, Text::Quiz4Why, "learned-5x8", 0, Stage::Projections},
    {Text::Quiz5Prompt, Text::Quiz5A, 4, 0, Text::Quiz5Why, "practice-qkv", 0, Stage::Softmax},
    {Text::Quiz6Prompt, Text::Quiz6A, 4, 0, Text::Quiz6Why, "learned-5x8", 0, Stage::Scale},
    {Text::Quiz7Prompt, Text::Quiz7A, 4, 2, Text::Quiz7Why, "causal-5", 2, Stage::Mask},
    {Text::Quiz8Prompt, Text::Quiz8A, 4, 3, Text::Quiz8Why, "soft-dictionary", 0, Stage::Blend},
};

std::vector<Question> build() {
  std::vector<Question> out;
  for (const Row& r : kRows) {
    Question q;
    q.prompt = tr(r.prompt);
    for (int c = 0; c < r.choices; ++c) q.choices.emplace_back(tr(Text(int(r.first_choice) + c)));
    q.answer = r.answer;
    q.explanation = tr(r.explanation);
    q.show_me = {r.preset, r.row, r.stage};
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace

const std::vector<Question>& questions() {
  // One copy per language, built on first use in it.
  static std::array<std::vector<Question>, 3> built;
  const std::string_view code = current_language();
  std::vector<Question>& qs = built[code == "es" ? 1 : code == "de" ? 2 : 0];
  if (qs.empty()) qs = build();
  return qs;
}

std::string feedback(const Question& q, int choice) {
  if (choice == q.answer) return tr(Text::QuizRight);
  return fill(tr(Text::QuizNotQuite), {q.choices[static_cast<std::size_t>(q.answer)]});
}

}  // namespace ui::quiz
