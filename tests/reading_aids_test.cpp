// Reading aids (core/reading_aids): per-row entropy in bits and the first argmax of the weights.
// Reference numbers: LESSONS.md example 1 (practice-qkv) with entropies from NumPy
//   A = softmax([[0,1,1],[1,0,0],[1,1,1]]); -(A*np.log2(A)).sum(1) = [1.467736198152552,
//   1.4071006223791067, 1.584962500721156 (= log2 3)]
// and example 4 (causal-5): row 0 sees only itself (entropy 0), row 2 has 3 allowed keys.
#include "core/reading_aids.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "scene/scene.hpp"

TEST_CASE("reading aids: practice-qkv rows (lesson 1, NumPy entropies)") {
  const attn::Result r = scene::compute(must_preset("practice-qkv"));
  const attn::ReadingAids aids = attn::reading_aids(r);
  REQUIRE(aids.entropy.size() == 3);
  CHECK(aids.entropy[0] == doctest::Approx(1.467736198152552).epsilon(1e-12));
  CHECK(aids.entropy[1] == doctest::Approx(1.4071006223791067).epsilon(1e-12));
  CHECK(aids.entropy[2] == doctest::Approx(1.584962500721156).epsilon(1e-12));
  // Every row may see all 3 keys: the uniform reference is log2 3, and row 2 is exactly uniform.
  for (double u : aids.uniform) CHECK(u == doctest::Approx(std::log2(3.0)).epsilon(1e-15));
  // Row 0 'the' ties keys 1 and 2 (weights 0.422319 both): the first maximum, 1.
  CHECK(aids.argmax == std::vector<int>{1, 0, 0});
}

TEST_CASE("reading aids: causal-5 (lesson 4) rows see 1..5 keys") {
  const attn::Result r = scene::compute(must_preset("causal-5"));
  const attn::ReadingAids aids = attn::reading_aids(r);
  REQUIRE(aids.entropy.size() == 5);
  CHECK(aids.entropy[0] == 0.0);  // one allowed key: all weight on it
  CHECK(aids.uniform[0] == 0.0);
  CHECK(aids.argmax[0] == 0);
  for (int i = 1; i < 5; ++i) {
    CAPTURE(i);
    CHECK(aids.uniform[static_cast<std::size_t>(i)] == doctest::Approx(std::log2(i + 1.0)));
    CHECK(aids.entropy[static_cast<std::size_t>(i)] > 0.0);
    CHECK(aids.entropy[static_cast<std::size_t>(i)] <= aids.uniform[static_cast<std::size_t>(i)] + 1e-12);
    // The argmax is never a future (masked) token.
    CHECK(aids.argmax[static_cast<std::size_t>(i)] <= i);
  }
}

TEST_CASE("reading aids: a fully masked row has entropy 0 and argmax -1") {
  attn::Matrix weights(2, 3);
  weights << 0, 0, 0, 0.25, 0.25, 0.5;
  attn::MaskMatrix allowed(2, 3);
  allowed << 0, 0, 0, 1, 1, 1;
  const attn::ReadingAids aids = attn::reading_aids(weights, allowed);
  CHECK(aids.entropy == std::vector<double>{0.0, 1.5});  // −(¼·−2 + ¼·−2 + ½·−1) = 1.5 exactly
  CHECK(aids.argmax == std::vector<int>{-1, 2});
  CHECK(aids.uniform[0] == 0.0);
}

TEST_CASE("reading aids: a one-hot row has entropy exactly 0; the masked cells are never argmax") {
  attn::Matrix weights(1, 4);
  weights << 0, 1, 0, 0;
  attn::MaskMatrix allowed(1, 4);
  allowed << 0, 1, 1, 0;
  const attn::ReadingAids aids = attn::reading_aids(weights, allowed);
  CHECK(aids.entropy[0] == 0.0);
  CHECK(aids.uniform[0] == 1.0);  // log2 2
  CHECK(aids.argmax[0] == 1);
  // All-zero allowed weights cannot come out of softmax, but the first allowed cell still wins.
  weights << 0, 0, 0, 0;
  CHECK(attn::reading_aids(weights, allowed).argmax[0] == 1);
}

TEST_CASE("result_to_json carries entropy and argmax") {
  const scene::ParseResult p = scene::parse_scene(
      R"({"version":1,"tokens":["a","b"],"Q":[[1],[1]],"K":[[1],[1]],"V":[[1],[2]],"scale":"none",)"
      R"("mask":[[0,0],[1,1]]})");
  REQUIRE_MESSAGE(p.ok(), p.error);
  const nlohmann::json j = nlohmann::json::parse(scene::result_to_json(scene::compute(*p.scene)));
  // Row 0 is fully masked; row 1 ties both keys exactly (weights ½, ½): 1 bit, argmax 0.
  CHECK(j["entropy"] == nlohmann::json::parse("[0.0, 1.0]"));
  CHECK(j["argmax"] == nlohmann::json::parse("[-1, 0]"));
}

TEST_CASE("update_reading_aids: recomputing the changed rows gives the whole recompute's numbers") {
  // causal-5 (lesson 4) with row 3's weights replaced: updating row 3 only equals reading_aids of all.
  attn::Result r = scene::compute(must_preset("causal-5"));
  attn::ReadingAids aids = attn::reading_aids(r);
  r.weights.row(3) << 0.7, 0.1, 0.1, 0.1, 0.0;  // allowed: keys 0…3
  attn::update_reading_aids(r.weights, r.allowed, {3}, &aids);
  const attn::ReadingAids whole = attn::reading_aids(r);
  CHECK(aids.entropy == whole.entropy);
  CHECK(aids.uniform == whole.uniform);
  CHECK(aids.argmax == whole.argmax);
  CHECK(aids.argmax[3] == 0);
  // −(0.7 log₂ 0.7 + 3 · 0.1 log₂ 0.1) = 1.3567796494470397 (NumPy)
  CHECK(aids.entropy[3] == doctest::Approx(1.3567796494470397).epsilon(1e-12));
  // Aids of another size are rebuilt whole.
  attn::ReadingAids empty;
  attn::update_reading_aids(r.weights, r.allowed, {3}, &empty);
  CHECK(empty.argmax == whole.argmax);
}
