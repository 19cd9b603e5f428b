// attention.hpp — the math core of Attention Lab.
//
//   Y = softmax( Q Kᵀ / s + M ) V
//
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
  MaskMatrix allowed;            // n×n    1 = attended, 0 = masked (causal AND custom)
  Matrix weights;                // n×n    A = row-softmax(scaled + M); masked cells exactly 0
  Matrix output;                 // n×d_v  Y = A V
  std::vector<int> masked_rows;  //        rows with no allowed cell: weights and output all 0
  std::vector<double> row_max;   // n      m_i = max over allowed j of scaled(i,j)   (0 if masked)
  std::vector<double> row_sum;   // n      Σ_j exp(scaled(i,j) − m_i) over allowed j (0 if masked)
                                 //        so weights(i,j) = exp(scaled(i,j) − m_i) / row_sum_i
};

// The divisor s for a given scale mode and key dimension d_k.
double scale_divisor(const Scale& scale, int d_k);

// The allowed-mask: causal (j ≤ i) AND custom (when non-empty). n×n.
MaskMatrix allowed_mask(int n, const Options& options);

// Numerically stable softmax of each row over the allowed cells:
//   a_ij = exp(s_ij − max_j' s_ij') / Σ_j' exp(s_ij' − max)   for allowed j, 0 otherwise.
// A row with no allowed cell becomes all zeros and its index is appended to `masked_rows`.
// Never produces NaN or Inf for finite input.
Matrix masked_softmax(const Matrix& scaled, const MaskMatrix& allowed, std::vector<int>* masked_rows);

// Empty string when Q (n×d_k), K (n×d_k), V (n×d_v) and the options fit together and every number is
// finite; otherwise a sentence naming what is wrong.
std::string check_inputs(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);

// Direct mode: attention over given Q, K, V.
Result attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);

// Learned (projected) mode: Q = X W_q, K = X W_k, V = X W_v, then attend.
//   X (n×d_model), W_q and W_k (d_model×d_k), W_v (d_model×d_v).
Result attend_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                        const Options& options);

}  // namespace attn
