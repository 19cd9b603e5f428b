// grid_captions.hpp — what each n×n grid holds, and the words that describe it (no ImGui).
//
// Three grids show the stages of softmax(QKᵀ / s + M):
//   Raw      QKᵀ              every cell's dot product, masked cells too (QKᵀ has no −∞ in it)
//   Scaled   QKᵀ / s + M      what softmax sees: scores / s, −∞ where the mask hides a key
//   Weights  A = softmax(…)   in [0, 1], rows sum to 1 (a row with every key hidden: all 0)
// The panels draw grid_value() and print grid_caption(), so a test can check that every title,
// hint and legend label is true of the numbers under it (tests/walk_test.cpp, per scale mode and
// mask).
#pragma once

#include <string>

#include "core/attention.hpp"
#include "scene/scene.hpp"

namespace ui::captions {

enum class Grid { Raw, Scaled, Weights };

// The value cell (i, j) of `grid` holds: scores(i, j) (Raw), scaled(i, j) or −∞ where masked
// (Scaled), weights(i, j) (Weights).
double grid_value(Grid grid, const attn::Result& r, int i, int j);

// What softmax is applied to, as the formula strip writes it: "QKᵀ" (no scaling), "QKᵀ / √d_k",
// "QKᵀ / T".
std::string scaled_term(const scene::Scene& s);

struct Caption {
  std::string title;   // e.g. "Scaled + masked  QKᵀ / √d_k + M"
  std::string hint;    // one or two sentences under the title
  std::string masked;  // the legend's label of a masked (hatched) cell, e.g. "masked: −∞"
  std::string tab;     // short name on the Scores panel's tab ("QKᵀ", "÷ √d_k + M"); empty for Weights
};

Caption grid_caption(Grid grid, const scene::Scene& s, const attn::Result& r);
#if AL_ALL_MODES
// The Weights caption's hint for a scene with variant keys (variant_captions.cpp): what its weights
// are (negative with differential attention, rows below 1 with a sink, no softmax when linear, …);
// "" without variant keys.
std::string variant_weights_hint(const scene::Scene& s);
// Its title where "A = softmax(scaled + M)" would be wrong or hide a step: linear attention (no
// softmax), differential attention (two maps), a softcap (c·tanh first); "" otherwise. `term`: the
// scaled scores as the title writes them ("QKᵀ / √d_k").
std::string variant_weights_title(const scene::Scene& s, const std::string& term);
#endif

// Whether any cell of the result is masked (its `allowed` has a 0).
bool any_masked_cell(const attn::Result& r);

}  // namespace ui::captions
