// Incremental recompute (src/core/incremental.hpp) against the full pass attn::attend: after every
// edit of a random sequence, every stage must be identical bit for bit.
#include "core/incremental.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "helpers.hpp"

namespace {

struct Scene {
  attn::Matrix Q, K, V;
  attn::Options options;
};

void random_row(std::mt19937& rng, attn::Matrix& m, int i) {
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (Eigen::Index c = 0; c < m.cols(); ++c) m(i, c) = u(rng);
}

Scene random_scene(std::mt19937& rng, int n, int d_k, int d_v) {
  Scene s{attn::Matrix(n, d_k), attn::Matrix(n, d_k), attn::Matrix(n, d_v), {}};
  for (int i = 0; i < n; ++i) random_row(rng, s.Q, i), random_row(rng, s.K, i), random_row(rng, s.V, i);
  switch (rng() % 3) {
    case 0:
      s.options.scale.mode = attn::ScaleMode::None;
      break;
    case 1:
      s.options.scale.mode = attn::ScaleMode::SqrtDk;
      break;
    default:
      s.options.scale.mode = attn::ScaleMode::Temperature;
      s.options.scale.temperature = 0.05 + double(rng() % 1000) / 200.0;
  }
  s.options.causal = rng() % 2;
  if (rng() % 3 == 0) {  // a custom mask, sometimes with fully masked rows
    s.options.mask = attn::MaskMatrix::Ones(n, n);
    for (Eigen::Index i = 0; i < s.options.mask.size(); ++i) s.options.mask.data()[i] = rng() % 3 ? 1 : 0;
    if (rng() % 2) s.options.mask.row(rng() % n).setZero();
  }
  if (rng() % 3 == 0) {  // a sliding window, sometimes with sinks (core/attention.hpp)
    s.options.window = 1 + int(rng() % unsigned(n));
    s.options.sinks = int(rng() % 3);
  }
  if (rng() % 3 == 0)
    s.options.alibi_slope = std::pow(2.0, -double(1 + rng() % 8));  // ALiBi's B = −m·|i − j|
  return s;
}

// One random edit: a row of Q, K or V through set_* or update(), several rows at once, a huge
// value (overflowing dot products are clamped), or the same values again.
void random_edit(std::mt19937& rng, Scene& s, attn::IncrementalAttention& inc) {
  const int n = int(s.Q.rows());
  const int i = int(rng() % n);
  attn::Matrix* const matrices[3] = {&s.Q, &s.K, &s.V};
  using Setter = void (attn::IncrementalAttention::*)(int, const double*);
  const Setter setters[3] = {&attn::IncrementalAttention::set_query, &attn::IncrementalAttention::set_key,
                             &attn::IncrementalAttention::set_value};
  const int kind = int(rng() % 10);
  switch (kind) {
    case 0:  // row i of Q, K or V through set_query / set_key / set_value
    case 1:
    case 2: {
      attn::Matrix& m = *matrices[kind];
      random_row(rng, m, i);
      (inc.*setters[kind])(i, &m(i, 0));
      break;
    }
    case 3:  // row i of Q or K through update()
    case 4:
      random_row(rng, *matrices[kind - 3], i);
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Rows);
      break;
    case 5:  // a query, a key and a value of different tokens in one update
      random_row(rng, s.Q, i);
      random_row(rng, s.K, int(rng() % n));
      random_row(rng, s.V, int(rng() % n));
      inc.update(s.Q, s.K, s.V, s.options);
      break;
    case 6:  // one number dragged far: 1e200 overflows the dot products to ±Inf
      s.Q(i, 0) = (rng() % 2 ? 1e200 : -1e200);
      s.K(int(rng() % n), 0) = 1e200;
      inc.update(s.Q, s.K, s.V, s.options);
      break;
    case 7:  // a click on the Mask grid: one cell of the custom mask toggled (the mask made first)
      if (s.options.mask.size() == 0) s.options.mask = attn::MaskMatrix::Ones(n, n);
      s.options.mask(i, int(rng() % n)) ^= 1;
      CHECK(inc.update(s.Q, s.K, s.V, s.options) != attn::IncrementalAttention::Update::Full);
      break;
    case 8:  // causal, or the window and its sinks
      if (rng() % 2) {
        s.options.causal = !s.options.causal;
      } else {
        s.options.window = int(rng() % unsigned(n + 1));
        s.options.sinks = int(rng() % 3);
      }
      CHECK(inc.update(s.Q, s.K, s.V, s.options) != attn::IncrementalAttention::Update::Full);
      break;
    default:
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::None);
  }
}

}  // namespace

