// rope_controls.cpp — RoPE in the Controls panel: on/off, base, layout, offset (the scene key
// "rope", core/rope.hpp), and a plot of one query/key pair's score against their distance.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/rope.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

// An integer with a real minus sign ("−5"), like format_number.
std::string signed_int(int x) {
  return x < 0 ? "−" + std::to_string(-x) : std::to_string(x);
}

// The plot: (R(0) q_i) · (R(Δ) k_j) for Δ = −D … D, the pair's score if the key sat Δ tokens after
// the query. The Scores panel's cell (i, j) is the point at Δ = j − i.
void draw_distance_plot(AppState& state, const Fonts& fonts) {
  const attn::Result& r = state.result;
  const int n = state.scene.n();
  // The pair: the hovered cell of a grid, else the last query and the first key.
  const bool hovered =
      state.ui.frame.shown.hovered_row >= 0 && state.ui.frame.shown.hovered_row < n && state.ui.frame.shown.hovered_col >= 0 && state.ui.frame.shown.hovered_col < n;
  const int i = hovered ? state.ui.frame.shown.hovered_row : n - 1, j = hovered ? state.ui.frame.shown.hovered_col : 0;
  const int D = std::max(n - 1, 8);
  const std::vector<double> dots = attn::rope_dot_by_distance(r.Q.row(i), r.K.row(j), state.scene.rope, D);
  double lo = 0, hi = 0;
  for (double v : dots) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (hi - lo < 1e-12) hi = lo + 1.0;

  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  const std::string title =
      fill(tr(Text::RopePlotTitle), {fit_text(state.scene.tokens[std::size_t(i)], 6.0f * em),
                                     fit_text(state.scene.tokens[std::size_t(j)], 6.0f * em)});
  wrapped_text(title);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = 4.5f * em, pad_b = 1.2f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), palette::track(), 0.2f * em);
  auto X = [&](int k) { return p.x + 0.5f * em + (w - em) * float(k) / float(2 * D); };
  auto Y = [&](double v) { return p.y + 0.4f * em + (h - pad_b - 0.4f * em) * float((hi - v) / (hi - lo)); };
  dl->AddLine(ImVec2(p.x, Y(0.0)), ImVec2(p.x + w, Y(0.0)), palette::panel_border(), 1.0f);      // q·k = 0
  dl->AddLine(ImVec2(X(D), p.y), ImVec2(X(D), p.y + h - pad_b), palette::panel_border(), 1.0f);  // Δ = 0
  std::vector<ImVec2> line;
  for (int k = 0; k <= 2 * D; ++k) line.emplace_back(X(k), Y(dots[std::size_t(k)]));
  dl->AddPolyline(line.data(), int(line.size()), palette::key(), 0, std::max(1.5f, 0.12f * em));
  // Every Δ that occurs in this scene, and the picked pair's.
  for (int delta = -(n - 1); delta <= n - 1; ++delta)
    dl->AddCircleFilled(line[std::size_t(delta + D)], 0.18f * em, palette::text_dim());
  const ImVec2 now = line[std::size_t(j - i + D)];
  dl->AddCircleFilled(now, 0.32f * em, palette::query());
  const std::string label = "Δ = " + signed_int(j - i) + ": " + format_number(r.scores(i, j), 3);
  const float lw = ImGui::CalcTextSize(label.c_str()).x;
  dl->AddText(ImVec2(std::clamp(now.x - 0.5f * lw, p.x + 0.2f * em, p.x + w - lw - 0.2f * em),
                     now.y > p.y + 0.5f * h ? now.y - 1.4f * em : now.y + 0.4f * em),
              palette::text(), label.c_str());
  const std::string left = signed_int(-D), right = "+" + std::to_string(D);
  dl->AddText(ImVec2(p.x + 0.3f * em, p.y + h - pad_b + 0.05f * em), palette::text_dim(), left.c_str());
  dl->AddText(ImVec2(X(D) - 0.3f * em, p.y + h - pad_b + 0.05f * em), palette::text_dim(), "0");
  dl->AddText(
      ImVec2(p.x + w - ImGui::CalcTextSize(right.c_str()).x - 0.3f * em, p.y + h - pad_b + 0.05f * em),
      palette::text_dim(), right.c_str());
  dummy(state, "rope/plot", ImVec2(w, h));
  ImGui::PopFont();
}

}  // namespace

void draw_rope_controls(AppState& state, const Fonts& fonts) {
  const scene::Scene& s = state.scene;
  const float em = ImGui::GetFontSize();
  // The labels' column: as wide as the widest label in this language.
  float label_w = 5.2f * em;
  for (Text t : {Text::RopeBase, Text::RopePairs, Text::RopeOffset})
    label_w = std::max(label_w, ImGui::GetCursorPosX() + ImGui::CalcTextSize(tr(t)).x + 0.8f * em);
  bool on = s.rope_on;
  if (checkbox(state, "rope/on", "RoPE", &on)) set_rope_on(state, on);
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", tr(Text::RopeTurned));
  ImGui::PopFont();
  note_row_bottom(state.ui.frame.controls_rows);  // rows a Controls panel cut short may end after
  if (!s.rope_on) return;

  auto row_label = [&](const char* text) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text);
    ImGui::SameLine(label_w);
  };
  row_label(tr(Text::RopeBase));
  ImGui::SetNextItemWidth(-FLT_MIN);
  double base = s.rope.base;
  if (slider_double(state, "rope/base", "##rope-base", &base, 2.0, 1e6, tr(Text::RopeBaseFormat),
                    ImGuiSliderFlags_Logarithmic))
    set_rope_base(state, base);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::RopeBaseTip));
  note_row_bottom(state.ui.frame.controls_rows);

  row_label(tr(Text::RopePairs));
  int layout = int(s.rope.layout);
  bool changed = false;
  {
    const Group group(state, "rope/layout");
    changed |= ImGui::RadioButton(tr(Text::RopeInterleaved), &layout, int(attn::RopeLayout::Interleaved));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::RopeInterleavedTip));
    ImGui::SameLine();
    changed |= ImGui::RadioButton(tr(Text::RopeHalf), &layout, int(attn::RopeLayout::Half));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::RopeHalfTip));
  }
  note_row_bottom(state.ui.frame.controls_rows);
  if (changed) set_rope_layout(state, attn::RopeLayout(layout));

  row_label(tr(Text::RopeOffset));
  ImGui::SetNextItemWidth(-FLT_MIN);
  int offset = s.rope.offset;
  if (slider_int(state, "rope/offset", "##rope-offset", &offset, 0, 100, tr(Text::RopeOffsetFormat),
                 {0, 100, "RoPE offset"}))
    set_rope_offset(state, offset);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::RopeOffsetTip));
  note_row_bottom(state.ui.frame.controls_rows);
  if (state.computed && state.result.Q_rope.size() != 0) draw_distance_plot(state, fonts);
}

}  // namespace ui
