// app_state.hpp — everything the panels read and write: the scene, its computed result, what
// changed, the last error, where each named widget was drawn, and frame statistics.
//
// One edit path. Panels read `state.scene` (a const reference) and edit it only through the
// functions below (set_entry, set_causal, set_token_label, …), which clamp (|x| ≤ kMaxAbsValue, in
// one place), keep the scene valid and mark what changed (`changes`). The result is recomputed at
// one point of the frame: draw_screen calls recompute_if_dirty after input and the mode's tick and
// before anything is drawn, so every panel of a frame shows the same result; an edit made while a
// frame is drawn shows in the next one (the app draws it at once: `dirty` asks for a frame). The
// whole scene is validated again only when an edit changed its shape or a loader replaced it, not on
// every frame of a drag. Nothing is recomputed while the scene stays the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/incremental.hpp"
#include "core/reading_aids.hpp"
#include "imgui.h"
#include "scene/generate.hpp"
#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "ui/frame/sharing_state.hpp"
#include "ui/look/colormap.hpp"
#include "ui/look/palette.hpp"
#include "ui/widgets/keyboard_state.hpp"
#if AL_ALL_MODES
#include "ui/modes/circuits/circuits_state.hpp"
#include "ui/modes/model/model_state.hpp"
#endif
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/flash/flash_state.hpp"
#include "ui/modes/keyspace/keyspace_state.hpp"
#include "ui/modes/train/train_state.hpp"
#include "ui/modes/walk/walk_state.hpp"
#include "ui/widgets/grid_view.hpp"

