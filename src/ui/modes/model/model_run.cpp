// model_run.cpp — the Model mode's actions and tick (model_mode.hpp); the numbers: model_logic.cpp.
#include <algorithm>
#include <memory>
#include <string>

#include "imgui.h"
#include "scene/json_text.hpp"
#include "scene/model_json.hpp"
#include "ui/modes/model/model_logic.hpp"
#include "ui/modes/model/model_mode.hpp"

namespace ui {
namespace {

namespace model = attn::model;

// The CPU time a frame may spend drawing Generate's tokens (ModelUi::pace: 30 a second; a draw with
// the KV cache takes well under a millisecond here).
constexpr double kBudgetMs = 12.0;

void link_changed(AppState& state);

// A link's opened head, then its edited cells through the edit path (undo and the prediction panel
// see them as the learner's own edits). A cell outside the head is left out, the notice says which.
void open_linked_head(AppState& state, int layer, int head,
                      const std::vector<scene::link::HeadCellEdit>& edits) {
  model_open_head(state, layer, head);
  if (state.ui.model.opened_layer != layer || state.ui.model.opened_head != head) return;
  std::string refused;
  const auto outside = [&](const scene::link::HeadCellEdit& e, Eigen::Index rows, Eigen::Index cols) {
    if (e.row < rows && e.col < cols) return false;
    if (refused.empty())
      refused = "lm: edits: " + std::string(e.matrix == 'm' ? "mask" : std::string(1, e.matrix)) + "[" +
                std::to_string(e.row) + "][" + std::to_string(e.col) + "] is outside the head (" +
                std::to_string(rows) + " × " + std::to_string(cols) + ")";
    return true;
  };
  for (const scene::link::HeadCellEdit& e : edits) {
    if (e.matrix == 'm') {  // a hidden key: toggled once from the head's all-allowed custom mask
      const int n = state.scene.n();
      if (!outside(e, n, n) && e.value == 0.0 &&
          (state.scene.mask.size() == 0 || state.scene.mask(e.row, e.col)))
        toggle_mask_cell(state, e.row, e.col);
      continue;
    }
    const SceneMatrix which = e.matrix == 'q'   ? SceneMatrix::Q
                              : e.matrix == 'k' ? SceneMatrix::K
                                                : SceneMatrix::V;
    const attn::Matrix& now = which == SceneMatrix::Q   ? state.scene.Q
                              : which == SceneMatrix::K ? state.scene.K
                                                        : state.scene.V;
    if (!outside(e, now.rows(), now.cols())) set_entry(state, which, e.row, e.col, e.value);
  }
  if (!refused.empty()) state.notice = refused;
}

void link_changed(AppState& state) {
  if (state.sharing.scene_changed) state.sharing.scene_changed();
  state.ui.frame.layout_changed = true;
}

bool ready(const ModelUi& m) {
  return m.load == ModelLoad::Ready && m.file;
}

model::SampleSettings sampling_of(const scene::link::ModelLink& s) {
  model::SampleSettings out;
  out.temperature = s.temperature;
  out.top_k = s.top_k;
  out.top_p = s.top_p;
  return out;
}

// The model on prompt + generated.
void evaluate(ModelUi& m) {
  std::vector<int> tokens = m.prompt;
  tokens.insert(tokens.end(), m.generated.begin(), m.generated.end());
  const int typed = m.eval.text_tokens;
  // The previous pass's rows before the first changed token are kept (same file: eval is cleared
  // when a model file is loaded; the ablation is checked by forward_reusing).
  m.eval = model_logic::evaluate(*m.file, tokens, m.ablation, {}, &m.eval);
  m.eval.text_tokens = typed;
  ++m.eval_version;
}

// One more token after prompt + generated; false when there is no room (n_ctx) or no prompt.
bool draw_one(ModelUi& m) {
  if (m.prompt.empty() || int(m.prompt.size() + m.generated.size()) >= m.file->model.n_ctx()) return false;
  if (!m.generator)
    m.generator = std::make_shared<model::Generator>(m.file->model, m.prompt, sampling_of(m.settings),
                                                     m.settings.seed, m.ablation);
  double p = 0.0;
  m.generated.push_back(m.generator->next(&p));
  m.generated_p.push_back(p);
  m.settings.generated = int(m.generated.size());
  return true;
}

// Everything from the settings: the prompt, the ablation, the settings.generated tokens (drawn now).
void rebuild(ModelUi& m) {
  int total = 0;
  m.prompt = model_logic::encode_text(*m.file, m.settings.text, &total);
  m.eval.text_tokens = total;
  std::string error;
  m.ablation = scene::parse_ablation(m.settings.ablate, m.file->model, &error);
  if (!error.empty()) {  // a link's head this model does not have: no ablation
    m.settings.ablate.clear();
    m.ablation = scene::parse_ablation({}, m.file->model, &error);
  }
  if (model::check_sample_settings(sampling_of(m.settings), m.file->model.n_vocab()) != "")
    m.settings.top_k = std::min(m.settings.top_k, m.file->model.n_vocab());
  const int want = m.settings.generated;
  m.generated.clear();
  m.generated_p.clear();
  m.generator.reset();
  m.generate_target = 0;
  m.settings.generated = 0;
  for (int k = 0; k < want && draw_one(m);) ++k;
  evaluate(m);
}

// The generated tokens start again from the prompt (the text, sampling or ablation changed).
void restart(AppState& state) {
  ModelUi& m = state.ui.model;
  m.settings.generated = 0;
  if (ready(m)) rebuild(m);
  link_changed(state);
}

}  // namespace

void model_request_load(AppState& state) {
  ModelUi& m = state.ui.model;
  if (m.load != ModelLoad::Idle) return;
  m.load = ModelLoad::Loading;
  m.progress = 0.0f;
  request_file(state, scene::link::Mode::Model);  // ends in model_file_news
}

void model_file_news(AppState& state, const FileNews& news) {
  switch (news.kind) {
    case FileNews::Kind::Progress:
      model_load_progress(state, news.progress);
      break;
    case FileNews::Kind::Loaded:
      model_loaded(state, news.bytes);
      break;
    case FileNews::Kind::Failed:
      model_load_failed(state, std::string(news.bytes));
      break;
  }
}

void model_load_progress(AppState& state, float fraction) {
  state.ui.model.progress = std::clamp(fraction, 0.0f, 1.0f);
  state.ui.frame.layout_changed = true;
}

std::string model_loaded(AppState& state, std::string_view bytes) {
  ModelUi& m = state.ui.model;
  scene::LmFileParse parsed = scene::read_any_model(bytes);
  if (!parsed.ok()) {
    model_load_failed(state, parsed.error);
    return parsed.error;
  }
  m.file = std::make_shared<const scene::LmFile>(std::move(*parsed.file));
  m.eval = ModelEval{};  // nothing of another model's pass is reused
  m.load = ModelLoad::Ready;
  m.load_error.clear();
  m.progress = 1.0f;
  rebuild(m);
  const int open_layer = m.settings.open_layer, open_head = m.settings.open_head;
  m.settings.open_layer = m.settings.open_head = -1;
  std::vector<scene::link::HeadCellEdit> edits = std::move(m.settings.edits);
  m.settings.edits.clear();
  if (open_layer >= 0) open_linked_head(state, open_layer, open_head, edits);  // a link's opened head
  state.ui.frame.layout_changed = true;
  return "";
}

void model_load_failed(AppState& state, const std::string& why) {
  ModelUi& m = state.ui.model;
  m.load = ModelLoad::Failed;
  m.load_error = why.empty() ? "model file: unknown error" : why;
  m.file.reset();
  state.ui.frame.layout_changed = true;
}

void model_tick(AppState& state) {
  ModelUi& m = state.ui.model;
  m.opened_layer = m.opened_head = -1;  // back in the mode (by its tab, or model_back)
  if (m.load == ModelLoad::Idle) model_request_load(state);
  if (!ready(m) || m.generate_target <= int(m.generated.size())) {
    m.generate_target = 0;
    m.pace.start(false);
    return;
  }
  // The owed tokens that fit the budget (the one pacer of every run, widgets/run_pacer.hpp).
  const double start = pacer_clock_ms();
  m.pace.owe(ImGui::GetIO().DeltaTime);
  const int done = run_owed_steps(m.pace, start, kBudgetMs, [&m] {
    if (int(m.generated.size()) >= m.generate_target) return false;
    if (draw_one(m)) return true;
    m.generate_target = 0;  // the context is full: the run ends
    return false;
  });
  m.pace.last_work_ms = pacer_clock_ms() - start;
  if (done > 0) evaluate(m);
  if (int(m.generated.size()) >= m.generate_target) {
    m.generate_target = 0;
    link_changed(state);
  }
  state.ui.frame.layout_changed = true;  // keep frames coming while generating (the app idles otherwise)
}

void model_set_text(AppState& state, const std::string& text) {
  ModelUi& m = state.ui.model;
  std::string t = text.substr(0, scene::link::kMaxModelTextBytes);
  if (!scene::json_text::valid_utf8(t)) t = scene::json_text::clip_utf8(t, t.size());
  m.settings.text = t;
  restart(state);
}

std::string model_set_sampling(AppState& state, double temperature, int top_k, double top_p,
                               std::uint64_t seed) {
  ModelUi& m = state.ui.model;
  model::SampleSettings s;
  s.temperature = temperature;
  s.top_k = top_k;
  s.top_p = top_p;
  const int vocab = ready(m) ? m.file->model.n_vocab() : 1024;
  if (std::string error = model::check_sample_settings(s, vocab); !error.empty()) return error;
  m.settings.temperature = temperature;
  m.settings.top_k = top_k;
  m.settings.top_p = top_p;
  m.settings.seed = seed;
  restart(state);
  return "";
}

void model_step(AppState& state) {
  ModelUi& m = state.ui.model;
  if (!ready(m)) return;
  m.generate_target = 0;
  if (draw_one(m)) evaluate(m);
  link_changed(state);
}

void model_generate(AppState& state, int count) {
  ModelUi& m = state.ui.model;
  if (!ready(m)) return;
  m.generate_target = int(m.generated.size()) + std::max(1, count);
  m.pace.start(true);  // the first token at once
  state.ui.frame.layout_changed = true;
}

void model_stop(AppState& state) {
  state.ui.model.generate_target = 0;
  link_changed(state);
}

int model_ablation_kind(const AppState& state, int layer, int head) {
  const model::Ablation& a = state.ui.model.ablation;
  return a.is_off(layer, head) ? 1 : a.is_mean(layer, head) ? 2 : 0;
}

void model_set_ablation(AppState& state, int layer, int head, int kind) {
  ModelUi& m = state.ui.model;
  if (!ready(m) || layer < 0 || head < 0 || layer >= m.file->model.n_layers() ||
      head >= m.file->model.n_heads())
    return;
  const std::string name = std::to_string(layer) + "." + std::to_string(head);
  std::vector<std::string>& list = m.settings.ablate;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const std::string& s) { return s == name || s.rfind(name + ":", 0) == 0; }),
             list.end());
  if (kind == 1) list.push_back(name);
  if (kind == 2) list.push_back(name + ":mean");
  std::sort(list.begin(), list.end());
  restart(state);
}