TEST_CASE("incremental recompute equals the full pass bit for bit after random edit sequences") {
  const std::string original = attn::kernels::active().name;
  for (const attn::kernels::KernelSet* set : attn::kernels::available()) {
    REQUIRE(attn::kernels::select(set->name));
    std::mt19937 rng(8128);
    for (int trial = 0; trial < 30; ++trial) {
      // Sizes around the panel widths (2·lanes) and the 6-row tiles, plus larger ones.
      const int n = trial < 25 ? 1 + int(rng() % 40) : 60 + int(rng() % 100);
      Scene s = random_scene(rng, n, 1 + int(rng() % 17), 1 + int(rng() % 17));
      attn::IncrementalAttention inc;
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Full);
      for (int step = 0; step < 25; ++step) {
        random_edit(rng, s, inc);
        INFO("set " << std::string(set->name) << ", trial " << trial << " (n " << n << "), step " << step);
        check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
      }
      // A lent result replaced by another computation: invalidate() makes the next update a full
      // pass on fresh storage, identical.
      attn::Result other = attn::attend(s.K, s.Q, s.V, s.options);
      inc.swap_result(other);
      inc.invalidate();
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Full);
      check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
      // A change of the scale is a full pass, still identical.
      s.options.scale = {attn::ScaleMode::Temperature, 0.5 + double(trial)};
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Full);
      check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
      // A new mask with an edited row in the same update (not one user action) is a full pass too.
      s.options.causal = !s.options.causal;
      random_row(rng, s.V, 0);
      CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Full);
      check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
    }
  }
  REQUIRE(attn::kernels::select(original.c_str()));
}

TEST_CASE("incremental at n = 1024, d = 64: query, key and value edits equal the full pass") {
  std::mt19937 rng(1024);
  Scene s = random_scene(rng, 1024, 64, 64);
  attn::IncrementalAttention inc;
  inc.reset(s.Q, s.K, s.V, s.options);
  for (int step = 0; step < 6; ++step) {
    random_edit(rng, s, inc);
    INFO("step " << step);
    check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  }
}

namespace {

// The cells that differ (bitwise) between `before` and `after` outside the listed rows and columns.
long unlisted_changes(const attn::Matrix& before, const attn::Matrix& after, const std::vector<int>& rows,
                      const std::vector<int>& cols) {
  long outside = 0;
  for (Eigen::Index i = 0; i < after.rows(); ++i) {
    if (std::find(rows.begin(), rows.end(), int(i)) != rows.end()) continue;
    for (Eigen::Index j = 0; j < after.cols(); ++j) {
      if (std::find(cols.begin(), cols.end(), int(j)) != cols.end()) continue;
      if (std::memcmp(&before(i, j), &after(i, j), sizeof(double)) != 0) ++outside;
    }
  }
  return outside;
}

}  // namespace

