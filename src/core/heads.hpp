// heads.hpp — multi-head attention: split the columns, attend per head, concatenate, map by W_o.
//
//   head t (t = 0 … h−1) uses columns [t·d_k/h, (t+1)·d_k/h) of Q and K and
//   [t·d_v/h, (t+1)·d_v/h) of V:
//     Y_t    = softmax(Q_t K_tᵀ / s + M) V_t          (one single-head pass, attn::attend)
//     concat = [Y_0 | … | Y_{h−1}]                      n×d_v
//     output = concat · W_o   (W_o: d_v×d_out; output = concat when W_o is empty)
//
// Under ScaleMode::SqrtDk each head divides by √(d_k/h), its own key size — exactly what
// torch.nn.MultiheadAttention does. The mask (causal AND window/sinks AND custom) applies to every
// head; a fully masked row is all-zero in every head, so in the concat and the output too.
//
// Two variants (HeadsOptions):
//   grouped-query attention (GQA, Ainslie et al. 2023; H_kv = 1 is multi-query, Shazeer 2019):
//     K and V have H_kv groups of columns, d_k/h and d_v' = V.cols()/H_kv each, and head t uses
//     group g(t) = ⌊t / (H / H_kv)⌋ — the order of torch.repeat_interleave(K_groups, H / H_kv):
//       Y_t = softmax(Q_t K_g(t)ᵀ / s + M) V_g(t)       concat: n × H·d_v'
//     H_kv = H is ordinary multi-head attention, bit for bit.
//   ALiBi (core/alibi.hpp): head t adds B_t(i, j) = −m_t·|i − j|, m_t = 2^(−8(t+1)/H).
// Eigen only, like attention.hpp; inputs are assumed valid (check_heads says what is wrong).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/attention.hpp"

namespace attn {

struct VariantStages;  // core/variants.hpp

// Every stage of a multi-head pass, n tokens, h heads.
// The multi-head variants; the defaults are plain multi-head attention.
struct HeadsOptions {
  int kv_heads = 0;    // H_kv: divides H; K, V have H_kv groups of columns. 0 = H (one per head)
  bool alibi = false;  // each head adds its ALiBi bias (Options::alibi_slope is then per head)
};

struct HeadsResult {
  Matrix Q, K, V;                // n×d_k, n×(d_k·H_kv/H), n×d_v   the full matrices (before the split)
  Matrix Q_rope, K_rope;         // n×d_k    Q, K turned by RoPE per head when the scene asks for it
  int kv_heads = 0;              //          H_kv (0: one K/V per head, plain multi-head attention)
  std::vector<Result> heads;     // h single-head passes: Q_t, K_t n×(d_k/h), V_t n×(d_v/H_kv), scores_t,
                                 //   scaled_t, bias_t (ALiBi), allowed, weights A_t (n×n), output Y_t
  Matrix concat;                 // n×(h·d_v/H_kv)    [Y_0 | … | Y_{h−1}]
  Matrix Wo;                     // d_v×d_out the output map as given; empty = none
  Matrix weights_mean;           // n×n      (A_0 + … + A_{h−1}) / h  (PyTorch's averaged weights)
  Matrix output;                 // n×d_out  concat · W_o, or concat (d_out = d_v) without W_o
  MaskMatrix allowed;            // n×n      the mask every head applied
  std::vector<int> masked_rows;  //          rows with no allowed cell (the same in every head)
  // The stages a variant scene adds (sink, softcap, QK-norm, top-k, differential, gate, linear:
  // core/variants.hpp); null for every other scene.
#if AL_ALL_MODES  // the web's first load computes no variant (scene/variant_keys.hpp)
  std::shared_ptr<const VariantStages> variant;
#endif
};

// Empty when h ≥ 1 divides Q's and V's column counts and W_o (if not empty) has d_v rows;
// otherwise a sentence naming what is wrong.
std::string check_heads(const Matrix& Q, const Matrix& V, int heads, const Matrix& Wo);

// The same for grouped-query attention: H_kv divides h, K has d_k·H_kv/h columns, H_kv divides V's
// columns, and W_o (if not empty) has h·V.cols()/H_kv rows (the concat's width).
std::string check_grouped_heads(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, int kv_heads,
                                const Matrix& Wo);

// The K/V group head t of h uses with H_kv groups: ⌊t / (h / H_kv)⌋.
int kv_group(int head, int heads, int kv_heads);

// Direct mode: h heads over given Q (n×d_k), K (n×d_k·H_kv/h), V (n×d_v); W_o (h·d_v/H_kv)×d_out or
// empty. With h = 1 and no W_o, heads[0] is attend(Q, K, V, options) and output is its output, bit
// for bit (with ALiBi, slope 2^−8).
HeadsResult attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, const Matrix& Wo,
                         const Options& options, const HeadsOptions& variants = {});

// A single-head pass as a one-head result: heads = {single}, concat = its output, output = concat · W_o
// (or concat when W_o is empty).
HeadsResult one_head(Result single, const Matrix& Wo);

// Projected mode: Q = X W_q, K = X W_k, V = X W_v (as attend_projected), then attend_heads.
// This is nn.MultiheadAttention(d_model, h, bias=False) with W_q, W_k, W_v the transposed blocks of
// its in_proj_weight and W_o its out_proj.weight transposed.
HeadsResult attend_heads_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                                   int heads, const Matrix& Wo, const Options& options,
                                   const HeadsOptions& variants = {});

}  // namespace attn
