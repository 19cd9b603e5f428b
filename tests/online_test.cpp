// FlashAttention's tiled pass (core/online) and the KV-cache decode (core/kv_cache) against the
// naive pass attend(): the same numbers, step by step.
#include "core/online.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/attention.hpp"
#include "core/kv_cache.hpp"
#include "helpers.hpp"

using attn::Matrix;

namespace {

int random_int(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// A random scene's options: every scale mode, causal or not, a custom mask (30% zeros) or none,
// and in every fourth trial one row of the custom mask all zeros (a fully masked row).
attn::Options random_options(std::mt19937& rng, int n, int trial) {
  attn::Options opt;
  opt.scale.mode = nth_scale_mode(static_cast<std::uint64_t>(trial));
  if (opt.scale.mode == attn::ScaleMode::Temperature)
    opt.scale.temperature = std::vector<double>{0.05, 0.5, 1.0, 3.0, 40.0}[rng() % 5];
  opt.causal = (trial / 3) % 2 == 1;
  if (trial % 2 == 0) {
    std::bernoulli_distribution keep(0.7);
    opt.mask = attn::MaskMatrix(n, n);
    for (Eigen::Index i = 0; i < opt.mask.size(); ++i) opt.mask.data()[i] = keep(rng) ? 1 : 0;
    if (trial % 4 == 0) opt.mask.row(random_int(rng, 0, n - 1)).setZero();
  }
  return opt;
}

bool cell_allowed(const attn::Options& opt, int n, int i, int j) {
  if (opt.causal && j > i) return false;
  return !(opt.mask.rows() == n && opt.mask(i, j) == 0);
}

// A causal scene for the decode tests: n ≤ max_n tokens, d_k ≤ max_dk, d_v ≤ max_dv, random options.
struct CausalScene {
  int n, d_k, d_v;
  Matrix Q, K, V;
  attn::Options opt;
};
CausalScene causal_scene(std::mt19937& rng, int trial, int max_n, int max_dk, int max_dv) {
  const int n = random_int(rng, 1, max_n), d_k = random_int(rng, 1, max_dk), d_v = random_int(rng, 1, max_dv);
  auto [Q, K, V] = random_qkv(rng, n, d_k, d_v, 2, 2);
  attn::Options opt = random_options(rng, n, trial);
  opt.causal = true;
  return {n, d_k, d_v, std::move(Q), std::move(K), std::move(V), std::move(opt)};
}

}  // namespace

TEST_CASE("online pass: the output equals the naive pass to 1e-12 on random scenes, every block size") {
  std::mt19937 rng(1414);
  int masked_rows_seen = 0, skipped_seen = 0, rescaled_seen = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const int n = random_int(rng, 1, 17), d_k = random_int(rng, 1, 8), d_v = random_int(rng, 1, 8);
    const double spread = trial % 5 == 0 ? 3.0 : 1.5;  // some rows nearly one-hot
    const auto [Q, K, V] = random_qkv(rng, n, d_k, d_v, spread, 2.0);
    const attn::Options opt = random_options(rng, n, trial);
    const attn::Result naive = attn::attend(Q, K, V, opt);
    for (int block = 1; block <= n; ++block) {
      INFO("trial " << trial << ": n " << n << ", block " << block << ", causal " << opt.causal);
      const attn::OnlineResult online = attn::attend_online(Q, K, V, opt, block);
      const int blocks = (n + block - 1) / block;
      REQUIRE(online.steps.size() == static_cast<std::size_t>(blocks * blocks));
      check_relative(online.output, naive.output, V.cwiseAbs().maxCoeff());
      CHECK(online.masked_rows == naive.masked_rows);
      for (int row : naive.masked_rows) CHECK(online.output.row(row).isZero(0.0));
      masked_rows_seen += static_cast<int>(naive.masked_rows.size());
      skipped_seen += online.tiles_skipped;
      for (const attn::OnlineStep& s : online.steps)
        for (double a : s.rescale) rescaled_seen += a < 1.0;
    }
  }
  // The generator really covers the hard cases.
  CHECK(masked_rows_seen > 50);
  CHECK(skipped_seen > 100);
  CHECK(rescaled_seen > 100);
}

