// heatmap_panel.cpp — the Scores QKᵀ and Weights softmax(·) panels (their cells' derivation
// tooltips: tooltips.cpp; their legend, switches, zoom and pan: heatmap_controls.cpp).
//
// [SECTION] Panel data: what each heatmap shows (n×n floats, masked cells as kMaskedValue)
// [SECTION] Geometry: cell size and label areas in the available region
// [SECTION] One grid frame: geometry, view, cells, hover, labels, numbers, marks, row sums, footer
// [SECTION] draw_heatmap_panel: the steps above in order
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "scene/variant_keys.hpp"
#if AL_ALL_MODES  // the Weights grid's "none" column with a sink logit (modern_variants.cpp)
#include "ui/panels/variant_parts.hpp"
#endif
#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/grid_labels.hpp"
#include "ui/panels/heatmap_controls.hpp"
#include "ui/panels/heatmap_image.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/grid_captions.hpp"
#include "ui/text/scale_texts.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {
namespace {

//-------------------------------------------------------------------------------------------------
// [SECTION] Panel data
//-------------------------------------------------------------------------------------------------

// What each grid holds and how it is kept up to date: heatmap_image.hpp (rows and columns an edit
// changed, uploaded alone). The Scores panel's second tab holds the scaled + masked QKᵀ / s + M
// (grid_captions.hpp); masked cells are hatched in every grid (the raw grid prints their score on the
// hatching).
constexpr int kZoomHintTokens = 16;  // from this many tokens the grids show their zoom badge

//-------------------------------------------------------------------------------------------------
// [SECTION] Geometry
//-------------------------------------------------------------------------------------------------

// One grid frame: where the block of labels, cells, Σ column and legend sits in the panel (the
// geometry, fixed for the frame) and which cells the zoom and pan show (the view).
//
//   start ┌──────────────── avail.x ───────────────┐
//         │        col labels (label_lines)         │ col_label_h
//         │ row    ┌ grid_min ───── grid_w ┐  Σ    │
//         │ labels │  cells (cell at zoom 1) │ column│
//         │        └─────────────── grid_max ┘ sum_w │
//         │        legend, zoom badge, log toggle   │ legend_h
//         └─────────────────────────────────────────┘
struct Geometry {
  ImVec2 start, avail;  // the panel's free region
  ImVec2 grid_min;      // cell (0,0) corner at zoom 1
  ImVec2 grid_max;      // the frame's far corner: grid_min + (grid_w, grid_h)
  float cell = 0;       // cell pitch at zoom 1
  float row_label_w = 0;
  float sum_w = 0;         // weights only: the Σ column
  float sum_room = 0;      // the Σ column's width (both panels size their cells without it)
  float entropy_room = 0;  // its entropy part, when the entropy aid is on
#if AL_ALL_MODES
  float none_room = 0;  // with a sink logit: the "none" column before Σ (part of sum_room)
#endif
  float line = 0;           // a text line's height
  float col_label_h = 0;    // the key labels' band above the grid
  int label_lines = 1;      // the key labels' lines (one: every 2ᵏ-th whole name, grid_labels.hpp)
  bool extra_line = false;  // large scenes: a line under the legend (what a pixel shows, auto range)
  float grid_w = 0, grid_h = 0, block_w = 0, block_h = 0;
  float y0 = 0;  // top of the centred block

