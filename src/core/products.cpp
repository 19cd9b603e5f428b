// products.cpp — fixed-order Q Kᵀ and A V (see products.hpp).
#include "core/products.hpp"

namespace attn {

Matrix dot_products(const Matrix& Q, const Matrix& K) {
  // Kᵀ is d×cols, row-major: row k holds the k-th coordinate of every key, so one query's scores
  // accumulate as Σ_k q_ik · Kᵀ.row(k), k ascending, vectorized across the keys.
  const Matrix KT = K.transpose();
  Matrix out = Matrix::Zero(Q.rows(), K.rows());
  for (Eigen::Index i = 0; i < Q.rows(); ++i)
    for (Eigen::Index k = 0; k < Q.cols(); ++k) out.row(i).noalias() += Q(i, k) * KT.row(k);
  return out;
}

Matrix weighted_sum(const Matrix& A, const Matrix& V) {
  Matrix out = Matrix::Zero(A.rows(), V.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (A(i, j) != 0.0) out.row(i).noalias() += A(i, j) * V.row(j);
  return out;
}

}  // namespace attn
