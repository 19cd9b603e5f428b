// Kernel tests: the vectorized exp's error against a more precise exp, and every kernel set this
// binary holds against the scalar set (see src/core/kernels.hpp).
#include "core/kernels.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/attention.hpp"

namespace {

// Error of y as an approximation of the exact exp(x) `ref`, in units of the last place of the
// double nearest ref (2⁻¹⁰⁷⁴ for subnormal results).
long double ulp_error(double y, long double ref) {
  long double ulp = std::ldexp(1.0L, -1074);
  if (ref >= static_cast<long double>(DBL_MIN)) {
    int e = 0;
    std::frexp(ref, &e);  // ref = m · 2^e, m ∈ [0.5, 1)
    ulp = std::ldexp(1.0L, e - 53);
  }
  return std::fabs(static_cast<long double>(y) - ref) / ulp;
}

// 10⁷ inputs over the range softmax uses, x = s − max ∈ [−∞, 0]: a jittered grid over
// [−746, 0] (every binade of |x| ≥ 1), magnitudes 10⁻²⁰ … 10³ on a log scale, a fine grid across
// the underflow edge [−746, −707] (subnormal results below −708.4, 0 below −745.13), and special
// values.
std::vector<double> exp_inputs() {
  constexpr int kCount = 10'000'000;
  std::vector<double> x;
  x.reserve(kCount + 16);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int grid = kCount * 7 / 10, logs = kCount / 10, edge = kCount - grid - logs;
  for (int i = 0; i < grid; ++i) x.push_back(-746.0 * (i + unit(rng)) / grid);
  for (int i = 0; i < logs; ++i) x.push_back(-std::pow(10.0, -20.0 + 23.0 * unit(rng)));
  for (int i = 0; i < edge; ++i) x.push_back(-707.0 - 39.0 * (i + unit(rng)) / edge);
  for (double v : {0.0, -0.0, -1e-300, -DBL_MIN, -DBL_TRUE_MIN, -0.5 * std::log(2.0), -708.3964185322641,
                   -708.39641853226408, -709.0, -744.44007192138122, -745.13321910194110, -745.1332191019412,
                   -745.2, -746.0, -1e300, -DBL_MAX, -HUGE_VAL})
    x.push_back(v);
  return x;
}

}  // namespace

TEST_CASE("vectorized exp: within 2 ulp on 10^7 inputs over [-inf, 0], underflow edge included") {
  const std::vector<double> x = exp_inputs();
  REQUIRE(x.size() >= 10'000'000u);
  // The reference: x87 extended precision (64-bit significand, error ~2⁻⁶⁴) where long double has
  // it; elsewhere (wasm: musl's exp, itself within 0.51 ulp) the bound below is 1 ulp, so the
  // kernel's error against the exact value stays ≤ 1.51 ulp.
  const bool extended = LDBL_MANT_DIG >= 64 && LDBL_MANT_DIG < 113;
  std::vector<long double> ref(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    ref[i] = extended ? std::exp(static_cast<long double>(x[i])) : static_cast<long double>(std::exp(x[i]));
  const long double bound = extended ? 2.0L : 1.0L;

  std::vector<double> y(x.size());
  for (const attn::kernels::KernelSet* set : attn::kernels::available()) {
    set->exp(x.data(), y.data(), x.size());
    long double worst = 0;
    std::size_t worst_at = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const long double e = ulp_error(y[i], ref[i]);
      if (!(e <= worst)) worst = e, worst_at = i;  // also catches NaN
    }
    MESSAGE(std::string(set->name) << ": max error " << static_cast<double>(worst)
                                   << " ulp at x = " << x[worst_at]
                                   << (extended ? " (against x87 expl)" : " (against std::exp)"));
    INFO(std::string(set->name) << " at x = " << x[worst_at] << ": got " << y[worst_at] << ", want "
                                << static_cast<double>(ref[worst_at]));
    CHECK(worst <= bound);

    // Exact where the value is exact, and the ends of the range.
    const double special[] = {0.0, -0.0, -HUGE_VAL, -746.0, -745.2, -745.13321910194110};
    double out[6];
    set->exp(special, out, 6);
    CHECK(out[0] == 1.0);
    CHECK(out[1] == 1.0);
    CHECK(out[2] == 0.0);
    CHECK(out[3] == 0.0);
    CHECK(out[4] == 0.0);
    CHECK(out[5] == DBL_TRUE_MIN);  // exp(−745.1332…) rounds to the smallest subnormal
  }
}

