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
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "scene/scene.hpp"
#include "scene/variant_keys.hpp"
#include "ui/look/colormap.hpp"
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

// QK-norm's readout under its row: the focused head's scaled scores' range and mean row entropy with
// QK-norm on (the scene) and off (a copy without it), so the student sees what the norm does to the
// logits' spread. Recomputed only when the result changes (a small cache by result version).
void draw_qk_norm_readout(AppState& state, const Fonts& fonts) {
  static std::uint64_t cached_version = ~std::uint64_t(0);
  static int cached_head = -1;
  static const void* cached_keys =
      nullptr;  // the variant keys it was computed for (another scene, another app)
  static QkNormCompare cached;
  const int t = std::clamp(state.ui.focus_head, 0, std::max(state.scene.heads, 1) - 1);
  if (cached_version != state.result_version || cached_head != t ||
      cached_keys != state.scene.variants.get() || !state.computed) {
    cached = qk_norm_compare(state.scene, t);
    cached_version = state.result_version;
    cached_head = t;
    cached_keys = state.scene.variants.get();
  }
  if (!cached.as_is.any) return;
  const ScoreSpread &on = cached.as_is, &off = cached.flipped;
  ImGui::PushFont(fonts.small);
  wrapped_text_disabled(
      fill(tr(Text::VariantsQkNormCompare),
           {std::to_string(t), format_number(on.lo, 2), format_number(on.hi, 2), format_number(off.lo, 2),
            format_number(off.hi, 2), format_number(on.entropy, 2), format_number(off.entropy, 2)}),
      26.0f * ImGui::GetFontSize());
  record_item_rect(state, "variants/qk_norm/compare");
  ImGui::PopFont();
}

// Top-k's selection under its row: how many pairs softmax still reads (the cost), and for scenes of up
// to 48 × 48 the selection as a mask — each query's kept keys lit in the key colour, the pairs the mask
// allows but top-k drops outlined, the masked ones dark. Id "variants/topk/selection".
void draw_topk_selection(AppState& state, const Fonts& fonts, float width) {
  const TopkCount c = topk_count(state);
  if (!c.selected || c.allowed == 0) return;
  const attn::MaskMatrix& sel = *c.selected;
  const attn::MaskMatrix& allowed = state.result.allowed;
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.small);
  const std::string percent = format_number(100.0 * double(c.kept) / double(c.allowed), 0);
  wrapped_text_disabled(fill(tr(Text::VariantsTopkCost), {std::to_string(c.kept), std::to_string(c.allowed),
                                                          percent, std::to_string(c.pairs)}),
                        width);
  ImGui::PopFont();
  const int n = int(sel.rows()), m = int(sel.cols());
  if (n > 48 || m > 48) return;
  const float cell = std::floor(std::min(1.1f * em, width / float(std::max(m, 1))));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float inset = cell >= 6.0f ? 1.0f : 0.0f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      const ImVec2 a(p.x + float(j) * cell + inset, p.y + float(i) * cell + inset);
      const ImVec2 b(a.x + cell - 2.0f * inset, a.y + cell - 2.0f * inset);
      if (sel(i, j))
        dl->AddRectFilled(a, b, palette::key());
      else if (allowed.size() == 0 || allowed(i, j))
        dl->AddRect(a, b, palette::text_dim());
      else
        dl->AddRectFilled(a, b, palette::track());
    }
  dummy(state, "variants/topk/selection", ImVec2(float(m) * cell, float(n) * cell));
}

