// products.hpp — the two matrix products of attention, each entry summed in a fixed order.
//
//   scores = Q Kᵀ   scores(i,j) = ((q_i0 k_j0 + q_i1 k_j1) + q_i2 k_j2) + …   (k = 0, 1, …, d−1)
//   Y      = A V    Y(i,c)      = ((a_i0 v_0c + a_i1 v_1c) + …)              (j ascending, a_ij = 0 skipped)
//
// Every entry depends only on its own row of the left matrix and the rows it meets, summed in index
// order, so a row computed alone (one decode step against a KV cache, one FlashAttention tile) is
// bit for bit the same row of the full product. Eigen's products choose their summation order by
// matrix size, which would make those rows differ in the last bits. Computed by the forward pass's
// kernels (core/kernels.hpp: vectorized across the output columns, each entry's sum in index order,
// fused multiply-adds where the CPU has them), so these rows are also attend()'s rows bit for bit.
// Entries are clamped to finite like every stage of the core (NaN → 0, ±Inf → ±DBL_MAX).
#pragma once

#include "core/attention.hpp"

namespace attn {

// Q (rows×d) times Kᵀ (K: cols×d): rows×cols.
Matrix dot_products(const Matrix& Q, const Matrix& K);

// A (rows×m) times V (m×d_v): rows×d_v; zero weights (masked cells) contribute nothing.
Matrix weighted_sum(const Matrix& A, const Matrix& V);

}  // namespace attn
