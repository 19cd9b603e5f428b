// formula_strip.cpp — Y = softmax( QKᵀ / √d_k + M ) V across the top bar, each term hoverable, and
// the caption that says what the hovered term means.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "core/lookup.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/scale_texts.hpp"
#if AL_ALL_MODES
#include "scene/variant_keys.hpp"
#endif

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

namespace {

struct Segment {
  std::string text;
  Term term;
  ImU32 color;
};

#if AL_ALL_MODES
// The formula as a scene with variant keys computes it (scene/variant_keys.hpp): QK-norm wraps Q and
// K, the softcap wraps the scaled scores, differential attention subtracts a second map, linear
// attention replaces the softmax, the gate multiplies the output; the settings follow the formula.
void add_variant_terms(const scene::Scene& s, std::vector<Segment>* out) {
  const attn::Variants& v = s.variants->core;
  std::vector<Segment>& seg = *out;
  auto find = [&](const char* text) {
    return std::find_if(seg.begin(), seg.end(), [&](const Segment& x) { return x.text == text; });
  };
  const ImU32 dim = palette::text_dim(), plain = palette::text();
  if (v.linear) {  // Y = (φ(Q) φ(K)ᵀ ⊙ M) V, each row divided by its sum
    seg = {{"Y", Term::Output, plain},
           {"=", Term::None, dim},
           {"rownorm(", Term::Weights, plain},
           {"φ(Q)", Term::Queries, palette::query()},
           {"φ(K)ᵀ", Term::Keys, palette::key()},
           {"⊙ M", Term::Mask, plain},
           {")", Term::Weights, plain},
           {"V", Term::Values, palette::value()},
           {",  φ = elu + 1", Term::None, dim}};
  } else {
    if (v.qk_norm) {
      if (auto q = find("Q"); q != seg.end()) q->text = "norm(Q)";
      if (auto k = find("Kᵀ"); k != seg.end()) k->text = "norm(K)ᵀ";
    }
    if (v.softcap != 0.0) {  // c·tanh( QKᵀ / s / c )
      if (auto q = find(s.variants->core.qk_norm ? "norm(Q)" : "Q"); q != seg.end())
        seg.insert(q, {"c·tanh(", Term::Scale, plain});
      auto mask = find("+ M");
      if (mask != seg.end() && mask != seg.begin() && std::prev(mask)->text == "+ B") --mask;
      if (mask != seg.end()) seg.insert(mask, {"/ c)", Term::Scale, plain});
    }
    if (v.differential) {  // (softmax(Q₁K₁ᵀ …) − λ softmax(Q₂K₂ᵀ …)) V
      const auto open = find("softmax("), close = find(")");
      if (open != seg.end() && close != seg.end() && open < close) {
        std::vector<Segment> first(open, close + 1), second = first;
        for (Segment& x : first) {
          if (x.text.find('Q') != std::string::npos) x.text.replace(x.text.find('Q'), 1, "Q₁");
          if (x.text.find('K') != std::string::npos) x.text.replace(x.text.find('K'), 1, "K₁");
        }
        for (Segment& x : second) {
          if (x.text.find('Q') != std::string::npos) x.text.replace(x.text.find('Q'), 1, "Q₂");
          if (x.text.find('K') != std::string::npos) x.text.replace(x.text.find('K'), 1, "K₂");
        }
        std::vector<Segment> both = {{"(", Term::Weights, plain}};
        both.insert(both.end(), first.begin(), first.end());
        both.push_back({"− λ", Term::Weights, plain});
        both.insert(both.end(), second.begin(), second.end());
        both.push_back({")", Term::Weights, plain});
        const std::ptrdiff_t at = open - seg.begin();
        seg.erase(open, close + 1);
        seg.insert(seg.begin() + at, both.begin(), both.end());
      }
    }
  }
  if (v.gate.size() != 0 || s.variants->Wg.size() != 0) seg.push_back({"⊙ σ(G)", Term::Output, plain});
  std::string settings;
  auto add = [&](const std::string& t) { settings += ",  " + t; };
  if (!v.sink_logit.empty()) {  // one z, or each head's: "sink z = 1.00 · 0.00 · 0.00"
    std::string z;
    for (std::size_t t = 0; t < v.sink_logit.size(); ++t)
      z += (t ? " · " : "") + format_number(v.sink_logit[t], 2);
    add("sink z = " + z);
  }
  if (v.softcap != 0.0) add("c = " + format_number(v.softcap, 2));
  if (v.differential) add("λ = " + format_number(v.lambda, 2));
  if (v.topk != 0) add("top-k k = " + std::to_string(v.topk));
  // Cross-attention: the formula is the same; K and V are the m sources', so QKᵀ is n×m.
  if (scene::is_cross_attention(s)) add("K, V: " + std::to_string(scene::key_count(s)) + " sources");
  // Latent attention: head t's keys and values come from the latent c (the cache), k_R is shared.
  if (scene::is_mla(s)) add("K_t = [c W_uk,t | k_R],  V_t = c W_uv,t,  c = X W_dkv");
  if (!settings.empty()) seg.push_back({settings, Term::None, dim});
}
#endif

// The formula as the scene computes it: no divisor without scaling, "/ √d_k", or "/ T" with T's
// value after the formula (and a variant scene's own terms).
std::vector<Segment> formula_segments(const AppState& state) {
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
#if AL_ALL_MODES
  if (state.scene.variants) add_variant_terms(state.scene, &segments);
#endif
  return segments;
}

}  // namespace

#if AL_ALL_MODES
std::string formula_text(const AppState& state) {
  std::string text;
  for (const Segment& s : formula_segments(state)) text += (text.empty() ? "" : " ") + s.text;
  return text;
}
#endif

void draw_formula_strip(AppState& state, const Fonts& fonts, ImVec2 center, float max_width) {
  const std::vector<Segment> segments = formula_segments(state);
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
      state.ui.frame.next.hovered_term = s.term;
    }
    const bool lit = s.term != Term::None && term_lit(state, s.term);
    if (lit) dl->AddRectFilled(a, b, palette::accent_soft(), 0.2f * size);
    dl->AddText(font, size, ImVec2(x, y), lit ? palette::accent() : s.color, s.text.c_str());
    x += w + sp;
  }
}

}  // namespace ui
