// output_panel.cpp — the Output Y = A V panel: each row of Y as bars with values.
#include <algorithm>
#include <cmath>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {
namespace {

// The rows' layout inside the scrolling child: a label column, then d_v boxes of `box_w`.
struct OutputRows {
  float label_w = 0, box_w = 0;
  float width = 0;  // a row's width (wider than the panel when the rows scroll sideways)
  float row_h = 0;
  int decimals = 3;
  double vmax = 1e-9;  // the bars' shared scale: max |v|
};

// The tooltip of y_i[c]: the sum of a_ij · v_j[c] over the visible keys (the first 8 written out).
void output_tooltip(const attn::Result& r, int i, int c, bool masked_row) {
  const int n = int(r.weights.cols());  // the keys (the sources' with cross-attention)
  ImGui::BeginTooltip();
  ImGui::Text("y_%d[%d] = Σ_j a[%d][j] · v_j[%d]", i, c, i, c);
  if (masked_row) {
    ImGui::TextDisabled("%s", tr(Text::OutputNoKeyTip));
  } else {
    std::string terms;
    int shown = 0;
    for (int j = 0; j < n; ++j) {
      if (!r.allowed(i, j)) continue;
      if (shown == 8) {
        terms += " + …";
        break;
      }
      if (shown > 0) terms += " + ";
      terms += format_weight(r.weights(i, j), 3) + "·" + format_number(r.V(j, c), 2);
      ++shown;
    }
    ImGui::Text("= %s", terms.c_str());
    ImGui::Text("= %s", format_number(r.output(i, c), 6).c_str());
  }
  ImGui::EndTooltip();
}

// A box per component at row top-left p: the value on top, below it a track with 0 in the middle,
// the bar from 0 to y, and a tick at every visible v_j[c] (brighter = larger weight a_ij).
// `one_hot_j`: the key whose weight is almost (not exactly) 1, or −1.
void draw_output_box(AppState& state, const Fonts& fonts, const OutputRows& rows, ImVec2 p, int i, int c,
                     int one_hot_j, bool masked_row) {
  const attn::Result& r = state.result;
  const int n = int(r.weights.cols());  // the keys (the sources' with cross-attention)
  const float em = ImGui::GetFontSize(), box_w = rows.box_w;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float x0 = p.x + rows.label_w + float(c) * (box_w + ImGui::GetStyle().ItemSpacing.x);
  const ImVec2 a(x0, p.y + 0.1f * em), b(x0 + box_w, p.y + rows.row_h - 0.25f * em);
  dl->AddRectFilled(a, b, palette::track(), 0.15f * em);
  const double y = r.output(i, c);
  ImGui::PushFont(fonts.small);
  // A near-one-hot row returns almost exactly one value row (the soft dictionary): show
  // enough digits that 1.000091 does not read as v_j's 1.000, as far as the box allows.
  std::string text = format_number(y, rows.decimals);
  if (one_hot_j >= 0) {
    const float room = box_w - 0.4f * em;
    const int max_chars = std::max(1, int(room / ImGui::CalcTextSize("0").x));
    for (int chars = max_chars; chars >= 4; --chars) {
      text = format_distinct(y, r.V(one_hot_j, c), rows.decimals, chars);
      if (ImGui::CalcTextSize(text.c_str()).x <= room) break;
    }
  }
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  dl->AddText(ImVec2(0.5f * (a.x + b.x - size.x), a.y + 0.1f * em), palette::text(), text.c_str());
  ImGui::PopFont();
  const float track_top = a.y + size.y + 0.2f * em, track_bottom = b.y - 0.2f * em;
  const float mid = 0.5f * (a.x + b.x);
  const float half = 0.5f * box_w - 0.3f * em;
  if (n <= 24) {
    for (int j = 0; j < n; ++j) {
      if (!r.allowed(i, j)) continue;
      const float x = mid + float(r.V(j, c) / rows.vmax) * half;
      const int alpha = 50 + int(205.0 * r.weights(i, j));
      dl->AddLine(ImVec2(x, track_top), ImVec2(x, track_bottom), palette::with_alpha(palette::value(), alpha),
                  std::max(1.0f, 0.1f * em));
    }
  }
  const float x = mid + float(y / rows.vmax) * half;
  const float inset = 0.22f * (track_bottom - track_top);
  dl->AddRectFilled(ImVec2(std::min(mid, x), track_top + inset),
                    ImVec2(std::max(mid, x), track_bottom - inset),
                    palette::with_alpha(palette::accent(), 220), 0.1f * em);
  dl->AddLine(ImVec2(mid, track_top), ImVec2(mid, track_bottom), palette::axis());

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
    state.ui.frame.next.hovered_row = i;
    state.ui.frame.next.hovered_term = Term::Output;
    output_tooltip(r, i, c, masked_row);
  }
}