  // --- the view (zoom and pan): cell (i, j) has its corner at o + cz·(j, i)
  float cz = 0;  // cell pitch on screen
  ImVec2 o;
  CellRange rows, cols;  // the cells in view
  ImVec4 clip;           // the part of the frame inside the window (x0, y0, x1, y1)
};

float max_label_width(const std::vector<std::string>& tokens) {
  float w = 0;
  for (const std::string& t : tokens) w = std::max(w, ImGui::CalcTextSize(t.c_str()).x);
  return w;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] One grid frame
//-------------------------------------------------------------------------------------------------

// --- geometry: labels left and above, Σ column right (weights), legend below; n rows (queries), m
// columns (keys)
Geometry heatmap_geometry(const AppState& state, const Fonts& fonts, int n, int m, bool scores) {
  const std::vector<std::string>& tokens = state.scene.tokens;
  const float em = ImGui::GetFontSize();
  Geometry g;
  g.avail = ImGui::GetContentRegionAvail();
  g.start = ImGui::GetCursorScreenPos();
  g.row_label_w = std::min(max_label_width(tokens), 6.0f * em) + 0.6f * em;
  // The Σ column is drawn by Weights only, but both panels size their cells without it, so that
  // side by side (equal panels) their cells and rows are the same size and level.
  // With the entropy column on, both make room for it too ("1.47 / 1.58": H and log₂ k, bits).
  g.entropy_room = state.ui.show_entropy ? ImGui::CalcTextSize("0.00 / 0.00").x + 0.6f * em : 0.0f;
  g.sum_room = ImGui::CalcTextSize("Σ 1.000").x + 0.8f * em + g.entropy_room;
#if AL_ALL_MODES
  // With a sink logit, a column "none" of the sink's weights before Σ (both panels make room, as for Σ).
  if (sink_weights(state)) {
    g.none_room = 3.0f * em;
    g.sum_room += g.none_room;
  }
#endif
  g.sum_w = scores ? 0.0f : g.sum_room;
  g.line = ImGui::GetTextLineHeight();
  const float line = g.line;
  // Both heatmaps reserve the taller of their questions: side by side, their cells stay level.
  const float check_h = std::max(check_question_height(fonts, kCheckScores.question),
                                 check_question_height(fonts, kCheckWeights.question));
  // A large scene's grids have one more line under the legend: what a pixel shows, the auto range.
  g.extra_line = n >= kLargeSceneTokens;
  const float legend_h = (g.extra_line ? 2.4f * em + line : 2.4f * em) + check_h;
  // Cells fill the panel up to kMaxCellEm (a panel shown alone, few tokens). Whole pixels while
  // cells are big enough to show gaps; large n gets fractional cells (the shader samples one texel
  // per fragment, so a 1024×1024 grid still fits the panel). The key labels take one line.
  auto fit_cell = [&](int label_lines) {
    const float col_label_h = float(label_lines) * line + 0.35f * em;
    const float w = g.avail.x - g.row_label_w - g.sum_room, h = g.avail.y - col_label_h - legend_h;
    return std::min(fit_grid_cell(w, w, m, em), fit_grid_cell(h, h, n, em));
  };
  const float cell = fit_cell(1);
  g.label_lines = 1;
  g.cell = cell;
  g.col_label_h = float(g.label_lines) * line + 0.35f * em;
  g.grid_w = cell * float(m);
  g.grid_h = cell * float(n);
  g.block_w = g.row_label_w + g.grid_w + g.sum_w;
  g.block_h = g.col_label_h + g.grid_h + legend_h;
  // Centred in the panel, across and down.
  const float x0 = g.start.x + std::max(0.0f, 0.5f * (g.avail.x - g.block_w));
  g.y0 = g.start.y + std::max(0.0f, 0.5f * (g.avail.y - g.block_h));
  g.grid_min = ImVec2(std::floor(x0 + g.row_label_w), std::floor(g.y0 + g.col_label_h));
  g.grid_max = ImVec2(g.grid_min.x + g.grid_w, g.grid_min.y + g.grid_h);
  return g;
}

// --- zoom and pan: the frame [grid_min, grid_max] shows the view's cells (ui/widgets/grid_view.hpp);
// cell (i, j) has its corner at o + cz·(j, i) and is drawn only where it meets the frame.
void heatmap_view(GridView& view, Geometry& g, int n, int m, bool scores) {
  if (view.n != n || view.m != m) fit_view(view, n, m);
  zoom_and_pan(view, scores ? 1 : 2, g.grid_min, g.grid_max, g.cell);
  g.cz = g.cell * float(view.zoom);
  g.o = ImVec2(g.grid_min.x - g.cz * float(view.col0), g.grid_min.y - g.cz * float(view.row0));
  g.rows = visible_cells(view.row0, view.span(), n);
  g.cols = visible_cells(view.col0, view.col_span(), m);
}

// --- the cells, drawn by the GL renderer in this draw list's order; the grid's geometry for the
// hover, the keyboard and --rects
void paint_heatmap(AppState& state, MatrixPainter& painter, Geometry& g, const HeatmapImage& d,
                   const TextureChange& change, bool log_scale, bool scores) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const GridView& view = state.ui.grid_view;
  MatrixImage image;
  image.slot = scores ? MatrixSlot::Scores : MatrixSlot::Weights;
  image.rows = d.n;
  image.cols = d.m;
  image.values = d.values.data();
  // A new scale or a new tab is a new texture; an edited row or column uploads only itself.
  const auto texture_version = [&](std::uint64_t v) {
    return 4 * v + (log_scale ? 1 : 0) + (d.grid == int(captions::Grid::Scaled) ? 2 : 0);
  };
  image.version = texture_version(d.version);
  if (change.since != 0) image.changed = {texture_version(change.since), change.rows, change.cols};
  image.aggregate = state.ui.pixel_mean ? CellAggregate::Mean
                    : scores            ? CellAggregate::Magnitude
                                        : CellAggregate::Max;
  image.colormap = d.colormap;
  image.lo = d.lo;
  image.hi = d.hi;
  image.gap_px = g.cz >= 8 ? std::max(1.0f, std::round(std::min(0.06f * g.cz, 3.0f))) : 0.0f;
  image.view_col0 = float(view.col0);
  image.view_row0 = float(view.row0);
  image.view_col1 = float(view.col0 + view.col_span());
  image.view_row1 = float(view.row0 + view.span());
  painter.paint(dl, g.grid_min, g.grid_max, image);

