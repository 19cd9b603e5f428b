// train_mode.cpp — the Train mode's run and panels (see train_mode.hpp).
//
// [SECTION] the run: create, adopt edited weights, show the model as the scene, measure
// [SECTION] train_tick: Play at the chosen pace within the frame's CPU budget
// [SECTION] draw_train_panel: task, Play / Pause / Step / Reset, learning rate, seed, heads, pace
// [SECTION] draw_train_curve: loss (log scale) and accuracy over the steps
// [SECTION] draw_train_predictions: what each position must name and what the model names
#include "ui/modes/train/train_mode.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "scene/train_json.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/curve_plot.hpp"
#include "ui/modes/run_buttons.hpp"
#include "ui/modes/train/train_pacing.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

namespace train = attn::train;

constexpr int kLiveEvalSequences = 64;  // the live accuracy: the first 64 fresh sequences
// The curves' colours come from the theme, so they read on the panel in every theme (the role colours
// reach 4.5:1 there: tests/theme_test.cpp): the loss in the query's orange, the accuracy in the
// value's green. Predictions sit on the quiz's right / wrong fills, in the body text colour.
ImU32 loss_colour() {
  return palette::query();
}
ImU32 accuracy_colour() {
  return palette::value();
}

// Does `s` have the model's shape, so that its weights can be trained further?
bool model_shaped(const scene::Scene& s) {
  return s.mode == scene::Mode::Projected && s.n() == train::kSeqLen && s.X.cols() == train::kModelDim &&
         s.Wq.cols() == train::kKeyDim && s.Wk.cols() == train::kKeyDim && s.Wv.cols() == train::kKeyDim &&
         s.Wo.rows() == train::kKeyDim && s.Wo.cols() == train::kClasses && s.causal && !s.rope_on &&
         s.mask.size() == 0 && s.scale.mode == attn::ScaleMode::SqrtDk && train::kKeyDim % s.heads == 0;
}

train::Params params_of(const scene::Scene& s) {
  return {s.Wq, s.Wk, s.Wv, s.Wo};
}

void measure(TrainUi& t) {
  const double start = pacer_clock_ms();
  t.accuracy = t.trainer->accuracy(kLiveEvalSequences);
  t.eval_ms = pacer_clock_ms() - start;
  t.accuracy_step = t.trainer->steps();
  if (!t.accuracy_curve.empty() && t.accuracy_curve.back().first == t.accuracy_step)
    t.accuracy_curve.pop_back();
  t.accuracy_curve.emplace_back(t.accuracy_step, float(t.accuracy));
}

// The model on its sample sequence becomes the scene on screen. `fresh`: as a newly loaded scene
// (slider ranges, Reset target); otherwise only its numbers change.
void show_model(AppState& state, bool fresh) {
  scene::Scene s = scene::trained_scene(*state.ui.train.trainer);
  if (fresh) {
    load_scene(state, std::move(s), "");
    return;
  }
  replace_scene_numbers(state, std::move(s));
}

void new_run(AppState& state) {
  TrainUi& t = state.ui.train;
  t.trainer = std::make_shared<train::Trainer>(t.config);
  t.running = false;
  t.pace.start(false);
  t.accuracy_curve.clear();
  measure(t);
  show_model(state, true);
}

// Weights edited by hand (another mode, a link) are where training continues.
void adopt_scene(AppState& state) {
  TrainUi& t = state.ui.train;
  const scene::Scene& s = state.scene;
  if (!t.trainer || !model_shaped(s) || s.heads != t.config.heads) return;
  const train::Params& p = t.trainer->params();
  if (s.Wq != p.Wq || s.Wk != p.Wk || s.Wv != p.Wv || s.Wo != p.Wo) t.trainer->set_params(params_of(s));
}

