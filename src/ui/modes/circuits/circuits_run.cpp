// circuits_run.cpp — the Circuits mode's run (see circuits.hpp).
//
// [SECTION] the run: create, measure, the model on the typed text
// [SECTION] circuits_tick: Play at the chosen pace (or a link's rebuild at full speed) within the budget
// [SECTION] actions: play, step, reset, text, ablation, open a head in Explore and back, recipes
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "ui/modes/circuits/circuits.hpp"
#include "ui/text/i18n.hpp"

namespace ui {
namespace {

namespace model = attn::model;

// Training work per frame (ms of CPU). One default step takes about 6 ms natively and 13 ms in wasm
// (scripts/bench-circuits): at least one step runs in every frame that owes one, so the page keeps
// drawing at ≥ 30 frames per second while it trains as fast as it can.
constexpr double kBudgetMs = 10.0;
// A link's rebuild: the learner waits for it (the panels say "rebuilding … step N of M"), so it
// takes more of each frame, still leaving the page about 30 frames per second.
constexpr double kRebuildBudgetMs = 25.0;

model::Ablation no_ablation(const model::Dims& dims) {
  model::Ablation a;
  a.off.assign(std::size_t(dims.layers), std::vector<bool>(std::size_t(dims.heads), false));
  return a;
}

// The model on the typed text, with the ablated heads off.
void update_sample(CircuitsUi& c) {
  CircuitsSample& s = c.sample;
  const model::Model& m = c.trainer->model();
  std::string error;
  std::vector<int> tokens = model::tokenize(m, c.text, &error);
  s.error.clear();
  if (!error.empty()) {
    s.error = error;
  } else if (tokens.size() < 2 || int(tokens.size()) > m.n_ctx()) {
    s.error = "text: 2 to " + std::to_string(m.n_ctx()) + " symbols, got " + std::to_string(tokens.size());
  }
  if (!s.error.empty()) {  // keep the last usable text's numbers
    ++c.sample_version;
    return;
  }
  s.tokens = std::move(tokens);
  s.forward = model::forward(m, s.tokens, c.ablation);
  s.predictions = model::predictions(s.forward);
  s.loss = model::next_token_loss(s.forward.logits, s.tokens).value;
  ++c.sample_version;
}

// The evaluation set's scores with the current ablation (the last step measured them already).
void update_scores(CircuitsUi& c) {
  const std::vector<model::StepRecord>& h = c.trainer->history();
  c.scores = h.empty() ? c.trainer->evaluate() : h.back().scores;
}

void new_run(CircuitsUi& c) {
  c.trainer = std::make_shared<model::ModelTrainer>(c.config);
  c.running = false;
  c.rebuild_to = 0;
  c.pace.start(false);
  if (c.ablation.off.size() != std::size_t(c.config.dims.layers) ||
      (!c.ablation.off.empty() && c.ablation.off[0].size() != std::size_t(c.config.dims.heads)))
    c.ablation = no_ablation(c.config.dims);
  c.trainer->set_ablation(c.ablation);
  update_scores(c);
  update_sample(c);
}

// The page's address carries the recipe (circuits=…&mode=circuits): tell it the step count moved.
void link_changed(AppState& state) {
  if (state.sharing.scene_changed) state.sharing.scene_changed();
}

// A link's probe on the rebuilt model (circuits_apply_start): each part the model takes.
void apply_probe(AppState& state, const scene::link::CircuitsProbe& probe) {
  CircuitsUi& c = state.ui.circuits;
  std::string refused;
  const auto refuse = [&refused](const std::string& why) { refused += (refused.empty() ? "" : "; ") + why; };
  if (probe.text) {
    if (const std::string why = circuits_set_text(state, *probe.text); !why.empty()) refuse("probe: " + why);
  }
  const model::Model& m = c.trainer->model();
  const auto has_head = [&m](int layer, int head) {
    return layer >= 0 && layer < m.n_layers() && head >= 0 && head < m.n_heads();
  };
  for (const std::string& name : probe.ablate) {
    const std::size_t dot = name.find('.');
    const int layer = std::stoi(name.substr(0, dot)), head = std::stoi(name.substr(dot + 1));
    if (!has_head(layer, head)) {
      refuse("probe: ablate: the model has no head " + name);
    } else if (!c.ablation.is_off(layer, head)) {
      circuits_toggle_ablation(state, layer, head);
    }
  }
  if (probe.open_layer >= 0) {
    if (has_head(probe.open_layer, probe.open_head))
      circuits_open_head(state, probe.open_layer, probe.open_head);
    else
      refuse("probe: open: the model has no head " + std::to_string(probe.open_layer) + "." +
             std::to_string(probe.open_head));
  }
  if (!refused.empty()) state.notice = refused;
}

bool one_step(CircuitsUi& c) {
  if (c.trainer->steps() >= model::kMaxTrainSteps) {
    c.running = false;
    return false;
  }
  c.trainer->step();
  return true;
}

}  // namespace

void circuits_ensure_run(AppState& state) {
  CircuitsUi& c = state.ui.circuits;
  if (!c.trainer) new_run(c);
}

CircuitLink circuit_link(const model::Scores& s) {
  CircuitLink link;
  if (s.previous_token.size() < 2) return link;
  double best_prev = -1.0, best_prefix = -1.0;
  for (std::size_t h = 0; h < s.previous_token[0].size(); ++h)
    if (s.previous_token[0][h] > best_prev) best_prev = s.previous_token[0][h], link.previous = int(h);
  for (std::size_t h = 0; h < s.prefix_matching[1].size(); ++h)
    if (s.prefix_matching[1][h] > best_prefix) best_prefix = s.prefix_matching[1][h], link.induction = int(h);
  link.formed = best_prefix >= 0.5;
  return link;
}

std::string circuit_role(const model::Scores& s, int layer, int head) {
  const std::string role = model::head_role(layer, s.previous_token[std::size_t(layer)][std::size_t(head)],
                                            s.prefix_matching[std::size_t(layer)][std::size_t(head)]);
  if (!role.empty()) return role;
  const CircuitLink link = circuit_link(s);
  return link.formed && layer == 0 && head == link.previous ? "previous token" : "";
}

//-------------------------------------------------------------------------------------------------
// [SECTION] circuits_tick
//-------------------------------------------------------------------------------------------------

void circuits_tick(AppState& state) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  c.opened_layer = c.opened_head = -1;  // back in the mode (by its tab, or circuits_back)
  const bool rebuilding = c.rebuild_to > c.trainer->steps();
  if (!c.running && !rebuilding) {
    c.pace.last_work_ms = 0;
    return;
  }
  const double start = pacer_clock_ms();
  if (rebuilding) {
    c.pace.owed = double(c.rebuild_to - c.trainer->steps());
  } else {
    c.pace.owe(double(ImGui::GetIO().DeltaTime));
  }
  // The owed steps that fit the budget, at least one (widgets/run_pacer.hpp).
  const int done =
      run_owed_steps(c.pace, start, rebuilding ? kRebuildBudgetMs : kBudgetMs, [&c] { return one_step(c); });
  const bool rebuilt = rebuilding && c.trainer->steps() >= c.rebuild_to;
  if (rebuilt) c.rebuild_to = 0;
  if (done > 0) {
    update_scores(c);
    update_sample(c);
  }
  if (rebuilt) {
    if (c.pending_probe) {  // the link's probe, now that its model is there
      const scene::link::CircuitsProbe probe = std::move(*c.pending_probe);
      c.pending_probe.reset();
      apply_probe(state, probe);
    }
    link_changed(state);
  }
  c.pace.last_work_ms = pacer_clock_ms() - start;
  state.ui.frame.layout_changed = true;  // keep frames coming while training (the app idles otherwise)
}

