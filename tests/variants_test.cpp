// The attention variants (sliding window with sinks, ALiBi, grouped-query attention, the KV-cache
// bill and cache policies) against their definitions, written out here from the papers:
//   window w (Longformer; Mistral 7B): causal 0 ≤ i − j < w, otherwise |i − j| < w;
//   sinks s (StreamingLLM, Xiao et al. 2023): keys j < s visible whatever the window;
//   ALiBi (Press et al. 2022): B_h(i, j) = −m_h·|i − j|, m_h = 2^(−8h/H), h = 1 … H;
//   GQA (Ainslie et al. 2023): head t reads K/V group ⌊t / (H / H_kv)⌋ (torch.repeat_interleave);
//   KV cache bytes = 2 × layers × H_kv × d_head × bytes per number, per token.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/alibi.hpp"
#include "core/heads.hpp"
#include "core/incremental.hpp"
#include "core/kv_bill.hpp"
#include "core/kv_cache.hpp"
#include "core/online.hpp"
#include "helpers.hpp"
#include "scene/edit.hpp"
#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"

using attn::MaskMatrix;
using attn::Matrix;

namespace {

// A 0/1 mask from its rows written as digits, separated by spaces: "100 110 001" is 3 × 3.
MaskMatrix mask_text(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> rows;
  for (std::string row; in >> row;) rows.push_back(row);
  MaskMatrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows[0].size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      m(Eigen::Index(i), Eigen::Index(j)) = static_cast<unsigned char>(rows[i][j] == '1');
  return m;
}

attn::Options window_options(int window, int sinks, bool causal) {
  attn::Options o;
  o.window = window;
  o.sinks = sinks;
  o.causal = causal;
  return o;
}

}  // namespace

TEST_CASE("window and sinks: the allowed masks of the definitions (n = 6)") {
  // Each mask as its rows (query i), a 1 where key j is visible.
  struct Case {
    int window, sinks;
    bool causal;
    const char* rows;
  };
  const Case cases[] = {
      // Causal, w = 3: query i sees i−2 … i.
      {3, 0, true, "100000 110000 111000 011100 001110 000111"},
      // Not causal, w = 2: |i − j| < 2, a band of width 3.
      {2, 0, false, "110000 111000 011100 001110 000111 000011"},
      // Causal, w = 2, one sink: key 0 stays visible from every query (StreamingLLM's first token).
      {2, 1, true, "100000 110000 111000 101100 100110 100011"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.rows);
    CHECK(attn::allowed_mask(6, window_options(c.window, c.sinks, c.causal)) == mask_text(c.rows));
  }
  // Sinks do not override causal: query 0 never sees key 1 even with 2 sinks.
  CHECK(attn::allowed_mask(3, window_options(1, 2, true))(0, 1) == 0);
  // A custom mask still applies to the sinks (ANDed).
  attn::Options custom = window_options(1, 1, false);
  custom.mask = MaskMatrix::Ones(3, 3);
  custom.mask(2, 0) = 0;
  CHECK(attn::allowed_mask(3, custom) == mask_text("100 110 001"));
  // A window of n or more hides nothing.
  CHECK(attn::allowed_mask(5, window_options(5, 0, false)) == MaskMatrix::Ones(5, 5));
}

TEST_CASE("ALiBi: the paper's slopes and bias") {
  // Press et al. 2022, §3: "For a model with 8 heads, our slopes are 1/2^1, 1/2^2, …, 1/2^8".
  for (int h = 0; h < 8; ++h) CHECK(attn::alibi_slope(h, 8) == std::ldexp(1.0, -(h + 1)));
  // "for 16 heads … 1/2^0.5, 1/2^1, 1/2^1.5, …, 1/2^8".
  for (int h = 0; h < 16; ++h)
    CHECK(attn::alibi_slope(h, 16) == doctest::Approx(std::pow(2.0, -0.5 * (h + 1))));
  CHECK(attn::alibi_slope(0, 1) == 1.0 / 256.0);
  const Matrix B = attn::alibi_bias(4, 0.5);
  CHECK(B(0, 0) == 0.0);
  CHECK(B(3, 0) == -1.5);
  CHECK(B(0, 3) == -1.5);
  CHECK(B(2, 1) == -0.5);
  // Equal scores everywhere (Q = 0): a causal row i puts weight ∝ exp(−m (i − j)) on key j — the
  // bias alone decides, a geometric fall-off with distance.
  attn::Options o;
  o.causal = true;
  o.alibi_slope = 0.5;
  const attn::Result r = attn::attend(Matrix::Zero(3, 2), Matrix::Ones(3, 2), Matrix::Identity(3, 3), o);
  const double z = std::exp(-1.0) + std::exp(-0.5) + 1.0;
  CHECK(r.weights(2, 0) == doctest::Approx(std::exp(-1.0) / z).epsilon(1e-15));
  CHECK(r.weights(2, 1) == doctest::Approx(std::exp(-0.5) / z).epsilon(1e-15));
  CHECK(r.weights(2, 2) == doctest::Approx(1.0 / z).epsilon(1e-15));
  check_same_bits("logits", r.logits, r.scaled + r.bias);
}

