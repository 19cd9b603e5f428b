// circuits_panels.cpp — the Circuits mode's panels but the heads' grid (circuits_grid.cpp).
//
// [SECTION] draw_circuits_panel: task, Play / Pause / Step / Reset, lr, seed, sizes, pace, status
// [SECTION] draw_circuits_curve: loss, in-context score, per-head scores, the phase change
// [SECTION] draw_circuits_predictions: the model's next symbol after each typed one
// [SECTION] draw_circuits_composition: K-composition layer 0 → layer 1, the circuit's link lit
// [SECTION] draw_circuits_guide: five steps, each pointing at a live panel
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/circuits/circuits_parts.hpp"
#include "ui/modes/curve_plot.hpp"
#include "ui/modes/run_buttons.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

namespace model = attn::model;

// A choice among a few sizes as a row of buttons (the current one lit); true when it changed.
bool size_buttons(AppState& state, const char* id, std::initializer_list<int> values, int& value) {
  const float em = ImGui::GetFontSize();
  bool changed = false;
  for (int v : values) {
    const bool current = value == v;
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::accent_soft())
                                                   : ImGui::GetStyleColorVec4(ImGuiCol_Button));
    const std::string label = std::to_string(v) + "##" + id + std::to_string(v);
    if (button(state, std::string(id) + "/" + std::to_string(v), label.c_str(), ImVec2(2.4f * em, 0)) &&
        !current) {
      value = v;
      changed = true;
    }
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  ImGui::NewLine();
  return changed;
}

void label_column(const char* label, float label_w) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(label_w);
}

// Where the run is: step, batch loss, in-context score; the rebuild, or the step the head formed at.
void draw_run_status(AppState& state, const Fonts& fonts) {
  const CircuitsUi& c = state.ui.circuits;
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.heading);
  const int steps = c.trainer->steps();
  ImGui::TextUnformatted(fill(tr(Text::TrainStepN), {std::to_string(steps)}).c_str());
  ImGui::SameLine(0, 1.0f * em);
  const auto& history = c.trainer->history();
  ImGui::TextColored(
      to_vec4(palette::query()), "%s",
      fill(tr(Text::TrainLoss), {history.empty() ? "–" : score_text(history.back().loss)}).c_str());
  ImGui::SameLine(0, 1.0f * em);
  ImGui::TextUnformatted(fill(tr(Text::CircuitsInContext), {score_text(c.scores.in_context)}).c_str());
  ImGui::PopFont();
  record_item_rect(state, "circuits/status");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CircuitsInContextTip));
  ImGui::PushFont(fonts.small);
  if (c.rebuild_to > steps) {
    ImGui::TextColored(
        to_vec4(palette::text_dim()), "%s",
        fill(tr(Text::CircuitsRebuilding), {std::to_string(steps), std::to_string(c.rebuild_to)}).c_str());
  } else if (c.trainer->formed_at() > 0) {
    ImGui::TextColored(to_vec4(palette::key()), "%s",
                       fill(tr(Text::CircuitsFormedAt), {std::to_string(c.trainer->formed_at())}).c_str());
  } else {
    ImGui::TextColored(to_vec4(palette::text_dim()), "%s", tr(Text::CircuitsNotFormed));
  }
  ImGui::PopFont();
}

}  // namespace

std::string score_text(double x) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", x);
  return text;
}

