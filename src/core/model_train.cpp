// model_train.cpp — tasks, Adam / AdamW and the training loop of the attention-only transformer
// (model_train.hpp).
#include "core/model_train.hpp"

#include <cmath>
#include <cstddef>
#include <utility>

namespace attn::model {
namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;

// Independent streams from one seed (constants of their own, apart from init_model's).
train::Rng stream(std::uint64_t seed, std::uint64_t which) {
  train::Rng rng{seed ^ (which * 0xBB67AE8584CAA73Bull)};
  rng.next();
  return rng;
}

}  // namespace

const char* task_name(Task task) {
  return task == Task::Mixed ? "mixed" : "induction";
}

std::optional<Task> parse_task(std::string_view name) {
  if (name == "induction") return Task::Induction;
  if (name == "mixed") return Task::Mixed;
  return std::nullopt;
}

const char* optimizer_name(Optimizer optimizer) {
  return optimizer == Optimizer::Adam ? "adam" : "adamw";
}

std::string check_train_config(const TrainConfig& c) {
  if (std::string e = check_dims(c.dims); !e.empty()) return e;
  if (c.batch < 1 || c.batch > kMaxBatch)
    return "batch: must be 1 to " + std::to_string(kMaxBatch) + ", got " + std::to_string(c.batch);
  if (!(c.lr > 0.0 && c.lr <= 1.0)) return "lr: must be a number above 0 and at most 1";
  if (!(c.weight_decay >= 0.0 && c.weight_decay <= 1.0)) return "weight_decay: must be a number from 0 to 1";
  return {};
}

std::vector<int> repeated_sequence(train::Rng& rng, int vocab, int k) {
  std::vector<int> tokens(static_cast<std::size_t>(2 * k));
  for (int i = 0; i < k; ++i) tokens[static_cast<std::size_t>(i)] = rng.below(vocab);
  for (int i = 0; i < k; ++i) tokens[static_cast<std::size_t>(k + i)] = tokens[static_cast<std::size_t>(i)];
  return tokens;
}

std::vector<int> task_sequence(Task task, train::Rng& rng, int vocab, int n_ctx) {
  if (task == Task::Induction) {
    // k uniform in ⌈n_ctx/4⌉ … ⌊n_ctx/2⌋: the distance back to the earlier copy is not fixed, so no
    // head can find it by position alone.
    const int k_min = (n_ctx + 3) / 4, k_max = n_ctx / 2;
    return repeated_sequence(rng, vocab, k_min + rng.below(k_max - k_min + 1));
  }
  std::vector<int> tokens(static_cast<std::size_t>(n_ctx));
  for (int& t : tokens) t = rng.below(vocab);
  // A span of s tokens at `from` copied to `to` ≥ from + s (no overlap), both inside the sequence.
  const int max_span = n_ctx / 3 < 3 ? 3 : n_ctx / 3;
  const int s = max_span > 3 ? 3 + rng.below(max_span - 2) : 3;
  if (2 * s > n_ctx) return tokens;
  const int from = rng.below(n_ctx - 2 * s + 1);
  const int to = from + s + rng.below(n_ctx - from - 2 * s + 1);
  for (int j = 0; j < s; ++j)
    tokens[static_cast<std::size_t>(to + j)] = tokens[static_cast<std::size_t>(from + j)];
  return tokens;
}

ModelTrainer::ModelTrainer(const TrainConfig& config)
    : config_(config),
      model_(init_model(config.dims, config.seed)),
      gradient_(zeros_like(model_)),
      m_(zeros_like(model_)),
      v_(zeros_like(model_)),
      data_(stream(config.seed, 2)) {
  train::Rng eval = stream(config.seed, 3);
  for (int k = 0; k < kEvalSequences; ++k)
    eval_.push_back(repeated_sequence(eval, config.dims.vocab, config.dims.n_ctx / 2));
}

double ModelTrainer::step() {
  Model& grads = gradient_;
  for (Matrix* w : weights_of(grads)) w->setZero();
  double total = 0.0;
  for (int b = 0; b < config_.batch; ++b) {
    const std::vector<int> tokens =
        task_sequence(config_.task, data_, config_.dims.vocab, config_.dims.n_ctx);
    const Forward f = forward(model_, tokens);
    const TokenLoss loss = next_token_loss(f.logits, tokens);
    backward(model_, f, loss.d_logits, grads);  // Σ over the batch, sequence by sequence
    total += loss.value;
  }
  const double inv_batch = 1.0 / static_cast<double>(config_.batch);
  beta1_t_ *= kBeta1;
  beta2_t_ *= kBeta2;
  const double decay = config_.optimizer == Optimizer::AdamW ? config_.lr * config_.weight_decay : 0.0;
  std::vector<Matrix*> w = weights_of(model_), g = weights_of(grads), m = weights_of(m_), v = weights_of(v_);
  for (std::size_t p = 0; p < w.size(); ++p) {
    double* wp = w[p]->data();
    double* gp = g[p]->data();
    double* mp = m[p]->data();
    double* vp = v[p]->data();
    for (Eigen::Index k = 0; k < w[p]->size(); ++k) {
      const double gk = (gp[k] *= inv_batch);  // the batch mean's gradient (kept: gradient())
      wp[k] -= decay * wp[k];
      mp[k] = kBeta1 * mp[k] + (1.0 - kBeta1) * gk;
      vp[k] = kBeta2 * vp[k] + (1.0 - kBeta2) * (gk * gk);
      const double m_hat = mp[k] / (1.0 - beta1_t_), v_hat = vp[k] / (1.0 - beta2_t_);
      wp[k] -= config_.lr * m_hat / (std::sqrt(v_hat) + kEps);
    }
  }
  StepRecord record;
  record.loss = total * inv_batch;
  record.scores = evaluate();
  record.composition = k_composition(model_);
  if (formed_at_ < 0 && induction_formed(record.scores)) formed_at_ = steps() + 1;
  history_.push_back(std::move(record));
  return history_.back().loss;
}

}  // namespace attn::model