TEST_CASE("incremental recompute with window, sinks and ALiBi: bit for bit; a new slope is a full pass") {
  std::mt19937 rng(2502);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 1 + int(rng() % 30);
    auto [Q, K, V] = random_qkv(rng, n, 1 + int(rng() % 9), 1 + int(rng() % 5));
    attn::Options o = window_options(1 + int(rng() % unsigned(n)), int(rng() % 3), trial % 2 == 0);
    o.alibi_slope = trial % 3 ? std::ldexp(1.0, -(1 + trial % 8)) : 0.0;
    attn::IncrementalAttention inc;
    inc.update(Q, K, V, o);
    for (int step = 0; step < 10; ++step) {
      const int i = int(rng() % unsigned(n));
      Matrix& edited = step % 3 == 0 ? Q : step % 3 == 1 ? K : V;
      edited.row(i) = random_matrix(rng, 1, int(edited.cols()));
      INFO("trial " << trial << ", step " << step);
      CHECK(inc.update(Q, K, V, o) == attn::IncrementalAttention::Update::Rows);
      check_same_stages(inc.result(), attn::attend(Q, K, V, o));
    }
    // A wider window re-runs the rows that gained a key; a new slope is a full pass.
    attn::Options wider = o;
    wider.window += 1;
    CHECK(inc.update(Q, K, V, wider) != attn::IncrementalAttention::Update::Full);
    check_same_stages(inc.result(), attn::attend(Q, K, V, wider));
    attn::Options steeper = wider;
    steeper.alibi_slope = 1.0;
    CHECK(inc.update(Q, K, V, steeper) == attn::IncrementalAttention::Update::Full);
    check_same_stages(inc.result(), attn::attend(Q, K, V, steeper));
  }
}

TEST_CASE("online pass with window, sinks and ALiBi: the attend() output to 1e-12; hidden tiles skipped") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + int(rng() % 24);
    const auto [Q, K, V] = random_qkv(rng, n, 1 + int(rng() % 6), 1 + int(rng() % 4));
    attn::Options o = window_options(1 + int(rng() % unsigned(n)), int(rng() % 3), trial % 2 == 0);
    if (trial % 3) o.alibi_slope = 0.25;
    const attn::Result full = attn::attend(Q, K, V, o);
    const attn::OnlineResult online = attn::attend_online(Q, K, V, o, 1 + int(rng() % unsigned(n)));
    const double scale = std::max(V.cwiseAbs().maxCoeff(), 1e-300);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index c = 0; c < V.cols(); ++c)
        CHECK(std::abs(online.output(i, c) - full.output(i, c)) <= 1e-12 * scale);
  }
  // n = 8, causal window 2, B = 2: of the 16 tiles only the 4 diagonal and 3 sub-diagonal ones hold
  // a visible cell (0 ≤ i − j < 2); the other 9 are skipped.
  const Matrix X = Matrix::Ones(8, 2);
  const attn::OnlineResult r = attn::attend_online(X, X, X, window_options(2, 0, true), 2);
  CHECK(r.tiles_computed == 7);
  CHECK(r.tiles_skipped == 9);
}

