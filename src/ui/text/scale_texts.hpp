// scale_texts.hpp — every text that depends on the scale mode, in one table (one row per mode),
// and the divisor written out. Read by the formula strip, the Controls panel, the heatmap panels,
// the grid captions and the walk-through, so a new mode or a reworded one changes here only.
#pragma once

#include <string>

#include "core/attention.hpp"
#include "scene/scene.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"

namespace ui {

struct ScaleTexts {
  const char* scaled_term;  // what softmax is applied to: "QKᵀ / √d_k"
  const char* divide;       // the step's symbol: "÷ √d_k"
  const char* formula;      // its segment in the formula strip ("" = none): "/ √d_k"
  const char* caption_tab;  // the scaled grid's tab: "÷ √d_k + M"
  // Words, in the current language (tr()):
  Text formula_help;   // tooltip of the formula strip's scale term
  Text controls_hint;  // under the Controls' scale buttons (√d_k adds its value)
  Text step_title;     // walk-through step "Scale"
  Text step_body;
};

inline const ScaleTexts& scale_texts(attn::ScaleMode mode) {
  static const ScaleTexts table[] = {
      // attn::ScaleMode::None
      {"QKᵀ", "÷ 1", "", "+ M", Text::ScaleNoneHelp, Text::ScaleNoneControls, Text::ScaleNoneTitle,
       Text::ScaleNoneBody},
      // attn::ScaleMode::SqrtDk
      {"QKᵀ / √d_k", "÷ √d_k", "/ √d_k", "÷ √d_k + M", Text::ScaleSqrtHelp, Text::ScaleSqrtControls,
       Text::ScaleSqrtTitle, Text::ScaleSqrtBody},
      // attn::ScaleMode::Temperature
      {"QKᵀ / T", "÷ T", "/ T", "÷ T + M", Text::ScaleTempHelp, Text::ScaleTempControls, Text::ScaleTempTitle,
       Text::ScaleTempBody},
  };
  return table[static_cast<int>(mode)];
}

// The divisor written out with 3 significant digits: "√d_k = √8 = 2.828", "√(d_k/h) = √2 = 1.414"
// (multi-head), "T = 0.5"; "" without scaling.
inline std::string divisor_equation(const scene::Scene& s, double divisor) {
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      return "";
    case attn::ScaleMode::SqrtDk:
      // A multi-head scene divides by the root of each head's size.
      return (s.heads > 1 ? "√(d_k/h) = √" + std::to_string(s.d_k() / s.heads)
                          : "√d_k = √" + std::to_string(s.d_k())) +
             " = " + format_number(divisor, 3);
    case attn::ScaleMode::Temperature:
      return "T = " + format_number(divisor, 3);
  }
  return "";
}

}  // namespace ui