  GridGeometry& grid = scores ? state.ui.frame.scores_grid : state.ui.frame.weights_grid;
  grid.visible = true;
  grid.origin = g.o;
  grid.cell = g.cz;
  grid.rows = d.n;
  grid.cols = d.m;
  // The part of the frame inside the window: cells outside it (scrolled or zoomed away) have no rect.
  g.clip = dl->GetClipRectMax().x > 0 ? ImVec4(std::max(dl->GetClipRectMin().x, g.grid_min.x),
                                               std::max(dl->GetClipRectMin().y, g.grid_min.y),
                                               std::min(dl->GetClipRectMax().x, g.grid_max.x),
                                               std::min(dl->GetClipRectMax().y, g.grid_max.y))
                                      : ImVec4(0, 0, 0, 0);
  grid.clip = g.clip;
}

// The cell under the mouse, or the keyboard's cell (then `keyed`, at key_i, key_j).
struct Hover {
  int i = -1, j = -1;
  bool keyed = false;
  int key_i = -1, key_j = -1;
};

// --- hover: which cell, and highlight shared with the other grids; the keyboard: the grid is one
// Tab stop, the arrows move over its cells as the mouse would (and say the cell's value).
Hover heatmap_hover(AppState& state, const Geometry& g, const HeatmapImage& d, captions::Grid which,
                    bool scores) {
  const attn::Result& r = state.result;
  const std::vector<std::string>& tokens = state.scene.tokens;
  const int n = d.n, m = d.m;
  const float em = ImGui::GetFontSize();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  Hover h;
  if (ImGui::IsWindowHovered() && mouse.x >= g.grid_min.x && mouse.x < g.grid_max.x &&
      mouse.y >= g.grid_min.y && mouse.y < g.grid_max.y) {
    h.i = std::clamp(int((mouse.y - g.o.y) / g.cz), 0, n - 1);
    h.j = std::clamp(int((mouse.x - g.o.x) / g.cz), 0, m - 1);
    state.ui.frame.next.hovered_row = h.i;
    state.ui.frame.next.hovered_col = h.j;
  }
  h.keyed = focus_grid(state, scores ? "cell/scores" : "cell/weights", g.grid_min, g.cell, n, m, &h.key_i,
                       &h.key_j);
  if (!h.keyed) return h;
  const std::string row = fit_text(tokens[std::size_t(h.key_i)], 12.0f * em);
  const std::string col = fit_text(scene::key_labels(state.scene)[std::size_t(h.key_j)], 12.0f * em);
  std::string spoken;
  if (!r.allowed(h.key_i, h.key_j)) {
    spoken = "masked";
  } else if (scores) {
    spoken = format_number(captions::grid_value(which, r, h.key_i, h.key_j), 3);
  } else {
    spoken = format_number(r.weights(h.key_i, h.key_j), 3);
    const attn::ReadingAids& aids = reading_aids(state);
    const int top = int(aids.argmax.size()) == n ? aids.argmax[std::size_t(h.key_i)] : -1;
    if (top == h.key_j) spoken += ", highest in row";
  }
  announce(state, std::string(scores ? (d.grid == int(captions::Grid::Scaled) ? "scaled score" : "score")
                                     : "weight") +
                      " row " + row + ", column " + col + ": " + spoken);
  if (h.i < 0) {  // the mouse is elsewhere: the cell shows its derivation as if hovered
    h.i = h.key_i;
    h.j = h.key_j;
    state.ui.frame.next.hovered_row = h.i;
    state.ui.frame.next.hovered_col = h.j;
  }
  return h;
}