TEST_CASE("cache policies: StreamingLLM's sinks + last w keep and evict what they say") {
  attn::CachePolicy p;
  p.kind = attn::CacheKind::SinksLastW;
  p.sinks = 2;
  p.window = 3;
  CHECK(attn::cache_kept(p, 0) == std::vector<int>{0});
  CHECK(attn::cache_kept(p, 4) == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(attn::cache_kept(p, 5) == std::vector<int>{0, 1, 3, 4, 5});  // 2 left the window
  CHECK(attn::cache_kept(p, 9) == std::vector<int>{0, 1, 7, 8, 9});
  CHECK(attn::cache_evicted_at(p, 4) == -1);  // t − w = 1 is a sink
  CHECK(attn::cache_evicted_at(p, 5) == 2);
  CHECK(attn::cache_evicted_at(p, 9) == 6);
  attn::CachePolicy last;
  last.kind = attn::CacheKind::LastW;
  last.window = 3;
  CHECK(attn::cache_kept(last, 9) == std::vector<int>{7, 8, 9});
  CHECK(attn::cache_evicted_at(last, 3) == 0);
  CHECK(attn::cache_kept(attn::CachePolicy{}, 3) == std::vector<int>{0, 1, 2, 3});
  CHECK(attn::check_cache_policy(last).empty());
  last.window = 0;
  CHECK(attn::check_cache_policy(last) == "cache: keeping the last w needs w ≥ 1, got 0");
}

TEST_CASE("decode with an evicting cache equals the windowed full pass, bit for bit") {
  std::mt19937 rng(4096);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + int(rng() % 18), w = 1 + int(rng() % 6), sinks = trial % 2 ? int(rng() % 3) : 0;
    const auto [Q, K, V] = random_qkv(rng, n, 1 + int(rng() % 6), 1 + int(rng() % 4));
    attn::Options o = window_options(w, sinks, true);
    if (trial % 3 == 0) o.alibi_slope = 0.125;
    attn::CachePolicy p;
    p.kind = sinks ? attn::CacheKind::SinksLastW : attn::CacheKind::LastW;
    p.window = w;
    p.sinks = sinks;
    const attn::Result full = attn::attend(Q, K, V, o);
    const attn::DecodeResult decode = attn::decode_with_cache(Q, K, V, o, 0, p);
    for (int t = 0; t < n; ++t) {
      INFO("trial " << trial << ", n " << n << ", w " << w << ", sinks " << sinks << ", t " << t);
      const attn::DecodeStep& s = decode.steps[std::size_t(t)];
      CHECK(s.kept == attn::cache_kept(p, t));
      CHECK(s.cache_len == std::min(t + 1, w + std::min(sinks, std::max(t + 1 - w, 0))));
      for (int j = 0; j <= t; ++j) CHECK(same_bits(s.weights(0, j), full.weights(t, j)));
      for (Eigen::Index c = 0; c < V.cols(); ++c) CHECK(same_bits(s.output(0, c), full.output(t, c)));
    }
  }
}