TEST_CASE("incremental: last_change names every changed cell of scores, scaled and weights") {
  // What the app's grids rely on to upload only the changed rows and columns of their textures
  // (attn::StageChange, what the UI's textures upload): nothing outside the reported rows and columns
  // changed.
  std::mt19937 rng(4096);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 2 + int(rng() % 60);
    Scene s = random_scene(rng, n, 1 + int(rng() % 9), 1 + int(rng() % 9));
    attn::IncrementalAttention inc;
    inc.update(s.Q, s.K, s.V, s.options);
    CHECK(inc.last_change().full);
    for (int step = 0; step < 20; ++step) {
      const attn::Result before = inc.result();
      random_edit(rng, s, inc);
      const attn::StageChange& c = inc.last_change();
      INFO("trial " << trial << " (n " << n << "), step " << step);
      if (c.full) continue;
      CHECK(unlisted_changes(before.scores, inc.result().scores, c.queries, c.keys) == 0);
      CHECK(unlisted_changes(before.scaled, inc.result().scaled, c.queries, c.keys) == 0);
      // The weights, and with a mask edit the mask, changed only in the listed rows.
      CHECK(unlisted_changes(before.weights, inc.result().weights, c.rows, {}) == 0);
      CHECK(unlisted_changes(before.allowed.cast<double>(), inc.result().allowed.cast<double>(),
                             c.mask ? c.rows : std::vector<int>{}, {}) == 0);
      for (int q : c.queries) CHECK(std::binary_search(c.rows.begin(), c.rows.end(), q));
      CHECK(std::is_sorted(c.queries.begin(), c.queries.end()));
      CHECK(std::is_sorted(c.keys.begin(), c.keys.end()));
      CHECK(std::is_sorted(c.rows.begin(), c.rows.end()));
    }
    // A value edit alone changes no n×n cell and says so.
    const attn::Result before = inc.result();
    random_row(rng, s.V, 0);
    inc.update(s.Q, s.K, s.V, s.options);
    CHECK_FALSE(inc.last_change().full);
    CHECK(inc.last_change().queries.empty());
    CHECK(inc.last_change().keys.empty());
    CHECK(inc.last_change().values);
    CHECK(unlisted_changes(before.weights, inc.result().weights, {}, {}) == 0);
    // A query edit names its row; a change of the scale is a full pass.
    random_row(rng, s.Q, n - 1);
    inc.update(s.Q, s.K, s.V, s.options);
    CHECK(inc.last_change().queries == std::vector<int>{n - 1});
    CHECK(inc.last_change().rows == std::vector<int>{n - 1});
    s.options.scale = {attn::ScaleMode::Temperature, 3.0};
    inc.update(s.Q, s.K, s.V, s.options);
    CHECK(inc.last_change().full);
  }
}

TEST_CASE("incremental: in a sliding window a key, value or mask edit re-runs only the rows it reaches") {
  // 1024 tokens, a 64-wide window and one sink (Longformer-style): a key reaches the rows whose window
  // holds it, a value changes no weight, a mask cell its row; each result bit for bit the full pass's.
  std::mt19937 rng(64);
  const int n = 1024;
  Scene s = random_scene(rng, n, 64, 64);
  s.options = attn::Options{};
  s.options.window = 64;
  s.options.sinks = 1;
  attn::IncrementalAttention inc;
  inc.reset(s.Q, s.K, s.V, s.options);
  const attn::MaskMatrix allowed = inc.result().allowed;
  const auto rows_allowing = [&](int j) {
    std::vector<int> rows;
    for (int i = 0; i < n; ++i)
      if (allowed(i, j)) rows.push_back(i);
    return rows;
  };
  // Key 500: rows 437…563 allow it (|i − 500| < 64), the sink column 0 is not it.
  random_row(rng, s.K, 500);
  CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Rows);
  CHECK(inc.last_change().rows == rows_allowing(500));
  CHECK(inc.last_change().rows.size() == 127);
  check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  // The sink key 0 is seen by every row.
  random_row(rng, s.K, 0);
  inc.update(s.Q, s.K, s.V, s.options);
  CHECK(inc.last_change().rows.size() == std::size_t(n));
  check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  // A value changes no weight (and only the output of rows that can see it).
  random_row(rng, s.V, 700);
  inc.update(s.Q, s.K, s.V, s.options);
  CHECK(inc.last_change().rows.empty());
  CHECK(inc.last_change().values);
  check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  // One cell of a custom mask: one row, the scores kept.
  const attn::Matrix scores = inc.result().scores;
  s.options.mask = attn::MaskMatrix::Ones(n, n);
  s.options.mask(300, 290) = 0;
  CHECK(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Rows);
  CHECK(inc.last_change().mask);
  CHECK(inc.last_change().rows == std::vector<int>{300});
  check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  CHECK(std::memcmp(scores.data(), inc.result().scores.data(), sizeof(double) * scores.size()) == 0);
  // Causal: every row but the last loses the keys after it inside its window.
  s.options.causal = true;
  inc.update(s.Q, s.K, s.V, s.options);
  CHECK(inc.last_change().rows.size() == std::size_t(n - 1));
  check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
}