// --- labels: rows are queries (orange), columns are keys (blue); every 2ᵏ-th whole name when crowded
// (the same tokens while panning), only those in view (grid_labels.hpp)
void draw_heatmap_labels(AppState& state, const Geometry& g, bool scores, int lit_i, int lit_j,
                         int walk_row) {
  const GridView& view = state.ui.grid_view;
  const float em = ImGui::GetFontSize(), line = g.line;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  GridLabels labels;
  labels.grid = scores ? "scores" : "weights";
  labels.tokens = &state.scene.tokens;
  labels.col_tokens = &scene::key_labels(state.scene);
  labels.origin = g.o;
  labels.cell = g.cz;
  labels.row_first = g.rows.first;
  labels.row_last = g.rows.last;
  labels.col_first = g.cols.first;
  labels.col_last = g.cols.last;
  labels.lit_row = lit_i >= 0 ? lit_i : walk_row;
  labels.lit_col = lit_j;
  const float label_top = g.grid_min.y - g.col_label_h - 0.2f * em;
  // Zoomed, labels are cut at the frame (the cells beyond it are out of view); whole, the first and
  // last labels may reach a little past it.
  const float pad_x = view.zoomed() ? 0.0f : 3.0f * em, pad_y = view.zoomed() ? 0.0f : line;
  dl->PushClipRect(ImVec2(g.start.x, g.grid_min.y - pad_y), ImVec2(g.grid_min.x, g.grid_max.y + pad_y), true);
  draw_query_labels(state, labels, g.grid_min.x - 0.45f * em, g.row_label_w - 0.5f * em, palette::query());
  dl->PopClipRect();
  dl->PushClipRect(ImVec2(g.grid_min.x - pad_x, label_top), ImVec2(g.grid_max.x + pad_x, g.grid_min.y), true);
  draw_key_labels(state, labels, g.grid_min.y - 0.35f * em - line, palette::key());
  dl->PopClipRect();
}

// --- numbers inside the cells (contrasting colour from the CPU copy of the colormap)
void draw_cell_numbers(const AppState& state, const Fonts& fonts, const Geometry& g, const HeatmapImage& d,
                       captions::Grid which) {
  const attn::Result& r = state.result;
  const bool scores = which != captions::Grid::Weights, raw = which == captions::Grid::Raw;
  const float em = ImGui::GetFontSize(), cz = g.cz;
  const int m = d.m;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Large cells (few tokens, a panel alone) get the body font, others the small one.
  ImFont* number_font = cz >= 5.0f * em ? fonts.text : fonts.small;
  const int decimals = decimals_for(cz, number_font);
  if (decimals < 0 || cz < number_font->FontSize * 1.15f) return;
  ImGui::PushFont(number_font);
  // Room for the text: the cell minus a little padding, in digits (the widest common glyph).
  const float room = cz - 0.3f * number_font->FontSize;
  const float digit = ImGui::CalcTextSize("0").x;
  const int max_chars = std::max(1, int(room / digit));
  for (int i = g.rows.first; i < g.rows.last; ++i) {
    const float cy = g.o.y + cz * (float(i) + 0.5f);
    if (cy < g.clip.y - cz || cy > g.clip.w + cz) continue;
    for (int j = g.cols.first; j < g.cols.last; ++j) {
      const float v = d.values[std::size_t(i) * m + j];
      const bool masked = v >= kMaskedValue;
      std::string text;
      ImU32 color;
      if (masked && raw) {
        // QKᵀ has no −∞: the mask hides this pair later; its raw score reads on the hatching.
        text = format_number(r.scores(i, j), decimals);
        color = palette::text_dim();
      } else if (masked) {
        text = scores ? "−∞" : "0";
        color = palette::text();
      } else {
        if (scores) {
          text = format_number(captions::grid_value(which, r, i, j), decimals);
        } else {
          // Almost 0 or almost 1 must not read as exact (the soft dictionary's 0.999955 /
          // 4.5e-5): more digits when they fit, fewer when the glyphs run wider than a digit.
          const double w = r.weights(i, j);
          text = format_weight(w, decimals, max_chars);
          for (int chars = max_chars - 1; chars >= 2 && ImGui::CalcTextSize(text.c_str()).x > room; --chars) {
            text = format_weight(w, decimals, chars);
          }
        }
        const float t = (v - d.lo) / std::max(d.hi - d.lo, 1e-12f);
        color = contrasting_text(colormap_color(d.colormap, t));
      }
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      const float cx = g.o.x + cz * (float(j) + 0.5f);
      dl->AddText(ImVec2(cx - 0.5f * size.x, cy - 0.5f * size.y), color, text.c_str());
    }
  }
  ImGui::PopFont();
}

