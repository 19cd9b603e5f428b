// The heatmaps' row loop (ui/widgets/cell_rows.hpp) against the cell-by-cell definition it replaces
// (a float per cell, the mask's sentinel, the largest |value| over allowed cells), bit for bit —
// natively and as wasm.
#include "ui/widgets/cell_rows.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

constexpr float kMasked = 1e30f;

float reference_cell(double v, bool allowed) {
  return allowed ? float(v) : kMasked;
}

struct Row {
  std::vector<double> v;
  std::vector<unsigned char> allowed;
};

// Values over every range a stage holds: ordinary, tiny, huge (float overflow → ∞), ±0, subnormal.
Row random_row(int n, std::mt19937& rng, double p_allowed) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> kind(0, 9);
  std::bernoulli_distribution ok(p_allowed);
  Row r;
  for (int j = 0; j < n; ++j) {
    double x = u(rng);
    switch (kind(rng)) {
      case 0:
        x *= 1e-40;
        break;  // below float's range: 0 or subnormal
      case 1:
        x = x < 0 ? -DBL_MAX : DBL_MAX;
        break;  // the core's clamp of ±Inf
      case 2:
        x = x < 0 ? -0.0 : 0.0;
        break;
      case 3:
        x *= 1e6;
        break;
      case 4:
        x = std::abs(x);
        break;  // a weight
      default:
        break;
    }
    r.v.push_back(x);
    r.allowed.push_back(ok(rng) ? 1 : 0);
  }
  return r;
}

void check_row(const Row& r) {
  const int n = int(r.v.size());
  std::vector<float> want(static_cast<std::size_t>(n)), got(static_cast<std::size_t>(n), -7.0f);
  float want_largest = 0;
  for (int j = 0; j < n; ++j) {
    want[std::size_t(j)] = reference_cell(r.v[std::size_t(j)], r.allowed[std::size_t(j)] != 0);
    if (r.allowed[std::size_t(j)]) want_largest = std::max(want_largest, std::abs(want[std::size_t(j)]));
  }
  const float largest = ui::paint_row_linear(r.v.data(), r.allowed.data(), n, kMasked, got.data());
  CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * std::size_t(n)) == 0);
  CHECK(std::memcmp(&largest, &want_largest, sizeof largest) == 0);
}

}  // namespace

TEST_CASE("a heatmap row's floats and largest |value| are the cell-by-cell definition's, bit for bit") {
  // Every length from 1 to 17 (vector tails) and a grid's 1024, each all allowed, half, none.
  std::mt19937 rng(20261203);
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 64, 255, 1024}) {
    for (double p : {1.0, 0.5, 0.0}) {
      CAPTURE(n);
      CAPTURE(p);
      const Row r = random_row(n, rng, p);
      check_row(r);
    }
  }
}

TEST_CASE("a heatmap row: masked cells get the sentinel and never count toward the largest") {
  const double v[5] = {0.25, -3.0, 0.5, DBL_MAX, -0.75};
  const unsigned char allowed[5] = {1, 0, 1, 0, 1};
  float out[5];
  CHECK(ui::paint_row_linear(v, allowed, 5, kMasked, out) == 0.75f);
  CHECK(out[0] == 0.25f);
  CHECK(out[1] == kMasked);
  CHECK(out[3] == kMasked);
  CHECK(out[4] == -0.75f);
  const double w[3] = {0.25, 1e-9, 0.5};
  float row[3];
  const unsigned char none[3] = {0, 0, 0};
  CHECK(ui::paint_row_linear(w, none, 3, kMasked, row) == 0.0f);
  CHECK(row[0] == kMasked);
}