// The gate as a grid under its row: σ(G), n rows (tokens) × its columns (the concat's, or one per
// head), each cell coloured 0 … 1 with its value. In a direct scene each cell is a button
// ("variants/gate/i/c"): a click shuts (G = −4, σ ≈ 0.02) or opens (G = +4, σ ≈ 0.98) it, a vertical
// drag moves G by one per 1.5 em (up: more through); every change goes through set_variant_keys.
// A learned scene's σ(X W_g) is shown, not edited. Large gates (over 48 rows or 32 columns) are
// left to the Output panel's numbers and the exports.
void draw_gate_grid(AppState& state, const Fonts& fonts, float width) {
#if AL_ALL_MODES
  const attn::VariantStages* stages = state.heads.variant.get();
  if (!state.computed || !stages || stages->gate_sigmoid.size() == 0) return;
  const attn::Matrix& sg = stages->gate_sigmoid;
  const int rows = int(sg.rows()), cols = int(sg.cols());
  const bool direct = state.scene.mode == scene::Mode::Direct;
  // σ(G) is the last pass's; a switch this frame (head-wise, a token added) may have given the scene a
  // gate of another shape, which the next pass draws: until then nothing is drawn from either.
  if (!state.scene.variants) return;  // switched off this frame
  const attn::Matrix& G = state.scene.variants->core.gate;
  if (rows > int(state.scene.tokens.size()) || rows > state.heads.concat.rows() ||
      (direct && (G.rows() != rows || G.cols() != cols)))
    return;
  const bool headwise = cols == state.scene.heads && cols != state.scene.concat_dim();
  ImGui::PushFont(fonts.small);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextDisabled("%s", fill(tr(direct ? Text::VariantsGateGrid : Text::VariantsGateGridLearned),
                                 {headwise ? "h0, h1, …" : "y0, y1, …"})
                                .c_str());
  ImGui::PopTextWrapPos();
  if (rows > 48 || cols > 32) {
    ImGui::PopFont();
    return;
  }
  const float em = ImGui::GetFontSize();
  float label_w = 0;
  for (const std::string& tok : state.scene.tokens)
    label_w = std::max(label_w, ImGui::CalcTextSize(fit_text(tok, 5.0f * em).c_str()).x);
  label_w += 0.4f * em;
  const ImVec2 start = ImGui::GetCursorScreenPos();
  // Cells up to 3.4 em across the settings' width, the grid no taller than 45 % of the screen (the
  // popup stays on screen; small cells leave their values to the tooltips). Not from the popup's own
  // position, which moves as the popup grows.
  const float cell = std::max(0.8f * em, std::min({(width - label_w) / float(cols), 3.4f * em,
                                                   0.45f * ImGui::GetIO().DisplaySize.y / float(rows)}));
  const bool numbers = cell >= ImGui::CalcTextSize("0.00").x + 0.3f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Column heads: one head's columns y0, y1, … (element-wise); with several heads each head's name
  // over its first column (h0, h1, …).
  const int per_head = headwise ? 1 : std::max(1, cols / std::max(state.scene.heads, 1));
  const bool one_head = !headwise && state.scene.heads == 1;
  for (int c = 0; c < cols; c += one_head ? 1 : per_head) {
    const std::string head = one_head ? "y" + std::to_string(c) : "h" + std::to_string(c / per_head);
    const float w = ImGui::CalcTextSize(head.c_str()).x;
    if (one_head && w > cell) break;
    dl->AddText(
        ImVec2(start.x + label_w + cell * float(c) + (one_head ? 0.5f * (cell - w) : 0.15f * em), start.y),
        palette::text_dim(), head.c_str());
  }
  const ImVec2 o(start.x + label_w, start.y + ImGui::GetTextLineHeight() + 0.15f * em);
  const ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < rows; ++i) {
    const std::string tok = fit_text(state.scene.tokens[std::size_t(i)], 5.0f * em);
    dl->AddText(ImVec2(o.x - 0.3f * em - ImGui::CalcTextSize(tok.c_str()).x,
                       o.y + cell * (float(i) + 0.5f) - 0.5f * ImGui::GetTextLineHeight()),
                palette::query(), tok.c_str());
    for (int c = 0; c < cols; ++c) {
      const ImVec2 a(o.x + cell * float(c), o.y + cell * float(i)), b(a.x + cell - 1.0f, a.y + cell - 1.0f);
      const ImU32 fill_color = colormap_color(Colormap::Viridis, float(sg(i, c)));
      dl->AddRectFilled(a, b, fill_color);
      if (numbers) {
        const std::string v = format_number(sg(i, c), 2);
        const ImVec2 size = ImGui::CalcTextSize(v.c_str());
        dl->AddText(ImVec2(a.x + 0.5f * (cell - size.x), a.y + 0.5f * (cell - size.y)),
                    contrasting_text(fill_color), v.c_str());
      }
      if (!direct) continue;
      ImGui::SetCursorScreenPos(a);
      const std::string id = "variants/gate/" + std::to_string(i) + "/" + std::to_string(c);
      const bool clicked = invisible_button(state, id, ("##" + id).c_str(), ImVec2(cell - 1.0f, cell - 1.0f));
      if (!state.scene.variants || state.scene.variants->core.gate.rows() != rows ||
          state.scene.variants->core.gate.cols() != cols)
        break;  // a cell edited above replaced the gate with another shape (the next frame draws it)
      const double g = state.scene.variants->core.gate(i, c);
      double next = g;
      if (ImGui::IsItemActive() && io.MouseDelta.y != 0.0f && ImGui::IsMouseDragging(ImGuiMouseButton_Left))
        next = std::clamp(g - double(io.MouseDelta.y) / (1.5 * em), -8.0, 8.0);
      else if (clicked && io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold)
        next = sg(i, c) >= 0.5 ? -4.0 : 4.0;
      if (ImGui::IsItemHovered() || ImGui::IsItemActive())
        outline(dl, a, b, palette::selection(), std::max(1.5f, 0.1f * em));
      if (ImGui::IsItemHovered()) {
        // Element-wise, the output this cell gates: y before, y·σ after (the concat's column c).
        const std::string through = headwise || c >= stages->gated.cols()
                                        ? std::string()
                                        : ": y = " + format_number(state.heads.concat(i, c), 3) + " → " +
                                              format_number(stages->gated(i, c), 3);
        ImGui::SetTooltip("%s · %s: G = %s, σ = %s%s", tok.c_str(),
                          (headwise ? "h" + std::to_string(c) : "y" + std::to_string(c)).c_str(),
                          format_number(g, 2).c_str(), format_number(sg(i, c), 3).c_str(), through.c_str());
      }
      if (next != g) {
        scene::VariantKeys k = current_keys(state);
        k.core.gate(i, c) = next;
        set_variant_keys(state, k);
      }
    }
  }
  // Between heads, a line (element-wise gates of several heads).
  if (!headwise && state.scene.heads > 1)
    for (int c = per_head; c < cols; c += per_head)
      dl->AddLine(ImVec2(o.x + cell * float(c) - 0.5f, o.y),
                  ImVec2(o.x + cell * float(c) - 0.5f, o.y + cell * float(rows)), palette::panel_border(),
                  std::max(1.0f, 0.1f * em));
  ImGui::SetCursorScreenPos(start);
  dummy(state, "variants/gate/grid",
        ImVec2(label_w + cell * float(cols), o.y - start.y + cell * float(rows)));
  ImGui::PopFont();
