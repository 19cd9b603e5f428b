// variant_parts.hpp — the attention variants' controls and views, shared by the panels
// and modes that show them: the sliding window and sinks (Mask panel), the K/V groups (Controls),
// ALiBi as RoPE's other choice with its bias grid B, and the view of one pair's score against
// distance under RoPE and under ALiBi past a training length.
//
// Scene keys (version 2, docs/SCENE_FORMAT.md): "window", "sinks", "kv_heads", "alibi". Every edit
// goes through AppState's functions (set_window, set_sinks, set_kv_heads, set_alibi).
#pragma once

#include <string>
#include <vector>

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

// What hides key j from query i in the scene's mask, for the Mask panel's cells and tooltips.
enum class MaskReason { Allowed, Causal, Window, Custom };
MaskReason mask_reason(const scene::Scene& s, const attn::MaskMatrix& allowed, int i, int j);

// "causal + window w = 3 + sinks s = 1" (translated): the kinds of mask the scene combines.
std::string mask_kind_text(const scene::Scene& s);

// The Mask panel's rows above the grid: the kind named, the window and sinks sliders
// (ids "mask/kind", "window", "sinks").
void draw_window_controls(AppState& state, const Fonts& fonts);

// The Controls panel's row of K/V groups (the divisors of h): ids "kv-heads", "kv-heads/N".
void draw_kv_heads_control(AppState& state);

// The ALiBi checkbox beside RoPE (id "alibi") and, with ALiBi on, the heads' slopes.
void draw_alibi_control(AppState& state, const Fonts& fonts);

// The score of one query/key pair against distance Δ = 0 … 2L under RoPE and under ALiBi, with the
// part past the training length L shaded (ids "positions/plot", "positions/train-length").
void draw_position_view(AppState& state, const Fonts& fonts);

// ALiBi's bias B of the focused head as an n×n grid of cells at (origin, cell) with its numbers
// when they fit (ids "bias" and cells "cell/bias/i/j" through state.bias_grid).
void draw_bias_grid(AppState& state, MatrixPainter& painter, const Fonts& fonts, ImVec2 origin, float cell);

// The scaled scores a softcap c reads (the allowed cells of the focused head's pass): how many there
// are, how many lie beyond ±c (the cap flattens them) and the largest |s| (the Variants popup's curve).
struct SoftcapReach {
  int count = 0, beyond = 0;
  double largest = 0.0;
};
SoftcapReach softcap_reach(const attn::Result& r, double c);

// Top-k's selection in the focused head: the query–key pairs it keeps (softmax reads only their scores),
// of those the mask allows, of all n·m; `selected` null when the scene has no top-k.
struct TopkCount {
  const attn::MaskMatrix* selected = nullptr;
  long long kept = 0, allowed = 0, pairs = 0;
};
TopkCount topk_count(const AppState& state);

// The words of a cross-attention scene's screen (cross_texts.cpp, the build with every mode: the first
// load never holds such a scene): the vectors panel's headings over the queries' and the sources'
// blocks, and the note of a mode that follows one sequence (`mode`: its tab's label).
const char* cross_heading(bool sources);
std::string cross_mode_note(const std::string& mode);

// One head's spread for QK-norm's readout: the range lo … hi of its scaled scores (allowed, finite
// cells) and the mean over rows with an allowed cell of the weights' entropy −Σ_j a_ij ln a_ij (nats).
struct ScoreSpread {
  bool any = false;  // some cell is allowed
  double lo = 0.0, hi = 0.0, entropy = 0.0;
};
ScoreSpread score_spread(const attn::Result& r);
// Head `head` of scene `s` as it is (`as_is`) and of a copy with qk_norm switched the other way
// (`flipped`, computed by scene::compute_heads). `s` must have variant keys.
struct QkNormCompare {
  ScoreSpread as_is, flipped;
};
QkNormCompare qk_norm_compare(const scene::Scene& s, int head);

// A gate's logits with its columns changed between element-wise (concat columns, each head's
// concat/h in a row) and head-wise (h): head-wise → element-wise repeats each head's logit over its
// columns (the same gated output); element-wise → head-wise takes the mean of the head's logits.
// Works on G (n rows) and W_g (d_model rows) alike.
attn::Matrix gate_columns(const attn::Matrix& g, int heads, int concat, bool headwise);

// The focused head's sink weights, one per row (core/variants.hpp: each row's share of the sink
// logit, which goes to no token), or null when the scene has no sink logit.
const std::vector<double>* sink_weights(const AppState& state);
// Where the Weights grid (heatmap_panel.cpp) puts its "none" column of the sink weights: right of the
// grid at x0, `width` wide; row i's cell from origin_y + cell·i (zoom and pan), rows first … last − 1
// in view, clipped to clip_y0 … clip_y1; its label at label_y; colours over lo … hi as the weights'.
struct NoneColumn {
  float x0 = 0, width = 0, grid_top = 0, grid_bottom = 0, origin_y = 0, cell = 0;
  int first = 0, last = 0;
  float clip_y0 = 0, clip_y1 = 0, label_y = 0, lo = 0, hi = 1;
};
void draw_none_column(AppState& state, const Fonts& fonts, const NoneColumn& column);

}  // namespace ui
