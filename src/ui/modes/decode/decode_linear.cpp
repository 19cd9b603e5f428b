// decode_linear.cpp — the Decode mode's panel for linear attention (the scene key "linear"): its
// recurrent form stepped token by token beside softmax attention's growing cache. At step t the
// state is S_t (d_k × d_v) and z_t (d_k), d_k·d_v + d_k numbers whatever t, against the cache's
// (t+1)·(d_k + d_v); y_t read from the state equals the matrix form's row t (the duality).
#include <algorithm>
#include <cstdio>
#include <string>

#include "core/variants.hpp"
#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

constexpr int kMaxRows = 16, kMaxCols = 12;  // the grid shows at most this much of S_t (d_k × d_v)

// A row of numbers in cells of width w, from x; `shown` of them, then "…" when the row has more.
void number_cells(ImDrawList* dl, ImVec2 p, float w, float h, const attn::Matrix& m, int row, int shown,
                  ImU32 fill, ImU32 color) {
  const float em = ImGui::GetFontSize(), ty = p.y + 0.5f * (h - ImGui::GetTextLineHeight());
  for (int c = 0; c < shown; ++c) {
    const ImVec2 a(p.x + float(c) * w, p.y);
    dl->AddRectFilled(a, ImVec2(a.x + w - 0.15f * em, p.y + h - 0.15f * em), fill, 0.15f * em);
    dl->AddText(ImVec2(a.x + 0.3f * em, ty), color, format_number(m(row, c), 3).c_str());
  }
  if (shown < int(m.cols())) dl->AddText(ImVec2(p.x + float(shown) * w + 0.2f * em, ty), color, "…");
}

// S_t as a grid (rows i of φ(k)'s d_k dimensions, columns of v's d_v) with z_t as a column beside it.
void draw_state_grid(AppState& state, const LinearDecodeStep& L) {
  const float em = ImGui::GetFontSize(), num_w = ImGui::CalcTextSize("−0.000").x + 0.8f * em;
  const float row_h = 1.5f * em, label_w = 2.2f * em;
  const int rows = std::min(int(L.S.rows()), kMaxRows), cols = std::min(int(L.S.cols()), kMaxCols);
  const float s_w = float(cols) * num_w + (cols < int(L.S.cols()) ? 1.2f * em : 0.0f);
  const float z_x = label_w + s_w + 1.2f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::string t = std::to_string(L.t);
  ImVec2 p = ImGui::GetCursorScreenPos();
  dl->AddText(ImVec2(p.x + label_w, p.y), palette::text_dim(), ("S_" + t + "  (d_k × d_v)").c_str());
  dl->AddText(ImVec2(p.x + z_x, p.y), palette::text_dim(), ("z_" + t).c_str());
  ImGui::Dummy(ImVec2(z_x + num_w, ImGui::GetTextLineHeight()));
  const ImVec2 grid = ImGui::GetCursorScreenPos();
  const attn::Matrix z_col = L.z.transpose();  // d_k × 1
  for (int i = 0; i < rows; ++i) {
    p = ImVec2(grid.x, grid.y + float(i) * row_h);
    dl->AddText(ImVec2(p.x, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())), palette::text_dim(),
                std::to_string(i).c_str());
    number_cells(dl, ImVec2(p.x + label_w, p.y), num_w, row_h, L.S, i, cols, palette::accent_soft(),
                 palette::text());
    number_cells(dl, ImVec2(p.x + z_x, p.y), num_w, row_h, z_col, i, 1, palette::track(), palette::key());
  }
  const float grid_h = float(rows) * row_h + (rows < int(L.S.rows()) ? ImGui::GetTextLineHeight() : 0.0f);
  if (rows < int(L.S.rows()))
    dl->AddText(ImVec2(grid.x + label_w + 0.3f * em, grid.y + float(rows) * row_h), palette::text_dim(), "…");
  ImGui::SetCursorScreenPos(ImVec2(grid.x + label_w, grid.y));
  dummy(state, "decode/linear/state", ImVec2(s_w, grid_h));
  ImGui::SetCursorScreenPos(ImVec2(grid.x + z_x, grid.y));
  dummy(state, "decode/linear/z", ImVec2(num_w, grid_h));
}

