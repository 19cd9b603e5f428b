// vectors_panel.cpp — "Tokens and vectors": a block per token with its editable label and one
// slider per component of its query q_i (d_k), key k_i (d_k) and value v_i (d_v).
//
//   [ label ]  q  [q_i[0]] [q_i[1]] …      what am I looking for?
//              k  [k_i[0]] [k_i[1]] …      what do I have?
//              v  [v_i[0]] [v_i[1]] …      what do I give if I'm found?
//
// A learned scene (X, W_q, W_k, W_v) shows each token's embedding x_i as sliders and its q_i, k_i,
// v_i read-only below it (hover one for  q_i[c] = Σ_m x_i[m]·W_q[m][c] = …), then the three maps
// as small matrices whose cells drag up/down (double-click or Ctrl+click types). Widget ids:
// X/i/m, Wq/m/c, Wk/m/c, Wv/m/c, make-learned, make-direct.
//
// Sliders have fixed ranges per matrix (AppState::q_range …) so they do not jump while dragged;
// Ctrl+click (or double-click) types any value. Only visible blocks are submitted (ImGuiListClipper).
//
// Many components: when a matrix's sliders would be narrower than their numbers, that matrix is
// drawn as colour strips instead (vector_strip.hpp: ≥ 6 CSS px per cell, drag up/down, double-click
// types; the panel scrolls sideways when even that is too wide), and each token gets a "numbers"
// button that shows its vectors with every number, wrapped over lines, at the top of the panel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "imgui_internal.h"  // TempInputIsActive, GetActiveID: is this slider being typed in / dragged?
#include "scene/variant_keys.hpp"
#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/vector_strip.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

struct RoleRow {
  const char* name;  // "q", "k", "v"
  const char* id;    // widget id prefix "Q", "K", "V"
  Term term;
  ImU32 color;
  ImU32 negative;             // the strips' colour for negative values
  SceneMatrix edits;          // the scene matrix its sliders edit (set_entry)
  const attn::Matrix* shown;  // what the sliders show (= result in projected mode)
  double range;
  int heads = 1;  // multi-head: the row's columns fall into `heads` groups of d/h (gap + underline)
  // Grouped-query attention: K's and V's `heads` are the H_kv groups, each shared by h/H_kv heads,
  // whose colours its underline carries side by side (Q keeps one group per head: 1).
  int shared_by = 1;
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
  dl->AddLine(ImVec2(x0, y0 - 1.0f), ImVec2(x0, y1), palette::with_alpha(palette::text_dim(), 140));
  const float tick_w = std::max(2.0f, 0.5f * style.GrabMinSize);
  dl->AddRectFilled(ImVec2(x1 - 0.5f * tick_w, y0 - 2.0f), ImVec2(x1 + 0.5f * tick_w, cell.max.y - 1.0f),
                    active ? palette::text() : row.color, 0.5f * tick_w);

