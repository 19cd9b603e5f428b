// model.hpp — a small transformer: the attention-only model of the induction-head papers (Elhage et
// al. 2021; Olsson et al. 2022) and, with optional weights, GPT-2's pre-LayerNorm decoder block;
// every stage kept per layer and head, and its exact backward pass.
//
// Shapes: V symbols, n ≤ n_ctx tokens t_0 … t_{n−1}, d_model = D, L layers of H heads,
// d_head = D / H, d_mlp = M. Weights use TransformerLens's names and its row-vector convention (x W):
//   W_E    V×D       token embedding          W_pos  n_ctx×D   learned position embedding
//   W_Q^{l,h}, W_K^{l,h}, W_V^{l,h}  D×d_head   W_O^{l,h}  d_head×D      W_U  D×V  unembedding
// Optional (an empty matrix = absent; all absent = the attention-only model, computed as before):
//   b_Q, b_K, b_V  1×d_head per head      b_O  1×D per layer            b_U  1×V
//   ln1, ln2 {w, b}  1×D per layer        ln_final {w, b}  1×D
//   mlp {W_in D×M, b_in 1×M, W_out M×D, b_out 1×D} per layer
// Forward:
//   x⁰_i = W_E[t_i] + W_pos[i]                                                          n×D
//   for each layer l:
//     resid_pre = x^l;   a = LN1(x^l)   (a = x^l without ln1)
//     for each head h (reading the same a):
//       q = a W_Q + b_Q,  k = a W_K + b_K,  v = a W_V + b_V                              n×d_head
//       S[i,j] = q_i · k_j / √d_head  for j ≤ i  (above the diagonal: 0, never computed)   n×n
//       A[i,j] = exp(S[i,j] − m_i) / Σ_{j'≤i} exp(S[i,j'] − m_i),  m_i = max_{j≤i} S[i,j];  A[i,j>i] = 0
//       z = A v   (n×d_head),   out = z W_O   (n×D; all zero when the head is ablated)
//     resid_mid = ((x^l + out^{l,0}) + out^{l,1}) + … + b_O   (heads added in order, then b_O)
//     attn_out  = out^{l,0} + out^{l,1} + … + b_O              (the stage shown; resid_mid − resid_pre)
//     with an MLP: mlp_pre = LN2(resid_mid) W_in + b_in,  mlp_post = GELU(mlp_pre),
//                  resid_post = resid_mid + (mlp_post W_out + b_out);   without: resid_post = resid_mid
//     x^{l+1} = resid_post
//   logits = LNf(x^L) W_U + b_U                                                          n×V
// LN(x) = (x − μ) / √(σ² + ε) · w + b per row, μ and σ² (biased) over its D entries, ε = 1e-5
// (torch.nn.LayerNorm). GELU is GPT-2's tanh form, 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
// (torch.nn.functional.gelu(x, approximate="tanh")).
// Loss: next-token cross-entropy, L = (1/(n−1)) Σ_{i=0}^{n−2} −log softmax(logits_i)[t_{i+1}]
// (n = 1: nothing is predicted, L = 0).
//
// Determinism: every product sums its inner index in ascending order starting from 0 (an i-k-j loop
// whose innermost j loop the compiler may vectorize without changing any element's order of
// additions), exp/log/tanh are exact_exp / exact_log / exact_tanh (core/backward.hpp, here), sqrt is
// IEEE-exact, and the core is compiled with -ffp-contract=off: the same model and tokens give the
// same bits natively and in WebAssembly. Every row is computed by itself (no product mixes rows in
// another order), so one row computed alone (decode_step) equals that row of forward() bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/attention.hpp"