std::string symbol_text(const std::string& symbol) {
  return symbol == " " ? "·" : symbol;  // a space would be invisible
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_circuits_panel
//-------------------------------------------------------------------------------------------------

void draw_circuits_panel(AppState& state, const Fonts& fonts) {
  CircuitsUi& c = state.ui.circuits;
  panel_header(state, fonts, tr(Text::CircuitsTitle), tr(Text::CircuitsHint), 2);
  if (!c.trainer) return;
  guide_outline(state, 1);
  const float em = ImGui::GetFontSize();
  float label_w = 6.0f * em;  // the labels' column: as wide as the widest label in this language
  for (Text label : {Text::TrainTask, Text::TrainLearningRate, Text::TrainSeed, Text::CircuitsLayers,
                     Text::Heads, Text::CircuitsModelDim, Text::TrainPace})
    label_w = std::max(label_w, ImGui::GetCursorPosX() + ImGui::CalcTextSize(tr(label)).x + 0.8f * em);
  model::TrainConfig& config = c.config;

  label_column(tr(Text::TrainTask), label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (const Combo combo{state, "circuits/task", "##circuits-task", model::task_name(config.task)}) {
    for (model::Task task : {model::Task::Induction, model::Task::Mixed}) {
      if (selectable(state, std::string("circuits/task/") + model::task_name(task), model::task_name(task),
                     task == config.task) &&
          task != config.task) {
        config.task = task;
        circuits_reset(state);
      }
    }
  }
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  ImGui::PushFont(fonts.small);
  wrapped_text(
      tr(config.task == model::Task::Induction ? Text::CircuitsTaskInduction : Text::CircuitsTaskMixed));
  ImGui::PopFont();
  ImGui::PopStyleColor();

  // Play / Pause / Step / Reset.
  run_buttons(state, {"circuits/play", "circuits/pause", "circuits/step", "circuits/reset"}, c.running,
              {circuits_play, circuits_step, circuits_reset, Text::CircuitsStepTip, Text::CircuitsResetTip});

  // The recipe's settings: each change starts a new run, so that (settings, steps) rebuild the
  // weights bit for bit (the link holds only these).
  label_column(tr(Text::TrainLearningRate), label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  float lr = float(config.lr);
  if (slider_float(state, "circuits/lr", "##circuits-lr", &lr, 1e-4f, 1e-1f, "%.4g (AdamW)",
                   ImGuiSliderFlags_Logarithmic) &&
      lr > 0.0f && double(lr) != config.lr) {
    config.lr = double(lr);
    circuits_reset(state);
  }

  label_column(tr(Text::TrainSeed), label_w);
  ImGui::SetNextItemWidth(std::min(8.0f * em, ImGui::GetContentRegionAvail().x));
  int seed = int(config.seed);
  if (input_int(state, "circuits/seed", "##circuits-seed", &seed, 1, 10) && seed >= 0 &&
      std::uint64_t(seed) != config.seed) {
    config.seed = std::uint64_t(seed);
    circuits_reset(state);
  }

  model::Dims& dims = config.dims;
  label_column(tr(Text::CircuitsLayers), label_w);
  if (size_buttons(state, "circuits/layers", {1, 2, 3}, dims.layers)) circuits_reset(state);
  label_column(tr(Text::Heads), label_w);
  if (size_buttons(state, "circuits/heads", {1, 2, 4}, dims.heads)) circuits_reset(state);
  label_column(tr(Text::CircuitsModelDim), label_w);
  if (size_buttons(state, "circuits/d_model", {16, 32, 64}, dims.d_model)) circuits_reset(state);

  label_column(tr(Text::TrainPace), label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  slider_float(state, "circuits/pace", "##circuits-pace", &c.pace.steps_per_second, 1.0f, 1000.0f,
               tr(Text::TrainPaceFormat), ImGuiSliderFlags_Logarithmic);

  draw_run_status(state, fonts);
  draw_circuits_exports(state);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_circuits_curve
//-------------------------------------------------------------------------------------------------

void draw_circuits_curve(AppState& state, const Fonts& fonts) {
  const CircuitsUi& c = state.ui.circuits;
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::CircuitsCurveTitle));
  ImGui::PopFont();
  if (!c.trainer) return;
  guide_outline(state, 5);
  const ImU32 loss_c = palette::query(), context_c = palette::text_dim(), prefix_c = palette::key(),
              previous_c = palette::value();
  ImGui::PushFont(fonts.small);
  const struct {
    ImU32 color;
    Text text;
  } legend[] = {{loss_c, Text::CircuitsCurveLoss},
                {context_c, Text::CircuitsCurveInContext},
                {prefix_c, Text::CircuitsCurvePrefix},
                {previous_c, Text::CircuitsCurvePrevious}};
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (const auto& l : legend) {
    const std::string text = std::string("— ") + tr(l.text);
    same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x, right_edge);
    ImGui::TextColored(to_vec4(l.color), "%s", text.c_str());
  }
  const std::vector<model::StepRecord>& history = c.trainer->history();
  const int steps = int(history.size());
  const CurveArea area = curve_area(2.4f, 2.2f, 1.3f, std::max(steps, 100));
  invisible_button(state, "circuits/curve", "##circuits-curve", area.size);
  const auto& [dl, em, size, a, b, x_max] = area;
  // Left axis: loss and in-context score (nats), from min(in-context, 0) to max(loss, 3.5).
  double lo = 0.0, hi = 3.5;
  for (const model::StepRecord& r : history) {
    lo = std::min(lo, r.scores.in_context);
    hi = std::max(hi, r.loss);
  }
  lo = std::floor(lo);
  hi = std::ceil(hi);
  // (The lambdas read `area`: a C++17 lambda cannot capture the structured binding's names.)
  auto y_left = [&](double v) { return area.y_at((v - lo) / (hi - lo)); };
  auto y_right = [&](double v) { return area.y_at(v); };
  for (double v = lo; v <= hi; v += 1.0) {
    const float y = y_left(v);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), v == 0.0 ? palette::plot_axis() : palette::plot_grid());
    char text[16];
    std::snprintf(text, sizeof text, "%.0f", v);
    draw_left_label(area, y, text);
  }
  // Right axis: the head scores, 0 … 1, with the 0.5 threshold dashed.
  for (double v : {0.0, 0.5, 1.0}) {
    char text[8];
    std::snprintf(text, sizeof text, "%.1f", v);
    const float y = y_right(v);
    dl->AddText(ImVec2(b.x + 0.3f * em, y - 0.5f * ImGui::GetFontSize()), prefix_c, text);
  }
  draw_dashed_line(area, y_right(0.5), prefix_c);
  draw_step_axis(area);
  // One point per pixel column (the mean of its steps).
  const float thick = std::max(1.5f, 0.12f * em);
  auto polyline = [&](auto value, auto y_of, ImU32 color, float width) {
    draw_column_means(
        area, steps, [&](int s) { return value(history[std::size_t(s)]); }, y_of, color, width);
  };
  polyline([](const model::StepRecord& r) { return r.loss; }, y_left, loss_c, thick);
  polyline([](const model::StepRecord& r) { return r.scores.in_context; }, y_left, context_c, thick);
  const int layers = c.trainer->model().n_layers(), heads = c.trainer->model().n_heads();
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      // Layer 0's previous-token scores and the later layers' prefix-matching scores: the two halves
      // of the circuit (the other two are drawn faint).
      const std::size_t L = std::size_t(l), H = std::size_t(h);
      polyline([L, H](const model::StepRecord& r) { return r.scores.previous_token[L][H]; }, y_right,
               palette::with_alpha(previous_c, l == 0 ? 255 : 60), l == 0 ? thick : 1.0f);
      if (l >= 1)
        polyline([L, H](const model::StepRecord& r) { return r.scores.prefix_matching[L][H]; }, y_right,
                 prefix_c, thick);
    }
  // The phase change: the step the induction head formed.
  const int formed = c.trainer->formed_at();
  if (formed > 0) {
    const float x = area.x_of(formed);
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), palette::accent(), thick);
    const std::string text = std::string(tr(Text::CircuitsPhaseChange)) + " · " + std::to_string(formed);
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    const float tx = std::min(x + 0.3f * em, b.x - ts.x);
    dl->AddText(ImVec2(tx, a.y + 0.2f * em), palette::accent(), text.c_str());
  }
  ImGui::PopFont();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_circuits_predictions
