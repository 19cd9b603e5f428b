// Scene edits (scene/edit.hpp): the direct ↔ projected conversions keep every stage bit for bit on
// random scenes and on the lessons (LESSONS.md examples 1 and 2), and resizing keeps a learned
// scene learned. No file I/O: this also runs as wasm.
#include "scene/edit.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "helpers.hpp"

using attn::Matrix;

namespace {

// A random valid direct scene: n ≤ 9, d_k, d_v ≤ 6, entries of mixed magnitude (some exactly 0),
// every scale mode, causal and custom masks (some rows fully masked).
scene::Scene random_direct(std::mt19937& rng) {
  std::uniform_int_distribution<int> size(1, 9), dim(1, 6), pick(0, 9);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = size(rng), d_k = dim(rng), d_v = dim(rng);
  auto entry = [&] {
    const int p = pick(rng);
    if (p == 0) return 0.0;
    const double magnitude = p < 7 ? 3.0 : p == 7 ? 1e-3 : 1e6;
    return magnitude * unit(rng);
  };
  auto fill = [&](int rows, int cols) {
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = entry();
    return m;
  };
  scene::Scene s;
  for (int i = 0; i < n; ++i) s.tokens.push_back("t" + std::to_string(i));
  s.Q = fill(n, d_k);
  s.K = fill(n, d_k);
  s.V = fill(n, d_v);
  const int mode = pick(rng) % 3;
  s.scale.mode = mode == 0   ? attn::ScaleMode::None
                 : mode == 1 ? attn::ScaleMode::SqrtDk
                             : attn::ScaleMode::Temperature;
  s.scale.temperature = 0.05 + std::abs(unit(rng));
  s.causal = pick(rng) < 3;
  if (pick(rng) < 3) {
    s.mask = attn::MaskMatrix(n, n);
    for (Eigen::Index i = 0; i < s.mask.size(); ++i) s.mask.data()[i] = pick(rng) < 6 ? 1 : 0;
  }
  REQUIRE(scene::validate(s).empty());
  return s;
}

}  // namespace

TEST_CASE(
    "make_learned: X = [Q | K | V] with selection matrices, every stage bit for bit (200 random scenes)") {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    scene::Scene direct = random_direct(rng);
    scene::Scene learned = direct;
    REQUIRE(scene::make_learned(learned) == "");
    REQUIRE(scene::validate(learned).empty());
    CHECK(learned.mode == scene::Mode::Projected);
    const int d_k = direct.d_k(), d_v = direct.d_v();
    CHECK(scene::model_dim(learned) == 2 * d_k + d_v);
    CHECK(learned.Q.size() == 0);
    CHECK(same_bits(learned.X.leftCols(d_k), direct.Q));
    CHECK(same_bits(learned.X.middleCols(d_k, d_k), direct.K));
    CHECK(same_bits(learned.X.rightCols(d_v), direct.V));
    check_same_stages(scene::compute(direct), scene::compute(learned));
    // ... and back: the same Q, K, V as the scene started with, and every stage again.
    scene::Scene back = learned;
    REQUIRE(scene::make_direct(back) == "");
    CHECK(back.mode == scene::Mode::Direct);
    CHECK(back.X.size() == 0);
    CHECK(same_bits(back.Q, direct.Q));
    CHECK(same_bits(back.K, direct.K));
    CHECK(same_bits(back.V, direct.V));
    CHECK(scene::scene_to_json(back) == scene::scene_to_json(direct));
  }
}

