// The key-space plane (core/keyspace.hpp): d_k = 2 drawn exactly (identity axes, no flips), d > 2
// against NumPy's SVD, orthonormal axes, and dragging back by least squares.
#include "core/keyspace.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "helpers.hpp"

using attn::Matrix;

TEST_CASE("plane: d = 2 is the space itself — identity axes, coordinates bit for bit") {
  // Soft dictionary (LESSONS.md 2): q = [1, 0], keys [10, 0] and [0, 10]; plus negative entries
  // that a PCA sign choice could have mirrored.
  Matrix p(4, 2);
  p << 1, 0, 0, 1, 10, 0, -0.3, -10;
  const attn::Plane plane = attn::best_plane(p);
  CHECK(plane.exact);
  CHECK(plane.kept == 1.0);
  CHECK(plane.axes == Matrix::Identity(2, 2));
  const Matrix xy = attn::plane_coords(plane, p);
  CHECK(std::memcmp(xy.data(), p.data(), sizeof(double) * 8) == 0);
  // Dragging q to (0.2, 0.9) sets it to exactly that.
  const Matrix moved = attn::lift_to_plane(plane, p.row(0), 0.2, 0.9);
  CHECK(moved(0, 0) == 0.2);
  CHECK(moved(0, 1) == 0.9);
}

TEST_CASE("plane: d = 1 puts every point on the x axis") {
  Matrix p(3, 1);
  p << 2, -1, 0.5;
  const attn::Plane plane = attn::best_plane(p);
  CHECK(plane.exact);
  const Matrix xy = attn::plane_coords(plane, p);
  CHECK(xy.col(0) == p.col(0));
  CHECK(xy.col(1).isZero());
  CHECK(attn::lift_to_plane(plane, p.row(1), 4.0, 7.0)(0, 0) == 4.0);
}

TEST_CASE("plane: d = 3 matches NumPy's SVD (σ², axes up to the documented sign, kept share)") {
  // numpy.linalg.svd of this 5×3 matrix: σ² = [8.544482395745362, 5.342164810694666, 4.743352793559974],
  // Vᵀ rows 0, 1 = [-0.8247341695113412, 0.39170829460259854, 0.4078947922932609],
  //                [0.1880263936688822, 0.8701713905949969, -0.45546440725247067];
  // kept = (σ₀² + σ₁²) / Σσ² = 0.7453916911669365. Our sign rule (largest entry positive) flips axis 0.
  Matrix p(5, 3);
  p << 1.0, 0.5, -2.0, 0.3, 2.0, 1.0, -1.5, 0.2, 0.4, 2.0, -1.0, 0.5, 0.1, 0.7, -0.3;
  const attn::Plane plane = attn::best_plane(p);
  CHECK_FALSE(plane.exact);
  CHECK(std::abs(plane.kept - 0.7453916911669365) < 1e-12);
  const double axis0[3] = {0.8247341695113412, -0.39170829460259854, -0.4078947922932609};
  const double axis1[3] = {0.1880263936688822, 0.8701713905949969, -0.45546440725247067};
  for (int c = 0; c < 3; ++c) {
    CHECK(std::abs(plane.axes(c, 0) - axis0[c]) < 1e-12);
    CHECK(std::abs(plane.axes(c, 1) - axis1[c]) < 1e-12);
  }
}

TEST_CASE("plane: axes orthonormal for random points, d = 3 … 64; kept share in [0, 1]") {
  std::mt19937 rng(4);
  for (int d : {3, 4, 8, 17, 64}) {
    CAPTURE(d);
    const Matrix p = random_matrix(rng, 10, d, 3.0);
    const attn::Plane plane = attn::best_plane(p);
    const Matrix gram = plane.axes.transpose() * plane.axes;
    CHECK((gram - Matrix::Identity(2, 2)).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(plane.kept > 0.0);
    CHECK(plane.kept <= 1.0);
    // The plane keeps at least as much squared length as the plane of the first two coordinates.
    const double total = p.squaredNorm();
    CHECK(plane.kept * total >= p.leftCols(2).squaredNorm() - 1e-9);
    CHECK(std::abs(plane.kept * total - attn::plane_coords(plane, p).squaredNorm()) < 1e-9 * total);
  }
}

TEST_CASE("plane: data along e0 and e1 of a larger space is drawn like d = 2 (no flips)") {
  // Gram matrix diag(9, 5, 0, 0, 0): the axes are e0 and e1, positive (not −e0 or −e1), so the
  // picture equals the d = 2 one.
  Matrix p = Matrix::Zero(3, 5);
  p(0, 0) = 3.0;
  p(1, 1) = -1.0;
  p(2, 1) = 2.0;
  const attn::Plane plane = attn::best_plane(p);
  CHECK(std::abs(plane.kept - 1.0) < 1e-15);
  CHECK((plane.axes - Matrix::Identity(5, 2)).cwiseAbs().maxCoeff() < 1e-15);
  const Matrix xy = attn::plane_coords(plane, p);
  CHECK((xy - p.leftCols(2)).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("plane: all points at 0 → the first two coordinates, nothing lost") {
  const attn::Plane plane = attn::best_plane(Matrix::Zero(4, 3));
  CHECK(plane.kept == 1.0);
  CHECK(plane.axes(0, 0) == 1.0);
  CHECK(plane.axes(1, 1) == 1.0);
}

TEST_CASE("lift_to_plane: lands on the target, moves only along the two axes (least squares)") {
  std::mt19937 rng(5);
  const Matrix p = random_matrix(rng, 8, 6, 3.0);
  const attn::Plane plane = attn::best_plane(p);
  const Matrix point = p.row(3);
  const Matrix moved = attn::lift_to_plane(plane, point, 1.25, -0.5);
  const Matrix xy = attn::plane_coords(plane, moved);
  CHECK(std::abs(xy(0, 0) - 1.25) < 1e-12);
  CHECK(std::abs(xy(0, 1) + 0.5) < 1e-12);
  // The change lies in the plane: removing its in-plane part leaves 0.
  const Matrix delta = moved - point;
  const Matrix off_plane = delta - (delta * plane.axes) * plane.axes.transpose();
  CHECK(off_plane.cwiseAbs().maxCoeff() < 1e-12);
  // Minimum change: |delta| equals the distance moved in the picture.
  const Matrix before = attn::plane_coords(plane, point);
  CHECK(std::abs(delta.norm() - std::hypot(1.25 - before(0, 0), -0.5 - before(0, 1))) < 1e-12);
}