void ensure_run(AppState& state) {
  TrainUi& t = state.ui.train;
  if (t.trainer) return;
  // A model-shaped scene on screen (a shared link of a trained model) is kept and trained further,
  // on the task it solves best (a link holds the weights, not the task).
  if (model_shaped(state.scene)) {
    t.config.heads = state.scene.heads;
    double best = -1.0;
    for (train::Task task : {train::Task::PreviousToken, train::Task::SameToken, train::Task::FirstToken}) {
      train::Config config = t.config;
      config.task = task;
      auto run = std::make_shared<train::Trainer>(config);
      run->set_params(params_of(state.scene));
      const double accuracy = run->accuracy(kLiveEvalSequences);
      if (accuracy > best) {
        best = accuracy;
        t.config.task = task;
        t.trainer = run;
      }
    }
    measure(t);
    return;
  }
  new_run(state);
}

// One step, the scene following it.
void step_once(AppState& state) {
  TrainUi& t = state.ui.train;
  if (t.trainer->steps() >= train::kMaxSteps) {
    t.running = false;
    return;
  }
  t.trainer->step();
}

std::string percent(double x) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f %%", 100.0 * x);
  return text;
}

std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, x >= 0.01 ? "%.3f" : "%.2e", x);
  return text;
}

const char* task_sentence(train::Task task) {
  switch (task) {
    case train::Task::PreviousToken:
      return tr(Text::TrainPrevious);
    case train::Task::SameToken:
      return tr(Text::TrainSame);
    case train::Task::FirstToken:
      return tr(Text::TrainFirst);
  }
  return "";
}

// A class as the model names it: a symbol (previous/first-token) or a position (same-token).
std::string class_label(train::Task task, int c) {
  if (c < 0) return "–";
  return task == train::Task::SameToken ? "#" + std::to_string(c) : train::symbol(c);
}

}  // namespace

void train_play(AppState& state, bool play) {
  ensure_run(state);
  TrainUi& t = state.ui.train;
  if (play && !t.running) adopt_scene(state);
  t.running = play;
  t.pace.start(play);  // the first step at once
  if (!play) {
    measure(t);
    reset_learned_ranges(state);  // the sliders of X and the W's fit the trained numbers
    state.wo_range = std::max(1.0, state.scene.Wo.cwiseAbs().maxCoeff());
  }
  state.ui.frame.layout_changed = true;
}

void train_step(AppState& state) {
  ensure_run(state);
  TrainUi& t = state.ui.train;
  t.running = false;
  adopt_scene(state);
  step_once(state);
  measure(t);
  show_model(state, false);
  state.ui.frame.layout_changed = true;
}

void train_tick(AppState& state) {
  ensure_run(state);
  TrainUi& t = state.ui.train;
  if (!t.running) {
    t.pace.last_work_ms = 0;
    return;
  }
  const double start = pacer_clock_ms();
  t.pace.owe(double(ImGui::GetIO().DeltaTime));
  // Steps and the accuracy share the frame's budget (train_pacing.hpp, widgets/run_pacer.hpp).
  const auto since_measured = [&t] { return t.trainer->steps() - t.accuracy_step; };
  if (train_pacing::may_measure(since_measured(), 0.0, t.eval_ms)) measure(t);
  const int done = run_owed_steps(
      t.pace, start, train_pacing::kBudgetMs,
      [&] {
        if (!t.running) return false;  // the run reached its last step
        step_once(state);
        return true;
      },
      [&] { return train_pacing::reserve_ms(since_measured(), t.eval_ms); }, pacer_clock_ms);
  if (done > 0) {
    if (train_pacing::may_measure(since_measured(), pacer_clock_ms() - start, t.eval_ms)) measure(t);
    show_model(state, false);
  }
  t.pace.last_work_ms = pacer_clock_ms() - start;
  state.ui.frame.layout_changed = true;  // keep frames coming while playing (the app idles otherwise)
}