TEST_CASE(
    "make_direct: Q, K, V are the projected scene's own products, every stage bit for bit (200 random "
    "scenes)") {
  std::mt19937 rng(10);
  std::uniform_int_distribution<int> size(1, 8), dim(1, 7);
  std::uniform_real_distribution<double> unit(-2.0, 2.0);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const int n = size(rng), d_model = dim(rng), d_k = dim(rng), d_v = dim(rng);
    scene::Scene s;
    for (int i = 0; i < n; ++i) s.tokens.push_back("w" + std::to_string(i));
    s.mode = scene::Mode::Projected;
    auto fill = [&](int r, int c) {
      Matrix m(r, c);
      for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = unit(rng);
      return m;
    };
    s.X = fill(n, d_model);
    s.Wq = fill(d_model, d_k);
    s.Wk = fill(d_model, d_k);
    s.Wv = fill(d_model, d_v);
    s.causal = trial % 2 == 0;
    REQUIRE(scene::validate(s).empty());
    scene::Scene direct = s;
    REQUIRE(scene::make_direct(direct) == "");
    REQUIRE(scene::validate(direct).empty());
    CHECK(direct.mode == scene::Mode::Direct);
    const attn::Result before = scene::compute(s), after = scene::compute(direct);
    check_same_stages(before, after);
    // Q = X·W_q by definition (the core's product; here against a plain triple loop to 1e-12).
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < d_k; ++c) {
        double sum = 0;
        for (int m = 0; m < d_model; ++m) sum += s.X(i, m) * s.Wq(m, c);
        CHECK(std::abs(direct.Q(i, c) - sum) <= 1e-12);
      }
  }
}

TEST_CASE(
    "conversions on the lessons: practice-qkv made direct, soft-dictionary made learned (LESSONS.md 1, 2)") {
  // Lesson 1 (tests/fixtures/lessons.json): Q, K exactly, A to 6 decimals.
  scene::Scene practice = *scene::preset("practice-qkv");
  REQUIRE(scene::make_direct(practice) == "");
  CHECK(practice.Q == lesson_matrix("practice-qkv", "Q"));
  CHECK(practice.K == lesson_matrix("practice-qkv", "K"));
  const attn::Result r1 = scene::compute(practice);
  check_close(r1.weights, lesson_matrix("practice-qkv", "weights"), lesson_tolerance());
  CHECK(scene::make_direct(practice).find("already direct") != std::string::npos);

  // Lesson 2: K = [[10,0],[0,10]], V = [[1,2],[3,4]], q = [1,0] → weights ≈ [1, 0] (fixture).
  scene::Scene dict = *scene::preset("soft-dictionary");
  const attn::Result direct = scene::compute(dict);
  REQUIRE(scene::make_learned(dict) == "");
  CHECK(dict.X == (Matrix(2, 6) << 1, 0, 10, 0, 1, 2, 0, 1, 0, 10, 3, 4).finished());
  CHECK(dict.Wq == (Matrix(6, 2) << 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0).finished());
  CHECK(dict.Wk == (Matrix(6, 2) << 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0).finished());
  CHECK(dict.Wv == (Matrix(6, 2) << 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1).finished());
  const attn::Result learned = scene::compute(dict);
  check_same_stages(direct, learned);
  check_close(learned.weights, lesson_matrix("soft-dictionary", "weights"), lesson_tolerance());
  check_close(learned.output, lesson_matrix("soft-dictionary", "output"), lesson_tolerance());
  CHECK(scene::make_learned(dict).find("already learned") != std::string::npos);
}

// Every stage of every head, the concatenation, W_o and the final output, bit for bit.
void check_same_heads(const attn::HeadsResult& a, const attn::HeadsResult& b) {
  REQUIRE(a.heads.size() == b.heads.size());
  for (std::size_t t = 0; t < a.heads.size(); ++t) {
    CAPTURE(t);
    check_same_stages(a.heads[t], b.heads[t]);
  }
  CHECK(same_bits(a.Q, b.Q));
  CHECK(same_bits(a.K, b.K));
  CHECK(same_bits(a.V, b.V));
  CHECK(same_bits(a.Q_rope, b.Q_rope));
  CHECK(same_bits(a.K_rope, b.K_rope));
  CHECK(same_bits(a.concat, b.concat));
  CHECK(same_bits(a.weights_mean, b.weights_mean));
  CHECK(same_bits(a.output, b.output));
}

