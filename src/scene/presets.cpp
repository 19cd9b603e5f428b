// presets.cpp — the bundled scenes: the worked examples of LESSONS.md, ready to open and drag.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>

#include "core/rows.hpp"
#include "scene/scene.hpp"

namespace scene {
namespace {

using attn::rows_of;

// PyTorch's CPU generator, replayed: torch.manual_seed(s) seeds a standard 32-bit Mersenne
// Twister (std::mt19937's sequence is fixed by the C++ standard), and tensor.uniform_(from, to) on
// float32 maps each 32-bit draw r to
//   x = (r & (2²⁴ − 1)) / 2²⁴,   value = x · (to − from) + from        (float, fused multiply-add)
// (ATen's uniform_real; torch.rand is uniform_(0, 1)). The fused form is what PyTorch's AVX2 kernels
// compute — checked against python3-torch 1.13: all 232 numbers of lesson 3 equal bit for bit
// (tests/torch_crosscheck.py). std::fmaf rounds once on every platform, wasm included.
float torch_uniform(std::mt19937& rng, float from, float to) {
  const std::uint32_t r = static_cast<std::uint32_t>(rng());
  const float x = static_cast<float>(r & 0xFFFFFFu) * (1.0f / 16777216.0f);
  return std::fma(x, to - from, from);
}

// rows×cols filled row by row (the order of a contiguous torch tensor) with torch_uniform.
attn::Matrix torch_uniform_matrix(std::mt19937& rng, int rows, int cols, float from, float to) {
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = static_cast<double>(torch_uniform(rng, from, to));
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

// nn.Linear's default init, kaiming_uniform_(a = √5), draws uniform in ±bound with gain =
// √(2 / (1 + a²)) and bound = √3 · gain / √fan_in (= 1/√fan_in), computed in double by Python then
// cast to float by the kernel.
float kaiming_bound(int fan_in) {
  const double gain = std::sqrt(2.0 / (1.0 + 5.0));
  return static_cast<float>(std::sqrt(3.0) * gain / std::sqrt(static_cast<double>(fan_in)));
}

// Lesson 3 (PyTorch), replayed exactly: torch.manual_seed(0); x = torch.rand(1, 5, 8); then three
// nn.Linear(8, 8, bias=False) for query, key and value, whose default init (kaiming_uniform_ with
// a = √5) draws each 8×8 weight uniform in ±1/√8. Draws happen in that order from one generator.
// nn.Linear computes x Wᵀ with W stored out×in, so the scene's W_q (d_model×d_k) is Wᵀ.
Scene learned_5x8() {
  constexpr int n = 5, d = 8;
  std::mt19937 rng(0);  // torch.manual_seed(0)
  const float bound = kaiming_bound(d);
  Scene s;
  s.tokens = {"we", "learn", "to", "pay", "attention"};
  s.mode = Mode::Projected;
  s.X = torch_uniform_matrix(rng, n, d, 0.0f, 1.0f);  // torch.rand(1, 5, 8)
  s.Wq = torch_uniform_matrix(rng, d, d, -bound, bound).transpose();
  s.Wk = torch_uniform_matrix(rng, d, d, -bound, bound).transpose();
  s.Wv = torch_uniform_matrix(rng, d, d, -bound, bound).transpose();
  s.scale.mode = attn::ScaleMode::SqrtDk;
  return s;
}

// Three heads, three patterns a student can read off the grids. Every key is k_j = [j, j², 1] in
// each head (d_k = 3 per head, so d_k = 9), and head t's query asks for position p_t(i):
//   q_i = 3 · [2p, −1, −p²]   →   score(i, j) = q_i · k_j = −3 (j − p)²
// so the score is 0 at the wanted position and −3, −12, −27, … one, two, three steps away
// (scale "none"). Head 0 asks for the previous token (p = i − 1), head 1 for itself (p = i), head 2
// for the first token (p = 0). Each head's value is the token's position j (d_v = 1 per head), so
// each head's output Y_t ≈ the position it looked at.
Scene three_heads() {
  constexpr int n = 5, h = 3;
  Scene s;
  s.tokens = {"the", "cat", "sat", "on", "mats"};
  s.mode = Mode::Direct;
  s.heads = h;
  s.Q.resize(n, 3 * h);
  s.K.resize(n, 3 * h);
  s.V.resize(n, h);
  for (int i = 0; i < n; ++i) {
    const double wanted[h] = {i - 1.0, static_cast<double>(i), 0.0};  // previous, self, first
    for (int t = 0; t < h; ++t) {
      const double p = wanted[t];
      s.Q.row(i).segment(3 * t, 3) << 3 * 2 * p, -3, 0.0 - 3 * p * p;  // 0 − …: +0, never −0
      s.K.row(i).segment(3 * t, 3) << i, i * i, 1;
      s.V(i, t) = i;
    }
  }
  s.scale.mode = attn::ScaleMode::None;
  return s;
}

// torch.nn.MultiheadAttention, replayed exactly: torch.manual_seed(0); x = torch.rand(1, 5, 8);
// then nn.MultiheadAttention(8, 2, bias=False, batch_first=True), whose constructor draws
//   1. out_proj.weight (8×8): nn.Linear's kaiming_uniform_(a = √5), uniform in ±1/√8 (as learned-5x8);
//   2. in_proj_weight (24×8 = [W_q; W_k; W_v] stacked): xavier_uniform_, uniform in ±√3·√(2/(8+24)).
// The module computes q = x W_qᵀ (likewise k, v) and out = concat · out_projᵀ, so the scene's
// Wq, Wk, Wv are the transposed 8×8 blocks and Wo is out_proj.weight transposed. 2 heads of 4
// dims: scores are divided by √4 = 2.
Scene torch_mha() {
  constexpr int n = 5, d = 8;
  std::mt19937 rng(0);  // torch.manual_seed(0)
  const float kaiming = kaiming_bound(d);
  // xavier_uniform_: std = gain · √(2 / (fan_in + fan_out)) with gain 1, fan_in 8, fan_out 24;
  // bound = √3 · std, in double (Python), then float.
  const float xavier = static_cast<float>(std::sqrt(3.0) * std::sqrt(2.0 / (d + 3.0 * d)));
  Scene s;
  s.tokens = {"we", "learn", "to", "pay", "attention"};
  s.mode = Mode::Projected;
  s.heads = 2;
  s.X = torch_uniform_matrix(rng, n, d, 0.0f, 1.0f);                                  // torch.rand(1, 5, 8)
  s.Wo = torch_uniform_matrix(rng, d, d, -kaiming, kaiming).transpose();              // out_proj.weight
  const attn::Matrix in_proj = torch_uniform_matrix(rng, 3 * d, d, -xavier, xavier);  // in_proj_weight
  s.Wq = in_proj.middleRows(0, d).transpose();
  s.Wk = in_proj.middleRows(d, d).transpose();
  s.Wv = in_proj.middleRows(2 * d, d).transpose();
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
        "Lesson 3: 5 tokens of dim 8 projected by learned maps Wq, Wk, Wv (PyTorch's seed-0 numbers, "
        "replayed exactly), scores scaled by sqrt(8)."},
       learned_5x8},
      {{"three-heads",
        "Three heads, three patterns: head 0 looks at the previous token, head 1 at itself, head 2 at the "
        "first token (score = -3 x distance squared); each head's output is the position it fetched."},
       three_heads},
      {{"torch-mha",
        "nn.MultiheadAttention(8, 2, bias=False) with PyTorch's seed-0 weights, replayed exactly: 2 heads of "
        "4 dims, scores / sqrt(4), concat times Wo (out_proj)."},
       torch_mha},
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