//-------------------------------------------------------------------------------------------------
// [SECTION] actions
//-------------------------------------------------------------------------------------------------

void circuits_play(AppState& state, bool play) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  c.running = play;
  c.pace.start(play);  // the first step at once
  if (!play) link_changed(state);
  state.ui.frame.layout_changed = true;
}

void circuits_step(AppState& state) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  c.running = false;
  if (one_step(c)) {
    update_scores(c);
    update_sample(c);
  }
  link_changed(state);
  state.ui.frame.layout_changed = true;
}

void circuits_reset(AppState& state) {
  new_run(state.ui.circuits);
  state.ui.frame.layout_changed = true;
  link_changed(state);
}

std::string circuits_set_text(AppState& state, const std::string& text) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  const std::string before = c.text;
  c.text = text;
  update_sample(c);
  if (!c.sample.error.empty()) {
    const std::string error = c.sample.error;
    c.text = before;
    update_sample(c);
    return error;
  }
  state.ui.frame.layout_changed = true;
  if (c.text != before) link_changed(state);  // the link carries the text
  return "";
}

void circuits_toggle_ablation(AppState& state, int layer, int head) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  if (layer < 0 || layer >= int(c.ablation.off.size()) || head < 0 || head >= int(c.ablation.off[0].size()))
    return;
  c.ablation.off[std::size_t(layer)][std::size_t(head)] =
      !c.ablation.off[std::size_t(layer)][std::size_t(head)];
  c.trainer->set_ablation(c.ablation);
  c.scores = c.trainer->evaluate();  // the scores follow at once (the next step measures them too)
  update_sample(c);
  state.ui.frame.layout_changed = true;
  link_changed(state);  // the link carries the ablated heads
}

