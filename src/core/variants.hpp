// variants.hpp — the attention variants of 2024–26 models, on top of the multi-head pass.
//
// Per head t (columns as in heads.hpp; K and V of group g(t) with grouped-query attention), each
// "map" from query rows q (n×d) and key rows k (n×d) goes through these stages, every one kept:
//   QK-norm (OLMo 2, Gemma 3, Qwen3):  q ← q / √(mean(q²) + ε) · gain_q, the same for k with gain_k
//   RoPE (when the scene has it) turns the normalised q, k
//   scores = q kᵀ,  scaled = scores / s
//   softcap (Gemma 2):                 capped = c · tanh(scaled / c)
//   ALiBi (when the scene has it):     logits = capped (or scaled) + B
//   mask M (causal, window/sinks, custom), then top-k (DeepSeek Sparse Attention's indexer, MoBA's
//   block top-k): each query keeps the k allowed keys with the highest selection score (the scaled
//   score, or the given indexer's), ties to the lower index; with topk_block = b the keys form
//   blocks of b, a block's score is the mean selection score of its allowed keys, and the k best
//   blocks' allowed keys are kept
//   softmax over the kept keys, with a sink logit z (gpt-oss; z = 0 is Miller's softmax-off-by-one):
//     a_ij = exp(x_ij) / (exp(z) + Σ_j' exp(x_ij')),  the sink's share exp(z) / (…) returns nothing
// Linear attention (Katharopoulos et al. 2020) replaces scores…softmax: φ(x) = elu(x) + 1,
//   scores = φ(q) φ(k)ᵀ (no scale), a_ij = scores_ij / Σ_j' scores_ij' over the allowed keys.
// Differential attention (Ye et al. 2024, arXiv 2410.05258): each head's q and k hold 2d columns,
//   the first d make map 1 and the last d map 2 (each divides by its own √d):
//   weights = A₁ − λ A₂ (can be negative), output = weights · V; with `diff_norm` each output row is
//   RMS-normalised (ε = 1e-5) and multiplied by (1 − λ_init), the paper's per-head normalisation.
// Then concat = [Y_0 | … | Y_{h−1}]; the gate (Qiu et al. 2025, arXiv 2505.06708) multiplies it by
//   σ(G) element-wise (G: n × concat columns) or head-wise (G: n × h, one column per head), and the
//   output is gated · W_o.
// Eigen only; inputs assumed valid (the scene layer validates, naming each key).
#pragma once

#include <memory>
#include <vector>

#include "core/heads.hpp"
#include "core/rope.hpp"

namespace attn {

struct Variants {
  std::vector<double> sink_logit;  // empty = no sink; one value for every head, or one per head
  double softcap = 0.0;            // c > 0; 0 = none
  bool qk_norm = false;
  double qk_eps = 1e-6;
  std::vector<double> gain_q, gain_k;  // the normalised vectors' size; empty = all ones
  int topk = 0;                        // k ≥ 1; 0 = every allowed key
  int topk_block = 0;                  // b ≥ 1: k counts blocks of b keys; 0 = single keys
  Matrix indexer;  // n×n selection scores shared by every head; empty = the scaled scores
  bool differential = false;
  double lambda = 0.0;
  bool diff_norm = false;
  double lambda_init = 0.8;
  Matrix gate;          // gate logits G: n × concat (element-wise) or n × h (head-wise); empty = no gate
  bool linear = false;  // φ = elu + 1 linear attention

