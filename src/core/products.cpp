// products.cpp — fixed-order Q Kᵀ and A V (see products.hpp), computed by the forward pass's
// kernels (core/kernels.hpp), so a row computed here is bit for bit the same row of attend().
#include "core/products.hpp"

#include <vector>

#include "core/kernels.hpp"

namespace attn {

Matrix dot_products(const Matrix& Q, const Matrix& K) {
  const kernels::KernelSet& ks = kernels::active();
  const int rows = static_cast<int>(Q.rows()), cols = static_cast<int>(K.rows()),
            d = static_cast<int>(Q.cols());
  const int w = ks.panel_width, n_panels = kernels::panels(cols, w);
  std::vector<double> packed(std::size_t(n_panels) * d * w);  // Kᵀ (d × cols) as panels
  kernels::pack_panels(K.data(), 1, d, d, cols, w, packed.data());
  Matrix out(rows, cols), scaled(rows, cols);  // the kernel also writes scores / 1 (unused)
  if (rows > 0 && cols > 0)
    ks.scores_rows(Q.data(), d, packed.data(), cols, 0, rows, 0, n_panels, 1.0, out.data(), scaled.data());
  return out;
}

Matrix weighted_sum(const Matrix& A, const Matrix& V) {
  const kernels::KernelSet& ks = kernels::active();
  const int rows = static_cast<int>(A.rows()), m = static_cast<int>(A.cols()),
            d_v = static_cast<int>(V.cols());
  const int w = ks.panel_width;
  std::vector<double> packed(std::size_t(kernels::panels(d_v, w)) * m * w);  // V (m × d_v) as panels
  kernels::pack_panels(V.data(), d_v, 1, m, d_v, w, packed.data());
  // Each row's first and last nonzero weight: the zero terms outside are skipped.
  std::vector<int> first(std::size_t(rows), m), last(std::size_t(rows), -1);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < m; ++j)
      if (A(i, j) != 0.0) {
        if (first[std::size_t(i)] == m) first[std::size_t(i)] = j;
        last[std::size_t(i)] = j;
      }
  }
  Matrix out(rows, d_v);
  if (rows > 0 && d_v > 0)
    ks.output_rows(A.data(), m, packed.data(), d_v, 0, rows, first.data(), last.data(), out.data());
  return out;
}

}  // namespace attn
