// mask_panel.cpp — the Mask M panel: the allowed-mask grid; click a cell to toggle it in the
// custom mask.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scene/variant_keys.hpp"
#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/grid_labels.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/keyboard.hpp"

namespace ui {
namespace {

// The mask grid's frame: token labels as in the heatmaps (queries down the left, keys across the
// top, long ones cut), the n×m cells centred below them (m keys: the sources' with cross-attention),
// the check question under the grid.
struct MaskFrame {
  ImVec2 origin, grid_max;  // cell (0, 0) corner, the far corner
  ImVec2 bias_origin;       // with ALiBi: the bias grid B's cell (0, 0), right of the mask (same cells)
  bool bias = false;
  float cell = 0, label_w = 0, grid_w = 0, grid_h = 0, line = 0;
  int label_lines = 1;  // one line of key labels (every 2ᵏ-th whole name, grid_labels.hpp)
};

// Row i of the values: 1 allowed, 0 hidden by the custom mask, kMaskedValue (hatched) hidden by causal
// or by the sliding window (variant_parts.hpp: mask_reason).
void fill_mask_row(const AppState& state, int i, std::vector<float>& values) {
  const attn::MaskMatrix& allowed = state.result.allowed;
  const int m = int(allowed.cols());
  for (int j = 0; j < m; ++j) {
    const MaskReason why = mask_reason(state.scene, allowed, i, j);
    values[std::size_t(i) * m + j] =
        why == MaskReason::Causal || why == MaskReason::Window ? kMaskedValue : float(allowed(i, j));
  }
}

// The values, rebuilt only when the mask can have changed: a mask, causal, window or sinks edit
// refills the rows it changed (a click on one cell: one row of 1024); a full pass (a shape edit) all.
// An edited row or column of Q, K or V leaves them (and their texture) as they were.
const std::vector<float>& mask_values(AppState& state) {
  const int n = int(state.result.allowed.rows()), m = int(state.result.allowed.cols());
  UiCaches& c = state.ui.caches;
  const attn::StageChange& change = state.result_change;
  if (changed_only_since(state, c.mask_version)) {
    if (change.mask && !change.rows.empty()) {
      for (int i : change.rows) fill_mask_row(state, i, c.mask_values);
      c.mask_changed_since = c.mask_built;
      c.mask_changed_rows = change.rows;
      c.mask_built = state.result_version;
    }
    c.mask_version = state.result_version;
  }
  if (c.mask_version != state.result_version) {
    c.mask_version = c.mask_built = state.result_version;
    c.mask_changed_since = 0;
    c.mask_values.assign(std::size_t(n) * m, 0.0f);
    for (int i = 0; i < n; ++i) fill_mask_row(state, i, c.mask_values);
  }
  return c.mask_values;
}

MaskFrame mask_geometry(const AppState& state, const Fonts& fonts, int n, int m) {
  const float em = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  MaskFrame f;
  // ALiBi: B beside M, the two grids sharing the width ("+ B + M").
  f.bias = state.result.bias.rows() == n && n > 0;
  const float bias_gap = f.bias ? 1.0f * em : 0.0f, grids = f.bias ? 2.0f : 1.0f;
  float longest = 0;
  for (const std::string& t : state.scene.tokens)
    longest = std::max(longest, ImGui::CalcTextSize(t.c_str()).x);
  f.label_w = std::min(longest, 4.5f * em) + 0.6f * em;
  f.line = ImGui::GetTextLineHeight();
  // Cells as large as the panel allows (up to kMaxCellEm), the grid centred; the key labels take
  // one line.
  auto fit_cell = [&](int label_lines) {
    const float reserved_h =
        float(label_lines) * f.line + 0.3f * em + check_question_height(fonts, kCheckMask.question);
    const float w = (avail.x - f.label_w - bias_gap) / grids, h = avail.y - reserved_h;
    return std::min(fit_grid_cell(w, w, m, em), fit_grid_cell(h, h, n, em));
  };
  f.cell = fit_cell(1);
  f.grid_w = f.cell * float(m);
  f.grid_h = f.cell * float(n);
  const float header_h = float(f.label_lines) * f.line + 0.2f * em;
  const float free_h =
      avail.y - header_h - f.grid_h - 0.1f * em - check_question_height(fonts, kCheckMask.question);
  const float grids_w = grids * f.grid_w + bias_gap;
  f.origin = ImVec2(std::floor(start.x + f.label_w + std::max(0.0f, 0.5f * (avail.x - f.label_w - grids_w))),
                    std::floor(start.y + header_h + std::max(0.0f, 0.5f * free_h)));
  f.grid_max = ImVec2(f.origin.x + f.grid_w, f.origin.y + f.grid_h);
  f.bias_origin = ImVec2(f.grid_max.x + bias_gap, f.origin.y);
  return f;
}

// The cells (painted by the GL renderer), the grid's geometry for hover, keyboard and --rects, the
// labels (every k-th when crowded: a label needs a line of height) and 0/1 in the cells when they fit.
void draw_mask_grid(AppState& state, MatrixPainter& painter, const Fonts& fonts, const MaskFrame& f,
                    const std::vector<float>& values) {
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.allowed.rows()), m = int(r.allowed.cols());
  const float em = ImGui::GetFontSize(), cell = f.cell;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  MatrixImage image;
  image.slot = MatrixSlot::Mask;
  image.rows = n;
  image.cols = m;
  image.values = values.data();
  image.version = state.ui.caches.mask_built;
  image.changed = {state.ui.caches.mask_changed_since, &state.ui.caches.mask_changed_rows,
                   nullptr};  // a mask edit: its rows
  image.colormap = Colormap::Mask;
  image.lo = 0;
  image.hi = 1;
  image.gap_px = cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * cell, 3.0f))) : 0.0f;
  image.aggregate = CellAggregate::Max;  // cells smaller than a pixel: allowed if any cell of it is
  painter.paint(dl, f.origin, f.grid_max, image);

  GridGeometry& grid = state.ui.frame.mask_grid;
  grid.visible = true;
  grid.origin = f.origin;
  grid.cell = cell;
  grid.rows = n;
  grid.cols = m;
  grid.clip =
      ImVec4(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x, dl->GetClipRectMax().y);

  const int lit_i = state.ui.frame.shown.hovered_row, lit_j = state.ui.frame.shown.hovered_col;
  GridLabels labels;
  labels.grid = "mask";
  labels.tokens = &s.tokens;
  labels.col_tokens = &scene::key_labels(s);
  labels.origin = f.origin;
  labels.cell = cell;
  labels.row_last = n;
  labels.col_last = m;
  labels.lit_row = lit_i;
  labels.lit_col = lit_j;
  draw_query_labels(state, labels, f.origin.x - 0.4f * em, f.label_w - 0.5f * em, palette::query());
  draw_key_labels(state, labels, f.origin.y - f.line - 0.2f * em, palette::key());
  ImGui::PushFont(fonts.small);
  if (cell >= 1.3f * ImGui::GetTextLineHeight()) {
    // The mask colormap is the same in every theme: a hidden cell's 0 in white or black, whichever
    // reads on its slate.
    const ImU32 hidden_text = contrasting_text(colormap_color(Colormap::Mask, 0.0f));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const char* t = r.allowed(i, j) ? "1" : "0";
        const ImVec2 size = ImGui::CalcTextSize(t);
        dl->AddText(ImVec2(f.origin.x + cell * (float(j) + 0.5f) - 0.5f * size.x,
                           f.origin.y + cell * (float(i) + 0.5f) - 0.5f * size.y),
                    r.allowed(i, j) ? palette::allowed_text() : hidden_text, t);
      }
    }
  }
  ImGui::PopFont();
}

