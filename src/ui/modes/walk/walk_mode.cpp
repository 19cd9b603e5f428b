// walk_mode.cpp — see walk_mode.hpp.
//
// [SECTION] Walk state: index ↔ stage, set_walk_step, what getStep and getQuiz say
// [SECTION] What each step lights
// [SECTION] Keys
// [SECTION] The step card
// [SECTION] The quiz window
#include "ui/modes/walk/walk_mode.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/modes/walk/quiz.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

using scene::link::Panel;
using walk::Stage;

//-------------------------------------------------------------------------------------------------
// [SECTION] Walk state
//-------------------------------------------------------------------------------------------------

namespace {

// The address bar follows the mode and the step (web); nothing on desktop.
void notify_link_changed(const AppState& state) {
  if (state.sharing.scene_changed) state.sharing.scene_changed();
}

// The scene's current stage list and the position of `stage` in it. A stage the scene does not
// have (X after a projected scene became direct) maps to the next one.
int index_of(const std::vector<Stage>& stages, Stage stage) {
  for (int k = 0; k < int(stages.size()); ++k)
    if (int(stages[std::size_t(k)]) >= int(stage)) return k;
  return int(stages.size()) - 1;
}

int clamped_row(const AppState& state) {
  return std::clamp(state.ui.walk.row, 0, std::max(0, state.scene.n() - 1));
}

// Each stage's grid on the Scores panel: the raw QKᵀ, or the scaled + masked stage softmax sees.
void show_stage_grid(AppState& state, Stage stage) {
  if (stage == Stage::Scores) state.ui.scores_tab = ScoresTab::Raw;
  if (stage == Stage::Scale || stage == Stage::Mask) state.ui.scores_tab = ScoresTab::Scaled;
}

}  // namespace

int walk_count(const AppState& state) {
  return int(walk::stages_for(state.scene).size());
}

int walk_index(const AppState& state) {
  if (state.ui.settings.mode != Mode::Walk) return -1;
  return index_of(walk::stages_for(state.scene), state.ui.walk.stage);
}

bool set_walk_step(AppState& state, int index, bool notify) {
  const std::vector<Stage> stages = walk::stages_for(state.scene);
  if (index < -1 || index >= int(stages.size())) return false;
  if (index == -1) {
    if (state.ui.settings.mode == Mode::Walk) {
      state.ui.settings.mode = scene::link::kDefaultMode;  // every panel
      if (notify) notify_link_changed(state);
    }
    return true;
  }
  const Stage stage = stages[std::size_t(index)];
  const bool changed = state.ui.settings.mode != Mode::Walk || state.ui.walk.stage != stage;
  state.ui.settings.mode = Mode::Walk;
  state.ui.walk.stage = stage;
  show_stage_grid(state, stage);
  if (changed) {
    state.ui.walk.scroll_to_top = true;
    state.ui.frame.layout_changed = true;  // the card's height follows the step: settle the layout now
    if (notify) notify_link_changed(state);
  }
  return true;
}

WalkStepView walk_step_view(const AppState& state) {
  WalkStepView v;
  v.index = walk_index(state);
  v.count = walk_count(state);
  if (v.index >= 0) {
    const Stage stage = state.ui.walk.stage;
    const walk::StepText text = walk::step_text(stage, state.scene);
    v.title = text.title;
    v.text = text.body;
    v.row = clamped_row(state);
    if (state.computed) v.numbers = walk::live_numbers(stage, state.scene, state.result, v.row);
  }
  return v;
}

QuizView quiz_view(const AppState& state) {
  const std::vector<quiz::Question>& questions = quiz::questions();
  const QuizUi& qz = state.ui.quiz;
  QuizView v;
  v.open = qz.open;
  v.count = int(questions.size());
  v.question = std::clamp(qz.question, 0, v.count - 1);
  const quiz::Question& question = questions[std::size_t(v.question)];
  v.answer = question.answer;
  for (int k = 0; k < v.count; ++k) {
    v.picked.push_back(k < int(qz.picked.size()) ? qz.picked[std::size_t(k)] : -1);
    v.questions.push_back(questions[std::size_t(k)].prompt);
    if (v.picked.back() == questions[std::size_t(k)].answer) ++v.right;
  }
  if (const int picked = v.picked[std::size_t(v.question)]; picked >= 0) {
    v.feedback = quiz::feedback(question, picked);
    v.explanation = question.explanation;
  }
  return v;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] What each step lights