  const std::string text = format_number(value, 2);
  const float text_w = ImGui::CalcTextSize(text.c_str()).x;
  const float x = std::max(cell.min.x + 2.0f, 0.5f * (cell.min.x + cell.max.x - text_w));
  dl->PushClipRect(cell.min, cell.max, true);
  dl->AddText(ImVec2(x, cell.min.y + 1.0f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
  dl->PopClipRect();
}

// Behind the role's letter at the start of a row (`p`: the row's top left, `h`: its height): the
// hovered token's rows are lit.
void highlight_role_letter(ImDrawList* dl, ImVec2 p, float h) {
  dl->AddRectFilled(ImVec2(p.x - 0.2f * h, p.y - 0.1f * h), ImVec2(p.x + 0.9f * h, p.y + 1.1f * h),
                    palette::accent_soft(), 0.2f * h);
}

// One row of sliders. Returns true if a value changed (set_entry of `row.edits`).
bool draw_role_row(AppState& state, const RoleRow& row, int i, float slider_w, float prefix_w, bool lit,
                   bool hovered_token) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  if (hovered_token) highlight_role_letter(dl, p, h);
  const ImU32 color = lit ? palette::text() : row.color;
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
    if (row.heads > 1 || row.shared_by > 1) {  // the colour of the head (or heads) using these columns
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float y = at.y + ImGui::GetFrameHeight() + 1.0f;
      const int first = (c / group) * row.shared_by;  // group g serves heads g·(h/H_kv) … + h/H_kv − 1
      const float part = slider_w / float(row.shared_by);
      for (int k = 0; k < row.shared_by; ++k)
        ImGui::GetWindowDrawList()->AddLine(ImVec2(at.x + part * float(k), y),
                                            ImVec2(at.x + part * float(k + 1), y), head_color(first + k),
                                            row.shared_by > 1 ? 3.0f : 2.0f);
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
    const std::string cell_id = std::string(row.id) + "/" + std::to_string(i) + "/" + std::to_string(c);
    if (typing_requested(state, cell_id)) ImGui::SetKeyboardFocusHere();  // Enter: type a number
    bool moved = ImGui::SliderScalar("##s", ImGuiDataType_Double, &value, &lo, &hi, "%.2f");
    ImGui::PopStyleColor(n_hidden);
    // The keyboard: arrows step the focused cell ("query 0 component 1: 0.50" for the live region).
    moved |= value_cell(state, cell_id, &value, lo, hi, row.range, spoken_component(row.id, i, c));
    if (!typing) draw_slider_value(cell, row, value, ImGui::IsItemActive());
    if (moved && std::isfinite(value)) {
      // ImGui allows typing any number with Ctrl+click: set_entry keeps it within the scene's limits.
      set_entry(state, row.edits, i, c, value);  // Q/K/V of a direct scene, or X of a learned one
      changed = true;
    }
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
      ImGui::SetTooltip("%s_%d[%d] = %s   %s", row.name, i, c, format_number(value, 4).c_str(),
                        tr(Text::DragOrType));
    }
    if (ImGui::IsItemVisible())
      record_item_text(state, cell_id, ImGui::CalcTextSize(format_number(value, 2).c_str()).x);
    ImGui::PopID();
  }
  ImGui::PopID();
  return changed;
}

// --- learned scenes ---------------------------------------------------------------------------

// "0.50", "(−0.30)": a factor of a sum, negative ones in parentheses.
std::string factor(double v) {
  const std::string t = format_number(v, 2);
  return v < 0 ? "(" + t + ")" : t;
}

// q_i[c] = Σ_m x_i[m]·W[m][c] = 0.50·0.12 + … = 0.311, for the tooltip of a computed entry.
std::string derivation(const scene::Scene& s, const char* name, const char* w_name, const attn::Matrix& w,
                       int i, int c, double value) {
  std::string text = std::string(name) + "_" + std::to_string(i) + "[" + std::to_string(c) + "] = Σ_m x_" +
                     std::to_string(i) + "[m]·" + w_name + "[m][" + std::to_string(c) + "]\n= ";
  const int d_model = int(s.X.cols());
  const int shown = std::min(d_model, 8);
  for (int m = 0; m < shown; ++m) {
    if (m > 0) text += (m % 4 == 0) ? "\n+ " : " + ";
    text += factor(s.X(i, m)) + "·" + factor(w(m, c));
  }
  if (shown < d_model) text += " + … " + fill(tr(Text::VectorTerms), {std::to_string(d_model)});
  text += "\n= " + format_number(value, 4);
  return text;
}

// A read-only entry of q_i, k_i or v_i: the slider's look (value over a bar) on a darker frame.
void draw_computed_row(const AppState& state, const RoleRow& row, const char* w_name, const attn::Matrix& w,
                       int i, float cell_w, float prefix_w, bool lit) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  dl->AddText(ImVec2(p.x + 0.25f * h, p.y + 0.5f * (h - ImGui::GetTextLineHeight())),
              lit ? palette::text() : row.color, row.name);
  ImGui::Dummy(ImVec2(prefix_w, h));
  const int d = int(row.shown->cols());
  for (int c = 0; c < d; ++c) {
    ImGui::SameLine();
    const SliderCell cell = slider_cell(cell_w);
    const double value = (*row.shown)(i, c);
    dl->AddRectFilled(cell.min, cell.max, palette::frame(), ImGui::GetStyle().FrameRounding);
    dl->AddRect(cell.min, cell.max, palette::with_alpha(row.color, 70), ImGui::GetStyle().FrameRounding);
    draw_slider_value(cell, row, value, false);
    ImGui::Dummy(ImVec2(cell_w, h));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", derivation(state.scene, row.name, w_name, w, i, c, value).c_str());
  }
}

