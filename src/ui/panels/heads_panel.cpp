// heads_panel.cpp — multi-head attention on screen (scenes with "heads" > 1 or a "Wo").
//
// [SECTION] The heads control: 1, 2, 4, 8 heads (those that divide d_k and d_v)
// [SECTION] Weights as small multiples: one grid per head, then their average; click to focus
// [SECTION] Output: each head's Y_t, the concat [Y_0 | … | Y_{h−1}], W_o (draggable) and the output
//
// The focused head (AppState::ui.focus_head) is the one the Scores and Mask panels and the
// derivation tooltips describe: AppState::result holds its stages.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "imgui_internal.h"  // TempInputIsActive: is a W_o cell being typed in?
#include "scene/variant_keys.hpp"
#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {
namespace {

//-------------------------------------------------------------------------------------------------
// [SECTION] Weights as small multiples
//-------------------------------------------------------------------------------------------------

// An n×m weights matrix as a heatmap image (viridis over [0, 1], masked cells hatched).
void build_image(const attn::Matrix& weights, const attn::MaskMatrix& allowed, std::uint64_t version,
                 HeatmapImage* out) {
  const int n = int(weights.rows()), m = int(weights.cols());
  out->n = n;
  out->m = m;
  out->values.resize(std::size_t(n) * std::size_t(m));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      out->values[std::size_t(i) * std::size_t(m) + std::size_t(j)] =
          allowed(i, j) ? float(weights(i, j)) : kMaskedValue;
  out->lo = 0;
  out->hi = 1;
  out->colormap = Colormap::Viridis;
  out->version = version;
}

// The average grid's tooltip: a[i][j] = (a⁰[i][j] + … ) / h, each head's term written out.
void average_tooltip(AppState& state, int i, int j) {
  const attn::HeadsResult& r = state.heads;
  const int h = int(r.heads.size());
  std::string terms;
  for (int t = 0; t < h; ++t) {
    if (t == 6 && h > 7) {
      terms += " + …";
      break;
    }
    terms += (t ? " + " : "") + format_weight(r.heads[std::size_t(t)].weights(i, j), 3);
  }
  const std::string line1 = fill(tr(Text::HeadsAverageLine), {std::to_string(h)}) + " a[" +
                            std::to_string(i) + "][" + std::to_string(j) + "] = (" + terms + ") / " +
                            std::to_string(h) + " = " + format_weight(r.weights_mean(i, j), 4);
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(line1.c_str());
  ImGui::TextDisabled("%s", tr(Text::HeadsAverageNote));
  ImGui::EndTooltip();
  state.ui.frame.next.tooltip += line1 + "\n";
}

// An image per grid (the heads, then the average), rebuilt when the result changes.
const std::vector<HeatmapImage>& head_weight_images(AppState& state) {
  const attn::HeadsResult& r = state.heads;
  const int h = state.scene.heads, grids = h + 1;
  std::vector<HeatmapImage>& images = state.ui.caches.head_weight_images;
  if (int(images.size()) != grids || images[0].version != state.result_version) {
    images.assign(std::size_t(grids), HeatmapImage{});
    for (int t = 0; t < h; ++t)
      build_image(r.heads[std::size_t(t)].weights, r.allowed, state.result_version, &images[std::size_t(t)]);
    build_image(r.weights_mean, r.allowed, state.result_version, &images[std::size_t(h)]);
  }
  return images;
}

// The small multiples' layout: `cols` grids per row, chosen for the largest cells that fit; each grid
// is a caption line over `side` = m·cell pixels across and `side_h` = n·cell down (m = n but for
// cross-attention), `gap` apart, the block centred in the panel.
struct HeadsLayout {
  ImVec2 start, avail;  // the panel's free region
  float caption_h = 0, gap = 0, cell = 0, side = 0, side_h = 0, block_w = 0, block_h = 0, x0 = 0, y0 = 0;
  int cols = 1;

