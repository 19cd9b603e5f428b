// model_grid.cpp — the Model mode's "Every head" panel: the layers × heads patterns on the text as ONE
// texture (a mosaic painted once, however many heads and tokens), each head labelled with its role
// (core/head_roles.hpp) in the empty upper triangle; hover for a large view with token labels, click
// to open the head in Explore; under the grid each head's ablate switch (off → zero → mean) and Open.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/modes/model/model_mode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/matrix_painter.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {
namespace {

// Gap between two heads' blocks in the mosaic, in cells (hatched there, covered by the panel's colour).
int gap_cells(int n) {
  return std::max(1, int(std::lround(0.1 * n)));
}

const char* role_text(const std::string& role) {
  if (role == "previous-token") return tr(Text::ModelRolePrevious);
  if (role == "first-token") return tr(Text::ModelRoleFirst);
  if (role == "self") return tr(Text::ModelRoleSelf);
  if (role == "induction") return tr(Text::ModelRoleInduction);
  if (role == "broad") return tr(Text::ModelRoleBroad);
  return tr(Text::ModelRoleMixed);
}

// Rebuild the mosaic when the evaluation changed: block (l, h) at rows l·(n+g) …, columns h·(n+g) …;
// above the diagonal and in the gaps the masked value (hatched, then covered).
void build_mosaic(ModelUi& m, int L, int H, int n) {
  if (m.mosaic_version == m.eval_version) return;
  const int g = gap_cells(n), rows = L * n + (L - 1) * g, cols = H * n + (H - 1) * g;
  m.mosaic.assign(std::size_t(rows) * std::size_t(cols), kMaskedValue);
  for (int l = 0; l < L; ++l)
    for (int h = 0; h < H; ++h) {
      const attn::Matrix& A = m.eval.forward.layers[std::size_t(l)].heads[std::size_t(h)].weights;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          m.mosaic[std::size_t(l * (n + g) + i) * std::size_t(cols) + std::size_t(h * (n + g) + j)] =
              float(A(i, j));
    }
  m.mosaic_version = m.eval_version;
}

// The hovered head, large: its pattern with the tokens along the rows and columns, the newest token's row
// outlined (where it attends while generating; the first column is the sink).
void draw_large(AppState& state, MatrixPainter& painter, const Fonts& fonts, int l, int h) {
  ModelUi& m = state.ui.model;
  const ModelEval& e = m.eval;
  const int n = int(e.tokens.size());
  if (m.large_version != m.eval_version || m.large_layer != l || m.large_head != h) {
    const attn::Matrix& A = e.forward.layers[std::size_t(l)].heads[std::size_t(h)].weights;
    m.large.assign(std::size_t(n) * std::size_t(n), kMaskedValue);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) m.large[std::size_t(i) * std::size_t(n) + std::size_t(j)] = float(A(i, j));
    m.large_version = m.eval_version;
    m.large_layer = l;
    m.large_head = h;
  }
  const float em = ImGui::GetFontSize();
  ImGui::BeginTooltip();
  ImGui::PushFont(fonts.small);
  const attn::model::HeadRole& r = e.roles[std::size_t(l * int(e.forward.layers[0].heads.size()) + h)];
  char caption[200];
  std::snprintf(caption, sizeof caption, "L%d H%d  %s   prev %.2f  first %.2f  self %.2f  %.2f bits", l, h,
                role_text(r.role), r.previous_token, r.first_token, r.self, r.entropy);
  ImGui::TextUnformatted(caption);
  const float label_w = 5.0f * em, side = std::min(24.0f * em, std::max(12.0f * em, float(n) * 1.2f * em));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 g0(p0.x + label_w, p0.y), g1(p0.x + label_w + side, p0.y + side);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  MatrixImage image;
  image.slot = MatrixSlot::ModelHeadLarge;
  image.rows = image.cols = n;
  image.values = m.large.data();
  image.version = m.large_version * 64 + std::uint64_t(l * 8 + h) + 1;
  image.aggregate = CellAggregate::Max;
  painter.paint(dl, g0, g1, image);
  const float cell = side / float(n), line = ImGui::GetTextLineHeight();
  const int every = std::max(1, int(std::ceil(line / cell)));
  for (int i = 0; i < n; i += every) {  // row labels: the query tokens
    std::string t = e.pieces[std::size_t(i)];
    for (char& c : t)
      if (c == '\n' || c == '\t') c = ' ';
    t = fit_text(t, label_w - 0.3f * em);
    dl->AddText(ImVec2(g0.x - ImGui::CalcTextSize(t.c_str()).x - 0.3f * em,
                       g0.y + (float(i) + 0.5f) * cell - 0.5f * line),
                palette::text_dim(), t.c_str());
  }
  outline(dl, ImVec2(g0.x, g0.y + float(n - 1) * cell), ImVec2(g1.x, g1.y), palette::accent(), 2.0f);
  ImGui::Dummy(ImVec2(label_w + side, side));
  ImGui::PopFont();
  ImGui::EndTooltip();
}