namespace ui {

// Which part of Y = softmax(QKᵀ / s + M) V is under the mouse (formula strip ↔ panels).
enum class Term { None, Output, Weights, Scores, Queries, Keys, Values, Scale, Mask, Tokens, Bias };

// Geometry of an n×n grid as last drawn, so widgetRect("cell/<grid>/i/j") is computed on demand
// instead of storing n² rectangles.
struct GridGeometry {
  bool visible = false;
  ImVec2 origin;   // top-left corner of cell (0, 0), ImGui coordinates
  float cell = 0;  // cell pitch (square)
  int rows = 0, cols = 0;
  ImVec4 clip;  // visible part (x0, y0, x1, y1)
};

// What a heatmap panel paints: n×n floats (row-major; kMaskedValue where masked) and their colour
// range. Rebuilt only when the result changes, not on every hover frame.
struct HeatmapImage {
  std::uint64_t version = 0;       // AppState::result_version it was built from (0: never built)
  int grid = 0;                    // which grid of the panel it holds (Scores: raw or scaled + masked)
  int n = 0, m = 0;                // rows (queries) × columns (keys; m = n but for cross-attention)
  std::vector<float> values;       // n×m, row-major
  std::vector<float> row_largest;  // n: each row's largest |value| over its allowed cells
  bool log_scale = false;          // weights: values are log₁₀ a
  // The largest allowed value in the cells last asked for (heatmap_image.hpp shown_max), and which.
  float shown_max = 0;
  std::uint64_t shown_version = 0;
  int shown_rows[2] = {0, 0}, shown_cols[2] = {0, 0};
  float lo = 0, hi = 1;  // colour range
  Colormap colormap = Colormap::Viridis;
};

// The screen's modes (Explore, …): each a layout of the shared panels. The list and the names the
// link uses (mode=NAME) live in scene/link.hpp; src/ui/frame/frame.cpp says how to add a mode.
using Mode = scene::link::Mode;

// The Scores panel shows one of two grids: raw QKᵀ, or the scaled + masked QKᵀ / s + M.
enum class ScoresTab { Raw, Scaled };

// What a link carries of the screen (mode=, theme=, zoom=, lang=, demo=), set also by the View menu
// and the desktop's flags: UiState::settings.
struct UiSettings {
  Mode mode = Mode::Explore;             // the link's mode= (default Explore, not written in links)
  std::optional<Theme> theme;            // chosen (link, menu, --theme); none: follow the system
  Theme system_theme = Theme::Dark;      // the system's preference (web: prefers-color-scheme)
  int zoom = scene::link::kDefaultZoom;  // UI zoom in percent, kMinZoom … kMaxZoom (Ctrl +/−/0)
  std::string lang;                      // chosen language code (link lang=, View menu, --lang); "": system's
  std::string system_lang = "en";        // the browser's language (navigator.language), if we have it
  // What the Example picker names (getState().ui.example).
  std::string demo;        // the gallery demo loaded last (#demo=NAME), "" if none; load_scene clears it
  std::string demo_title;  // its title from demos/index.json ("" → the name)
};

// Measured or collected while drawing one frame, read by the next (or by the page): UiState::frame.
// What one frame gathers while it draws, for the next to read: the formula term and the n×n cell
// under the mouse (hover links are one frame behind: what was hovered while drawing the last frame
// lights now), the derivation tooltip's text, the texts that did not fit. UiFrame holds the last
// frame's (`shown`) and the one being gathered (`next`), swapped once a frame (draw_screen).
struct FrameReads {
  Term hovered_term = Term::None;
  int hovered_row = -1, hovered_col = -1;  // the cell under the mouse in any n×n grid
  // The last derivation tooltip's text, one line per line shown (the page API's getState().ui.tooltip,
  // so tests can read what a tooltip derived); empty when no tooltip was drawn.
  std::string tooltip;
  // Texts that did not fit their place (a row label wider than its column, a mode bar wider than the
  // screen): getState().ui.overflow, so a test catches a translation that is too long.
  std::vector<std::string> overflow;
};

struct UiFrame {
  FrameReads shown, next;
  // --- automation: named widget rectangles in ImGui coordinates, as last drawn (cleared each frame)
  std::unordered_map<std::string, ImVec4> widget_rects;  // id → (x, y, w, h)
  // Width of the text drawn inside a value cell (Q/i/c …; 0 when the cell shows no number), so
  // tests can check that no number is wider than its cell.
  std::unordered_map<std::string, float> widget_text_w;
  GridGeometry scores_grid, weights_grid, mask_grid;
  std::vector<GridGeometry> head_grids;  // multi-head weights: one per head, then the average
  // Set by a panel whose measured size changed this frame: the layout is not settled yet, so the
  // app draws another frame (otherwise the first click would land on a moved widget).
  bool layout_changed = false;
  // The mode bar, when its tabs scroll sideways (phones): the mode whose tab was last scrolled into
  // view, and for how many more frames to keep scrolling it there (the tabs' widths settle first).
  Mode mode_tab_scrolled_to = Mode(-1);
  int mode_tab_scroll_frames = 0;
  bool vectors_strip[3] = {false, false, false};  // Q, K, V drawn as colour strips (last frame)
  float controls_h = 0;  // Controls panel content height + padding (0: not measured yet)
  // The Controls panel's row bottoms (content y, measured with controls_h): where a panel too short
  // for all its rows ends cleanly, after a whole row (ui/modes/layout_parts.hpp, left_column).
  std::vector<float> controls_rows;
  bool compact_headers = false;  // short displays (phones in landscape): panels drop hint lines
};

// Rebuilt when AppState::result_version changes (or weights_log toggles): UiState::caches.
struct UiCaches {
  HeatmapImage scores_image, weights_image;
  std::vector<HeatmapImage> head_weight_images;  // multi-head: one per head, then the average
  std::vector<float> mask_values;  // n×n: 1 allowed, 0 hidden by the custom mask, kMaskedValue causal
  std::uint64_t mask_version = 0;  // the result version mask_values describe
  std::uint64_t mask_built = 0;    // the result version they were last rebuilt at (the texture's version)
  // When mask_built was reached by refilling rows only (a mask edit): the version before and the rows,
  // so the texture uploads just those (MatrixImage::changed); 0 after a whole rebuild.
  std::uint64_t mask_changed_since = 0;
  std::vector<int> mask_changed_rows;
  std::vector<float> bias_values;  // n×n: ALiBi's B of the focused head (the Mask panel's bias grid)
  std::uint64_t bias_version = 0;
  // Per-row entropy and argmax of result.weights (the focused head), brought up to date when read
  // (ui::reading_aids, through a const AppState: mutable): a key's drag changes every row's weights,
  // and their n² logarithms (~12 ms a frame at n = 1024 in wasm) are spent only while a panel shows
  // them or the page checks them.
  mutable attn::ReadingAids aids;
  // n flags (or none): 1 for a row whose weights changed since `aids`; aids_stale_all: every row
  // (a whole recompute, another focused head).
  mutable std::vector<unsigned char> aids_stale_rows;
  mutable bool aids_stale_all = true;
};

// State of the screen itself rather than of the scene, grouped by how long it lives: the settings a
// link carries (UiSettings), each mode's state, view choices, then per-frame values (UiFrame) and
// caches (UiCaches). Every piece of UI state is here or in AppState.
struct UiState {
  // --- settings a link carries (mode=, step=, theme=, zoom=, lang=; the View menu; desktop flags)
  UiSettings settings;