// --- marks on the cells: each row's largest weight outlined (the first one on a tie), the walk's
// row, the hovered cell (this grid or another) with its row and column
void draw_cell_marks(const AppState& state, const Geometry& g, bool argmax, int walk_row, int lit_i,
                     int lit_j) {
  const float em = ImGui::GetFontSize(), cz = g.cz;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (argmax) {
    const std::vector<int>& top = reading_aids(state).argmax;
    const float inset = std::max(1.0f, 0.1f * cz);
    for (int i = g.rows.first; i < g.rows.last; ++i) {
      const int j = top[std::size_t(i)];
      if (j < 0) continue;
      const ImVec2 a(g.o.x + cz * float(j) + inset, g.o.y + cz * float(i) + inset);
      outline(dl, a, ImVec2(a.x + cz - 2.0f * inset, a.y + cz - 2.0f * inset), palette::query(),
              std::max(1.5f, std::min(0.1f * em, 0.08f * cz)));
    }
  }
  if (walk_row >= 0) {
    const float y = g.o.y + cz * float(walk_row);
    dl->AddRect(ImVec2(g.grid_min.x - 1.0f, y - 1.0f), ImVec2(g.grid_max.x + 1.0f, y + cz + 1.0f),
                palette::accent(), 0, 0, std::max(1.5f, 0.12f * em));
  }
  if (lit_i >= 0 && lit_j >= 0) {
    const ImVec2 a(g.o.x + cz * float(lit_j), g.o.y + cz * float(lit_i));
    dl->AddRect(ImVec2(g.grid_min.x, a.y), ImVec2(g.grid_max.x, a.y + cz), palette::accent_soft(), 0, 0,
                std::max(1.0f, 0.08f * em));
    dl->AddRect(ImVec2(a.x, g.grid_min.y), ImVec2(a.x + cz, g.grid_max.y), palette::accent_soft(), 0, 0,
                std::max(1.0f, 0.08f * em));
    outline(dl, a, ImVec2(a.x + cz, a.y + cz), palette::selection(), std::max(1.5f, 0.12f * em));
  }
}

