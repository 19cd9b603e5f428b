// grid_captions.cpp — see grid_captions.hpp.
#include "ui/grid_captions.hpp"

#include <cmath>

#include "ui/number_format.hpp"
#include "ui/scale_texts.hpp"

namespace ui::captions {
namespace {

bool any_masked_cell(const attn::Result& r) {
  return r.allowed.size() != 0 && !r.allowed.all();
}

}  // namespace

double grid_value(Grid grid, const attn::Result& r, int i, int j) {
  switch (grid) {
    case Grid::Raw:
      return r.scores(i, j);
    case Grid::Scaled:
      return r.allowed(i, j) ? r.scaled(i, j) : -INFINITY;
    case Grid::Weights:
      return r.weights(i, j);
  }
  return 0.0;
}

std::string scaled_term(const scene::Scene& s) {
  return scale_texts(s.scale.mode).scaled_term;
}

Caption grid_caption(Grid grid, const scene::Scene& s, const attn::Result& r) {
  const bool masked = any_masked_cell(r);
  const std::string divisor = divisor_equation(s, r.divisor);
  Caption c;
  switch (grid) {
    case Grid::Raw:
      c.title = "Scores  QKᵀ";
      c.tab = "QKᵀ";
      c.hint =
          "score(i, j) = q_i · k_j: row i asks (query), column j answers (key). Values are not part of it.";
      if (masked) c.hint += " Hatched pairs are hidden later, by the mask M; their raw score is shown.";
      c.masked = "hidden later by M";
      break;
    case Grid::Scaled: {
      const std::string term = scaled_term(s);
      const bool scaled = s.scale.mode != attn::ScaleMode::None;
      c.title = std::string(scaled ? "Scaled + masked  " : "Masked  ") + term + " + M";
      c.tab = scale_texts(s.scale.mode).caption_tab;
      c.hint = scaled ? "Each score ÷ " + divisor + ", then + M: " : "No scaling (÷ 1), then + M: ";
      c.hint += masked ? "−∞ where a key is hidden. This is what softmax sees."
                       : "M is all zeros here, nothing is hidden. This is what softmax sees.";
      c.masked = "masked: −∞";
      break;
    }
    case Grid::Weights: {
      const std::string term = scaled_term(s);
      c.title = "Weights  A = softmax(" + term + " + M)";
      bool masked_row = !r.masked_rows.empty();
      c.hint = "Softmax of each row of " + term + (divisor.empty() ? " (no scaling)" : " (" + divisor + ")") +
               ": weights in [0, 1], and every row sums to 1" +
               (masked_row ? " (a row whose every key is hidden: all 0)." : ".");
      c.masked = "masked: 0";
      break;
    }
  }
  return c;
}

}  // namespace ui::captions
