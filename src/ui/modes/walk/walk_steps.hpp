// walk_steps.hpp — the guided walk through Y = softmax(QKᵀ / s + M) V, as data (no ImGui).
//
//   X → Q, K, V → QKᵀ → ÷ s → + M → softmax → · V → Y
//
// Each step has a title, two or three plain sentences (they follow the scene: a scene without
// scaling or without a mask says so), and one sentence of live numbers for the selected query row,
// rebuilt from the current result every frame, e.g. for practice-qkv row 0:
//   "Row 'the': scores 0, 1, 1 → no scaling → 0, 1, 1."
// A scene given directly as Q, K, V has no X: its walk starts at "Q, K, V" (7 steps, else 8).
// The UI (walk mode) decides what each step lights; this file only holds the words and numbers.
#pragma once

#include <string>
#include <vector>

#include "core/attention.hpp"
#include "scene/scene.hpp"
#include "ui/modes/walk/walk_state.hpp"  // walk::Stage

namespace ui::walk {

// The stages a walk over `scene` visits: all 8, or 7 without Inputs for a direct scene.
std::vector<Stage> stages_for(const scene::Scene& scene);

// The stage's short name as the pipeline shows it: "X", "Q, K, V", "QKᵀ", "÷ √d_k" ("÷ T",
// "÷ 1" without scaling), "+ M", "softmax", "· V", "Y".
std::string stage_symbol(Stage stage, const scene::Scene& scene);

// Title ("Scores: Q Kᵀ") and the step's two or three sentences for this scene.
struct StepText {
  std::string title;
  std::string body;
};
StepText step_text(Stage stage, const scene::Scene& scene);

// The live-number sentence for query row `row` of `result` (computed from `scene`), e.g.
//   Scale, √d_k: "Row 'cat': scores 0, 2, 1 → ÷ 1.414 → 0, 1.41, 0.71."
// Scores and scaled scores print with 2 decimals, weights and outputs with 3, trailing zeros
// dropped ("1", "0.71"); rows longer than 6 entries end in "… (N more)". Empty when `row` is
// outside the result.
std::string live_numbers(Stage stage, const scene::Scene& scene, const attn::Result& result, int row);

// How a row is named in the sentences: "Row 'cat'" (the label, cut to 16 characters), or "Row 2"
// when the label is empty.
std::string row_name(const scene::Scene& scene, int row);

// A number as the sentences print it: `decimals` decimals, trailing zeros and a bare point dropped
// ("0.710" → "0.71", "1.000" → "1"), a real minus sign, "−∞" for minus infinity.
std::string short_number(double value, int decimals);

}  // namespace ui::walk
