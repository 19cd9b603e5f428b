// circuits_grid.cpp — the Circuits mode's layers × heads grid: the typed text, then each head's
// attention pattern on it (A[i][j], row i the query position, column j the key), its scores and role,
// an ablate toggle; a click on a pattern opens the head in Explore (circuits_open_head). The patterns
// are one texture (CircuitsUi::mosaic), each head painted from its block: a quad per head, not a
// rectangle per cell (4 heads of 21 tokens were 924 rectangles, about 3,700 vertices a frame).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/circuits/circuits_parts.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/matrix_painter.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

namespace model = attn::model;

// The mosaic of the sample's patterns, rebuilt when the sample changed (CircuitsUi::mosaic).
void build_mosaic(CircuitsUi& c, int L, int H) {
  const CircuitsSample& s = c.sample;
  const int n = int(s.tokens.size());
  const std::size_t cols = std::size_t(H) * std::size_t(n);
  if (c.mosaic_version == c.sample_version && c.mosaic.size() == std::size_t(L) * std::size_t(n) * cols)
    return;
  c.mosaic.assign(std::size_t(L) * std::size_t(n) * cols, kMaskedValue);
  for (int l = 0; l < L && n > 0; ++l)
    for (int h = 0; h < H; ++h) {
      const attn::Matrix& A = s.forward.layers[std::size_t(l)].heads[std::size_t(h)].weights;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          c.mosaic[std::size_t(l * n + i) * cols + std::size_t(h * n + j)] = float(A(i, j));
    }
  c.mosaic_version = c.sample_version;
}

void draw_text_field(AppState& state, const Fonts& fonts) {
  CircuitsUi& c = state.ui.circuits;
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::CircuitsText));
  ImGui::SameLine(0, 0.6f * em);
  ImGui::SetNextItemWidth(-FLT_MIN);
  // ImGui keeps its own copy while the field is active; this buffer only carries the text in and out.
  char buffer[model::kMaxContext + 64];
  const std::string& shown = c.text_draft.empty() && c.text_error.empty() ? c.text : c.text_draft;
  std::snprintf(buffer, sizeof buffer, "%s", shown.c_str());
  if (input_text(state, "circuits/text", "##circuits-text", buffer, sizeof buffer)) {
    c.text_draft = buffer;
    c.text_error = circuits_set_text(state, c.text_draft);
    if (c.text_error.empty()) c.text_draft.clear();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CircuitsTextTip));
  if (!c.text_error.empty()) {
    ImGui::PushFont(fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::error()));
    wrapped_text(c.text_error);
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
}

