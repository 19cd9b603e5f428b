// tooltips.cpp — the derivation tooltips of a heatmap cell (declared in panel_parts.hpp): a score
// as q_i · k_j term by term, a weight from its score through the division and the softmax with the
// row's max and Σ (the core's Result::row_max and row_sum). Every line is also kept as text for the
// page API (getState().ui.tooltip).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {
namespace {

// Σ_c q_i[c]·k_j[c] written out term by term (at most 6 terms, then "+ …").
// With RoPE the scores are dot products of the turned Q and K (scene key rope).
const attn::Matrix& scored_queries(const attn::Result& r) {
  return r.Q_rope.size() ? r.Q_rope : r.Q;
}
const attn::Matrix& scored_keys(const attn::Result& r) {
  return r.K_rope.size() ? r.K_rope : r.K;
}

std::string dot_product_terms(const attn::Result& r, int i, int j) {
  std::string s;
  const attn::Matrix &Q = scored_queries(r), &K = scored_keys(r);
  const int d_k = int(Q.cols());
  const int shown = std::min(d_k, 6);
  for (int c = 0; c < shown; ++c) {
    if (c > 0) s += " + ";
    s += format_number(Q(i, c), 2) + "·" + format_number(K(j, c), 2);
  }
  if (shown < d_k) s += " + …";
  return s;
}

// The key size the divisor's square root is taken of: "√d_k = √8", or per head "√(d_k/h) = √4".
std::string root_text(const scene::Scene& s) {
  return s.heads == 1 ? "√d_k = √" + std::to_string(s.d_k())
                      : "√(d_k/h) = √" + std::to_string(s.d_k() / s.heads);
}

std::string divisor_text(const scene::Scene& s, double divisor) {
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      return tr(Text::TipNoScaling);
    case attn::ScaleMode::SqrtDk:
      return "÷ " + root_text(s) + " = ÷ " + format_number(divisor, 3);
    case attn::ScaleMode::Temperature:
      return "÷ T = ÷ " + format_number(divisor, 3);
  }
  return "";
}

// q_i[c], k_j[c] and their product for c < shown: four columns under a dim header, each as wide as
// its widest cell. Laid out by hand: ImGui's tables would be several KB of the first load's wasm for
// this one tooltip.
void product_columns(const attn::Matrix& Q, const attn::Matrix& K, int i, int j, int shown) {
  constexpr int kColumns = 4;
  std::vector<std::array<std::string, kColumns>> rows{{"c", "q_i[c]", "k_j[c]", "q_i[c]·k_j[c]"}};
  for (int c = 0; c < shown; ++c)
    rows.push_back({std::to_string(c), format_number(Q(i, c), 3), format_number(K(j, c), 3),
                    format_number(Q(i, c) * K(j, c), 3)});
  std::array<float, kColumns> left{};  // each column's x from the row's start
  const float gap = 2.0f * ImGui::GetStyle().ItemSpacing.x;
  for (int k = 1; k < kColumns; ++k) {
    float widest = 0.0f;
    for (const auto& row : rows)
      widest = std::max(widest, ImGui::CalcTextSize(row[std::size_t(k - 1)].c_str()).x);
    left[std::size_t(k)] = left[std::size_t(k - 1)] + widest + gap;
  }
  const ImVec4 colour[kColumns] = {ImGui::GetStyle().Colors[ImGuiCol_Text], to_vec4(palette::query()),
                                   to_vec4(palette::key()), ImGui::GetStyle().Colors[ImGuiCol_Text]};
  const float x0 = ImGui::GetCursorPosX();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t k = 0; k < kColumns; ++k) {
      if (k > 0) ImGui::SameLine(x0 + left[k]);
      if (r == 0)
        ImGui::TextDisabled("%s", rows[r][k].c_str());
      else
        ImGui::TextColored(colour[k], "%s", rows[r][k].c_str());
    }
  }
}

// A tooltip line, also kept as text for the page API (getState().ui.tooltip).
void tooltip_line(AppState& state, const std::string& text, bool dim = false) {
  if (dim)
    ImGui::TextDisabled("%s", text.c_str());
  else
    ImGui::TextUnformatted(text.c_str());
  state.ui.frame.next.tooltip += text + "\n";
}

}  // namespace