//-------------------------------------------------------------------------------------------------

void draw_circuits_predictions(AppState& state, const Fonts& fonts) {
  const CircuitsUi& c = state.ui.circuits;
  panel_header(state, fonts, tr(Text::CircuitsPredTitle), tr(Text::CircuitsPredHint), 1);
  if (!c.trainer || c.sample.tokens.empty()) return;
  guide_outline(state, 5);
  const model::Model& m = c.trainer->model();
  const std::vector<model::Prediction>& preds = c.sample.predictions;
  const int n = int(preds.size());
  const float em = ImGui::GetFontSize();
  const float cell = std::floor(std::max(1.7f * em, ImGui::GetContentRegionAvail().x / float(n)));
  const float row_h = 1.35f * em;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  for (int i = 0; i < n; ++i) {
    const model::Prediction& p = preds[std::size_t(i)];
    const float x = p0.x + float(i) * cell;
    const bool has_next = i + 1 < n;
    const bool right = has_next && p.predicted == c.sample.tokens[std::size_t(i + 1)];
    auto centred = [&](float y, const std::string& text, ImU32 color) {
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      dl->AddText(ImVec2(x + 0.5f * (cell - ts.x), y + 0.5f * (row_h - ts.y)), color, text.c_str());
    };
    centred(p0.y, symbol_text(m.vocab[std::size_t(p.token)]), palette::text());
    if (has_next)
      dl->AddRectFilled(ImVec2(x + 1, p0.y + row_h + 1), ImVec2(x + cell - 1, p0.y + 3 * row_h - 1),
                        right ? palette::right() : palette::wrong(), 0.2f * em);
    centred(p0.y + row_h, symbol_text(m.vocab[std::size_t(p.predicted)]),
            has_next ? palette::text() : palette::text_dim());
    char pct[8];
    std::snprintf(pct, sizeof pct, "%.0f", 100.0 * p.p);
    centred(p0.y + 2 * row_h, pct, palette::text_dim());
  }
  ImGui::PopFont();
  dummy(state, "circuits/predictions", ImVec2(float(n) * cell, 3.0f * row_h));
  if (ImGui::IsItemHovered()) {
    const int i = std::clamp(int((ImGui::GetMousePos().x - p0.x) / cell), 0, n - 1);
    const model::Prediction& p = preds[std::size_t(i)];
    char text[160];
    std::snprintf(text, sizeof text, "%d '%s' → '%s'  p = %.4f%s", i,
                  symbol_text(m.vocab[std::size_t(p.token)]).c_str(),
                  symbol_text(m.vocab[std::size_t(p.predicted)]).c_str(), p.p,
                  i + 1 < n ? ("   p(next) = " + std::to_string(p.p_next)).c_str() : "");
    ImGui::SetTooltip("%s", text);
  }
  ImGui::PushFont(fonts.small);
  ImGui::TextColored(to_vec4(palette::text_dim()), "%s  (%%)",
                     fill(tr(Text::CircuitsTextLoss), {score_text(c.sample.loss)}).c_str());
  ImGui::PopFont();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_circuits_composition
//-------------------------------------------------------------------------------------------------

void draw_circuits_composition(AppState& state, const Fonts& fonts) {
  const CircuitsUi& c = state.ui.circuits;
  panel_header(state, fonts, tr(Text::CircuitsCompTitle), tr(Text::CircuitsCompHint), 2);
  if (!c.trainer) return;
  guide_outline(state, 3);
  const model::Model& m = c.trainer->model();
  if (m.n_layers() < 2) {
    ImGui::TextColored(to_vec4(palette::text_dim()), "%s", tr(Text::CircuitsCompOneLayer));
    return;
  }
  const attn::Matrix comp = model::k_composition(m, 0, 1);
  const CircuitLink link = circuit_link(c.scores);
  const int H = int(comp.rows());
  const float em = ImGui::GetFontSize();
  const float label_w = 3.2f * em;
  const float cell =
      std::floor(std::clamp((ImGui::GetContentRegionAvail().x - label_w) / float(H), 2.6f * em, 3.3f * em));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(fonts.small);
  const float top = 1.2f * em;
  for (int b = 0; b < H; ++b) {
    const std::string text = "L1 H" + std::to_string(b);
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    dl->AddText(ImVec2(p0.x + label_w + (float(b) + 0.5f) * cell - 0.5f * ts.x, p0.y), palette::text_dim(),
                text.c_str());
  }
  // Colour scale 0 … max(0.5, the largest score): K-composition of random matrices is about 1/√D.
  const float hi = float(std::max(0.5, comp.maxCoeff()));
  for (int a = 0; a < H; ++a) {
    const float y = p0.y + top + float(a) * cell;
    const std::string row = "L0 H" + std::to_string(a);
    dl->AddText(ImVec2(p0.x, y + 0.5f * cell - 0.5f * ImGui::GetFontSize()), palette::text_dim(),
                row.c_str());
    for (int b = 0; b < H; ++b) {
      const ImVec2 q0(p0.x + label_w + float(b) * cell, y), q1(q0.x + cell - 2, y + cell - 2);
      const ImU32 fill = colormap_color(Colormap::Viridis, float(comp(a, b)) / hi);
      dl->AddRectFilled(q0, q1, fill);
      const std::string text = score_text(comp(a, b));
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      dl->AddText(ImVec2(0.5f * (q0.x + q1.x - ts.x), 0.5f * (q0.y + q1.y - ts.y)), contrasting_text(fill),
                  text.c_str());
      if (link.formed && a == link.previous && b == link.induction)
        outline(dl, ImVec2(q0.x - 2, q0.y - 2), ImVec2(q1.x + 2, q1.y + 2), palette::accent(),
                std::max(2.0f, 0.18f * em));
    }
  }
  ImGui::PopFont();
  dummy(state, "circuits/composition", ImVec2(label_w + float(H) * cell, top + float(H) * cell));
  if (link.formed) {
    ImGui::PushFont(fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
    wrapped_text(
        fill(tr(Text::CircuitsCompLink), {std::to_string(link.previous), std::to_string(link.induction)}));
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_circuits_guide
//-------------------------------------------------------------------------------------------------

namespace {
constexpr Text kGuideTitles[kGuideSteps] = {Text::CircuitsGuide1, Text::CircuitsGuide2, Text::CircuitsGuide3,
                                            Text::CircuitsGuide4, Text::CircuitsGuide5};
constexpr Text kGuideTexts[kGuideSteps] = {Text::CircuitsGuide1Text, Text::CircuitsGuide2Text,
                                           Text::CircuitsGuide3Text, Text::CircuitsGuide4Text,
                                           Text::CircuitsGuide5Text};
}  // namespace

const char* guide_title(int step) {
  return step >= 0 && step < kGuideSteps ? tr(kGuideTitles[step]) : "";
}
const char* guide_text(int step) {
  return step >= 0 && step < kGuideSteps ? tr(kGuideTexts[step]) : "";
}

void draw_circuits_guide(AppState& state, const Fonts& fonts) {
  CircuitsUi& c = state.ui.circuits;
  const float em = ImGui::GetFontSize();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::CircuitsGuide));
  ImGui::PopFont();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CircuitsGuideTip));
  // Step buttons 1 … 5 (the current one lit; a click on it closes the guide), then ◀ ▶.
  for (int s = 0; s < kGuideSteps; ++s) {
    const bool current = c.guide_step == s;
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::accent_soft())
                                                   : ImGui::GetStyleColorVec4(ImGuiCol_Button));
    const std::string label = std::to_string(s + 1) + "##circuits-guide";
    if (button(state, "circuits/guide/" + std::to_string(s + 1), label.c_str(), ImVec2(1.9f * em, 0)))
      c.guide_step = current ? -1 : s;
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  ImGui::BeginDisabled(c.guide_step >= kGuideSteps - 1);
  if (button(state, "circuits/guide/next", "▶##circuits-guide-next", ImVec2(1.9f * em, 0))) ++c.guide_step;
  ImGui::EndDisabled();
  if (c.guide_step < 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
    wrapped_text(tr(Text::CircuitsGuideTip));
    ImGui::PopStyleColor();
    return;
  }
  ImGui::PushFont(fonts.heading);
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
  wrapped_text(guide_title(c.guide_step));
  ImGui::PopStyleColor();
  ImGui::PopFont();
  wrapped_text(state, "circuits/guide/text", guide_text(c.guide_step));
}

}  // namespace ui