//-------------------------------------------------------------------------------------------------

namespace {

struct StageLight {
  std::vector<Term> terms;    // parts of the formula strip
  std::vector<Panel> panels;  // panels that stay bright
};

StageLight stage_light(Stage stage) {
  switch (stage) {
    case Stage::Inputs:
      return {{Term::Tokens}, {Panel::Vectors}};
    case Stage::Projections:
      return {{Term::Queries, Term::Keys, Term::Values}, {Panel::Vectors}};
    case Stage::Scores:
      return {{Term::Queries, Term::Keys}, {Panel::Scores}};
    case Stage::Scale:
      return {{Term::Scale}, {Panel::Scores, Panel::Controls}};
    case Stage::Mask:
      return {{Term::Mask}, {Panel::Scores, Panel::Mask}};
    case Stage::Softmax:
      return {{Term::Weights}, {Panel::Weights}};
    case Stage::Blend:
      return {{Term::Values}, {Panel::Weights, Panel::Output, Panel::Vectors}};
    case Stage::Output:
      return {{Term::Output}, {Panel::Output}};
  }
  return {};
}

}  // namespace

bool walk_term_lit(const AppState& state, Term term) {
  if (state.ui.settings.mode != Mode::Walk) return false;
  const StageLight light = stage_light(state.ui.walk.stage);
  return std::find(light.terms.begin(), light.terms.end(), term) != light.terms.end();
}

bool walk_panel_lit(const AppState& state, Panel panel) {
  if (state.ui.settings.mode != Mode::Walk) return true;
  const StageLight light = stage_light(state.ui.walk.stage);
  return std::find(light.panels.begin(), light.panels.end(), panel) != light.panels.end();
}

int walk_lit_row(const AppState& state) {
  return std::max(0, state.ui.walk.row);  // clamped to the grid by the grids
}

void start_walk(AppState& state) {
  set_walk_step(state, 0);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Keys
//-------------------------------------------------------------------------------------------------

void handle_walk_keys(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing a number (Ctrl+click on a slider) or a file path
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    if (state.ui.quiz.open) {
      state.ui.quiz.open = false;
    } else {
      set_walk_step(state, -1);
    }
    return;
  }
  if (state.ui.settings.mode != Mode::Walk) return;
  // A focused value cell or grid takes the arrow keys (ui/widgets/keyboard.hpp).
  for (const FocusItem& item : state.ui.keyboard.items)
    if (item.id == state.ui.keyboard.focus && item.kind != FocusKind::Item) return;
  const int index = walk_index(state);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow), false)) {
    if (index + 1 < walk_count(state)) set_walk_step(state, index + 1);
  } else if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow), false)) {
    if (index > 0) set_walk_step(state, index - 1);
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The step card
//-------------------------------------------------------------------------------------------------

namespace {

// A button in the accent colour (the way forward) or plain.
bool card_button(AppState& state, const char* label, const std::string& id, bool accent,
                 bool enabled = true) {
  if (accent) {
    ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(palette::accent_soft()));
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
  }
  if (!enabled) ImGui::BeginDisabled();
  const bool pressed = button(state, id, label);
  if (!enabled) ImGui::EndDisabled();
  if (accent) ImGui::PopStyleColor(2);
  return pressed && enabled;
}

bool narrow_card(float width) {
  return width < 40.0f * ImGui::GetFontSize();
}

// The pipeline as chips, the current one lit; a click goes to that step. Wraps on narrow cards.
void draw_pipeline(AppState& state, const std::vector<Stage>& stages, int index) {
  const float em = ImGui::GetFontSize();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0.35f * em, 0.1f * em));
  for (int k = 0; k < int(stages.size()); ++k) {
    const std::string label =
        walk::stage_symbol(stages[std::size_t(k)], state.scene) + "##chip" + std::to_string(k);
    const float w = ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 0.7f * em;
    if (k > 0) {
      const float arrow_w = ImGui::CalcTextSize("→").x + 0.6f * em;
      ImGui::SameLine(0, 0.3f * em);
      if (ImGui::GetCursorScreenPos().x + arrow_w + w > right) ImGui::NewLine();
      ImGui::AlignTextToFramePadding();
      ImGui::TextColored(to_vec4(palette::text_dim()), "→");
      ImGui::SameLine(0, 0.3f * em);
    }
    const bool current = k == index;
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::accent()) : ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current ? palette::background() : palette::text_dim()));
    if (small_button(state, "walk/stage/" + std::to_string(k), label.c_str()) && !current)
      set_walk_step(state, k);
    ImGui::PopStyleColor(2);
  }
  ImGui::PopStyleVar();
}

}  // namespace

