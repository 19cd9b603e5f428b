// RoPE (core/rope): the rotation by hand, both layouts, per head, and the relative-position
// properties the lesson rests on (Toeplitz scores, offset invariance).
#include "core/rope.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string_view>

#include "demos_embedded.hpp"
#include "helpers.hpp"
#include "scene/scene.hpp"

using attn::Matrix;

namespace {

attn::Rope rope_of(attn::RopeLayout layout, double base = 10000.0, int offset = 0) {
  attn::Rope r;
  r.layout = layout;
  r.base = base;
  r.offset = offset;
  return r;
}

}  // namespace

TEST_CASE("RoPE by hand: d = 2 turns (1, 0) at position p by p radians; d = 4 pair 1 by p/100") {
  const Matrix e0 = (Matrix(3, 2) << 1, 0, 1, 0, 1, 0).finished();
  const Matrix r = attn::apply_rope(e0, rope_of(attn::RopeLayout::Interleaved));
  for (int p = 0; p < 3; ++p) {
    CHECK(r(p, 0) == doctest::Approx(std::cos(p)).epsilon(1e-15));
    CHECK(r(p, 1) == doctest::Approx(std::sin(p)).epsilon(1e-15));
  }
  // d = 4, base 10000: θ_0 = p, θ_1 = p · 10000^(−1/2) = p / 100.
  CHECK(attn::rope_angle(rope_of(attn::RopeLayout::Half), 1, 4, 3.0) == doctest::Approx(0.03).epsilon(1e-15));
  const Matrix x = (Matrix(2, 4) << 1, 2, 3, 4, 1, 2, 3, 4).finished();
  const double c1 = std::cos(1.0), s1 = std::sin(1.0), c2 = std::cos(0.01), s2 = std::sin(0.01);
  // Interleaved: pairs (0,1) and (2,3).
  const Matrix inter = attn::apply_rope(x, rope_of(attn::RopeLayout::Interleaved));
  check_relative(inter.row(0), x.row(0), 1.0, 0.0);  // position 0: no turn
  check_relative(
      inter.row(1),
      (Matrix(1, 4) << 1 * c1 - 2 * s1, 1 * s1 + 2 * c1, 3 * c2 - 4 * s2, 3 * s2 + 4 * c2).finished(), 4.0);
  // Half: pairs (0,2) and (1,3).
  const Matrix half = attn::apply_rope(x, rope_of(attn::RopeLayout::Half));
  check_relative(
      half.row(1),
      (Matrix(1, 4) << 1 * c1 - 3 * s1, 2 * c2 - 4 * s2, 1 * s1 + 3 * c1, 2 * s2 + 4 * c2).finished(), 4.0);
}

TEST_CASE("RoPE keeps every row's length and the two layouts are one coordinate permutation apart") {
  std::mt19937 rng(2021);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12), d = 2 * (1 + static_cast<int>(rng() % 6));
    const Matrix M = random_matrix(rng, n, d);
    const double base = std::vector<double>{10.0, 100.0, 10000.0, 500000.0}[rng() % 4];
    const Matrix inter = attn::apply_rope(M, rope_of(attn::RopeLayout::Interleaved, base));
    const Matrix half = attn::apply_rope(M, rope_of(attn::RopeLayout::Half, base));
    for (int i = 0; i < n; ++i) {
      CHECK(inter.row(i).norm() == doctest::Approx(M.row(i).norm()).epsilon(1e-13));
      CHECK(half.row(i).norm() == doctest::Approx(M.row(i).norm()).epsilon(1e-13));
    }
    Eigen::PermutationMatrix<Eigen::Dynamic> P(d);
    for (int c = 0; c < d / 2; ++c) {
      P.indices()[2 * c] = c;
      P.indices()[2 * c + 1] = c + d / 2;
    }
    // M P lists half-layout coordinates in interleaved order: (M P)(:, 2c) = M(:, c), (M P)(:, 2c+1) = M(:, c
    // + d/2).
    check_relative(attn::apply_rope(M * P, rope_of(attn::RopeLayout::Interleaved, base)), half * P, 1.0, 0.0);
  }
}

TEST_CASE("RoPE per head: each block of d/heads columns turns as its own head") {
  std::mt19937 rng(2022);
  const Matrix M = random_matrix(rng, 6, 12);
  for (attn::RopeLayout layout : {attn::RopeLayout::Interleaved, attn::RopeLayout::Half}) {
    const attn::Rope rope = rope_of(layout, 100.0, 3);
    const Matrix all = attn::apply_rope(M, rope, 3);
    for (int h = 0; h < 3; ++h)
      check_relative(all.middleCols(4 * h, 4), attn::apply_rope(M.middleCols(4 * h, 4), rope), 1.0, 0.0);
  }
}

