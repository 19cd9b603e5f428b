// The FlashAttention and Decode modes' state (ui/modes/flash/flash_state.hpp,
// ui/modes/decode/decode_state.hpp) and their links (mode=flash|decode, view=flash|decode): what the panels
// show is the core's trace at the shown step.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/flash/flash_state.hpp"

namespace {

scene::Scene causal5() {
  std::optional<scene::Scene> s = scene::preset("causal-5");
  REQUIRE(s.has_value());
  return *s;
}

}  // namespace

TEST_CASE("flash_update: steps forward and back through the tiles; the end equals the full pass") {
  const scene::Scene s = causal5();
  const attn::Result r = scene::compute(s);
  ui::FlashStepper f;
  ui::flash_update(f, s, r, 1, 0);
  REQUIRE(f.pass.has_value());
  CHECK(f.pass->step_count() == 9);  // n = 5, B = 2: 3×3 tiles
  CHECK(f.step == 0);
  ui::flash_update(f, s, r, 1, 4);
  CHECK(f.step == 4);
  CHECK(f.last.row_block == 1);
  CHECK(f.last.col_block == 0);
  // Back one step rebuilds and replays: the same state as going straight to 3.
  ui::FlashStepper g;
  ui::flash_update(g, s, r, 1, 3);
  ui::flash_update(f, s, r, 1, 3);
  CHECK(f.pass->m() == g.pass->m());
  CHECK(f.pass->l() == g.pass->l());
  // Past the end clamps; finished: O / ℓ is softmax · V (causal-5's outputs, max |Δ| ≤ 1e-12).
  ui::flash_update(f, s, r, 1, 99);
  CHECK(f.finished());
  CHECK(f.max_abs_diff <= 1e-12);
  CHECK((f.partial - r.output).cwiseAbs().maxCoeff() <= 1e-12);
  // A new block size or a new result starts over at the same requested step.
  f.block = 1;
  ui::flash_update(f, s, r, 1, 2);
  CHECK(f.pass->step_count() == 25);
  CHECK(f.step == 2);
  CHECK(f.pass->block() == 1);
  CHECK(!f.finished());
}

TEST_CASE(
    "flash_update: the drawing's tile map is the pass's tile_hidden; the m bars' scale the largest "
    "|scaled|") {
  // Built in one sweep of the result's allowed-mask (not tile by tile each frame): it must say what the
  // pass skips, for every block size, under a window with a sink, causal or not, and a custom mask.
  scene::Scene s = causal5();
  s.window = 2;
  s.sinks = 1;
  for (const bool causal : {true, false})
    for (const bool custom : {false, true}) {
      s.causal = causal;
      s.mask = custom ? attn::MaskMatrix::Ones(5, 5) : attn::MaskMatrix();
      if (custom) s.mask(3, 0) = s.mask(4, 0) = s.mask(1, 1) = 0;
      REQUIRE(scene::validate(s).empty());
      const attn::Result r = scene::compute(s);
      double largest = 0;
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
          if (r.allowed(i, j)) largest = std::max(largest, std::abs(r.scaled(i, j)));
      for (int block = 1; block <= 5; ++block) {
        INFO("causal " << causal << ", custom mask " << custom << ", B = " << block);
        ui::FlashStepper f;
        f.block = block;
        ui::flash_update(f, s, r, 1, 0);
        const int blocks = f.pass->blocks();
        REQUIRE(f.hidden.size() == std::size_t(blocks * blocks));
        int skipped = 0;
        for (int rb = 0; rb < blocks; ++rb)
          for (int cb = 0; cb < blocks; ++cb) {
            CHECK(bool(f.hidden[std::size_t(rb * blocks + cb)]) == f.pass->tile_hidden(rb, cb));
            skipped += f.hidden[std::size_t(rb * blocks + cb)];
          }
        CHECK(f.scaled_max == largest);
        ui::flash_update(f, s, r, 1, blocks * blocks);  // every tile: the pass skipped exactly those
        CHECK(f.pass->tiles_skipped() == skipped);
      }
    }
}

TEST_CASE("decode_update: step t is row t of the causal pass; multiplies add up step by step") {
  const scene::Scene s = causal5();  // causal: the decode equals the screen's own pass
  const attn::Result r = scene::compute(s);
  ui::DecodeStepper d;
  ui::decode_update(d, s, r, 7, 3);
  CHECK(d.t == 3);
  REQUIRE(d.step.has_value());
  for (int j = 0; j <= 3; ++j) CHECK(d.step->weights(0, j) == r.weights(3, j));
  // d_k = 2, d_v = 3: with the cache (t+1)·5 per step, without (t+1)²·5: 5+10+15+20, 5+20+45+80.
  CHECK(d.mults_with == 50);
  CHECK(d.mults_without == 150);
  ui::decode_update(d, s, r, 7, 99);
  CHECK(d.t == 4);
  ui::decode_update(d, s, r, 7, -1);
  CHECK(d.t == 0);
  // Step 0 sees only itself: a cache of one row, all its weight on it.
  CHECK(d.step->cache_len == 1);
  CHECK(d.step->weights.size() == 1);
  CHECK(d.step->weights(0, 0) == 1.0);
}