void model_open_head(AppState& state, int layer, int head) {
  ModelUi& m = state.ui.model;
  if (!ready(m) || m.eval.tokens.empty() || layer < 0 || head < 0 || layer >= m.file->model.n_layers() ||
      head >= m.file->model.n_heads())
    return;
  m.generate_target = 0;
  scene::Scene s = model_logic::head_scene(m.eval, layer, head);
  m.opened_q = s.Q;
  m.opened_k = s.K;
  m.opened_v = s.V;
  m.seen_q = s.Q;
  m.seen_k = s.K;
  m.seen_v = s.V;
  m.seen_mask.resize(0, 0);
  m.opened_top = m.eval.top;
  m.opened_edited = m.opened_mismatch = false;
  load_scene(state, std::move(s), "");
  state.ui.settings.mode = scene::link::kDefaultMode;  // the head in every panel of Explore
  state.head_from = scene::link::Mode::Model;
  m.opened_layer = layer;  // after the mode change: the Model tick no longer clears it
  m.opened_head = head;
  link_changed(state);
}

void model_reset_head(AppState& state) {
  ModelUi& m = state.ui.model;
  if (m.opened_layer >= 0) model_open_head(state, m.opened_layer, m.opened_head);
}

void model_back(AppState& state) {
  state.ui.settings.mode = scene::link::Mode::Model;
  link_changed(state);
}

