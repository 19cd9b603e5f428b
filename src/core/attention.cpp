// attention.cpp — softmax(QKᵀ / s + M) V, one numbered pass per stage (see attention.hpp).
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/products.hpp"

namespace attn {
namespace {

constexpr double kMaxFinite = std::numeric_limits<double>::max();

// Dot products of huge vectors can overflow to ±Inf; clamp so softmax stays finite.
// Inf − Inf inside a dot product gives NaN; the two infinities cancel, so 0 is the fair value.
double clamp_finite(double x) {
  if (std::isnan(x)) return 0.0;
  return std::clamp(x, -kMaxFinite, kMaxFinite);
}

const auto kClamp = [](double x) { return clamp_finite(x); };

}  // namespace

double scale_divisor(const Scale& scale, int d_k) {
  switch (scale.mode) {
    case ScaleMode::None:
      return 1.0;
    case ScaleMode::SqrtDk:
      return std::sqrt(static_cast<double>(std::max(d_k, 1)));
    case ScaleMode::Temperature:
      return scale.temperature;
  }
  return 1.0;
}

MaskMatrix allowed_mask(int n, const Options& options) {
  MaskMatrix allowed = MaskMatrix::Ones(n, n);
  const bool custom = options.mask.rows() == n && options.mask.cols() == n;
  for (int query_i = 0; query_i < n; ++query_i) {
    for (int key_j = 0; key_j < n; ++key_j) {
      const bool future = options.causal && key_j > query_i;
      const bool hidden = custom && options.mask(query_i, key_j) == 0;
      allowed(query_i, key_j) = (future || hidden) ? 0 : 1;
    }
  }
  return allowed;
}

Matrix masked_softmax(const Matrix& scaled, const MaskMatrix& allowed, std::vector<int>* masked_rows) {
  const Eigen::Index n_rows = scaled.rows(), n_cols = scaled.cols();
  Matrix weights = Matrix::Zero(n_rows, n_cols);
  for (Eigen::Index row_i = 0; row_i < n_rows; ++row_i) {
    // (1) row max over allowed cells: subtracting it keeps every exp(·) in (0, 1].
    double row_max = -std::numeric_limits<double>::infinity();
    for (Eigen::Index col_j = 0; col_j < n_cols; ++col_j)
      if (allowed(row_i, col_j)) row_max = std::max(row_max, scaled(row_i, col_j));
    if (row_max == -std::numeric_limits<double>::infinity()) {  // nothing to attend to
      if (masked_rows) masked_rows->push_back(static_cast<int>(row_i));
      continue;  // weights stay exactly 0
    }
    // (2) exp and sum; the max cell contributes exp(0) = 1, so sum ≥ 1 (no division by 0).
    double row_sum = 0.0;
    for (Eigen::Index col_j = 0; col_j < n_cols; ++col_j) {
      if (!allowed(row_i, col_j)) continue;  // masked: −∞ before softmax, exactly 0 after
      const double e = std::exp(scaled(row_i, col_j) - row_max);  // s − max may be −Inf: exp → 0
      weights(row_i, col_j) = e;
      row_sum += e;
    }
    // (3) normalize so the row sums to 1.
    weights.row(row_i) /= row_sum;
  }
  return weights;
}

std::string check_inputs(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  const Eigen::Index n = Q.rows();
  if (n < 1) return "Q: need at least one token";
  if (K.rows() != n) return "K: has " + std::to_string(K.rows()) + " rows, expected " + std::to_string(n);
  if (V.rows() != n) return "V: has " + std::to_string(V.rows()) + " rows, expected " + std::to_string(n);
  if (Q.cols() < 1) return "Q: need at least one column";
  if (K.cols() != Q.cols())
    return "K: has " + std::to_string(K.cols()) + " columns, expected d_k = " + std::to_string(Q.cols());
  if (V.cols() < 1) return "V: need at least one column";
  if (!Q.allFinite()) return "Q: contains a non-finite number";
  if (!K.allFinite()) return "K: contains a non-finite number";
  if (!V.allFinite()) return "V: contains a non-finite number";
  if (options.scale.mode == ScaleMode::Temperature &&
      !(std::isfinite(options.scale.temperature) && options.scale.temperature > 0.0))
    return "scale: temperature must be a positive finite number";
  if (options.mask.size() != 0 && (options.mask.rows() != n || options.mask.cols() != n))
    return "mask: must be " + std::to_string(n) + "×" + std::to_string(n);
  return {};
}

Result attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  Result r;
  r.Q = Q;  // n×d_k
  r.K = K;  // n×d_k
  r.V = V;  // n×d_v
  const int n = static_cast<int>(Q.rows());
  const int d_k = static_cast<int>(Q.cols());

  // (1) raw scores: scores(i,j) = q_i · k_j, all pairs at once as Q Kᵀ.       n×n
  // Fixed summation order (products.hpp): a row computed alone, as the KV cache does, is the same.
  r.scores = dot_products(Q, K).unaryExpr(kClamp);

  // (2) scaling: divide by s (1, √d_k or the temperature) to keep softmax out of saturation.   n×n
  r.divisor = scale_divisor(options.scale, d_k);
  r.scaled = (r.scores / r.divisor).unaryExpr(kClamp);

  // (3) mask M: 0 where allowed, −∞ where hidden (causal future or custom 0).           n×n
  r.allowed = allowed_mask(n, options);

  // (4) weights A = row-softmax(scaled + M): rows sum to 1, hidden cells exactly 0.      n×n
  r.weights = masked_softmax(r.scaled, r.allowed, &r.masked_rows);

  // (5) output Y = A V: row i is the weight-blend of the value rows.                   n×d_v
  r.output = weighted_sum(r.weights, V).unaryExpr(kClamp);
  return r;
}

Result attend_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                        const Options& options) {
  // Three learned linear maps of the same input: what a token looks for (Q), what it offers to be
  // found by (K), what it gives when found (V).
  const Matrix Q = (X * Wq).unaryExpr(kClamp);  // n×d_model · d_model×d_k = n×d_k
  const Matrix K = (X * Wk).unaryExpr(kClamp);  // n×d_k
  const Matrix V = (X * Wv).unaryExpr(kClamp);  // n×d_v
  return attend(Q, K, V, options);
}

}  // namespace attn