TEST_CASE("RoPE Toeplitz: equal queries and equal keys give scores that depend only on i − j") {
  std::mt19937 rng(2023);
  for (attn::RopeLayout layout : {attn::RopeLayout::Interleaved, attn::RopeLayout::Half}) {
    const Matrix q = random_matrix(rng, 1, 8), k = random_matrix(rng, 1, 8);
    const int n = 12;
    const attn::Rope rope = rope_of(layout, 10.0);
    const Matrix Q = attn::apply_rope(q.replicate(n, 1), rope), K = attn::apply_rope(k.replicate(n, 1), rope);
    const Matrix S = Q * K.transpose();
    const std::vector<double> by_distance = attn::rope_dot_by_distance(q, k, rope, n - 1);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        INFO("layout " << int(layout) << ", (" << i << "," << j << ")");
        // Same diagonal, same score; and it is the plot's value at Δ = j − i.
        if (i > 0 && j > 0) CHECK(std::abs(S(i, j) - S(i - 1, j - 1)) <= 1e-12 * S.cwiseAbs().maxCoeff());
        CHECK(std::abs(S(i, j) - by_distance[static_cast<std::size_t>(j - i + n - 1)]) <= 1e-12 * 10);
      }
    // And it is not constant: the position really matters.
    CHECK(std::abs(S(0, 0) - S(0, 5)) > 1e-3);
  }
}

TEST_CASE("RoPE offset invariance: shifting every position by the same amount changes no score") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 10), d = 2 * (1 + static_cast<int>(rng() % 5));
    const Matrix Q = random_matrix(rng, n, d), K = random_matrix(rng, n, d);
    const attn::RopeLayout layout = trial % 2 ? attn::RopeLayout::Half : attn::RopeLayout::Interleaved;
    const Matrix S0 = attn::apply_rope(Q, rope_of(layout, 10000.0, 0)) *
                      attn::apply_rope(K, rope_of(layout, 10000.0, 0)).transpose();
    const int offset = 1 + static_cast<int>(rng() % 40);
    const Matrix S1 = attn::apply_rope(Q, rope_of(layout, 10000.0, offset)) *
                      attn::apply_rope(K, rope_of(layout, 10000.0, offset)).transpose();
    INFO("trial " << trial << ", offset " << offset);
    check_relative(S1, S0, std::max(1.0, S0.cwiseAbs().maxCoeff()));
    // The rotated vectors themselves do change (it is the scores that do not).
    if (n > 0)
      CHECK((attn::apply_rope(Q, rope_of(layout, 10000.0, offset)) - attn::apply_rope(Q, rope_of(layout)))
                .norm() > 1e-6);
  }
}

// --- the scene key "rope" (version 2) ---------------------------------------------------------

TEST_CASE("scene key rope: version 2, written back as read, defaults, and Q_rope/K_rope in compute()") {
  const std::string text =
      R"({"version":2,"tokens":["a","b","c"],"Q":[[1,0],[0,1],[1,1]],"K":[[1,0],[1,0],[0,1]],"V":[[1],[2],[3]],)"
      R"("scale":"none","causal":false,"rope":{"base":100,"layout":"half","offset":4}})";
  const scene::ParseResult parsed = scene::parse_scene(text);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error);
  const scene::Scene& s = *parsed.scene;
  CHECK(s.rope_on);
  CHECK(s.rope.base == 100.0);
  CHECK(s.rope.layout == attn::RopeLayout::Half);
  CHECK(s.rope.offset == 4);
  CHECK(scene::scene_to_json(s) ==
        R"({"version":2,"tokens":["a","b","c"],"Q":[[1.0,0.0],[0.0,1.0],[1.0,1.0]],)"
        R"("K":[[1.0,0.0],[1.0,0.0],[0.0,1.0]],"V":[[1.0],[2.0],[3.0]],"scale":"none",)"
        R"("causal":false,"rope":{"base":100.0,"layout":"half","offset":4}})");
  // The pass: Q and K as given, the scores from the turned ones (d = 2: one pair, θ = p).
  const attn::Result r = scene::compute(s);
  CHECK(r.Q == s.Q);
  REQUIRE(r.Q_rope.rows() == 3);
  CHECK(r.Q_rope(0, 0) == doctest::Approx(std::cos(4.0)).epsilon(1e-15));  // (1, 0) at position 4
  CHECK(r.Q_rope(0, 1) == doctest::Approx(std::sin(4.0)).epsilon(1e-15));
  CHECK(r.scores(0, 1) == doctest::Approx(std::cos(1.0)).epsilon(1e-14));  // q at p, k = (1,0) at p+1
  // Defaults: {} is base 10000, interleaved, offset 0, and writes base and layout back.
  const scene::ParseResult defaults =
      scene::parse_scene(R"({"version":2,"tokens":["a"],"Q":[[1,2]],"K":[[1,2]],"V":[[1]],"rope":{}})");
  REQUIRE(defaults.ok());
  CHECK(defaults.scene->rope.base == 10000.0);
  CHECK(defaults.scene->rope.layout == attn::RopeLayout::Interleaved);
  CHECK(scene::scene_to_json(*defaults.scene).find(R"("rope":{"base":10000.0,"layout":"interleaved"})") !=
        std::string::npos);
  // Without rope: version 1 and no Q_rope.
  scene::Scene plain = s;
  plain.rope_on = false;
  CHECK(scene::scene_to_json(plain).rfind(R"({"version":1,)", 0) == 0);
  CHECK(scene::compute(plain).Q_rope.size() == 0);
}

