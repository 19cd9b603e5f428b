// decode_panel.cpp — the Decode mode: causal decoding one token at a time with a KV cache
// (core/kv_cache.hpp; the state is ui::DecodeStepper).
//
// [SECTION] decode_tick: keep the trace on the shown step, Play
// [SECTION] draw_decode_panel: Start / Prev / Next / Play, what the step did, the multiply counter
// [SECTION] draw_decode_cache: the cache growing row by row, the new query's weights over it, y_t
#include <algorithm>
#include <cmath>
#include <string>

#include "ui/look/theme.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/step_controls.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

constexpr double kPlaySeconds = 0.9;

std::string with_commas(long long x) {
  std::string digits = std::to_string(x), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// An evicted cache row: diagonal hatching over the row, like the masked cells of the grids.
void draw_evicted_row(ImDrawList* dl, ImVec2 a, ImVec2 b, float em) {
  dl->AddRectFilled(a, b, palette::with_alpha(palette::track(), 120), 0.2f * em);
  dl->PushClipRect(a, b, true);
  const float step = 0.6f * em, h = b.y - a.y;
  for (float x = a.x - h; x < b.x; x += step)
    dl->AddLine(ImVec2(x, b.y), ImVec2(x + h, a.y), palette::with_alpha(palette::text_dim(), 70), 1.0f);
  dl->PopClipRect();
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] decode_tick
//-------------------------------------------------------------------------------------------------

void decode_tick(AppState& state) {
  DecodeStepper& d = state.ui.decode;
  stepper_tick(state, {d.playing, d.play_clock, kPlaySeconds}, d.t, [&](int want) {
    decode_update(d, state.scene, state.result, result_key(state), want);
    return d.t == state.scene.n() - 1;  // the last token
  });
  decode_linear_sync(state);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_decode_panel
//-------------------------------------------------------------------------------------------------

void draw_decode_panel(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::DecodeTitle), tr(Text::DecodeHint), 3);
  DecodeStepper& d = state.ui.decode;
  if (!state.computed || !d.step) return;
  const int n = state.scene.n();
  const int want = step_controls(state, {"decode/start", "decode/prev", "decode/next", "decode/play"}, d.t,
                                 d.t == n - 1, {d.playing, d.play_clock, kPlaySeconds});
  if (want != d.t) decode_update(d, state.scene, state.result, result_key(state), want);

  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(fill(tr(Text::DecodeStep),
                              {std::to_string(d.t), std::to_string(n - 1),
                               fit_text(state.scene.tokens[std::size_t(d.t)], 12.0f * ImGui::GetFontSize())})
                             .c_str());
  ImGui::PopFont();
  wrapped_text(fill(tr(d.t == 0 ? Text::DecodeHoldsOne : Text::DecodeHolds),
                    {std::to_string(d.t), std::to_string(d.t + 1)}));
  if (!state.scene.causal) ImGui::TextColored(to_vec4(palette::text_dim()), "%s", tr(Text::DecodeCausal));

  // The multiply counter.
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::DecodeMults));
  ImGui::PopFont();
  const float em = ImGui::GetFontSize();
  const float bar_w = ImGui::GetContentRegionAvail().x - 9.0f * em;
  const double most = double(std::max(d.mults_without, 1LL));
  auto counter = [&](const char* label, long long count, ImU32 color) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(9.0f * em);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFrameHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + bar_w, p.y + h), palette::track(), 0.15f * em);
    dl->AddRectFilled(p, ImVec2(p.x + std::max(2.0f, bar_w * float(double(count) / most)), p.y + h), color,
                      0.15f * em);
    const std::string text = with_commas(count);
    dl->AddText(ImVec2(p.x + 0.4f * em, p.y + 0.5f * (h - ImGui::GetTextLineHeight())), palette::text(),
                text.c_str());
    ImGui::Dummy(ImVec2(bar_w, h));
  };
  counter(tr(Text::WithCache), d.mults_with, palette::with_alpha(palette::accent(), 150));
  record_item_rect(state, "decode/mults");
  counter(tr(Text::WithoutCache), d.mults_without, palette::with_alpha(palette::query(), 150));
  ImGui::PushFont(fonts.small);
  wrapped_text(fill(tr(Text::DecodeWithout),
                    {std::to_string(n), with_commas(d.total_with), with_commas(d.total_without)}));
  ImGui::PopFont();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_decode_cache
