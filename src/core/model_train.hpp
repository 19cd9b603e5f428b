// model_train.hpp — training the attention-only transformer (core/model.hpp) on sequences where
// looking back pays: the tasks, Adam / AdamW, the loop and its per-step measures.
//
// Tasks (sequences of tokens over the model's V symbols, next-token cross-entropy on every position):
//   induction  k uniform tokens (with replacement), then the same k again: 2k tokens, k uniform in
//              ⌈n_ctx/4⌉ … ⌊n_ctx/2⌋. The second copy is predictable only by looking back (an
//              induction head). k varies so that no head can find the earlier copy by its position
//              alone: with a fixed k = n_ctx/2 a layer-0 head attending to i − k + 1 by position
//              solves the task (measured: seed 1, prefix-matching 0.93 in layer 0 with previous-token
//              scores below 0.1) and no induction circuit forms.
//   mixed      n_ctx uniform tokens, then a span of s tokens (s uniform in 3 … ⌊n_ctx/3⌋) copied from
//              a random place to a random later place that does not overlap it: the repeat is
//              somewhere, and the model must find it.
// Every step: one optimizer step on a fresh batch (default 16 sequences) of the task, then the
// scores (core/model_scores.hpp) on a fixed evaluation set of kEvalSequences induction sequences
// (drawn once from the seed, never trained on), and the K-composition of layer 0 → layer 1.
//
// Optimizers (all entries updated one by one in weights_of order; sqrt is IEEE-exact):
//   Adam    m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  w ← w − lr · m̂ / (√v̂ + ε),
//           m̂ = m / (1−β₁ᵗ), v̂ = v / (1−β₂ᵗ),  β₁ = 0.9, β₂ = 0.999, ε = 1e-8
//   AdamW   first w ← w − lr · λ · w (decoupled weight decay, λ = weight_decay), then Adam's step
//           (PyTorch's torch.optim.AdamW order)
// Determinism: splitmix64 data (train::Rng), the model's fixed-order products: the same config gives
// the same run bit for bit natively and in wasm.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/model_scores.hpp"
#include "core/train.hpp"

namespace attn::model {

constexpr int kEvalSequences = 8;
constexpr int kMaxBatch = 256;
constexpr int kMaxTrainSteps = 100000;

enum class Task { Induction, Mixed };
enum class Optimizer { Adam, AdamW };

const char* task_name(Task task);                       // "induction", "mixed"
std::optional<Task> parse_task(std::string_view name);  // the names above
const char* optimizer_name(Optimizer optimizer);        // "adam", "adamw"

struct TrainConfig {
  Task task = Task::Induction;
  Dims dims;  // defaults: V 28, n_ctx 32, d_model 32, 2 layers × 2 heads
  std::uint64_t seed = 1;
  int batch = 16;
  Optimizer optimizer = Optimizer::AdamW;
  double lr = 1e-2;
  double weight_decay = 1e-2;  // AdamW's λ (ignored by Adam)
};
// "" when valid; else "<field>: <reason>".
std::string check_train_config(const TrainConfig& config);

// A repeated random sequence (the induction task), 2k tokens.
std::vector<int> repeated_sequence(train::Rng& rng, int vocab, int k);
// One training sequence of the task.
std::vector<int> task_sequence(Task task, train::Rng& rng, int vocab, int n_ctx);

// What was measured after each step.
struct StepRecord {
  double loss = 0.0;   // the batch's mean next-token loss (before the step's update)
  Scores scores;       // on the evaluation set, after the update
  Matrix composition;  // K-composition layer 0 → layer 1 after the update (empty for 1 layer)
};

class ModelTrainer {
 public:
  explicit ModelTrainer(const TrainConfig& config);  // config must pass check_train_config

  // One optimizer step and its measures; returns the batch loss.
  double step();

  // Continue from other weights (shaped as this trainer's model: e.g. edited, or read from JSON);
  // Adam's moments are kept.
  void set_model(const Model& m) { model_ = m; }

  // Heads switched off for the measures (eval loss, scores) and evaluate(); training is unaffected.
  void set_ablation(const Ablation& ablation) { ablation_ = ablation; }
  const Ablation& ablation() const { return ablation_; }
  Scores evaluate() const { return measure(model_, eval_, ablation_); }

  int steps() const { return static_cast<int>(history_.size()); }
  const std::vector<StepRecord>& history() const { return history_; }
  // The first step (1-based count of steps done) after which induction_formed() held; -1 if never.
  int formed_at() const { return formed_at_; }
  const Model& model() const { return model_; }
  // The last step's gradient of the batch's mean loss (zeros before the first step).
  const Model& gradient() const { return gradient_; }
  const TrainConfig& config() const { return config_; }
  const std::vector<std::vector<int>>& eval_set() const { return eval_; }

 private:
  TrainConfig config_;
  Model model_;
  Model gradient_;
  Model m_, v_;  // Adam's moments
  double beta1_t_ = 1.0, beta2_t_ = 1.0;
  train::Rng data_;
  std::vector<std::vector<int>> eval_;
  Ablation ablation_;
  std::vector<StepRecord> history_;
  int formed_at_ = -1;
};

}  // namespace attn::model