// The maps W_q, W_k, W_v as grids of draggable cells (colour: the scores' diverging scale over
// ±w_range), `cell` pixels each, side by side from `origin`. Returns the height used.
float draw_w_grids(AppState& state, const Fonts& fonts, ImVec2 origin, float cell, bool stacked) {
  struct W {
    const char* title;
    const char* id;
    const attn::Matrix* m;
    SceneMatrix edits;
    ImU32 color;
  };
  const scene::Scene& s = state.scene;
  W maps[3] = {{"W_q", "Wq", &s.Wq, SceneMatrix::Wq, palette::query()},
               {"W_k", "Wk", &s.Wk, SceneMatrix::Wk, palette::key()},
               {"W_v", "Wv", &s.Wv, SceneMatrix::Wv, palette::value()}};
  const float em = ImGui::GetFontSize();
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const float gap = em;
  const double range = state.w_range;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 at = origin;
  float height = 0;
  for (W& w : maps) {
    const int rows = int(w.m->rows()), cols = int(w.m->cols());
    char title[64];
    std::snprintf(title, sizeof title, "%s  %d×%d", w.title, rows, cols);
    dl->AddText(at, w.color, title);
    const ImVec2 grid(at.x, at.y + title_h);
    ImGui::PushID(w.id);
    ImGui::PushFont(fonts.small);
    // One number format per grid: 2 decimals when the widest fits a cell, else 1, else colour only.
    int decimals = -1;
    for (int want = 2; want >= 1 && decimals < 0; --want) {
      float widest = 0;
      for (Eigen::Index k = 0; k < w.m->size(); ++k)
        widest = std::max(widest, ImGui::CalcTextSize(format_number(w.m->data()[k], want).c_str()).x);
      if (widest <= cell - 3.0f) decimals = want;
    }
    for (int m = 0; m < rows; ++m)
      for (int c = 0; c < cols; ++c) {
        const ImVec2 a(grid.x + float(c) * cell, grid.y + float(m) * cell);
        const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
        double value = (*w.m)(m, c);
        const ImU32 face = colormap_color(Colormap::Diverging, float(0.5 + 0.5 * value / range));
        dl->AddRectFilled(a, b, face);
        ImGui::SetCursorScreenPos(a);
        ImGui::PushID(m * 4096 + c);
        const ImGuiID id = ImGui::GetID("##w");
        const bool typing = ImGui::TempInputIsActive(id);
        const ImVec4 clear(0, 0, 0, 0);
        const ImGuiCol hidden[] = {ImGuiCol_FrameBg, ImGuiCol_FrameBgHovered, ImGuiCol_FrameBgActive,
                                   ImGuiCol_Text};
        const int n_hidden = typing ? 0 : 4;
        for (int k = 0; k < n_hidden; ++k) ImGui::PushStyleColor(hidden[k], clear);
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding,
                            ImVec2(1, std::max(0.0f, 0.5f * (cell - ImGui::GetFontSize()))));
        ImGui::SetNextItemWidth(typing ? std::max(cell, 4.0f * em) : cell - 1.0f);
        const std::string cell_id = std::string(w.id) + "/" + std::to_string(m) + "/" + std::to_string(c);
        if (typing_requested(state, cell_id)) ImGui::SetKeyboardFocusHere();  // Enter: type a number
        bool moved = ImGui::DragScalar("##w", ImGuiDataType_Double, &value, float(range / 60.0), nullptr,
                                       nullptr, "%.2f", ImGuiSliderFlags_Vertical);
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(n_hidden);
        // The keyboard: arrows step the focused cell ("W_q row 2 column 1: 0.30").
        moved |=
            value_cell(state, cell_id, &value, -range, range, range,
                       std::string(w.title) + " row " + std::to_string(m) + " column " + std::to_string(c));
        const bool active = ImGui::IsItemActive();
        if (moved) set_entry(state, w.edits, m, c, value);
        if (ImGui::IsItemHovered() && !active)
          ImGui::SetTooltip(
              "%s[%d][%d] = %s: %s", w.title, m, c, format_number((*w.m)(m, c), 4).c_str(),
              fill(tr(Text::WCellTip), {std::to_string(m), std::to_string(c), std::string(1, w.title[2])})
                  .c_str());
        if (!typing) {
          const std::string text = decimals >= 0 ? format_number((*w.m)(m, c), decimals) : std::string();
          const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
          if (decimals >= 0 && ts.y <= cell)
            dl->AddText(ImVec2(a.x + 0.5f * (cell - 1.0f - ts.x), a.y + 0.5f * (cell - 1.0f - ts.y)),
                        contrasting_text(face), text.c_str());
          if (active || ImGui::IsItemHovered()) dl->AddRect(a, b, palette::text(), 0, 0, 1.5f);
        }
        ImGui::PopID();
      }
    ImGui::PopFont();
    ImGui::PopID();
    const float grid_h = title_h + float(rows) * cell;
    if (stacked) {
      at.y += grid_h + 0.6f * em;
      height += grid_h + 0.6f * em;
    } else {
      at.x += float(cols) * cell + gap;
      height = std::max(height, grid_h);
    }
  }
  return height;
}