TEST_CASE(
    "GQA: H_kv = H is multi-head attention bit for bit; H_kv < H is MHA over repeat_interleave'd K, V") {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 24; ++trial) {
    const int H = std::vector<int>{2, 4, 8}[trial % 3], n = 1 + int(rng() % 9);
    const int kv = std::vector<int>{1, 2, H}[(trial / 3) % 3], dh = 1 + int(rng() % 3),
              dvh = 1 + int(rng() % 3);
    const Matrix Q = random_matrix(rng, n, H * dh), K = random_matrix(rng, n, kv * dh),
                 V = random_matrix(rng, n, kv * dvh);
    attn::Options o;
    o.causal = trial % 2;
    attn::HeadsOptions variants;
    variants.kv_heads = kv;
    variants.alibi = trial % 4 == 3;
    CHECK(attn::check_grouped_heads(Q, K, V, H, kv, Matrix()).empty());
    const attn::HeadsResult gqa = attn::attend_heads(Q, K, V, H, Matrix(), o, variants);
    // torch.repeat_interleave(K_groups, H / H_kv, dim=heads): group g's columns copied to heads
    // g·H/H_kv … (g+1)·H/H_kv − 1.
    Matrix K_rep(n, H * dh), V_rep(n, H * dvh);
    for (int t = 0; t < H; ++t) {
      const int g = t / (H / kv);
      K_rep.middleCols(t * dh, dh) = K.middleCols(g * dh, dh);
      V_rep.middleCols(t * dvh, dvh) = V.middleCols(g * dvh, dvh);
    }
    attn::HeadsOptions mha;
    mha.alibi = variants.alibi;
    const attn::HeadsResult want = attn::attend_heads(Q, K_rep, V_rep, H, Matrix(), o, mha);
    INFO("H " << H << ", H_kv " << kv << ", trial " << trial);
    CHECK(gqa.kv_heads == kv);
    REQUIRE(gqa.heads.size() == want.heads.size());
    for (std::size_t t = 0; t < gqa.heads.size(); ++t) check_same_stages(gqa.heads[t], want.heads[t]);
    check_same_bits("concat", gqa.concat, want.concat);
    check_same_bits("weights_mean", gqa.weights_mean, want.weights_mean);
  }
  const Matrix Q = Matrix::Ones(2, 4), K = Matrix::Ones(2, 4), V = Matrix::Ones(2, 4);
  CHECK(attn::check_grouped_heads(Q, K, V, 4, 3, Matrix()) == "kv_heads: 3 does not divide heads = 4");
  CHECK(attn::check_grouped_heads(Q, K, V, 4, 2, Matrix()) ==
        "K: has 4 columns, expected 2 (kv_heads × d_k/h)");
  CHECK(attn::kv_group(5, 8, 2) == 1);  // heads 4 … 7 share group 1
  CHECK(attn::kv_group(3, 8, 2) == 0);
}

TEST_CASE(
    "KV-cache bill: every preset equals 2 × layers × H_kv × d_head × bytes, per token and per context") {
  for (const attn::KvPreset& p : attn::kv_presets()) {
    INFO(p.name);
    const attn::KvShape& k = p.shape;
    CHECK(attn::check_kv_shape(k).empty());
    CHECK(std::string(p.source).size() > 10);
    const std::int64_t per_token = k.kind == attn::KvKind::Latent
                                       ? std::int64_t{k.layers} * (k.latent + k.rope_dim) * k.bytes_per_number
                                       : 2LL * k.layers * k.kv_heads * k.d_head * k.bytes_per_number;
    CHECK(attn::kv_bytes_per_token(k) == per_token);
    const std::int64_t held = k.window > 0 ? std::min(k.context, k.window + k.sinks) : k.context;
    CHECK(attn::kv_bytes_per_context(k) == per_token * held);
  }
  // The classic comparison: a 32-layer, 32-head, d_head 128 model in fp16 — Llama 2 7B (H_kv = 32)
  // holds 512 KiB per token, 2 GiB for its 4096-token context; Llama 3 8B (H_kv = 8) a quarter.
  const auto find = [](const char* name) {
    for (const attn::KvPreset& p : attn::kv_presets())
      if (std::string(p.name) == name) return p.shape;
    FAIL("no preset " << name);
    return attn::KvShape{};
  };
  CHECK(attn::kv_bytes_per_token(find("llama-2-7b")) == 512 * 1024);
  CHECK(attn::kv_bytes_per_context(find("llama-2-7b")) == 2LL * 1024 * 1024 * 1024);
  CHECK(attn::kv_bytes_per_token(find("llama-3-8b")) == 128 * 1024);
  CHECK(attn::kv_bytes_per_context(find("llama-3-8b")) == 1024LL * 1024 * 1024);
  // Mistral 7B: the same 128 KiB per token, but its rolling buffer holds 4096 of the 8192 tokens.
  CHECK(attn::kv_tokens_held(find("mistral-7b")) == 4096);
  CHECK(attn::kv_bytes_per_context(find("mistral-7b")) == 512LL * 1024 * 1024);
  CHECK(attn::kv_bytes_per_token(find("falcon-7b")) == 8192);  // multi-query: one K/V head of 64
  // Multi-head latent attention (DeepSeek-V2 §2.1.4, Table 1: (d_c + d_h^R)·l = 4.5·d_h·l numbers per
  // token against 2·n_h·d_h·l for MHA): 60 × 576 × 2 bytes = 67.5 KiB a token, 8.4375 GiB for 128K
  // tokens, where MHA with its 128 heads of 128 would hold 3.75 MiB a token — 56.9× more.
  const attn::KvShape v2 = find("deepseek-v2");
  CHECK(v2.latent + v2.rope_dim == 4.5 * v2.d_head);
  CHECK(attn::kv_bytes_per_token(v2) == 69120);
  CHECK(attn::kv_bytes_per_context(v2) == 69120LL * 131072);
  CHECK(attn::kv_bytes_per_token(attn::kv_as_mha(v2)) == 2LL * 60 * 128 * 128 * 2);
  CHECK(attn::kv_bytes_per_token(find("deepseek-v3")) == 61LL * 576 * 2);
  // Linear attention keeps S (d×d) and z (d) per head, whatever the context: nothing per token.
  attn::KvShape linear = find("llama-2-7b");
  linear.kind = attn::KvKind::Linear;
  CHECK(attn::kv_bytes_per_token(linear) == 0);
  CHECK(attn::kv_state_bytes(linear) == 32LL * 32 * (128 * 128 + 128) * 2);
  CHECK(attn::kv_bytes_per_context(linear) == attn::kv_state_bytes(linear));
  linear.context *= 16;
  CHECK(attn::kv_bytes_per_context(linear) == attn::kv_state_bytes(linear));  // the same at 16× the context
  attn::KvShape latent = v2;
  latent.latent = 0;
  CHECK(attn::check_kv_shape(latent) == "d_c: must be 1 to 65536");
  attn::KvShape bad = find("llama-2-7b");
  bad.kv_heads = 3;
  CHECK(attn::check_kv_shape(bad) == "kv_heads: must divide heads");
}