#else
  (void)state, (void)fonts, (void)width;
#endif
}

void draw_sink_row(AppState& state, const Fonts& fonts, float setting_x) {
  const scene::Scene& s = state.scene;
  // Sink logit: one z for every head, or one per head (sink_logit holds h values). With several heads
  // the slider edits the focused head's z, or every head's while "same for all heads" is ticked (a
  // scene of one number stays one number until it is unticked).
  variant_row(
      state, "variants/sink", Text::VariantsSink, Text::VariantsSinkTip,
      is_on(state, [](const attn::Variants& v) { return !v.sink_logit.empty(); }), setting_x,
      [](scene::VariantKeys& k) { k.core.sink_logit = {0.0}; },
      [](scene::VariantKeys& k) { k.core.sink_logit.clear(); },
      [&] {
        const int t = std::clamp(state.ui.focus_head, 0, std::max(s.heads, 1) - 1);
        const bool shared = live(state)->sink_logit.size() == 1;
        double z = live(state)->sink(shared ? 0 : t);
        const std::string format =
            s.heads > 1 && !shared ? fill(tr(Text::VariantsSinkHeadZ), {std::to_string(t)}) : "z = %.2f";
        if (slider_double(state, "variants/sink/z", "##sink-z", &z, -8.0, 8.0, format.c_str())) {
          scene::VariantKeys k = current_keys(state);
          if (k.core.sink_logit.size() == 1)
            k.core.sink_logit[0] = z;
          else
            k.core.sink_logit[std::size_t(t)] = z;
          set_variant_keys(state, k);
        }
      });
  if (const attn::Variants* v = live(state); v && !v->sink_logit.empty() && s.heads > 1) {
    ImGui::SetCursorPosX(setting_x);
    bool shared = v->sink_logit.size() == 1;
    ImGui::PushFont(fonts.small);
    if (checkbox(state, "variants/sink/all", (std::string(tr(Text::VariantsSinkAll)) + "##sink-all").c_str(),
                 &shared)) {
      scene::VariantKeys k = current_keys(state);
      const int t = std::clamp(state.ui.focus_head, 0, s.heads - 1);
      // Ticked: every head takes the focused head's z; unticked: each head starts from the shared z.
      k.core.sink_logit.assign(shared ? 1 : std::size_t(s.heads), k.core.sink(shared ? t : 0));
      set_variant_keys(state, k);
    }
    if (const attn::Variants* now = live(state); now && now->sink_logit.size() > 1) {
      std::string all;
      for (std::size_t t = 0; t < now->sink_logit.size(); ++t)
        all += (t ? " · " : "") + format_number(now->sink_logit[t], 2);
      ImGui::SameLine();
      ImGui::TextDisabled("z = %s", all.c_str());
    }
    ImGui::PopFont();
  }
}

