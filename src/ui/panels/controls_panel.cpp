// controls_panel.cpp — the Controls panel: example picker, sizes, scale, causal mask, Reset, Share.
#include <algorithm>
#include <cmath>
#include <string>

#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/text/scale_texts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

// Generate…: a popup building a scene from a pattern (scene/generate.hpp) — up to 1024 tokens with
// structure the weights show. Its link is #gen=PATTERN,N,D_K,D_V,SEED until it is edited.
void draw_generate_button(AppState& state, const Fonts& fonts) {
  // After the share buttons, on their last row when it has room (a notice below then does not push
  // the controls past their panel's height, which would wrap the buttons differently).
  const std::string label = std::string(tr(Text::Generate)) + "##generate";
  const float w =
      ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  same_line_if_fits(w, right_edge);
  if (button(state, "generate", label.c_str())) {
    if (state.generated) state.ui.gen_draft = *state.generated;
    ImGui::OpenPopup("generate");
  }
  note_row_bottom(state.ui.frame.controls_rows);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::GenerateTip));
#if AL_ALL_MODES
  draw_variants_button(state, fonts);  // the variants of 2024–26 models (not in the first load)
#endif
  draw_share_hint(state, fonts);  // the share row's caption, under its last button
  if (!ImGui::BeginPopup("generate")) return;
  scene::GenSpec& g = state.ui.gen_draft;
  const float em = ImGui::GetFontSize();
  ImGui::TextUnformatted(tr(Text::GenerateTitle));
  ImGui::PushFont(fonts.small);
  ImGui::TextDisabled("%s", tr(Text::GenerateNote));
  ImGui::PopFont();
  ImGui::SetNextItemWidth(12 * em);
  if (const Combo combo{state, "gen/pattern", (std::string(tr(Text::GeneratePattern)) + "###pattern").c_str(),
                        std::string(scene::pattern_name(g.pattern)).c_str()}) {
    for (scene::Pattern p : {scene::Pattern::Random, scene::Pattern::Local, scene::Pattern::Previous,
                             scene::Pattern::Sink, scene::Pattern::Periodic, scene::Pattern::Block}) {
      if (ImGui::Selectable(std::string(scene::pattern_name(p)).c_str(), p == g.pattern)) g.pattern = p;
    }
  }
  ImGui::SetNextItemWidth(12 * em);
  slider_int(state, "gen/n", (std::string(tr(Text::GenerateTokens)) + "###tokens").c_str(), &g.n, 1,
             scene::kMaxTokens, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(12 * em);
  slider_int(state, "gen/dk", "d_k", &g.d_k, 1, scene::kMaxDim, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SetNextItemWidth(12 * em);
  slider_int(state, "gen/dv", "d_v", &g.d_v, 1, scene::kMaxDim, "%d", ImGuiSliderFlags_AlwaysClamp);
  int seed = int(g.seed & 0x7fffffff);
  ImGui::SetNextItemWidth(12 * em);
  if (input_int(state, "gen/seed", (std::string(tr(Text::GenerateSeed)) + "###seed").c_str(), &seed))
    g.seed = std::uint32_t(std::max(seed, 0));
  ImGui::PushFont(fonts.small);
  ImGui::TextDisabled("%s", fill(tr(Text::GenerateLink), {scene::gen_text(g)}).c_str());
  ImGui::PopFont();
  if (button(state, "gen/go", (std::string(tr(Text::GenerateGo)) + "###go").c_str())) {
    load_generated(state, g);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

namespace {

// A row's label, in the column of width label_w left of its control (the control follows on the
// same line). A translation longer than the column would run under its control: noted as overflow.
void row_label(AppState& state, const char* text, float label_w) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(text);
  if (ImGui::GetItemRectSize().x > label_w - ImGui::GetStyle().ItemSpacing.x)
    note_overflow(state.ui, std::string("controls/label/") + text);
  ImGui::SameLine(label_w);
}

// Example: the preset picker, each preset with its one-line description under it.
void draw_example_picker(AppState& state, const Fonts& fonts, float label_w) {
  row_label(state, tr(Text::Example), label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  // The loaded demo's title (gallery, #demo= link), else the preset's name, else "(custom scene)".
  std::string preview = example_label(state);
  if (state.edited) preview += std::string("  ") + tr(Text::Edited);
  if (const Combo combo{state, "preset", "##preset", preview.c_str()}) {
    for (const scene::PresetInfo& p : scene::preset_list()) {
      const bool selected = p.name == state.preset_name;
      if (ImGui::Selectable(p.name.c_str(), selected)) load_preset(state, p.name);
      ImGui::PushFont(fonts.small);
      ImGui::TextDisabled("   %s", p.description.c_str());
      ImGui::PopFont();
    }
  }
}

// The sizes: tokens n; d_k and d_v side by side; d_model for learned scenes; the heads and their
// K/V groups when they apply.
void draw_size_controls(AppState& state, float label_w) {
  const scene::Scene& s = state.scene;
  row_label(state, tr(Text::TokensN), label_w);
  int n = s.n();
  ImGui::SetNextItemWidth(-FLT_MIN);
  // Each slider also takes the keyboard (ui/widgets/keyboard.hpp): Enter types, arrows step by 1.
  if (slider_int(state, "tokens", "##tokens", &n, 1, std::max(12, s.n()), tr(Text::TokensValue),
                 {1, scene::kMaxTokens, "tokens"}))
    set_token_count(state, n);

  const float half =
      0.5f * (ImGui::GetContentRegionAvail().x - label_w) - 0.5f * ImGui::GetStyle().ItemSpacing.x;
  row_label(state, "d_k, d_v", label_w);
  int d_k = s.d_k(), d_v = s.d_v();
  ImGui::SetNextItemWidth(half);
  if (slider_int(state, "dk", "##dk", &d_k, 1, std::max(8, d_k), "d_k = %d", {1, scene::kMaxDim, "d k"}))
    set_key_dim(state, d_k);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::DkTip));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  if (slider_int(state, "dv", "##dv", &d_v, 1, std::max(8, d_v), "d_v = %d", {1, scene::kMaxDim, "d v"}))
    set_value_dim(state, d_v);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::DvTip));
  if (s.mode == scene::Mode::Projected) {  // learned scenes: the embedding's length too
    row_label(state, "d_model", label_w);
    int d_model = int(s.X.cols());
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (slider_int(state, "dmodel", "##dmodel", &d_model, 1, std::max(8, d_model), "d_model = %d",
                   {1, scene::kMaxDim, "d model"}))
      set_model_dim(state, d_model);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::DmodelTip));
  }

  // Heads: 1, 2, 4 or 8 (those dividing d_k and d_v). In the Heads mode always; in the others when
  // the scene has several heads (a one-head Explore screen keeps its height for the vectors).
  if (mode_offers_heads(state) || s.heads > 1) {
    row_label(state, tr(Text::Heads), label_w);
    draw_heads_control(state);
  }
  if (s.heads > 1) {  // grouped-query attention: how many K/V groups the heads share
    row_label(state, tr(Text::KvHeadsLabel), label_w);
    draw_kv_heads_control(state);
  }
}

