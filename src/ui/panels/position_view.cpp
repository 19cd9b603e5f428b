// position_view.cpp — one query/key pair's score against their distance, under RoPE and under
// ALiBi (variant_parts.hpp), past a chosen training length L.
//
// For the pair (q_i, k_j) of the focused head (unrotated, 1×d_head) and the key δ = 0 … 2L tokens
// before the query:
//   RoPE:   (R(0) q_i) · (R(−δ) k_j) / s        (core/rope.hpp: rope_dot_by_distance)
//   ALiBi:  q_i · k_j / s − m_h · δ              (core/alibi.hpp: the head's slope m_h)
// Past L (shaded) a model trained on sequences of length L meets distances it never saw: RoPE's
// pairs turn to angles never trained on and the score swings; ALiBi's keeps falling on its line —
// "Train Short, Test Long" (Press et al. 2022).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/alibi.hpp"
#include "core/rope.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

void draw_position_view(AppState& state, const Fonts& fonts) {
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = s.n();
  if (n < 1 || r.Q.rows() != n || r.K.rows() != n) return;
  const float em = ImGui::GetFontSize();
  // The pair: the hovered cell of a grid (a key at or before the query), else the last query and
  // the first key.
  const bool hovered = state.ui.frame.shown.hovered_row >= 0 && state.ui.frame.shown.hovered_row < n && state.ui.frame.shown.hovered_col >= 0 &&
                       state.ui.frame.shown.hovered_col <= state.ui.frame.shown.hovered_row;
  const int i = hovered ? state.ui.frame.shown.hovered_row : n - 1, j = hovered ? state.ui.frame.shown.hovered_col : 0;
  int& L = state.ui.position_train_len;

  ImGui::PushFont(fonts.small);
  wrapped_text(fill(tr(Text::PosTitle), {fit_text(s.tokens[std::size_t(i)], 6.0f * em),
                                         fit_text(s.tokens[std::size_t(j)], 6.0f * em)}));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::PosTrainLength));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(10.0f * em, ImGui::GetContentRegionAvail().x));
  if (slider_int(state, "positions/train-length", "##train-length", &L, 2, 64, "L = %d",
                 {2, 64, "training length"}))
    L = std::clamp(L, 2, 64);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::PosTrainTip));

  // The two curves over δ = 0 … 2L.
  const int D = 2 * L;
  const double s_div = r.divisor > 0 ? r.divisor : 1.0;
  const double plain = r.Q.row(i).dot(r.K.row(j)) / s_div;
  const int head = std::clamp(state.ui.focus_head, 0, std::max(s.heads, 1) - 1);
  const double m = attn::alibi_slope(head, std::max(s.heads, 1));
  std::vector<double> alibi(std::size_t(D) + 1), rope;
  for (int d = 0; d <= D; ++d) alibi[std::size_t(d)] = plain - m * d;
  if (r.Q.cols() % 2 == 0) {  // RoPE turns pairs: an even head size
    const std::vector<double> dots = attn::rope_dot_by_distance(r.Q.row(i), r.K.row(j), s.rope, D);
    for (int d = 0; d <= D; ++d) rope.push_back(dots[std::size_t(D - d)] / s_div);  // key δ before: Δ = −δ
  }
  double lo = 0, hi = 0;
  for (double v : alibi) lo = std::min(lo, v), hi = std::max(hi, v);
  for (double v : rope) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi - lo < 1e-12) hi = lo + 1.0;

  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = 5.5f * em, pad_b = 1.2f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), palette::track(), 0.2f * em);
  auto X = [&](int d) { return p.x + 0.5f * em + (w - em) * float(d) / float(D); };
  auto Y = [&](double v) { return p.y + 0.4f * em + (h - pad_b - 0.4f * em) * float((hi - v) / (hi - lo)); };
  // Past the training length: shaded, named.
  dl->AddRectFilled(ImVec2(X(L), p.y), ImVec2(p.x + w, p.y + h - pad_b),
                    palette::with_alpha(palette::text_dim(), 40));
  dl->AddText(ImVec2(X(L) + 0.3f * em, p.y + 0.2f * em), palette::text_dim(), tr(Text::PosPast));
  dl->AddLine(ImVec2(p.x, Y(0.0)), ImVec2(p.x + w, Y(0.0)), palette::panel_border(), 1.0f);  // score 0
  const float thick = std::max(1.5f, 0.12f * em);
  auto curve = [&](const std::vector<double>& v, ImU32 color) {
    std::vector<ImVec2> line;
    for (int d = 0; d <= D; ++d) line.emplace_back(X(d), Y(v[std::size_t(d)]));
    dl->AddPolyline(line.data(), int(line.size()), color, 0, thick);
    for (int d = 0; d < n && d <= D; ++d) dl->AddCircleFilled(line[std::size_t(d)], 0.15f * em, color);
  };
  if (!rope.empty()) curve(rope, palette::key());
  curve(alibi, palette::accent());
  // This pair's own distance.
  const int now = std::min(i - j, D);
  dl->AddLine(ImVec2(X(now), p.y), ImVec2(X(now), p.y + h - pad_b), palette::query(), 1.0f);
  // Axis: δ = 0, L, 2L.
  const float ty = p.y + h - pad_b + 0.05f * em;
  dl->AddText(ImVec2(X(0) - 0.2f * em, ty), palette::text_dim(), "δ = 0");
  const std::string mid = "L = " + std::to_string(L), right = std::to_string(D);
  dl->AddText(ImVec2(X(L) - 0.5f * ImGui::CalcTextSize(mid.c_str()).x, ty), palette::text_dim(), mid.c_str());
  dl->AddText(ImVec2(p.x + w - ImGui::CalcTextSize(right.c_str()).x - 0.3f * em, ty), palette::text_dim(),
              right.c_str());
  dummy(state, "positions/plot", ImVec2(w, h));
  // The legend, with each curve's value at 2L.
  auto swatch = [&](ImU32 color, const std::string& text) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float y = a.y + 0.5f * ImGui::GetTextLineHeight();
    dl->AddLine(ImVec2(a.x, y), ImVec2(a.x + em, y), color, thick);
    ImGui::SetCursorScreenPos(ImVec2(a.x + 1.3f * em, a.y));
    ImGui::TextUnformatted(text.c_str());
  };
  if (!rope.empty())
    swatch(palette::key(), "RoPE: " + format_number(rope.front(), 3) + " → " + format_number(rope.back(), 3));
  else
    ImGui::TextDisabled("%s", fill(tr(Text::PosNoRope), {std::to_string(r.Q.cols())}).c_str());
  swatch(palette::accent(), fill(tr(Text::PosAlibiHead), {std::to_string(head), format_number(m, 4)}) + ": " +
                                format_number(alibi.front(), 3) + " → " + format_number(alibi.back(), 3));
  ImGui::PopFont();
}

}  // namespace ui