// The cell's tooltip: which pair, and whether (and by which mask) it is hidden.
void mask_cell_tooltip(const AppState& state, int i, int j) {
  const scene::Scene& s = state.scene;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(fill(tr(Text::MaskCellTip),
                              {std::to_string(i), std::to_string(j), s.tokens[i], scene::key_labels(s)[j]})
                             .c_str());
  const MaskReason why = mask_reason(s, state.result.allowed, i, j);
  if (why == MaskReason::Causal) {
    ImGui::TextDisabled("%s", fill(tr(Text::MaskCausalNo), {std::to_string(j), std::to_string(i)}).c_str());
  } else if (why == MaskReason::Window) {
    ImGui::TextDisabled(
        "%s",
        fill(tr(Text::MaskWindowNo), {std::to_string(std::abs(i - j)), std::to_string(s.window)}).c_str());
  } else if (why == MaskReason::Allowed && s.window > 0 && j < s.sinks &&
             !attn::window_allows(i, j, s.window, 0, s.causal)) {
    ImGui::TextDisabled("%s",
                        fill(tr(Text::MaskSinkYes), {std::to_string(j), std::to_string(s.sinks)}).c_str());
  } else if (why == MaskReason::Allowed) {
    ImGui::TextDisabled("%s", tr(Text::MaskYes));
  } else {
    ImGui::TextDisabled("%s", tr(Text::MaskCustomNo));
  }
  ImGui::EndTooltip();
}