// Scale: none / √d_k / temperature, T's slider when it divides, and the scale's one-line reading.
void draw_scale_controls(AppState& state, const Fonts& fonts, float label_w) {
  const scene::Scene& s = state.scene;
  row_label(state, tr(Text::Scale), label_w);
  int mode = int(s.scale.mode);
  bool scale_changed = false;
  {
    const Group group(state, "scale");
    // Each choice a stop of Tab with its spoken name (ui/widgets/keyboard.hpp) and a rectangle of its
    // own (a click on it: the soak, tests/bench/soak.mjs); the group's is all three together.
    scale_changed |= ImGui::RadioButton((std::string(tr(Text::ScaleNone)) + "##scale").c_str(), &mode,
                                        int(attn::ScaleMode::None));
    record_item_rect(state, "scale/none", "scale: none");
    ImGui::SameLine();
    scale_changed |= ImGui::RadioButton("÷ √d_k", &mode, int(attn::ScaleMode::SqrtDk));
    record_item_rect(state, "scale/sqrt_dk", "scale: divide by square root of d k");
    ImGui::SameLine();
    scale_changed |= ImGui::RadioButton("÷ T", &mode, int(attn::ScaleMode::Temperature));
    record_item_rect(state, "scale/temperature", "scale: divide by temperature T");
  }
  if (scale_changed) set_scale_mode(state, attn::ScaleMode(mode));
  if (s.scale.mode == attn::ScaleMode::Temperature) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::SetNextItemWidth(-FLT_MIN);
    double t = s.scale.temperature;
    if (slider_double(state, "temperature", "##temperature", &t, 0.05, 20.0, "T = %.3f",
                      ImGuiSliderFlags_Logarithmic))
      set_temperature(state, t);
  }
  // The scale's one-line reading (left out on short displays to keep the causal row in view).
  if (state.computed && !state.ui.frame.compact_headers) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::PushFont(fonts.small);
    std::string hint = tr(scale_texts(s.scale.mode).controls_hint);
    if (s.scale.mode == attn::ScaleMode::SqrtDk && s.heads > 1)  // each head divides by √ of its key size
      hint = fill(tr(Text::HeadsScaleHint),
                  {std::to_string(s.d_k() / s.heads), format_number(state.result.divisor, 3)});
    else if (s.scale.mode == attn::ScaleMode::SqrtDk)
      hint += ", √" + std::to_string(s.d_k()) + " = " + format_number(state.result.divisor, 3);
    wrapped_text_disabled(hint);  // a narrow panel (Walk through) wraps it rather than cut its end
    ImGui::PopFont();
  }
}