namespace {

// A mouse drag of K(j, c): `frames` small steps of one number, each through update() as the app does.
void drag_key(Scene& s, attn::IncrementalAttention& inc, int j, int c, int frames, double step,
              int* patched_total, int* rows_total) {
  for (int f = 0; f < frames; ++f) {
    s.K(j, c) += step;
    REQUIRE(inc.update(s.Q, s.K, s.V, s.options) == attn::IncrementalAttention::Update::Rows);
    *patched_total += inc.patched_rows();
    *rows_total += int(inc.last_change().rows.size());
    INFO("key " << j << ", column " << c << ", frame " << f);
    check_same_stages(inc.result(), attn::attend(s.Q, s.K, s.V, s.options));
  }
}

}  // namespace

TEST_CASE("a key's drag: every frame equals the full pass bit for bit, and most rows are only patched") {
  const std::string original = attn::kernels::active().name;
  for (const attn::kernels::KernelSet* set : attn::kernels::available()) {
    REQUIRE(attn::kernels::select(set->name));
    std::mt19937 rng(60);
    // Sizes around the key blocks (64 keys): one block, a partial last block, several.
    for (int n : {5, 63, 64, 65, 130, 200}) {
      Scene s = random_scene(rng, n, 1 + int(rng() % 9), 1 + int(rng() % 9));
      attn::IncrementalAttention inc;
      inc.reset(s.Q, s.K, s.V, s.options);
      int patched = 0, rows = 0;
      for (int j : {0, n / 2, n - 1})  // the first, a middle and the last key (a block's edges)
        drag_key(s, inc, j, int(rng() % unsigned(s.K.cols())), 4, 0.05, &patched, &rows);
      // Dragged far: the key becomes the max of many rows, which then re-run whole (still exact).
      drag_key(s, inc, n / 3, 0, 3, 40.0, &patched, &rows);
      INFO("set " << std::string(set->name) << ", n " << n);
      CHECK(patched <= rows);
    }
  }
  REQUIRE(attn::kernels::select(original.c_str()));
}

TEST_CASE("a key's drag at n = 1024, d = 64: exact, with and without masks, and patched, not re-run") {
  std::mt19937 rng(1025);
  struct Case {
    const char* name;
    bool causal;
    int window;
    double alibi;
    bool custom;
  };
  // (A full pass at n = 1024 per compared frame: few frames, the cases that take other paths.)
  for (const Case& c :
       {Case{"no mask", false, 0, 0.0, false}, Case{"window 64 + sinks, ALiBi", true, 64, 0.125, false},
        Case{"custom mask", false, 0, 0.0, true}}) {
    Scene s = random_scene(rng, 1024, 64, 64);
    s.options = {};
    s.options.scale.mode = attn::ScaleMode::SqrtDk;
    s.options.causal = c.causal;
    s.options.window = c.window;
    s.options.sinks = c.window ? 2 : 0;
    s.options.alibi_slope = c.alibi;
    if (c.custom) {
      s.options.mask = attn::MaskMatrix::Ones(1024, 1024);
      for (Eigen::Index i = 0; i < s.options.mask.size(); ++i) s.options.mask.data()[i] = rng() % 4 ? 1 : 0;
    }
    attn::IncrementalAttention inc;
    inc.reset(s.Q, s.K, s.V, s.options);
    int patched = 0, rows = 0;
    for (int j : {64, 1023}) drag_key(s, inc, j, int(rng() % 64), 2, 0.02, &patched, &rows);
    INFO(c.name << ": " << patched << " of " << rows << " rows patched");
    // A small step of one key moves few rows' max: nearly every row keeps it and is only patched.
    CHECK(rows > 0);
    CHECK(patched >= rows * 9 / 10);
  }
}