  // --- each mode's state, declared in its folder (src/ui/modes/<mode>/*_state.hpp)
  WalkUi walk;           // the walk-through's stage and row (used in Mode::Walk)
  QuizUi quiz;           // the quiz (from any mode)
  FlashStepper flash;    // FlashAttention: the step on screen
  DecodeStepper decode;  // Decode: the step on screen
  TrainUi train;         // Train: the run, its settings and measurements
#if AL_ALL_MODES
  CircuitsUi circuits;  // Circuits: the model's run, the typed text, ablations, the guide
  ModelUi model;        // Model: the language model, the text, ablations, sampling, the opened head
#endif
  KeySpaceState keyspace;  // Key space: the pictures' planes, views and drag

  // --- view choices the panels keep while the app runs (not in links)
  ScoresTab scores_tab = ScoresTab::Raw;
  // Reading aids on the weights grid (switchable): each row's entropy and its largest cell outlined.
  bool show_entropy = false, show_argmax = false;
  int focus_head = 0;        // multi-head scenes: the head Scores, Mask and tooltips describe
  int zoomed_token = -1;     // token shown with numbers over wrapped lines (compact view), −1 none
  GridView grid_view;        // zoom and pan of the Scores and Weights grids (shared: cells side by side)
  bool weights_log = false;  // weights colour scale: log₁₀ from 10⁻⁶ to 1 instead of linear 0 … 1
  // Large scenes (kLargeSceneTokens): the linear weights' colours run from 0 to the largest weight in
  // view instead of 0 … 1, and where cells are smaller than pixels a pixel shows the mean of its cells
  // instead of their largest value (shaders/heatmap.frag).
  bool weights_auto = true;
  bool pixel_mean = false;
  scene::GenSpec gen_draft;    // the Generate… popup's fields
  int position_train_len = 8;  // the RoPE/ALiBi distance view's training length L (variant_parts.hpp)
  KeyboardUi keyboard;         // focus, ring and announcement of the keyboard (ui/widgets/keyboard.hpp)

  // --- per frame: measured or collected while drawing one frame, read by the next (or by the page)
  UiFrame frame;
  // --- caches, rebuilt when AppState::result_version changes (or weights_log toggles)
  UiCaches caches;
};

struct FrameStats {
  std::int64_t frames = 0;             // ImGui frames actually rendered
  double last_frame_ms = 0;            // CPU time of the last frame's work
  double total_frame_ms = 0;           // sum over all frames (average = total / frames)
  std::int64_t recomputes = 0;         // core runs
  std::int64_t validations = 0;        // whole-scene validations before a run (shape changes, loads)
  double last_recompute_ms = 0;        // the last core run (incremental or full), in ms
  static constexpr int kWindow = 120;  // max and 95th percentile over the last 120 frames
  double recent_ms[kWindow] = {};
  // Where each of those frames went, in ms: [0] the core's recompute (0 when the frame had none),
  // [1] the UI (layout, text, heatmap images: everything else before rendering), [2] rendering (GL:
  // buffer and texture uploads, draw calls, and any wait for the GPU they cause). They add up to
  // recent_ms, give or take the clock's reads.
  double recent_parts_ms[kWindow][3] = {};
  int recent_count = 0, recent_next = 0;
};

// What an edit changed (AppState::changes, bits): values only (a drag, typed numbers), or the
// scene's shape or whole contents (a resize, a loaded or trained scene), after which the next
// recompute validates the whole scene again.
enum Change : unsigned { kChangedValues = 1u, kChangedShape = 2u };

struct AppState {
  AppState() = default;
  // `scene` refers to this object's scene_rw: never copied or moved.
  AppState(const AppState&) = delete;
  AppState& operator=(const AppState&) = delete;