TEST_CASE("conversions keep multi-head scenes (heads, W_o) and RoPE exact: every preset, both ways") {
  for (const scene::PresetInfo& info : scene::preset_list()) {
    CAPTURE(info.name);
    scene::Scene s = *scene::preset(info.name);
    for (bool rope : {false, true}) {
      CAPTURE(rope);
      scene::Scene start = s;
      if (rope) {
        if (start.d_k() % (2 * start.heads) != 0) continue;  // RoPE turns pairs within each head
        start.rope_on = true;
      }
      REQUIRE(scene::validate(start).empty());
      const attn::HeadsResult before = scene::compute_heads(start);
      scene::Scene other = start;
      if (start.mode == scene::Mode::Projected) {
        REQUIRE(scene::make_direct(other) == "");
      } else if (2 * start.d_k() + start.d_v() <= scene::kMaxDim) {
        REQUIRE(scene::make_learned(other) == "");
      } else {
        continue;
      }
      REQUIRE(scene::validate(other).empty());
      CHECK(other.heads == start.heads);
      CHECK(same_bits(other.Wo, start.Wo));
      check_same_heads(before, scene::compute_heads(other));
    }
  }
}

TEST_CASE("make_learned: d_model = 2·d_k + d_v must fit the limit 256; -0.0 comes back as 0.0") {
  scene::Scene s;
  s.tokens = {"a", "b"};
  s.Q = Matrix::Constant(2, 100, 0.5);
  s.K = Matrix::Constant(2, 100, -0.5);
  s.V = Matrix::Constant(2, 57, 1.0);  // 2·100 + 57 = 257
  REQUIRE(scene::validate(s).empty());
  scene::Scene too_big = s;
  const std::string error = scene::make_learned(too_big);
  CHECK(error.find("d_model = 2·d_k + d_v = 257") != std::string::npos);
  CHECK(error.find("256") != std::string::npos);
  CHECK(scene::scene_to_json(too_big) == scene::scene_to_json(s));  // unchanged
  scene::set_value_dim(s, 56);                                      // 256 fits
  REQUIRE(scene::make_learned(s) == "");
  CHECK(scene::model_dim(s) == 256);

  // IEEE: −0 · 1 + 0 · x = +0, so a negative zero becomes a positive one — the same number.
  scene::Scene z = *scene::preset("soft-dictionary");
  z.Q(0, 1) = -0.0;
  const attn::Result a = scene::compute(z);
  REQUIRE(scene::make_learned(z) == "");
  const attn::Result b = scene::compute(z);
  CHECK(b.Q(0, 1) == 0.0);
  CHECK(a.weights == b.weights);
  CHECK(a.output == b.output);
}

TEST_CASE("make_direct: a product beyond |x| ≤ 1e15 is refused, naming the matrix") {
  scene::Scene s;
  s.tokens = {"a"};
  s.mode = scene::Mode::Projected;
  s.X = Matrix::Constant(1, 2, 1e10);
  s.Wq = Matrix::Constant(2, 1, 1e10);  // q = 2e20
  s.Wk = Matrix::Constant(2, 1, 1.0);
  s.Wv = Matrix::Constant(2, 1, 1.0);
  REQUIRE(scene::validate(s).empty());
  scene::Scene before = s;
  const std::string error = scene::make_direct(s);
  CHECK(error.rfind("Edit Q, K, V directly: Q", 0) == 0);
  CHECK(scene::scene_to_json(s) == scene::scene_to_json(before));
}

