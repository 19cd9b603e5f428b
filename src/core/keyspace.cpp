// keyspace.cpp — the best plane through the origin, coordinates in it, and dragging back (keyspace.hpp).
#include "core/keyspace.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace attn {

Plane best_plane(const Matrix& points) {
  Plane plane;
  const int d = static_cast<int>(points.cols());
  plane.dim = d;
  plane.exact = d <= 2;
  plane.axes = Matrix::Zero(d, 2);
  if (d == 1) {
    plane.axes(0, 0) = 1.0;  // the x axis; y stays 0
    return plane;
  }
  if (d == 2) {
    plane.axes = Matrix::Identity(2, 2);
    return plane;
  }
  // Gram matrix G = Pᵀ P (d×d, symmetric): its eigenvectors are P's right singular vectors and its
  // eigenvalues σ² (ascending in Eigen's solver), so the last two columns span the best plane.
  // Only its lower triangle is computed (a symmetric rank update: half the m·d² multiplications of
  // the full product) — the solver reads no other part.
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(d, d);
  gram.selfadjointView<Eigen::Lower>().rankUpdate(points.transpose());
  const double total = gram.trace();  // Σ σ² = Σ |p|²
  if (!(total > 0.0) || !std::isfinite(total)) {
    plane.axes(0, 0) = 1.0;  // all points at 0 (nothing to lose): the first two coordinates
    plane.axes(1, 1) = 1.0;
    return plane;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
  const Eigen::MatrixXd& vectors = solver.eigenvectors();
  const Eigen::VectorXd& values = solver.eigenvalues();
  for (int a = 0; a < 2; ++a) {
    Eigen::VectorXd axis = vectors.col(d - 1 - a);
    // Sign: the largest-magnitude entry positive (first one on a tie), so e_0-like data reads as +x.
    Eigen::Index largest = 0;
    for (Eigen::Index c = 1; c < axis.size(); ++c)
      if (std::abs(axis(c)) > std::abs(axis(largest)) * (1.0 + 1e-12)) largest = c;
    if (axis(largest) < 0) axis = -axis;
    plane.axes.col(a) = axis;
  }
  const double in_plane = std::max(0.0, values(d - 1)) + std::max(0.0, values(d - 2));
  plane.kept = std::min(1.0, in_plane / total);
  return plane;
}

Matrix plane_coords(const Plane& plane, const Matrix& points) {
  const Eigen::Index m = points.rows();
  Matrix xy = Matrix::Zero(m, 2);
  if (plane.exact) {
    // The entries themselves (no products: bit for bit).
    for (Eigen::Index i = 0; i < m; ++i)
      for (Eigen::Index c = 0; c < points.cols() && c < 2; ++c) xy(i, c) = points(i, c);
    return xy;
  }
  return points * plane.axes;  // m×d · d×2
}

Matrix lift_to_plane(const Plane& plane, const Matrix& point, double x, double y) {
  Matrix out = point;  // 1×d
  if (plane.exact) {
    out(0, 0) = x;
    if (plane.dim == 2) out(0, 1) = y;
    return out;
  }
  const Matrix now = point * plane.axes;  // 1×2: where it is drawn
  Matrix delta(1, 2);
  delta << x - now(0, 0), y - now(0, 1);
  out += delta * plane.axes.transpose();  // move along the two axes only
  return out;
}

}  // namespace attn
