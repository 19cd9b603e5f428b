// vectors_panel.cpp — "Tokens and vectors": a block per token with its editable label and one
// slider per component of its query q_i (d_k), key k_i (d_k) and value v_i (d_v).
//
//   [ label ]  q  [q_i[0]] [q_i[1]] …      what am I looking for?
//              k  [k_i[0]] [k_i[1]] …      what do I have?
//              v  [v_i[0]] [v_i[1]] …      what do I give if I'm found?
//
// Sliders have fixed ranges per matrix (AppState::q_range …) so they do not jump while dragged;
// Ctrl+click (or double-click) types any value. Only visible blocks are submitted (ImGuiListClipper).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "imgui_internal.h"  // TempInputIsActive, GetActiveID: is this slider being typed in / dragged?
#include "ui/panels/panel_parts.hpp"
#include "ui/theme.hpp"

namespace ui {
namespace {

struct RoleRow {
  const char* name;  // "q", "k", "v"
  const char* id;    // widget id prefix "Q", "K", "V"
  Term term;
  ImU32 color;
  attn::Matrix* scene_matrix;  // direct mode storage
  const attn::Matrix* shown;   // what the sliders show (= result in projected mode)
  double range;
  int heads = 1;  // multi-head: the row's columns fall into `heads` groups of d/h (gap + underline)
};

// Extra space between two heads' column groups.
float head_gap() {
  return 0.6f * ImGui::GetFontSize();
}

// A slider cell, drawn by us around an invisible ImGui slider (which still does the dragging and the
// Ctrl+click typing):
//
//   ┌────────────┐
//   │    1.00    │   the value, in the upper part of the frame, never crossed by anything
//   │  ▬▬▬▬▬▌    │   a thin bar from 0 to the value in the role's colour, and the grab: a short tick
//   └────────────┘
// so a row of sliders reads as a small bar chart of the vector.
struct SliderCell {
  ImVec2 min, max;  // the frame
  float strip_top;  // where the bar strip starts (below the text)
};

SliderCell slider_cell(float width) {
  const ImVec2 a = ImGui::GetCursorScreenPos();
  const ImVec2 b(a.x + width, a.y + ImGui::GetFrameHeight());
  // The text starts 1 px below the frame's top (not FramePadding.y): that frees the strip below it.
  const float text_bottom = a.y + 1.0f + ImGui::GetFontSize();
  return {a, b, std::min(text_bottom, b.y - 3.0f)};
}

void draw_slider_frame(const SliderCell& cell, bool active) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const bool hovered = ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(cell.min, cell.max);
  const ImGuiCol col = active ? ImGuiCol_FrameBgActive : hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg;
  ImGui::GetWindowDrawList()->AddRectFilled(cell.min, cell.max, ImGui::GetColorU32(col), style.FrameRounding);
}

void draw_slider_value(const SliderCell& cell, const RoleRow& row, double value, bool active) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  // Same mapping as ImGui 1.86's slider: 2 px of padding, then the range over the frame minus the
  // grab's width, so the tick sits where a click would put the value.
  const float pad = 2.0f + 0.5f * style.GrabMinSize;
  const float width = cell.max.x - cell.min.x;
  auto x_of = [&](double v) {
    const double t = std::clamp((v + row.range) / (2.0 * row.range), 0.0, 1.0);
    return cell.min.x + pad + float(t) * (width - 2.0f * pad);
  };
  const float x0 = x_of(0.0), x1 = x_of(value);
  const float y0 = cell.strip_top + 1.0f, y1 = cell.max.y - 2.0f;
  const ImU32 fill = palette::with_alpha(row.color, 140);
  dl->AddRectFilled(ImVec2(std::min(x0, x1), y0), ImVec2(std::max(x0, x1), y1), fill);
  dl->AddLine(ImVec2(x0, y0 - 1.0f), ImVec2(x0, y1), palette::with_alpha(palette::kTextDim, 140));
  const float tick_w = std::max(2.0f, 0.5f * style.GrabMinSize);
  dl->AddRectFilled(ImVec2(x1 - 0.5f * tick_w, y0 - 2.0f), ImVec2(x1 + 0.5f * tick_w, cell.max.y - 1.0f),
                    active ? palette::kText : row.color, 0.5f * tick_w);

