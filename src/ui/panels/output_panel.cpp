// output_panel.cpp — the Output Y = A V panel: each row of Y as bars with values.
#include <algorithm>
#include <cmath>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {

void draw_output_panel(AppState& state, const Fonts& fonts) {
  if (state.scene.heads > 1 || state.scene.Wo.size() != 0) {  // Y_t per head, concat, W_o
    draw_heads_output_panel(state, fonts);
    return;
  }
  panel_header(state, fonts, tr(Text::OutputTitle), tr(Text::OutputHint));
  if (!state.computed) return;
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.output.rows()), d_v = int(r.output.cols());
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();

  // Bars share one scale: |y| ≤ max |v| because each y is a convex blend of the value rows.
  double vmax = 1e-9;
  for (int k = 0; k < r.V.size(); ++k) vmax = std::max(vmax, std::abs(r.V.data()[k]));
  const bool masked_row_any = !r.masked_rows.empty();

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
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = std::min(6.0f * em, 0.25f * ImGui::GetContentRegionAvail().x);
  const float box_w =
      std::clamp((ImGui::GetContentRegionAvail().x - label_w - style.ItemSpacing.x * float(d_v)) / float(d_v),
                 min_box_w, 14.0f * em);
  const float avail =
      std::max(ImGui::GetContentRegionAvail().x, label_w + float(d_v) * (box_w + style.ItemSpacing.x));
  const int decimals = box_w >= text3_w + 0.6f * em ? 3 : 2;
  // Rows fill the height down to 2.2 em before the list scrolls (5 tokens fit a 720 px window).
  const float row_h =
      std::clamp(ImGui::GetContentRegionAvail().y / float(std::max(n, 1)), 2.2f * em, 2.5f * em);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_window = ImGui::IsWindowHovered();

  ImGuiListClipper clipper;
  clipper.Begin(n, row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool row_lit = state.hovered_row == i;
      if (row_lit)
        dl->AddRectFilled(p, ImVec2(p.x + avail, p.y + row_h - 0.15f * em), palette::kAccentSoft, 0.2f * em);
      const std::string label = fit_text(s.tokens[i], label_w - 0.5f * em);
      dl->AddText(ImVec2(p.x, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())), palette::kText,
                  label.c_str());
      const bool masked_row = std::find(r.masked_rows.begin(), r.masked_rows.end(), i) != r.masked_rows.end();
      // The key whose weight is almost (not exactly) 1, if any: y_i is then almost v_j.
      int one_hot_j = -1;
      for (int j = 0; j < n && !masked_row; ++j) {
        const double w = r.weights(i, j);
        if (w < 1.0 && w > 0.9995) one_hot_j = j;
      }
      for (int c = 0; c < d_v; ++c) {
        // A box per component: the value on top, below it a track with 0 in the middle, the bar
        // from 0 to y, and a tick at every visible v_j[c] (brighter = larger weight a_ij).
        const float x0 = p.x + label_w + float(c) * (box_w + style.ItemSpacing.x);
        const ImVec2 a(x0, p.y + 0.1f * em), b(x0 + box_w, p.y + row_h - 0.25f * em);
        dl->AddRectFilled(a, b, palette::kTrack, 0.15f * em);
        const double y = r.output(i, c);
        ImGui::PushFont(fonts.small);
        // A near-one-hot row returns almost exactly one value row (the soft dictionary): show
        // enough digits that 1.000091 does not read as v_j's 1.000, as far as the box allows.
        std::string text = format_number(y, decimals);
        if (one_hot_j >= 0) {
          const float room = box_w - 0.4f * em;
          const int max_chars = std::max(1, int(room / ImGui::CalcTextSize("0").x));
          for (int chars = max_chars; chars >= 4; --chars) {
            text = format_distinct(y, r.V(one_hot_j, c), decimals, chars);
            if (ImGui::CalcTextSize(text.c_str()).x <= room) break;
          }
        }
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        dl->AddText(ImVec2(0.5f * (a.x + b.x - size.x), a.y + 0.1f * em), palette::kText, text.c_str());
        ImGui::PopFont();
        const float track_top = a.y + size.y + 0.2f * em, track_bottom = b.y - 0.2f * em;
        const float mid = 0.5f * (a.x + b.x);
        const float half = 0.5f * box_w - 0.3f * em;
        if (n <= 24) {
          for (int j = 0; j < n; ++j) {
            if (!r.allowed(i, j)) continue;
            const float x = mid + float(r.V(j, c) / vmax) * half;
            const int alpha = 50 + int(205.0 * r.weights(i, j));
            dl->AddLine(ImVec2(x, track_top), ImVec2(x, track_bottom),
                        palette::with_alpha(palette::kValue, alpha), std::max(1.0f, 0.1f * em));
          }
        }
        const float x = mid + float(y / vmax) * half;
        const float inset = 0.22f * (track_bottom - track_top);
        dl->AddRectFilled(ImVec2(std::min(mid, x), track_top + inset),
                          ImVec2(std::max(mid, x), track_bottom - inset),
                          palette::with_alpha(palette::kAccent, 220), 0.1f * em);
        dl->AddLine(ImVec2(mid, track_top), ImVec2(mid, track_bottom), palette::kAxis);

        if (hovered_window && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
          state.next_hovered_row = i;
          state.next_hovered_term = Term::Output;
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
            ImGui::Text("= %s", format_number(y, 6).c_str());
          }
          ImGui::EndTooltip();
        }
      }
      if (masked_row) {
        ImGui::PushFont(fonts.small);
        dl->AddText(ImVec2(p.x, p.y + row_h - 0.55f * em), palette::kError, tr(Text::OutputNoKey));
        ImGui::PopFont();
      }
      ImGui::Dummy(ImVec2(avail, row_h - style.ItemSpacing.y));
    }
  }
  clipper.End();
  if (masked_row_any) {
    ImGui::PushFont(fonts.small);
    ImGui::TextDisabled("%s", tr(Text::OutputMaskedRow));
    ImGui::PopFont();
  }
  ImGui::EndChild();
  check_question(state, fonts, kCheckOutput);
}

}  // namespace ui