//-------------------------------------------------------------------------------------------------

void draw_decode_cache(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::DecodeCacheTitle), tr(Text::DecodeCacheHint), 2);
  const DecodeStepper& d = state.ui.decode;
  if (!state.computed || !d.step) return;
  const attn::Result& r = state.result;
  const attn::DecodeStep& st = *d.step;
  const attn::Matrix& K = r.K_rope.size() ? r.K_rope : r.K;
  const attn::Matrix& Q = r.Q_rope.size() ? r.Q_rope : r.Q;
  const int d_k = int(K.cols()), d_v = int(r.V.cols());
  const float em = ImGui::GetFontSize();
  float num_w = ImGui::CalcTextSize("−0.000").x + 0.8f * em;
  float label_w = 6.0f * em, weight_w = 10.0f * em, gap = 1.5f * em;
  // A narrow panel (a phone) keeps K, the weights and V side by side: small numbers, short bars.
  const bool compact =
      label_w + float(d_k + d_v) * num_w + weight_w + 2.0f * gap > ImGui::GetContentRegionAvail().x;
  if (compact) {
    ImGui::PushFont(fonts.small);
    num_w = ImGui::CalcTextSize("−0.000").x + 0.4f * em;
    ImGui::PopFont();
    label_w = 3.6f * em;
    weight_w = 5.0f * em;
    gap = 0.6f * em;
  }
  ImFont* number_font = compact ? fonts.small : ImGui::GetFont();
  // Each column at least as wide as its heading (longer in Spanish and German than its numbers).
  ImGui::PushFont(fonts.small);
  const float k_head_w = ImGui::CalcTextSize(tr(Text::DecodeKCache)).x + 0.6f * em;
  const float w_head_w = ImGui::CalcTextSize(tr(Text::DecodeWeights)).x + 0.6f * em;
  ImGui::PopFont();
  const float x_k = label_w, x_w = x_k + std::max(float(d_k) * num_w + gap, k_head_w),
              x_v = x_w + std::max(weight_w + gap, w_head_w);
  const float total_w = x_v + float(d_v) * num_w;
  const float row_h = 2.1f * em;

  ImGui::BeginChild("##decode-cache", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  draw_cache_per_kv_head(state, fonts);  // decode_policy.cpp
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto numbers = [&](ImVec2 p, float x, const attn::Matrix& m, int row, ImU32 color) {
    for (int c = 0; c < int(m.cols()); ++c)
      dl->AddText(number_font, number_font->FontSize, ImVec2(p.x + x + float(c) * num_w, p.y), color,
                  format_number(m(row, c), 3).c_str());
  };
  // The query row q_t, above the keys it is scored against.
  ImGui::PushFont(fonts.small);
  ImVec2 p = ImGui::GetCursorScreenPos();
  dl->AddText(ImVec2(p.x + x_k, p.y), palette::text_dim(), tr(Text::DecodeKCache));
  dl->AddText(ImVec2(p.x + x_w, p.y), palette::text_dim(), tr(Text::DecodeWeights));
  dl->AddText(ImVec2(p.x + x_v, p.y), palette::text_dim(), tr(Text::DecodeVCache));
  ImGui::Dummy(ImVec2(total_w, fonts.small->FontSize + 0.2f * em));
  p = ImGui::GetCursorScreenPos();
  const std::string q_label = "q_" + std::to_string(d.t);
  ImGui::PopFont();
  dl->AddText(ImVec2(p.x, p.y + 0.2f * em), palette::query(), q_label.c_str());
  numbers(ImVec2(p.x, p.y + 0.2f * em), x_k, Q, d.t, palette::query());
  dummy(state, "decode/query", ImVec2(total_w, row_h));

  // Rows 0 … t, only those in view drawn (at n = 1024 the cache is 1024 rows of d_k + d_v numbers); the
  // clipper steps over the others at their pitch, row_h + the item spacing, as the drawn rows advance.
  ImGuiListClipper clipper;
  clipper.Begin(d.t + 1, row_h + ImGui::GetStyle().ItemSpacing.y);
  while (clipper.Step()) {
    for (int j = clipper.DisplayStart; j < clipper.DisplayEnd; ++j) {
      p = ImGui::GetCursorScreenPos();
      const bool newest = j == d.t;
      // A position the cache policy evicted (decode_policy.cpp): hatched, named, its numbers dim.
      const bool evicted = !std::binary_search(st.kept.begin(), st.kept.end(), j);
      if (evicted) {
        draw_evicted_row(dl, p, ImVec2(p.x + total_w, p.y + row_h - 0.1f * em), em);
        dl->AddText(ImVec2(p.x + x_w + 0.3f * em, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())),
                    palette::text_dim(), tr(Text::CacheEvicted));
        const std::string label =
            fit_text(std::to_string(j) + " " + state.scene.tokens[std::size_t(j)], label_w - 0.3f * em);
        dl->AddText(ImVec2(p.x, p.y + 0.5f * (row_h - ImGui::GetTextLineHeight())), palette::text_dim(),
                    label.c_str());
        dummy(state, "decode/evicted/" + std::to_string(j), ImVec2(total_w, row_h));
        continue;
      }
      if (newest)
        dl->AddRectFilled(p, ImVec2(p.x + total_w, p.y + row_h - 0.1f * em), palette::accent_soft(),
                          0.2f * em);
      const float ty = p.y + 0.5f * (row_h - ImGui::GetTextLineHeight());
      dl->AddText(ImVec2(p.x, ty), newest ? palette::accent() : palette::text(),
                  fit_text(std::to_string(j) + " " + state.scene.tokens[std::size_t(j)], label_w - 0.3f * em)
                      .c_str());
      const float sy = p.y + 0.5f * (row_h - ImGui::GetTextLineHeight());
      numbers(ImVec2(p.x, sy), x_k, K, j, palette::key());
      // The weight as a bar with its number.
      const double w = st.weights(0, j);
      const ImVec2 a(p.x + x_w, p.y + 0.2f * em), b(p.x + x_w + weight_w, p.y + row_h - 0.3f * em);
      dl->AddRectFilled(a, b, palette::track(), 0.15f * em);
      dl->AddRectFilled(a, ImVec2(a.x + weight_w * float(std::clamp(w, 0.0, 1.0)), b.y),
                        palette::with_alpha(palette::accent(), 140), 0.15f * em);
      dl->AddText(ImVec2(a.x + 0.3f * em, sy), palette::text(), format_weight(w, 3).c_str());
      numbers(ImVec2(p.x, sy), x_v, r.V, j, palette::value());
      ImGui::Dummy(ImVec2(total_w, row_h));
      if (newest) record_item_rect(state, "decode/new-row");
    }
  }
  // y_t and row t of the full causal pass.
  ImGui::Spacing();
  p = ImGui::GetCursorScreenPos();
  const std::string y_label = "y_" + std::to_string(d.t) + " = Σ a_tj v_j";
  // Right-aligned against the values it names (a narrow panel has little room before them).
  const float y_label_w = ImGui::CalcTextSize(y_label.c_str()).x;
  dl->AddText(ImVec2(p.x + std::max(0.0f, x_v - 0.6f * em - y_label_w), p.y), palette::text(),
              y_label.c_str());
  numbers(p, x_v, st.output, 0, palette::text());
  dummy(state, "decode/output", ImVec2(total_w, row_h));
  ImGui::EndChild();
}

}  // namespace ui
