// model_page.cpp — the Model mode's part of the page API (getModel, the desktop's --rects file) and
// its link, and the desktop's --model, --model-state and --model-text: its row's page and link hooks
// and flags (modes/modes.cpp).
#include <string>
#include <vector>

#include "ui/modes/model/model_logic.hpp"
#include "ui/modes/model/model_mode.hpp"

namespace ui {
namespace {

PageJson tokens_json(const std::vector<ModelToken>& tokens) {
  PageJson out = PageJson::array();
  for (const ModelToken& t : tokens) out.push_back({{"token", t.token}, {"piece", t.piece}, {"p", t.p}});
  return out;
}

PageJson rows_json(const attn::Matrix& m) {
  PageJson out = PageJson::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    PageJson row = PageJson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(i, c));
    out.push_back(std::move(row));
  }
  return out;
}

PageJson ablated_json(const AppState& state, int layer, int head) {
  const int kind = model_ablation_kind(state, layer, head);
  return kind == 1 ? PageJson("zero") : kind == 2 ? PageJson("mean") : PageJson(nullptr);
}

// The mode as the page reads it (see model_page_call); `full` adds every position's lens, the logits
// and the patterns.
PageJson model_json(const AppState& state, bool full) {
  const ModelUi& m = state.ui.model;
  const ModelEval& e = m.eval;
  const bool loaded = m.load == ModelLoad::Ready && m.file;
  const char* load = m.load == ModelLoad::Idle      ? "idle"
                     : m.load == ModelLoad::Loading ? "loading"
                     : m.load == ModelLoad::Ready   ? "ready"
                                                    : "failed";
  PageJson j;
  j["loaded"] = loaded;
  j["load"] = load;
  j["progress"] = m.progress;
  j["error"] = m.load_error.empty() ? PageJson(nullptr) : PageJson(m.load_error);
  j["text"] = m.settings.text;
  j["tokens"] = e.tokens;
  j["pieces"] = e.pieces;
  j["promptTokens"] = m.prompt.size();
  j["textTokens"] = e.text_tokens;  // the typed text's tokens before the cut to n_ctx
  j["loss"] = e.loss;
  j["perTokenLoss"] = e.per_token_loss;
  j["top"] = tokens_json(e.top);
  PageJson heads = PageJson::array();
  for (const attn::model::HeadRole& r : e.roles)
    heads.push_back({{"layer", r.layer},
                     {"head", r.head},
                     {"role", r.role},
                     {"previous_token", r.previous_token},
                     {"first_token", r.first_token},
                     {"self", r.self},
                     {"entropy", r.entropy},
                     {"prefix_matching", r.prefix_matching},
                     {"ablated", ablated_json(state, r.layer, r.head)}});
  j["heads"] = heads;
  j["ablated"] = m.settings.ablate;
  PageJson generated = PageJson::array();
  for (std::size_t k = 0; k < m.generated.size(); ++k)
    generated.push_back({{"token", m.generated[k]},
                         {"piece", loaded ? m.file->model.vocab[std::size_t(m.generated[k])] : ""},
                         {"p", m.generated_p[k]}});
  j["generated"] = generated;
  j["generating"] = m.generate_target > int(m.generated.size());
  j["sampling"] = {{"temperature", m.settings.temperature},
                   {"top_k", m.settings.top_k},
                   {"top_p", m.settings.top_p},
                   {"seed", std::to_string(m.settings.seed)}};
  if (m.opened_layer >= 0)
    j["openedHead"] = {{"layer", m.opened_layer},
                       {"head", m.opened_head},
                       {"edited", m.opened_edited},
                       {"mismatch", m.opened_mismatch},
                       {"top", tokens_json(m.opened_top)}};
  else
    j["openedHead"] = nullptr;
  // The lens at the last positions (what the panel shows; all of them with `full`, as --lm-eval --lens).
  const std::vector<std::vector<ModelToken>> all_lens =
      full && loaded && !e.tokens.empty() ? model_logic::lens_of(*m.file, e.forward, 0) : e.lens;
  PageJson lens = PageJson::array();
  for (const std::vector<ModelToken>& layer : all_lens) lens.push_back(tokens_json(layer));
  j["lens"] = lens;
  j["lensFrom"] = full ? 0 : e.lens_from;
  j["link"] = scene::link::model_link_text(model_link(state));
  if (full && !e.tokens.empty()) {  // every logit and pattern, for the tests' comparisons with the CLI
    j["logits"] = rows_json(e.forward.logits);
    PageJson weights = PageJson::array();
    for (const attn::model::LayerStages& layer : e.forward.layers) {
      PageJson hs = PageJson::array();
      for (const attn::model::HeadStages& h : layer.heads) hs.push_back(rows_json(h.weights));
      weights.push_back(std::move(hs));
    }
    j["weights"] = weights;
  }
  return j;
}

}  // namespace