// Clicks: one invisible button over the grid, the cell from the mouse position. The keyboard: one
// Tab stop, the arrows move over the cells, Space toggles one. A cell hidden by causal is not
// toggled (a notice says why).
void mask_input(AppState& state, const MaskFrame& f) {
  const attn::Result& r = state.result;
  const scene::Scene& s = state.scene;
  const int n = int(r.allowed.rows()), m = int(r.allowed.cols());
  const float em = ImGui::GetFontSize(), cell = f.cell;
  ImGui::SetCursorScreenPos(f.origin);
  ImGui::InvisibleButton("##maskgrid", ImVec2(std::max(f.grid_w, 1.0f), std::max(f.grid_h, 1.0f)));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  int key_i = -1, key_j = -1;
  bool key_toggle = false;
  const bool keyed = focus_grid(state, "cell/mask", f.origin, cell, n, m, &key_i, &key_j, &key_toggle);
  if (keyed) {
    const MaskReason why = mask_reason(s, r.allowed, key_i, key_j);
    announce(state, "mask row " + fit_text(s.tokens[std::size_t(key_i)], 12.0f * em) + ", column " +
                        fit_text(scene::key_labels(s)[std::size_t(key_j)], 12.0f * em) + ": " +
                        (why == MaskReason::Allowed  ? "may attend"
                         : why == MaskReason::Causal ? "hidden by the causal mask"
                         : why == MaskReason::Window ? "hidden by the sliding window"
                                                     : "hidden"));
  }
  if (!hovered && !keyed) return;
  const bool by_mouse = hovered;
  const int i = by_mouse ? std::clamp(int((mouse.y - f.origin.y) / cell), 0, n - 1) : key_i;
  const int j = by_mouse ? std::clamp(int((mouse.x - f.origin.x) / cell), 0, m - 1) : key_j;
  if (!by_mouse)
    place_tooltip_beside_cell(ImVec2(f.origin.x + cell * float(j), f.origin.y + cell * float(i)), cell);
  state.ui.frame.next.hovered_row = i;
  state.ui.frame.next.hovered_col = j;
  state.ui.frame.next.hovered_term = Term::Mask;
  mask_cell_tooltip(state, i, j);
  if ((by_mouse && clicked) || (keyed && key_toggle && i == key_i && j == key_j)) {
    const MaskReason why = mask_reason(s, r.allowed, i, j);
    if (why == MaskReason::Causal) {
      state.notice = tr(Text::MaskCausalNotice);
    } else if (why == MaskReason::Window) {
      state.notice = tr(Text::MaskWindowNotice);
    } else {
      toggle_mask_cell(state, i, j);
    }
  }
}

// ALiBi's B beside M, its caption where the key labels would be (bias_grid.cpp draws the cells).
void draw_mask_bias(AppState& state, MatrixPainter& painter, const Fonts& fonts, const MaskFrame& f) {
  const scene::Scene& s = state.scene;
  const int head = std::clamp(state.ui.focus_head, 0, std::max(1, s.heads) - 1);
  const attn::Matrix& B = state.result.bias;
  const std::string slope = "m = " + format_number(B.rows() > 1 ? -B(1, 0) : 0.0, 4);  // B(1, 0) = −m
  const std::string caption = fill(tr(Text::BiasTitle), {std::to_string(head), slope.substr(4)});
  ImGui::PushFont(fonts.small);
  ImGui::GetWindowDrawList()->AddText(
      ImVec2(f.bias_origin.x, f.bias_origin.y - ImGui::GetTextLineHeight() - 0.2f * ImGui::GetFontSize()),
      term_lit(state, Term::Bias) ? palette::accent() : palette::text(),
      (ImGui::CalcTextSize(caption.c_str()).x <= f.grid_w ? caption : fit_text("B  " + slope, f.grid_w))
          .c_str());
  ImGui::PopFont();
  draw_bias_grid(state, painter, fonts, f.bias_origin, f.cell);
}

}  // namespace

void draw_mask_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::MaskTitle), tr(Text::MaskHint));
  state.ui.frame.mask_grid.visible = false;
  if (!state.computed) return;
  draw_window_controls(state, fonts);  // the kind named; window w and sinks s (variant_controls.cpp)
  const int n = int(state.result.allowed.rows()), m = int(state.result.allowed.cols());
  const std::vector<float>& values = mask_values(state);
  const MaskFrame f = mask_geometry(state, fonts, n, m);
  draw_mask_grid(state, painter, fonts, f, values);
  if (f.bias) draw_mask_bias(state, painter, fonts, f);
  mask_input(state, f);
  const int lit_i = state.ui.frame.shown.hovered_row, lit_j = state.ui.frame.shown.hovered_col;
  if (lit_i >= 0 && lit_j >= 0 && lit_i < n && lit_j < m) {
    const ImVec2 a(f.origin.x + f.cell * float(lit_j), f.origin.y + f.cell * float(lit_i));
    outline(ImGui::GetWindowDrawList(), a, ImVec2(a.x + f.cell, a.y + f.cell), palette::selection(),
            std::max(1.5f, 0.12f * ImGui::GetFontSize()));
  }
  check_question(state, fonts, kCheckMask);
}

}  // namespace ui