// One head's row of controls under the grid: name, role, the ablate switch, Open.
void draw_head_controls(AppState& state, int l, int h, const std::string& role, float col_w) {
  const std::string id = std::to_string(l) + "/" + std::to_string(h);
  // Name, role, then the two buttons at the column's right end (an em-based grid: a phone's column too).
  const float em = ImGui::GetFontSize(), x0 = ImGui::GetCursorPosX();
  const float name_w = 3.6f * em, x_open = std::max(name_w + 4.0f * em, col_w - 3.6f * em);
  const float x_ablate = x_open - 3.9f * em;
  ImGui::AlignTextToFramePadding();
  ImGui::Text("L%d H%d", l, h);
  ImGui::SameLine(x0 + name_w);
  ImGui::TextColored(to_vec4(palette::text_dim()), "%s",
                     fit_text(role_text(role), std::max(1.0f * em, x_ablate - name_w - 0.4f * em)).c_str());
  ImGui::SameLine(x0 + x_ablate);
  const int kind = model_ablation_kind(state, l, h);
  const char* label = kind == 1   ? tr(Text::ModelAblateZero)
                      : kind == 2 ? tr(Text::ModelAblateMean)
                                  : tr(Text::ModelAblate);
  if (kind != 0) ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(palette::error()));
  if (small_button(state, "model/ablate/" + id, (std::string(label) + "##model-ablate-" + id).c_str()))
    model_set_ablation(state, l, h, (kind + 1) % 3);
  if (kind != 0) ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelAblateTip));
  ImGui::SameLine(x0 + x_open);
  if (small_button(state, "model/open/" + id,
                   (std::string(tr(Text::ModelOpen)) + "##model-open-" + id).c_str()))
    model_open_head(state, l, h);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ModelOpenTip));
}

}  // namespace

