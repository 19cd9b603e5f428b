// app_state.cpp — scene edits, recomputation, and the JSON of the page API.
#include "ui/app_state.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/lookup.hpp"
#include "scene/edit.hpp"
#include "scene/traces.hpp"  // options_of
#include "scene/variant_keys.hpp"

namespace ui {
namespace {

// The smallest of 1, 2, 5 × 10^k that is ≥ 1.25 × max|entry| (and ≥ 1): room to drag past the
// largest value without the range jumping while dragging.
double slider_range(const attn::Matrix& m) {
  const double largest = m.size() > 0 ? m.cwiseAbs().maxCoeff() : 0.0;
  const double want = std::max(1.0, 1.25 * largest);
  double decade = std::pow(10.0, std::floor(std::log10(want)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * decade >= want) return step * decade;
  }
  return 10.0 * decade;
}

// The largest of 8, 4, 2, 1 that is at most `want` and divides d_k and d_v (after a resize, a split that
// no longer fits falls back to one that does).
int fitting_heads(const scene::Scene& s, int want) {
  for (int h : {8, 4, 2}) {
    if (h <= want && s.d_k() % h == 0 && s.d_v() % h == 0) return h;
  }
  return 1;
}

// The scene changed (`change`: Change bits): recompute at the frame's one point.
void mark_changed(AppState& state, unsigned change) {
  state.dirty = true;
  state.changes |= change;
}

// The scene's field each SceneMatrix names (Wo also for any other value).
constexpr attn::Row<SceneMatrix, attn::Matrix scene::Scene::*> kSceneMatrices[] = {
    {SceneMatrix::Q, &scene::Scene::Q},   {SceneMatrix::K, &scene::Scene::K},
    {SceneMatrix::V, &scene::Scene::V},   {SceneMatrix::X, &scene::Scene::X},
    {SceneMatrix::Wq, &scene::Scene::Wq}, {SceneMatrix::Wk, &scene::Scene::Wk},
    {SceneMatrix::Wv, &scene::Scene::Wv},
};

// The matrix an entry edit names.
attn::Matrix& matrix_of(scene::Scene& s, SceneMatrix which) {
  return s.*attn::lookup(kSceneMatrices, which, &scene::Scene::Wo);
}

// Q, K, V of a learned scene are computed (X·W): editing one makes the scene direct first.
void make_editable(AppState& state, SceneMatrix which) {
  if (which == SceneMatrix::Q || which == SceneMatrix::K || which == SceneMatrix::V)
    ensure_direct_mode(state);
}

// One setting of the scene (causal, the scale, RoPE's base, …), already clamped: written and the
// values marked changed; the same value again changes nothing (no recompute).
template <class T>
void set_setting(AppState& state, T& setting, T value) {
  if (setting == value) return;
  setting = value;
  mark_changed(state, kChangedValues);
}

// The one clamp of an edited value: the scene's limit |x| ≤ kMaxAbsValue (scene.hpp).
double clamp_value(double value) {
  return std::clamp(value, -scene::kMaxAbsValue, scene::kMaxAbsValue);
}

}  // namespace

void load_scene(AppState& state, scene::Scene scene, std::string preset_name) {
  state.scene_rw = std::move(scene);
  state.reset_scene = state.scene;
  state.preset_name = std::move(preset_name);
  state.ui.settings.demo.clear();  // a demo loader sets it again after loading
  state.ui.settings.demo_title.clear();
  if (state.ui.zoomed_token >= state.scene.n()) state.ui.zoomed_token = -1;
  state.generated.reset();
  state.head_from.reset();
  state.error.clear();
  state.notice.clear();
  mark_changed(state, kChangedShape);
  state.ui.focus_head = 0;
  recompute_if_dirty(state);
  state.edited = false;
  state.q_range = slider_range(state.heads.Q);
  state.k_range = slider_range(state.heads.K);
  state.v_range = slider_range(state.heads.V);
  state.wo_range = slider_range(state.scene.Wo);
  reset_learned_ranges(state);
}

void reset_learned_ranges(AppState& state) {
  const scene::Scene& s = state.scene;
  if (s.mode != scene::Mode::Projected) return;
  state.x_range = slider_range(s.X);
  attn::Matrix w(s.Wq.rows(), s.Wq.cols() + s.Wk.cols() + s.Wv.cols());
  w << s.Wq, s.Wk, s.Wv;
  state.w_range = slider_range(w);
}

void load_generated(AppState& state, const scene::GenSpec& spec) {
  load_scene(state, scene::generate(spec), "");
  state.generated = spec;
}

bool load_preset(AppState& state, std::string_view name) {
  std::optional<scene::Scene> s = scene::preset(name);
  if (!s) {
    state.error = "preset: unknown name \"" + std::string(name) + "\"";
    return false;
  }
  load_scene(state, std::move(*s), std::string(name));
  return true;
}

bool recompute_if_dirty(AppState& state) {
  if (!state.dirty) return false;
  state.dirty = false;
  const unsigned changes = std::exchange(state.changes, 0u);
  if (changes & kChangedShape) {
    // Edits keep the scene valid; this guards the core against anything that slipped through. A value
    // edit is clamped and finite by construction: a drag is not validated again on every frame.
    ++state.stats.validations;
    const std::string problem = scene::validate(state.scene);
    if (!problem.empty()) {
      state.error = problem;
      return false;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const scene::Scene& s = state.scene;
  attn::StageChange& change = state.result_change;
  state.result_change_from = state.result_version;
  change = attn::StageChange{};  // everything, unless the engine says less
  // A variant scene (scene/variant_keys.hpp) takes the full pass: the incremental engine keeps the
  // plain softmax's stages only (no sink, cap, top-k, second map, gate or linear weights).
  if (s.heads == 1 && !s.rope_on && s.Wo.size() == 0 && !scene::has_variants(s)) {
    // One head, no RoPE, no W_o: through the incremental engine (what scene::compute gives, bit for
    // bit), without copying the n×n stages. state.heads keeps only Q, K, V (heads.heads stays
    // empty: state.result is the one head).
    state.engine.swap_result(state.result);  // take back what the panels read, update, lend it again
    if (s.mode == scene::Mode::Direct)
      state.engine.update(s.Q, s.K, s.V, scene::options_of(s));
    else
      state.engine.update_projected(s.X, s.Wq, s.Wk, s.Wv, scene::options_of(s));
    state.engine.swap_result(state.result);
    change = state.engine.last_change();
    state.heads = attn::HeadsResult{};
    state.heads.Q = state.result.Q;
    state.heads.K = state.result.K;
    state.heads.V = state.result.V;
    state.ui.focus_head = 0;
  } else {
    state.heads = scene::compute_heads(state.scene);
    state.ui.focus_head = std::clamp(state.ui.focus_head, 0, int(state.heads.heads.size()) - 1);
    state.result = state.heads.heads[std::size_t(state.ui.focus_head)];
    state.engine.invalidate();
  }
  state.stats.last_recompute_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // The reading aids of the weights just computed are stale in the rows whose weights changed
  // (computed when read: reading_aids).
  if (change.full || state.ui.caches.aids_stale_all) {
    state.ui.caches.aids_stale_all = true;
  } else {
    state.ui.caches.aids_stale_rows.resize(std::size_t(state.result.weights.rows()), 0);
    for (int i : change.rows) state.ui.caches.aids_stale_rows[std::size_t(i)] = 1;
  }
  state.computed = true;
  state.edited = true;  // load_scene clears it again for a freshly loaded scene
  ++state.result_version;
  ++state.stats.recomputes;
  return true;
}

void ensure_direct_mode(AppState& state) {
  if (state.scene.mode == scene::Mode::Direct) return;
  recompute_if_dirty(state);
  scene::Scene& s = state.scene_rw;
  s.Q = state.heads.Q;  // every head's columns (result holds the focused head's)
  s.K = state.heads.K;
  s.V = state.heads.V;
#if AL_ALL_MODES
  // Latent attention ("mla"): the direct scene holds its heads' keys [c W_uk,t | k_R] and values
  // c W_uv,t with RoPE already applied (it turns only q_R and k_R, which a direct scene's "rope" cannot
  // say), so every score stays the same; the mla key goes with the learned weights.
  if (scene::is_mla(s)) {
    if (s.rope_on) {
      s.Q = state.heads.Q_rope;
      s.K = state.heads.K_rope;
    }
    s.rope_on = false;
    s.variants = nullptr;
  }
#endif
  s.X.resize(0, 0);
  s.Wq.resize(0, 0);
  s.Wk.resize(0, 0);
  s.Wv.resize(0, 0);
#if AL_ALL_MODES
  if (s.variants && s.variants->X_src.size() != 0) {  // cross-attention: K and V now hold the sources'
    scene::VariantKeys keys = *s.variants;
    keys.X_src.resize(0, 0);
    s.variants = std::make_shared<const scene::VariantKeys>(std::move(keys));
  }
#endif
  s.mode = scene::Mode::Direct;
  state.notice =
      "Switched to direct Q, K, V: the vectors were Q = X·W_q, K = X·W_k, V = X·W_v and are now "
      "edited directly.";
  mark_changed(state, kChangedShape);
}

// Resizing keeps the scene's mode (scene/edit.hpp): a learned scene stays X·W. A size the scene's
// other rules refuse (heads must divide d_k, …) keeps the scene and says why.
namespace {
template <typename Edit>
void resize_checked(AppState& state, Edit edit) {
  scene::Scene candidate = state.scene;
  edit(candidate);
  if (std::string problem = scene::validate(candidate); !problem.empty()) {
    state.notice = "Not resized: " + problem;
    return;
  }
  state.scene_rw = std::move(candidate);
  mark_changed(state, kChangedShape);
}
}  // namespace

void set_token_count(AppState& state, int n) {
  if (std::clamp(n, 1, scene::kMaxTokens) == state.scene.n()) return;
  resize_checked(state, [n](scene::Scene& s) { scene::set_token_count(s, n); });
}

void set_key_dim(AppState& state, int d_k) {
  // RoPE turns coordinate pairs: with it on, each head's size stays even, so d_k moves in steps of
  // 2·heads (towards the requested size).
  if (state.scene.rope_on) {
    const int step = 2 * std::max(state.scene.heads, 1), now = state.scene.d_k();
    if (d_k % step != 0) d_k = d_k > now ? (d_k / step + 1) * step : std::max(step, d_k / step * step);
  }
  if (std::clamp(d_k, 1, scene::kMaxDim) == state.scene.d_k()) return;
  resize_checked(state, [d_k](scene::Scene& s) {
    scene::set_key_dim(s, d_k);
    s.heads = fitting_heads(s, s.heads);  // a split that no longer divides d_k falls back to one that does
  });
}

void set_value_dim(AppState& state, int d_v) {
  if (std::clamp(d_v, 1, scene::kMaxDim) == state.scene.d_v()) return;
  resize_checked(state, [d_v](scene::Scene& s) {
    scene::set_value_dim(s, d_v);  // keeps W_o's rows = d_v
    s.heads = fitting_heads(s, s.heads);
  });
}

void set_model_dim(AppState& state, int d_model) {
  if (std::clamp(d_model, 1, scene::kMaxDim) == scene::model_dim(state.scene)) return;
  if (state.scene.mode != scene::Mode::Projected) {
    state.notice = scene::set_model_dim(state.scene_rw, d_model);
    return;
  }
  resize_checked(state, [d_model](scene::Scene& s) { scene::set_model_dim(s, d_model); });
}

bool make_learned(AppState& state) {
  if (std::string e = scene::make_learned(state.scene_rw); !e.empty()) {
    state.notice = e;
    return false;
  }
  state.notice =
      "Learned: each token's embedding is x_i = [q_i | k_i | v_i] and W_q, W_k, W_v pick its parts, so "
      "every number is unchanged. Drag x_i or a cell of a W.";
  reset_learned_ranges(state);
  mark_changed(state, kChangedShape);
  return true;
}

bool make_direct(AppState& state) {
  if (std::string e = scene::make_direct(state.scene_rw); !e.empty()) {
    state.notice = e;
    return false;
  }
  state.notice = "Direct: Q, K, V are now the numbers X·W_q, X·W_k, X·W_v had; drag them directly.";
  mark_changed(state, kChangedShape);
  return true;
}

void set_heads(AppState& state, int heads) {
  heads = std::clamp(heads, 1, scene::kMaxHeads);
  if (heads == state.scene.heads) return;
  // A grouped-query scene's K and V have H_kv groups sized by h: back to one K/V per head first
  // (each group repeated, every number kept; scene::set_kv_heads), then split as usual.
  scene::Scene next = state.scene;
  const bool regrouped = next.kv_heads > 0;
  if (regrouped && !scene::set_kv_heads(next, next.heads).empty()) return;
  if (next.d_k() % heads != 0 || next.d_v() % heads != 0) return;
  if (next.rope_on && (next.d_k() / heads) % 2 != 0) {  // RoPE turns pairs within a head
    state.notice =
        "heads: with RoPE each head needs an even size (d_k/h = " + std::to_string(next.d_k() / heads) + ")";
    return;
  }
  next.heads = heads;
  if (!scene::validate(next).empty()) return;
  if (regrouped) state.notice = "KV heads: back to one K and V per head (each group repeated, numbers kept)";
  state.scene_rw = std::move(next);
  state.ui.focus_head = std::min(state.ui.focus_head, heads - 1);
  mark_changed(state, kChangedShape);
}

void set_focus_head(AppState& state, int head) {
  recompute_if_dirty(state);
  if (head < 0 || head >= int(state.heads.heads.size()) || head == state.ui.focus_head) return;
  state.ui.focus_head = head;
  state.result = state.heads.heads[std::size_t(head)];
  state.ui.caches.aids_stale_all = true;
  state.result_change = attn::StageChange{};  // everything
  state.result_change_from = state.result_version;
  ++state.result_version;  // the Scores and Mask panels repaint the newly focused head
}

void set_wo_entry(AppState& state, int row, int col, double value) {
  set_entry(state, SceneMatrix::Wo, row, col, value);
}

void add_wo(AppState& state) {
  if (state.scene.Wo.size() != 0) return;
  state.scene_rw.Wo = attn::Matrix::Identity(state.scene.d_v(), state.scene.d_v());
  state.wo_range = 1;
  mark_changed(state, kChangedShape);
}

void remove_wo(AppState& state) {
  if (state.scene.Wo.size() == 0) return;
  state.scene_rw.Wo.resize(0, 0);
  mark_changed(state, kChangedShape);
}

void toggle_mask_cell(AppState& state, int i, int j) {
  scene::Scene& s = state.scene_rw;
  const int n = s.n(), m = int(scene::key_count(s));  // m keys: the sources' with cross-attention
  if (i < 0 || j < 0 || i >= n || j >= m) return;
  if (s.mask.size() == 0) s.mask = attn::MaskMatrix::Ones(n, m);
  s.mask(i, j) = s.mask(i, j) ? 0 : 1;
  // An all-ones custom mask says nothing: drop it so the scene's JSON stays minimal.
  if ((s.mask.array() != 0).all()) s.mask.resize(0, 0);
  mark_changed(state, kChangedShape);
}

void clear_custom_mask(AppState& state) {
  if (state.scene.mask.size() == 0) return;
  state.scene_rw.mask.resize(0, 0);
  mark_changed(state, kChangedShape);
}

namespace {
// A latent-attention scene's Wk and Wv are derived from its weights (scene/variant_keys.hpp) and
// never written: an edit of theirs would be lost (and leave the scene invalid), so it is refused.
bool derived_matrix_edit(AppState& state, SceneMatrix which) {
#if AL_ALL_MODES
  if ((which == SceneMatrix::Wk || which == SceneMatrix::Wv) && scene::is_mla(state.scene)) {
    state.notice = "mla: Wk and Wv are derived from W_dkv, W_uk, W_uv and W_kr; edit X or Wq";
    return true;
  }
#else
  (void)state;
  (void)which;
#endif
  return false;
}
}  // namespace

void set_entry(AppState& state, SceneMatrix which, int row, int col, double value) {
  if (!std::isfinite(value) || derived_matrix_edit(state, which)) return;
  make_editable(state, which);
  attn::Matrix& m = matrix_of(state.scene_rw, which);
  if (row < 0 || col < 0 || row >= m.rows() || col >= m.cols()) return;
  m(row, col) = clamp_value(value);
  mark_changed(state, kChangedValues);
}

void set_row(AppState& state, SceneMatrix which, int row, const attn::Matrix& values) {
  if (!values.allFinite() || values.rows() != 1 || derived_matrix_edit(state, which)) return;
  make_editable(state, which);
  attn::Matrix& m = matrix_of(state.scene_rw, which);
  if (row < 0 || row >= m.rows() || values.cols() != m.cols()) return;
  m.row(row) = values.unaryExpr([](double x) { return clamp_value(x); });
  mark_changed(state, kChangedValues);
}

void set_causal(AppState& state, bool causal) {
  set_setting(state, state.scene_rw.causal, causal);
}

void set_scale_mode(AppState& state, attn::ScaleMode mode) {
  set_setting(state, state.scene_rw.scale.mode, mode);
}

void set_temperature(AppState& state, double temperature) {
  if (!std::isfinite(temperature)) return;
  set_setting(state, state.scene_rw.scale.temperature,
              std::clamp(temperature, scene::kMinTemperature, scene::kMaxTemperature));
}

std::string set_token_label(AppState& state, int i, const std::string& label) {
  if (i < 0 || i >= state.scene.n()) return "tokens: no token " + std::to_string(i);
  scene::Scene candidate = state.scene;
  candidate.tokens[std::size_t(i)] = label;
  std::string problem = scene::validate(candidate);  // a label alone: checked here, once per keystroke
  if (!problem.empty()) return problem;
  state.scene_rw.tokens[std::size_t(i)] = label;
  mark_changed(state, kChangedValues);
  return "";
}

void set_rope_on(AppState& state, bool on) {
  const scene::Scene& s = state.scene;
  const int d_head = s.d_k() / std::max(s.heads, 1);
  if (on && d_head % 2 != 0) {
    state.error =
        "rope: each head's size must be even to form pairs (d_k / heads = " + std::to_string(d_head) +
        "): make d_k even first";
    return;
  }
  state.scene_rw.rope_on = on;
  if (on && state.scene.alibi) {  // RoPE or ALiBi: the scene format refuses both
    state.scene_rw.alibi = false;
    state.notice = "RoPE replaces ALiBi (a scene has one or the other)";
  }
  mark_changed(state, kChangedValues);
}

void set_rope_base(AppState& state, double base) {
  if (!std::isfinite(base)) return;
  set_setting(state, state.scene_rw.rope.base, std::clamp(base, 2.0, scene::kMaxRopeBase));
}

void set_rope_layout(AppState& state, attn::RopeLayout layout) {
  set_setting(state, state.scene_rw.rope.layout, layout);
}

void set_rope_offset(AppState& state, int offset) {
  set_setting(state, state.scene_rw.rope.offset, std::clamp(offset, 0, scene::kMaxRopeOffset));
}

void replace_scene_numbers(AppState& state, scene::Scene scene) {
  state.scene_rw = std::move(scene);
  mark_changed(state, kChangedShape);  // a whole scene: validated once before it is computed
  state.edited = true;
}

scene::link::Appearance appearance(const UiState& ui) {
  scene::link::Appearance a;
  a.theme = ui.settings.theme;
  a.zoom = ui.settings.zoom;
  a.lang = ui.settings.lang;
  return a;
}

void note_overflow(UiState& ui, std::string where) {
  ui.frame.next.overflow.push_back(std::move(where));
}

bool set_zoom(UiState& ui, int percent) {
  const int zoom = std::clamp(percent, scene::link::kMinZoom, scene::link::kMaxZoom);
  if (zoom == ui.settings.zoom) return false;
  ui.settings.zoom = zoom;
  return true;
}

std::string example_label(const AppState& state) {
  if (!state.ui.settings.demo.empty())
    return state.ui.settings.demo_title.empty() ? state.ui.settings.demo : state.ui.settings.demo_title;
  if (!state.preset_name.empty()) return state.preset_name;
  return "(custom scene)";
}

std::string load_scene_text(AppState& state, std::string_view json_text) {
  scene::ParseResult parsed = scene::parse_scene(json_text);
  if (!parsed.ok()) {
    state.error = "Scene rejected — " + parsed.error;
    return parsed.error;
  }
  load_scene_matching_preset(state, std::move(*parsed.scene));
  return "";
}

void load_scene_matching_preset(AppState& state, scene::Scene scene) {
  std::string preset_name;
  const std::string canonical = scene::scene_to_json(scene);
  for (const scene::PresetInfo& info : scene::preset_list()) {
    std::optional<scene::Scene> p = scene::preset(info.name);
    if (p && scene::scene_to_json(*p) == canonical) preset_name = info.name;
  }
  load_scene(state, std::move(scene), preset_name);
}

//-------------------------------------------------------------------------------------------------
// The variants: sliding window, sinks, ALiBi, grouped K/V (scene version 2)
//-------------------------------------------------------------------------------------------------

void set_window(AppState& state, int window) {
  window = std::clamp(window, 0, state.scene.n());
  if (window == state.scene.window) return;
  state.scene_rw.window = window;
  if (window == 0) state.scene_rw.sinks = 0;  // sinks only mean something past a window
  mark_changed(state, kChangedValues);
}

void set_sinks(AppState& state, int sinks) {
  sinks = std::clamp(sinks, 0, state.scene.n());
  if (sinks == state.scene.sinks) return;
  if (sinks > 0 && state.scene.window == 0) {
    state.notice = "sinks: set a window first (without one every key is visible)";
    return;
  }
  state.scene_rw.sinks = sinks;
  mark_changed(state, kChangedValues);
}

void set_alibi(AppState& state, bool on) {
  if (on == state.scene.alibi) return;
  state.scene_rw.alibi = on;
  if (on && state.scene.rope_on) {
    state.scene_rw.rope_on = false;
    state.notice = "ALiBi replaces RoPE (a scene has one or the other)";
  }
  mark_changed(state, kChangedValues);
}

#if AL_ALL_MODES
namespace {
// The scene with `keys` as its variant keys (null when they hold none).
scene::Scene with_variant_keys(const scene::Scene& s, const scene::VariantKeys& keys) {
  scene::Scene next = s;
  next.variants = keys.any() ? std::make_shared<const scene::VariantKeys>(keys) : nullptr;
  return next;
}
}  // namespace

std::string variant_keys_problem(const AppState& state, const scene::VariantKeys& next) {
  return scene::validate_variants(with_variant_keys(state.scene, next));
}

bool set_variant_keys(AppState& state, const scene::VariantKeys& next) {
  scene::Scene candidate = with_variant_keys(state.scene, next);
  if (const std::string why = scene::validate_variants(candidate); !why.empty()) {
    state.notice = why;
    return false;
  }
  state.scene_rw = std::move(candidate);
  // The shape stays (n, d_k, d_v); the variant pass is a full one (recompute_if_dirty).
  mark_changed(state, kChangedValues);
  return true;
}
#endif

void set_kv_heads(AppState& state, int kv_heads) {
  if (kv_heads == state.scene.kv()) return;
  scene::Scene next = state.scene;
  const std::string why = scene::set_kv_heads(next, kv_heads);
  if (!why.empty()) {
    state.notice = why;
    return;
  }
  state.scene_rw = std::move(next);
  mark_changed(state, kChangedShape);
}

}  // namespace ui