TEST_CASE("scene: kv_heads, window, sinks, alibi are version-2 keys; errors name the key") {
  const std::string base = R"("tokens":["a","b","c"],"Q":[[1,0],[0,1],[1,1]],"K":[[1,0],[0,1],[1,1]],)"
                           R"("V":[[1,2],[3,4],[5,6]])";
  for (const char* key : {R"("window":2)", R"("sinks":1,"window":2)", R"("alibi":true)", R"("kv_heads":1)"}) {
    const std::string v1 = std::string("{\"version\":1,") + base + "," + key + "}";
    const scene::ParseResult r = scene::parse_scene(v1);
    INFO(v1);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("needs \"version\": 2") != std::string::npos);
  }
  const BadScene bad[] = {
      {"negative window", "{\"version\":2," + base + ",\"window\":-1}",
       "window: must be 0 (none) or a width of 1 to 1024 tokens, got -1"},
      {"sinks alone", "{\"version\":2," + base + ",\"sinks\":1}", "sinks: sink tokens stay visible"},
      {"kv_heads 0", "{\"version\":2," + base + ",\"kv_heads\":0}", "kv_heads: must be at least 1"},
      {"kv_heads not dividing", "{\"version\":2," + base + ",\"heads\":2,\"kv_heads\":3}",
       "kv_heads: must divide"},
      {"K too wide", "{\"version\":2," + base + ",\"heads\":2,\"kv_heads\":1}",
       "K: row 0 has 2 entries, expected 1"},
      {"alibi with rope", "{\"version\":2," + base + ",\"alibi\":true,\"rope\":{}}", "alibi: ALiBi replaces"},
      {"alibi not a bool", "{\"version\":2," + base + ",\"alibi\":1}", "alibi: must be true or false"},
  };
  for (const BadScene& b : bad) check_parse_error(b);
}

