// Core tests: the worked examples of docs/LESSONS.md (numbers: tests/fixtures/lessons.json) and properties of
// attention.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/attention.hpp"
#include "helpers.hpp"

using attn::Matrix;

TEST_CASE("lesson 1: practice Q, K, V (NumPy, unscaled)") {
  const Matrix X = lesson_matrix("practice-qkv", "X");
  const Matrix I4 = Matrix::Identity(4, 4);
  const Matrix Wq = I4.leftCols(2);       // first two columns
  const Matrix Wk = I4.middleCols(1, 2);  // columns 1..2
  const Matrix Wv = I4;
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  const attn::Result r = attn::attend_projected(X, Wq, Wk, Wv, opt);

  const std::pair<const char*, const Matrix*> stages[] = {
      {"Q", &r.Q}, {"K", &r.K}, {"scores", &r.scores}, {"weights", &r.weights}, {"output", &r.output}};
  for (const auto& stage : stages) {  // not a structured binding: INFO's lambda cannot capture one (clang 14)
    const char* name = stage.first;
    const Matrix* got = stage.second;
    INFO(name);
    check_close(*got, lesson_matrix("practice-qkv", name), lesson_tolerance());
  }
  CHECK(r.divisor == 1.0);
  CHECK(r.masked_rows.empty());
}

TEST_CASE("lesson 2: soft dictionary lookup returns almost exactly the matching value") {
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  const attn::Result r =
      attn::attend(lesson_matrix("soft-dictionary", "Q"), lesson_matrix("soft-dictionary", "K"),
                   lesson_matrix("soft-dictionary", "V"), opt);
  check_close(r.weights, lesson_matrix("soft-dictionary", "weights"), lesson_tolerance());
  // Row 0 returns almost exactly the first value; the second query matches the second key, so its
  // output slides to [3, 4].
  check_close(r.output, lesson_matrix("soft-dictionary", "output"), lesson_tolerance());
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

// ---------------------------------------------------------------------------------------------
// Properties on random inputs. Each case loops over many seeds; n, d_k, d_v vary per trial.
// ---------------------------------------------------------------------------------------------
namespace {

constexpr int kTrials = 60;

attn::Options random_options(std::mt19937& rng) {
  attn::Options opt;
  opt.scale.mode = nth_scale_mode(rng());
  if (opt.scale.mode == attn::ScaleMode::Temperature)
    opt.scale.temperature = 0.1 + 5.0 * std::uniform_real_distribution<double>(0, 1)(rng);
  return opt;
}

int random_size(std::mt19937& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % (hi - lo + 1));
}

attn::MaskMatrix random_mask(std::mt19937& rng, int n) {
  attn::MaskMatrix m(n, n);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = (rng() % 3 == 0) ? 0 : 1;
  return m;
}

void check_all_finite(const attn::Result& r) {
  CHECK(r.Q.allFinite());
  CHECK(r.K.allFinite());
  CHECK(r.V.allFinite());
  CHECK(r.scores.allFinite());
  CHECK(r.scaled.allFinite());
  CHECK(r.weights.allFinite());
  CHECK(r.output.allFinite());
  CHECK(std::isfinite(r.divisor));
}

bool is_masked_row(const attn::Result& r, int i) {
  for (int m : r.masked_rows)
    if (m == i) return true;
  return false;
}

}  // namespace

TEST_CASE("property: unmasked rows sum to 1, masked cells are exactly 0, weights in [0, 1]") {
  std::mt19937 rng(101);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 12), d_k = random_size(rng, 1, 8), d_v = random_size(rng, 1, 8);
    attn::Options opt = random_options(rng);
    opt.causal = rng() % 2;
    if (rng() % 2) opt.mask = random_mask(rng, n);
    const attn::Result r =
        attn::attend(random_matrix(rng, n, d_k), random_matrix(rng, n, d_k), random_matrix(rng, n, d_v), opt);
    check_all_finite(r);
    for (int i = 0; i < n; ++i) {
      INFO("trial " << trial << ", row " << i);
      double sum = 0.0;
      for (int j = 0; j < n; ++j) {
        CHECK(r.weights(i, j) >= 0.0);
        CHECK(r.weights(i, j) <= 1.0);
        if (!r.allowed(i, j)) CHECK(r.weights(i, j) == 0.0);
        sum += r.weights(i, j);
      }
      if (is_masked_row(r, i))
        CHECK(sum == 0.0);
      else
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("property: softmax is shift invariant (adding c to a row of scaled scores changes nothing)") {
  std::mt19937 rng(202);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 10);
    const Matrix scaled = random_matrix(rng, n, n, 5);
    const attn::MaskMatrix allowed = (rng() % 2) ? random_mask(rng, n) : attn::MaskMatrix::Ones(n, n);
    Matrix shifted = scaled;
    std::uniform_real_distribution<double> shift(-50, 50);
    for (int i = 0; i < n; ++i) shifted.row(i).array() += shift(rng);  // a different constant per row
    const Matrix a = attn::masked_softmax(scaled, allowed, nullptr);
    const Matrix b = attn::masked_softmax(shifted, allowed, nullptr);
    INFO("trial " << trial);
    check_close(b, a, 1e-12);
  }
}

