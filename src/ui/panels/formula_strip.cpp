// formula_strip.cpp — Y = softmax( QKᵀ / √d_k + M ) V across the top bar, each term hoverable, and
// the caption that says what the hovered term means.
#include <string>
#include <vector>

#include "core/lookup.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/scale_texts.hpp"

namespace ui {

namespace {

// What each hoverable term means; Scale's caption depends on the scale mode (term_caption), and
// Term::None (nothing hovered) says how to use the strip.
constexpr attn::Row<Term, Text> kTermCaptions[] = {
    {Term::Output, Text::TermOutput},   {Term::Weights, Text::TermWeights}, {Term::Scores, Text::TermScores},
    {Term::Queries, Text::TermQueries}, {Term::Keys, Text::TermKeys},       {Term::Values, Text::TermValues},
    {Term::Tokens, Text::TermTokens},   {Term::Mask, Text::TermMask},       {Term::Bias, Text::TermBias},
};

}  // namespace

const char* term_caption(const AppState& state, Term term) {
  if (term == Term::Scale) return tr(scale_texts(state.scene.scale.mode).formula_help);
  return tr(attn::lookup(kTermCaptions, term, Text::TermNone));
}

void draw_formula_strip(AppState& state, const Fonts& fonts, ImVec2 center, float max_width) {
  struct Segment {
    std::string text;
    Term term;
    ImU32 color;
  };
  // The formula as the scene computes it: no divisor without scaling, "/ √d_k", or "/ T" with T's
  // value after the formula.
  const attn::ScaleMode mode = state.scene.scale.mode;
  const bool has_mask = state.scene.causal || state.scene.mask.size() > 0;
  std::vector<Segment> segments = {
      {"Y", Term::Output, palette::text()},         {"=", Term::None, palette::text_dim()},
      {"softmax(", Term::Weights, palette::text()}, {"Q", Term::Queries, palette::query()},
      {"Kᵀ", Term::Keys, palette::key()},
  };
  if (*scale_texts(mode).formula)
    segments.push_back({scale_texts(mode).formula, Term::Scale, palette::text()});
  if (state.scene.alibi) segments.push_back({"+ B", Term::Bias, palette::text()});  // ALiBi's bias
  segments.push_back({"+ M", Term::Mask, has_mask ? palette::text() : palette::text_dim()});
  segments.push_back({")", Term::Weights, palette::text()});
  segments.push_back({"V", Term::Values, palette::value()});
  if (mode == attn::ScaleMode::Temperature) {
    segments.push_back(
        {",  T = " + format_number(state.scene.scale.temperature, 3), Term::Scale, palette::text_dim()});
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* font = fonts.formula;
  float size = font->FontSize;
  const float space = 0.3f * size;
  auto width_of = [&](const std::string& t) { return font->CalcTextSizeA(size, 1e9f, 0, t.c_str()).x; };
  float total = 0;
  for (const Segment& s : segments) total += width_of(s.text) + space;
  total -= space;
  if (total > max_width && total > 0) {  // shrink to fit a narrow display
    size *= max_width / total;
    total = max_width;
  }
  const float sp = 0.3f * size;
  float x = center.x - 0.5f * total;
  const float y = center.y - 0.5f * size;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool window_hovered = ImGui::IsWindowHovered();
  for (const Segment& s : segments) {
    const float w = font->CalcTextSizeA(size, 1e9f, 0, s.text.c_str()).x;
    const ImVec2 a(x - 0.15f * size, y - 0.1f * size), b(x + w + 0.15f * size, y + 1.1f * size);
    if (s.term != Term::None && window_hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y &&
        mouse.y < b.y) {
      state.next_hovered_term = s.term;
    }
    const bool lit = s.term != Term::None && term_lit(state, s.term);
    if (lit) dl->AddRectFilled(a, b, palette::accent_soft(), 0.2f * size);
    dl->AddText(font, size, ImVec2(x, y), lit ? palette::accent() : s.color, s.text.c_str());
    x += w + sp;
  }
}

}  // namespace ui