namespace {

// The task picker and its sentence.
void draw_train_task(AppState& state, const Fonts& fonts, float label_w) {
  TrainUi& t = state.ui.train;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::TrainTask));
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (const Combo combo{state, "train/task", "##train-task", train::task_name(t.config.task)}) {
    for (train::Task task : {train::Task::PreviousToken, train::Task::SameToken, train::Task::FirstToken}) {
      if (selectable(state, std::string("train/task/") + train::task_name(task), train::task_name(task),
                     task == t.config.task) &&
          task != t.config.task) {
        t.config.task = task;
        new_run(state);
      }
    }
  }
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  ImGui::PushFont(fonts.small);
  wrapped_text(task_sentence(t.config.task));
  ImGui::PopFont();
  ImGui::PopStyleColor();
  ImGui::Spacing();
}

// Play / Pause / Step / Reset, four equal buttons.
void draw_train_buttons(AppState& state) {
  run_buttons(state, {"train/play", "train/pause", "train/step", "train/reset"}, state.ui.train.running,
              {train_play, train_step, new_run, Text::TrainStepTip, Text::TrainResetTip});
}

// Learning rate (log slider), seed, heads, pace.
void draw_train_settings(AppState& state, float label_w) {
  TrainUi& t = state.ui.train;
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::TrainLearningRate));
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  float lr = float(t.trainer->lr());
  if (slider_float(state, "train/lr", "##train-lr", &lr, 1e-4f, 1.0f, "%.4g (Adam)",
                   ImGuiSliderFlags_Logarithmic) &&
      lr > 0.0f) {
    t.config.lr = double(lr);
    t.trainer->set_lr(double(lr));
  }

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::TrainSeed));
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(std::min(8.0f * em, ImGui::GetContentRegionAvail().x));
  int seed = int(t.config.seed);
  if (input_int(state, "train/seed", "##train-seed", &seed, 1, 10) && seed >= 0 &&
      std::uint64_t(seed) != t.config.seed) {
    t.config.seed = std::uint64_t(seed);
    new_run(state);
  }

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::Heads));
  ImGui::SameLine(label_w);
  for (int h : {1, 2, 4, 8}) {
    const bool current = t.config.heads == h;
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::accent_soft())
                                                   : ImGui::GetStyleColorVec4(ImGuiCol_Button));
    const std::string label = std::to_string(h) + "##train-heads";
    if (button(state, "train/heads/" + std::to_string(h), label.c_str(), ImVec2(2.2f * em, 0)) && !current) {
      t.config.heads = h;
      new_run(state);
    }
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  ImGui::NewLine();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(Text::TrainPace));
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-FLT_MIN);
  slider_float(state, "train/speed", "##train-speed", &t.pace.steps_per_second, 1.0f, 1000.0f,
               tr(Text::TrainPaceFormat), ImGuiSliderFlags_Logarithmic);
}

// Where the run is: step, loss, accuracy, and the frame's work or the paused note.
void draw_train_status(AppState& state, const Fonts& fonts) {
  const TrainUi& t = state.ui.train;
  const float em = ImGui::GetFontSize();
  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  const int steps = t.trainer->steps();
  ImGui::TextUnformatted(fill(tr(Text::TrainStepN), {std::to_string(steps)}).c_str());
  ImGui::SameLine(0, 1.2f * em);
  const std::vector<double>& losses = t.trainer->losses();
  ImGui::TextColored(to_vec4(loss_colour()), "%s",
                     fill(tr(Text::TrainLoss), {losses.empty() ? "–" : short_number(losses.back())}).c_str());
  ImGui::SameLine(0, 1.2f * em);
  ImGui::TextColored(to_vec4(accuracy_colour()), "%s",
                     fill(tr(Text::TrainAccuracy), {t.accuracy < 0 ? "–" : percent(t.accuracy)}).c_str());
  ImGui::PopFont();
  record_item_rect(state, "train/status");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", fill(tr(Text::TrainStatusTip), {std::to_string(t.accuracy_step)}).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  ImGui::PushFont(fonts.small);
  if (t.running) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f", t.pace.last_work_ms);
    ImGui::TextUnformatted(fill(tr(Text::TrainWork), {ms}).c_str());
  } else {
    wrapped_text(tr(Text::TrainPaused));
  }
  ImGui::PopFont();
  ImGui::PopStyleColor();
}

}  // namespace

