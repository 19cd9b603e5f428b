// kv_calculator.cpp — the KV-cache bill of a real model shape (core/kv_bill.hpp):
//
//   per token   = 2 × layers × H_kv × d_head × bytes per number
//   per context = per token × tokens held (the context, or w + s with a window)
//
// with the published shapes of kv_presets() (sources in core/kv_bill.cpp and docs/USER_GUIDE.md).
// Its kind: K and V per KV head (MHA, GQA, MQA), multi-head latent attention (DeepSeek-V2/V3: one
// latent of d_c + d_rope per token and layer) or linear attention (a fixed state per head), each set
// beside plain multi-head attention of the same heads. A refused edit (check_kv_shape) keeps the
// previous shape and says why.
#include <algorithm>
#include <string>

#include "core/kv_bill.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

namespace {

// The kind of cache: a switch of kind keeps the numbers (MLA's d_c and d_rope start at DeepSeek's).
bool draw_kind(AppState& state, attn::KvShape* shape) {
  attn::KvShape& next = *shape;
  bool edited = false;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::KvCalcKind));
  ImGui::SameLine();
  {
    const Group group(state, "decode/kv/kind");
    const std::pair<attn::KvKind, Text> kinds[] = {{attn::KvKind::Heads, Text::KvCalcKindHeads},
                                                   {attn::KvKind::Latent, Text::KvCalcKindLatent},
                                                   {attn::KvKind::Linear, Text::KvCalcKindLinear}};
    for (const auto& [kind, label] : kinds) {
      if (kind != attn::KvKind::Heads) ImGui::SameLine();
      const std::string id = kind == attn::KvKind::Heads    ? "decode/kv/kind/heads"
                             : kind == attn::KvKind::Latent ? "decode/kv/kind/latent"
                                                            : "decode/kv/kind/linear";
      if (radio_button(state, id, (std::string(tr(label)) + "##" + id).c_str(), next.kind == kind) &&
          next.kind != kind) {
        next.kind = kind;
        if (kind == attn::KvKind::Latent && next.latent == 0) {
          next.latent = 512;
          next.rope_dim = 64;
        }
        edited = true;
      }
    }
  }
  return edited;
}

// The bill of the shape: per token (or the state), per context, and beside multi-head attention.
void draw_bill(AppState& state, const KvCalculator& calc) {
  const attn::KvShape& s = calc.shape;
  const long long per_token = attn::kv_bytes_per_token(s), per_context = attn::kv_bytes_per_context(s);
  if (!calc.error.empty()) wrapped_text_colored(to_vec4(palette::accent()), calc.error);
  const std::string L = std::to_string(s.layers), b = std::to_string(s.bytes_per_number);
  switch (s.kind) {
    case attn::KvKind::Heads:
      wrapped_text(state, "decode/kv/per-token",
                   fill(tr(Text::KvCalcPerToken),
                        {"2 × " + L + " × " + std::to_string(s.kv_heads) + " × " + std::to_string(s.d_head) +
                         " × " + b + " = " + byte_text(per_token)}));
      break;
    case attn::KvKind::Latent:
      wrapped_text(state, "decode/kv/per-token",
                   fill(tr(Text::KvCalcPerToken),
                        {L + " × (" + std::to_string(s.latent) + " + " + std::to_string(s.rope_dim) + ") × " +
                         b + " = " + byte_text(per_token)}));
      break;
    case attn::KvKind::Linear:
      wrapped_text(state, "decode/kv/per-token",
                   fill(tr(Text::KvCalcLinearState),
                        {L + " × " + std::to_string(s.heads) + " × (" + std::to_string(s.d_head) + "² + " +
                         std::to_string(s.d_head) + ") × " + b + " = " + byte_text(per_context)}));
      break;
  }
  if (s.kind != attn::KvKind::Linear)
    wrapped_text(
        state, "decode/kv/per-context",
        fill(tr(Text::KvCalcPerContext), {std::to_string(attn::kv_tokens_held(s)), byte_text(per_context)}));
  // Beside multi-head attention of the same heads: what grouping, the latent or the state saves.
  const long long mha = attn::kv_bytes_per_context(attn::kv_as_mha(s));
  if (s.kind == attn::KvKind::Heads && s.kv_heads < s.heads) {
    wrapped_text_disabled(fill(tr(Text::KvCalcMha), {std::to_string(s.heads), byte_text(mha),
                                                     std::to_string(s.heads / s.kv_heads)}));
  } else if (s.kind != attn::KvKind::Heads && per_context > 0) {
    const double ratio = double(mha) / double(per_context);
    wrapped_text_disabled(
        fill(tr(s.kind == attn::KvKind::Latent ? Text::KvCalcVsMhaLatent : Text::KvCalcVsMhaLinear),
             {std::to_string(s.heads), std::to_string(attn::kv_tokens_held(s)), byte_text(mha),
              format_number(ratio, ratio < 10 ? 2 : 1)}));
  }
}

}  // namespace

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

  attn::KvShape next = calc.shape;
  bool edited = false;
  edited |= draw_kind(state, &next);
  // One field per number, two to a row; an edit makes the shape the learner's own (preset −1).
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
    if (next.kind == attn::KvKind::Heads) field("H_kv", "kv-heads", ImGuiDataType_S32, &next.kv_heads);
    field("d_head", "d-head", ImGuiDataType_S32, &next.d_head);
    if (next.kind == attn::KvKind::Latent) {
      field("d_c", "latent", ImGuiDataType_S32, &next.latent);
      field("d_rope", "rope-dim", ImGuiDataType_S32, &next.rope_dim);
    }
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
            p.bytes_per_number == next.bytes_per_number && p.window == next.window && p.sinks == next.sinks &&
            p.kind == next.kind && p.latent == next.latent && p.rope_dim == next.rope_dim)
          calc.preset = k;
      }
    }
  }

  draw_bill(state, calc);
  if (calc.preset >= 0) {
    ImGui::PushFont(fonts.small);
    wrapped_text_disabled(fill(tr(Text::KvCalcSource), {presets[std::size_t(calc.preset)].source}));
    ImGui::PopFont();
  }
}

}  // namespace ui
