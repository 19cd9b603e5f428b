// grid_captions.cpp — see grid_captions.hpp.
#include "ui/text/grid_captions.hpp"

#include <cmath>
#include <cstring>

#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"
#include "ui/text/scale_texts.hpp"

namespace ui::captions {

bool any_masked_cell(const attn::Result& r) {
  // memchr: the grids ask every frame, and at n = 1024 a cell-by-cell scan of the unmasked 1024²
  // cells was most of a drawn frame's own CPU time (perf, the desktop app).
  return r.allowed.size() != 0 && std::memchr(r.allowed.data(), 0, std::size_t(r.allowed.size())) != nullptr;
}

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
      c.title = tr(Text::ScoresTitle);
      c.tab = "QKᵀ";
      c.hint = tr(Text::ScoresHint);
      if (masked) c.hint += tr(Text::ScoresHatched);
      c.masked = tr(Text::HiddenLaterByM);
      break;
    case Grid::Scaled: {
      const std::string term = scaled_term(s);
      const bool scaled = s.scale.mode != attn::ScaleMode::None;
      c.title = fill(tr(scaled ? Text::ScaledTitle : Text::MaskedTitle), {term});
      c.tab = scale_texts(s.scale.mode).caption_tab;
      c.hint = scaled ? fill(tr(Text::ScaledHint), {divisor}) : std::string(tr(Text::UnscaledHint));
      c.hint += " ";
      c.hint += tr(masked ? Text::ScaledHintMasked : Text::ScaledHintNothingMasked);
      c.masked = tr(Text::CellMaskedInf);
      break;
    }
    case Grid::Weights: {
      const std::string term = scaled_term(s);
      c.title = fill(tr(Text::WeightsTitle), {term});
      bool masked_row = !r.masked_rows.empty();
      c.hint =
          fill(tr(Text::WeightsHint), {term, divisor.empty() ? std::string(tr(Text::NoScaling)) : divisor}) +
          (masked_row ? tr(Text::WeightsMaskedRow) : "") + ".";
      c.masked = tr(Text::CellMaskedZero);
#if AL_ALL_MODES
      if (std::string variants = variant_weights_hint(s); !variants.empty()) c.hint = std::move(variants);
      if (std::string title = variant_weights_title(s, term); !title.empty()) c.title = std::move(title);
#endif
      break;
    }
  }
  return c;
}

}  // namespace ui::captions