TEST_CASE("online pass: the trace's m and ℓ are the row max and Σexp over the keys seen so far") {
  std::mt19937 rng(1415);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = random_int(rng, 1, 12), d_k = random_int(rng, 1, 6), d_v = random_int(rng, 1, 4);
    const auto [Q, K, V] = random_qkv(rng, n, d_k, d_v, 1.5, 2.0);
    const attn::Options opt = random_options(rng, n, trial);
    const attn::Result naive = attn::attend(Q, K, V, opt);
    const int block = random_int(rng, 1, n);
    const attn::OnlineResult online = attn::attend_online(Q, K, V, opt, block);
    int step_index = 0;
    for (const attn::OnlineStep& s : online.steps) {
      INFO("trial " << trial << ", step " << step_index++ << " tile (" << s.row_block << "," << s.col_block
                    << "), block " << block);
      // Execution order: query blocks outer, key blocks inner.
      CHECK(s.row_begin == s.row_block * block);
      CHECK(s.col_begin == s.col_block * block);
      bool any = false;
      for (int i = s.row_begin; i < s.row_end; ++i)
        for (int j = s.col_begin; j < s.col_end; ++j) any = any || cell_allowed(opt, n, i, j);
      CHECK(s.skipped == !any);
      for (int r = 0; r < s.row_end - s.row_begin; ++r) {
        const int i = s.row_begin + r;
        // Reference from the naive pass's scaled scores: keys 0 … col_end−1 of row i.
        double m = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < s.col_end; ++j)
          if (naive.allowed(i, j)) m = std::max(m, naive.scaled(i, j));
        double l = 0.0;
        Matrix O = Matrix::Zero(1, d_v);
        for (int j = 0; j < s.col_end; ++j)
          if (naive.allowed(i, j)) {
            l += std::exp(naive.scaled(i, j) - m);
            O += std::exp(naive.scaled(i, j) - m) * V.row(j);
          }
        if (m == -std::numeric_limits<double>::infinity()) {
          CHECK(s.m[r] == m);
          CHECK(s.l[r] == 0.0);
          CHECK(s.O.row(r).isZero(0.0));
        } else {
          CHECK(std::abs(s.m[r] - m) <= 1e-12 * std::max(1.0, std::abs(m)));
          CHECK(std::abs(s.l[r] - l) <= 1e-12 * l);
          check_relative(s.O.row(r), O, l * V.cwiseAbs().maxCoeff());
          check_relative(s.partial.row(r), O / l, V.cwiseAbs().maxCoeff());
        }
        CHECK(s.rescale[r] > 0.0);
        CHECK(s.rescale[r] <= 1.0);
      }
    }
  }
}

TEST_CASE("online pass: causal scene with B = 2 skips exactly the tiles above the diagonal") {
  // n = 5, B = 2: blocks {0,1}, {2,3}, {4}. Tile (r, c) is hidden entirely iff c > r.
  std::mt19937 rng(1416);
  attn::Options opt;
  opt.causal = true;
  const Matrix Q = random_matrix(rng, 5, 3, 1), K = random_matrix(rng, 5, 3, 1),
               V = random_matrix(rng, 5, 2, 1);
  attn::OnlinePass pass(Q, K, V, opt, 2);
  CHECK(pass.blocks() == 3);
  CHECK(pass.step_count() == 9);
  CHECK(pass.tile_cells() == 4);
  std::vector<bool> skipped;
  while (!pass.done()) skipped.push_back(pass.next().skipped);
  CHECK(skipped == std::vector<bool>{false, true, true, false, false, true, false, false, false});
  CHECK(pass.tiles_skipped() == 3);
  CHECK(pass.tiles_computed() == 6);
  // A further next() does nothing.
  const attn::OnlineStep extra = pass.next();
  CHECK(extra.m.empty());
  CHECK(pass.steps_done() == 9);
}

