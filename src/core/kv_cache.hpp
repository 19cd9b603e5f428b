// kv_cache.hpp — causal decoding one token at a time with a key/value cache.
//
// Step t (t = 0 … n−1) appends k_t and v_t to the cache and attends the new query q_t over the
// t+1 cached keys:
//
//   a_t = softmax( q_t K_cacheᵀ / s + M_t )      1×(t+1)   (M_t: the custom mask's row t, if any)
//   y_t = a_t V_cache                            1×d_v
//
// Causal attention lets token t see tokens 0…t only, so the cache holds everything step t needs:
// a_t and y_t equal row t of the causal full pass (a test checks it bit for bit). Nothing of an
// earlier step is recomputed; that is the multiply count this module reports against a decoder
// without a cache.
#pragma once

#include <vector>

#include "core/attention.hpp"

namespace attn {

struct DecodeStep {
  int t = 0;          // the token decoded in this step
  int cache_len = 0;  // t + 1: keys and values in the cache after appending token t
  Matrix scaled;      // 1×(t+1)  q_t · k_j / s
  Matrix weights;     // 1×(t+1)  a_t (masked cells exactly 0; all 0 when the row is fully masked)
  Matrix output;      // 1×d_v    y_t
  long long mults_with_cache = 0;     // this step's multiplies, reusing the cache
  long long mults_without_cache = 0;  // the same step rerunning the whole prefix (see below)
};

// How many scalar multiplies one step costs (matrix products only; exp, max and the division by s
// or ℓ are not counted). d_model = 0 for a direct scene (Q, K, V given, no projections).
//   with cache:    d_model·(2·d_k + d_v)           project x_t to q_t, k_t, v_t
//                + (t+1)·d_k + (t+1)·d_v          q_t Kᵀ and a_t V over the cache
//   without cache: (t+1)·d_model·(2·d_k + d_v)     project every token of the prefix again
//                + (t+1)²·d_k + (t+1)²·d_v        the full (t+1)×(t+1) QKᵀ and A V of the prefix
// "Without cache" is what a decoder does when it keeps nothing between steps (Hugging Face's
// use_cache=False): it reruns the pass on the whole prefix to get the newest row.
long long decode_mults_with_cache(int t, int d_model, int d_k, int d_v);
long long decode_mults_without_cache(int t, int d_model, int d_k, int d_v);

struct DecodeResult {
  std::vector<DecodeStep> steps;                            // t = 0 … n−1
  long long mults_with_cache = 0, mults_without_cache = 0;  // totals over all steps
};

// Decodes Q (n×d_k), K (n×d_k), V (n×d_v) causally (options.causal is implied; options.mask, if
// n×n, is ANDed in as for attend()). d_model is only used for the multiply counts (0 = direct).
DecodeResult decode_with_cache(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                               int d_model = 0);

}  // namespace attn