  // --- what the learner edits, and its computed stages
  // Written only by the functions of this header (app_state.cpp); everything else reads `scene`.
  scene::Scene scene_rw;
  const scene::Scene& scene{scene_rw};
  scene::Scene reset_scene;  // what "Reset" returns to (the preset or scene last loaded)
  std::string preset_name;   // empty when the scene did not come from a preset
  // Set when the scene was generated (Generate control, #gen= link): while it is unedited its link
  // is #gen=… (five numbers) instead of every number.
  std::optional<scene::GenSpec> generated;
  attn::HeadsResult heads;  // every head, their concat and the output map (scene::compute_heads);
                            // for one head without RoPE or W_o only Q, K, V (then `result` is all)
  attn::Result result;      // the focused head's stages (heads.heads[ui.focus_head]); all of it for h = 1
  // Keeps what the next edit can reuse: a dragged query recomputes one row, a key one column and
  // the softmax, a value A V (bit for bit the full pass; core/incremental.hpp).
  attn::IncrementalAttention engine;
  std::uint64_t result_version = 0;  // bumped on every recompute (render re-uploads textures)
  // What the last bump changed (attn::StageChange: rows, columns, or all), from result version
  // result_change_from: a view whose copy is at that version may refresh just those cells (a dragged
  // query: one row of 1024; a key in a 64-wide window: 64 rows and one column); any older copy is
  // rebuilt (changed_only_since).
  attn::StageChange result_change;
  std::uint64_t result_change_from = 0;
  bool dirty = true;                 // scene changed since the last recompute
  unsigned changes = kChangedShape;  // what changed since then (Change bits): Shape → validate again
  bool computed = false;             // result holds a valid computation
  // The mode whose model head the scene is, opened in Explore (Circuits or Model; load_scene clears it):
  // that mode's link then describes the screen.
  std::optional<scene::link::Mode> head_from;
  bool edited = false;  // changed since it was loaded (the picker says so)

  // Slider ranges ±range per matrix, fixed while dragging (set when a scene is loaded).
  double q_range = 1, k_range = 1, v_range = 1;
  double x_range = 1, w_range = 1;  // learned scenes: X's sliders, the W_q/W_k/W_v cells
  double wo_range = 1;              // the output map Wo's cells

  // --- messages
  std::string error;   // shown in a banner until dismissed (e.g. a rejected scene)
  std::string notice;  // informational (e.g. "switched to direct Q, K, V")

