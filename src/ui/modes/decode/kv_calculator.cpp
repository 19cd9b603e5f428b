// kv_calculator.cpp — the KV-cache bill of a real model shape (core/kv_bill.hpp):
//
//   per token   = 2 × layers × H_kv × d_head × bytes per number
//   per context = per token × tokens held (the context, or w + s with a window)
//
// with the published shapes of kv_presets() (sources in core/kv_bill.cpp and docs/USER_GUIDE.md).
// A refused edit (check_kv_shape) keeps the previous shape and says why.
#include <algorithm>
#include <string>

#include "core/kv_bill.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

void draw_kv_calculator(AppState& state, const Fonts& fonts) {
  KvCalculator& calc = state.ui.decode.calculator;
  const std::vector<attn::KvPreset>& presets = attn::kv_presets();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::KvCalcTitle));
  ImGui::PopFont();
  ImGui::PushFont(fonts.small);
  wrapped_text_disabled(tr(Text::KvCalcHint));
  ImGui::PopFont();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::KvCalcPreset));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const char* shown = calc.preset >= 0 && calc.preset < int(presets.size())
                          ? presets[std::size_t(calc.preset)].name
                          : tr(Text::KvCalcCustom);
  if (const Combo combo{state, "decode/kv/preset", "##kv-preset", shown}) {
    for (int k = 0; k < int(presets.size()); ++k) {
      if (ImGui::Selectable(presets[std::size_t(k)].name, k == calc.preset)) {
        calc.preset = k;
        calc.shape = presets[std::size_t(k)].shape;
        calc.error.clear();
      }
    }
  }

  // One field per number, two to a row; an edit makes the shape the learner's own (preset −1).
  attn::KvShape next = calc.shape;
  bool edited = false;
  if (ImGui::BeginTable("##kv-fields", 4, ImGuiTableFlags_SizingStretchProp)) {
    auto field = [&](const char* label, const char* id, ImGuiDataType type, void* value) {
      ImGui::TableNextColumn();
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(label);
      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(-FLT_MIN);
      edited |=
          input_scalar(state, std::string("decode/kv/") + id, (std::string("##") + id).c_str(), type, value);
    };
    field(tr(Text::KvCalcLayers), "layers", ImGuiDataType_S32, &next.layers);
    field(tr(Text::KvCalcContext), "context", ImGuiDataType_S64, &next.context);
    field("H", "heads", ImGuiDataType_S32, &next.heads);
    field("H_kv", "kv-heads", ImGuiDataType_S32, &next.kv_heads);
    field("d_head", "d-head", ImGuiDataType_S32, &next.d_head);
    field(tr(Text::KvCalcBytes), "bytes", ImGuiDataType_S32, &next.bytes_per_number);
    ImGui::EndTable();
  }
  if (edited) {
    calc.error = attn::check_kv_shape(next);
    if (calc.error.empty()) {
      calc.shape = next;
      calc.preset = -1;
      for (int k = 0; k < int(presets.size()); ++k) {  // still a published shape?
        const attn::KvShape& p = presets[std::size_t(k)].shape;
        if (p.layers == next.layers && p.heads == next.heads && p.kv_heads == next.kv_heads &&
            p.d_head == next.d_head && p.context == next.context &&
            p.bytes_per_number == next.bytes_per_number && p.window == next.window && p.sinks == next.sinks)
          calc.preset = k;
      }
    }
  }

  const attn::KvShape& s = calc.shape;
  const long long per_token = attn::kv_bytes_per_token(s), per_context = attn::kv_bytes_per_context(s);
  if (!calc.error.empty()) wrapped_text_colored(to_vec4(palette::accent()), calc.error);
  wrapped_text(
      state, "decode/kv/per-token",
      fill(tr(Text::KvCalcPerToken), {"2 × " + std::to_string(s.layers) + " × " + std::to_string(s.kv_heads) +
                                      " × " + std::to_string(s.d_head) + " × " +
                                      std::to_string(s.bytes_per_number) + " = " + byte_text(per_token)}));
  wrapped_text(
      state, "decode/kv/per-context",
      fill(tr(Text::KvCalcPerContext), {std::to_string(attn::kv_tokens_held(s)), byte_text(per_context)}));
  if (s.kv_heads < s.heads) {  // what grouping saves: the same shape with one K/V per head
    attn::KvShape mha = s;
    mha.kv_heads = s.heads;
    wrapped_text_disabled(
        fill(tr(Text::KvCalcMha), {std::to_string(s.heads), byte_text(attn::kv_bytes_per_context(mha)),
                                   std::to_string(s.heads / s.kv_heads)}));
  }
  if (calc.preset >= 0) {
    ImGui::PushFont(fonts.small);
    wrapped_text_disabled(fill(tr(Text::KvCalcSource), {presets[std::size_t(calc.preset)].source}));
    ImGui::PopFont();
  }
}

}  // namespace ui
