// model.hpp — a small attention-only transformer (Elhage et al. 2021; Olsson et al. 2022), every
// stage kept per layer and head, and its exact backward pass.
//
// Shapes: V symbols, n ≤ n_ctx tokens t_0 … t_{n−1}, d_model = D, L layers of H heads,
// d_head = D / H. Weights use TransformerLens's names and its row-vector convention (x W):
//   W_E    V×D       token embedding          W_pos  n_ctx×D   learned position embedding
//   W_Q^{l,h}, W_K^{l,h}, W_V^{l,h}  D×d_head   W_O^{l,h}  d_head×D      W_U  D×V  unembedding
// Forward (no MLP, no LayerNorm, no biases: the papers' attention-only models):
//   x⁰_i = W_E[t_i] + W_pos[i]                                                          n×D
//   for each layer l, each head h (reading the same x^l):
//     q = x^l W_Q,  k = x^l W_K,  v = x^l W_V                                            n×d_head
//     S[i,j] = q_i · k_j / √d_head  for j ≤ i  (above the diagonal: 0, never computed)     n×n
//     A[i,j] = exp(S[i,j] − m_i) / Σ_{j'≤i} exp(S[i,j'] − m_i),  m_i = max_{j≤i} S[i,j];  A[i,j>i] = 0
//     z = A v   (n×d_head),   out = z W_O   (n×D; all zero when the head is ablated)
//   x^{l+1} = x^l + out^{l,0} + out^{l,1} + …   (added in this order, head 0 first)
//   logits = x^L W_U                                                                   n×V
// Loss: next-token cross-entropy, L = (1/(n−1)) Σ_{i=0}^{n−2} −log softmax(logits_i)[t_{i+1}]
// (n = 1: nothing is predicted, L = 0).
//
// Determinism: every product sums its inner index in ascending order starting from 0 (an i-k-j loop
// whose innermost j loop the compiler may vectorize without changing any element's order of
// additions), exp/log are exact_exp / exact_log (core/backward.hpp), sqrt is IEEE-exact, and the
// core is compiled with -ffp-contract=off: the same model and tokens give the same bits natively and
// in WebAssembly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.hpp"

namespace attn::model {

// Sizes the model accepts (the Circuits mode and the CLI): small enough to train in a browser frame.
constexpr int kMaxLayers = 3;
constexpr int kMaxHeads = 4;
constexpr int kMaxModelDim = 128;
constexpr int kMaxContext = 128;
constexpr int kMaxVocab = 128;

struct Head {
  Matrix W_Q, W_K, W_V;  // D×d_head
  Matrix W_O;            // d_head×D
};
struct Layer {
  std::vector<Head> heads;
};

struct Model {
  std::vector<std::string> vocab;  // V symbols (the letters, space and '.' by default)
  Matrix W_E;                      // V×D
  Matrix W_pos;                    // n_ctx×D
  std::vector<Layer> layers;       // L layers of H heads each
  Matrix W_U;                      // D×V

  int n_vocab() const { return static_cast<int>(W_E.rows()); }
  int n_ctx() const { return static_cast<int>(W_pos.rows()); }
  int d_model() const { return static_cast<int>(W_E.cols()); }
  int n_layers() const { return static_cast<int>(layers.size()); }
  int n_heads() const { return layers.empty() ? 0 : static_cast<int>(layers.front().heads.size()); }
  int d_head() const { return n_heads() ? d_model() / n_heads() : 0; }
};

// Which heads are switched off: off[l][h] = true → that head's output is zero.
struct Ablation {
  std::vector<std::vector<bool>> off;
  bool is_off(int layer, int head) const {
    return layer < static_cast<int>(off.size()) && head < static_cast<int>(off[layer].size()) &&
           off[layer][head];
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
  Matrix q, k, v;  // n×d_head
  Matrix scores;   // n×n   q_i · k_j / √d_head (upper triangle 0: masked, never computed)
  Matrix weights;  // n×n   A, causal row-softmax (upper triangle exactly 0)
  Matrix z;        // n×d_head  A v
  Matrix out;      // n×D   z W_O, or zero when ablated
  bool ablated = false;
};
struct LayerStages {
  Matrix resid_pre;  // n×D  x^l, what every head of the layer reads
  std::vector<HeadStages> heads;
};
struct Forward {
  std::vector<int> tokens;  // n
  std::vector<LayerStages> layers;
  Matrix resid_final;  // n×D  x^L
  Matrix logits;       // n×V
};

// Tokens must be in 0 … V−1 and 1 ≤ n ≤ n_ctx (the scene layer checks user input).
Forward forward(const Model& m, const std::vector<int>& tokens, const Ablation& ablation = {});

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

// Every weight matrix of the model in a fixed order (W_E, W_pos, per layer per head W_Q, W_K, W_V,
// W_O, W_U): what the optimizer and the hashes walk over.
std::vector<Matrix*> weights_of(Model& m);
std::vector<const Matrix*> weights_of(const Model& m);

// The symbols → token ids, each step taking the longest vocabulary symbol that matches. On a symbol
// that is not in the vocabulary: an empty result and *error = "text: "…" at byte 3 is not in the
// vocabulary (a … z, space, .)".
std::vector<int> tokenize(const Model& m, const std::string& text, std::string* error);

}  // namespace attn::model
