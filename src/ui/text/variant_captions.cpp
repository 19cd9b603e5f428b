// variant_captions.cpp — the Weights grid's caption for a scene with variant keys (the build with
// every mode; grid_captions.hpp): what the weights are under the variants on, since "softmax of each
// row, every row sums to 1" is no longer true of all of them.
#include <cmath>
#include <string>

#include "scene/variant_keys.hpp"
#include "ui/text/grid_captions.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"

namespace ui::captions {

std::string variant_weights_hint(const scene::Scene& s) {
  if (!s.variants) return {};
  const attn::Variants& v = s.variants->core;
  std::string hint;
  auto add = [&](std::string part) { hint += (hint.empty() ? "" : " ") + std::move(part); };
  if (v.linear) add(tr(Text::VariantsWeightsLinear));
  if (v.differential) add(fill(tr(Text::VariantsWeightsDifferential), {format_number(v.lambda, 2)}));
  if (!v.sink_logit.empty()) add(tr(Text::VariantsWeightsSink));
  if (v.softcap != 0.0) add(fill(tr(Text::VariantsWeightsSoftcap), {format_number(v.softcap, 2)}));
  if (v.topk != 0) add(fill(tr(Text::VariantsWeightsTopk), {std::to_string(v.topk)}));
  if (v.qk_norm) add(tr(Text::VariantsWeightsQkNorm));
  if (v.gate.size() != 0 || s.variants->Wg.size() != 0) add(tr(Text::VariantsWeightsGate));
  return hint;
}

std::string variant_weights_title(const scene::Scene& s, const std::string& term) {
  if (!s.variants) return {};
  const attn::Variants& v = s.variants->core;
  if (v.linear) return tr(Text::VariantsWeightsTitleLinear);  // no softmax, no scale
  // The scaled scores inside the softmax: capped by c·tanh(·/c) first with a softcap.
  const std::string inner = v.softcap != 0.0 ? "c·tanh(" + term + " / c)" : term;
  // Two softmax maps from the halves of each head's q and k (the hint says what A₁ and A₂ are): the
  // whole formula is the formula strip's, too long for the panel's title.
  if (v.differential) return tr(Text::VariantsWeightsTitleDifferential);
  if (v.softcap != 0.0) return fill(tr(Text::WeightsTitle), {inner});
  return {};
}

}  // namespace ui::captions
