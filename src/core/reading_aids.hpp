// reading_aids.hpp — numbers that help a learner read the weights grid, computed once per result.
//
// For each query row i of the weights A (n×n, rows sum to 1 over the allowed cells):
//   entropy_i     = −Σ_j a_ij log₂ a_ij   (bits; cells with a_ij = 0 add nothing)
//   uniform_i     = log₂ k_i, k_i = number of allowed cells in row i: the entropy of a row that
//                   spreads evenly over every key it may see (its maximum); 0 when k_i ≤ 1
//   argmax_i      = the first j with the largest a_ij among the allowed cells (ties → smallest j)
// A fully masked row (k_i = 0, all weights 0) has entropy 0, uniform 0 and argmax −1.
// Entropy 0 means all weight on one key; entropy = uniform means no key is preferred.
#pragma once

#include <vector>

#include "core/attention.hpp"

namespace attn {

struct ReadingAids {
  std::vector<double> entropy;  // n, bits
  std::vector<double> uniform;  // n, bits: log₂(allowed keys in the row)
  std::vector<int> argmax;      // n, column of the row's first largest weight; −1 if fully masked
};

// weights: n×n (a Result's `weights`); allowed: n×n (its `allowed`). A row counts as fully masked
// when it has no allowed cell. When `allowed` is empty every cell counts as allowed.
ReadingAids reading_aids(const Matrix& weights, const MaskMatrix& allowed);
// The same for the listed rows only, in `aids` sized for n rows (the rest kept): after an edit of
// query i only row i of the weights changed (core/incremental.hpp), and n² logarithms per frame of a
// drag at n = 1024 cost more than the recompute.
void update_reading_aids(const Matrix& weights, const MaskMatrix& allowed, const std::vector<int>& rows,
                         ReadingAids* aids);
inline ReadingAids reading_aids(const Result& r) {
  return reading_aids(r.weights, r.allowed);
}

}  // namespace attn
