// attention.hpp — the math core of Attention Lab.
//
//   Y = softmax( Q Kᵀ / s + B + M ) V
//
// B is ALiBi's position bias (Press et al. 2022; 0 unless Options::alibi_slope is set) and M the
// mask: 0 where query i may see key j, −∞ where it may not (causal, a sliding window with sinks,
// a custom 0/1 mask, all ANDed).
// with every intermediate stage kept, because those stages are exactly what a learner looks at.
// Eigen only: no GL, no ImGui, no I/O. Inputs are assumed valid (shapes agree, numbers finite);
// `check_inputs` says what is wrong when they are not. The scene layer validates user input.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace attn {

// Row-major so that a matrix's data() is the same layout as JSON rows and GL textures.
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// n×n, 1 = token i may attend to token j, 0 = hidden.
using MaskMatrix = Eigen::Matrix<unsigned char, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// How raw scores are divided before softmax.
enum class ScaleMode {
  None,         // s = 1           (the NumPy lesson)
  SqrtDk,       // s = √d_k        (the PyTorch lesson, "Attention Is All You Need")
  Temperature,  // s = temperature (any positive number; small = sharp, large = flat)
};

struct Scale {
  ScaleMode mode = ScaleMode::SqrtDk;
  double temperature = 1.0;  // used only when mode == Temperature; must be > 0
};

struct Options {
  Scale scale;
  bool causal = false;  // token i sees tokens 0..i only (lower-triangular mask)
  MaskMatrix mask;      // optional custom n×n allowed-mask; empty = all allowed. ANDed with causal.
  // Sliding window of width w (0 = none): key j is visible from query i when 0 ≤ i − j < w with
  // causal, |i − j| < w without (Longformer, Mistral). Sink tokens: keys j < sinks stay visible
  // whatever the window (StreamingLLM, Xiao et al. 2023); causal and the custom mask still apply.
  int window = 0;
  int sinks = 0;
  // ALiBi (Press et al. 2022): B(i, j) = −m·|i − j| added to the scaled scores, m = this slope
  // (head h of H uses 2^(−8h/H), core/alibi.hpp); 0 = no bias.
  double alibi_slope = 0.0;
};

// Every stage of one attention pass. Shapes for n tokens:
struct Result {
  Matrix Q;                      // n×d_k  queries
  Matrix K;                      // n×d_k  keys
  Matrix Q_rope, K_rope;         // n×d_k  Q, K turned by RoPE when the scene asks for it (the scores
                                 //        use these); empty otherwise
  Matrix V;                      // n×d_v  values
  Matrix scores;                 // n×n    raw scores  QKᵀ,  scores(i,j) = q_i · k_j
  double divisor = 1.0;          //        s: 1, √d_k or the temperature
  Matrix scaled;                 // n×n    scores / s (finite; masked cells keep their value here)
  Matrix bias;                   // n×n    ALiBi's B(i,j) = −m·|i − j|; empty without ALiBi
  Matrix logits;                 // n×n    scaled + B, what softmax sees before M (finite); empty
                                 //        without ALiBi (softmax then reads scaled)
  MaskMatrix allowed;            // n×n    1 = attended, 0 = masked (causal AND window/sinks AND custom)
  Matrix weights;                // n×n    A = row-softmax(scaled + B + M); masked cells exactly 0
  Matrix output;                 // n×d_v  Y = A V
  std::vector<int> masked_rows;  //        rows with no allowed cell: weights and output all 0
  std::vector<double> row_max;   // n      m_i = max over allowed j of x(i,j)   (0 if masked), where
                                 //        x = logits with ALiBi, scaled without
  std::vector<double> row_sum;   // n      Σ_j exp(x(i,j) − m_i) over allowed j (0 if masked)
                                 //        so weights(i,j) = exp(x(i,j) − m_i) / row_sum_i
  // The logits softmax reads: scaled + B with ALiBi, scaled without.
  const Matrix& softmax_input() const { return logits.size() ? logits : scaled; }
};

// The divisor s for a given scale mode and key dimension d_k.
double scale_divisor(const Scale& scale, int d_k);

// The allowed-mask: causal (j ≤ i) AND window/sinks (when window > 0) AND custom (when non-empty).
// n×n.
MaskMatrix allowed_mask(int n, const Options& options);

// Whether the window and sinks let query i see key j (causal is applied apart):
//   window = 0 → always;  j < sinks → always;  causal → 0 ≤ i − j < window;  else |i − j| < window.
bool window_allows(int query_i, int key_j, int window, int sinks, bool causal);

// Numerically stable softmax of each row over the allowed cells:
//   a_ij = exp(s_ij − max_j' s_ij') / Σ_j' exp(s_ij' − max)   for allowed j, 0 otherwise.
// A row with no allowed cell becomes all zeros and its index is appended to `masked_rows`.
// Never produces NaN or Inf for finite input.
Matrix masked_softmax(const Matrix& scaled, const MaskMatrix& allowed, std::vector<int>* masked_rows);
// The output softmax(x) V (x: rows × m softmax inputs, allowed rows × m, V m × d_v) summed in the full
// pass's order (blocks of keys, then / Σ), so a row of it equals the full pass's row with those
// inputs bit for bit (a decode step placing its cached keys at their positions).
Matrix blend_values(const Matrix& x, const MaskMatrix& allowed, const Matrix& V);

// Empty string when Q (n×d_k), K (n×d_k), V (n×d_v) and the options fit together and every number is
// finite (window, sinks ≥ 0; the ALiBi slope finite and ≥ 0); otherwise a sentence naming what is wrong.
std::string check_inputs(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);

// Direct mode: attention over given Q, K, V.
Result attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);

// Learned (projected) mode: Q = X W_q, K = X W_k, V = X W_v, then attend.
//   X (n×d_model), W_q and W_k (d_model×d_k), W_v (d_model×d_v).
Result attend_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                        const Options& options);

}  // namespace attn