  ImVec2 caption_pos(int g) const {
    return ImVec2(x0 + float(g % cols) * (side + gap), y0 + float(g / cols) * (caption_h + side_h + gap));
  }
};

// `group_line`: room above each caption for the K/V group's label (grouped-query attention), else 0.
HeadsLayout heads_layout(int grids, int n, int m, float group_line = 0.0f) {
  const float em = ImGui::GetFontSize();
  HeadsLayout l;
  l.avail = ImGui::GetContentRegionAvail();
  l.start = ImGui::GetCursorScreenPos();
  l.caption_h = ImGui::GetFrameHeight() + 0.2f * em + group_line;
  l.gap = 0.8f * em;
  float cell = 0;
  for (int c = 1; c <= grids; ++c) {
    const int rows = (grids + c - 1) / c;
    const float pitch = std::min({(l.avail.x - l.gap * float(c - 1)) / float(c) / float(m),
                                  (l.avail.y - float(rows) * (l.caption_h + l.gap)) / float(rows) / float(n),
                                  kMaxCellEm * em});
    if (pitch > cell) {
      cell = pitch;
      l.cols = c;
    }
  }
  l.cell = cell >= 4.0f ? std::floor(cell) : std::max(cell, 0.1f);
  l.side = l.cell * float(m);
  l.side_h = l.cell * float(n);
  const int rows = (grids + l.cols - 1) / l.cols;
  l.block_w = float(l.cols) * l.side + float(l.cols - 1) * l.gap;
  l.block_h = float(rows) * (l.caption_h + l.side_h) + float(rows - 1) * l.gap;
  l.x0 = l.start.x + std::max(0.0f, 0.5f * (l.avail.x - l.block_w));
  l.y0 = l.start.y + std::max(0.0f, 0.5f * (l.avail.y - l.block_h));
  return l;
}

// Caption: "head t" (a button: focus) or "average".
void draw_head_caption(AppState& state, int g, bool average, bool focused, ImVec2 pos) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::PushID(g);
  if (average) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(to_vec4(palette::text_dim()), "%s", tr(Text::HeadsAverage));
  } else {
    const std::string label = (focused ? "● " : "") + fill(tr(Text::HeadLabel), {std::to_string(g)}) +
                              "###head" + std::to_string(g);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(head_color(g)));
    ImGui::PushStyleColor(ImGuiCol_Button, focused ? to_vec4(palette::accent_soft()) : ImVec4(0, 0, 0, 0));
    if (button(state, "head/" + std::to_string(g) + "/focus", label.c_str())) set_focus_head(state, g);
    ImGui::PopStyleColor(2);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", fill(tr(Text::HeadFocusTip), {std::to_string(g)}).c_str());
  }
  ImGui::PopID();
}

// Grouped-query attention: behind the heads of each K/V group (one K and one V shared by h/H_kv
// heads) a tinted frame, per row of the layout the group spans, labelled "K/V group g: heads a–b".
void draw_kv_groups(AppState& state, const Fonts& fonts, const HeadsLayout& l) {
  const int h = state.scene.heads, kv = state.scene.kv(), per = h / kv;
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  for (int group = 0; group < kv; ++group) {
    const int first = group * per, last = first + per - 1;
    const std::string label = fill(
        tr(Text::KvGroupOf), {std::to_string(group), std::to_string(first) + "–" + std::to_string(last)});
    for (int t = first; t <= last;) {
      // The run of the group's heads on one row of the layout.
      int end = t;
      while (end + 1 <= last && (end + 1) / l.cols == t / l.cols) ++end;
      const ImVec2 a = l.caption_pos(t), b = l.caption_pos(end);
      const ImVec2 lo(a.x - 0.3f * em, a.y - 0.1f * em),
          hi(b.x + l.side + 0.3f * em, b.y + l.caption_h + l.side_h + 0.3f * em);
      dl->AddRectFilled(lo, hi, palette::with_alpha(head_color(first), 28), 0.3f * em);
      dl->AddRect(lo, hi, palette::with_alpha(head_color(first), 120), 0.3f * em);
      dl->AddText(ImVec2(a.x, a.y), palette::text(), fit_text(label, hi.x - lo.x - 0.3f * em).c_str());
      if (t == first)
        state.ui.frame.widget_rects["heads/group/" + std::to_string(group)] =
            ImVec4(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y);
      t = end + 1;
    }
  }
  ImGui::PopFont();
}