namespace attn::model {

// Sizes the attention-only model accepts (the Circuits mode and the CLI): small enough to train in a
// browser frame.
constexpr int kMaxLayers = 3;
constexpr int kMaxHeads = 4;
constexpr int kMaxModelDim = 128;
constexpr int kMaxContext = 128;
constexpr int kMaxVocab = 128;
// Sizes a model with any GPT key (LayerNorm, MLP, biases, a tokenizer) accepts: a real language
// model that still runs a forward pass in a browser frame. d_mlp ≤ 4·D.
constexpr int kMaxLmLayers = 6;
constexpr int kMaxLmHeads = 8;
constexpr int kMaxLmModelDim = 256;
constexpr int kMaxLmContext = 256;
constexpr int kMaxLmVocab = 1024;
constexpr double kLayerNormEps = 1e-5;

struct Head {
  Matrix W_Q, W_K, W_V;  // D×d_head
  Matrix W_O;            // d_head×D
  Matrix b_Q, b_K, b_V;  // 1×d_head each, or empty (no bias)
};
// A LayerNorm's gain and bias (1×D each), or both empty (no LayerNorm: the identity).
struct Norm {
  Matrix w, b;
  bool present() const { return w.size() > 0; }
};
// The MLP: W_in D×M, b_in 1×M (or empty), W_out M×D, b_out 1×D (or empty); all empty = no MLP.
struct Mlp {
  Matrix W_in, b_in, W_out, b_out;
  bool present() const { return W_in.size() > 0; }
};
struct Layer {
  std::vector<Head> heads;
  Matrix b_O;  // 1×D, or empty
  Norm ln1, ln2;
  Mlp mlp;
};

struct Model {
  std::vector<std::string> vocab;  // V symbols (the letters, space and '.' by default)
  Matrix W_E;                      // V×D
  Matrix W_pos;                    // n_ctx×D
  std::vector<Layer> layers;       // L layers of H heads each
  Matrix W_U;                      // D×V
  Norm ln_final;                   // before W_U, or absent
  Matrix b_U;                      // 1×V, or empty

  int n_vocab() const { return static_cast<int>(W_E.rows()); }
  int n_ctx() const { return static_cast<int>(W_pos.rows()); }
  int d_model() const { return static_cast<int>(W_E.cols()); }
  int n_layers() const { return static_cast<int>(layers.size()); }
  int n_heads() const { return layers.empty() ? 0 : static_cast<int>(layers.front().heads.size()); }
  int d_head() const { return n_heads() ? d_model() / n_heads() : 0; }
  int d_mlp() const {
    return layers.empty() || !layers.front().mlp.present() ? 0
                                                           : static_cast<int>(layers.front().mlp.W_in.cols());
  }
  // Any of the GPT block's weights (the attention-only model has none).
  bool is_gpt() const;
};

// Which heads are switched off: off[l][h] = true → that head's output is zero (zero ablation);
// mean[l][h] = true → each row of its output is the mean of its output's rows over the text,
// out_i = (1/n) Σ_j (z W_O)_j, summed over j in ascending order (mean ablation: the head keeps its
// average contribution and loses what depends on the position). off wins when both are set.
// backward() and the Decoder know zero ablation only (a mean needs the whole text).
struct Ablation {
  std::vector<std::vector<bool>> off;
  std::vector<std::vector<bool>> mean;
  bool is_off(int layer, int head) const { return at(off, layer, head); }
  bool is_mean(int layer, int head) const { return !is_off(layer, head) && at(mean, layer, head); }
  bool any_mean() const {
    for (const std::vector<bool>& row : mean)
      for (bool b : row)
        if (b) return true;
    return false;
  }