void draw_model_heads(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  ModelUi& m = state.ui.model;
  panel_header(state, fonts, tr(Text::ModelHeadsTitle), tr(Text::ModelHeadsHint), 2);
  if (m.load != ModelLoad::Ready || !m.file || m.eval.tokens.empty()) return;
  const attn::model::Model& model = m.file->model;
  const int L = model.n_layers(), H = model.n_heads(), n = int(m.eval.tokens.size()), g = gap_cells(n);
  build_mosaic(m, L, H, n);
  const float em = ImGui::GetFontSize();
  const float label_w = 2.2f * em;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float controls_h = float(H) * ImGui::GetFrameHeightWithSpacing() + 0.5f * em;
  // The thumbnails' side: fill the width, keep room for the head labels row and the controls.
  const float by_w = (avail.x - label_w) / (float(H) + float(H - 1) * float(g) / float(n));
  const float by_h = (avail.y - controls_h - 1.5f * em) / (float(L) + float(L - 1) * float(g) / float(n));
  const float side = std::floor(std::clamp(std::min(by_w, by_h), 4.0f * em, 16.0f * em));
  const float cell = side / float(n), gap = float(g) * cell;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::PushFont(fonts.small);
  for (int h = 0; h < H; ++h)
    dl->AddText(ImVec2(p0.x + label_w + float(h) * (side + gap), p0.y), palette::text_dim(),
                ("H" + std::to_string(h)).c_str());
  ImGui::PopFont();
  p0.y += ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 g0(p0.x + label_w, p0.y);
  const ImVec2 g1(g0.x + float(H) * side + float(H - 1) * gap, g0.y + float(L) * side + float(L - 1) * gap);
  MatrixImage image;
  image.slot = MatrixSlot::ModelHeads;
  image.rows = L * n + (L - 1) * g;
  image.cols = H * n + (H - 1) * g;
  image.values = m.mosaic.data();
  image.version = m.mosaic_version + 1;
  image.aggregate = CellAggregate::Max;
  painter.paint(dl, g0, g1, image);
  // Cover the gaps (hatched in the texture) with the panel's colour: the heads stand apart.
  for (int h = 1; h < H; ++h) {
    const float x = g0.x + float(h) * (side + gap) - gap;
    dl->AddRectFilled(ImVec2(x, g0.y), ImVec2(x + gap, g1.y), palette::panel());
  }
  for (int l = 1; l < L; ++l) {
    const float y = g0.y + float(l) * (side + gap) - gap;
    dl->AddRectFilled(ImVec2(g0.x, y), ImVec2(g1.x, y + gap), palette::panel());
  }
  int hovered_l = -1, hovered_h = -1;
  const bool generating = m.generate_target > int(m.generated.size());
  ImGui::PushFont(fonts.small);
  for (int l = 0; l < L; ++l) {
    const float y = g0.y + float(l) * (side + gap);
    dl->AddText(ImVec2(p0.x, y + 0.5f * side - 0.5f * ImGui::GetTextLineHeight()), palette::text_dim(),
                ("L" + std::to_string(l)).c_str());
    for (int h = 0; h < H; ++h) {
      const ImVec2 a(g0.x + float(h) * (side + gap), y), b(a.x + side, a.y + side);
      const std::string id = std::to_string(l) + "/" + std::to_string(h);
      ImGui::SetCursorScreenPos(a);
      invisible_button(state, "model/head/" + id, ("##model-head-" + id).c_str(), ImVec2(side, side));
      if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) model_open_head(state, l, h);
      const bool hovered = ImGui::IsItemHovered();
      if (hovered) hovered_l = l, hovered_h = h;
      if (model_ablation_kind(state, l, h) !=
          0) {  // an ablated head still attends; its output is what changes
        dl->AddRectFilled(a, b, palette::with_alpha(palette::background(), 150));
        dl->AddLine(a, b, palette::error(), 2.0f);
      }
      // The role in the empty upper-right triangle.
      const std::string& role = m.eval.roles[std::size_t(l * H + h)].role;
      const std::string text = fit_text(role_text(role), side - 0.4f * em);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      const ImVec2 t0(b.x - ts.x - 0.3f * em, a.y + 0.15f * em);
      dl->AddRectFilled(ImVec2(t0.x - 0.15f * em, t0.y), ImVec2(b.x - 0.1f * em, t0.y + ts.y),
                        palette::with_alpha(palette::panel(), 220), 0.2f * em);
      dl->AddText(t0,
                  role == "induction"        ? palette::key()
                  : role == "previous-token" ? palette::value()
                                             : palette::text(),
                  text.c_str());
      if (generating)  // the newest token's row: where the token just drawn looks (and how much the sink
                       // takes)
        outline(dl, ImVec2(a.x, b.y - std::max(cell, 2.0f)), b, palette::accent(), 1.5f);
      outline(dl, a, b, hovered ? palette::accent() : palette::panel_border(), hovered ? 2.0f : 1.0f);
    }
  }
  ImGui::PopFont();
  ImGui::SetCursorScreenPos(ImVec2(p0.x, g1.y + 0.5f * em));
  if (hovered_l >= 0) draw_large(state, painter, fonts, hovered_l, hovered_h);
  // The controls in a table of H rows, a column per layer.
  const float col_w = ImGui::GetContentRegionAvail().x / float(L);
  const float x0 = ImGui::GetCursorPosX();
  for (int h = 0; h < H; ++h)
    for (int l = 0; l < L; ++l) {
      if (l > 0) ImGui::SameLine(x0 + float(l) * col_w);
      ImGui::PushID(l);
      draw_head_controls(state, l, h, m.eval.roles[std::size_t(l * H + h)].role, col_w - 0.5f * em);
      ImGui::PopID();
    }
}

}  // namespace ui