TEST_CASE("online pass: the rescale factor is exp(m_old − m_new) when a later tile holds a bigger score") {
  // One query, keys scoring 1, then 3 (scale none, B = 1): at step 1 the max grows 1 → 3,
  // so α = exp(1 − 3) = e⁻², ℓ = e⁻² + 1, O = e⁻² v₀ + v₁.
  const Matrix Q = (Matrix(2, 1) << 1, 1).finished();
  const Matrix K = (Matrix(2, 1) << 1, 3).finished();
  const Matrix V = (Matrix(2, 1) << 10, 20).finished();
  attn::Options opt;
  opt.scale.mode = attn::ScaleMode::None;
  const attn::OnlineResult r = attn::attend_online(Q, K, V, opt, 1);
  REQUIRE(r.steps.size() == 4);
  const attn::OnlineStep& s0 = r.steps[0];
  const attn::OnlineStep& s1 = r.steps[1];
  CHECK(s0.m[0] == 1.0);
  CHECK(s0.l[0] == 1.0);
  CHECK(s0.O(0, 0) == 10.0);
  CHECK(s0.rescale[0] == 1.0);
  CHECK(s1.m[0] == 3.0);
  CHECK(s1.rescale[0] == std::exp(-2.0));
  CHECK(s1.l[0] == std::exp(-2.0) + 1.0);
  CHECK(s1.O(0, 0) == doctest::Approx(10 * std::exp(-2.0) + 20).epsilon(1e-15));
  // softmax([1, 3]) · [10, 20] by hand.
  const double a0 = 1.0 / (1.0 + std::exp(2.0));
  CHECK(r.output(0, 0) == doctest::Approx(10 * a0 + 20 * (1 - a0)).epsilon(1e-14));
}

TEST_CASE("online pass: huge scores stay finite and still match the naive pass") {
  std::mt19937 rng(1417);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = random_int(rng, 1, 9);
    const Matrix Q = random_matrix(rng, n, 3, 1e15), K = random_matrix(rng, n, 3, 1e15),
                 V = random_matrix(rng, n, 2, 1.0);
    const attn::Options opt = random_options(rng, n, trial);
    const attn::OnlineResult online = attn::attend_online(Q, K, V, opt, random_int(rng, 1, n));
    CHECK(online.output.allFinite());
    for (const attn::OnlineStep& s : online.steps) {
      CHECK(s.O.allFinite());
      for (double l : s.l) CHECK(std::isfinite(l));
    }
  }
}

TEST_CASE("KV cache: each decode step equals row t of the causal full pass, bit for bit") {
  std::mt19937 rng(1418);
  for (int trial = 0; trial < 120; ++trial) {
    // Named copies, not structured bindings: doctest's INFO captures them in a lambda (clang 14).
    const CausalScene scene = causal_scene(rng, trial, 20, 10, 6);
    const int n = scene.n, d_k = scene.d_k, d_v = scene.d_v;
    const Matrix &Q = scene.Q, &K = scene.K, &V = scene.V;
    const attn::Options& opt = scene.opt;
    const attn::Result full = attn::attend(Q, K, V, opt);
    const attn::DecodeResult decode = attn::decode_with_cache(Q, K, V, opt);
    REQUIRE(decode.steps.size() == static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
      INFO("trial " << trial << ", n " << n << ", d_k " << d_k << ", t " << t);
      const attn::DecodeStep& s = decode.steps[t];
      CHECK(s.t == t);
      CHECK(s.cache_len == t + 1);
      REQUIRE(s.weights.cols() == t + 1);
      for (int j = 0; j <= t; ++j) {
        INFO("key " << j);
        CHECK(s.scaled(0, j) == full.scaled(t, j));
        CHECK(s.weights(0, j) == full.weights(t, j));
      }
      for (int j = t + 1; j < n; ++j) CHECK(full.weights(t, j) == 0.0);  // the future the cache never held
      for (int c = 0; c < d_v; ++c) CHECK(s.output(0, c) == full.output(t, c));
    }
  }
}

