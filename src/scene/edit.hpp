// edit.hpp — edits of a Scene that keep it valid and keep its mode: resizing (tokens, d_model,
// d_k, d_v) and the two exact conversions between direct Q, K, V and learned projections.
//
//   make_learned:  direct (Q, K, V)  →  projected with  X = [Q | K | V],  d_model = 2·d_k + d_v,
//                  W_q = [I; 0; 0],  W_k = [0; I; 0],  W_v = [0; 0; I]   (selection matrices)
//   make_direct:   projected (X, W_q, W_k, W_v)  →  direct with  Q = X·W_q, K = X·W_k, V = X·W_v
//
// Both keep every stage of the attention pass the same, bit for bit (tests/edit_test.cpp): each
// entry of X·W is one entry of X times 1 plus entries times 0, which IEEE arithmetic adds exactly.
// The one exception is the sign of a zero: a −0.0 in Q, K or V comes back as +0.0 (−0 + 0 = +0),
// the same number, so every stage is still equal as numbers.
//
// No I/O, no UI: the app's controls and tests call these.
#pragma once

#include <string>

#include "scene/scene.hpp"

namespace scene {

// Direct → projected with identical Q, K, V (see above). Empty string on success. Fails (scene
// unchanged) when the scene is already projected or when d_model = 2·d_k + d_v exceeds kMaxDim
// (e.g. d_k = 100, d_v = 100 → 300 > 256): the error says so and suggests smaller d_k or d_v.
std::string make_learned(Scene& s);

// Projected → direct with the current Q = X·W_q, K = X·W_k, V = X·W_v, exactly the matrices the
// core computes for the projected scene. Empty string on success. Fails (scene unchanged) when
// the scene is already direct or a product exceeds the scene's number limit |x| ≤ kMaxAbsValue
// (possible: 1e10 · 1e10); the error names the matrix and entry.
std::string make_direct(Scene& s);

// Resizing. New entries are small deterministic values in [−1, 1] with 2 decimals (so a new token
// does not look like every other new token), except new rows of W_q, W_k, W_v when d_model grows,
// which start at 0 so Q, K and V keep their values until the learner edits the new rows.
// Shrinking keeps the leading rows/columns. Values are clamped to the scene's limits (1 … kMaxDim,
// 1 … kMaxTokens). Every function works in both modes and keeps the mode. Other rules (heads must
// divide d_k and d_v, RoPE's even d_k) are the caller's to check with validate().
void set_token_count(Scene& s, int n);  // tokens, rows of Q/K/V or X, the custom mask
void set_key_dim(Scene& s, int d_k);    // columns of Q and K, or of W_q and W_k
void set_value_dim(Scene& s, int d_v);  // columns of V, or of W_v (and rows of W_o)
// Projected scenes only (columns of X, rows of the W's); "" or an error for a direct scene.
std::string set_model_dim(Scene& s, int d_model);
// d_model of a projected scene (columns of X); 0 for a direct scene.
int model_dim(const Scene& s);

// Grouped-query attention: regroup K and V (or W_k and W_v) into kv_heads groups of d_k/h and
// d_v'/H_kv columns, kv_heads dividing h. More groups: each group's columns are repeated to the
// groups it splits into (torch.repeat_interleave), so every stage stays the same bit for bit. Fewer
// groups: each new group is the mean of the groups it merges — Ainslie et al. 2023 (GQA, §2.1) turn
// a multi-head checkpoint into a grouped one by mean-pooling its key and value heads. W_o keeps its
// rows (the concat stays h·d_v'). Writes "kv_heads" only when kv_heads < h. "" or an error naming
// kv_heads (scene unchanged).
std::string set_kv_heads(Scene& s, int kv_heads);

// The seeded value used for new entries: deterministic in (row, column, salt), in [−1, 1], two
// decimals.
double fresh_value(int row, int col, int salt);

}  // namespace scene