// --- weights: each row's sum (= 1, or 0 for a fully masked row), and with the entropy aid H in bits
// beside its largest value log₂ k (even over the row's k visible keys)
void draw_row_sums(const AppState& state, const Fonts& fonts, const Geometry& g, bool entropy) {
  const attn::Result& r = state.result;
  const float em = ImGui::GetFontSize(), cz = g.cz;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  const float text_x = g.grid_max.x + g.sum_room - g.entropy_room;
  float sum_x = g.grid_max.x + 0.5f * em;
#if AL_ALL_MODES
  // With a sink, Σ counts the "none" column too: every row's weights and its sink share make 1.
  const std::vector<double>* sink = sink_weights(state);
  sum_x += g.none_room;
#endif
  for (int i = g.rows.first; i < g.rows.last; ++i) {
    double sum = r.weights.row(i).sum();
#if AL_ALL_MODES
    if (sink) sum += (*sink)[std::size_t(i)];
#endif
    const std::string text = "Σ " + format_number(sum, 3);
    const float y = g.o.y + cz * (float(i) + 0.5f) - 0.5f * ImGui::GetTextLineHeight();
    if (y < g.grid_min.y - 0.2f * em || y + ImGui::GetTextLineHeight() > g.grid_max.y + 0.2f * em) continue;
    dl->AddText(ImVec2(sum_x, y), palette::text_dim(), text.c_str());
    if (entropy) {
      const attn::ReadingAids& aids = reading_aids(state);
      const std::string h = format_number(aids.entropy[std::size_t(i)], 2) + " / " +
                            format_number(aids.uniform[std::size_t(i)], 2);
      dl->AddText(ImVec2(text_x, y), palette::value(), h.c_str());
    }
  }
  if (entropy) {
    dl->AddText(ImVec2(text_x, g.grid_min.y - ImGui::GetTextLineHeight() - 0.2f * em), palette::value(),
                "H / log₂k");
  }
  ImGui::PopFont();
}

// --- a large scene's line under the legend: what a pixel shows when cells are smaller than pixels (a
// click switches the largest value and the mean), and for the weights the auto colour range
void draw_big_grid_line(AppState& state, const Fonts& fonts, const Geometry& g, bool scores) {
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  const float fb = std::max(ImGui::GetIO().DisplayFramebufferScale.x, 1e-3f);
  const float cells_per_px = 1.0f / std::max(g.cz * fb, 1e-6f);
  if (cells_per_px > 1.0f) {
    const int k = int(std::ceil(cells_per_px - 1e-3f));
    const std::string block = std::to_string(k) + "×" + std::to_string(k);
    const Text what = state.ui.pixel_mean ? Text::PixelMean : scores ? Text::PixelMagnitude : Text::PixelMax;
    ImGui::SetCursorScreenPos(ImVec2(g.grid_min.x, g.grid_max.y + 2.4f * em));
    if (chip(state, (fill(tr(what), {block}) + "##pixel").c_str(), scores ? "scores/pixel" : "weights/pixel",
             state.ui.pixel_mean))
      state.ui.pixel_mean = !state.ui.pixel_mean;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::PixelTip));
  }
  if (!scores && !state.ui.weights_log) {
    // Under the log toggle, in the Σ column.
    ImGui::SetCursorScreenPos(
        ImVec2(g.grid_max.x + 0.3f * em, g.grid_max.y + 0.35f * em + ImGui::GetFrameHeightWithSpacing()));
    checkbox(state, "weights-auto", (std::string(tr(Text::AutoRangeToggle)) + "###weights-auto").c_str(),
             &state.ui.weights_auto);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::AutoRangeTip));
  }
  ImGui::PopFont();
}