TEST_CASE("KV cache: multiply counts (with cache linear per step, without quadratic)") {
  // Direct scene n = 4, d_k = 2, d_v = 3: step t costs (t+1)(2+3) with the cache and (t+1)²(2+3)
  // without: totals 5·(1+2+3+4) = 50 and 5·(1+4+9+16) = 150.
  const Matrix Q = Matrix::Ones(4, 2), K = Matrix::Ones(4, 2), V = Matrix::Ones(4, 3);
  attn::Options opt;
  const attn::DecodeResult r = attn::decode_with_cache(Q, K, V, opt);
  CHECK(r.mults_with_cache == 50);
  CHECK(r.mults_without_cache == 150);
  // Projected, d_model = 5: each step adds 5·(2·2+3) = 35 with the cache, (t+1)·35 without.
  const attn::DecodeResult p = attn::decode_with_cache(Q, K, V, opt, 5);
  CHECK(p.mults_with_cache == 50 + 4 * 35);
  CHECK(p.mults_without_cache == 150 + 35 * (1 + 2 + 3 + 4));
  CHECK(attn::decode_mults_with_cache(0, 0, 2, 3) == 5);
  CHECK(attn::decode_mults_without_cache(3, 0, 2, 3) == 80);
}

TEST_CASE("KV cache: one step alone (decode_step) is decode_with_cache's step, bit for bit, every policy") {
  // The reference is the whole decode with its appended-and-evicted cache; decode_step rebuilds only
  // step t's cache from cache_kept(policy, t). Every field must match exactly, and the multiply totals
  // through t must be the trace's running sums.
  std::mt19937 rng(2405);
  for (int trial = 0; trial < 150; ++trial) {
    CausalScene scene = causal_scene(rng, trial, 24, 8, 5);
    const int n = scene.n, d_k = scene.d_k, d_v = scene.d_v;
    const Matrix &Q = scene.Q, &K = scene.K, &V = scene.V;
    attn::Options& opt = scene.opt;
    if (trial % 5 == 1) {
      opt.window = random_int(rng, 1, 6);
      opt.sinks = random_int(rng, 0, 2);
    }
    if (trial % 3 == 2) opt.alibi_slope = 0.25;
    attn::CachePolicy policy;
    policy.kind = attn::CacheKind(trial % 3);
    policy.window = random_int(rng, 1, 7);
    policy.sinks = random_int(rng, 0, 3);
    const int d_model = trial % 2 ? 5 : 0;
    const attn::DecodeResult whole = attn::decode_with_cache(Q, K, V, opt, d_model, policy);
    long long with = 0, without = 0;
    for (int t = 0; t < n; ++t) {
      INFO("trial " << trial << ", n " << n << ", policy " << trial % 3 << " w " << policy.window << " s "
                    << policy.sinks << ", t " << t);
      const attn::DecodeStep& want = whole.steps[std::size_t(t)];
      const attn::DecodeStep got = attn::decode_step(Q, K, V, opt, d_model, policy, t);
      CHECK(got.t == t);
      CHECK(got.kept == want.kept);
      CHECK(got.evicted == want.evicted);
      CHECK(got.cache_len == want.cache_len);
      CHECK(attn::cache_length(policy, t) == int(attn::cache_kept(policy, t).size()));
      REQUIRE(got.weights.cols() == t + 1);
      for (int j = 0; j <= t; ++j) {
        CHECK(same_bits(got.scaled(0, j), want.scaled(0, j)));
        CHECK(same_bits(got.weights(0, j), want.weights(0, j)));
      }
      for (int c = 0; c < d_v; ++c) CHECK(same_bits(got.output(0, c), want.output(0, c)));
      CHECK(got.mults_with_cache == want.mults_with_cache);
      CHECK(got.mults_without_cache == want.mults_without_cache);
      with += want.mults_with_cache;
      without += want.mults_without_cache;
      const attn::DecodeMults through = attn::decode_mults_through(t, d_model, d_k, d_v, policy);
      CHECK(through.with_cache == with);
      CHECK(through.without_cache == without);
    }
    CHECK(with == whole.mults_with_cache);
    CHECK(without == whole.mults_without_cache);
  }
}