scene::link::ModelLink model_link(const AppState& state) {
  const ModelUi& m = state.ui.model;
  scene::link::ModelLink out = m.settings;
  if (!ready(m)) return out;  // still loading: the link as it was opened
  out.open_layer = m.opened_layer;
  out.open_head = m.opened_head;
  out.edits.clear();
  // The opened head's cells the learner changed (while Explore shows it in the head's shape).
  const scene::Scene& s = state.scene;
  if (m.opened_layer < 0 || state.head_from != scene::link::Mode::Model ||
      state.ui.settings.mode != scene::link::kDefaultMode ||
      !model_logic::scene_fits_head(s, m.eval, m.opened_layer, m.opened_head))
    return out;
  const std::pair<char, std::pair<const attn::Matrix*, const attn::Matrix*>> mats[] = {
      {'q', {&s.Q, &m.opened_q}}, {'k', {&s.K, &m.opened_k}}, {'v', {&s.V, &m.opened_v}}};
  for (const auto& [name, pair] : mats) {
    const attn::Matrix& now = *pair.first;
    const attn::Matrix& own = *pair.second;
    if (now.rows() != own.rows() || now.cols() != own.cols()) continue;
    for (Eigen::Index i = 0; i < now.rows(); ++i)
      for (Eigen::Index j = 0; j < now.cols(); ++j)
        if (now(i, j) != own(i, j)) out.edits.push_back({name, int(i), int(j), now(i, j)});
  }
  for (Eigen::Index i = 0; i < s.mask.rows(); ++i)  // the keys the learner hid (the mask's 0 cells)
    for (Eigen::Index j = 0; j < s.mask.cols(); ++j)
      if (s.mask(i, j) == 0) out.edits.push_back({'m', int(i), int(j), 0.0});
  return out;
}

