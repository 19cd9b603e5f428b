// mask_panel.cpp — the Mask M panel: the allowed-mask grid; click a cell to toggle it in the
// custom mask.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"

namespace ui {

void draw_mask_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::MaskTitle), tr(Text::MaskHint));
  GridGeometry& grid = state.mask_grid;
  grid.visible = false;
  if (!state.computed) return;
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.allowed.rows());
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Values: 1 allowed, 0 hidden by the custom mask, kMaskedValue (hatched) hidden by causal.
  // Rebuilt only when the mask can have changed (a full pass: causal, mask and shape edits); an edited
  // row or column of Q, K or V leaves it (and its texture) as it was.
  std::vector<float>& values = state.ui.mask_values;
  if (state.result_change.partial_from(state.ui.mask_version)) state.ui.mask_version = state.result_version;
  if (state.ui.mask_version != state.result_version) {
    state.ui.mask_version = state.ui.mask_built = state.result_version;
    values.assign(std::size_t(n) * n, 0.0f);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        values[std::size_t(i) * n + j] = (s.causal && j > i) ? kMaskedValue : float(r.allowed(i, j));
      }
    }
  }

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  // Token labels as in the heatmaps: queries down the left, keys across the top, long ones cut.
  float longest = 0;
  for (const std::string& t : s.tokens) longest = std::max(longest, ImGui::CalcTextSize(t.c_str()).x);
  const float label_w = std::min(longest, 4.5f * em) + 0.6f * em;
  const float line = ImGui::GetTextLineHeight();
  // Cells as large as the panel allows (up to kMaxCellEm), the grid centred; the key labels take
  // one line, or two when they do not fit their columns.
  auto fit_cell = [&](int label_lines) {
    const float reserved_h =
        float(label_lines) * line + 0.3f * em + check_question_height(fonts, kCheckMask.question);
    float c = std::min((avail.x - label_w) / float(n), (avail.y - reserved_h) / float(n));
    c = std::clamp(c, 0.1f, kMaxCellEm * em);
    return c >= 4.0f ? std::floor(c) : c;
  };
  float cell = fit_cell(1);
  const int label_step = std::max(1, int(std::ceil(line / cell)));
  const int label_lines = column_label_lines(s.tokens, cell, label_step);
  if (label_lines == 2) cell = fit_cell(2);
  const float grid_w = cell * float(n);
  const float header_h = float(label_lines) * line + 0.2f * em;
  const float free_h =
      avail.y - header_h - grid_w - 0.1f * em - check_question_height(fonts, kCheckMask.question);
  const ImVec2 origin(std::floor(start.x + label_w + std::max(0.0f, 0.5f * (avail.x - label_w - grid_w))),
                      std::floor(start.y + header_h + std::max(0.0f, 0.5f * free_h)));
  const ImVec2 grid_max(origin.x + grid_w, origin.y + grid_w);

  MatrixImage image;
  image.slot = MatrixSlot::Mask;
  image.rows = image.cols = n;
  image.values = values.data();
  image.version = state.ui.mask_built;
  image.colormap = Colormap::Mask;
  image.lo = 0;
  image.hi = 1;
  image.gap_px = cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * cell, 3.0f))) : 0.0f;
  image.aggregate = CellAggregate::Max;  // cells smaller than a pixel: allowed if any cell of it is
  painter.paint(dl, origin, grid_max, image);

  grid.visible = true;
  grid.origin = origin;
  grid.cell = cell;
  grid.rows = grid.cols = n;
  grid.clip =
      ImVec4(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x, dl->GetClipRectMax().y);

  // Labels: every k-th when crowded (a label needs a line of height); 0/1 in the cells when they fit.
  const int lit_i = state.hovered_row, lit_j = state.hovered_col;
  for (int k = 0; k < n; k += label_step) {
    const std::string t = fit_text(s.tokens[k], label_w - 0.5f * em);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(origin.x - 0.4f * em - w, origin.y + cell * (float(k) + 0.5f) - 0.5f * line),
                k == lit_i ? palette::text() : palette::query(), t.c_str());
  }
  draw_column_labels(dl, s.tokens, origin, cell, label_step, label_lines, lit_j, palette::key());
  ImGui::PushFont(fonts.small);
  if (cell >= 1.3f * ImGui::GetTextLineHeight()) {
    // The mask colormap is the same in every theme: a hidden cell's 0 in white or black, whichever
    // reads on its slate.
    const ImU32 hidden_text = contrasting_text(colormap_color(Colormap::Mask, 0.0f));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const char* t = r.allowed(i, j) ? "1" : "0";
        const ImVec2 size = ImGui::CalcTextSize(t);
        dl->AddText(ImVec2(origin.x + cell * (float(j) + 0.5f) - 0.5f * size.x,
                           origin.y + cell * (float(i) + 0.5f) - 0.5f * size.y),
                    r.allowed(i, j) ? palette::allowed_text() : hidden_text, t);
      }
    }
  }
  ImGui::PopFont();

  // Clicks: one invisible button over the grid, the cell from the mouse position.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##maskgrid", ImVec2(std::max(grid_w, 1.0f), std::max(grid_w, 1.0f)));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  // The keyboard: one Tab stop, the arrows move over the cells, Space toggles one.
  int key_i = -1, key_j = -1;
  bool key_toggle = false;
  const bool keyed = focus_grid(state, "cell/mask", origin, cell, n, n, &key_i, &key_j, &key_toggle);
  if (keyed) {
    const bool causal = s.causal && key_j > key_i;
    announce(state, "mask row " + fit_text(s.tokens[std::size_t(key_i)], 12.0f * em) + ", column " +
                        fit_text(s.tokens[std::size_t(key_j)], 12.0f * em) + ": " +
                        (r.allowed(key_i, key_j) ? "may attend"
                         : causal                ? "hidden by the causal mask"
                                                 : "hidden"));
  }
  if (hovered || keyed) {
    const bool by_mouse = hovered;
    const int i = by_mouse ? std::clamp(int((mouse.y - origin.y) / cell), 0, n - 1) : key_i;
    const int j = by_mouse ? std::clamp(int((mouse.x - origin.x) / cell), 0, n - 1) : key_j;
    if (!by_mouse)
      place_tooltip_beside_cell(ImVec2(origin.x + cell * float(j), origin.y + cell * float(i)), cell);
    state.next_hovered_row = i;
    state.next_hovered_col = j;
    state.next_hovered_term = Term::Mask;
    const bool causal_hidden = s.causal && j > i;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(
        fill(tr(Text::MaskCellTip), {std::to_string(i), std::to_string(j), s.tokens[i], s.tokens[j]})
            .c_str());
    if (causal_hidden) {
      ImGui::TextDisabled("%s", fill(tr(Text::MaskCausalNo), {std::to_string(j), std::to_string(i)}).c_str());
    } else if (r.allowed(i, j)) {
      ImGui::TextDisabled("%s", tr(Text::MaskYes));
    } else {
      ImGui::TextDisabled("%s", tr(Text::MaskCustomNo));
    }
    ImGui::EndTooltip();
    if ((by_mouse && clicked) || (keyed && key_toggle && i == key_i && j == key_j)) {
      if (causal_hidden) {
        state.notice = tr(Text::MaskCausalNotice);
      } else {
        toggle_mask_cell(state, i, j);
      }
    }
  }
  if (lit_i >= 0 && lit_j >= 0 && lit_i < n && lit_j < n) {
    const ImVec2 a(origin.x + cell * float(lit_j), origin.y + cell * float(lit_i));
    outline(dl, a, ImVec2(a.x + cell, a.y + cell), palette::selection(), std::max(1.5f, 0.12f * em));
  }
  check_question(state, fonts, kCheckMask);
}

}  // namespace ui