// Grid g's cells at [gmin, gmin + side²] (outlined when focused), its geometry for hover, keyboard
// and --rects, and its numbers when the cells hold them.
void draw_head_cells(AppState& state, MatrixPainter& painter, const Fonts& fonts, int g,
                     const HeatmapImage& d, const attn::Matrix& w, ImVec2 gmin, float cell, bool focused,
                     ImVec4 clip) {
  const attn::HeadsResult& r = state.heads;
  const int n = int(w.rows()), m = int(w.cols());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 gmax(gmin.x + cell * float(m), gmin.y + cell * float(n));
  MatrixImage image;
  image.slot = MatrixSlot(int(MatrixSlot::HeadWeights) + g);
  image.rows = n;
  image.cols = m;
  image.values = d.values.data();
  image.version = state.result_version;
  image.colormap = d.colormap;
  image.lo = d.lo;
  image.hi = d.hi;
  image.gap_px = cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * cell, 3.0f))) : 0.0f;
  image.aggregate = CellAggregate::Max;  // cells smaller than a pixel: the block's largest weight
  painter.paint(dl, gmin, gmax, image);
  if (focused)
    outline(dl, ImVec2(gmin.x - 2, gmin.y - 2), ImVec2(gmax.x + 2, gmax.y + 2), palette::accent(), 2.0f);
  GridGeometry& geo = state.ui.frame.head_grids[std::size_t(g)];
  geo.visible = true;
  geo.origin = gmin;
  geo.cell = cell;
  geo.rows = n;
  geo.cols = m;
  geo.clip = clip;

  const float digit = ImGui::CalcTextSize("0").x;
  ImGui::PushFont(fonts.small);
  if (cell >= 4.5f * digit && cell >= 1.2f * fonts.small->FontSize) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        const bool masked = !r.allowed(i, j);
        const std::string text = masked ? "0" : format_weight(w(i, j), 2, 4);
        const ImU32 color =
            masked ? palette::text() : contrasting_text(colormap_color(d.colormap, float(w(i, j))));
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        dl->AddText(ImVec2(gmin.x + cell * (float(j) + 0.5f) - 0.5f * size.x,
                           gmin.y + cell * (float(i) + 0.5f) - 0.5f * size.y),
                    color, text.c_str());
      }
  }
  ImGui::PopFont();
}

// The cell the mouse or the keyboard points at, over all the grids.
struct HeadsHover {
  int grid = -1, i = -1, j = -1;
  ImVec2 keyed_cell{-1.0f, -1.0f};  // a cell the keyboard "hovers": its tooltip goes beside it
};

// Hover: a cell of grid g (a click on a head's grid focuses it). The keyboard: each grid is one Tab
// stop ("cell/head/t", "cell/head/average"); the arrows move over its cells and the cell's
// derivation shows as if hovered.
void head_grid_input(AppState& state, int g, bool average, const attn::Matrix& w, ImVec2 gmin, float cell,
                     HeadsHover& hover) {
  const int n = int(w.rows()), m = int(w.cols());
  const float em = ImGui::GetFontSize();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ImVec2 gmax(gmin.x + cell * float(m), gmin.y + cell * float(n));
  if (ImGui::IsWindowHovered() && mouse.x >= gmin.x && mouse.x < gmax.x && mouse.y >= gmin.y &&
      mouse.y < gmax.y) {
    hover.grid = g;
    hover.i = std::min(n - 1, int((mouse.y - gmin.y) / cell));
    hover.j = std::min(m - 1, int((mouse.x - gmin.x) / cell));
    if (!average && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) set_focus_head(state, g);
  }
  int key_i = -1, key_j = -1;
  if (!focus_grid(state, average ? "cell/head/average" : "cell/head/" + std::to_string(g), gmin, cell, n, m,
                  &key_i, &key_j))
    return;
  announce(state, (average ? std::string("average weight") : "head " + std::to_string(g) + " weight") +
                      " row " + fit_text(state.scene.tokens[std::size_t(key_i)], 12.0f * em) + ", column " +
                      fit_text(scene::key_labels(state.scene)[std::size_t(key_j)], 12.0f * em) + ": " +
                      (state.heads.allowed(key_i, key_j) ? format_number(w(key_i, key_j), 3)
                                                         : std::string("masked")));
  if (hover.grid < 0) {
    hover.grid = g;
    hover.i = key_i;
    hover.j = key_j;
    hover.keyed_cell = ImVec2(gmin.x + cell * float(key_j), gmin.y + cell * float(key_i));
  }
}

}  // namespace