TEST_CASE("resizing a learned scene keeps it learned; shrinking keeps the leading part") {
  scene::Scene s = *scene::preset("learned-5x8");
  const scene::Scene original = s;
  const attn::Result r0 = scene::compute(s);

  // Tokens: X gains rows (seeded, not all equal), W's untouched; shrinking back restores the scene.
  scene::set_token_count(s, 7);
  CHECK(s.mode == scene::Mode::Projected);
  CHECK(s.X.rows() == 7);
  CHECK(same_bits(s.X.topRows(5), original.X));
  CHECK(same_bits(s.Wq, original.Wq));
  CHECK(s.X.row(5) != s.X.row(6));
  CHECK(s.tokens[6] == "t6");
  scene::set_token_count(s, 5);
  CHECK(scene::scene_to_json(s) == scene::scene_to_json(original));

  // d_model: a new feature with zero W rows changes no query, key or value (bit for bit).
  REQUIRE(scene::set_model_dim(s, 10) == "");
  CHECK(s.X.cols() == 10);
  CHECK(s.Wq.rows() == 10);
  CHECK(s.Wv.bottomRows(2).isZero());
  CHECK(same_bits(s.X.leftCols(8), original.X));
  const attn::Result r1 = scene::compute(s);
  for (const auto& [a, b] : {std::pair{&r0.Q, &r1.Q}, {&r0.K, &r1.K}, {&r0.V, &r1.V}})
    CHECK(((*a) - (*b)).cwiseAbs().maxCoeff() <= 1e-15);
  REQUIRE(scene::set_model_dim(s, 3) == "");
  CHECK(same_bits(s.X, original.X.leftCols(3)));
  CHECK(same_bits(s.Wk, original.Wk.topRows(3)));

  // d_k and d_v: columns of the W's.
  s = original;
  scene::set_key_dim(s, 2);
  CHECK(s.d_k() == 2);
  CHECK(same_bits(s.Wq, original.Wq.leftCols(2)));
  CHECK(same_bits(s.Wk, original.Wk.leftCols(2)));
  scene::set_value_dim(s, 9);
  CHECK(s.d_v() == 9);
  CHECK(same_bits(s.Wv.leftCols(8), original.Wv));
  CHECK(s.mode == scene::Mode::Projected);
  CHECK(scene::validate(s).empty());
  // The query's leading columns are the old query's (the same products, to rounding).
  const attn::Result r2 = scene::compute(s);
  CHECK((r2.Q - r0.Q.leftCols(2)).cwiseAbs().maxCoeff() <= 1e-15);

  // Limits: clamped to 1 … 256.
  scene::set_key_dim(s, 0);
  CHECK(s.d_k() == 1);
  REQUIRE(scene::set_model_dim(s, 1000) == "");
  CHECK(scene::model_dim(s) == 256);
  CHECK(scene::validate(s).empty());

  // Multi-head W_o (d_v×d_out) follows d_v: leading rows kept.
  scene::Scene mha = *scene::preset("torch-mha");
  REQUIRE(mha.Wo.size() > 0);
  const Matrix wo = mha.Wo;
  scene::set_value_dim(mha, mha.d_v() + mha.heads);
  CHECK(mha.Wo.rows() == mha.d_v());
  CHECK(same_bits(mha.Wo.topRows(wo.rows()), wo));
  CHECK(scene::validate(mha).empty());

  scene::Scene direct = *scene::preset("soft-dictionary");
  CHECK(scene::set_model_dim(direct, 4).find("d_model") == 0);
  CHECK(scene::model_dim(direct) == 0);
}

TEST_CASE("resizing a direct scene: the same seeded values as before this module existed") {
  // app_state's resize used fresh_value(i, c, salt) with salts 1, 2, 3 for Q, K, V; links and demos
  // made with it must keep their numbers.
  scene::Scene s = *scene::preset("soft-dictionary");
  scene::set_token_count(s, 3);
  CHECK(s.Q(2, 0) == scene::fresh_value(2, 0, 1));
  CHECK(s.K(2, 1) == scene::fresh_value(2, 1, 2));
  CHECK(s.V(2, 0) == scene::fresh_value(2, 0, 3));
  CHECK(std::abs(s.Q(2, 0)) <= 1.0);
  CHECK(s.Q(2, 0) * 100 == std::round(s.Q(2, 0) * 100));
}