// The two sizes as bars on one scale, the cache's whole decode (n tokens) the full width.
void draw_sizes(AppState& state, const LinearDecodeStep& L, int n) {
  const int d_k = int(L.S.rows()), d_v = int(L.S.cols());
  const long long fixed = (long long)d_k * d_v + d_k, cache = (long long)(L.t + 1) * (d_k + d_v);
  const double most = double(std::max<long long>({fixed, (long long)n * (d_k + d_v), 1}));
  const float em = ImGui::GetFontSize(), bar_w = ImGui::GetContentRegionAvail().x, h = 0.4f * em;
  auto line = [&](const std::string& text, long long count, ImU32 color) {
    wrapped_text(text);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + bar_w, p.y + h), palette::track(), 0.15f * em);
    dl->AddRectFilled(p, ImVec2(p.x + std::max(2.0f, bar_w * float(double(count) / most)), p.y + h), color,
                      0.15f * em);
    ImGui::Dummy(ImVec2(bar_w, h));
  };
  const ImVec2 top = ImGui::GetCursorScreenPos();
  line(fill(tr(Text::DecodeLinearSize), {std::to_string(d_k), std::to_string(d_v), std::to_string(fixed)}),
       fixed, palette::with_alpha(palette::accent(), 170));
  line(fill(tr(Text::DecodeLinearCache),
            {std::to_string(L.t + 1), std::to_string(d_k + d_v), std::to_string(cache)}),
       cache, palette::with_alpha(palette::query(), 150));
  const ImVec2 bottom = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(top);
  dummy(state, "decode/linear/size", ImVec2(bar_w, bottom.y - top.y - ImGui::GetStyle().ItemSpacing.y));
}

// y_t from the state beside row t of the matrix form, and their largest difference.
void draw_outputs(AppState& state, const Fonts& fonts, const LinearDecodeStep& L) {
  const float em = ImGui::GetFontSize(), num_w = ImGui::CalcTextSize("−0.000").x + 0.8f * em;
  const float row_h = 1.5f * em;
  ImGui::PushFont(fonts.small);
  const float label_w = std::max(ImGui::CalcTextSize(tr(Text::DecodeLinearRecurrent)).x,
                                 ImGui::CalcTextSize(tr(Text::DecodeLinearMatrix)).x) +
                        0.8f * em;
  ImGui::PopFont();
  const int cols = std::min(int(L.y_recurrent.cols()), kMaxCols);
  const float w = label_w + float(cols) * num_w;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  auto row = [&](const char* label, const attn::Matrix& y, ImU32 fill_color) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushFont(fonts.small);
    dl->AddText(ImVec2(p.x, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())), palette::text_dim(), label);
    ImGui::PopFont();
    number_cells(dl, ImVec2(p.x + label_w, p.y), num_w, row_h, y, 0, cols, fill_color, palette::text());
    ImGui::Dummy(ImVec2(w, row_h));
  };
  row(tr(Text::DecodeLinearRecurrent), L.y_recurrent, palette::accent_soft());
  row(tr(Text::DecodeLinearMatrix), L.y_matrix, palette::track());
  const ImVec2 bottom = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(top);
  dummy(state, "decode/linear/output", ImVec2(w, bottom.y - top.y - ImGui::GetStyle().ItemSpacing.y));
  char diff[32];
  std::snprintf(diff, sizeof diff, "%.1e", L.max_diff);
  wrapped_text(fill(tr(L.plain_causal ? Text::DecodeLinearDiff : Text::DecodeLinearDiffers), {diff}));
}

}  // namespace

bool decode_shows_linear(const AppState& state) {
  return scene::has_variants(state.scene) && state.scene.variants->core.linear;
}

void decode_linear_sync(AppState& state) {
  const attn::VariantHead* vh = nullptr;
  if (state.heads.variant && state.ui.focus_head >= 0 &&
      std::size_t(state.ui.focus_head) < state.heads.variant->heads.size())
    vh = &state.heads.variant->heads[std::size_t(state.ui.focus_head)];
  decode_linear_update(state.ui.decode, state.scene, state.result, vh ? &vh->Q_norm : nullptr,
                       vh ? &vh->K_norm : nullptr, result_key(state));
}

void draw_decode_linear(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::DecodeLinearTitle), tr(Text::DecodeLinearHint), 2);
  if (!state.computed) return;
  decode_linear_sync(state);  // the stepper may have moved t in this frame
  const DecodeStepper& d = state.ui.decode;
  if (!d.linear) return;
  const LinearDecodeStep& L = *d.linear;
  if (!state.scene.causal || !L.plain_causal)
    wrapped_text_colored(to_vec4(palette::text_dim()), tr(Text::DecodeLinearCausal));
  ImGui::TextUnformatted("S_t = S_{t−1} + φ(k_t) v_tᵀ     z_t = z_{t−1} + φ(k_t)");
  draw_state_grid(state, L);
  draw_sizes(state, L, state.scene.n());
  ImGui::TextUnformatted("y_t = φ(q_t)ᵀ S_t / φ(q_t)·z_t");
  draw_outputs(state, fonts, L);
}

}  // namespace ui