void circuits_open_head(AppState& state, int layer, int head) {
  circuits_ensure_run(state);
  CircuitsUi& c = state.ui.circuits;
  const model::Model& m = c.trainer->model();
  if (layer < 0 || layer >= m.n_layers() || head < 0 || head >= m.n_heads() || c.sample.tokens.empty())
    return;
  c.running = false;
  load_scene(state, scene::head_scene(m, c.sample.forward, layer, head), "");
  state.ui.settings.mode = scene::link::kDefaultMode;  // the head in every panel
  state.head_from = Mode::Circuits;
  c.opened_layer = layer;  // after the mode change: the Circuits tick no longer clears it
  c.opened_head = head;
  if (state.sharing.scene_changed) state.sharing.scene_changed();
  state.ui.frame.layout_changed = true;
}

void circuits_back(AppState& state) {
  state.ui.settings.mode = Mode::Circuits;
  if (state.sharing.scene_changed) state.sharing.scene_changed();
  state.ui.frame.layout_changed = true;
}

scene::Recipe circuits_recipe(const AppState& state) {
  const CircuitsUi& c = state.ui.circuits;
  scene::Recipe r;
  r.config = c.config;
  r.steps = c.trainer ? std::max(c.trainer->steps(), c.rebuild_to) : 0;
  return r;
}

void circuits_load_recipe(AppState& state, const scene::Recipe& recipe, bool at_once) {
  CircuitsUi& c = state.ui.circuits;
  c.config = recipe.config;
  c.pending_probe.reset();
  new_run(c);
  c.rebuild_to = recipe.steps;
  if (at_once) {
    while (c.trainer->steps() < c.rebuild_to && one_step(c)) {
    }
    c.rebuild_to = 0;
    update_scores(c);
    update_sample(c);
  }
  state.ui.frame.layout_changed = true;
}

void circuits_apply_start(AppState& state, const LinkStart& start) {
  if (!start.recipe) return;
  CircuitsUi& c = state.ui.circuits;
  // A link opens the model as its author left it: the recipe's run, before any probe, has no
  // ablation and the mode's own text.
  c.ablation = no_ablation(start.recipe->config.dims);
  c.text = kCircuitsText;
  circuits_load_recipe(state, *start.recipe, start.recipe_at_once);
  if (start.probe.empty()) return;
  scene::link::CircuitsProbeParse probe = scene::link::parse_circuits_probe(start.probe);
  if (!probe.probe) {  // the link's reader checked it already; said here for any other caller
    state.notice = probe.error;
    return;
  }
  if (c.rebuild_to > c.trainer->steps())
    c.pending_probe = std::move(probe.probe);  // the tick applies it once the model is rebuilt
  else
    apply_probe(state, *probe.probe);
}

scene::link::CircuitsProbe circuits_probe(const AppState& state) {
  const CircuitsUi& c = state.ui.circuits;
  if (c.pending_probe) return *c.pending_probe;  // still rebuilding: the link as it was opened
  scene::link::CircuitsProbe p;
  if (c.text != kCircuitsText) p.text = c.text;
  for (std::size_t l = 0; l < c.ablation.off.size(); ++l)
    for (std::size_t h = 0; h < c.ablation.off[l].size(); ++h)
      if (c.ablation.off[l][h]) p.ablate.push_back(std::to_string(l) + "." + std::to_string(h));
  if (c.opened_layer >= 0 && state.head_from == Mode::Circuits &&
      state.ui.settings.mode == scene::link::kDefaultMode && !state.edited) {
    p.open_layer = c.opened_layer;
    p.open_head = c.opened_head;
  }
  return p;
}

}  // namespace ui