TEST_CASE("property: without a mask, permuting tokens permutes weights rows+cols and output rows") {
  std::mt19937 rng(303);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 10), d_k = random_size(rng, 1, 6), d_v = random_size(rng, 1, 6);
    const auto [Q, K, V] = random_qkv(rng, n, d_k, d_v);
    std::vector<int> perm(n);
    for (int i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    Eigen::PermutationMatrix<Eigen::Dynamic> P(n);
    for (int i = 0; i < n; ++i) P.indices()[i] = perm[i];
    const attn::Options opt = random_options(rng);
    const attn::Result r = attn::attend(Q, K, V, opt);
    const Matrix Qp = P * Q, Kp = P * K, Vp = P * V;
    const attn::Result rp = attn::attend(Qp, Kp, Vp, opt);
    INFO("trial " << trial);
    check_close(rp.weights, P * r.weights * P.transpose(), 1e-12);
    check_close(rp.output, P * r.output, 1e-12);
  }
}

TEST_CASE("property: projected mode equals direct mode on the projected Q, K, V") {
  std::mt19937 rng(404);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 10), d_model = random_size(rng, 1, 8);
    const int d_k = random_size(rng, 1, 8), d_v = random_size(rng, 1, 8);
    const Matrix X = random_matrix(rng, n, d_model);
    const Matrix Wq = random_matrix(rng, d_model, d_k), Wk = random_matrix(rng, d_model, d_k);
    const Matrix Wv = random_matrix(rng, d_model, d_v);
    attn::Options opt = random_options(rng);
    opt.causal = rng() % 2;
    const attn::Result p = attn::attend_projected(X, Wq, Wk, Wv, opt);
    const attn::Result d = attn::attend(X * Wq, X * Wk, X * Wv, opt);
    INFO("trial " << trial);
    check_close(p.Q, X * Wq, 1e-12);
    check_close(p.K, X * Wk, 1e-12);
    check_close(p.V, X * Wv, 1e-12);
    check_close(p.weights, d.weights, 1e-12);
    check_close(p.output, d.output, 1e-12);
  }
}

TEST_CASE("property: scale by a number t equals dividing the raw scores by t by hand") {
  std::mt19937 rng(505);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 10), d_k = random_size(rng, 1, 8), d_v = random_size(rng, 1, 5);
    const auto [Q, K, V] = random_qkv(rng, n, d_k, d_v);
    const double t = 0.05 + 10.0 * std::uniform_real_distribution<double>(0, 1)(rng);
    attn::Options opt;
    opt.scale.mode = attn::ScaleMode::Temperature;
    opt.scale.temperature = t;
    const attn::Result r = attn::attend(Q, K, V, opt);
    // Reference: softmax of (QKᵀ)/t written out, then A V.
    const Matrix s = (Q * K.transpose()) / t;
    Matrix A(n, n);
    for (int i = 0; i < n; ++i) {
      const double m = s.row(i).maxCoeff();
      A.row(i) = (s.row(i).array() - m).exp().matrix();
      A.row(i) /= A.row(i).sum();
    }
    INFO("trial " << trial << ", t = " << t);
    CHECK(r.divisor == t);
    check_close(r.scaled, s, 1e-12);
    check_close(r.weights, A, 1e-12);
    check_close(r.output, A * V, 1e-12);
  }
  // √d_k is the temperature √d_k.
  std::mt19937 rng2(506);
  const Matrix Q = random_matrix(rng2, 4, 9), K = random_matrix(rng2, 4, 9), V = random_matrix(rng2, 4, 3);
  attn::Options sqrt_opt, t_opt;
  t_opt.scale.mode = attn::ScaleMode::Temperature;
  t_opt.scale.temperature = 3.0;  // √9
  check_close(attn::attend(Q, K, V, sqrt_opt).weights, attn::attend(Q, K, V, t_opt).weights, 0.0);
}