void score_tooltip(AppState& state, int i, int j) {
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  ImGui::BeginTooltip();
  const std::string head =
      s.heads > 1 ? fill(tr(Text::TipHead), {std::to_string(state.ui.focus_head)}) + " " : std::string();
  tooltip_line(state, head + "QKᵀ[" + std::to_string(i) + "][" + std::to_string(j) + "] = q_" +
                          std::to_string(i) + " · k_" + std::to_string(j) + ": " +
                          fill(tr(Text::TipScoreAsks), {s.tokens[i], scene::key_labels(s)[j]}));
  if (r.Q_rope.size() != 0)
    ImGui::TextDisabled("%s", fill(tr(Text::TipRope), {std::to_string(i), std::to_string(s.rope.offset + i),
                                                       std::to_string(j), std::to_string(s.rope.offset + j)})
                                  .c_str());
  ImGui::Separator();
  const attn::Matrix &Q = scored_queries(r), &K = scored_keys(r);
  const int d_k = int(Q.cols());
  const int shown = std::min(d_k, 16);
  product_columns(Q, K, i, j, shown);
  if (shown < d_k)
    ImGui::TextDisabled("%s", fill(tr(Text::TipMoreComponents), {std::to_string(d_k - shown)}).c_str());
  tooltip_line(state, "Σ = " + format_number(r.scores(i, j), 3));
  if (!r.allowed(i, j)) {
    ImGui::TextColored(to_vec4(palette::error()), "%s", tr(Text::TipScoreMasked));
  } else {
    tooltip_line(
        state, fill(tr(Text::TipSoftmaxSees), {divisor_text(s, r.divisor), format_number(r.scaled(i, j), 3)}),
        true);
  }
  ImGui::EndTooltip();
}

// The derivation of weight a[i][j] of `r` (one head's stages; `head` ≥ 0 names it in a multi-head
// scene): q_i · k_j, the division, and the softmax with the row's max and Σ.
void weight_tooltip(AppState& state, const attn::Result& r, int head, int i, int j) {
  const scene::Scene& s = state.scene;
  ImGui::BeginTooltip();
  const std::string who = head >= 0 ? fill(tr(Text::TipHead), {std::to_string(head)}) + " " : std::string();
  const std::string si = std::to_string(i), sj = std::to_string(j);
  tooltip_line(state, who + "a[" + si + "][" + sj + "]: " +
                          fill(tr(Text::TipWeightWhat), {s.tokens[i], si, scene::key_labels(s)[j], sj}));
  ImGui::Separator();
  if (!r.allowed(i, j)) {
    tooltip_line(state, tr(Text::TipWeightMasked));
    tooltip_line(state, fill(tr(Text::TipKeyHidden), {sj, si}), true);
    ImGui::EndTooltip();
    return;
  }
  // Row statistics over the allowed cells, as the core computed them: the stable softmax subtracts
  // the row max m_i, and Σ_j exp(s_ij − m_i) normalizes.
  const double row_max = r.row_max[std::size_t(i)], denom = r.row_sum[std::size_t(i)];
  const double score = r.scores(i, j), scaled = r.scaled(i, j);
  // In head t, q and k are the head's columns of the token's query and key.
  const std::string q = head >= 0 ? "q_" + si + "^(" + std::to_string(head) + ")" : "q_" + si;
  const std::string k = head >= 0 ? "k_" + sj + "^(" + std::to_string(head) + ")" : "k_" + sj;
  tooltip_line(state, q + " · " + k + " = Σ " + q + "[c]·" + k + "[c] = " + dot_product_terms(r, i, j) +
                          " = " + format_number(score, 3));
  tooltip_line(state, divisor_text(s, r.divisor) + "  →  s = " + format_number(scaled, 3));
  tooltip_line(state, "exp(s − max) / Σ = exp(" + format_number(scaled, 3) + " − " +
                          format_number(row_max, 3) + ") / " + format_number(denom, 3) + " = " +
                          format_weight(r.weights(i, j), 6));
  tooltip_line(state, fill(tr(Text::TipRowRuns), {si}), true);
  const attn::ReadingAids* aids = head < 0 ? &reading_aids(state) : nullptr;
  if (aids && std::size_t(i) < aids->entropy.size()) {
    // Reading aids (core/reading_aids): how spread the row is, and where its largest weight sits.
    const int top = aids->argmax[std::size_t(i)];
    ImGui::Separator();
    tooltip_line(
        state,
        fill(tr(Text::TipEntropy),
             {si, format_number(aids->entropy[std::size_t(i)], 3),
              format_number(aids->uniform[std::size_t(i)], 3), std::to_string(r.allowed.row(i).count()),
              std::to_string(top) +
                  (top >= 0 ? " \"" + scene::key_labels(s)[std::size_t(top)] + "\"" : std::string())}));
  }
  ImGui::EndTooltip();
}

}  // namespace ui