// What kind of scene this is, and the button that converts it exactly. A learned scene gets a line
// under the header; a direct one only the Make learned button, on the title's line (no height taken
// from the sliders on short screens).
void draw_mode_line(AppState& state, const Fonts& fonts, bool projected, ImVec2 title_pos) {
  ImGui::PushFont(fonts.small);
  ImVec2 after;
  if (!projected) {
    after = ImGui::GetCursorPos();
    const float w = ImGui::CalcTextSize(tr(Text::MakeLearned)).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SetCursorPos(ImVec2(ImGui::GetWindowContentRegionMax().x - w, title_pos.y));
  }
  if (projected) {
    if (small_button(state, "make-direct", (std::string(tr(Text::EditDirectly)) + "###make-direct").c_str()))
      make_direct(state);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::MakeDirectTip));
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
    wrapped_text(tr(Text::LearnedNote));
    ImGui::PopStyleColor();
  } else {
    const int d_model = 2 * state.scene.d_k() + state.scene.d_v();
    const bool clicked =
        small_button(state, "make-learned", (std::string(tr(Text::MakeLearned)) + "###make-learned").c_str());
    if (ImGui::IsItemHovered()) {
      if (d_model <= scene::kMaxDim)
        ImGui::SetTooltip("%s", fill(tr(Text::MakeLearnedTip), {std::to_string(d_model)}).c_str());
      else
        ImGui::SetTooltip(
            "%s", fill(tr(Text::MakeLearnedTooBig), {std::to_string(d_model), std::to_string(scene::kMaxDim)})
                      .c_str());
    }
    ImGui::SetCursorPos(after);
    if (clicked) make_learned(state);
  }
  ImGui::PopFont();
}

// One row as a colour strip (or, zoomed, as numbered cells over `per_line` columns): the role's
// letter, then vector_strip.hpp's cells. Returns true if a value changed.
bool draw_role_strip(AppState& state, const RoleRow& row, int i, float cell_w, float gap, float prefix_w,
                     bool lit, bool hovered_token, bool numbers, int per_line) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  if (hovered_token) highlight_role_letter(dl, p, h);
  dl->AddText(ImVec2(p.x + 0.25f * h, p.y + 0.5f * (h - ImGui::GetTextLineHeight())),
              lit ? palette::text() : row.color, row.name);
  ImGui::SetCursorScreenPos(ImVec2(p.x + prefix_w + ImGui::GetStyle().ItemSpacing.x, p.y));
  // The zoomed view's cells are "zoom/Q/i/c" (the strips below keep "Q/i/c").
  const std::string id = numbers ? "zoom/" + std::string(row.id) : std::string(row.id);
  const StripRole role{row.name, id.c_str(), row.color, row.negative, row.range};
  const StripEdit edit = draw_vector_strip(state, role, i, &(*row.shown)(i, 0), int(row.shown->cols()),
                                           cell_w, gap, per_line, numbers);
  if (edit.c < 0) return false;
  set_entry(state, row.edits, i, edit.c, edit.value);  // a projected scene becomes direct first
  return true;
}

// The rows' layout, measured once per frame by draw_vectors_panel: one block per token (its label,
// x_i when learned, q_i, k_i, v_i), each row sliders or colour strips.
struct TokenRows {
  const RoleRow* rows;  // q, k, v
  const RoleRow* x_row;
  const char* const* w_names;
  const attn::Matrix* const* w_mats;
  const float *slider_w, *strip_w, *strip_gap;  // per role
  const bool* strip;                            // per role: colour strips instead of sliders
  bool any_strip, projected;
  float label_w, prefix_w, row_h, block_h, avail, x_w;
  // The roles [role_first, role_last) each block shows: q, k, v — or, for cross-attention, q for the n
  // queries and k, v for the m sources, whose blocks (`sources`: read-only labels, never an x row)
  // follow under their own heading.
  int role_first = 0, role_last = 3;
  const std::vector<std::string>* sources = nullptr;
};