float walk_card_height(const AppState& state, const Fonts& fonts, float width) {
  // Measured while drawing (last frame); the estimate below serves the first frame.
  if (state.ui.walk.card_h > 0) return state.ui.walk.card_h;
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = std::max(1.0f, width - 2.0f * style.WindowPadding.x);
  const Stage stage = state.ui.walk.stage;
  const walk::StepText text = walk::step_text(stage, state.scene);
  const std::string numbers =
      state.computed ? walk::live_numbers(stage, state.scene, state.result, clamped_row(state)) : "";
  const float body_h = ImGui::CalcTextSize(text.body.c_str(), nullptr, false, inner).y;
  const float numbers_h = ImGui::CalcTextSize(numbers.c_str(), nullptr, false, inner - 7.0f * em).y;
  const float title_h = fonts.heading->FontSize + style.ItemSpacing.y + 0.4f * em;
  const bool narrow = narrow_card(width);
  const float pipeline_h = (narrow ? 2.0f : 1.0f) * (ImGui::GetFrameHeight() + style.ItemSpacing.y);
  const float buttons_h = narrow ? ImGui::GetFrameHeight() + style.ItemSpacing.y : 0.0f;
  const float rows_h = std::max(numbers_h, ImGui::GetFrameHeight());
  return std::ceil(title_h + buttons_h + pipeline_h + body_h + rows_h + 3.0f * style.ItemSpacing.y +
                   2.0f * style.WindowPadding.y + 0.3f * em);
}

