// lm_train.hpp — training the GPT model (core/model.hpp with LayerNorm, MLP and biases) as a language
// model on a stream of token ids: initialization, AdamW with warm-up and cosine decay, gradient
// clipping, the loop, and the held-out loss.
//
// Every step: `batch` windows of n_ctx consecutive tokens, each starting at a uniform position of the
// training stream (splitmix64, train::Rng), next-token cross-entropy on each window's n_ctx − 1
// predictions; the batch's loss and gradient are the means over its windows. Then
//   g ← g · min(1, clip / ‖g‖₂)                 (‖g‖ over every entry of every weight, in weights_of order)
//   lr_t = lr · t / warmup                               for t ≤ warmup   (t = 1, 2, … the step)
//        = lr_min + ½ (lr − lr_min)(1 + cos(π p)),  p = (t − warmup) / (steps − warmup),  lr_min = lr ·
//        min_lr_ratio
//   AdamW (torch.optim.AdamW's order): w ← w − lr_t λ w (only for matrices of ≥ 2 rows and ≥ 2 columns:
//   no decay of biases and LayerNorm gains), m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g²,
//   w ← w − lr_t m̂ / (√v̂ + ε),  β₁ = 0.9, β₂ = 0.95, ε = 1e-8 (GPT-3's and nanoGPT's betas).
//
// Determinism: each window's gradient is computed alone into its own zeroed buffer and the buffers are
// added in window order, so the result does not depend on how many threads computed them (threads > 1
// only natively); cos(π p) is cos_pi below (additions and multiplications only). The same config and
// tokens give the same weights bit for bit natively (any thread count) and in wasm.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/train.hpp"

namespace attn::model {

struct LmConfig {
  int layers = 2, heads = 4, d_model = 128, d_mlp = 512, n_ctx = 128, vocab = 512;
  std::uint64_t seed = 1;
  int batch = 16;
  int steps = 1000;  // the schedule's length (the run may stop or resume anywhere)
  int warmup = 100;
  double lr = 3e-3, min_lr_ratio = 0.1, weight_decay = 0.1, clip = 1.0;
  int threads = 1;  // windows computed at once (natively); changes no bit of the result
};
constexpr int kMaxLmBatch = 512;
constexpr int kMaxLmSteps = 1000000;
constexpr int kMaxLmThreads = 64;

// "" when valid; else "<field>: <reason>" (the sizes within model.hpp's kMaxLm* limits, d_mlp ≤ 4·D).
std::string check_lm_config(const LmConfig& config);

// GPT-2's initialization with uniform draws of the same standard deviation (our splitmix64 stream, so
// the same bits everywhere): every matrix U(−a, a) with a = 0.02·√3 (σ = 0.02), except the two that
// write into the residual stream, W_O and mlp.W_out, with σ = 0.02 / √(2L); LayerNorm gains 1, every
// bias 0 (b_Q, b_K, b_V, b_O, b_in, b_out; no b_U, as GPT-2). Vocabulary symbols: "t0", "t1", …
// (the caller names them from its tokenizer). Drawn in weights_of order.
Model init_gpt(const LmConfig& config);

// cos(π p) for p in [0, 1], with additions and multiplications only (a Taylor series on [0, π/2] and
// cos(π − x) = −cos x): within 4e-16 (two units in the last place) of the C library's, the same bits everywhere.
double cos_pi(double p);
// The learning rate of step t (1-based), the formula above.
double lm_learning_rate(const LmConfig& config, int t);

class LmTrainer {
 public:
  // config must pass check_lm_config; tokens (each < vocab) at least n_ctx of them.
  LmTrainer(const LmConfig& config, std::vector<int> tokens);

  double step();  // one step; returns the batch's mean loss (before the update)

  struct State {
    Model model, m, v;  // the weights and Adam's moments
    int step = 0;       // steps done
    std::uint64_t rng = 0;
  };
  State state() const { return {model_, m_, v_, step_, data_.state}; }
  void restore(const State& s);  // shapes must match this trainer's model

  int steps_done() const { return step_; }
  double last_grad_norm() const { return grad_norm_; }
  double last_lr() const { return lr_; }
  const Model& model() const { return model_; }
  const LmConfig& config() const { return config_; }

 private:
  LmConfig config_;
  std::vector<int> tokens_;
  Model model_, m_, v_;
  std::vector<Model> window_grads_;  // one per window of a batch
  train::Rng data_;
  int step_ = 0;
  double grad_norm_ = 0.0, lr_ = 0.0;
};

// The mean next-token loss over a token stream, each token after the first predicted once: windows
// of n_ctx tokens starting at 0, n_ctx − 1, 2(n_ctx − 1), … (each window's first token is the last of
// the one before, read as context). `per_token` (if given) gets the N − 1 losses in stream order.
struct StreamLoss {
  double total_nats = 0.0;
  long long predicted = 0;  // N − 1
  double mean() const { return predicted ? total_nats / static_cast<double>(predicted) : 0.0; }
};
StreamLoss stream_loss(const Model& m, const std::vector<int>& tokens, int threads = 1,
                       std::vector<double>* per_token = nullptr);

}  // namespace attn::model