void draw_gate_row(AppState& state, const Fonts& fonts, float setting_x) {
  const scene::Scene& s = state.scene;
  // Gate: σ(G) multiplies the concat before W_o. A direct scene starts with G = 0 (σ = 0.5: every
  // output passes at half, the neutral middle from which a click shuts or opens a cell); a learned
  // scene with W_g = 0 (d_model × concat), so G = X W_g = 0 too — no seed to pick, and the paper's
  // small random start would only add noise around the same σ ≈ 0.5.
  variant_row(
      state, "variants/gate", Text::VariantsGate, Text::VariantsGateTip,
      state.scene.variants && (live(state)->gate.size() != 0 || state.scene.variants->Wg.size() != 0),
      setting_x,
      [&s](scene::VariantKeys& k) {
        if (s.mode == scene::Mode::Direct)
          k.core.gate = attn::Matrix::Zero(s.n(), s.concat_dim());
        else
          k.Wg = attn::Matrix::Zero(s.X.cols(), s.concat_dim());
      },
      [](scene::VariantKeys& k) {
        k.core.gate = attn::Matrix();
        k.Wg = attn::Matrix();
      },
      [&] {
        const scene::VariantKeys& keys = *state.scene.variants;
        const attn::Matrix& g = keys.Wg.size() != 0 ? keys.Wg : keys.core.gate;
        const bool headwise = g.cols() == s.heads && s.heads != s.concat_dim();
        // One column per head already (d_v/h = 1 each): the two are the same gate, so no choice.
        const bool same = s.heads == s.concat_dim();
        for (const bool choice : {false, true}) {
          if (choice) ImGui::SameLine();
          ImGui::BeginDisabled(same && choice);
          const char* id = choice ? "variants/gate/headwise" : "variants/gate/elementwise";
          const Text label = choice ? Text::VariantsGateHeadwise : Text::VariantsGateElementwise;
          if (radio_button(state, id, (std::string(tr(label)) + "##" + id).c_str(), headwise == choice) &&
              headwise != choice) {
            scene::VariantKeys k = current_keys(state);
            attn::Matrix& m_g = k.Wg.size() != 0 ? k.Wg : k.core.gate;
            m_g = gate_columns(m_g, s.heads, s.concat_dim(), choice);
            set_variant_keys(state, k);
          }
          ImGui::EndDisabled();
        }
      });
  if (state.scene.variants && (live(state)->gate.size() != 0 || state.scene.variants->Wg.size() != 0))
    draw_gate_grid(state, fonts, setting_x + 12.0f * ImGui::GetFontSize() - ImGui::GetCursorPosX());
}

