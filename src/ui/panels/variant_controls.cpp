// variant_controls.cpp — the controls of the attention variants (variant_parts.hpp): the sliding
// window and sinks above the mask, the K/V groups beside the heads, ALiBi beside RoPE.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/alibi.hpp"
#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

MaskReason mask_reason(const scene::Scene& s, const attn::MaskMatrix& allowed, int i, int j) {
  if (allowed(i, j)) return MaskReason::Allowed;
  if (s.causal && j > i) return MaskReason::Causal;
  if (!attn::window_allows(i, j, s.window, s.sinks, s.causal)) return MaskReason::Window;
  return MaskReason::Custom;
}

std::string mask_kind_text(const scene::Scene& s) {
  std::vector<std::string> parts;
  if (s.causal) parts.emplace_back(tr(Text::MaskKindCausal));
  if (s.window > 0) parts.push_back(fill(tr(Text::MaskKindWindow), {std::to_string(s.window)}));
  if (s.window > 0 && s.sinks > 0) parts.push_back(fill(tr(Text::MaskKindSinks), {std::to_string(s.sinks)}));
  if (s.mask.size() > 0) parts.emplace_back(tr(Text::MaskKindCustom));
  std::string kinds;
  for (const std::string& p : parts) kinds += (kinds.empty() ? "" : " + ") + p;
  return fill(tr(Text::MaskKind), {kinds.empty() ? std::string(tr(Text::MaskKindNone)) : kinds});
}

void draw_window_controls(AppState& state, const Fonts& fonts) {
  const scene::Scene& s = state.scene;
  const int n = s.n();
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  // The kinds named when the grid alone does not say them (a window, sinks, clicked cells); a plain or
  // causal mask keeps the room for its grid (the hint names the causal hatching).
  if (s.window > 0 || s.mask.size() > 0) {
    // A long translation wraps rather than run past the panel.
    wrapped_text(state, "mask/kind", mask_kind_text(s));
  }
  ImGui::PopFont();
#if AL_ALL_MODES
  // Cross-attention: a window is about positions in one sequence (the scene refuses one).
  if (scene::is_cross_attention(s)) return;
#endif
  // Window and sinks side by side ("Window [w = 3]  Sinks [s = 1]") when both sliders get 3 em, else
  // one to a row (long translations, narrow panels).
  const float spacing = ImGui::GetStyle().ItemSpacing.x, avail = ImGui::GetContentRegionAvail().x;
  const float label_a = ImGui::CalcTextSize(tr(Text::WindowLabel)).x,
              label_b = ImGui::CalcTextSize(tr(Text::SinksLabel)).x;
  const bool one_row = avail >= label_a + label_b + 6.0f * em + 3.0f * spacing;
  const float slider_w = one_row ? 0.5f * (avail - label_a - label_b - 3.0f * spacing)
                                 : avail - std::max(label_a, label_b) - spacing;
  const float row_x = ImGui::GetCursorPosX();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::WindowLabel));
  ImGui::SameLine(one_row ? 0.0f : row_x + std::max(label_a, label_b) + spacing);
  ImGui::SetNextItemWidth(slider_w);
  int window = s.window;
  if (slider_int(state, "window", "##window", &window, 0, std::max(1, n),
                 s.window == 0 ? tr(Text::WindowNone) : "w = %d", {0, n, "sliding window"}))
    set_window(state, window);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::WindowTip));
  if (one_row) ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::SinksLabel));
  ImGui::SameLine(one_row ? 0.0f : row_x + std::max(label_a, label_b) + spacing);
  ImGui::SetNextItemWidth(slider_w);
  int sinks = s.sinks;
  ImGui::BeginDisabled(s.window == 0);  // sinks only mean something past a window
  if (slider_int(state, "sinks", "##sinks", &sinks, 0, std::max(1, n), "s = %d", {0, n, "sink tokens"}))
    set_sinks(state, sinks);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr(Text::SinksTip));
}

void draw_kv_heads_control(AppState& state) {
  const scene::Scene& s = state.scene;
  const int h = s.heads;
  const Group group(state, "kv-heads");
  ImGui::PushID("kv-heads");  // apart from the heads control's radio buttons "1", "2", … in the same window
  bool first = true;
  for (int kv = 1; kv <= h; ++kv) {
    if (h % kv != 0) continue;  // H_kv divides h
    if (!first) ImGui::SameLine();
    first = false;
    ImGui::PushID(kv);
    if (radio_button(state, "kv-heads/" + std::to_string(kv), std::to_string(kv).c_str(), s.kv() == kv))
      set_kv_heads(state, kv);
    ImGui::PopID();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "%s", fill(tr(Text::KvHeadsTip), {std::to_string(kv), std::to_string(h), std::to_string(h / kv)})
                    .c_str());
  }
  ImGui::PopID();
}

void draw_alibi_control(AppState& state, const Fonts& fonts) {
  const scene::Scene& s = state.scene;
  bool on = s.alibi;
  if (checkbox(state, "alibi", "ALiBi", &on)) set_alibi(state, on);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::AlibiTip));
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", tr(Text::AlibiHint));
  note_row_bottom(state.ui.frame.controls_rows);  // rows a Controls panel cut short may end after
  if (s.alibi) {
    // m_h = 2^(−8h/H) for h = 1 … H, as the heads use them (core/alibi.hpp).
    std::string slopes;
    for (int t = 0; t < s.heads; ++t)
      slopes += (t ? ", " : "") + format_number(attn::alibi_slope(t, s.heads), 4);
    wrapped_text_disabled(fill(tr(Text::AlibiSlopes), {slopes}));
    note_row_bottom(state.ui.frame.controls_rows);
  }
  ImGui::PopFont();
  if (state.computed && (s.alibi || s.rope_on)) draw_position_view(state, fonts);
}

}  // namespace ui
