// rope.cpp — rotary position embedding (formulas in rope.hpp).
#include "core/rope.hpp"

#include <cmath>

namespace attn {
namespace {

// Turns the pairs of one head in place: `x` points at the head's first of d_head coordinates.
void rotate_head(double* x, int d_head, const Rope& rope, double position) {
  const int pairs = d_head / 2;
  for (int c = 0; c < pairs; ++c) {
    const double theta = rope_angle(rope, c, d_head, position);
    const double cos_t = std::cos(theta), sin_t = std::sin(theta);
    // The pair's two coordinates: (2c, 2c+1) interleaved, (c, c + d/2) half.
    const int a = rope.layout == RopeLayout::Interleaved ? 2 * c : c;
    const int b = rope.layout == RopeLayout::Interleaved ? 2 * c + 1 : c + pairs;
    const double xa = x[a], xb = x[b];
    x[a] = xa * cos_t - xb * sin_t;
    x[b] = xa * sin_t + xb * cos_t;
  }
}

}  // namespace

double rope_angle(const Rope& rope, int c, int d_head, double position) {
  return position * std::pow(rope.base, -2.0 * c / d_head);
}

Matrix apply_rope(const Matrix& M, const Rope& rope, int heads) {
  Matrix out = M;  // row-major: a row's coordinates are contiguous
  const int d = static_cast<int>(M.cols());
  const int d_head = heads > 0 ? d / heads : d;
  for (Eigen::Index i = 0; i < out.rows(); ++i)
    for (int h = 0; h < heads; ++h)
      rotate_head(out.row(i).data() + h * d_head, d_head, rope, static_cast<double>(rope.offset + i));
  return out;
}

Matrix rope_rotate_row(const Matrix& row, const Rope& rope, double position) {
  Matrix out = row;
  rotate_head(out.data(), static_cast<int>(out.cols()), rope, position);
  return out;
}

std::vector<double> rope_dot_by_distance(const Matrix& q, const Matrix& k, const Rope& rope,
                                         int max_distance) {
  std::vector<double> dots;
  const Matrix q0 = rope_rotate_row(q, rope, 0.0);
  for (int delta = -max_distance; delta <= max_distance; ++delta)
    dots.push_back(q0.row(0).dot(rope_rotate_row(k, rope, delta).row(0)));
  return dots;
}

}  // namespace attn