void draw_variant_rows(AppState& state, const Fonts& fonts, float setting_x) {
  const scene::Scene& s = state.scene;
  const int m = int(scene::key_count(s));

  draw_sink_row(state, fonts, setting_x);
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
  if (const attn::Variants* v = live(state); v && v->qk_norm) draw_qk_norm_readout(state, fonts);
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
  if (const attn::Variants* v = live(state); v && v->topk != 0)
    draw_topk_selection(state, fonts, setting_x + 12.0f * ImGui::GetFontSize() - ImGui::GetCursorPosX());
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
  draw_gate_row(state, fonts, setting_x);
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

TopkCount topk_count(const AppState& state) {
  TopkCount c;
  const attn::HeadsResult& h = state.heads;
  const int t = std::clamp(state.ui.focus_head, 0, std::max(state.scene.heads, 1) - 1);
  if (!h.variant || std::size_t(t) >= h.variant->heads.size()) return c;
  const attn::MaskMatrix& sel = h.variant->heads[std::size_t(t)].selected;
  if (sel.size() == 0) return c;
  const attn::MaskMatrix& allowed = state.result.allowed;
  c.selected = &sel;
  c.pairs = static_cast<long long>(sel.rows()) * sel.cols();
  for (Eigen::Index i = 0; i < sel.rows(); ++i)
    for (Eigen::Index j = 0; j < sel.cols(); ++j) {
      c.kept += sel(i, j) != 0;
      c.allowed += allowed.size() == 0 || allowed(i, j) != 0;
    }
  return c;
}

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

ScoreSpread score_spread(const attn::Result& r) {
  ScoreSpread out;
  double entropy = 0.0;
  int rows = 0;
  for (Eigen::Index i = 0; i < r.scaled.rows(); ++i) {
    bool row_any = false;
    double h = 0.0;
    for (Eigen::Index j = 0; j < r.scaled.cols(); ++j) {
      if (r.allowed.size() != 0 && !r.allowed(i, j)) continue;
      const double s = r.scaled(i, j);
      if (std::isfinite(s)) {
        out.lo = out.any ? std::min(out.lo, s) : s;
        out.hi = out.any ? std::max(out.hi, s) : s;
        out.any = true;
      }
      row_any = true;
      const double a = r.weights(i, j);
      if (a > 0.0) h -= a * std::log(a);
    }
    if (row_any) {
      entropy += h;
      ++rows;
    }
  }
  out.entropy = rows > 0 ? entropy / rows : 0.0;
  return out;
}

QkNormCompare qk_norm_compare(const scene::Scene& s, int head) {
  QkNormCompare out;
  if (!s.variants) return out;
  const auto spread_of = [head](const scene::Scene& scene_) {
    const attn::HeadsResult r = scene::compute_heads(scene_);
    return head < int(r.heads.size()) ? score_spread(r.heads[std::size_t(head)]) : ScoreSpread{};
  };
  out.as_is = spread_of(s);
  scene::Scene other = s;
  auto keys = std::make_shared<scene::VariantKeys>(*s.variants);
  keys->core.qk_norm = !keys->core.qk_norm;
  if (!keys->core.qk_norm) {  // the gains belong to the norm
    keys->core.gain_q.clear();
    keys->core.gain_k.clear();
  }
  other.variants = keys;
  out.flipped = spread_of(other);
  return out;
}

attn::Matrix gate_columns(const attn::Matrix& g, int heads, int concat, bool headwise) {
  const int per_head = concat / std::max(heads, 1);
  if (headwise) {
    if (g.cols() == heads) return g;
    attn::Matrix out(g.rows(), heads);
    for (int t = 0; t < heads; ++t) out.col(t) = g.middleCols(t * per_head, per_head).rowwise().mean();
    return out;
  }
  if (g.cols() == concat) return g;
  attn::Matrix out(g.rows(), concat);
  for (int c = 0; c < concat; ++c) out.col(c) = g.col(c / per_head);
  return out;
}

const std::vector<double>* sink_weights(const AppState& state) {
  const attn::VariantStages* v = state.heads.variant.get();
  const std::size_t t = std::size_t(std::max(state.ui.focus_head, 0));
  if (!state.computed || !v || t >= v->heads.size() || v->heads[t].sink_weight.empty()) return nullptr;
  return &v->heads[t].sink_weight;
}

// With a sink logit: the column "none" right of the weights, each row's sink share (the weight that
// goes to no token) as a cell of the weights' colours with a dashed grey border, so it reads as a key
// that is not a token; its label above, its value inside when it fits, a tooltip. Id "weights/none".
void draw_none_column(AppState& state, const Fonts& fonts, const NoneColumn& g) {
  const std::vector<double>* sink = sink_weights(state);
  if (!sink || int(sink->size()) < g.last) return;
  const float em = ImGui::GetFontSize();
  const float w = g.width, x0 = g.x0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  const char* label = tr(Text::WeightsNoneColumn);
  const ImVec2 label_size = ImGui::CalcTextSize(label);
  dl->AddText(ImVec2(x0 + 0.5f * (w - label_size.x), g.label_y), palette::text_dim(), label);
  dl->PushClipRect(ImVec2(x0 - 2.0f, g.clip_y0), ImVec2(x0 + w + 2.0f, g.clip_y1), true);
  const float gap = g.cell >= 8 ? std::max(1.0f, std::round(std::min(0.06f * g.cell, 3.0f))) : 0.0f;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hovered = -1;
  for (int i = g.first; i < g.last; ++i) {
    const double v = (*sink)[std::size_t(i)];
    const ImVec2 a(x0, g.origin_y + g.cell * float(i) + 0.5f * gap),
        b(x0 + w, g.origin_y + g.cell * float(i + 1) - 0.5f * gap);
    const float t = (float(v) - g.lo) / std::max(g.hi - g.lo, 1e-12f);
    const ImU32 color = colormap_color(Colormap::Viridis, std::clamp(t, 0.0f, 1.0f));
    dl->AddRectFilled(a, b, color);
    // A dashed grey border: the column is not a token (small cells: one border around the column).
    const float dash = std::max(2.0f, 0.25f * em);
    if (g.cell >= 1.5f * em) {
      for (float x = a.x; x < b.x; x += 2.0f * dash) {
        dl->AddLine(ImVec2(x, a.y), ImVec2(std::min(x + dash, b.x), a.y), palette::text_dim(), 1.0f);
        dl->AddLine(ImVec2(x, b.y - 1.0f), ImVec2(std::min(x + dash, b.x), b.y - 1.0f), palette::text_dim(),
                    1.0f);
      }
      for (float y = a.y; y < b.y; y += 2.0f * dash) {
        dl->AddLine(ImVec2(a.x, y), ImVec2(a.x, std::min(y + dash, b.y)), palette::text_dim(), 1.0f);
        dl->AddLine(ImVec2(b.x - 1.0f, y), ImVec2(b.x - 1.0f, std::min(y + dash, b.y)), palette::text_dim(),
                    1.0f);
      }
    }
    const std::string text = format_weight(v, 2, 4);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (size.x + 0.2f * em <= w && size.y <= b.y - a.y)
      dl->AddText(ImVec2(a.x + 0.5f * (w - size.x), a.y + 0.5f * (b.y - a.y - size.y)),
                  contrasting_text(color), text.c_str());
    if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
      hovered = i;
  }
  if (g.cell < 1.5f * em)
    dl->AddRect(ImVec2(x0 - 1.0f, std::max(g.grid_top, g.origin_y + g.cell * float(g.first)) - 1.0f),
                ImVec2(x0 + w + 1.0f, std::min(g.grid_bottom, g.origin_y + g.cell * float(g.last)) + 1.0f),
                palette::text_dim());
  dl->PopClipRect();
  ImGui::PopFont();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(x0, g.grid_top));
  dummy(state, "weights/none", ImVec2(w, g.grid_bottom - g.grid_top));
  ImGui::SetCursorScreenPos(at);
  if (hovered >= 0)
    ImGui::SetTooltip("%s", fill(tr(Text::WeightsNoneTip), {state.scene.tokens[std::size_t(hovered)],
                                                            format_number((*sink)[std::size_t(hovered)], 4)})
                                .c_str());
}

void draw_variants_button(AppState& state, const Fonts& fonts) {
  const std::string label = std::string(tr(Text::VariantsButton)) + "##variants";
  const float w =
      ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  same_line_if_fits(w, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x);
  if (button(state, "variants", label.c_str())) ImGui::OpenPopup("variants");
  note_row_bottom(state.ui.frame.controls_rows);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::VariantsButtonTip));
  // The popup grows as rows switch on (a curve, a grid): never taller than the screen (it scrolls),
  // and moved up when it would run past the bottom, so its last rows stay in reach.
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = ImGui::GetStyle().DisplaySafeAreaPadding.y + 4.0f;
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(FLT_MAX, std::max(io.DisplaySize.y - 2.0f * margin, 100.0f)));
  if (!ImGui::BeginPopup("variants")) return;
  if (const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
      pos.y + size.y > io.DisplaySize.y - margin)
    ImGui::SetWindowPos(ImVec2(pos.x, std::max(margin, io.DisplaySize.y - margin - size.y)));
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
                 Text::VariantsDifferential, Text::VariantsLinear, Text::VariantsGate})
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
