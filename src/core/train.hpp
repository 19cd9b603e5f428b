// train.hpp — watch attention learn: toy tasks, seeded initialization, Adam / SGD, the loop.
//
// The model is one causal (multi-head) attention layer in projected mode with an output map:
//   x_i = [one-hot(token_i) | one-hot(i)]          fixed embeddings, d_model = kVocab + kSeqLen = 16
//   out = MHA(X; W_q, W_k, W_v (16×8), W_o (8×8), h heads, causal, ÷ √(d_k/h))    n×8
// Each output row is read as logits over 8 classes and trained with cross-entropy
// (core/backward.hpp). Tasks, sequences of kSeqLen = 8 tokens over kVocab = 8 symbols:
//   previous-token  row i (i ≥ 1) must name token_{i−1}             (the weights become a sub-diagonal)
//   same-token      tokens 0–3 are distinct, tokens 4–7 are a shuffle of them; row i (i ≥ 4) must name
//                   the position (0–3) of the earlier occurrence of token_i  (a matching/lookup head)
//   first-token     every row must name token_0                       (an attention sink)
// A row that is not scored has target −1.
//
// Determinism (the same seed gives the same loss curve bit for bit natively and in wasm): the random
// numbers are our own splitmix64 with integer → double conversions (no std::*_distribution, whose
// algorithms differ between libstdc++ and libc++); the forward pass here and the backward pass use
// plain loops in a fixed order (no Eigen product kernels), exp and log are exact_exp / exact_log
// (no libm), and the core is compiled with -ffp-contract=off (no fused multiply-add).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backward.hpp"
#include "core/heads.hpp"

namespace attn::train {

constexpr int kSeqLen = 8;                   // n
constexpr int kVocab = 8;                    // symbols a … h
constexpr int kModelDim = kVocab + kSeqLen;  // d_model
constexpr int kKeyDim = 8;                   // d_k = d_v
constexpr int kClasses = 8;                  // d_out: tokens (previous/first) or positions (same-token)
constexpr int kBatch = 16;                   // sequences per step
constexpr int kEvalSequences = 256;          // fresh sequences the accuracy is measured on
constexpr int kMaxSteps = 1000000;

enum class Task { PreviousToken, SameToken, FirstToken };
enum class Optimizer { Adam, Sgd };

const char* task_name(Task task);                       // "previous-token", …
std::optional<Task> parse_task(std::string_view name);  // the names above
const char* task_names();                               // "previous-token, same-token, first-token"

// splitmix64 (Steele, Lea, Flood 2014): the same 64-bit stream on every platform.
struct Rng {
  std::uint64_t state;
  std::uint64_t next();
  double uniform();  // [0, 1): the top 53 bits × 2⁻⁵³, exact
  int below(int n);  // 0 … n−1 (n ≤ 2³¹; the remainder's tiny bias is irrelevant here)
};

struct Sequence {
  std::vector<int> tokens;   // kSeqLen symbols 0 … kVocab−1
  std::vector<int> targets;  // kSeqLen classes, −1 = not scored
};
Sequence generate(Task task, Rng& rng);
// The targets the task asks of any token sequence (what generate() puts in Sequence::targets):
// previous-token t_{i−1} (i ≥ 1); first-token t_0; same-token the first earlier position holding
// the same symbol (−1 when there is none).
std::vector<int> targets_for(Task task, const std::vector<int>& tokens);

// n×kModelDim: row i = [one-hot(token_i) | one-hot(i)].
Matrix embed(const std::vector<int>& tokens);
// Labels "a" … "h" of the symbols; a class label is a symbol (previous/first) or "pos k" (same-token).
std::string symbol(int token);

struct Config {
  Task task = Task::PreviousToken;
  std::uint64_t seed = 1;
  double lr = 0.0;  // 0 = the optimizer's default
  int heads = 1;    // divides kKeyDim: 1, 2, 4, 8
  Optimizer optimizer = Optimizer::Adam;
};
double default_lr(Optimizer optimizer);  // Adam 0.02, SGD 0.5
// "" when valid; else "<field>: <reason>" (heads, lr).
std::string check_config(const Config& config);

struct Params {
  Matrix Wq, Wk, Wv;  // kModelDim×kKeyDim
  Matrix Wo;          // kKeyDim×kClasses
};
// Seeded uniform(−1/√fan_in, 1/√fan_in) entries, as nn.Linear's default (fan_in = rows).
Params init_params(std::uint64_t seed);

// The forward pass of the model (causal, ÷ √(d_k/h)) in plain loops with exact_exp: every stage
// backward() needs. Same formulas as attend_heads_projected (within rounding).
HeadsResult forward_exact(const Matrix& X, const Params& p, int heads);

class Trainer {
 public:
  explicit Trainer(const Config& config);  // config must pass check_config

  // One optimizer step on a fresh batch of kBatch sequences; returns the batch's mean loss.
  double step();
  // Fraction of the scored rows of the first `sequences` (≤ kEvalSequences) of the evaluation set —
  // fresh sequences never trained on, the same for the whole run — whose largest logit is the target.
  double accuracy(int sequences = kEvalSequences) const;

  // Continue from other weights (e.g. edited by hand in the app), shapes as init_params gives;
  // Adam's moments are kept. And a new learning rate for the following steps (> 0).
  void set_params(const Params& params) { params_ = params; }
  void set_lr(double lr) { lr_ = lr; }

  int steps() const { return static_cast<int>(losses_.size()); }
  const std::vector<double>& losses() const { return losses_; }
  const Params& params() const { return params_; }
  const Config& config() const { return config_; }
  double lr() const { return lr_; }
  // The sequence shown in the app (the first of the evaluation set).
  const Sequence& sample() const { return eval_.front(); }

 private:
  Config config_;
  double lr_;
  Params params_;
  Params m_, v_;  // Adam's moment estimates
  double beta1_t_ = 1.0, beta2_t_ = 1.0;
  Rng data_;
  std::vector<Sequence> eval_;
  std::vector<double> losses_;
};

}  // namespace attn::train
