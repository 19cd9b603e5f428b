// app_state.hpp — everything the panels read and write: the scene, its computed result, what
// changed, the last error, where each named widget was drawn, and frame statistics.
//
// The flow each frame: panels edit `scene` through the functions below, which set `dirty`;
// recompute_if_dirty() runs the core once; panels then read `result`. Nothing is recomputed while
// the scene stays the same.
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
#include "ui/frame/keyboard.hpp"
#include "ui/frame/sharing_state.hpp"
#include "ui/look/colormap.hpp"
#include "ui/look/palette.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/flash/flash_state.hpp"
#include "ui/modes/keyspace/keyspace_state.hpp"
#include "ui/modes/train/train_state.hpp"
#include "ui/modes/walk/walk_state.hpp"
#include "ui/widgets/grid_view.hpp"

namespace ui {

// Which part of Y = softmax(QKᵀ / s + M) V is under the mouse (formula strip ↔ panels).
enum class Term { None, Output, Weights, Scores, Queries, Keys, Values, Scale, Mask, Tokens };

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
  std::uint64_t version = 0;  // AppState::result_version it was built from (0: never built)
  int grid = 0;               // which grid of the panel it holds (Scores: raw or scaled + masked)
  int n = 0;
  std::vector<float> values;
  float lo = 0, hi = 1;  // colour range
  Colormap colormap = Colormap::Viridis;
};

// The screen's modes (Explore, …): each a layout of the shared panels. The list and the names the
// link uses (mode=NAME) live in scene/link.hpp; src/ui/frame/frame.cpp says how to add a mode.
using Mode = scene::link::Mode;

// The Scores panel shows one of two grids: raw QKᵀ, or the scaled + masked QKᵀ / s + M.
enum class ScoresTab { Raw, Scaled };

// State of the screen itself rather than of the scene: the mode, layout values measured last frame,
// and what panels cache between frames. Every piece of UI state is here or in AppState.
struct UiState {
  Mode mode = Mode::Explore;  // the link's mode= (default Explore, not written in links)
  WalkUi walk;                // the walk-through's stage and row (used in Mode::Walk)
  QuizUi quiz;
  ScoresTab scores_tab = ScoresTab::Raw;
  // Reading aids on the weights grid (switchable): each row's entropy and its largest cell outlined.
  bool show_entropy = false, show_argmax = false;
  int focus_head = 0;  // multi-head scenes: the head Scores, Mask and tooltips describe
  // The mode bar, when its tabs scroll sideways (phones): the mode whose tab was last scrolled into
  // view, and for how many more frames to keep scrolling it there (the tabs' widths settle first).
  Mode mode_tab_scrolled_to = Mode(-1);
  int mode_tab_scroll_frames = 0;
  // The last derivation tooltip's text, one line per line shown (the page API's getState().ui.tooltip,
  // so tests can read what a tooltip derived); cleared each frame no tooltip is drawn.
  std::string tooltip, next_tooltip;

  // --- what the Example picker names (getState().ui.example)
  std::string demo;        // the gallery demo loaded last (#demo=NAME), "" if none; load_scene clears it
  std::string demo_title;  // its title from demos/index.json ("" → the name)

  // --- the vectors panel
  int zoomed_token = -1;  // token shown with numbers over wrapped lines (compact view), −1 none
  bool vectors_strip[3] = {false, false, false};  // Q, K, V drawn as colour strips (last frame)

  // --- layout, measured while drawing (last frame → this frame)
  float controls_h = 0;          // Controls panel content height + padding (0: not measured yet)
  bool compact_headers = false;  // short displays (phones in landscape): panels drop hint lines

  // --- appearance (link view keys theme= and zoom=; the View menu; desktop --theme, --zoom)
  std::optional<Theme> theme;            // chosen (link, menu, --theme); none: follow the system
  Theme system_theme = Theme::Dark;      // the system's preference (web: prefers-color-scheme)
  int zoom = scene::link::kDefaultZoom;  // UI zoom in percent, kMinZoom … kMaxZoom (Ctrl +/−/0)
  std::string lang;                      // chosen language code (link lang=, View menu, --lang); "": system's
  std::string system_lang = "en";        // the browser's language (navigator.language), if we have it
  // Texts that did not fit their place this frame (a row label wider than its column, a mode bar wider
  // than the screen): getState().ui.overflow, so a test catches a translation that is too long.
  std::vector<std::string> overflow, next_overflow;

  KeyboardUi keyboard;  // focus, ring and announcement of the keyboard (ui/frame/keyboard.hpp)

  // --- view options
  GridView grid_view;        // zoom and pan of the Scores and Weights grids (shared: cells side by side)
  bool weights_log = false;  // weights colour scale: log₁₀ from 10⁻⁶ to 1 instead of linear 0 … 1
  scene::GenSpec gen_draft;  // the Generate… popup's fields

  // --- caches, rebuilt when AppState::result_version changes (or weights_log toggles)
  HeatmapImage scores_image, weights_image;
  bool weights_image_log = false;                // the scale weights_image was built with
  std::vector<HeatmapImage> head_weight_images;  // multi-head: one per head, then the average
  std::vector<float> mask_values;  // n×n: 1 allowed, 0 hidden by the custom mask, kMaskedValue causal
  std::uint64_t mask_version = 0;

