// presets.cpp — the bundled scenes: the worked examples of LESSONS.md, ready to open and drag.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>

#include "scene/scene.hpp"

namespace scene {
namespace {

attn::Matrix rows_of(std::initializer_list<std::initializer_list<double>> rows) {
  attn::Matrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (double v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

// A double uniform in [0, 1) with 53 random bits from two 32-bit Mersenne Twister draws:
//   u = ((a >> 5) · 2²⁶ + (b >> 6)) / 2⁵³
// (Matsumoto & Nishimura's genrand_res53). std::mt19937's sequence is fixed by the standard, and
// this mapping is ours, so the numbers are the same on every compiler and in wasm —
// std::uniform_real_distribution's are not. NumPy's RandomState(seed).random_sample() uses the same
// generator, seeding and mapping, which is how tests/scene_test.cpp checks it.
double uniform01(std::mt19937& rng) {
  const std::uint32_t a = static_cast<std::uint32_t>(rng()) >> 5;  // 27 bits
  const std::uint32_t b = static_cast<std::uint32_t>(rng()) >> 6;  // 26 bits
  return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
}

// rows×cols, each entry uniform in [lo, hi), filled row by row.
attn::Matrix uniform_matrix(std::mt19937& rng, int rows, int cols, double lo, double hi) {
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = lo + (hi - lo) * uniform01(rng);
  return m;
}

// Lesson 1 (NumPy): X is 3 tokens × 4 dims; the projections pick columns of the identity, so each
// query/key is a slice of the token's own features and the scores are small integers.
Scene practice_qkv() {
  Scene s;
  s.tokens = {"the", "cat", "sat"};
  s.mode = Mode::Projected;
  s.X = rows_of({{1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 0, 0}});
  const attn::Matrix I4 = attn::Matrix::Identity(4, 4);
  s.Wq = I4.leftCols(2);       // first two columns: Q = X[:, 0:2]
  s.Wk = I4.middleCols(1, 2);  // columns 1..2:     K = X[:, 1:3]
  s.Wv = I4;                   // V = X
  s.scale.mode = attn::ScaleMode::None;
  return s;
}

// Lesson 2: a query close to one key returns almost exactly that key's value. Row 0 of Q is the
// lesson's q = [1, 0]; row 1 looks for the other key.
Scene soft_dictionary() {
  Scene s;
  s.tokens = {"apple", "pear"};
  s.mode = Mode::Direct;
  s.Q = rows_of({{1, 0}, {0, 1}});
  s.K = rows_of({{10, 0}, {0, 10}});
  s.V = rows_of({{1, 2}, {3, 4}});
  s.scale.mode = attn::ScaleMode::None;
  return s;
}

// Lesson 4: five tokens of a sentence, d_k = 2 with readable values, one value feature per idea;
// the causal mask hides every later token.
Scene causal_5() {
  Scene s;
  s.tokens = {"the", "cat", "sat", "on", "mats"};
  s.mode = Mode::Direct;
  s.Q = rows_of({{1, 0}, {0, 1}, {1, 1}, {0.5, 1}, {1, 0.5}});
  s.K = rows_of({{1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}, {1, -1}});
  s.V = rows_of({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}});
  s.scale.mode = attn::ScaleMode::SqrtDk;
  s.causal = true;
  return s;
}

// Lesson 3's shape: 5 tokens, d_model = d_k = d_v = 8. X uniform in [0, 1) like torch.rand; the
// weights uniform in ±1/√8, the range of nn.Linear's default init for 8 inputs. Drawn in the
// lesson's order (X, then W_q, W_k, W_v) from one fixed-seed generator.
Scene learned_5x8() {
  constexpr int n = 5, d = 8;
  constexpr unsigned kSeed = 0;  // the lesson seeds its generator with 0
  std::mt19937 rng(kSeed);
  const double bound = 1.0 / std::sqrt(static_cast<double>(d));
  Scene s;
  s.tokens = {"we", "learn", "to", "pay", "attention"};
  s.mode = Mode::Projected;
  s.X = uniform_matrix(rng, n, d, 0.0, 1.0);
  s.Wq = uniform_matrix(rng, d, d, -bound, bound);
  s.Wk = uniform_matrix(rng, d, d, -bound, bound);
  s.Wv = uniform_matrix(rng, d, d, -bound, bound);
  s.scale.mode = attn::ScaleMode::SqrtDk;
  return s;
}

struct PresetEntry {
  PresetInfo info;
  Scene (*make)();
};

const std::vector<PresetEntry>& entries() {
  static const std::vector<PresetEntry> kEntries = {
      {{"practice-qkv",
        "Lesson 1: Q = X Wq, K = X Wk, V = X Wv pick columns of X; unscaled scores give A's first row "
        "[0.155 0.422 0.422]."},
       practice_qkv},
      {{"soft-dictionary",
        "Lesson 2: the query [1,0] is close to the first key, so it gets weight 0.99996 and returns almost "
        "exactly that key's value [1,2]."},
       soft_dictionary},
      {{"causal-5",
        "Lesson 4: a causal mask lets token i see only tokens 0..i; 'sat' gives exactly 0 weight to 'on' "
        "and 'mats'."},
       causal_5},
      {{"learned-5x8",
        "Lesson 3: 5 tokens of dim 8 projected by learned maps Wq, Wk, Wv (random from a fixed seed), "
        "scores scaled by sqrt(8)."},
       learned_5x8},
  };
  return kEntries;
}

}  // namespace

const std::vector<PresetInfo>& preset_list() {
  static const std::vector<PresetInfo> kList = [] {
    std::vector<PresetInfo> list;
    for (const PresetEntry& e : entries()) list.push_back(e.info);
    return list;
  }();
  return kList;
}

std::optional<Scene> preset(std::string_view name) {
  for (const PresetEntry& e : entries())
    if (e.info.name == name) return e.make();
  return std::nullopt;
}

}  // namespace scene