void draw_train_panel(AppState& state, const Fonts& fonts) {
  TrainUi& t = state.ui.train;
  panel_header(state, fonts, tr(Text::TrainTitle), tr(Text::TrainHint), 2);
  if (!t.trainer) return;
  const float em = ImGui::GetFontSize();
  // The labels' column: as wide as the widest label in this language.
  float label_w = 7.0f * em;
  for (Text label : {Text::TrainTask, Text::TrainLearningRate, Text::TrainSeed, Text::Heads, Text::TrainPace})
    label_w = std::max(label_w, ImGui::GetCursorPosX() + ImGui::CalcTextSize(tr(label)).x + 0.8f * em);

  draw_train_task(state, fonts, label_w);
  draw_train_buttons(state);
  draw_train_settings(state, label_w);
  draw_train_status(state, fonts);
}

void draw_train_curve(AppState& state, const Fonts& fonts) {
  const TrainUi& t = state.ui.train;
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(tr(Text::TrainCurveTitle));
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::PushFont(fonts.small);
  ImGui::TextColored(to_vec4(loss_colour()), "%s", tr(Text::TrainCurveLoss));
  ImGui::SameLine();
  ImGui::TextColored(to_vec4(accuracy_colour()), "%s", tr(Text::TrainCurveAccuracy));
  ImGui::PopFont();
  if (!t.trainer) return;
  const std::vector<double>& losses = t.trainer->losses();
  const int steps = int(losses.size());
  // Plot area: room on the left for the loss ticks, below for the step axis (ems of the panel's font).
  const CurveArea area = curve_area(3.2f, 0.5f, 1.3f, std::max(steps, 50));
  invisible_button(state, "train/curve", "##train-curve", area.size);
  const auto& [dl, em, size, a, b, x_max] = area;
  ImGui::PushFont(fonts.small);
  // Loss axis: powers of ten from 10^floor(log10 min) to 10^ceil(log10 max), at least 10⁻³ … 10¹.
  double lo = 1e-3, hi = 10.0;
  for (double l : losses)
    if (l > 0) lo = std::min(lo, l);
  const double log_lo = std::floor(std::log10(lo)), log_hi = std::ceil(std::log10(hi));
  auto y_of_loss = [&](double l) {
    const double v = (std::log10(std::max(l, std::pow(10.0, log_lo))) - log_lo) / (log_hi - log_lo);
    return area.y_at(v);  // (`area`, not the binding's a, b: C++17 lambdas cannot capture those)
  };
  for (double e = log_lo; e <= log_hi; e += 1.0) {
    const float y = y_of_loss(std::pow(10.0, e));
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), palette::panel_border());
    char text[16];
    std::snprintf(text, sizeof text, e >= 0 ? "%.0f" : "1e%.0f", e >= 0 ? std::pow(10.0, e) : e);
    draw_left_label(area, y, text);
  }
  draw_step_axis(area);
  // The loss: one point per pixel column (the mean of its steps).
  draw_column_means(
      area, steps, [&](int s) { return losses[std::size_t(s)]; }, y_of_loss, loss_colour(),
      std::max(1.5f, 0.12f * em));
  // Accuracy on 0 … 1 (dashed top line at 95 %, the tasks' target).
  const float y95 = b.y - 0.95f * (b.y - a.y);
  draw_dashed_line(area, y95, accuracy_colour());
  std::vector<ImVec2> acc;
  for (const auto& [step, value] : t.accuracy_curve)
    acc.emplace_back(area.x_of(step), b.y - value * (b.y - a.y));
  if (acc.size() >= 2)
    dl->AddPolyline(acc.data(), int(acc.size()), accuracy_colour(), 0, std::max(1.5f, 0.12f * em));
  dl->AddText(ImVec2(a.x + 0.3f * em, y95 + 0.1f * em), accuracy_colour(), "95 %");
  // The accuracy's own scale at the right edge: 100 % at the top, 0 % at the bottom.
  const ImU32 acc_label = accuracy_colour();
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize("100 %").x - 0.2f * em, a.y + 0.1f * em), acc_label, "100 %");
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize("0 %").x - 0.2f * em, b.y - 1.1f * em), acc_label, "0 %");
  ImGui::PopFont();
}

