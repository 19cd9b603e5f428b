// heatmap_controls.cpp — the Scores and Weights panels' legend, switches (tabs, entropy, largest),
// zoom and pan (see heatmap_controls.hpp; the panels themselves: heatmap_panel.cpp).
#include "ui/panels/heatmap_controls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/text/grid_captions.hpp"
#include "ui/text/scale_texts.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

// Decimals that fit a cell: 3 (like the lessons' printouts) when there is room, else fewer.
int decimals_for(float cell, const ImFont* font) {
  const float digit = font->CalcTextSizeA(font->FontSize, 1e9f, 0, "0").x;
  const float pad = 0.5f * font->FontSize;
  if (cell >= digit * 6 + pad) return 3;  // "−0.000"
  if (cell >= digit * 5 + pad) return 2;
  if (cell >= digit * 4 + pad) return 1;
  return -1;  // no numbers
}

void draw_legend(MatrixPainter& painter, const Fonts& fonts, const HeatmapImage& d, HeatmapKind kind,
                 ImVec2 pos, float width, bool any_masked, const char* masked_label) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float em = ImGui::GetFontSize();
  const float bar_h = 0.6f * em;
  float ramp[64];  // uploaded at once by paint()
  for (int k = 0; k < 64; ++k) ramp[k] = d.lo + (d.hi - d.lo) * float(k) / 63.0f;
  MatrixImage bar;
  bar.slot = kind == HeatmapKind::Scores ? MatrixSlot::ScoresLegend : MatrixSlot::WeightsLegend;
  bar.rows = 1;
  bar.cols = 64;
  bar.values = ramp;
  bar.version = 0;  // tiny: upload every time
  bar.colormap = d.colormap;
  bar.lo = d.lo;
  bar.hi = d.hi;
  painter.paint(dl, pos, ImVec2(pos.x + width, pos.y + bar_h), bar);

  ImGui::PushFont(fonts.small);
  const float y = pos.y + bar_h + 0.15f * em;
  // Weights in diverging colours can be negative (differential attention): 0 in the middle.
  const bool two_sided = kind == HeatmapKind::Weights && d.colormap == Colormap::Diverging;
  const bool log_scale =
      kind == HeatmapKind::Weights && d.lo < 0 && !two_sided;  // log₁₀ a (heatmap_image.hpp)
  // Weights on the auto range run from 0 to the largest weight in view (below 1).
  const bool auto_range = kind == HeatmapKind::Weights && !log_scale && d.hi < 1.0f;
  const int decimals = kind == HeatmapKind::Scores ? 2 : auto_range ? 3 : 0;
  const std::string lo = log_scale ? "1e-6" : format_number(d.lo, decimals);
  const std::string hi = log_scale ? "1" : format_number(d.hi, decimals);
  const std::string mid = kind == HeatmapKind::Scores || two_sided ? "0"
                          : log_scale                              ? "1e-3"
                          : auto_range                             ? format_number(0.5 * double(d.hi), 3)
                                                                   : "0.5";
  dl->AddText(ImVec2(pos.x, y), palette::text_dim(), lo.c_str());
  const float mid_w = ImGui::CalcTextSize(mid.c_str()).x;
  dl->AddText(ImVec2(pos.x + 0.5f * (width - mid_w), y), palette::text_dim(), mid.c_str());
  const float hi_w = ImGui::CalcTextSize(hi.c_str()).x;
  dl->AddText(ImVec2(pos.x + width - hi_w, y), palette::text_dim(), hi.c_str());

  if (any_masked) {
    // A hatched swatch, drawn by the same shader as the masked cells.
    static const float masked = kMaskedValue;
    MatrixImage swatch;
    swatch.slot =
        kind == HeatmapKind::Scores ? MatrixSlot::ScoresMaskedSwatch : MatrixSlot::WeightsMaskedSwatch;
    swatch.rows = swatch.cols = 1;
    swatch.values = &masked;
    swatch.version = 1;
    const ImVec2 s0(pos.x + width + 1.2f * em, pos.y - 0.1f * em);
    painter.paint(dl, s0, ImVec2(s0.x + 1.1f * em, s0.y + 1.1f * em), swatch);
    const char* text = masked_label;
    dl->AddText(ImVec2(s0.x + 1.5f * em, s0.y + 0.1f * em), palette::text_dim(), text);
  }
  ImGui::PopFont();
}