// "get" ["full"]: {"loaded", "load" (idle | loading | ready | failed), "progress", "error", "text",
// "tokens" (ids: prompt + generated), "pieces", "promptTokens", "textTokens", "loss", "perTokenLoss",
// "top": [{"token" (the id), "piece", "p"}] (10, as --lm-eval's "top"), "heads": [{"layer", "head",
// "role", "previous_token", "first_token", "self", "entropy", "prefix_matching", "ablated" (null |
// "zero" | "mean")}], "ablated" (["L.H" | "L.H:mean"], as --ablate), "generated": [{"token", "piece",
// "p"}], "generating", "sampling": {"temperature", "top_k", "top_p", "seed"}, "openedHead": {"layer",
// "head", "edited", "mismatch", "top"} | null, "lens": [layer][position − lensFrom] {"token", "piece",
// "p"} (the last 8 positions), "lensFrom", "link" (the lm= value)}; "full" gives the lens at every
// position and adds "logits" (n×V) and "weights" ([layer][head] n×n), as --lm-eval's.
PageJson model_page_call(AppState& state, std::string_view call, std::string_view arg) {
  if (call != "get") return nullptr;
  model_update_opened(state);
  return model_json(state, arg == "full");
}

void model_page_rects(const AppState& state, PageJson& rects) {
  rects["model"] = model_json(state, false);
}

// The Model mode's link (and that of its head opened in Explore): lm= holds what it shows.
bool model_link_fragment(const AppState& state, scene::link::MadeFragment& made) {
  const ModelUi& m = state.ui.model;
  const bool opened_head = m.opened_layer >= 0 && state.head_from == scene::link::Mode::Model &&
                           state.ui.settings.mode == scene::link::kDefaultMode &&
                           model_logic::scene_fits_head(state.scene, m.eval, m.opened_layer, m.opened_head);
  if (state.ui.settings.mode != scene::link::Mode::Model && !opened_head) return false;
  made = scene::link::make_model_fragment(model_link(state), appearance(state.ui));
  return true;
}

#ifndef __EMSCRIPTEN__
const ModeFlag kModelFlags[3] = {
    {"--model", "PATH",
     "the Model mode's language model file (.alm or the JSON contract; default: the repository's "
     "web/models/fortunes.alm)",
     nullptr},
    {"--model-state", "LM",
     "open the Model mode with a link's lm= value (text, sampling, seed, generated tokens, ablations, "
     "opened head)",
     [](const std::string& value, LinkStart& start) -> std::string {
       const scene::link::ModelLinkParse parsed = scene::link::parse_model_link(value);
       if (!parsed.link) return parsed.error;
       start.mode = Mode::Model;
       start.lm = *parsed.link;
       return "";
     }},
    {"--model-text", "T", "open the Model mode on this text",
     [](const std::string& value, LinkStart& start) -> std::string {
       if (value.empty()) return "";  // nothing to open (as before: an empty text leaves the mode alone)
       start.mode = Mode::Model;
       start.lm_text = value;
       return "";
     }},
};
#endif

}  // namespace ui
