// circuits_page.cpp — the Circuits mode's part of the page API (getCircuits, circuitsExport, the
// desktop's --rects file), its link and the desktop's --circuits and --circuits-probe: its row's page
// and link hooks and flags (modes/modes.cpp).
#include <string>

#include "core/model.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/circuits/circuits_parts.hpp"

namespace ui {
namespace {

// The run as the page reads it (see circuits_page_call).
PageJson circuits_json(const AppState& state) {
  const CircuitsUi& c = state.ui.circuits;
  const attn::model::ModelTrainer* run = c.trainer.get();
  PageJson j;
  j["running"] = c.running;
  j["step"] = run ? run->steps() : 0;
  j["loss"] = run ? PageJson(c.scores.loss) : PageJson(nullptr);
  j["inContext"] = run ? PageJson(c.scores.in_context) : PageJson(nullptr);
  PageJson heads = PageJson::array();
  for (std::size_t l = 0; run && l < c.scores.prefix_matching.size(); ++l)
    for (std::size_t h = 0; h < c.scores.prefix_matching[l].size(); ++h) {
      const double prefix = c.scores.prefix_matching[l][h], previous = c.scores.previous_token[l][h];
      heads.push_back({{"layer", l},
                       {"head", h},
                       {"prefixMatching", prefix},
                       {"previousToken", previous},
                       {"ablated", c.ablation.is_off(int(l), int(h))},
                       {"role", circuit_role(c.scores, int(l), int(h))}});
    }
  j["heads"] = heads;
  j["text"] = c.text;
  PageJson predictions = PageJson::array();
  const CircuitsSample& s = c.sample;
  for (std::size_t i = 0; run && i < s.predictions.size(); ++i) {
    const attn::model::Prediction& p = s.predictions[i];
    const auto& vocab = run->model().vocab;
    predictions.push_back({{"token", vocab[std::size_t(p.token)]},
                           {"predicted", vocab[std::size_t(p.predicted)]},
                           {"p", p.p},
                           {"pNext", i + 1 < s.predictions.size() ? PageJson(p.p_next) : PageJson(nullptr)}});
  }
  j["predictions"] = predictions;
  j["textLoss"] = run && !s.tokens.empty() ? PageJson(s.loss) : PageJson(nullptr);
  j["textError"] = c.text_error;
  j["formedAt"] = run && run->formed_at() > 0 ? PageJson(run->formed_at()) : PageJson(nullptr);
  PageJson composition = PageJson::array();
  if (run && run->model().n_layers() >= 2) {
    const attn::Matrix comp = attn::model::k_composition(run->model(), 0, 1);
    for (int a = 0; a < comp.rows(); ++a) {
      PageJson row = PageJson::array();
      for (int b = 0; b < comp.cols(); ++b) row.push_back(comp(a, b));
      composition.push_back(row);
    }
  }
  j["composition"] = composition;
  j["recipe"] = scene::recipe_text(circuits_recipe(state));
  j["rebuilding"] = run && c.rebuild_to > run->steps();
  j["batchLoss"] = run && run->steps() > 0 ? PageJson(run->history().back().loss) : PageJson(nullptr);
  j["task"] = attn::model::task_name(c.config.task);
  j["layers"] = c.config.dims.layers;
  j["headsPerLayer"] = c.config.dims.heads;
  j["dModel"] = c.config.dims.d_model;
  j["seed"] = c.config.seed;
  j["lr"] = c.config.lr;
  j["guideStep"] = c.guide_step;
  j["openedHead"] =
      c.opened_layer >= 0 ? PageJson::array({c.opened_layer, c.opened_head}) : PageJson(nullptr);
  j["workMs"] = c.pace.last_work_ms;
  return j;
}

}  // namespace

// "get": {"running", "step", "loss" (the evaluation set's mean next-token loss, ablated heads off),
// "inContext", "heads": [{"layer", "head", "prefixMatching", "previousToken", "ablated", "role"}],
// "text", "predictions": [{"token", "predicted", "p", "pNext"}] (symbols; p the predicted symbol's
// probability, pNext the next typed symbol's, null at the end), "textLoss" (the typed text's mean
// loss), "textError", "formedAt" (null until formed), "composition" (H×H, layer 0 → 1; [] for one
// layer), "recipe" (its text: the link's circuits=), "rebuilding", "batchLoss" (the last step's),
// "task", "layers", "headsPerLayer", "dModel", "seed", "lr", "guideStep" (−1: closed), "openedHead":
// [layer, head] | null, "workMs"}; the run exists from the first call.
// "getExport" kind: {"ok": true, "text"}: the model as "json" (the model contract) or a "pytorch"
// script on the typed text.
PageJson circuits_page_call(AppState& state, std::string_view call, std::string_view arg) {
  if (call == "get") {
    circuits_ensure_run(state);
    return circuits_json(state);
  }
  if (call == "getExport") {
    circuits_ensure_run(state);
    const std::string text = circuits_export_text(state, std::string(arg));
    if (text.empty())
      return page_fail("circuits export: unknown kind '" + std::string(arg) + "' (json, pytorch)");
    return {{"ok", true}, {"text", text}};
  }
  return nullptr;
}

void circuits_page_rects(const AppState& state, PageJson& rects) {
  rects["circuits"] = circuits_json(state);
}

// The Circuits mode's link (and that of its head opened in Explore, unedited): its model as a recipe
// and what the learner probed it with (the other modes' scene is not in it).
bool circuits_link(const AppState& state, scene::link::MadeFragment& made) {
  const CircuitsUi& c = state.ui.circuits;
  const bool opened_head = c.opened_layer >= 0 && state.head_from == scene::link::Mode::Circuits &&
                           state.ui.settings.mode == scene::link::kDefaultMode && !state.edited;
  if ((state.ui.settings.mode != scene::link::Mode::Circuits && !opened_head) || !c.trainer) return false;
  const scene::link::CircuitsProbe probe = circuits_probe(state);
  made = scene::link::make_circuits_fragment(circuits_recipe(state), appearance(state.ui), &probe);
  return true;
}

#ifndef __EMSCRIPTEN__
const ModeFlag kCircuitsFlags[2] = {
    {"--circuits", "RECIPE",
     "open the Circuits mode with the model of a recipe TASK,LAYERS,HEADS,D_MODEL,SEED,LR,STEPS, trained "
     "before the first frame (as a link's circuits=)",
     [](const std::string& value, LinkStart& start) -> std::string {
       const scene::RecipeParse parsed = scene::parse_recipe(value);
       if (!parsed.ok()) return parsed.error;
       start.mode = Mode::Circuits;
       start.recipe = *parsed.recipe;
       start.recipe_at_once = true;  // the desktop trains it before the first frame
       return "";
     }},
    {"--circuits-probe", "PROBE",
     "with --circuits: a link's probe= value (the text typed, the heads ablated, the head opened in "
     "Explore), applied to the trained model",
     [](const std::string& value, LinkStart& start) -> std::string {
       const scene::link::CircuitsProbeParse parsed = scene::link::parse_circuits_probe(value);
       if (!parsed.probe) return parsed.error;
       start.probe = value;
       return "";
     }},
};
#endif

}  // namespace ui