// --- under the grid: the legend bar, then (with masked cells) the hatched swatch and its label, all
// inside the panel; the zoom badge; the weights' log toggle. Then the block claims its space.
void draw_heatmap_footer(AppState& state, MatrixPainter& painter, const Fonts& fonts, const Geometry& g,
                         const HeatmapImage& d, HeatmapKind kind, const std::string& masked_label) {
  const attn::Result& r = state.result;
  const bool scores = kind == HeatmapKind::Scores;
  GridView& view = state.ui.grid_view;
  const float em = ImGui::GetFontSize();
  const bool any_masked = captions::any_masked_cell(r);
  float swatch_w = 0;
  if (any_masked) {
    ImGui::PushFont(fonts.small);
    swatch_w = 2.9f * em + ImGui::CalcTextSize(masked_label.c_str()).x;
    ImGui::PopFont();
  }
  // The zoom badge ("4.0× fit"), right-aligned under the grid once zoomed, or for big grids (as
  // the hint that they zoom): a click fits the whole grid.
  const bool badge = view.zoomed() || std::max(d.n, d.m) >= kZoomHintTokens;
  char zoom_text[32];
  std::snprintf(zoom_text, sizeof zoom_text, "%.1f", view.zoom);
  const std::string badge_label =
      view.zoomed() ? fill(tr(Text::ZoomFit), {zoom_text}) : std::string(tr(Text::ZoomWheel));
  const char* badge_text = badge_label.c_str();
  ImGui::PushFont(fonts.small);
  const float badge_w =
      badge ? ImGui::CalcTextSize(badge_text).x + 2.0f * ImGui::GetStyle().FramePadding.x + 0.6f * em : 0.0f;
  ImGui::PopFont();
  // The legend, the swatch and the badge share the grid's width. When less than 5 em would be left for
  // the legend's three numbers ("−2.00  0  2.00"), the swatch keeps only its hatching and gives the
  // legend the room of its words (a narrow grid, or a big one beside the zoom badge).
  const char* swatch_label = masked_label.c_str();
  if (any_masked && g.grid_w - swatch_w - badge_w < 5.0f * em) {
    swatch_w = 2.9f * em;
    swatch_label = "";
  }
  const float legend_w = std::max(
      4.0f * em, std::min(std::clamp(g.grid_w, 8.0f * em, 14.0f * em), g.grid_w - swatch_w - badge_w));
  draw_legend(painter, fonts, d, kind, ImVec2(g.grid_min.x, g.grid_max.y + 0.6f * em), legend_w, any_masked,
              swatch_label);
  if (badge) {
    ImGui::PushFont(fonts.small);
    ImGui::SetCursorScreenPos(ImVec2(g.grid_max.x - badge_w + 0.6f * em, g.grid_max.y + 0.35f * em));
    ImGui::PushID(scores ? "scores" : "weights");
    if (small_button(state, scores ? "scores/zoom" : "weights/zoom", badge_text)) fit_view(view, d.n, d.m);
    ImGui::PopID();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ZoomTip));
    ImGui::PopFont();
  }
  if (!scores) {
    // The scale toggle under the Σ column, level with the legend.
    ImGui::SetCursorScreenPos(ImVec2(g.grid_max.x + 0.3f * em, g.grid_max.y + 0.35f * em));
    ImGui::PushFont(fonts.small);
    checkbox(state, "weights-log", (std::string(tr(Text::LogToggle)) + "###weights-log").c_str(),
             &state.ui.weights_log);
    ImGui::PopFont();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::LogTip));
  }
  if (g.extra_line) draw_big_grid_line(state, fonts, g, scores);

  // Claim the space so the window knows its content size.
  ImGui::SetCursorScreenPos(g.start);
  ImGui::Dummy(ImVec2(g.block_w, (g.y0 - g.start.y) + g.block_h -
                                     std::max(check_question_height(fonts, kCheckScores.question),
                                              check_question_height(fonts, kCheckWeights.question))));
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_heatmap_panel
//-------------------------------------------------------------------------------------------------