ImU32 head_color(int head) {
  // A colour per head (cycled): the underline of its columns in the vectors panel, its grid's
  // caption, its columns of the concat; the theme's, chosen apart from the roles' q, k, v.
  return head_palette_color(head);
}

void draw_heads_weights_panel(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  const int h = state.scene.heads;
  panel_header(state, fonts, fill(tr(Text::HeadsWeightsTitle), {std::to_string(h)}).c_str(),
               tr(Text::HeadsWeightsHint), 2);
  state.ui.frame.weights_grid.visible = false;
  state.ui.frame.head_grids.assign(std::size_t(h) + 1, GridGeometry{});
  if (!state.computed || int(state.heads.heads.size()) != h) return;
  const attn::HeadsResult& r = state.heads;
  const int n = int(r.weights_mean.rows()), m = int(r.weights_mean.cols());
  const int grids = h + 1;  // the heads, then the average
  const std::vector<HeatmapImage>& images = head_weight_images(state);
  const int kv = state.scene.kv();
  const bool grouped = kv > 0 && kv < h;  // GQA/MQA: the heads of a K/V group drawn together
  ImGui::PushFont(fonts.small);
  const float group_line = grouped ? ImGui::GetTextLineHeight() + 0.2f * ImGui::GetFontSize() : 0.0f;
  ImGui::PopFont();
  const HeadsLayout l = heads_layout(grids, n, m, group_line);
  const float em = ImGui::GetFontSize(), cell = l.cell;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (grouped) draw_kv_groups(state, fonts, l);
  const ImVec4 clip(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x,
                    dl->GetClipRectMax().y);
  HeadsHover hover;
  for (int g = 0; g < grids; ++g) {
    const bool average = g == h;
    const bool focused = !average && g == state.ui.focus_head;
    const ImVec2 pos = l.caption_pos(g);
    draw_head_caption(state, g, average, focused, ImVec2(pos.x, pos.y + group_line));
    const ImVec2 gmin(std::floor(pos.x), std::floor(pos.y + l.caption_h));
    const attn::Matrix& w = average ? r.weights_mean : r.heads[std::size_t(g)].weights;
    draw_head_cells(state, painter, fonts, g, images[std::size_t(g)], w, gmin, cell, focused, clip);
    head_grid_input(state, g, average, w, gmin, cell, hover);
    // The hovered cell of any grid is outlined in all of them.
    if (state.ui.frame.shown.hovered_row >= 0 && state.ui.frame.shown.hovered_col >= 0 &&
        state.ui.frame.shown.hovered_row < n && state.ui.frame.shown.hovered_col < m) {
      const ImVec2 a(gmin.x + cell * float(state.ui.frame.shown.hovered_col),
                     gmin.y + cell * float(state.ui.frame.shown.hovered_row));
      outline(dl, a, ImVec2(a.x + cell, a.y + cell), palette::selection(), std::max(1.5f, 0.1f * em));
    }
  }
  // Claim the space so the window knows its content size.
  ImGui::SetCursorScreenPos(l.start);
  ImGui::Dummy(ImVec2(std::min(l.block_w, l.avail.x), std::min(l.block_h, l.avail.y)));

  if (hover.grid >= 0) {
    state.ui.frame.next.hovered_row = hover.i;
    state.ui.frame.next.hovered_col = hover.j;
    state.ui.frame.next.hovered_term = Term::Weights;
    if (hover.keyed_cell.x >= 0.0f) place_tooltip_beside_cell(hover.keyed_cell, cell);
    if (hover.grid == h)
      average_tooltip(state, hover.i, hover.j);
    else
      weight_tooltip(state, r.heads[std::size_t(hover.grid)], hover.grid, hover.i, hover.j);
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Output: Y_t per head, concat, W_o, output
//-------------------------------------------------------------------------------------------------

namespace {

// A matrix as a small table of numbers: `rows` labels on the left, columns coloured by `column_color`
// (the head a column belongs to), each cell `cell_w` wide.
template <class ColumnColor>
void draw_number_table(const attn::Matrix& m, const std::vector<std::string>& row_labels, float label_w,
                       float cell_w, ColumnColor column_color, int decimals) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  for (int i = 0; i < int(m.rows()); ++i) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddText(p, palette::text(),
                fit_text(row_labels[std::size_t(i)], label_w - 0.3f * ImGui::GetFontSize()).c_str());
    for (int c = 0; c < int(m.cols()); ++c) {
      const std::string text = format_number(m(i, c), decimals);
      const float w = ImGui::CalcTextSize(text.c_str()).x;
      dl->AddText(ImVec2(p.x + label_w + float(c) * cell_w + cell_w - w - 0.3f * ImGui::GetFontSize(), p.y),
                  column_color(c), text.c_str());
    }
    ImGui::Dummy(ImVec2(label_w + float(m.cols()) * cell_w, line - ImGui::GetStyle().ItemSpacing.y));
  }
}

}  // namespace

