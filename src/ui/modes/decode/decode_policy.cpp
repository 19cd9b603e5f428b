// decode_policy.cpp — the Decode mode's cache policy panel: keep all / the last w / s sinks + the
// last w (core/kv_cache.hpp), what evicting token 0 does to the row with and without sinks, the
// cache's size per KV head, and the KV-cache calculator for real shapes (kv_calculator.cpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "core/heads.hpp"
#include "core/kv_bill.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

std::string byte_text(long long bytes) {
  // Binary units, three significant figures: 1 MiB = 2²⁰ bytes.
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) v /= 1024.0, ++u;
  if (u == 0) return std::to_string(bytes) + " bytes";
  return format_number(v, v < 10 ? 2 : v < 100 ? 1 : 0) + " " + units[u];
}

// The cache as the model holds it: one K block and one V block per KV head (H_kv of them, each
// shared by h/H_kv query heads), a row per cached position — evicted rows hatched — and its size
//   2 × tokens held × H_kv × d_head × 8 bytes   (K and V; doubles), core/kv_bill.hpp's formula.
void draw_cache_per_kv_head(AppState& state, const Fonts& fonts) {
  const DecodeStepper& d = state.ui.decode;
  const scene::Scene& s = state.scene;
  const attn::Matrix& K = state.heads.K.size() ? state.heads.K : state.result.K;
  const attn::Matrix& V = state.heads.V.size() ? state.heads.V : state.result.V;
  const int kv = std::max(1, s.kv()), h = std::max(1, s.heads);
  const int dk = int(K.cols()) / kv, dv = int(V.cols()) / kv;
  if (!d.step || dk < 1 || dv < 1) return;
  const attn::DecodeStep& st = *d.step;
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  const float cell = std::clamp(0.8f * em, 4.0f, 14.0f), row = std::clamp(0.55f * em, 3.0f, 10.0f);
  const float block_w = float(dk + dv) * cell + 0.4f * em;
  const float label_h = ImGui::GetTextLineHeight() + 0.2f * em;
  const int rows = d.t + 1;
  const float block_h = label_h + float(rows) * row;
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_line = std::max(1, int((avail + em) / (std::max(block_w, 9.0f * em) + em)));
  const int focus_group = attn::kv_group(state.ui.focus_head, h, kv);
  double kmax = 1e-12, vmax = 1e-12;
  for (int j = 0; j < rows; ++j) {
    kmax = std::max(kmax, K.row(j).cwiseAbs().maxCoeff());
    vmax = std::max(vmax, V.row(j).cwiseAbs().maxCoeff());
  }
  for (int g = 0; g < kv; ++g) {
    if (g % per_line != 0) ImGui::SameLine(0, em);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const int first = g * (h / kv), last = first + h / kv - 1;
    const std::string heads_text =
        first == last ? std::to_string(first) : std::to_string(first) + "–" + std::to_string(last);
    const std::string label = fill(tr(Text::CacheKvHead), {std::to_string(g), heads_text});
    const float w = std::max(block_w, ImGui::CalcTextSize(label.c_str()).x);
    dl->AddText(p, g == focus_group ? palette::text() : palette::text_dim(), label.c_str());
    // Only the cells in view (at n = 1024 and d = 64 a block is 1024 × 128 cells).
    const ImVec2 clip0 = dl->GetClipRectMin(), clip1 = dl->GetClipRectMax();
    const int j0 = std::clamp(int(std::floor((clip0.y - p.y - label_h) / row)) - 1, 0, rows);
    const int j1 = std::clamp(int(std::ceil((clip1.y - p.y - label_h) / row)) + 1, j0, rows);
    const int c0 = std::clamp(int(std::floor((clip0.x - p.x - 0.4f * em) / cell)) - 1, 0, dk + dv);
    const int c1 = std::clamp(int(std::ceil((clip1.x - p.x) / cell)) + 1, c0, dk + dv);
    for (int j = j0; j < j1; ++j) {
      const float y = p.y + label_h + float(j) * row;
      const bool kept = std::binary_search(st.kept.begin(), st.kept.end(), j);
      for (int c = c0; c < c1; ++c) {
        const float x = p.x + float(c) * cell + (c >= dk ? 0.4f * em : 0.0f);
        const ImVec2 a(x, y), b(x + cell - 1.0f, y + row - 1.0f);
        if (!kept) {
          dl->AddRectFilled(a, b, palette::with_alpha(palette::track(), 140));
          dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, a.y), palette::with_alpha(palette::text_dim(), 90), 1.0f);
          continue;
        }
        const double v = c < dk ? K(j, g * dk + c) / kmax : V(j, g * dv + c - dk) / vmax;
        const ImU32 color = c < dk ? palette::key() : palette::value();
        dl->AddRectFilled(a, b, palette::with_alpha(color, int(50 + 200 * std::min(1.0, std::abs(v)))));
      }
    }
    if (g == focus_group)
      dl->AddRect(ImVec2(p.x - 0.2f * em, p.y + label_h - 0.2f * em),
                  ImVec2(p.x + block_w - 0.2f * em, p.y + block_h + 0.2f * em), palette::accent(), 0.2f * em);
    dummy(state, "decode/kv-head/" + std::to_string(g), ImVec2(w, block_h + 0.3f * em));
  }
  // Its size, with the numbers of this scene (K and V of the focused head's size d_head = d_k/h).
  attn::KvShape shape;
  shape.layers = 1;
  shape.heads = h;
  shape.kv_heads = kv;
  shape.d_head = dk;
  shape.context = st.cache_len;
  shape.bytes_per_number = 8;
  ImGui::TextUnformatted(
      fill(tr(Text::CacheSize), {std::to_string(st.cache_len), std::to_string(kv), std::to_string(dk),
                                 byte_text(attn::kv_bytes_per_context(shape))})
          .c_str());
  record_item_rect(state, "decode/size");
  wrapped_text_disabled(tr(Text::CacheSizeNote), std::max(avail, 10.0f * em));
  ImGui::PopFont();
  ImGui::Spacing();
}