// The causal mask's checkbox and its hint.
void draw_causal_row(AppState& state, const Fonts& fonts) {
  bool causal = state.scene.causal;
  if (checkbox(state, "causal", (std::string(tr(Text::CausalMask)) + "##causal").c_str(), &causal))
    set_causal(state, causal);
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", tr(Text::CausalHint));
  ImGui::PopFont();
}

// Reset (back to the scene as loaded: preset, demo or generated) and, when the scene has a custom
// mask, Clear mask after it.
void draw_reset_buttons(AppState& state, float em) {
  const std::string reset_label = std::string(tr(Text::Reset)) + "##reset";
  const float reset_w =
      ImGui::CalcTextSize(reset_label.c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  // Reset at the right end of the causal row when it fits, else on its own row.
  if (ImGui::GetItemRectMax().x + em + reset_w <=
      ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - reset_w);
  }
  if (button(state, "reset", reset_label.c_str())) {
    if (state.generated) {
      load_generated(state, *state.generated);  // keeps its #gen= link
    } else {
      scene::Scene original = state.reset_scene;
      const std::string preset = state.preset_name;
      const std::string demo = state.ui.settings.demo, demo_title = state.ui.settings.demo_title;
      load_scene(state, std::move(original), preset);
      state.ui.settings.demo = demo;  // still the demo as loaded
      state.ui.settings.demo_title = demo_title;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ResetTip));
  if (state.scene.mask.size() > 0) {
    ImGui::SameLine();
    if (button(state, "clear-mask", (std::string(tr(Text::ClearMask)) + "##clear-mask").c_str()))
      clear_custom_mask(state);
  }
}

// The last action's notice (an error, or what a share button did), wrapped, in the accent colour.
void draw_notice(const AppState& state, const Fonts& fonts) {
  if (state.notice.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
  ImGui::PushFont(fonts.small);
  wrapped_text(state.notice);
  ImGui::PopFont();
  ImGui::PopStyleColor();
}

}  // namespace

void draw_controls_panel(AppState& state, const Fonts& fonts) {
  panel_header(state, fonts, tr(Text::ControlsTitle), tr(Text::ControlsHint));
  draw_mode_controls_rows(state, fonts);  // e.g. a head opened from the Circuits mode: the way back
  const float em = ImGui::GetFontSize();
  const float label_w = 5.2f * em;
  // After each group of rows, where the panel may end when it is too short for all of them.
  std::vector<float>& rows = state.ui.frame.controls_rows;
  draw_example_picker(state, fonts, label_w);
  note_row_bottom(rows);
  draw_size_controls(state, label_w);
  note_row_bottom(rows);
  draw_scale_controls(state, fonts, label_w);
  note_row_bottom(rows);
#if AL_ALL_MODES
  // Cross-attention: causal, RoPE and ALiBi are about positions in one sequence (the scene refuses them).
  ImGui::BeginDisabled(scene::is_cross_attention(state.scene));
#endif
  draw_causal_row(state, fonts);
  note_row_bottom(rows);
  draw_rope_controls(state, fonts);
  note_row_bottom(rows);
  draw_alibi_control(state, fonts);  // RoPE's other choice (variant_controls.cpp)
#if AL_ALL_MODES
  ImGui::EndDisabled();
#endif
  draw_reset_buttons(state, em);
  note_row_bottom(rows);
  draw_share_buttons(state, fonts);  // Gallery, Copy link, Export/Import JSON, Export PNG (each row)
  draw_generate_button(state, fonts);
  draw_notice(state, fonts);
}

}  // namespace ui