 private:
  static bool at(const std::vector<std::vector<bool>>& v, int layer, int head) {
    return layer >= 0 && head >= 0 && layer < static_cast<int>(v.size()) &&
           head < static_cast<int>(v[static_cast<std::size_t>(layer)].size()) &&
           v[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
  }
};

struct Dims {
  int vocab = 28, n_ctx = 32, d_model = 32, layers = 2, heads = 2;
};
// "" when the sizes are usable; else "<field>: <reason>" (layers 1–3, heads 1–4 dividing d_model, …).
std::string check_dims(const Dims& dims);
// "a" … "z", " ", "." (28 symbols); fewer when vocab < 28 (the first `vocab` of them), and beyond 28
// the symbols "s28", "s29", …
std::vector<std::string> default_vocab(int vocab);

// Seeded uniform initialization (our splitmix64, so the same bits everywhere):
//   W_E, W_pos ~ U(−1, 1) · 1/√D · ½      (so that ‖x⁰_i‖ ≈ √D · 0.4)
//   W_Q, W_K, W_V ~ U(−1, 1)/√D,  W_O ~ U(−1, 1)/√d_head,  W_U ~ U(−1, 1)/√D     (nn.Linear's bound)
// drawn in this order: W_E, W_pos, then layer by layer, head by head W_Q, W_K, W_V, W_O, then W_U.
Model init_model(const Dims& dims, std::uint64_t seed);
// The same shapes, every entry 0 (a gradient accumulator, Adam's moments).
Model zeros_like(const Model& m);

// The stages of one head on one sequence.
struct HeadStages {
  Matrix q, k, v;             // n×d_head
  Matrix scores;              // n×n   q_i · k_j / √d_head (upper triangle 0: masked, never computed)
  Matrix weights;             // n×n   A, causal row-softmax (upper triangle exactly 0; masked cells 0 too)
  Matrix z;                   // n×d_head  A v
  Matrix out;                 // n×D   z W_O, or zero when ablated, or its rows' mean when mean-ablated
  bool ablated = false;       // zero ablation
  bool mean_ablated = false;  // mean ablation
};
// A LayerNorm's kept values for the backward pass: x̂ = (x − μ) · rstd (n×D), rstd = 1/√(σ² + ε) (n×1).
struct NormStages {
  Matrix xhat, rstd;
};
struct LayerStages {
  Matrix resid_pre;  // n×D  x^l
  Matrix ln1;        // n×D  LN1(x^l), what every head of the layer reads (= resid_pre without ln1)
  NormStages ln1_kept;
  std::vector<HeadStages> heads;
  Matrix attn_out;   // n×D  Σ_h out^{l,h} + b_O
  Matrix resid_mid;  // n×D
  Matrix ln2;        // n×D  LN2(resid_mid) (empty without an MLP)
  NormStages ln2_kept;
  Matrix mlp_pre;     // n×M  (empty without an MLP)
  Matrix mlp_post;    // n×M  GELU(mlp_pre)
  Matrix mlp_out;     // n×D  mlp_post W_out + b_out
  Matrix resid_post;  // n×D  x^{l+1}
};
struct Forward {
  std::vector<int> tokens;  // n
  std::vector<LayerStages> layers;
  Matrix resid_final;  // n×D  x^L
  Matrix ln_final;     // n×D  LNf(x^L) (= resid_final without ln_final)
  NormStages ln_final_kept;
  Matrix logits;  // n×V
};

// A head's q, k or v replaced by given numbers (n×d_head) in place of a W_Q + b_Q etc.: what a learner
// dragged in the opened head. The rest of the pass reads them as if the head had computed them.
// which = 'm' is a mask instead (n×n, 1 = the key may be attended, 0 = masked), ANDed with the
// causal mask: the head's softmax runs over the cells both allow, a row with none gets weights 0
// (as the attention core's fully masked row) and z = 0 there — what a learner's mask click does.
struct HeadOverride {
  int layer = 0, head = 0;
  char which = 'q';  // 'q', 'k', 'v' or 'm'
  Matrix values;     // n×d_head (q, k, v) or n×n of 0/1 (m)
};

// Tokens must be in 0 … V−1 and 1 ≤ n ≤ n_ctx (the scene layer checks user input); overrides'
// shapes n×d_head and their layer/head in range (the callers check them).
Forward forward(const Model& m, const std::vector<int>& tokens, const Ablation& ablation = {},
                const std::vector<HeadOverride>& overrides = {});

// forward() on `tokens` again, reusing the rows of `prev` (a forward() of the same model with the
// same ablation and no overrides) before the first position where prev.tokens and `tokens` differ:
// in a causal model row i of every stage reads rows 0 … i only, so those rows are unchanged, and only
// rows ≥ that position are computed (each in forward()'s order of operations). The result equals
// forward(m, tokens, ablation) bit for bit. With a mean ablation (a mean over every row) or a `prev`
// of another shape, it is that full forward().
Forward forward_reusing(const Model& m, const Forward& prev, const std::vector<int>& tokens,
                        const Ablation& ablation = {});
// How many leading positions forward_reusing() can keep: the length of the common prefix of the two
// token lists.
int common_prefix(const std::vector<int>& a, const std::vector<int>& b);

struct TokenLoss {
  double value = 0.0;             // mean over the n−1 predictions (0 when n = 1)
  std::vector<double> per_token;  // n−1 values: −log p(t_{i+1} | t_0 … t_i) for i = 0 … n−2
  Matrix d_logits;                // n×V  (softmax(logits_i) − e_{t_{i+1}}) / (n−1); row n−1: 0
};
TokenLoss next_token_loss(const Matrix& logits, const std::vector<int>& tokens);

// Adds scale · ∂L/∂(every weight) into `grads` (shaped as the model, e.g. zeros_like), walking back
// from d_logits = ∂L/∂logits through the kept stages `f`:
//   ∂W_U = x^Lᵀ ∂logits,   ∂x^L = ∂logits W_Uᵀ
//   layer by layer from the top, g = ∂x^{l+1}; ∂x^l = g (the residual path), and for every head
//   that is not ablated:
//     ∂W_O = zᵀ g,  ∂z = g W_Oᵀ,  ∂A = ∂z vᵀ,  ∂v = Aᵀ ∂z
//     ∂S[i,j] = A[i,j] (∂A[i,j] − Σ_j' A[i,j'] ∂A[i,j'])          (0 above the diagonal: A = 0 there)
//     ∂q = ∂S k / √d_head,  ∂k = ∂Sᵀ q / √d_head
//     ∂W_Q = x^lᵀ ∂q,  ∂W_K = x^lᵀ ∂k,  ∂W_V = x^lᵀ ∂v,  ∂x^l += ∂q W_Qᵀ + ∂k W_Kᵀ + ∂v W_Vᵀ
//   ∂W_E[t_i] += ∂x⁰_i,  ∂W_pos[i] += ∂x⁰_i
// (ablated heads get no gradient: their output is a constant 0).
void backward(const Model& m, const Forward& f, const Matrix& d_logits, Model& grads);

// Every weight matrix of the model that is present, in a fixed order: W_E, W_pos, per layer
// [ln1.w, ln1.b], per head W_Q, [b_Q], W_K, [b_K], W_V, [b_V], W_O, then [b_O], [ln2.w, ln2.b],
// [mlp.W_in, mlp.b_in, mlp.W_out, mlp.b_out], then [ln_final.w, ln_final.b], W_U, [b_U] (the
// attention-only model: W_E, W_pos, per head W_Q, W_K, W_V, W_O, W_U, as before): what the optimizer
// and the hashes walk over.
std::vector<Matrix*> weights_of(Model& m);
std::vector<const Matrix*> weights_of(const Model& m);
// The same list with each weight's name in the JSON contract: "W_E", "layers[0].heads[1].b_Q",
// "layers[0].ln1.w", "layers[0].mlp.W_in", "ln_final.b", "b_U".
std::vector<std::pair<std::string, const Matrix*>> named_weights(const Model& m);
std::size_t weight_count(const Model& m);  // the number of entries of every weight

// The logit lens (nostalgebraist 2020): after each layer l, what the model would predict if it stopped
// there, logits_l = LNf(resid_post_l) W_U + b_U (n×V), one matrix per layer (the last = f.logits).
// With from > 0, only positions from … n−1 (row r of each matrix = position from + r; the same bits
// as those rows of the whole lens): the Model mode shows the last few positions only.
std::vector<Matrix> logit_lens(const Model& m, const Forward& f, int from = 0);

// GPT-2's GELU (tanh form) and its derivative; tanh through exact_exp (same bits everywhere).
double exact_tanh(double x);
double gelu_tanh(double x);
double gelu_tanh_grad(double x);

// Generation with a KV cache: the keys and values of the tokens read so far, per layer and head, so
// each new token costs one row of every stage. step() returns the new token's logits (1×V), equal
// bit for bit to the last row of forward() on the same tokens.
class Decoder {
 public:
  explicit Decoder(const Model& m, const Ablation& ablation = {});
  Matrix step(int token);  // token in 0 … V−1; at most n_ctx tokens in all
  int length() const { return n_; }
  void reset() { n_ = 0; }

 private:
  const Model* m_;
  Ablation ablation_;
  int n_ = 0;
  std::vector<std::vector<Matrix>> k_, v_;  // [layer][head] n_ctx×d_head, the first n_ rows filled
};

// The symbols → token ids, each step taking the longest vocabulary symbol that matches. On a symbol
// that is not in the vocabulary: an empty result and *error = "text: "…" at byte 3 is not in the
// vocabulary (a … z, space, .)".
std::vector<int> tokenize(const Model& m, const std::string& text, std::string* error);

}  // namespace attn::model
