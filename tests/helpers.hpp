// helpers.hpp — the doctest suite's shared helpers, one copy each:
//   rows_of             a matrix written row by row (core/rows.hpp, also used by the presets)
//   random_matrix       rows×cols, entries uniform in [−spread, spread); random_qkv: Q, K, V
//   nth_scale_mode      None, SqrtDk, Temperature by k mod 3
//   bits_of, same_bits  bit-for-bit equality (−0.0 ≠ 0.0, every last bit counts)
//   check_same_bits     the same, reporting the first differing entry
//   check_close         |got − want| ≤ tol per entry (the lessons print 6 decimals: tol 5e-7)
//   check_relative      |got − want| ≤ rel · max(scale, |want|) per entry, every entry finite
//   check_same_stages   every stage of two single-head results, bit for bit
//   check_same_scene    two scenes, every matrix bit for bit
//   check_parse_error   a malformed scene is refused with an error that starts as expected
//   must_preset         a bundled preset (fails the test when missing)
//   lesson, lesson_matrix  the lessons' numbers from tests/fixtures/lessons.json (embedded at
//                       build time, so this also runs as wasm without file I/O)
//   printed             a number with fixed decimals, as the lessons print it
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/rows.hpp"
#include "lessons_embedded.hpp"
#include "scene/scene.hpp"

using attn::rows_of;

// |got − want| ≤ rel · max(scale, |want_ij|) for every entry, each finite; the first mismatch printed.
// `scale` is the size an error is measured in: max |V| for an output (each output row blends value
// rows), max(1, max |want|) for a matrix compared as a whole; rel = 0 asks for equality.
inline void check_relative(const attn::Matrix& got, const attn::Matrix& want, double scale,
                           double rel = 1e-12) {
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  for (Eigen::Index i = 0; i < got.rows(); ++i)
    for (Eigen::Index j = 0; j < got.cols(); ++j) {
      INFO("at (" << i << "," << j << "): got " << got(i, j) << ", want " << want(i, j));
      REQUIRE(std::isfinite(got(i, j)));
      CHECK(std::abs(got(i, j) - want(i, j)) <= rel * std::max(scale, std::abs(want(i, j))));
    }
}

inline attn::Matrix random_matrix(std::mt19937& rng, int rows, int cols, double spread = 2.0) {
  std::uniform_real_distribution<double> u(-spread, spread);
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
  return m;
}

// Q (n×d_k), K (n×d_k), V (n×d_v), drawn in that order.
struct RandomQkv {
  attn::Matrix Q, K, V;
};
inline RandomQkv random_qkv(std::mt19937& rng, int n, int d_k, int d_v, double qk_spread = 2.0,
                            double v_spread = 2.0) {
  RandomQkv m;
  m.Q = random_matrix(rng, n, d_k, qk_spread);
  m.K = random_matrix(rng, n, d_k, qk_spread);
  m.V = random_matrix(rng, n, d_v, v_spread);
  return m;
}

// The scale modes in order (None, SqrtDk, Temperature), by k mod 3: random or per-trial choices.
inline attn::ScaleMode nth_scale_mode(std::uint64_t k) {
  return static_cast<attn::ScaleMode>(k % 3);
}

inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

inline bool same_bits(double a, double b) {
  return bits_of(a) == bits_of(b);
}

inline bool same_bits(const attn::Matrix& a, const attn::Matrix& b) {
  // An empty matrix may have no storage: data() is null, and memcmp(null, …, 0) is undefined (UBSan).
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 ||
          std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0);
}

inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

// Every double of `got` has exactly the bits of `want`; the first difference is reported.
inline void check_same_bits(const char* name, const attn::Matrix& got, const attn::Matrix& want) {
  INFO(name);
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  for (Eigen::Index i = 0; i < want.size(); ++i) {
    if (!same_bits(got.data()[i], want.data()[i])) {
      char text[96];
      std::snprintf(text, sizeof text, "entry %ld: got %.17g, want %.17g", static_cast<long>(i),
                    got.data()[i], want.data()[i]);
      FAIL(text);
    }
  }
}

// |got − want| ≤ tol per entry, showing each mismatch with its position.
inline void check_close(const attn::Matrix& got, const attn::Matrix& want, double tol = 5e-7) {
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  for (Eigen::Index i = 0; i < got.rows(); ++i)
    for (Eigen::Index j = 0; j < got.cols(); ++j) {
      INFO("at (" << i << "," << j << "): got " << got(i, j) << ", want " << want(i, j));
      CHECK(std::abs(got(i, j) - want(i, j)) <= tol);
    }
}

