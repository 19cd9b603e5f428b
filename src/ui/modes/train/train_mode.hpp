// train_mode.hpp — the Train mode: watch attention learn a toy task (core/train.hpp).
//
// The mode's panels: Train (task, Play / Pause / Step, learning rate, seed, heads, pace, step / loss /
// accuracy), Loss (the loss curve and the accuracy over the steps) and Predictions (the sample
// sequence, what each position must name and what the model names now). The Weights panel beside
// them is the ordinary one: the scene on screen IS the model on its sample sequence (a projected,
// causal, version-2 scene with W_o), updated after every step, so Pause leaves a normal scene to
// inspect, drag, share or open in any other mode. Play and Step continue from the scene's weights
// when they were edited by hand.
//
// Budget: train_tick runs whole steps at the chosen pace but stops starting new work once 6 ms of
// CPU time have gone into this frame (the frame's total budget is 8 ms), so the UI never stalls.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/panel_draw.hpp"

namespace ui {

struct Screen;

// Once per frame in the Train mode, before the panels: create the run on first use, advance it.
void train_tick(AppState& state);
PanelDraw draw_train_panel, draw_train_curve, draw_train_predictions;
// The layout: controls above the loss curve, the weights above the predictions (train_layout.cpp).
void layout_train(Screen& screen);

// Play / Pause / one Step / a new run with the current settings (page API, keyboard, tests).
void train_play(AppState& state, bool play);
void train_step(AppState& state);

// Its part of the page API (train_page.cpp; the row's page_call hook, modes/modes.hpp): "get".
PageJson train_page_call(AppState& state, std::string_view call, std::string_view arg);

}  // namespace ui