TEST_CASE("every kernel set gives the scalar set's stages to 1e-13 (random scenes, masks, tails)") {
  const std::vector<const attn::kernels::KernelSet*> sets = attn::kernels::available();
  const std::string original = attn::kernels::active().name;
  std::mt19937 rng(1301);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  auto random = [&](int rows, int cols) {
    attn::Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
    return m;
  };
  for (int trial = 0; trial < 40; ++trial) {
    // Sizes off every multiple of the panel widths (2, 4, 8) and of the 6-row tiles.
    const int n = 1 + int(rng() % 53), d_k = 1 + int(rng() % 19), d_v = 1 + int(rng() % 19);
    const attn::Matrix Q = random(n, d_k), K = random(n, d_k), V = random(n, d_v);
    attn::Options opt;
    opt.causal = rng() % 2;
    if (rng() % 2) {
      opt.mask = attn::MaskMatrix::Ones(n, n);
      for (Eigen::Index i = 0; i < opt.mask.size(); ++i) opt.mask.data()[i] = rng() % 4 ? 1 : 0;
    }
    REQUIRE(attn::kernels::select("scalar"));
    const attn::Result want = attn::attend(Q, K, V, opt);
    for (const attn::kernels::KernelSet* set : sets) {
      REQUIRE(attn::kernels::select(set->name));
      const attn::Result got = attn::attend(Q, K, V, opt);
      INFO("trial " << trial << " (n " << n << ", d_k " << d_k << ", d_v " << d_v << "), set "
                    << std::string(set->name));
      CHECK(got.allowed == want.allowed);
      CHECK(got.masked_rows == want.masked_rows);
      CHECK((got.scores - want.scores).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK((got.scaled - want.scaled).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK((got.weights - want.weights).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK((got.output - want.output).cwiseAbs().maxCoeff() <= 1e-13);
      for (int i = 0; i < n; ++i) {
        CHECK(got.row_max[i] == doctest::Approx(want.row_max[i]).epsilon(1e-13));
        CHECK(got.row_sum[i] == doctest::Approx(want.row_sum[i]).epsilon(1e-13));
      }
    }
  }
  REQUIRE(attn::kernels::select(original.c_str()));
}

TEST_CASE("row_max and row_sum are the softmax's m_i and sum of exp (lesson 1, NumPy)") {
  // Lesson 1 (LESSONS.md): scores row 0 = [0, 1, 1], unscaled → m = 1, Σ = e⁻¹ + 1 + 1.
  attn::Matrix K(3, 2), V(3, 1);
  K << 0, 1, 1, 0, 1, 0;
  V << 1, 2, 3;
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  attn::Matrix Q3(3, 2);
  Q3 << 1, 0, 0, 1, 1, 1;
  const attn::Result r = attn::attend(Q3, K, V, opt);
  REQUIRE(r.row_max.size() == 3);
  CHECK(r.row_max[0] == 1.0);
  CHECK(r.row_sum[0] == doctest::Approx(2.0 + std::exp(-1.0)).epsilon(1e-15));
  CHECK(r.row_max[2] == 1.0);  // scores row 2 = [1, 1, 1]
  CHECK(r.row_sum[2] == 3.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK(r.weights(i, j) ==
            doctest::Approx(std::exp(r.scaled(i, j) - r.row_max[i]) / r.row_sum[i]).epsilon(1e-15));
  // A fully masked row: 0 and 0 (and it is listed in masked_rows).
  opt.mask = attn::MaskMatrix::Ones(3, 3);
  opt.mask.row(1).setZero();
  const attn::Result m = attn::attend(Q3, K, V, opt);
  CHECK(m.row_max[1] == 0.0);
  CHECK(m.row_sum[1] == 0.0);
  CHECK(m.masked_rows == std::vector<int>{1});
}