void model_apply_link(AppState& state, const scene::link::ModelLink& link) {
  ModelUi& m = state.ui.model;
  m.settings = link;
  m.text_draft.clear();
  m.opened_layer = m.opened_head = -1;
  if (!ready(m)) return;  // applied when the model has loaded (model_loaded)
  m.settings.open_layer = m.settings.open_head = -1;
  m.settings.edits.clear();
  rebuild(m);
  if (link.open_layer >= 0) open_linked_head(state, link.open_layer, link.open_head, link.edits);
  state.ui.frame.layout_changed = true;
}

void model_update_opened(AppState& state) {
  ModelUi& m = state.ui.model;
  if (!ready(m) || m.opened_layer < 0) return;
  const scene::Scene& s = state.scene;
  const bool fits = model_logic::scene_fits_head(s, m.eval, m.opened_layer, m.opened_head);
  if (fits && s.Q == m.seen_q && s.K == m.seen_k && s.V == m.seen_v && s.mask.size() == m.seen_mask.size() &&
      s.mask == m.seen_mask && !m.opened_mismatch)
    return;
  m.opened_mismatch = !fits;
  if (!fits) {
    m.opened_top.clear();
    return;
  }
  m.seen_q = s.Q;
  m.seen_k = s.K;
  m.seen_v = s.V;
  m.seen_mask = s.mask;
  m.opened_edited = !(s.Q == m.opened_q && s.K == m.opened_k && s.V == m.opened_v) || s.mask.size() != 0;
  m.opened_top =
      model_logic::prediction_with_scene(*m.file, m.eval, m.ablation, s, m.opened_layer, m.opened_head);
}

void model_apply_start(AppState& state, const LinkStart& start) {
  // The link's state is applied when the model has loaded, which showing or linking it starts.
  if (start.lm) model_apply_link(state, *start.lm);
  if (!start.lm_text.empty()) model_set_text(state, start.lm_text);
  if (start.lm || state.ui.settings.mode == scene::link::Mode::Model) model_request_load(state);
}

}  // namespace ui
