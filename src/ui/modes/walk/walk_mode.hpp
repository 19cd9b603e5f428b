// walk_mode.hpp — the "Walk through" mode and the quiz: state changes, what each step lights, and
// the two windows (the step card and the quiz). The words and numbers come from walk_steps.hpp
// and quiz.hpp; the layout that places the card beside the panels is walk_layout.cpp.
//
//   [3 / 8]  Scores: Q Kᵀ                                 ◀ Prev   Next ▶   ✕ Leave
//   X → Q, K, V → [QKᵀ] → ÷ 1 → + M → softmax → · V → Y
//   How much token i attends to token j starts as one number, …
//   Row 'the' scores each key: 'the' 0, 'cat' 1, 'sat' 1.                 Row: [the ▾]
//
// Widget ids (walk/…, quiz/…): docs/PAGE_API.md.
#pragma once

#include <string>
#include <vector>

#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/link_start.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/walk/walk_steps.hpp"

namespace ui {

struct Screen;

// --- the walk's state (AppState::ui.walk; the mode is AppState::ui.settings.mode == Mode::Walk)

// Index of the current step in walk::stages_for(scene), or −1 when no walk is running.
int walk_index(const AppState& state);
// Number of steps of the current scene's walk (8, or 7 for a direct scene).
int walk_count(const AppState& state);
// Go to step `index` (0-based): enters the walk mode. −1 leaves it (back to Explore). False (and
// nothing changes) when index is outside −1 … count − 1. `notify`: tell the page the address
// changed (not while a link is being applied).
bool set_walk_step(AppState& state, int index, bool notify = true);
// What the page API's getStep() says (app/page_api.cpp writes it as JSON).
struct WalkStepView {
  int index = -1;  // 0-based; −1: no walk (then only count is set)
  int count = 0;
  std::string title, text;  // the step card's title and its sentences
  std::string numbers;      // the step's numbers for the followed row ("" before the first result)
  int row = 0;              // the followed query row
};
WalkStepView walk_step_view(const AppState& state);

// What the page API's getQuiz() says.
struct QuizView {
  bool open = false;
  int question = 0, count = 0;         // the question shown (0-based), how many there are
  int answer = 0;                      // its right choice
  std::vector<int> picked;             // each question's picked choice, −1 for none yet
  int right = 0;                       // how many picks are right
  std::string feedback, explanation;   // for the shown question once picked ("" before)
  std::vector<std::string> questions;  // every question's prompt
};
QuizView quiz_view(const AppState& state);

// --- what a step lights
// Is `term` one of the current step's formula terms (while walking)?
bool walk_term_lit(const AppState& state, Term term);
// Is `panel` one the current step is about? Always true when not walking.
bool walk_panel_lit(const AppState& state, scene::link::Panel panel);
// The query row the grids mark while walking (the row the numbers follow).
int walk_lit_row(const AppState& state);
// Its tab clicked: the walk starts at its first step.
void start_walk(AppState& state);
// A link's step= or the command line's --step N / --quiz Q (its row's apply_start hook): the walk at
// step N (1-based, clamped to the scene's last; in the walk without a step: its first), the quiz at
// question Q.
void walk_apply_start(AppState& state, const LinkStart& start);
// The desktop's --step N and --quiz Q (walk_page.cpp; not in the web's builds).
extern const ModeFlag kWalkFlags[2];

// Each frame before the panels, whatever the mode: Esc closes the quiz or leaves the walk; while
// walking ←/→ step (not while typing in a field).
void handle_walk_keys(AppState& state);

// The step card (inside the current child window).
void draw_walk_card(AppState& state, const Fonts& fonts);
// Its height for a given width (the layout reserves it).
float walk_card_height(const AppState& state, const Fonts& fonts, float width);

// The layout: Explore's panels with the step card (walk_layout.cpp).
void layout_walk(Screen& screen);

// --- the quiz
// Open the quiz at question `q` (0-based).
void open_quiz(AppState& state, int q = 0);
// Its button at the right end of the mode bar, "Check yourself ✓" (it opens from any mode), and the
// button's width.
void draw_quiz_button(AppState& state);
float quiz_button_width();
// Once per frame after the panels: the quiz window when it is open.
void draw_quiz_window(AppState& state, const Fonts& fonts);

// --- its part of the page API (walk_page.cpp; the row's page hooks, modes/modes.hpp)
void walk_page_state(const AppState& state, PageJson& ui);  // "step": walk_index
PageJson walk_page_call(AppState& state, std::string_view call, std::string_view arg);
void walk_page_rects(const AppState& state, PageJson& rects);  // "walk": the step, "quiz"
int walk_link_step(const AppState& state);                     // the link's step=: walk_index + 1

}  // namespace ui