  // --- the FlashAttention and Decode modes: the step on screen (ui/modes/flash/flash_state.hpp)
  FlashStepper flash;
  DecodeStepper decode;
  // --- the Train mode: the run, its settings and measurements (ui/modes/train/train_mode.hpp)
  TrainUi train;
};

struct FrameStats {
  std::int64_t frames = 0;             // ImGui frames actually rendered
  double last_frame_ms = 0;            // CPU time of the last frame's work
  double total_frame_ms = 0;           // sum over all frames (average = total / frames)
  std::int64_t recomputes = 0;         // core runs
  double last_recompute_ms = 0;        // the last core run (incremental or full), in ms
  static constexpr int kWindow = 120;  // max and 95th percentile over the last 120 frames
  double recent_ms[kWindow] = {};
  int recent_count = 0, recent_next = 0;
};

struct AppState {
  // --- what the learner edits, and its computed stages
  scene::Scene scene;
  scene::Scene reset_scene;  // what "Reset" returns to (the preset or scene last loaded)
  std::string preset_name;   // empty when the scene did not come from a preset
  // Set when the scene was generated (Generate control, #gen= link): while it is unedited its link
  // is #gen=… (five numbers) instead of every number.
  std::optional<scene::GenSpec> generated;
  attn::HeadsResult heads;  // every head, their concat and the output map (scene::compute_heads);
                            // for one head without RoPE or W_o only Q, K, V (then `result` is all)
  attn::Result result;      // the focused head's stages (heads.heads[ui.focus_head]); all of it for h = 1
  attn::ReadingAids
      aids;  // per-row entropy and argmax of result.weights (the focused head), computed with it
  // Keeps what the next edit can reuse: a dragged query recomputes one row, a key one column and
  // the softmax, a value A V (bit for bit the full pass; core/incremental.hpp).
  attn::IncrementalAttention engine;
  std::uint64_t result_version = 0;  // bumped on every recompute (render re-uploads textures)
  bool dirty = true;                 // scene changed since the last recompute
  bool computed = false;             // result holds a valid computation
  bool edited = false;               // changed since it was loaded (the picker says so)

  // Slider ranges ±range per matrix, fixed while dragging (set when a scene is loaded).
  double q_range = 1, k_range = 1, v_range = 1;
  double x_range = 1, w_range = 1;  // learned scenes: X's sliders, the W_q/W_k/W_v cells
  double wo_range = 1;              // the output map Wo's cells

  // --- messages
  std::string error;   // shown in a banner until dismissed (e.g. a rejected scene)
  std::string notice;  // informational (e.g. "switched to direct Q, K, V")

  // --- interaction shared between panels (last frame → this frame)
  Term hovered_term = Term::None, next_hovered_term = Term::None;
  int hovered_row = -1, hovered_col = -1;  // cell under the mouse in any n×n grid
  int next_hovered_row = -1, next_hovered_col = -1;

  // --- automation: named widget rectangles in ImGui coordinates, as last drawn
  std::unordered_map<std::string, ImVec4> widget_rects;  // id → (x, y, w, h)
  // Width of the text drawn inside a value cell (Q/i/c …; 0 when the cell shows no number), so
  // tests can check that no number is wider than its cell.
  std::unordered_map<std::string, float> widget_text_w;
  GridGeometry scores_grid, weights_grid, mask_grid;
  std::vector<GridGeometry> head_grids;  // multi-head weights: one per head, then the average

  UiState ui;              // mode, layout values, panel caches
  Sharing sharing;         // hide=/view=, the demo gallery, the Share buttons' actions
  KeySpaceState keyspace;  // the Key space mode's pictures
  FrameStats stats;
  float ui_scale = 1.0f;  // ImGui pixels per CSS pixel (web) / per logical pixel (desktop)
  // Set by a panel whose measured size changed this frame: the layout is not settled yet, so the
  // app draws another frame (otherwise the first click would land on a moved widget).
  bool layout_changed = false;
};

// The theme on screen: the chosen one, else the system's.
inline Theme shown_theme(const UiState& ui) {
  return ui.theme.value_or(ui.system_theme);
}
// The language on screen: the chosen one, else the system's.
inline const std::string& shown_language(const UiState& ui) {
  return ui.lang.empty() ? ui.system_lang : ui.lang;
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

// --- edits (each keeps the scene valid and marks it dirty)
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
// Wo: set one entry; add the identity (d_v×d_v) as a starting map, or remove it.
void set_wo_entry(AppState& state, int row, int col, double value);
void add_wo(AppState& state);
void remove_wo(AppState& state);
// Toggle cell (i, j) of the custom mask (created all-ones on first use).
void toggle_mask_cell(AppState& state, int i, int j);
void clear_custom_mask(AppState& state);

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
// Count one drawn frame that took `ms` of CPU time.
void record_frame(FrameStats& stats, double ms);

// Record the last ImGui item's rectangle under `id` (only when it is visible).
void record_item_rect(AppState& state, const std::string& id);
// Record the width of the text drawn inside widget `id` (ImGui pixels).
void record_item_text(AppState& state, const std::string& id, float width);

}  // namespace ui