// One head: its caption (name, role), scores, the ablate toggle, then its n×n pattern in `side`.
void draw_head(AppState& state, MatrixPainter& painter, const Fonts& fonts, int l, int h, float side) {
  CircuitsUi& c = state.ui.circuits;
  const model::Model& m = c.trainer->model();
  const float em = ImGui::GetFontSize();
  const double prefix = c.scores.prefix_matching[std::size_t(l)][std::size_t(h)];
  const double previous = c.scores.previous_token[std::size_t(l)][std::size_t(h)];
  const bool ablated = c.ablation.is_off(l, h);
  const std::string role = circuit_role(c.scores, l, h);
  const std::string id = std::to_string(l) + "/" + std::to_string(h);
  // Caption: "L1 H0  [ ] ablate", then the scores and the role in small type (2 lines in all).
  ImGui::BeginGroup();
  ImGui::AlignTextToFramePadding();
  ImGui::PushFont(fonts.heading);
  ImGui::Text("L%d H%d", l, h);
  ImGui::PopFont();
  ImGui::SameLine(0, 0.8f * em);
  bool off = ablated;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0.2f * em, 0.1f * em));
  if (checkbox(state, "circuits/ablate/" + id,
               (std::string(tr(Text::CircuitsAblate)) + "##circuits-ablate-" + id).c_str(), &off))
    circuits_toggle_ablation(state, l, h);
  ImGui::PopStyleVar();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CircuitsAblateTip));
  ImGui::PushFont(fonts.small);
  ImGui::TextColored(to_vec4(palette::text_dim()), "%s",
                     fill(tr(Text::CircuitsHeadScores), {score_text(prefix), score_text(previous)}).c_str());
  if (!role.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(to_vec4(role == "induction" ? palette::key() : palette::value()), "%s",
                       tr(role == "induction" ? Text::CircuitsRoleInduction : Text::CircuitsRolePrevious));
  }
  ImGui::PopFont();

  // The pattern: the kept weights of this head on the text (the upper triangle is exactly 0).
  const CircuitsSample& s = c.sample;
  const int n = int(s.tokens.size());
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  invisible_button(state, "circuits/head/" + id, ("##circuits-head-" + id).c_str(), ImVec2(side, side));
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + side, p0.y + side), palette::background());
  if (n > 0) {
    const attn::Matrix& A = s.forward.layers[std::size_t(l)].heads[std::size_t(h)].weights;
    const float cell = side / float(n);
    MatrixImage image;
    image.slot = MatrixSlot::CircuitsHeads;
    image.rows = m.n_layers() * n;
    image.cols = m.n_heads() * n;
    image.values = c.mosaic.data();
    image.version = c.mosaic_version + 1;  // 0 would mean "upload every time"
    image.view_col0 = float(h * n);
    image.view_col1 = float((h + 1) * n);
    image.view_row0 = float(l * n);
    image.view_row1 = float((l + 1) * n);
    painter.paint(dl, p0, ImVec2(p0.x + side, p0.y + side), image);
    if (ablated) {  // an ablated head still attends; its output is what is switched off
      dl->AddRectFilled(p0, ImVec2(p0.x + side, p0.y + side),
                        palette::with_alpha(palette::background(), 150));
      dl->AddLine(p0, ImVec2(p0.x + side, p0.y + side), palette::error(), 2.0f);
    }
    if (hovered) {
      const ImVec2 mouse = ImGui::GetMousePos();
      const int i = std::clamp(int((mouse.y - p0.y) / cell), 0, n - 1);
      const int j = std::clamp(int((mouse.x - p0.x) / cell), 0, n - 1);
      outline(dl, ImVec2(p0.x + float(j) * cell, p0.y + float(i) * cell),
              ImVec2(p0.x + float(j + 1) * cell, p0.y + float(i + 1) * cell), palette::accent(), 2.0f);
      // Above the diagonal the causal mask hides the key (a later position): say so, not "0.0000".
      char value[64];
      if (j > i)
        std::snprintf(value, sizeof value, "(%s)", tr(Text::CellMaskedZero));
      else
        std::snprintf(value, sizeof value, "= %.4f", A(i, j));
      char text[256];
      std::snprintf(text, sizeof text, "A[%d][%d] %s   ('%s' → '%s')\n%s", i, j, value,
                    symbol_text(m.vocab[std::size_t(s.tokens[std::size_t(i)])]).c_str(),
                    symbol_text(m.vocab[std::size_t(s.tokens[std::size_t(j)])]).c_str(),
                    tr(Text::CircuitsOpenTip));
      ImGui::SetTooltip("%s", text);
      state.ui.frame.next.tooltip += std::string(text) + "\n";  // getState().ui.tooltip
    }
  }
  outline(dl, p0, ImVec2(p0.x + side, p0.y + side), hovered ? palette::accent() : palette::panel_border(),
          hovered ? 2.0f : 1.0f);
  ImGui::EndGroup();
  if (clicked) circuits_open_head(state, l, h);
  (void)em;
}

}  // namespace

void draw_circuits_grid(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  CircuitsUi& c = state.ui.circuits;
  panel_header(state, fonts, tr(Text::CircuitsGridTitle), tr(Text::CircuitsGridHint), 1);
  if (!c.trainer) return;
  draw_text_field(state, fonts);
  const model::Model& m = c.trainer->model();
  const int L = m.n_layers(), H = m.n_heads();
  build_mosaic(c, L, H);
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  // Each head's caption takes about 2.6 em above its square pattern; the squares fill the panel.
  const float caption_h = ImGui::GetFrameHeightWithSpacing() + 1.3f * em;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float by_width = (avail.x - float(H - 1) * style.ItemSpacing.x * 2.0f) / float(H);
  const float by_height = (avail.y - float(L) * (caption_h + style.ItemSpacing.y)) / float(L);
  const float side = std::floor(std::clamp(std::min(by_width, by_height), 6.0f * em, 22.0f * em));
  for (int l = 0; l < L; ++l) {
    const float y0 = ImGui::GetCursorScreenPos().y;
    for (int h = 0; h < H; ++h) {
      if (h > 0) ImGui::SameLine(0, 2.0f * style.ItemSpacing.x);
      draw_head(state, painter, fonts, l, h, side);
    }
    // The guide's steps 2 and 4 point at layer 0's and layer 1's heads.
    const int step = c.guide_step + 1;
    if ((step == 2 && l == 0) || (step == 4 && l == 1)) {
      const ImVec2 a(ImGui::GetWindowPos().x + style.WindowPadding.x * 0.5f, y0 - 0.2f * em);
      const ImVec2 b(ImGui::GetWindowPos().x + ImGui::GetWindowWidth() - style.WindowPadding.x * 0.5f,
                     ImGui::GetCursorScreenPos().y);
      outline(ImGui::GetWindowDrawList(), a, b, palette::accent(), std::max(2.0f, 0.15f * em));
    }
  }
}

}  // namespace ui