void draw_decode_policy(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::CachePolicy), tr(Text::CachePolicyTip), 2);
  DecodeStepper& d = state.ui.decode;
  if (!state.computed || !d.step) return;
  const int n = state.scene.n();
  const float em = ImGui::GetFontSize();
  // The policy: three choices, then w and s.
  int kind = int(d.policy.kind);
  // The choices flow: a longer translation wraps to the next line rather than run past the panel.
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  auto radio_w = [](Text t) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(tr(t)).x;
  };
  bool changed =
      radio_button(state, "decode/cache/all", tr(Text::CacheAll), &kind, int(attn::CacheKind::KeepAll));
  same_line_if_fits(radio_w(Text::CacheLast), right);
  changed |=
      radio_button(state, "decode/cache/last", tr(Text::CacheLast), &kind, int(attn::CacheKind::LastW));
  same_line_if_fits(radio_w(Text::CacheSinks), right);
  changed |= radio_button(state, "decode/cache/sinks", tr(Text::CacheSinks), &kind,
                          int(attn::CacheKind::SinksLastW));
  attn::CachePolicy next = d.policy;
  next.kind = attn::CacheKind(kind);
  const float half = 0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(half);
  changed |= slider_int(state, "decode/cache/w", "##cache-w", &next.window, 1, std::max(2, n), "w = %d",
                        {1, std::max(1, n), "cache window"});
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  changed |= slider_int(state, "decode/cache/s", "##cache-s", &next.sinks, 1, std::max(2, n), "s = %d",
                        {1, std::max(1, n), "sink tokens"});
  if (changed) {
    next.window = std::clamp(next.window, 1, std::max(1, n));
    next.sinks = std::clamp(next.sinks, 1, std::max(1, n));
    if (attn::check_cache_policy(next).empty()) {
      d.policy = next;
      decode_update(d, state.scene, state.result, result_key(state), d.t);
    }
  }

  const attn::DecodeStep& st = *d.step;
  if (!st.evicted.empty())
    wrapped_text_colored(
        to_vec4(palette::accent()),
        fill(tr(Text::CacheEvictedNow), {std::to_string(d.t), std::to_string(st.evicted.front())}));
  // Token 0 evicted without sinks vs kept as a sink: the largest change of row t's weights against
  // keeping everything (StreamingLLM's observation: the first token soaks up the spare weight).
  const int w = std::max(1, d.policy.window), sinks = std::max(1, d.policy.sinks);
  std::string effect;
  if (d.t < w) {
    effect = fill(tr(Text::SinkEffectEarly), {std::to_string(w), std::to_string(d.t)});
  } else if (d.step_all && d.step_last && d.step_sinks) {
    effect = fill(tr(Text::SinkEffect), {std::to_string(w), std::to_string(d.t),
                                         format_number(max_weight_change(d.step_all, d.step_last), 3),
                                         format_number(d.step_all->weights(0, 0), 3), std::to_string(sinks),
                                         format_number(max_weight_change(d.step_all, d.step_sinks), 3)});
  }
  wrapped_text(state, "decode/sink-effect", effect);

  ImGui::Spacing();
  ImGui::Separator();
  draw_kv_calculator(state, fonts);
  (void)em;
}

}  // namespace ui
