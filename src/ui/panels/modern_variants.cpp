// modern_variants.cpp — "Variants…" beside Generate in the Controls panel: a popup with the attention
// variants of 2024–26 models (scene/variant_keys.hpp, core/variants.hpp), each a switch with its
// setting, its paper and year in the tooltip:
//
//   sink logit z     an extra logit in every row's softmax that takes weight and returns nothing: rows sum to
//   < 1 softcap c        scaled scores → c·tanh(s/c) before the mask QK-norm          RMSNorm of each head's
//   q and k rows (ε = 1e-6, gains 1) before the scores top-k k          each query keeps its k best allowed
//   keys (ties: the lower index) differential λ   weights = softmax(Q₁K₁ᵀ/√d) − λ·softmax(Q₂K₂ᵀ/√d), each
//   head's columns halved linear           φ(q)·φ(k) weights with φ = elu + 1, no softmax
//
// Every change goes through set_variant_keys (the edit path: undo, the link, the page API see it).
// A switch the scene cannot take is drawn disabled, its tooltip giving the scene's own reason
// (variant_keys_problem). Only the build with every mode has it: the first load has no variant keys.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {

namespace {

// The scene's variant settings as they are now, or null. Read afresh wherever needed: a switch or slider
// replaces the scene's variant keys, so a pointer kept across one would dangle.
const attn::Variants* live(const AppState& state) {
  return state.scene.variants ? &state.scene.variants->core : nullptr;
}

// Whether the scene has a variant on, as `test` of its settings says.
template <class Test>
bool is_on(const AppState& state, Test test) {
  const attn::Variants* v = live(state);
  return v && test(*v);
}

// The scene's variant keys (a copy to edit), or none.
scene::VariantKeys current_keys(const AppState& state) {
  return state.scene.variants ? *state.scene.variants : scene::VariantKeys{};
}

// The tooltip of the last item: its paper, and when it is disabled, why.
void tip(const char* paper, const std::string& why) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(28 * ImGui::GetFontSize());
  ImGui::TextUnformatted(paper);
  if (!why.empty()) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
    ImGui::TextUnformatted((std::string(tr(Text::VariantsRefused)) + " " + why).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// One variant's row: its switch (`id`, label, paper) and, while it is on, `setting()` on the same line
// at `setting_x`. `turn_on` fills in the keys with the variant on (its starting value), `turn_off`
// takes it out. The switch is disabled when the scene refuses the variant turned on.
template <class On, class Off, class Setting>
void variant_row(AppState& state, const std::string& id, Text label, Text paper, bool on, float setting_x,
                 On turn_on, Off turn_off, Setting setting) {
  scene::VariantKeys keys = current_keys(state);
  std::string why;
  if (!on) {
    scene::VariantKeys with = keys;
    turn_on(with);
    why = variant_keys_problem(state, with);
  }
  ImGui::BeginDisabled(!why.empty());
  bool value = on;
  const bool switched = checkbox(state, id, (std::string(tr(label)) + "##" + id).c_str(), &value);
  if (switched) {
    if (value)
      turn_on(keys);
    else
      turn_off(keys);
    set_variant_keys(state, keys);
  }
  ImGui::EndDisabled();
  tip(tr(paper), why);
  if (on && !switched) {  // a row just switched shows its setting from the next frame
    ImGui::SameLine(setting_x);
    ImGui::SetNextItemWidth(-FLT_MIN);
    setting();
  }
}

// Softcap's curve under its row: y = c·tanh(s/c) against the scaled score s over ±X (X: 3c, or the
// scene's largest |s| when larger), the identity y = s dashed, the caps ±c dotted, and the scene's
// own scaled scores (the allowed cells of the focused head's pass) as dots on the curve — how many
// the cap flattens. Id "variants/softcap/curve".
void draw_softcap_curve(AppState& state, const Fonts& fonts, double c, float width) {
  const attn::Result& r = state.result;
  const SoftcapReach reach = softcap_reach(r, c);
  const double X = std::max(3.0 * c, 1.05 * reach.largest);
  const float em = ImGui::GetFontSize(), h = 6.0f * em;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), palette::track(), 0.2f * em);
  // Both axes span ±X, so the identity is the diagonal and the cap's flattening shows as it is.
  const auto x_of = [&](double v) { return p.x + 0.5f * width + float(v / X) * (0.5f * width - 0.4f * em); };
  const auto y_of = [&](double v) { return p.y + 0.5f * h - float(v / X) * (0.5f * h - 0.4f * em); };
  dl->AddLine(ImVec2(p.x, y_of(0)), ImVec2(p.x + width, y_of(0)), palette::panel_border(), 1.0f);
  dl->AddLine(ImVec2(x_of(0), p.y), ImVec2(x_of(0), p.y + h), palette::panel_border(), 1.0f);
  constexpr int kDashes = 24;
  for (int k = 0; k < kDashes; k += 2) {  // y = s, dashed
    const double a = -X + 2.0 * X * k / kDashes, b = -X + 2.0 * X * (k + 1) / kDashes;
    dl->AddLine(ImVec2(x_of(a), y_of(a)), ImVec2(x_of(b), y_of(b)), palette::text_dim(), 1.0f);
  }
  for (double cap : {c, -c})  // ±c, dotted
    for (int k = 0; k < 3 * kDashes; k += 2)
      dl->AddLine(ImVec2(p.x + width * float(k) / float(3 * kDashes), y_of(cap)),
                  ImVec2(p.x + width * float(k + 1) / float(3 * kDashes), y_of(cap)),
                  palette::with_alpha(palette::accent(), 120), 1.0f);
  const float thick = std::max(1.5f, 0.12f * em);
  ImVec2 line[65];
  for (int k = 0; k <= 64; ++k) {
    const double s = -X + 2.0 * X * k / 64.0;
    line[k] = ImVec2(x_of(s), y_of(c * std::tanh(s / c)));
  }
  dl->AddPolyline(line, 65, palette::accent(), 0, thick);
  for (Eigen::Index i = 0; i < r.scaled.rows(); ++i)
    for (Eigen::Index j = 0; j < r.scaled.cols(); ++j)
      if ((r.allowed.size() == 0 || r.allowed(i, j)) && std::isfinite(r.scaled(i, j))) {
        const double s = r.scaled(i, j);
        dl->AddCircleFilled(ImVec2(x_of(s), y_of(c * std::tanh(s / c))), 0.16f * em,
                            std::abs(s) > c ? palette::query() : palette::key());
      }
  ImGui::PushFont(fonts.small);
  const std::string cap = "+c = " + format_number(c, 2), edge = "s = " + format_number(X, 1);
  dl->AddText(ImVec2(p.x + 0.3f * em, y_of(c) - ImGui::GetTextLineHeight()), palette::text_dim(),
              cap.c_str());
  dl->AddText(ImVec2(p.x + width - ImGui::CalcTextSize(edge.c_str()).x - 0.3f * em, y_of(0)),
              palette::text_dim(), edge.c_str());
  dummy(state, "variants/softcap/curve", ImVec2(width, h));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextDisabled(
      "%s", fill(tr(Text::VariantsSoftcapCurve), {std::to_string(reach.beyond), std::to_string(reach.count)})
                .c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
}

void draw_variant_rows(AppState& state, const Fonts& fonts, float setting_x) {
  const scene::Scene& s = state.scene;
  const int m = int(scene::key_count(s));

  // Sink logit: one value for every head (a scene file may give one per head; the slider sets all).
  variant_row(
      state, "variants/sink", Text::VariantsSink, Text::VariantsSinkTip,
      is_on(state, [](const attn::Variants& v) { return !v.sink_logit.empty(); }), setting_x,
      [](scene::VariantKeys& k) { k.core.sink_logit = {0.0}; },
      [](scene::VariantKeys& k) { k.core.sink_logit.clear(); },
      [&] {
        double z = live(state)->sink_logit.front();
        if (slider_double(state, "variants/sink/z", "##sink-z", &z, -8.0, 8.0, "z = %.2f")) {
          scene::VariantKeys k = current_keys(state);
          k.core.sink_logit.assign(k.core.sink_logit.size() == 1 ? 1 : std::size_t(s.heads), z);
          set_variant_keys(state, k);
        }
      });
  // Softcap: c from 0.25 to 50 (log); scores beyond ±c flatten.
  variant_row(
      state, "variants/softcap", Text::VariantsSoftcap, Text::VariantsSoftcapTip,
      is_on(state, [](const attn::Variants& v) { return v.softcap != 0.0; }), setting_x,
      [](scene::VariantKeys& k) { k.core.softcap = 2.0; },
      [](scene::VariantKeys& k) { k.core.softcap = 0.0; },
      [&] {
        double c = live(state)->softcap;
        if (slider_double(state, "variants/softcap/c", "##softcap-c", &c, 0.25, 50.0, "c = %.2f",
                          ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
          scene::VariantKeys k = current_keys(state);
          k.core.softcap = c;
          set_variant_keys(state, k);
        }
      });
  if (const attn::Variants* v = live(state); v && v->softcap > 0.0)
    draw_softcap_curve(state, fonts, v->softcap,
                       setting_x + 12.0f * ImGui::GetFontSize() - ImGui::GetCursorPosX());
  // QK-norm: ε and gains as the scene gives them (defaults 1e-6 and ones); a switch only.
  variant_row(
      state, "variants/qk_norm", Text::VariantsQkNorm, Text::VariantsQkNormTip,
      is_on(state, [](const attn::Variants& v) { return v.qk_norm; }), setting_x,
      [](scene::VariantKeys& k) { k.core.qk_norm = true; },
      [](scene::VariantKeys& k) {
        k.core.qk_norm = false;
        k.core.gain_q.clear();
        k.core.gain_k.clear();
      },
      [&] {
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("eps = %g", live(state)->qk_eps);
      });
  // Top-k: k from 1 to the keys (or blocks, when the scene gives topk_block).
  variant_row(
      state, "variants/topk", Text::VariantsTopk, Text::VariantsTopkTip,
      is_on(state, [](const attn::Variants& v) { return v.topk != 0; }), setting_x,
      [m](scene::VariantKeys& k) { k.core.topk = std::min(2, std::max(m, 1)); },
      [](scene::VariantKeys& k) {
        k.core.topk = 0;
        k.core.topk_block = 0;
        k.core.indexer = attn::Matrix();
      },
      [&] {
        const attn::Variants& v = *live(state);
        const int units = v.topk_block > 0 ? (m + v.topk_block - 1) / v.topk_block : m;
        int k = v.topk;
        if (slider_int(state, "variants/topk/k", "##topk-k", &k, 1, std::max(units, 1), "k = %d",
                       ImGuiSliderFlags_AlwaysClamp)) {
          scene::VariantKeys keys = current_keys(state);
          keys.core.topk = k;
          set_variant_keys(state, keys);
        }
      });
  // Differential: λ from −1 to 1 (the paper's λ stays near λ_init = 0.8 − 0.6·e^(−0.3·(l−1))).
  variant_row(
      state, "variants/differential", Text::VariantsDifferential, Text::VariantsDifferentialTip,
      is_on(state, [](const attn::Variants& v) { return v.differential; }), setting_x,
      [](scene::VariantKeys& k) {
        k.core.differential = true;
        k.core.lambda = 0.5;
      },
      [](scene::VariantKeys& k) {
        k.core.differential = false;
        k.core.lambda = 0.0;
        k.core.diff_norm = false;
      },
      [&] {
        double lambda = live(state)->lambda;
        if (slider_double(state, "variants/differential/lambda", "##lambda", &lambda, -1.0, 1.0,
                          "lambda = %.2f", ImGuiSliderFlags_AlwaysClamp)) {
          scene::VariantKeys k = current_keys(state);
          k.core.lambda = lambda;
          set_variant_keys(state, k);
        }
      });
  // Linear attention: a switch (φ = elu + 1 is its only kernel).
  variant_row(
      state, "variants/linear", Text::VariantsLinear, Text::VariantsLinearTip,
      is_on(state, [](const attn::Variants& v) { return v.linear; }), setting_x,
      [](scene::VariantKeys& k) { k.core.linear = true; },
      [](scene::VariantKeys& k) { k.core.linear = false; },
      [&] {
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled("%s", tr(Text::VariantsLinearNote));
      });
}

// A latent-attention scene ("mla"): no switch (its weights are the scene's own), a line saying what
// its cache keeps per token against the same heads' keys and values (K and V of the multi-head result:
// 2·h·d_head when keys and values have one size), and how close the absorbed form's weights come.
void draw_mla_line(const AppState& state, const Fonts& fonts) {
  if (!scene::is_mla(state.scene) || !state.heads.variant || !state.heads.variant->mla) return;
  const attn::MlaResult& m = *state.heads.variant->mla;
  double gap = 0.0;
  for (std::size_t t = 0; t < m.weights.size() && t < m.absorbed_weights.size(); ++t)
    gap = std::max(gap, (m.absorbed_weights[t] - m.weights[t]).cwiseAbs().maxCoeff());
  char gap_text[32];
  std::snprintf(gap_text, sizeof gap_text, "%.1e", gap);
  const long long mha = static_cast<long long>(state.heads.K.cols() + state.heads.V.cols());
  ImGui::Separator();
  ImGui::TextUnformatted(tr(Text::VariantsMla));
  tip(tr(Text::VariantsMlaTip), "");
  ImGui::PushFont(fonts.small);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 24 * ImGui::GetFontSize());
  ImGui::TextDisabled("%s", fill(tr(Text::VariantsMlaCache),
                                 {std::to_string(m.cache_numbers_per_token), std::to_string(mha), gap_text})
                                .c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
}

}  // namespace

SoftcapReach softcap_reach(const attn::Result& r, double c) {
  SoftcapReach out;
  for (Eigen::Index i = 0; i < r.scaled.rows(); ++i)
    for (Eigen::Index j = 0; j < r.scaled.cols(); ++j) {
      const double s = r.scaled(i, j);
      if ((r.allowed.size() != 0 && !r.allowed(i, j)) || !std::isfinite(s)) continue;
      ++out.count;
      out.beyond += std::abs(s) > c;
      out.largest = std::max(out.largest, std::abs(s));
    }
  return out;
}

void draw_variants_button(AppState& state, const Fonts& fonts) {
  const std::string label = std::string(tr(Text::VariantsButton)) + "##variants";
  const float w =
      ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  same_line_if_fits(w, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x);
  if (button(state, "variants", label.c_str())) ImGui::OpenPopup("variants");
  note_row_bottom(state.ui.frame.controls_rows);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::VariantsButtonTip));
  if (!ImGui::BeginPopup("variants")) return;
  const float em = ImGui::GetFontSize();
  ImGui::TextUnformatted(tr(Text::VariantsTitle));
  ImGui::PushFont(fonts.small);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 24 * em);
  ImGui::TextDisabled("%s", tr(Text::VariantsNote));
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::Separator();
  ImGui::PushItemWidth(12 * em);
  // The settings in one column after the longest switch's label.
  float label_w = 0;
  for (Text t : {Text::VariantsSink, Text::VariantsSoftcap, Text::VariantsQkNorm, Text::VariantsTopk,
                 Text::VariantsDifferential, Text::VariantsLinear})
    label_w = std::max(label_w, ImGui::CalcTextSize(tr(t)).x);
  const float setting_x =
      ImGui::GetCursorPosX() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + label_w + em;
  ImGui::BeginGroup();
  draw_variant_rows(state, fonts, setting_x);
  ImGui::Dummy(ImVec2(setting_x + 12 * em - ImGui::GetCursorPosX(), 0));  // the settings' column width
  ImGui::EndGroup();
  ImGui::PopItemWidth();
  draw_mla_line(state, fonts);
  if (!state.notice.empty()) {  // a refused setting says why, here where it was made
    ImGui::PushFont(fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 24 * em);
    ImGui::TextUnformatted(state.notice.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
  ImGui::EndPopup();
}

}  // namespace ui
