// keyspace.hpp — a 2-D picture of d-dimensional vectors (queries and keys, or values and outputs).
//
// d ≤ 2: the picture is the space itself: coordinates are the vectors' own entries, exactly
// (d = 1 puts every point on the x axis).
// d > 2: the plane through the origin that keeps the most of the points' squared length: the top
// two right singular vectors of the stacked points P (m×d), i.e. PCA without centring. Without
// centring the origin stays the origin, so a query drawn as an arrow from 0 and a key as a point
// keep their meaning (q·k is the dot product of the two drawn vectors plus what the plane drops),
// and an output y = Σ a_j v_j lands at Σ a_j (drawn v_j): inside the drawn values' hull.
//
// No I/O, no UI. Tested in tests/keyspace_test.cpp.
#pragma once

#include "core/attention.hpp"

namespace attn {

struct Plane {
  int dim = 0;        // d of the vectors it shows
  bool exact = true;  // d ≤ 2: coordinates are the entries themselves
  Matrix axes;        // d×2, orthonormal columns (d ≥ 2; d = 2: the identity); d = 1: [[1, 0]]
  double kept = 1.0;  // share of Σ|p|² in the plane: (σ₁² + σ₂²) / Σ σ²; 1 when exact or all p = 0
};

// The plane of `points` (m×d, one vector per row, d ≥ 1). For d > 2 each axis's sign is chosen so
// that its largest entry (by magnitude; the lower index on a tie) is positive, so data near e_0
// and e_1 is drawn like the d = 2 picture instead of mirrored.
Plane best_plane(const Matrix& points);

// m×2 plane coordinates of `points` (m×d): (p·axis₀, p·axis₁); exact entries when plane.exact.
Matrix plane_coords(const Plane& plane, const Matrix& points);

// Dragging a drawn point to (x, y): the vector closest to `point` (1×d) whose coordinates are
// (x, y), i.e. the least-squares change  p' = p + axes·((x, y) − axesᵀp), which moves p only along
// the two axes. Exact (p' = (x, y)) when d = 2; d = 1 takes x.
Matrix lift_to_plane(const Plane& plane, const Matrix& point, double x, double y);

}  // namespace attn