void draw_walk_card(AppState& state, const Fonts& fonts) {
  const std::vector<Stage> stages = walk::stages_for(state.scene);
  const int index = walk_index(state);
  if (index < 0) return;
  const int count = int(stages.size());
  const Stage stage = state.ui.walk.stage;
  const float em = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x;
  const bool narrow = narrow_card(width + 2.0f * ImGui::GetStyle().WindowPadding.x);
  const walk::StepText text = walk::step_text(stage, state.scene);
  state.ui.walk.row = clamped_row(state);

  // --- counter and title; Prev / Next / Leave at the right (their own line on a phone)
  const std::string counter = std::to_string(index + 1) + " / " + std::to_string(count);
  ImGui::PushFont(fonts.heading);
  ImGui::TextColored(to_vec4(palette::accent()), "%s", counter.c_str());
  record_item_rect(state, "walk/counter");
  ImGui::SameLine(0, 0.8f * em);
  ImGui::TextUnformatted(text.title.c_str());
  ImGui::PopFont();
  const bool last = index + 1 == count;
  const char* next_label = tr(last ? Text::WalkToQuiz : Text::WalkNext);
  const float buttons_w = ImGui::CalcTextSize(tr(Text::WalkPrev)).x + ImGui::CalcTextSize(next_label).x +
                          ImGui::CalcTextSize(tr(Text::WalkLeave)).x +
                          6.0f * ImGui::GetStyle().FramePadding.x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
  if (!narrow) {
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - buttons_w));
  }
  if (card_button(state, tr(Text::WalkPrev), "walk/prev", false, index > 0)) set_walk_step(state, index - 1);
  ImGui::SameLine();
  if (card_button(state, next_label, "walk/next", true)) {
    if (last) {
      open_quiz(state, state.ui.quiz.return_to >= 0 ? state.ui.quiz.return_to : 0);
    } else {
      set_walk_step(state, index + 1);
    }
  }
  ImGui::SameLine();
  if (card_button(state, tr(Text::WalkLeave), "walk/leave", false)) set_walk_step(state, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::WalkLeaveTip));

  // --- the pipeline
  draw_pipeline(state, stages, walk_index(state));

  // --- the step's sentences
  ImGui::Spacing();
  wrapped_text(text.body);

  // --- the row the numbers follow, then its live numbers
  ImGui::Spacing();
  const int n = state.scene.n();
  ImGui::SetNextItemWidth(6.0f * em);
  const std::string preview = fit_text(state.scene.tokens[std::size_t(state.ui.walk.row)], 4.5f * em);
  if (const Combo combo{state, "walk/row", "##walkrow", preview.empty() ? "#0" : preview.c_str()}) {
    for (int i = 0; i < n; ++i) {
      const std::string label =
          (state.scene.tokens[std::size_t(i)].empty() ? "#" + std::to_string(i)
                                                      : state.scene.tokens[std::size_t(i)]) +
          "##row" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), i == state.ui.walk.row)) state.ui.walk.row = i;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::WalkRowTip));
  ImGui::SameLine();
  const std::string numbers =
      state.computed ? walk::live_numbers(stage, state.scene, state.result, state.ui.walk.row) : "";
  wrapped_text_colored(to_vec4(palette::query()), numbers);
  record_item_rect(state, "walk/numbers");

  if (state.ui.quiz.return_to >= 0 && !state.ui.quiz.open) {
    ImGui::SameLine();
    const std::string back = fill(tr(Text::QuizBack), {std::to_string(state.ui.quiz.return_to + 1)});
    if (card_button(state, back.c_str(), "quiz/back", true)) open_quiz(state, state.ui.quiz.return_to);
  }

  // The card's height for the next frame's layout: its content plus padding. A change means the
  // layout is not settled yet, so another frame is drawn.
  const float measured =
      std::ceil(ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y - ImGui::GetStyle().ItemSpacing.y);
  if (std::abs(measured - state.ui.walk.card_h) > 0.5f) state.ui.frame.layout_changed = true;
  state.ui.walk.card_h = measured;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The quiz window
//-------------------------------------------------------------------------------------------------

namespace {
std::string quiz_button_label() {
  return std::string(tr(Text::CheckYourself)) + "##quiz";
}
}  // namespace

float quiz_button_width() {
  return ImGui::CalcTextSize(quiz_button_label().c_str(), nullptr, true).x +
         2.0f * ImGui::GetStyle().FramePadding.x;
}

void draw_quiz_button(AppState& state) {
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(state.ui.quiz.open ? palette::accent() : palette::text_dim()));
  if (button(state, "quiz/open", quiz_button_label().c_str())) open_quiz(state, state.ui.quiz.question);
  ImGui::PopStyleColor(2);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CheckYourselfTip));
}

void open_quiz(AppState& state, int q) {
  const int count = int(quiz::questions().size());
  state.ui.quiz.picked.resize(std::size_t(count), -1);
  state.ui.quiz.question = std::clamp(q, 0, count - 1);
  state.ui.quiz.open = true;
}

namespace {

// Open the scene that demonstrates question q's answer, at the walk step that shows it.
void show_me(AppState& state, int q) {
  const quiz::Question& question = quiz::questions()[std::size_t(q)];
  if (!load_preset(state, question.show_me.preset)) return;  // computed as it loads
  const std::vector<Stage> stages = walk::stages_for(state.scene);
  set_walk_step(state, index_of(stages, question.show_me.stage));
  state.ui.walk.row = question.show_me.row;
  state.ui.quiz.open = false;
  state.ui.quiz.return_to = q;
  notify_link_changed(state);
}

}  // namespace