  const std::string text = format_number(value, 2);
  const float text_w = ImGui::CalcTextSize(text.c_str()).x;
  const float x = std::max(cell.min.x + 2.0f, 0.5f * (cell.min.x + cell.max.x - text_w));
  dl->PushClipRect(cell.min, cell.max, true);
  dl->AddText(ImVec2(x, cell.min.y + 1.0f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
  dl->PopClipRect();
}

// One row of sliders. Returns true if a value changed (written into `scene_matrix`).
bool draw_role_row(AppState& state, const RoleRow& row, int i, float slider_w, float prefix_w, bool lit,
                   bool hovered_token) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  if (hovered_token) {
    dl->AddRectFilled(ImVec2(p.x - 0.2f * h, p.y - 0.1f * h), ImVec2(p.x + 0.9f * h, p.y + 1.1f * h),
                      palette::kAccentSoft, 0.2f * h);
  }
  const ImU32 color = lit ? palette::kText : row.color;
  dl->AddText(ImVec2(p.x + 0.25f * h, p.y + 0.5f * (h - ImGui::GetTextLineHeight())), color, row.name);
  ImGui::Dummy(ImVec2(prefix_w, h));

  bool changed = false;
  const int d = int(row.shown->cols());
  ImGui::PushID(row.id);
  const int group = std::max(1, d / std::max(1, row.heads));  // columns per head
  for (int c = 0; c < d; ++c) {
    // A gap between heads' column groups, so "d split into h parts" is seen.
    ImGui::SameLine(
        0, row.heads > 1 && c > 0 && c % group == 0 ? ImGui::GetStyle().ItemSpacing.x + head_gap() : -1.0f);
    ImGui::PushID(c);
    if (row.heads > 1) {  // the head's colour under its columns
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float y = at.y + ImGui::GetFrameHeight() + 1.0f;
      ImGui::GetWindowDrawList()->AddLine(ImVec2(at.x, y), ImVec2(at.x + slider_w, y), head_color(c / group),
                                          2.0f);
    }
    ImGui::SetNextItemWidth(slider_w);
    double value = (*row.shown)(i, c);
    const double lo = -row.range, hi = row.range;
    // While Ctrl+click typing, ImGui's text field shows (on our frame); otherwise the slider is
    // invisible and we draw the value above the bar.
    const ImGuiID id = ImGui::GetID("##s");
    const bool typing = ImGui::TempInputIsActive(id);
    const SliderCell cell = slider_cell(slider_w);
    draw_slider_frame(cell, ImGui::GetActiveID() == id);
    const ImVec4 clear(0, 0, 0, 0);
    const ImGuiCol hidden[] = {ImGuiCol_FrameBg,    ImGuiCol_FrameBgHovered,   ImGuiCol_FrameBgActive,
                               ImGuiCol_SliderGrab, ImGuiCol_SliderGrabActive, ImGuiCol_Text};
    const int n_hidden = typing ? 3 : 6;  // the typed text stays visible
    for (int k = 0; k < n_hidden; ++k) ImGui::PushStyleColor(hidden[k], clear);
    const bool moved = ImGui::SliderScalar("##s", ImGuiDataType_Double, &value, &lo, &hi, "%.2f");
    ImGui::PopStyleColor(n_hidden);
    if (!typing) draw_slider_value(cell, row, value, ImGui::IsItemActive());
    if (moved) {
      // ImGui allows typing any number with Ctrl+click: keep it within the scene's limits.
      if (std::isfinite(value)) {
        value = std::clamp(value, -scene::kMaxAbsValue, scene::kMaxAbsValue);
        ensure_direct_mode(state);  // no-op in direct mode; converts a projected scene first
        (*row.scene_matrix)(i, c) = value;
        state.dirty = true;
        changed = true;
      }
    }
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
      ImGui::SetTooltip("%s_%d[%d] = %s   (drag, or Ctrl+click to type)", row.name, i, c,
                        format_number(value, 4).c_str());
    }
    record_item_rect(state, std::string(row.id) + "/" + std::to_string(i) + "/" + std::to_string(c));
    ImGui::PopID();
  }
  ImGui::PopID();
  return changed;
}

}  // namespace