TEST_CASE("scene: the variant keys round-trip through JSON and links; without them a scene stays version 1") {
  const std::string text =
      R"({"version":2,"tokens":["a","b","c","d"],"Q":[[1.0,0.0,0.5,2.0],[0.0,1.0,1.0,0.0],[1.0,1.0,0.0,1.0],)"
      R"([2.0,0.0,1.0,1.0]],"K":[[1.0,0.0],[0.0,1.0],[1.0,1.0],[0.25,2.0]],"V":[[1.0],[2.0],[3.0],[4.0]],)"
      R"("scale":"sqrt_dk","causal":true,)"
      R"("heads":2,"kv_heads":1,"window":2,"sinks":1,"alibi":true})";
  const scene::ParseResult r = scene::parse_scene(text);
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(scene::scene_to_json(*r.scene) == text);
  const scene::link::MadeFragment link = scene::link::make_fragment(*r.scene);
  REQUIRE(link.ok());
  const scene::link::Fragment back = scene::link::parse_fragment(link.fragment);
  REQUIRE(back.ok());
  CHECK(scene::scene_to_json(*back.scene) == text);
  // The stages: each head's bias is its own slope's, the heads share K.
  const attn::HeadsResult h = scene::compute_heads(*r.scene);
  REQUIRE(h.heads.size() == 2);
  CHECK(h.heads[0].bias(3, 0) == -3 * std::pow(2.0, -4.0));  // m_1 = 2^(−8/2)
  CHECK(h.heads[1].bias(3, 0) == -3 * std::pow(2.0, -8.0));  // m_2 = 2^(−16/2)
  check_same_bits("K shared", h.heads[0].K, h.heads[1].K);
  CHECK(h.allowed(3, 0) == 1);  // the sink
  CHECK(h.allowed(3, 1) == 0);  // outside the window
  // A scene without the keys is written as version 1 (byte for byte as before).
  scene::Scene plain = *r.scene;
  plain.heads = 1;
  plain.kv_heads = plain.window = plain.sinks = 0;
  plain.alibi = false;
  plain.Q = plain.Q.leftCols(2).eval();
  CHECK(scene::scene_to_json(plain).rfind("{\"version\":1,", 0) == 0);
  // options_of gives each head its slope.
  CHECK(scene::options_of(*r.scene, 1).alibi_slope == std::pow(2.0, -8.0));
  CHECK(scene::options_of(*r.scene).window == 2);
}

TEST_CASE(
    "set_kv_heads: splitting repeats a group (every stage unchanged), merging mean-pools (Ainslie et al.)") {
  std::mt19937 rng(12);
  for (const bool projected : {false, true}) {
    scene::Scene s;
    s.tokens = {"a", "b", "c", "d", "e"};
    s.heads = 4;
    s.kv_heads = 2;
    s.causal = true;
    if (projected) {
      s.mode = scene::Mode::Projected;
      s.X = random_matrix(rng, 5, 3);
      s.Wq = random_matrix(rng, 3, 8);
      s.Wk = random_matrix(rng, 3, 4);  // 2 groups × d_k/h = 2
      s.Wv = random_matrix(rng, 3, 6);  // 2 groups × 3
    } else {
      s.Q = random_matrix(rng, 5, 8);
      s.K = random_matrix(rng, 5, 4);
      s.V = random_matrix(rng, 5, 6);
    }
    REQUIRE(scene::validate(s).empty());
    const attn::HeadsResult before = scene::compute_heads(s);
    // 2 → 4 groups (= h, plain multi-head): the same attention, bit for bit.
    scene::Scene split = s;
    CHECK(scene::set_kv_heads(split, 4).empty());
    CHECK(split.kv_heads == 0);  // one K/V per head: the key is not written
    const attn::HeadsResult after = scene::compute_heads(split);
    check_same_bits("concat", after.concat, before.concat);
    for (std::size_t t = 0; t < 4; ++t) check_same_stages(after.heads[t], before.heads[t]);
    // 2 → 1 group (multi-query): K's one group is the mean of the two.
    scene::Scene merged = s;
    CHECK(scene::set_kv_heads(merged, 1).empty());
    CHECK(merged.kv_heads == 1);
    const attn::Matrix& K2 = projected ? s.Wk : s.K;
    const attn::Matrix& K1 = projected ? merged.Wk : merged.K;
    REQUIRE(K1.cols() == 2);
    for (Eigen::Index i = 0; i < K1.rows(); ++i)
      for (Eigen::Index c = 0; c < 2; ++c) CHECK(K1(i, c) == (K2(i, c) + K2(i, 2 + c)) / 2.0);
    CHECK(scene::validate(merged).empty());
    // A count that does not divide the heads: an error naming kv_heads, the scene unchanged.
    scene::Scene bad = s;
    CHECK(scene::set_kv_heads(bad, 3) == "kv_heads: must divide heads = 4, got 3");
    CHECK(scene::scene_to_json(bad) == scene::scene_to_json(s));
  }
}
