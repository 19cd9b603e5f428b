// circuits_parts.hpp — pieces the Circuits mode's panels share (circuits_panels.cpp, circuits_grid.cpp).
#pragma once

#include <string>

#include "ui/app_state.hpp"

namespace ui {

constexpr int kGuideSteps = 5;

// A score as shown in the panels: two decimals ("0.62").
std::string score_text(double x);
// A vocabulary symbol as shown: the space as "·" (a blank would be invisible).
std::string symbol_text(const std::string& symbol);
// The guide's step (1-based) that points at the current panel: an accent border around it then.
void guide_outline(const AppState& state, int step);
// The guide's words for step 0 … kGuideSteps − 1 in the current language.
const char* guide_title(int step);
const char* guide_text(int step);
// The Export buttons: the model's weights as JSON, and the PyTorch script on the typed text.
void draw_circuits_exports(AppState& state);
// The texts those buttons save: "json" → the model contract (scene/model_json), "pytorch" →
// scene::model_pytorch_script on the typed text with the ablated heads off; "" for another kind.
std::string circuits_export_text(const AppState& state, const std::string& kind);

}  // namespace ui