// Zoomed token z: its three vectors with every number, wrapped, above the list.
void draw_zoomed_token(AppState& state, const TokenRows& t, int z) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize(), avail = t.avail, prefix_w = t.prefix_w;
  const RoleRow* rows = t.rows;
  ImGui::PushID("zoom");
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(palette::accent()), "%s",
                     fill(tr(Text::ZoomedToken), {std::to_string(z), state.scene.tokens[z]}).c_str());
  ImGui::SameLine();
  if (small_button(state, "zoom/close", (std::string(tr(Text::Close)) + "###zoom-close").c_str()))
    state.ui.zoomed_token = -1;
  for (int r = 0; r < 3; ++r) {
    const float need = slider_text_need(rows[r].range);
    const float room = avail - prefix_w - style.ItemSpacing.x;
    const int per_line = std::max(1, int((room + style.ItemSpacing.x) / (need + style.ItemSpacing.x)));
    draw_role_strip(state, rows[r], z, need, style.ItemSpacing.x, prefix_w, term_lit(state, rows[r].term),
                    false, true, per_line);
    ImGui::Dummy(ImVec2(0, 0.15f * em));
  }
  ImGui::Separator();
  ImGui::PopID();
}

// Token i's block: its label (editable; applied as typed when it stays valid), the Numbers button
// when rows are strips, then x_i (learned), q_i, k_i, v_i.
void draw_token_block(AppState& state, const TokenRows& t, int i) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float em = ImGui::GetFontSize();
  const int n = t.sources ? int(t.sources->size()) : state.scene.n();
  const bool projected = t.projected && !t.sources, any_strip = t.any_strip;
  const float label_w = t.label_w, prefix_w = t.prefix_w, row_h = t.row_h, block_h = t.block_h,
              avail = t.avail;
  const RoleRow* rows = t.rows;
  const RoleRow& x_row = *t.x_row;
  const char* const* w_names = t.w_names;
  const attn::Matrix* const* w_mats = t.w_mats;
  const float *slider_w = t.slider_w, *strip_w = t.strip_w, *strip_gap = t.strip_gap;
  const bool* strip = t.strip;
  const float x_w = t.x_w;
  ImGui::PushID(i);
  const ImVec2 block_start = ImGui::GetCursorScreenPos();

  // Label (editable): applied as typed when it stays valid. A source's is the scene file's.
#if AL_ALL_MODES
  if (t.sources) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(to_vec4(palette::key()), "%s",
                       fit_text((*t.sources)[std::size_t(i)], label_w - style.ItemSpacing.x).c_str());
  } else
#endif
  {
    char buffer[scene::kMaxTokenBytes + 1];
    std::strncpy(buffer, state.scene.tokens[i].c_str(), sizeof buffer - 1);
    buffer[sizeof buffer - 1] = 0;
    ImGui::SetNextItemWidth(label_w - style.ItemSpacing.x);
    if (ImGui::InputText("##label", buffer, sizeof buffer)) {
      const std::string problem = set_token_label(state, int(i), buffer);
      if (!problem.empty()) state.notice = fill(tr(Text::LabelNotApplied), {problem});
    }
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("%s", fill(tr(Text::RenameTip), {std::to_string(i)}).c_str());
  }
  if (any_strip && !t.sources) {  // below the label: show this token's numbers at the top of the panel
    ImGui::SetCursorScreenPos(ImVec2(block_start.x, block_start.y + row_h));
    const bool zoomed = state.ui.zoomed_token == i;
    if (zoomed) ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(palette::accent_soft()));
    if (small_button(state, "zoom/" + std::to_string(i),
                     (std::string(tr(Text::Numbers)) + "###numbers").c_str())) {
      state.ui.zoomed_token = zoomed ? -1 : i;
      ImGui::SetScrollY(0);
    }
    if (zoomed) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", fill(tr(Text::NumbersTip), {std::to_string(i)}).c_str());
  }

  // The hovered cell (i, j) of a grid lights q of token i and k of token j.
  if (projected) {  // x_i (sliders), then q_i, k_i, v_i computed from it
    ImGui::SetCursorScreenPos(ImVec2(block_start.x + label_w, block_start.y));
    draw_role_row(state, x_row, i, x_w, prefix_w, false, false);
  }
  const int first = (projected ? 1 : 0) - t.role_first;
  for (int role = t.role_first; role < t.role_last; ++role) {
    ImGui::SetCursorScreenPos(ImVec2(block_start.x + label_w, block_start.y + float(first + role) * row_h));
    const bool hovered_token = (role == 0 && state.ui.frame.shown.hovered_row == i) ||
                               (role == 1 && state.ui.frame.shown.hovered_col == i);
    if (projected) {
      draw_computed_row(state, rows[role], w_names[role], *w_mats[role], i, slider_w[role], prefix_w,
                        term_lit(state, rows[role].term));
    } else if (strip[role]) {
      draw_role_strip(state, rows[role], i, strip_w[role], strip_gap[role], prefix_w,
                      term_lit(state, rows[role].term), hovered_token, false, int(rows[role].shown->cols()));
    } else {
      draw_role_row(state, rows[role], i, slider_w[role], prefix_w, term_lit(state, rows[role].term),
                    hovered_token);
    }
  }
  if (i + 1 < n) {
    const float y = block_start.y + block_h - 0.3f * em;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(block_start.x, y), ImVec2(block_start.x + avail, y),
                                        palette::panel_border());
  }
  // Advance exactly one block (Dummy adds ItemSpacing.y), as the clipper expects.
  ImGui::SetCursorScreenPos(block_start);
  ImGui::Dummy(ImVec2(avail, block_h - style.ItemSpacing.y));
  ImGui::PopID();
}

