// Core tests: the worked examples of ../shared/LESSONS.md and properties of attention.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "core/attention.hpp"

using attn::Matrix;

namespace {

Matrix mat(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : rows) {
    Eigen::Index j = 0;
    for (double v : r) m(i, j++) = v;
    ++i;
  }
  return m;
}

// Compare to 6 decimals (the lessons print 6) and show the first mismatch.
void check_close(const Matrix& got, const Matrix& want, double tol = 5e-7) {
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  for (Eigen::Index i = 0; i < got.rows(); ++i)
    for (Eigen::Index j = 0; j < got.cols(); ++j) {
      INFO("at (" << i << "," << j << "): got " << got(i, j) << ", want " << want(i, j));
      CHECK(std::abs(got(i, j) - want(i, j)) <= tol);
    }
}

Matrix random_matrix(std::mt19937& rng, int rows, int cols, double lo = -2.0, double hi = 2.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
  return m;
}

}  // namespace

TEST_CASE("lesson 1: practice Q, K, V (NumPy, unscaled)") {
  const Matrix X = mat({{1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 0, 0}});
  const Matrix I4 = Matrix::Identity(4, 4);
  const Matrix Wq = I4.leftCols(2);       // first two columns
  const Matrix Wk = I4.middleCols(1, 2);  // columns 1..2
  const Matrix Wv = I4;
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  const attn::Result r = attn::attend_projected(X, Wq, Wk, Wv, opt);

  check_close(r.Q, mat({{1, 0}, {0, 1}, {1, 1}}));
  check_close(r.K, mat({{0, 1}, {1, 0}, {1, 0}}));
  check_close(r.scores, mat({{0, 1, 1}, {1, 0, 0}, {1, 1, 1}}));
  check_close(r.weights, mat({{0.155362, 0.422319, 0.422319},
                              {0.576117, 0.211942, 0.211942},
                              {0.333333, 0.333333, 0.333333}}));
  check_close(r.output, mat({{0.577681, 0.844638, 0.155362, 0.422319},
                             {0.788058, 0.423883, 0.576117, 0.211942},
                             {0.666667, 0.666667, 0.333333, 0.333333}}));
  CHECK(r.divisor == 1.0);
  CHECK(r.masked_rows.empty());
}

TEST_CASE("lesson 2: soft dictionary lookup returns almost exactly the matching value") {
  const Matrix K = mat({{10, 0}, {0, 10}});
  const Matrix V = mat({{1, 2}, {3, 4}});
  const Matrix Q = mat({{1, 0}, {0, 1}});
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  const attn::Result r = attn::attend(Q, K, V, opt);
  check_close(r.weights.row(0), mat({{0.999955, 0.000045}}));
  check_close(r.output.row(0), mat({{1.000091, 2.000091}}));
  // The second query matches the second key: output slides to [3, 4].
  check_close(r.output.row(1), mat({{2.999909, 3.999909}}));
}

TEST_CASE("lesson 4: causal mask hides the future exactly") {
  std::mt19937 rng(4);
  const Matrix Q = random_matrix(rng, 5, 3), K = random_matrix(rng, 5, 3), V = random_matrix(rng, 5, 2);
  attn::Options opt;
  opt.causal = true;
  const attn::Result r = attn::attend(Q, K, V, opt);
  CHECK(r.weights(2, 3) == 0.0);
  CHECK(r.weights(2, 4) == 0.0);
  CHECK(r.weights(2, 0) + r.weights(2, 1) + r.weights(2, 2) == doctest::Approx(1.0).epsilon(1e-12));
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) CHECK(int(r.allowed(i, j)) == (j <= i ? 1 : 0));
}