TEST_CASE("custom mask AND causal: a cell is attended only when both allow it") {
  std::mt19937 rng(606);
  for (int trial = 0; trial < kTrials; ++trial) {
    const int n = random_size(rng, 1, 10);
    attn::Options opt;
    opt.causal = true;
    opt.mask = random_mask(rng, n);
    const attn::Result r =
        attn::attend(random_matrix(rng, n, 3), random_matrix(rng, n, 3), random_matrix(rng, n, 2), opt);
    for (int i = 0; i < n; ++i) {
      bool any = false;
      for (int j = 0; j < n; ++j) {
        const bool want = j <= i && opt.mask(i, j) == 1;
        any = any || want;
        CHECK(int(r.allowed(i, j)) == int(want));
        if (!want) CHECK(r.weights(i, j) == 0.0);
      }
      CHECK(is_masked_row(r, i) == !any);
    }
  }
}

TEST_CASE("a fully masked row gives zero weights and zero output, is reported, and has no NaN") {
  const Matrix Q = rows_of({{1, 2}, {3, 4}, {5, 6}});
  const Matrix K = rows_of({{1, 0}, {0, 1}, {1, 1}});
  const Matrix V = rows_of({{1, 2}, {3, 4}, {5, 6}});
  attn::Options opt;
  opt.mask = attn::MaskMatrix::Ones(3, 3);
  opt.mask.row(1).setZero();
  const attn::Result r = attn::attend(Q, K, V, opt);
  REQUIRE(r.masked_rows.size() == 1);
  CHECK(r.masked_rows[0] == 1);
  for (int j = 0; j < 3; ++j) CHECK(r.weights(1, j) == 0.0);
  for (int j = 0; j < 2; ++j) CHECK(r.output(1, j) == 0.0);
  check_all_finite(r);
  CHECK(r.weights.row(0).sum() == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(r.weights.row(2).sum() == doctest::Approx(1.0).epsilon(1e-12));

  // Every row masked: the whole result is zeros and every row is reported.
  opt.mask.setZero();
  const attn::Result all = attn::attend(Q, K, V, opt);
  CHECK(all.masked_rows == std::vector<int>{0, 1, 2});
  CHECK(all.weights.isZero(0.0));
  CHECK(all.output.isZero(0.0));
}

TEST_CASE("overflow-scale inputs keep every stage finite and rows summing to 1") {
  std::mt19937 rng(707);
  // Entries ~1e15 give scores up to ~1e30; entries 1e200 overflow the dot products to ±Inf
  // (and Inf − Inf = NaN inside a sum), which the core must clamp.
  for (double magnitude : {1e15, 1e100, 1e200, 1e300}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int n = random_size(rng, 1, 8), d_k = random_size(rng, 1, 6), d_v = random_size(rng, 1, 4);
      const Matrix Q = random_matrix(rng, n, d_k, magnitude);
      const Matrix K = random_matrix(rng, n, d_k, magnitude);
      const Matrix V = random_matrix(rng, n, d_v, 1);
      attn::Options opt = random_options(rng);
      opt.causal = rng() % 2;
      const attn::Result r = attn::attend(Q, K, V, opt);
      INFO("magnitude " << magnitude << ", trial " << trial);
      check_all_finite(r);
      if (magnitude == 1e15) CHECK(r.scores.cwiseAbs().maxCoeff() > 1e28);  // really at the 1e30 scale
      for (int i = 0; i < n; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
  // Exactly cancelling infinities inside one dot product: 1e200·1e200 + 1e200·(−1e200).
  const Matrix Q = rows_of({{1e200, 1e200}, {1, 1}});
  const Matrix K = rows_of({{1e200, -1e200}, {1e200, 1e200}});
  const Matrix V = rows_of({{1e200}, {-1e200}});
  const attn::Result r = attn::attend(Q, K, V, attn::Options{});
  check_all_finite(r);
  for (int i = 0; i < 2; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-12));
}