#if AL_ALL_MODES
// Cross-attention: the n queries' blocks (x_i and q_i, or q_i) under one heading, then the m sources'
// (k_j and v_j, labelled by the scene's "sources") under another. A learned scene's sources show K and
// V as computed from X_src; editing one makes the scene direct, as a query's does.
void draw_cross_blocks(AppState& state, const Fonts& fonts, TokenRows t) {
  const float em = ImGui::GetFontSize(), row_h = t.row_h;
  state.ui.zoomed_token = -1;
  auto heading = [&](bool sources, const char* id) {
    ImGui::PushFont(fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
    wrapped_text(state, id, cross_heading(sources));
    ImGui::PopStyleColor();
    ImGui::PopFont();
  };
  auto blocks = [&](int count) {
    ImGuiListClipper clipper;
    clipper.Begin(count, t.block_h);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_token_block(state, t, i);
    clipper.End();
  };
  heading(false, "vectors/queries");
  t.role_first = 0;
  t.role_last = 1;
  t.block_h = float(t.projected ? 2 : 1) * row_h + 0.5f * em;
  blocks(state.scene.n());
  heading(true, "vectors/sources");
  t.role_first = 1;
  t.role_last = 3;
  t.sources = &scene::key_labels(state.scene);
  t.block_h = 2.0f * row_h + 0.5f * em;
  blocks(int(t.sources->size()));
}
#endif

// A learned scene's three maps after the tokens, side by side while a cell keeps ≥ 0.9 em, else one
// above another.
void draw_w_maps(AppState& state, const Fonts& fonts, int d_k, int d_v, float avail) {
  const float em = ImGui::GetFontSize();
  const float gap = em;
  const float side = (avail - 2.0f * gap) / float(2 * d_k + d_v);
  const bool stacked = side < 0.9f * em;
  const float cell = std::floor(stacked ? std::min(2.6f * em, avail / float(std::max(d_k, d_v)))
                                        : std::min(3.2f * em, side));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float used = draw_w_grids(state, fonts, origin, cell, stacked);
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(avail, used + 0.3f * em));
  ImGui::GetWindowDrawList()->AddLine(ImVec2(origin.x, origin.y + used + 0.4f * em),
                                      ImVec2(origin.x + avail, origin.y + used + 0.4f * em),
                                      palette::panel_border());
}

}  // namespace