void draw_quiz_window(AppState& state, const Fonts& fonts) {
  QuizUi& qz = state.ui.quiz;
  if (!qz.open) return;
  const std::vector<quiz::Question>& questions = quiz::questions();
  const int count = int(questions.size());
  qz.picked.resize(std::size_t(count), -1);
  qz.question = std::clamp(qz.question, 0, count - 1);
  const int q = qz.question;
  const quiz::Question& question = questions[std::size_t(q)];

  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float w = std::min(io.DisplaySize.x - 1.0f * em, 38.0f * em);
  ImGui::SetNextWindowSize(ImVec2(w, 0.0f));
  // Pinned by its top edge: a question with a longer explanation grows the window downwards, so
  // the buttons above never move under the pointer between two frames (it sizes itself to fit).
  ImGui::SetNextWindowPos(
      ImVec2(0.5f * io.DisplaySize.x, std::floor(std::min(7.0f * em, 0.12f * io.DisplaySize.y))),
      ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::panel()));
  ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette::accent()));
  ImGui::PushStyleColor(ImGuiCol_TitleBg, to_vec4(palette::panel_border()));
  ImGui::PushStyleColor(ImGuiCol_TitleBgActive, to_vec4(palette::panel_border()));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(1.0f, 0.1f * em));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(1.0f * em, 0.8f * em));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  bool open = true;
  if (ImGui::Begin((std::string(tr(Text::QuizTitle)) + "###quiz").c_str(), &open, flags)) {
    int right = 0;
    for (int k = 0; k < count; ++k)
      if (qz.picked[std::size_t(k)] == questions[std::size_t(k)].answer) ++right;
    ImGui::PushFont(fonts.small);
    ImGui::TextColored(
        to_vec4(palette::text_dim()), "%s",
        fill(tr(Text::QuizProgress), {std::to_string(q + 1), std::to_string(count), std::to_string(right)})
            .c_str());
    ImGui::PopFont();
    ImGui::PushFont(fonts.heading);
    wrapped_text(question.prompt);
    ImGui::PopFont();
    ImGui::Spacing();

    const int picked = qz.picked[std::size_t(q)];
    const float full = ImGui::GetContentRegionAvail().x;
    for (int c = 0; c < int(question.choices.size()); ++c) {
      const bool is_answer = c == question.answer;
      ImU32 face = palette::panel_border();
      if (picked >= 0 && is_answer) face = palette::right();   // the right answer, once picked
      if (picked == c && !is_answer) face = palette::wrong();  // the wrong pick
      ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(face));
      ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.0f, 0.5f));
      const std::string mark = picked >= 0 && is_answer ? "✓ " : picked == c ? "× " : "   ";
      const std::string label = mark + std::string(1, char('A' + c)) + "   " +
                                question.choices[std::size_t(c)] + "##q" + std::to_string(q) + "c" +
                                std::to_string(c);
      if (button(state, "quiz/" + std::to_string(q) + "/choice/" + std::to_string(c), label.c_str(),
                 ImVec2(full, 0)))
        qz.picked[std::size_t(q)] = c;
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();
    }

    if (picked >= 0) {
      ImGui::Spacing();
      const bool correct = picked == question.answer;
      ImGui::PushFont(fonts.heading);
      ImGui::TextColored(to_vec4(correct ? palette::accent() : palette::error()), "%s",
                         quiz::feedback(question, picked).c_str());
      ImGui::PopFont();
      record_item_rect(state, "quiz/" + std::to_string(q) + "/feedback");
      wrapped_text(question.explanation);
      const std::string show = fill(tr(Text::QuizShowMe), {question.show_me.preset});
      if (card_button(state, show.c_str(), "quiz/" + std::to_string(q) + "/showme", true)) show_me(state, q);
    }

    ImGui::Separator();
    if (card_button(state, tr(Text::QuizPrevious), "quiz/prev", false, q > 0)) qz.question = q - 1;
    ImGui::SameLine();
    if (card_button(state, tr(Text::QuizNextQuestion), "quiz/next", picked >= 0, q + 1 < count))
      qz.question = q + 1;
    ImGui::SameLine();
    if (card_button(state, tr(Text::QuizClose), "quiz/close", false)) open = false;
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor(4);
  if (!open) qz.open = false;
}

void walk_apply_start(AppState& state, const LinkStart& start) {
  const int step = start.mode == Mode::Walk ? std::max(start.step, 1) : start.step;
  if (step > 0) {
    recompute_if_dirty(state);  // the walk's steps follow the result: bring it up to date first
    set_walk_step(state, std::clamp(step - 1, 0, walk_count(state) - 1), /*notify=*/false);
  }
  if (start.quiz > 0) open_quiz(state, start.quiz - 1);
}

}  // namespace ui