  bool any() const {
    return !sink_logit.empty() || softcap != 0.0 || qk_norm || topk != 0 || differential ||
           gate.size() != 0 || linear;
  }
  double sink(int head) const {
    return sink_logit.size() == 1 ? sink_logit[0] : sink_logit[static_cast<std::size_t>(head)];
  }
};

// The stages a variant adds to one head (the head's attn::Result keeps the usual ones: Q, K, Q_rope,
// K_rope, scores, divisor, scaled, bias, logits = what softmax reads, allowed = the mask, weights,
// output, row_max, row_sum; with differential attention those are map 1's, weights are A₁ − λA₂).
struct VariantHead {
  Matrix Q_norm, K_norm;                   // QK-norm: the normalised rows (before RoPE); empty without
  Matrix capped;                           // softcap: c·tanh(scaled / c); empty without
  MaskMatrix selected;                     // top-k: the kept keys (a subset of allowed); empty without
  std::vector<double> sink_weight;         // sink: each row's share of the sink (n); empty without
  Matrix phi_q, phi_k;                     // linear: φ(q), φ(k); empty without
  Matrix weights_1;                        // differential: A₁ (map 1's softmax)
  std::vector<Result> second;              // differential: map 2's stages (one Result); empty without
  std::vector<VariantHead> second_stages;  // differential: map 2's own variant stages (one)
  Matrix diff_output;  // differential with norm: (A₁ − λA₂)V before the normalisation
};

struct MlaResult;  // below: multi-head latent attention's own stages

struct VariantStages {
  std::vector<VariantHead> heads;
  Matrix gate;          // G as given
  Matrix gate_sigmoid;  // σ(G)
  Matrix gated;         // concat ⊙ σ(G) (head-wise: each head's columns × its σ), what W_o maps
  // Multi-head latent attention (the scene key `mla`): the latent c, the decoupled RoPE key, the
  // absorbed form and the cache size; null for every other variant.
  std::shared_ptr<const MlaResult> mla;
};

// Every stage of the variant pass (see above). Q n×d_k, K n×d_k·H_kv/h, V n×d_v, Wo (concat × d_out)
// or empty, `options` the mask and scale (alibi_slope is set per head when `hv.alibi`), `rope` null
// for none. The result's `variant` holds the VariantStages.
HeadsResult attend_variants(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, const Matrix& Wo,
                            const Options& options, const HeadsOptions& hv, const Rope* rope,
                            const Variants& v);

// φ(x) = elu(x) + 1 = x + 1 for x > 0, exp(x) for x ≤ 0 (always > 0), element-wise.
Matrix elu1(const Matrix& x);

// The recurrent form of causal linear attention, token by token (Katharopoulos et al. 2020, §3.4):
//   S_t = S_{t−1} + φ(k_t) v_tᵀ (d×d_v),  z_t = z_{t−1} + φ(k_t),  y_t = φ(q_t)ᵀ S_t / φ(q_t)·z_t.
// The state (S, z) has a fixed size whatever t; the output equals the matrix form with a causal mask.
// `states` (optional) receives S_t for every t.
Matrix linear_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V,
                        std::vector<Matrix>* states = nullptr);

}  // namespace attn

namespace attn {

// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, §2.1), learned from X (n×d_model):
//   c = X W_dkv                  (n×d_c: the latent the cache keeps, one per token for every head)
//   k_t = c W_uk,t,  v_t = c W_uv,t           (head t's content keys d_nope and values d_v/h)
//   k_R = RoPE(X W_kr)           (n×d_rope: the decoupled RoPE key, shared by every head; cached too)
//   q_t = X W_q,t = [q_nope | q_R]            (d_nope + d_rope columns per head; q_R turned by RoPE)
//   weights_t = softmax((q_nope k_tᵀ + q_R k_Rᵀ) / √(d_nope + d_rope) + M),  Y_t = weights_t v_t
// The absorbed form folds W_uk into the query, q̃_t = q_nope W_uk,tᵀ (n×d_c), so the scores read the
// cache directly: q̃_t cᵀ + q_R k_Rᵀ — the same weights (to rounding), and Y_t = (weights_t c) W_uv,t.
// The cache holds d_c + d_rope numbers per token and layer, against 2·h·d_head for multi-head attention.
struct MlaWeights {
  Matrix W_q;    // d_model × h·(d_nope + d_rope)
  Matrix W_dkv;  // d_model × d_c
  Matrix W_uk;   // d_c × h·d_nope
  Matrix W_uv;   // d_c × h·d_vh
  Matrix W_kr;   // d_model × d_rope (empty: no decoupled RoPE part, d_rope = 0)
};

struct MlaResult {
  Matrix c_kv;                            // n×d_c
  Matrix k_rope;                          // n×d_rope, turned (empty without W_kr)
  std::vector<Matrix> scores;             // per head, n×n: q_nope k_tᵀ + q_R k_Rᵀ (before the scale)
  std::vector<Matrix> weights;            // per head, n×n
  std::vector<Matrix> absorbed_scores;    // per head, the absorbed form's q̃ cᵀ + q_R k_Rᵀ
  std::vector<Matrix> absorbed_weights;   // per head, from the absorbed scores
  Matrix output;                          // n × h·d_vh: [Y_0 | … | Y_{h−1}]
  Matrix absorbed_output;                 // the same from (weights c) W_uv
  long long cache_numbers_per_token = 0;  // d_c + d_rope (one layer)
};

// Empty or a sentence naming the bad matrix (shapes above; d_rope even for RoPE).
std::string check_mla(const Matrix& X, const MlaWeights& w, int heads);
// `rope` null: k_R and q_R are not turned (RoPE off); options: the mask and scale (√(d_nope + d_rope)
// under ScaleMode::SqrtDk).
MlaResult attend_mla(const Matrix& X, const MlaWeights& w, int heads, const Rope* rope,
                     const Options& options);

}  // namespace attn