void draw_vectors_panel(AppState& state, const Fonts& fonts) {
  const ImVec2 title_pos = ImGui::GetCursorPos();
  panel_header(state, fonts, tr(Text::VectorsTitle), tr(Text::VectorsHint));
  if (!state.computed) return;
  const bool projected = state.scene.mode == scene::Mode::Projected;
  draw_mode_line(state, fonts, projected, title_pos);

  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const int n = state.scene.n();
  // Every head's columns: the full Q, K, V (result holds only the focused head's).
  const int d_k = int(state.heads.Q.cols()), d_v = int(state.heads.V.cols());
  const int heads = state.scene.heads;
  const int kv_heads = std::max(1, state.scene.kv());  // K and V: H_kv groups of columns (GQA)
  const int d_model = projected ? int(state.scene.X.cols()) : 0;
  const int d_max = std::max({d_k, d_v, d_model});
  const float label_w = 5.0f * em;
  const float prefix_w = 1.1f * em;

  ImGui::BeginChild("##vectors", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float row_h = ImGui::GetFrameHeightWithSpacing();
  const int n_rows = projected ? 4 : 3;  // x, q, k, v  or  q, k, v
  const float block_h = float(n_rows) * row_h + 0.5f * em;

  RoleRow rows[3] = {
      {"q", "Q", Term::Queries, palette::query(), palette::query_neg(), SceneMatrix::Q, &state.heads.Q,
       state.q_range, heads},
      {"k", "K", Term::Keys, palette::key(), palette::key_neg(), SceneMatrix::K, &state.heads.K,
       state.k_range, kv_heads, heads / kv_heads},
      {"v", "V", Term::Values, palette::value(), palette::value_neg(), SceneMatrix::V, &state.heads.V,
       state.v_range, kv_heads, heads / kv_heads},
  };
  const RoleRow x_row = {"x",
                         "X",
                         Term::Tokens,
                         palette::embedding(),
                         palette::embedding(),
                         SceneMatrix::X,
                         &state.scene.X,
                         state.x_range,
                         1};
  const char* w_names[3] = {"W_q", "W_k", "W_v"};
  const attn::Matrix* w_mats[3] = {&state.scene.Wq, &state.scene.Wk, &state.scene.Wv};

  // Per matrix: sliders as wide as the widest matrix allows (columns line up), else as wide as its
  // own d allows, else — narrower than their numbers — colour strips (≥ 6 CSS px per cell).
  // (Sliders leave head_gap() between heads' column groups; the strips do not group by head.)
  auto slider_width = [&](int d) {
    return (avail - label_w - prefix_w - style.ItemSpacing.x * float(d + 1) - head_gap() * float(heads - 1)) /
           float(std::max(d, 1));
  };
  float slider_w[3], strip_w[3], strip_gap[3];
  bool strip[3];
  bool any_strip = false;
  for (int r = 0; r < 3; ++r) {
    const int d = int(rows[r].shown->cols());
    const float need = slider_text_need(rows[r].range);
    slider_w[r] = slider_width(d_max) >= need ? slider_width(d_max) : slider_width(d);
    strip[r] = slider_w[r] < need;
    // Cells 1 px apart while they are ≥ 8 px wide; narrower ones touch (their bars are inset).
    const float room = avail - label_w - prefix_w - style.ItemSpacing.x;
    strip_gap[r] = std::floor(0.1f * em);
    strip_w[r] = std::floor((room - strip_gap[r] * float(d - 1)) / float(std::max(d, 1)));
    if (strip_w[r] < 8.0f) {
      strip_gap[r] = 0.0f;
      strip_w[r] = std::max(strip_min_cell(state), std::floor(room / float(std::max(d, 1))));
    }
    state.ui.frame.vectors_strip[r] = strip[r];
    any_strip |= strip[r];
  }
  if (!any_strip || state.ui.zoomed_token >= n) state.ui.zoomed_token = -1;
  // A learned scene's x_i sliders: as wide as d_model allows (at least 2.2 em; the row is clipped beyond).
  const float x_w = std::max(2.2f * em, slider_width(std::max(d_model, 1)));

  TokenRows layout{rows,      &x_row,    w_names, w_mats,   slider_w, strip_w, strip_gap, strip,
                   any_strip, projected, label_w, prefix_w, row_h,    block_h, avail,     x_w};
#if AL_ALL_MODES
  if (scene::is_cross_attention(state.scene)) {
    draw_cross_blocks(state, fonts, layout);
    if (projected) draw_w_maps(state, fonts, d_k, d_v, avail);
    ImGui::EndChild();
    return;
  }
#endif
  if (state.ui.zoomed_token >= 0) draw_zoomed_token(state, layout, state.ui.zoomed_token);

  ImGuiListClipper clipper;
  clipper.Begin(n, block_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_token_block(state, layout, i);
  }
  clipper.End();
  if (projected) draw_w_maps(state, fonts, d_k, d_v, avail);
  ImGui::EndChild();
}

}  // namespace ui