void draw_vectors_panel(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, "Tokens and vectors",
               "q: what am I looking for?  k: what do I have?  v: what do I give if I'm found?");
  if (!state.computed) return;
  const bool projected = state.scene.mode == scene::Mode::Projected;
  if (projected) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::kAccent));
    ImGui::PushFont(fonts.small);
    ImGui::TextWrapped(
        "Learned: Q = X·W_q, K = X·W_k, V = X·W_v (X is %d×%d). The sliders show the computed "
        "vectors; moving one switches the scene to direct Q, K, V.",
        int(state.scene.X.rows()), int(state.scene.X.cols()));
    ImGui::PopFont();
    ImGui::PopStyleColor();
  }

  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const int n = state.scene.n();
  // Every head's columns: the full Q, K, V (result holds only the focused head's).
  const int d_k = int(state.heads.Q.cols()), d_v = int(state.heads.V.cols());
  const int heads = state.scene.heads;
  const int d_max = std::max(d_k, d_v);
  const float label_w = 5.0f * em;
  const float prefix_w = 1.1f * em;

  ImGui::BeginChild("##vectors", ImVec2(0, 0), false);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float slider_w = std::max(
      2.2f * em,
      (avail - label_w - prefix_w - style.ItemSpacing.x * float(d_max + 1) - head_gap() * float(heads - 1)) /
          float(d_max));
  const float row_h = ImGui::GetFrameHeightWithSpacing();
  const float block_h = 3.0f * row_h + 0.5f * em;

  RoleRow rows[3] = {
      {"q", "Q", Term::Queries, palette::kQuery, &state.scene.Q, &state.heads.Q, state.q_range, heads},
      {"k", "K", Term::Keys, palette::kKey, &state.scene.K, &state.heads.K, state.k_range, heads},
      {"v", "V", Term::Values, palette::kValue, &state.scene.V, &state.heads.V, state.v_range, heads},
  };

  ImGuiListClipper clipper;
  clipper.Begin(n, block_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      ImGui::PushID(i);
      const ImVec2 block_start = ImGui::GetCursorScreenPos();

      // Label (editable): applied as typed when it stays valid.
      char buffer[scene::kMaxTokenBytes + 1];
      std::strncpy(buffer, state.scene.tokens[i].c_str(), sizeof buffer - 1);
      buffer[sizeof buffer - 1] = 0;
      ImGui::SetNextItemWidth(label_w - style.ItemSpacing.x);
      if (ImGui::InputText("##label", buffer, sizeof buffer)) {
        scene::Scene candidate = state.scene;
        candidate.tokens[i] = buffer;
        const std::string problem = scene::validate(candidate);
        if (problem.empty()) {
          state.scene.tokens[i] = buffer;
          state.dirty = true;
        } else {
          state.notice = "Label not applied: " + problem;
        }
      }
      if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) ImGui::SetTooltip("Token %d: click to rename", i);

      // The hovered cell (i, j) of a grid lights q of token i and k of token j.
      for (int role = 0; role < 3; ++role) {
        ImGui::SetCursorScreenPos(ImVec2(block_start.x + label_w, block_start.y + float(role) * row_h));
        const bool hovered_token =
            (role == 0 && state.hovered_row == i) || (role == 1 && state.hovered_col == i);
        draw_role_row(state, rows[role], i, slider_w, prefix_w, term_lit(state, rows[role].term),
                      hovered_token);
      }
      if (i + 1 < n) {
        const float y = block_start.y + block_h - 0.3f * em;
        ImGui::GetWindowDrawList()->AddLine(ImVec2(block_start.x, y), ImVec2(block_start.x + avail, y),
                                            palette::kPanelBorder);
      }
      // Advance exactly one block (Dummy adds ItemSpacing.y), as the clipper expects.
      ImGui::SetCursorScreenPos(block_start);
      ImGui::Dummy(ImVec2(avail, block_h - style.ItemSpacing.y));
      ImGui::PopID();
    }
  }
  clipper.End();
  ImGui::EndChild();
}

}  // namespace ui