// Row i: the token's label, its d_v boxes, and the notice of a row with no visible key.
void draw_output_row(AppState& state, const Fonts& fonts, const OutputRows& rows, int i) {
  const attn::Result& r = state.result;
  const int n = int(r.weights.cols()), d_v = int(r.output.cols());  // n: the keys
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  if (state.ui.frame.shown.hovered_row == i)
    dl->AddRectFilled(p, ImVec2(p.x + rows.width, p.y + rows.row_h - 0.15f * em), palette::accent_soft(),
                      0.2f * em);
  const std::string label = fit_text(state.scene.tokens[i], rows.label_w - 0.5f * em);
  dl->AddText(ImVec2(p.x, p.y + 0.5f * (rows.row_h - ImGui::GetTextLineHeight())), palette::text(),
              label.c_str());
  const bool masked_row = std::find(r.masked_rows.begin(), r.masked_rows.end(), i) != r.masked_rows.end();
  // The key whose weight is almost (not exactly) 1, if any: y_i is then almost v_j.
  int one_hot_j = -1;
  for (int j = 0; j < n && !masked_row; ++j) {
    const double w = r.weights(i, j);
    if (w < 1.0 && w > 0.9995) one_hot_j = j;
  }
  for (int c = 0; c < d_v; ++c) draw_output_box(state, fonts, rows, p, i, c, one_hot_j, masked_row);
  if (masked_row) {
    ImGui::PushFont(fonts.small);
    dl->AddText(ImVec2(p.x, p.y + rows.row_h - 0.55f * em), palette::error(), tr(Text::OutputNoKey));
    ImGui::PopFont();
  }
  ImGui::Dummy(ImVec2(rows.width, rows.row_h - ImGui::GetStyle().ItemSpacing.y));
}

}  // namespace

void draw_output_panel(AppState& state, const Fonts& fonts) {
  if (state.scene.heads > 1 || state.scene.Wo.size() != 0) {  // Y_t per head, concat, W_o
    draw_heads_output_panel(state, fonts);
    return;
  }
  panel_header(state, fonts, tr(Text::OutputTitle), tr(Text::OutputHint));
  if (!state.computed) return;
  const attn::Result& r = state.result;
  const int n = int(r.output.rows()), d_v = int(r.output.cols());
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();

  OutputRows rows;
  // Bars share one scale: |y| ≤ max |v| because each y is a convex blend of the value rows.
  for (int k = 0; k < r.V.size(); ++k) rows.vmax = std::max(rows.vmax, std::abs(r.V.data()[k]));

  // Leave one line below the rows for the check question.
  // Boxes share the width down to the narrowest that holds "−0.00"; beyond that (many components
  // in a narrow panel) the rows scroll sideways instead of being cut at the panel's edge.
  ImGui::PushFont(fonts.small);
  const float text3_w = ImGui::CalcTextSize("−0.000").x, text2_w = ImGui::CalcTextSize("−0.00").x;
  ImGui::PopFont();
  const float min_box_w = text2_w + 0.6f * em;
  const float outer_w = ImGui::GetContentRegionAvail().x;
  const float fit_box_w =
      (outer_w - std::min(6.0f * em, 0.25f * outer_w) - style.ItemSpacing.x * float(d_v)) / float(d_v);
  ImGui::BeginChild("##output", ImVec2(0, -check_question_height(fonts, kCheckOutput.question)), false,
                    fit_box_w < min_box_w ? ImGuiWindowFlags_HorizontalScrollbar : 0);
  rows.label_w = std::min(6.0f * em, 0.25f * ImGui::GetContentRegionAvail().x);
  rows.box_w = std::clamp(
      (ImGui::GetContentRegionAvail().x - rows.label_w - style.ItemSpacing.x * float(d_v)) / float(d_v),
      min_box_w, 14.0f * em);
  rows.width = std::max(ImGui::GetContentRegionAvail().x,
                        rows.label_w + float(d_v) * (rows.box_w + style.ItemSpacing.x));
  rows.decimals = rows.box_w >= text3_w + 0.6f * em ? 3 : 2;
  // Rows fill the height down to 2.2 em before the list scrolls (5 tokens fit a 720 px window).
  rows.row_h = std::clamp(ImGui::GetContentRegionAvail().y / float(std::max(n, 1)), 2.2f * em, 2.5f * em);

  ImGuiListClipper clipper;
  clipper.Begin(n, rows.row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_output_row(state, fonts, rows, i);
  }
  clipper.End();
  if (!r.masked_rows.empty()) {
    ImGui::PushFont(fonts.small);
    ImGui::TextDisabled("%s", tr(Text::OutputMaskedRow));
    ImGui::PopFont();
  }
  ImGui::EndChild();
  check_question(state, fonts, kCheckOutput);
}

}  // namespace ui