void draw_heads_output_panel(AppState& state, const Fonts& fonts) {
  const scene::Scene& s = state.scene;
  const int h = s.heads;
  const bool mapped = s.Wo.size() != 0;
  panel_header(state, fonts, tr(mapped ? Text::HeadsOutputTitleWo : Text::HeadsOutputTitle),
               tr(Text::HeadsOutputHint));
  if (!state.computed) return;
  const attn::HeadsResult& r = state.heads;
  const float em = ImGui::GetFontSize();
  const int d_v = int(r.concat.cols()), dv_head = d_v / h;
  ImGui::PushFont(fonts.small);
  const float cell_w = ImGui::CalcTextSize("−0.000").x + 0.6f * em;
  const float label_w = std::min(5.0f * em, 0.2f * ImGui::GetContentRegionAvail().x);
  ImGui::BeginChild("##heads-output", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  auto by_head = [&](int c) { return head_color(c / dv_head); };

  // concat = [Y_0 | … | Y_{h−1}]: the columns of head t in head t's colour.
  ImGui::PushFont(fonts.text);
  ImGui::TextUnformatted(h > 1 ? "concat = [Y_0 | … | Y_h−1]  (n × d_v)" : "Y = A V  (n × d_v)");
  ImGui::PopFont();
  {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    for (int t = 0; t < h && h > 1; ++t) {
      const std::string caption = "Y_" + std::to_string(t);
      ImGui::GetWindowDrawList()->AddText(
          ImVec2(p.x + label_w + float(t * dv_head) * cell_w + 0.3f * em, p.y), head_color(t),
          caption.c_str());
    }
    if (h > 1) ImGui::Dummy(ImVec2(label_w + float(d_v) * cell_w, ImGui::GetTextLineHeight()));
  }
  draw_number_table(r.concat, s.tokens, label_w, cell_w, by_head, 3);

  // W_o: d_v × d_out cells to drag (ids Wo/r/c), rows coloured by the head whose column they read.
  ImGui::Spacing();
  ImGui::PushFont(fonts.text);
  if (mapped) {
    ImGui::Text("W_o  (d_v × d_out = %d × %d)", int(s.Wo.rows()), int(s.Wo.cols()));
    ImGui::SameLine();
    if (small_button(state, "Wo/remove", (std::string(tr(Text::RemoveWo)) + "###wo-remove").c_str()))
      remove_wo(state);
  } else {
    ImGui::TextUnformatted(tr(Text::NoWo));
    ImGui::SameLine();
    if (small_button(state, "Wo/add", (std::string(tr(Text::AddWo)) + "###wo-add").c_str())) add_wo(state);
  }
  ImGui::PopFont();
  if (s.Wo.size() != 0) {
    const double lo = -state.wo_range, hi = state.wo_range;
    for (int row = 0; row < int(s.Wo.rows()); ++row) {
      ImGui::PushID(row);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddText(p, head_color(row / dv_head),
                                          fill(tr(Text::RowLabel), {std::to_string(row)}).c_str());
      ImGui::Dummy(ImVec2(label_w - ImGui::GetStyle().ItemSpacing.x, ImGui::GetFrameHeight()));
      for (int c = 0; c < int(s.Wo.cols()); ++c) {
        ImGui::SameLine();
        ImGui::PushID(c);
        double value = s.Wo(row, c);
        ImGui::SetNextItemWidth(cell_w - ImGui::GetStyle().ItemSpacing.x);
        const std::string cell_id = "Wo/" + std::to_string(row) + "/" + std::to_string(c);
        if (typing_requested(state, cell_id)) ImGui::SetKeyboardFocusHere();  // Enter: type a number
        bool moved = ImGui::SliderScalar("##wo", ImGuiDataType_Double, &value, &lo, &hi, "%.2f");
        // The keyboard: arrows step the focused cell ("W_o row 0 column 1: 1.00").
        moved |= value_cell(state, cell_id, &value, lo, hi, state.wo_range,
                            "W_o row " + std::to_string(row) + " column " + std::to_string(c));
        if (moved && std::isfinite(value)) set_wo_entry(state, row, c, value);
        if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
          ImGui::SetTooltip("W_o[%d][%d] = %s   %s", row, c, format_number(value, 4).c_str(),
                            tr(Text::DragOrType));
        ImGui::PopID();
      }
      ImGui::PopID();
    }
    ImGui::Spacing();
    ImGui::PushFont(fonts.text);
    ImGui::Text("output = concat · W_o  (n × d_out = %d × %d)", int(r.output.rows()), int(r.output.cols()));
    ImGui::PopFont();
    draw_number_table(
        r.output, s.tokens, label_w, cell_w, [](int) { return palette::text(); }, 3);
  }
  ImGui::EndChild();
  ImGui::PopFont();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The heads control
//-------------------------------------------------------------------------------------------------

void draw_heads_control(AppState& state) {
  const scene::Scene& s = state.scene;
  // 1, 2, 4, 8, and the scene's own h when it is another (three-heads has 3).
  std::vector<int> choices = {1, 2, 4, 8};
  if (std::find(choices.begin(), choices.end(), s.heads) == choices.end()) {
    choices.push_back(s.heads);
    std::sort(choices.begin(), choices.end());
  }
  const Group group(state, "heads");
  for (std::size_t k = 0; k < choices.size(); ++k) {
    const int h = choices[k];
    // A grouped-query scene first goes back to one K/V per head (set_heads): its V then has
    // h·d_v/H_kv columns, the concat's width.
    const bool fits = s.d_k() % h == 0 && s.concat_dim() % h == 0;
    if (k > 0) ImGui::SameLine();
    ImGui::BeginDisabled(!fits);
    ImGui::PushID(h);
    if (radio_button(state, "heads/" + std::to_string(h), std::to_string(h).c_str(), s.heads == h))
      set_heads(state, h);
    ImGui::PopID();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", fill(tr(fits ? Text::HeadsFitTip : Text::HeadsNoFitTip),
                                   {std::to_string(h), std::to_string(fits ? s.d_k() / h : s.d_k()),
                                    std::to_string(fits ? s.concat_dim() / h : s.concat_dim())})
                                  .c_str());
  }
}

}  // namespace ui