// Every stage of two single-head results, bit for bit.
inline void check_same_stages(const attn::Result& a, const attn::Result& b) {
  check_same_bits("Q", a.Q, b.Q);
  check_same_bits("K", a.K, b.K);
  check_same_bits("V", a.V, b.V);
  check_same_bits("scores", a.scores, b.scores);
  CHECK(same_bits(a.divisor, b.divisor));
  check_same_bits("scaled", a.scaled, b.scaled);
  check_same_bits("bias", a.bias, b.bias);  // ALiBi (empty without)
  check_same_bits("logits", a.logits, b.logits);
  CHECK(a.allowed == b.allowed);
  check_same_bits("weights", a.weights, b.weights);
  check_same_bits("output", a.output, b.output);
  CHECK(a.masked_rows == b.masked_rows);
  CHECK(same_bits(a.row_max, b.row_max));  // the softmax's per-row max and Σ (the derivation tooltip's)
  CHECK(same_bits(a.row_sum, b.row_sum));
}

// Two scenes: tokens, mode, every matrix bit for bit (the other mode's matrices too, which must be
// empty on both), scale, causal, mask, heads and Wo.
inline void check_same_scene(const scene::Scene& got, const scene::Scene& want) {
  CHECK(got.tokens == want.tokens);
  REQUIRE(got.mode == want.mode);
  check_same_bits("Q", got.Q, want.Q);
  check_same_bits("K", got.K, want.K);
  check_same_bits("V", got.V, want.V);
  check_same_bits("X", got.X, want.X);
  check_same_bits("Wq", got.Wq, want.Wq);
  check_same_bits("Wk", got.Wk, want.Wk);
  check_same_bits("Wv", got.Wv, want.Wv);
  CHECK(got.scale.mode == want.scale.mode);
  if (want.scale.mode == attn::ScaleMode::Temperature)
    CHECK(same_bits(got.scale.temperature, want.scale.temperature));
  CHECK(got.causal == want.causal);
  REQUIRE(got.mask.rows() == want.mask.rows());
  REQUIRE(got.mask.cols() == want.mask.cols());
  CHECK(got.mask == want.mask);
  CHECK(got.heads == want.heads);
  check_same_bits("Wo", got.Wo, want.Wo);
}

// A table row of malformed scenes: parse_scene(text) must fail with an error starting error_starts.
struct BadScene {
  const char* what;
  std::string text;
  std::string error_starts;  // the error must begin with this (field + reason)
};

inline void check_parse_error(const BadScene& bad) {
  INFO("case: " << std::string(bad.what));
  const scene::ParseResult r = scene::parse_scene(bad.text);
  CHECK_FALSE(r.ok());
  INFO("error: " << r.error);
  CHECK(r.error.rfind(bad.error_starts, 0) == 0);
}

inline scene::Scene must_preset(const char* name) {
  const std::optional<scene::Scene> s = scene::preset(name);
  INFO("preset " << name);
  REQUIRE(s.has_value());
  return *s;
}

// The lessons' numbers (tests/fixtures/lessons.json): lesson("practice-qkv")["weights"], …
inline const nlohmann::json& lesson(const char* example) {
  static const nlohmann::json all = nlohmann::json::parse(kLessonsJson);
  INFO("lesson example " << example);
  REQUIRE(all.contains(example));
  return all.at(example);
}

inline double lesson_tolerance() {
  static const double tol = nlohmann::json::parse(kLessonsJson).at("tolerance").get<double>();
  return tol;
}

// A lesson's number as the lessons print it: `decimals` fixed decimals ("0.155", "1.000091").
inline std::string printed(double x, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
  return buffer;
}

// A matrix of a lesson example, e.g. lesson_matrix("soft-dictionary", "weights").
inline attn::Matrix lesson_matrix(const char* example, const char* key) {
  const nlohmann::json& rows = lesson(example).at(key);
  const bool is_row = !rows.empty() && rows.front().is_number();  // a single row: 1×n
  const auto n_rows = static_cast<Eigen::Index>(is_row ? 1 : rows.size());
  const auto n_cols = static_cast<Eigen::Index>(is_row ? rows.size() : rows.front().size());
  attn::Matrix m(n_rows, n_cols);
  for (Eigen::Index i = 0; i < n_rows; ++i)
    for (Eigen::Index j = 0; j < n_cols; ++j)
      m(i, j) = is_row ? rows.at(static_cast<std::size_t>(j)).get<double>()
                       : rows.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(j)).get<double>();
  return m;
}