TEST_CASE("scene key rope: errors name rope") {
  const std::string head =
      R"({"version":2,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[5,6],[7,8]],"V":[[1],[2]],)";
  const std::pair<const char*, const char*> cases[] = {
      {R"("rope":{"base":1}})", "rope: base must be above 1"},
      {R"("rope":{"base":1e13}})", "rope: base must be above 1 and at most 1e12"},
      {R"("rope":{"layout":"both"}})", "rope: layout must be \"interleaved\" or \"half\""},
      {R"("rope":{"offset":100001}})", "rope: offset must be a whole number from 0 to 100000"},
      {R"("rope":{"angle":1}})", "rope: unknown key \"angle\""},
      {R"("rope":[10000]})", "rope: expected an object"},
  };
  for (const auto& c : cases) {
    // (Not a structured binding: clang 14 cannot capture one in INFO's lambda.)
    const char* tail = c.first;
    const char* want = c.second;
    const scene::ParseResult r = scene::parse_scene(head + tail);
    const std::string tail_text = tail;  // clang 14 (wasm) cannot capture a structured binding in INFO
    INFO(tail_text);
    CHECK_FALSE(r.ok());
    CHECK(r.error.rfind(want, 0) == 0);
  }
  const scene::ParseResult odd =
      scene::parse_scene(R"({"version":2,"tokens":["a"],"Q":[[1,2,3]],"K":[[1,2,3]],"V":[[1]],"rope":{}})");
  CHECK(odd.error == "rope: each head's size must be even to form pairs (d_k = 3)");
  const scene::ParseResult v1 =
      scene::parse_scene(R"({"version":1,"tokens":["a"],"Q":[[1,2]],"K":[[1,2]],"V":[[1]],"rope":{}})");
  CHECK(v1.error.rfind("rope: needs \"version\": 2", 0) == 0);
}

namespace {
const char* demo_text(const char* file) {
  for (const EmbeddedDemo& d : kEmbeddedDemos)
    if (std::strcmp(d.file, file) == 0) return d.text;
  return "";
}
const char* const kRopeRelativeDemo = demo_text("rope-relative.json");
}  // namespace

TEST_CASE("demo rope-relative: identical tokens, scores cos(Δ) + 9 cos(Δ/4) by distance, weights fall off") {
  const scene::ParseResult parsed = scene::parse_scene(kRopeRelativeDemo);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error);
  const attn::Result r = scene::compute(*parsed.scene);
  const int n = 6;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      // Pair 0 (weight 1²) turns by Δ, pair 1 (weight 3²) by Δ · 16^(−1/2) = Δ/4.
      const double delta = j - i;
      INFO("(" << i << "," << j << ")");
      CHECK(r.scores(i, j) == doctest::Approx(std::cos(delta) + 9.0 * std::cos(delta / 4.0)).epsilon(1e-13));
    }
  // Row 0 attends by distance: strictly decreasing weights, most on itself (NumPy: 0.635, 0.303, 0.051).
  for (int j = 1; j < n; ++j) CHECK(r.weights(0, j) < r.weights(0, j - 1));
  CHECK(r.weights(0, 0) == doctest::Approx(0.635).epsilon(1e-3));
  CHECK(r.weights(0, 1) == doctest::Approx(0.303).epsilon(2e-3));
  // A middle row is symmetric around itself.
  CHECK(r.weights(2, 1) == doctest::Approx(r.weights(2, 3)).epsilon(1e-12));
}