TEST_CASE("flash_update and decode_update use the shown head's ALiBi slope (head 2 of 4: 2^-6)") {
  scene::Scene s = causal5();
  s.Q = attn::Matrix::Ones(5, 4);  // 4 heads of size 1, equal scores: only the bias differs
  s.K = attn::Matrix::Ones(5, 4);
  s.V = attn::Matrix(5, 4);
  for (int j = 0; j < 5; ++j) s.V.row(j).setConstant(j);  // each head's value: the position
  s.heads = 4;
  s.alibi = true;
  s.causal = true;
  REQUIRE(scene::validate(s).empty());
  const attn::HeadsResult h = scene::compute_heads(s);
  const attn::Result& r = h.heads[2];
  ui::DecodeStepper d;
  ui::decode_update(d, s, r, 1, 4);
  for (int j = 0; j <= 4; ++j) CHECK(d.step->weights(0, j) == r.weights(4, j));
  ui::FlashStepper f;
  ui::flash_update(f, s, r, 1, 1000);
  CHECK(f.finished());
  CHECK(f.max_abs_diff < 1e-12);
}

TEST_CASE("links: mode=flash and mode=decode round-trip; view=flash|decode are the same modes") {
  namespace links = scene::link;
  for (const char* name : {"flash", "decode"}) {
    INFO(name);
    const links::Fragment by_mode = links::parse_fragment(std::string("demo=causal-5&mode=") + name);
    REQUIRE(by_mode.ok());
    const links::Fragment by_view = links::parse_fragment(std::string("demo=causal-5&view=") + name);
    REQUIRE_MESSAGE(by_view.ok(), by_view.error);
    CHECK(by_view.mode == by_mode.mode);
    CHECK_FALSE(by_view.view.has_value());
    CHECK(links::mode_name(*by_mode.mode) == name);
  }
  CHECK_FALSE(links::parse_fragment("demo=causal-5&view=flashy").ok());
}

#if AL_ALL_MODES  // linear attention is a variant key
// Linear attention's recurrent form at step t (the Decode mode's state beside the cache): S_t and z_t
// are the sums over tokens 0…t, y_t equals the causal matrix form's row t; a row t that sees more
// than 0…t (not causal) is reported.
TEST_CASE(
    "linear_decode_step: S_t = Σ_{j≤t} φ(k_j) v_jᵀ, z_t = Σ_{j≤t} φ(k_j), y_t = the matrix form's row t") {
  attn::Matrix Q(4, 2), K(4, 2), V(4, 3);
  Q << 1, 0, 0, 1, 1, 1, -1, 0.5;
  K << 0.5, 0, 0, 1, -1, 1, 1, -1;
  V << 1, 0, 2, 0, 1, -1, 1, 1, 0, -1, 2, 1;
  auto phi = [](double x) { return x > 0 ? x + 1 : std::exp(x); };
  // The matrix form under a causal mask: a_ij = φ(q_i)·φ(k_j) / Σ_{j'≤i} φ(q_i)·φ(k_j'), Y = A V.
  attn::Matrix A = attn::Matrix::Zero(4, 4);
  attn::MaskMatrix causal = attn::MaskMatrix::Zero(4, 4), all = attn::MaskMatrix::Ones(4, 4);
  for (int i = 0; i < 4; ++i) {
    double sum = 0;
    for (int j = 0; j <= i; ++j) {
      causal(i, j) = 1;
      A(i, j) = phi(Q(i, 0)) * phi(K(j, 0)) + phi(Q(i, 1)) * phi(K(j, 1));
      sum += A(i, j);
    }
    A.row(i) /= sum;
  }
  const attn::Matrix Y = A * V;
  const ui::LinearDecodeStep L = ui::linear_decode_step(Q, K, V, Y, causal, 2);
  CHECK(L.t == 2);
  REQUIRE(L.S.rows() == 2);
  REQUIRE(L.S.cols() == 3);
  for (int a = 0; a < 2; ++a) {
    double z = 0;
    for (int j = 0; j <= 2; ++j) z += phi(K(j, a));
    CHECK(std::abs(L.z(0, a) - z) < 1e-14);
    for (int b = 0; b < 3; ++b) {
      double s = 0;
      for (int j = 0; j <= 2; ++j) s += phi(K(j, a)) * V(j, b);
      CHECK(std::abs(L.S(a, b) - s) < 1e-14);
    }
  }
  for (int c = 0; c < 3; ++c) CHECK(std::abs(L.y_recurrent(0, c) - Y(2, c)) < 1e-12);
  CHECK(L.y_matrix == Y.row(2));
  CHECK(L.max_diff < 1e-12);
  CHECK(L.plain_causal);
  // A mask that lets row 2 see token 3 too: the recurrent form is still the causal one.
  CHECK_FALSE(ui::linear_decode_step(Q, K, V, Y, all, 2).plain_causal);
}

TEST_CASE("decode_linear_update: only a scene with linear attention has the state") {
  const scene::Scene s = causal5();
  const attn::Result r = scene::compute(s);
  ui::DecodeStepper d;
  ui::decode_update(d, s, r, 7, 3);
  ui::decode_linear_update(d, s, r, nullptr, nullptr, 7);
  CHECK_FALSE(d.linear.has_value());
}
#endif
