// reading_aids.cpp — per-row entropy and argmax of the attention weights (see reading_aids.hpp).
#include "core/reading_aids.hpp"

#include <algorithm>
#include <cmath>

namespace attn {

namespace {

// Row i's entropy, uniform entropy and argmax (see reading_aids.hpp).
void row_aids(const Matrix& weights, const MaskMatrix& allowed, bool have_mask, Eigen::Index i,
              ReadingAids* aids) {
  double entropy = 0.0;
  int keys = 0;
  int best = -1;
  for (Eigen::Index j = 0; j < weights.cols(); ++j) {
    if (have_mask && !allowed(i, j)) continue;
    ++keys;
    const double a = weights(i, j);
    // Strictly greater: a tie keeps the first maximum, like numpy.argmax.
    if (best < 0 || a > weights(i, best)) best = static_cast<int>(j);
    if (a > 0.0) entropy -= a * std::log2(a);
  }
  const auto row = static_cast<std::size_t>(i);
  // −Σ a log₂ a can come out as −1e-17 for a one-hot row; entropy is never negative.
  aids->entropy[row] = keys > 0 ? std::max(entropy, 0.0) : 0.0;
  aids->uniform[row] = keys > 1 ? std::log2(static_cast<double>(keys)) : 0.0;
  aids->argmax[row] = best;
}

bool mask_fits(const Matrix& weights, const MaskMatrix& allowed) {
  return allowed.rows() == weights.rows() && allowed.cols() == weights.cols();
}

}  // namespace

ReadingAids reading_aids(const Matrix& weights, const MaskMatrix& allowed) {
  const Eigen::Index n = weights.rows();
  const bool have_mask = mask_fits(weights, allowed);
  ReadingAids aids;
  aids.entropy.assign(static_cast<std::size_t>(n), 0.0);
  aids.uniform.assign(static_cast<std::size_t>(n), 0.0);
  aids.argmax.assign(static_cast<std::size_t>(n), -1);
  for (Eigen::Index i = 0; i < n; ++i) row_aids(weights, allowed, have_mask, i, &aids);
  return aids;
}

void update_reading_aids(const Matrix& weights, const MaskMatrix& allowed, const std::vector<int>& rows,
                         ReadingAids* aids) {
  const auto n = static_cast<std::size_t>(weights.rows());
  if (aids->entropy.size() != n || aids->uniform.size() != n || aids->argmax.size() != n) {
    *aids = reading_aids(weights, allowed);
    return;
  }
  const bool have_mask = mask_fits(weights, allowed);
  for (int i : rows)
    if (i >= 0 && static_cast<std::size_t>(i) < n) row_aids(weights, allowed, have_mask, i, aids);
}

}  // namespace attn