void draw_train_predictions(AppState& state, const Fonts& fonts) {
  const TrainUi& t = state.ui.train;
  panel_header(state, fonts, tr(Text::TrainPredictionsTitle), tr(Text::TrainPredictionsHint), 1);
  if (!t.trainer || !state.computed || state.heads.output.rows() != state.scene.n() ||
      state.heads.output.cols() != train::kClasses)
    return;
  // The sequence on screen (the trainer's sample, or the sequence of a model opened from a link):
  // each token's symbol is the one-hot part of its embedding x_i.
  const train::Task task = t.config.task;
  const int n = state.scene.n();
  train::Sequence sample;
  for (int i = 0; i < n; ++i) {
    int symbol = 0;
    for (int c = 1; c < train::kVocab; ++c)
      if (state.scene.X(i, c) > state.scene.X(i, symbol)) symbol = c;
    sample.tokens.push_back(symbol);
  }
  sample.targets = train::targets_for(task, sample.tokens);
  const float em = ImGui::GetFontSize();
  const char* labels[3] = {tr(Text::TrainRowToken), tr(Text::TrainRowMustName), tr(Text::TrainRowModelSays)};
  float label_w = 6.5f * em;  // as wide as the widest label in this language
  for (const char* label : labels) label_w = std::max(label_w, ImGui::CalcTextSize(label).x + 0.5f * em);
  const float cell =
      std::floor(std::clamp((ImGui::GetContentRegionAvail().x - label_w) / float(n), 1.8f * em, 4.0f * em));
  const float row_h = 1.45f * em;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  int right = 0, scored = 0;
  for (int r = 0; r < 3; ++r) {
    const float y = p0.y + float(r) * row_h;
    dl->AddText(ImVec2(p0.x, y + 0.3f * em), palette::text_dim(), labels[r]);
    for (int i = 0; i < n; ++i) {
      const float x = p0.x + label_w + float(i) * cell;
      std::string text;
      ImU32 color = palette::text(), fill = 0;
      const int target = sample.targets[std::size_t(i)];
      if (r == 0) {
        text = train::symbol(sample.tokens[std::size_t(i)]);
      } else if (r == 1) {
        text = class_label(task, target);
        color = target < 0 ? palette::text_dim() : palette::text();
      } else {
        int best = 0;
        for (int c = 1; c < train::kClasses; ++c)
          if (state.heads.output(i, c) > state.heads.output(i, best)) best = c;
        text = class_label(task, best);
        if (target >= 0) {
          ++scored;
          right += best == target;
          fill = best == target ? palette::right() : palette::wrong();
          color = palette::text();
        } else {
          color = palette::text_dim();
        }
      }
      if (fill) dl->AddRectFilled(ImVec2(x + 1, y + 1), ImVec2(x + cell - 1, y + row_h - 1), fill, 0.2f * em);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      dl->AddText(ImVec2(x + 0.5f * (cell - ts.x), y + 0.5f * (row_h - ts.y)), color, text.c_str());
    }
  }
  dummy(state, "train/predictions", ImVec2(label_w + float(n) * cell, 3.0f * row_h));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  ImGui::PushFont(fonts.small);
  ImGui::TextUnformatted(
      (fill(tr(Text::TrainRight), {std::to_string(right), std::to_string(scored)}) +
       (task == train::Task::SameToken ? " " + std::string(tr(Text::TrainPositionNote)) : ""))
          .c_str());
  ImGui::PopFont();
  ImGui::PopStyleColor();
}

}  // namespace ui
