// kv_cache.hpp — causal decoding one token at a time with a key/value cache.
//
// Step t (t = 0 … n−1) appends k_t and v_t to the cache, evicts what the cache policy drops, and
// attends the new query q_t over the cached keys:
//
//   a_t = softmax( q_t K_cacheᵀ / s + B_t + M_t )   over positions 0…t   (B_t: ALiBi's −m·(t − j);
//   y_t = a_t V_cache                    1×d_v     M_t: row t of the mask — window/sinks, custom —
//                                                  and −∞ at every evicted position)
//
// Causal attention lets token t see tokens 0…t only, so a cache that keeps everything holds all
// step t needs: a_t and y_t equal row t of the causal full pass (a test checks it bit for bit).
// Nothing of an earlier step is recomputed; that is the multiply count this module reports
// against a decoder without a cache.
//
// Cache policies (what long-context decoders do to bound the cache):
//   keep all           the cache grows to n entries;
//   keep the last w    a rolling buffer (Mistral 7B's sliding-window cache): after appending k_t,
//                      position t − w is evicted, so step t sees t−w+1 … t;
//   sinks + last w     StreamingLLM (Xiao et al. 2023): positions 0 … s−1 are never evicted, the
//                      rest as "last w".
// Evicting under "last w" (with s sinks) gives exactly the full pass of the causal scene with
// "window": w (and "sinks": s) — bit for bit, because each step's scores are placed at their
// positions 0…t with the evicted ones masked, as the full pass's row has them.
#pragma once

#include <string>
#include <vector>

#include "core/attention.hpp"

namespace attn {

enum class CacheKind { KeepAll, LastW, SinksLastW };

struct CachePolicy {
  CacheKind kind = CacheKind::KeepAll;
  int window = 0;  // w ≥ 1 for LastW and SinksLastW: the newest w positions stay
  int sinks = 0;   // s ≥ 0 for SinksLastW: positions 0 … s−1 stay
};

// Which positions a cache with this policy holds after step t (ascending).
std::vector<int> cache_kept(const CachePolicy& policy, int t);
// The position the policy evicts at step t (after appending k_t), or −1 when none.
int cache_evicted_at(const CachePolicy& policy, int t);
// "" or a sentence naming what is wrong with the policy (window ≥ 1, sinks ≥ 0).
std::string check_cache_policy(const CachePolicy& policy);

struct DecodeStep {
  int t = 0;                 // the token decoded in this step
  int cache_len = 0;         // keys and values in the cache after this step (t + 1 when nothing is evicted)
  std::vector<int> kept;     // the cached positions, ascending (cache_len of them)
  std::vector<int> evicted;  // the position evicted in this step (none, or one), for drawing
  Matrix scaled;   // 1×(t+1)  q_t · k_j / s at position j (+ B with ALiBi); 0 at evicted positions
  Matrix weights;  // 1×(t+1)  a_t (masked and evicted cells exactly 0; all 0 when nothing is visible)
  Matrix output;   // 1×d_v    y_t
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

// Keys and values a cache with this policy holds after step t: cache_kept(policy, t).size(), in O(1).
int cache_length(const CachePolicy& policy, int t);

// Step t alone (0 ≤ t < n) of decode_with_cache(Q, K, V, options, d_model, policy): after step t the
// cache holds the rows cache_kept(policy, t) of K and V (in that order), so step t needs only those —
// the same DecodeStep, bit for bit (the same products of the same rows in the same order), in
// O((t+1)·(d_k + d_v)) instead of the whole decode's O(n²·(d_k + d_v)). What a stepper showing one
// step at a time computes (the Decode mode at n = 1024).
DecodeStep decode_step(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options, int d_model,
                       const CachePolicy& policy, int t);

// The multiplies of steps 0 … t under the policy (decode_with_cache's totals when t = n − 1), without
// running them: Σ decode_mults_with_cache(cache_length(policy, τ) − 1, …) and Σ
// decode_mults_without_cache(τ, …) over τ = 0 … t.
struct DecodeMults {
  long long with_cache = 0, without_cache = 0;
};
DecodeMults decode_mults_through(int t, int d_model, int d_k, int d_v, const CachePolicy& policy);

// Decodes Q (n×d_k), K (n×d_k), V (n×d_v) causally (options.causal is implied; options.mask, if
// n×n, and the window/sinks are ANDed in, and ALiBi's bias added, as for attend()). d_model is only
// used for the multiply counts (0 = direct); "with cache" counts the kept keys only.
DecodeResult decode_with_cache(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                               int d_model = 0, const CachePolicy& policy = {});

}  // namespace attn