void draw_heatmap_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts, HeatmapKind kind) {
  if (kind == HeatmapKind::Weights && state.scene.heads > 1) {  // small multiples, one grid per head
    draw_heads_weights_panel(state, painter, fonts);
    return;
  }
  const bool scores = kind == HeatmapKind::Scores;
  // The Scores panel shows raw QKᵀ or, on its second tab, the scaled + masked stage softmax sees.
  const captions::Grid which = !scores                                 ? captions::Grid::Weights
                               : state.ui.scores_tab == ScoresTab::Raw ? captions::Grid::Raw
                                                                       : captions::Grid::Scaled;
  // Titles and hints say what the grid holds (grid_captions.hpp; tested per scale mode and mask).
  captions::Caption caption = captions::grid_caption(which, state.scene, state.result);
  if (which == captions::Grid::Raw && state.scene.heads > 1) {  // the focused head's
    const std::string t = std::to_string(state.ui.focus_head);
    caption.title = fill(tr(Text::HeadScoresTitle), {t});
  }
  const ImVec2 header_pos = ImGui::GetCursorScreenPos();
  // Scores and Weights sit side by side: two hint lines each (the longer one wraps) keep the grids level.
  panel_header(state, fonts, caption.title.c_str(), caption.hint.c_str(), 2);
  draw_grid_switches(state, fonts, kind, header_pos, caption.title);
  (scores ? state.ui.frame.scores_grid : state.ui.frame.weights_grid).visible = false;
  if (!state.computed) return;

  // n² floats: brought up to date only when the result or the tab changed (only the rows and columns
  // an edit changed), not on every hover frame.
  HeatmapImage& d = scores ? state.ui.caches.scores_image : state.ui.caches.weights_image;
  const bool log_scale = !scores && state.ui.weights_log;
  const TextureChange change = update_heatmap_image(state, which, log_scale, &d);
  const int n = d.n, m = d.m;
  Geometry g = heatmap_geometry(state, fonts, n, m, scores);
  heatmap_view(state.ui.grid_view, g, n, m, scores);
  // Weights, linear: colours from 0 to 1 — for a large scene (auto), to the largest weight in view.
  // (Weights that can be negative, differential attention's, keep their two-sided range.)
  if (!scores && !log_scale && d.colormap != Colormap::Diverging)
    d.hi = g.extra_line && state.ui.weights_auto ? std::max(shown_max(&d, g.rows, g.cols), 1e-6f) : 1.0f;
  paint_heatmap(state, painter, g, d, change, log_scale, scores);
  const Hover hover = heatmap_hover(state, g, d, which, scores);

  const int lit_i = state.ui.frame.shown.hovered_row < n ? state.ui.frame.shown.hovered_row : -1;
  const int lit_j = state.ui.frame.shown.hovered_col < m ? state.ui.frame.shown.hovered_col : -1;
  // Walk through: the row its numbers follow, outlined while nothing is hovered.
  const int mode_row = mode_lit_row(state);  // the row a mode follows (the walk's)
  const int walk_row = mode_row >= 0 && lit_i < 0 ? std::clamp(mode_row, 0, n - 1) : -1;
  draw_heatmap_labels(state, g, scores, lit_i, lit_j, walk_row);
  // Everything drawn on the cells stays inside the frame.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(g.clip.x, g.clip.y), ImVec2(g.clip.z, g.clip.w), true);
  draw_cell_numbers(state, fonts, g, d, which);
  const bool argmax = !scores && state.ui.show_argmax && int(reading_aids(state).argmax.size()) == n;
  draw_cell_marks(state, g, argmax, walk_row, lit_i, lit_j);
  dl->PopClipRect();
  if (!scores && g.cz >= fonts.small->FontSize * 1.05f) {
    const bool entropy = state.ui.show_entropy && int(reading_aids(state).entropy.size()) == n;
    draw_row_sums(state, fonts, g, entropy);
  }
#if AL_ALL_MODES
  if (!scores && g.none_room > 0) {
    NoneColumn column;
    column.x0 = g.grid_max.x + 0.4f * ImGui::GetFontSize();
    column.width = std::min(g.cz, g.none_room - 0.5f * ImGui::GetFontSize());
    column.grid_top = g.grid_min.y;
    column.grid_bottom = g.grid_max.y;
    column.origin_y = g.o.y;
    column.cell = g.cz;
    column.first = g.rows.first;
    column.last = g.rows.last;
    column.clip_y0 = g.clip.y;
    column.clip_y1 = g.clip.w;
    column.label_y = g.grid_min.y - 0.35f * ImGui::GetFontSize() - g.line;
    column.lo = d.lo;
    column.hi = d.hi;
    draw_none_column(state, fonts, column);
  }
#endif
  draw_heatmap_footer(state, painter, fonts, g, d, kind, caption.masked);

  check_question(state, fonts, scores ? kCheckScores : kCheckWeights);

  if (hover.i >= 0) {
    state.ui.frame.next.hovered_term = scores ? Term::Scores : Term::Weights;
    // From the keyboard the tooltip sits beside the cell, not at the (absent) mouse.
    if (hover.keyed && hover.i == hover.key_i && hover.j == hover.key_j)
      place_tooltip_beside_cell(
          ImVec2(g.grid_min.x + g.cell * float(hover.key_j), g.grid_min.y + g.cell * float(hover.key_i)),
          g.cell);
    if (scores) {
      score_tooltip(state, hover.i, hover.j);
    } else {
      weight_tooltip(state, state.result, state.scene.heads > 1 ? state.ui.focus_head : -1, hover.i, hover.j);
    }
  }
}

}  // namespace ui