bool chip(AppState& state, const char* label, const std::string& id, bool on) {
  ImGui::PushStyleColor(ImGuiCol_Button, on ? to_vec4(palette::accent_soft()) : ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(on ? palette::accent() : palette::text_dim()));
  const bool pressed = small_button(state, id, label);
  ImGui::PopStyleColor(2);
  return pressed;
}

void draw_grid_switches(AppState& state, const Fonts& fonts, HeatmapKind kind, ImVec2 header_pos,
                        const std::string& title) {
  const bool scores = kind == HeatmapKind::Scores;
  const std::string a = scores ? captions::grid_caption(captions::Grid::Raw, state.scene, state.result).tab
                               : std::string(tr(Text::EntropyToggle));
  const std::string b = scores ? captions::grid_caption(captions::Grid::Scaled, state.scene, state.result).tab
                               : std::string(tr(Text::LargestToggle));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float chips_w = ImGui::CalcTextSize(a.c_str()).x + ImGui::CalcTextSize(b.c_str()).x +
                        4.0f * style.FramePadding.x + style.ItemSpacing.x;
  ImGui::PushFont(fonts.heading);
  const float title_w = ImGui::CalcTextSize(title.c_str()).x;
  ImGui::PopFont();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const ImVec2 after_header = ImGui::GetCursorScreenPos();
  const bool on_title_line = header_pos.x + title_w + 1.0f * ImGui::GetFontSize() + chips_w <= right;
  if (on_title_line) ImGui::SetCursorScreenPos(ImVec2(right - chips_w, header_pos.y));
  if (scores) {
    if (chip(state, (a + "##raw").c_str(), "scores/tab/raw", state.ui.scores_tab == ScoresTab::Raw))
      state.ui.scores_tab = ScoresTab::Raw;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::RawTabTip));
    ImGui::SameLine();
    if (chip(state, (b + "##scaled").c_str(), "scores/tab/scaled", state.ui.scores_tab == ScoresTab::Scaled))
      state.ui.scores_tab = ScoresTab::Scaled;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ScaledTabTip));
  } else {
    if (chip(state, (a + "##entropy").c_str(), "weights/entropy", state.ui.show_entropy))
      state.ui.show_entropy = !state.ui.show_entropy;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::EntropyTip));
    ImGui::SameLine();
    if (chip(state, (b + "##argmax").c_str(), "weights/argmax", state.ui.show_argmax))
      state.ui.show_argmax = !state.ui.show_argmax;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::LargestTip));
  }
  if (on_title_line) ImGui::SetCursorScreenPos(after_header);
}

// Zoom and pan (ui/widgets/grid_view.hpp) from the mouse over the grid's frame [min, max], whose cells are
// `cell` pixels at zoom 1: the wheel (a trackpad's pinch too) zooms about the pointer, a drag pans
// (when zoomed), a double-click fits the whole grid. `id` names the grid whose drag moves the view.
void zoom_and_pan(GridView& view, int id, ImVec2 min, ImVec2 max, float cell) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 m = io.MousePos;
  const bool over = ImGui::IsWindowHovered() && m.x >= min.x && m.x < max.x && m.y >= min.y && m.y < max.y;
  const double cz = double(cell) * view.zoom;
  if (id == 1 || id == 2) {
    view.frames[id - 1] = {min.x, min.y, max.x, max.y};
    view.frames_stamp[id - 1] = ImGui::GetFrameCount();
  }
  if (over && io.MouseWheel != 0.0f) {
    zoom_view_about(view, std::pow(kWheelZoomStep, double(io.MouseWheel)), view.col0 + (m.x - min.x) / cz,
                    view.row0 + (m.y - min.y) / cz);
  }
  if (over && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    fit_view(view, view.n, view.m);
  } else if (over && view.zoomed() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    view.panning = id;
  }
  if (view.panning == id) {
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      view.panning = 0;
    } else {
      pan_view(view, -io.MouseDelta.x / cz, -io.MouseDelta.y / cz);
      ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
    }
  }
}

}  // namespace ui