  UiState ui;       // mode, layout values, panel caches
  Sharing sharing;  // hide=/view=, the demo gallery, the Share buttons' actions
  FrameStats stats;
  float ui_scale = 1.0f;  // ImGui pixels per CSS pixel (web) / per logical pixel (desktop)
};

// The theme on screen: the chosen one, else the system's.
inline Theme shown_theme(const UiState& ui) {
  return ui.settings.theme.value_or(ui.settings.system_theme);
}
// The language on screen: the chosen one, else the system's.
inline const std::string& shown_language(const UiState& ui) {
  return ui.settings.lang.empty() ? ui.settings.system_lang : ui.settings.lang;
}
// Record that a text did not fit its place this frame (`where` names it, e.g. "controls/label/Scale").
void note_overflow(UiState& ui, std::string where);
// What the link's view keys say: the chosen theme (if any) and the zoom.
scene::link::Appearance appearance(const UiState& ui);
// Set the zoom, clamped to kMinZoom … kMaxZoom; true if it changed.
bool set_zoom(UiState& ui, int percent);

// Replace the scene (preset, file, setState). Resets slider ranges and messages.
void load_scene(AppState& state, scene::Scene scene, std::string preset_name);
// Load the generated scene of `spec` (remembered for its link).
void load_generated(AppState& state, const scene::GenSpec& spec);
// Load a bundled preset by name; false (and state.error set) if it does not exist.
bool load_preset(AppState& state, std::string_view name);
// Run the core if the scene changed. Returns true if it ran.
bool recompute_if_dirty(AppState& state);
// Whether a copy of the result's grids at `version` can be brought up to date with result_change's
// rows and columns alone (the mask, the shape and the options are then unchanged).
inline bool changed_only_since(const AppState& state, std::uint64_t version) {
  return !state.result_change.full && version != 0 && version == state.result_change_from;
}

// --- edits (each keeps the scene valid and marks what changed)
// The scene's matrices an entry edit can name.
enum class SceneMatrix { Q, K, V, X, Wq, Wk, Wv, Wo };
// Entry (row, col) of a matrix, clamped to ±kMaxAbsValue; a non-finite value or a cell outside the
// matrix changes nothing. Q, K or V of a learned scene first makes it direct (ensure_direct_mode).
void set_entry(AppState& state, SceneMatrix which, int row, int col, double value);
// A whole row (1×cols; the key space's drags), clamped the same way; a wrong size changes nothing.
void set_row(AppState& state, SceneMatrix which, int row, const attn::Matrix& values);
void set_causal(AppState& state, bool causal);
void set_scale_mode(AppState& state, attn::ScaleMode mode);
void set_temperature(AppState& state, double temperature);  // clamped to kMinTemperature … kMaxTemperature
// Token i's label; "" when applied, else the reason (the label is not applied).
std::string set_token_label(AppState& state, int i, const std::string& label);
// RoPE: on (each head's size must be even: else state.error says so), base, pair layout, offset.
void set_rope_on(AppState& state, bool on);
void set_rope_base(AppState& state, double base);  // clamped to 2 … kMaxRopeBase
void set_rope_layout(AppState& state, attn::RopeLayout layout);
void set_rope_offset(AppState& state, int offset);  // clamped to 0 … kMaxRopeOffset
// Show `scene` as an edit of the current one (the Train mode's model after a step), not as a load:
// slider ranges, Reset and the picker stay.
void replace_scene_numbers(AppState& state, scene::Scene scene);
// A projected scene becomes direct with its current Q = X W_q, K = X W_k, V = X W_v (and a notice).
void ensure_direct_mode(AppState& state);
void set_token_count(AppState& state, int n);
void set_key_dim(AppState& state, int d_k);
void set_value_dim(AppState& state, int d_v);
// Learned scenes only: columns of X / rows of the W's (new W rows 0, so Q, K, V stay).
void set_model_dim(AppState& state, int d_model);
// The exact conversions (scene/edit.hpp), with a notice saying what happened or why not.
bool make_learned(AppState& state);  // direct → X = [Q | K | V], selection W's
bool make_direct(AppState& state);   // learned → Q = X·W_q, K = X·W_k, V = X·W_v
// Slider ranges of X and the W's from the current scene (on load and after make_learned).
void reset_learned_ranges(AppState& state);
// Multi-head: split into h heads (h divides d_k and d_v; Wo kept), and which head the panels describe.
void set_heads(AppState& state, int heads);
void set_focus_head(AppState& state, int head);
// The reading aids of state.result's weights, up to date (the rows changed since they were last
// read are computed now; UiCaches::aids).
const attn::ReadingAids& reading_aids(const AppState& state);
// Wo: set one entry; add the identity (d_v×d_v) as a starting map, or remove it.
void set_wo_entry(AppState& state, int row, int col, double value);
void add_wo(AppState& state);
void remove_wo(AppState& state);
// Toggle cell (i, j) of the custom mask (created all-ones on first use).
void toggle_mask_cell(AppState& state, int i, int j);
void clear_custom_mask(AppState& state);

// --- the variants (scene keys of version 2). Each keeps the scene valid:
// Sliding window w (0 = none, clamped to 0 … n); w = 0 also drops the sinks (they need a window).
void set_window(AppState& state, int window);
// Sink tokens s (clamped to 0 … n); with no window a notice says to set one first.
void set_sinks(AppState& state, int sinks);
// ALiBi on/off. ALiBi replaces position embeddings: turning it on turns RoPE off (a notice says so),
// and set_rope_on(true) turns ALiBi off.
void set_alibi(AppState& state, bool on);
// K/V groups H_kv (dividing h; scene::set_kv_heads regroups K and V: repeat or mean-pool).
void set_kv_heads(AppState& state, int kv_heads);
#if AL_ALL_MODES
// The variants of 2024–26 models (scene/variant_keys.hpp: sink_logit, softcap, qk_norm, topk,
// differential, linear, …): `next` replaces the scene's variant keys (none left → the key is
// dropped). Refused when the scene would be invalid (a combination that does not go together, a
// shape that does not fit): the reason, naming the key, goes to state.notice and the scene is kept.
// Returns whether the scene took them.
bool set_variant_keys(AppState& state, const scene::VariantKeys& next);
// What set_variant_keys(next) would refuse with, without changing anything ("" when allowed).
std::string variant_keys_problem(const AppState& state, const scene::VariantKeys& next);
#endif

// What the Example picker shows: the demo's title, else the preset's name, else "(custom scene)"
// (without the "· edited" the picker adds after a change).
std::string example_label(const AppState& state);

// Validate and load scene JSON text (setState, a file, Import JSON). A scene identical to a bundled
// preset keeps the preset's name in the picker. Returns "" or the error (field: reason), which is
// also put in state.error as "Scene rejected — …"; on error the state is kept.
std::string load_scene_text(AppState& state, std::string_view json_text);
// Load an already validated scene the same way (a link's scene), naming the matching preset.
void load_scene_matching_preset(AppState& state, scene::Scene scene);
// Rectangle (x, y, w, h) of widget `id` in ImGui pixels as last drawn: a recorded widget, or a
// visible cell "cell/<scores|weights|mask>/i/j", "head/<t|average>/weights/i/j"; nullopt when there is none.
std::optional<ImVec4> widget_rect(const AppState& state, std::string_view id);
// Count one drawn frame that took `ms` of CPU time, in these parts (FrameStats::recent_parts_ms).
struct FrameParts {
  double recompute_ms = 0, ui_ms = 0, render_ms = 0;
};
void record_frame(FrameStats& stats, double ms, const FrameParts& parts = {});

}  // namespace ui
