// train.cpp — tasks, initialization, the exact forward pass, Adam / SGD (see train.hpp).
#include "core/train.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "core/lookup.hpp"

namespace attn::train {
namespace {

// The tasks by name, as task_names() lists them.
constexpr Row<Task, const char*> kTaskNames[] = {{Task::PreviousToken, "previous-token"},
                                                 {Task::SameToken, "same-token"},
                                                 {Task::FirstToken, "first-token"}};

constexpr double kAdamBeta1 = 0.9, kAdamBeta2 = 0.999, kAdamEps = 1e-8;

// Independent streams from one seed: init, training data, evaluation data.
Rng stream(std::uint64_t seed, std::uint64_t which) {
  Rng rng{seed ^ (which * 0xD1B54A32D192ED03ull)};
  rng.next();
  return rng;
}

// Every entry of `m` (rows×cols) uniform in (−bound, bound), row by row.
Matrix uniform_matrix(Rng& rng, int rows, int cols, double bound) {
  Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = (2.0 * rng.uniform() - 1.0) * bound;
  return m;
}

// w −= lr · step for every entry, Adam's or SGD's step, entry by entry in a fixed order.
void update(Matrix& w, const Matrix& g, Matrix& m, Matrix& v, double lr, Optimizer optimizer, double beta1_t,
            double beta2_t) {
  for (Eigen::Index i = 0; i < w.rows(); ++i)
    for (Eigen::Index j = 0; j < w.cols(); ++j) {
      const double gij = g(i, j);
      if (optimizer == Optimizer::Sgd) {
        w(i, j) -= lr * gij;
        continue;
      }
      m(i, j) = kAdamBeta1 * m(i, j) + (1.0 - kAdamBeta1) * gij;
      v(i, j) = kAdamBeta2 * v(i, j) + (1.0 - kAdamBeta2) * (gij * gij);
      const double m_hat = m(i, j) / (1.0 - beta1_t), v_hat = v(i, j) / (1.0 - beta2_t);
      w(i, j) -= lr * m_hat / (std::sqrt(v_hat) + kAdamEps);  // sqrt is IEEE-exact everywhere
    }
}

void add_to(Matrix& sum, const Matrix& x) {
  for (Eigen::Index i = 0; i < sum.rows(); ++i)
    for (Eigen::Index j = 0; j < sum.cols(); ++j) sum(i, j) += x(i, j);
}

}  // namespace

const char* task_name(Task task) {
  return lookup(kTaskNames, task, "previous-token");
}

std::optional<Task> parse_task(std::string_view name) {
  return key_named(kTaskNames, name);
}

const char* task_names() {
  return "previous-token, same-token, first-token";
}

std::uint64_t Rng::next() {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

int Rng::below(int n) {
  return static_cast<int>(next() % static_cast<std::uint64_t>(n));
}

Sequence generate(Task task, Rng& rng) {
  Sequence s;
  s.tokens.assign(kSeqLen, 0);
  s.targets.assign(kSeqLen, -1);
  switch (task) {
    case Task::PreviousToken:
      for (int i = 0; i < kSeqLen; ++i) s.tokens[i] = rng.below(kVocab);
      for (int i = 1; i < kSeqLen; ++i) s.targets[i] = s.tokens[i - 1];
      break;
    case Task::FirstToken:
      for (int i = 0; i < kSeqLen; ++i) s.tokens[i] = rng.below(kVocab);
      for (int i = 0; i < kSeqLen; ++i) s.targets[i] = s.tokens[0];
      break;
    case Task::SameToken: {
      // Tokens 0–3: four distinct symbols (a partial Fisher–Yates shuffle of the vocabulary);
      // tokens 4–7: the same four in a random order; row 4+k names where its symbol first appeared.
      constexpr int kHalf = kSeqLen / 2;
      int symbols[kVocab];
      for (int v = 0; v < kVocab; ++v) symbols[v] = v;
      for (int i = 0; i < kHalf; ++i) {
        const int j = i + rng.below(kVocab - i);
        std::swap(symbols[i], symbols[j]);
        s.tokens[i] = symbols[i];
      }
      int order[kHalf];
      for (int k = 0; k < kHalf; ++k) order[k] = k;
      for (int k = kHalf - 1; k > 0; --k) std::swap(order[k], order[rng.below(k + 1)]);
      for (int k = 0; k < kHalf; ++k) {
        s.tokens[kHalf + k] = s.tokens[order[k]];
        s.targets[kHalf + k] = order[k];
      }
      break;
    }
  }
  return s;
}

std::vector<int> targets_for(Task task, const std::vector<int>& tokens) {
  const int n = static_cast<int>(tokens.size());
  std::vector<int> targets(tokens.size(), -1);
  for (int i = 0; i < n; ++i) {
    const std::size_t at = static_cast<std::size_t>(i);
    if (task == Task::PreviousToken && i >= 1) targets[at] = tokens[at - 1];
    if (task == Task::FirstToken) targets[at] = tokens[0];
    if (task == Task::SameToken)
      for (int j = 0; j < i && targets[at] < 0; ++j)
        if (tokens[static_cast<std::size_t>(j)] == tokens[at]) targets[at] = j;
  }
  return targets;
}

Matrix embed(const std::vector<int>& tokens) {
  const int n = static_cast<int>(tokens.size());
  Matrix X = Matrix::Zero(n, kVocab + n);
  for (int i = 0; i < n; ++i) {
    X(i, tokens[static_cast<std::size_t>(i)]) = 1.0;
    X(i, kVocab + i) = 1.0;
  }
  return X;
}

std::string symbol(int token) {
  return std::string(1, static_cast<char>('a' + token));
}

double default_lr(Optimizer optimizer) {
  return optimizer == Optimizer::Adam ? 0.02 : 0.5;
}

std::string check_config(const Config& c) {
  if (c.heads < 1 || c.heads > kKeyDim || kKeyDim % c.heads != 0)
    return "heads: must divide d_k = " + std::to_string(kKeyDim) + " (1, 2, 4 or 8), got " +
           std::to_string(c.heads);
  if (!(c.lr >= 0.0 && c.lr <= 10.0)) return "lr: must be a number above 0 and at most 10";
  return {};
}

Params init_params(std::uint64_t seed) {
  Rng rng = stream(seed, 1);
  Params p;
  const double bound_in = 1.0 / std::sqrt(static_cast<double>(kModelDim));  // 0.25
  const double bound_out = 1.0 / std::sqrt(static_cast<double>(kKeyDim));
  p.Wq = uniform_matrix(rng, kModelDim, kKeyDim, bound_in);
  p.Wk = uniform_matrix(rng, kModelDim, kKeyDim, bound_in);
  p.Wv = uniform_matrix(rng, kModelDim, kKeyDim, bound_in);
  p.Wo = uniform_matrix(rng, kKeyDim, kClasses, bound_out);
  return p;
}

HeadsResult forward_exact(const Matrix& X, const Params& p, int heads) {
  HeadsResult r;
  r.Q = mul(X, p.Wq);  // n×d_k
  r.K = mul(X, p.Wk);  // n×d_k
  r.V = mul(X, p.Wv);  // n×d_v
  const Eigen::Index n = X.rows(), dk = r.Q.cols() / heads, dv = r.V.cols() / heads;
  MaskMatrix allowed = MaskMatrix::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j <= i; ++j) allowed(i, j) = 1;  // causal
  const double divisor = std::sqrt(static_cast<double>(dk));  // √(d_k/h)
  r.concat.resize(n, r.V.cols());
  r.weights_mean = Matrix::Zero(n, n);
  for (int t = 0; t < heads; ++t) {
    Result h;
    h.Q = r.Q.middleCols(t * dk, dk);
    h.K = r.K.middleCols(t * dk, dk);
    h.V = r.V.middleCols(t * dv, dv);
    h.scores = mul_nt(h.Q, h.K);  // n×n
    h.divisor = divisor;
    h.scaled = h.scores / divisor;
    h.allowed = allowed;
    h.weights = Matrix::Zero(n, n);
    h.row_max.assign(static_cast<std::size_t>(n), 0.0);
    h.row_sum.assign(static_cast<std::size_t>(n), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {  // causal: row i sees 0 … i, never empty
      double m = h.scaled(i, 0);
      for (Eigen::Index j = 1; j <= i; ++j) m = h.scaled(i, j) > m ? h.scaled(i, j) : m;
      double sum = 0.0;
      for (Eigen::Index j = 0; j <= i; ++j) sum += (h.weights(i, j) = exact_exp(h.scaled(i, j) - m));
      for (Eigen::Index j = 0; j <= i; ++j) h.weights(i, j) /= sum;
      h.row_max[static_cast<std::size_t>(i)] = m;
      h.row_sum[static_cast<std::size_t>(i)] = sum;
    }
    h.output = mul(h.weights, h.V);  // n×d_v/h
    r.concat.middleCols(t * dv, dv) = h.output;
    add_to(r.weights_mean, h.weights);
    r.heads.push_back(std::move(h));
  }
  if (heads > 1) r.weights_mean /= static_cast<double>(heads);
  r.Wo = p.Wo;
  r.output = mul(r.concat, p.Wo);  // n×d_out
  r.allowed = allowed;
  return r;
}

Trainer::Trainer(const Config& config)
    : config_(config),
      lr_(config.lr > 0.0 ? config.lr : default_lr(config.optimizer)),
      params_(init_params(config.seed)),
      data_(stream(config.seed, 2)) {
  m_.Wq = m_.Wk = m_.Wv = Matrix::Zero(kModelDim, kKeyDim);
  m_.Wo = Matrix::Zero(kKeyDim, kClasses);
  v_ = m_;
  Rng eval = stream(config.seed, 3);
  eval_.reserve(kEvalSequences);
  for (int k = 0; k < kEvalSequences; ++k) eval_.push_back(generate(config.task, eval));
}

double Trainer::step() {
  Params grad;
  grad.Wq = grad.Wk = grad.Wv = Matrix::Zero(kModelDim, kKeyDim);
  grad.Wo = Matrix::Zero(kKeyDim, kClasses);
  double total = 0.0;
  for (int b = 0; b < kBatch; ++b) {
    const Sequence s = generate(config_.task, data_);
    const Matrix X = embed(s.tokens);
    const HeadsResult f = forward_exact(X, params_, config_.heads);
    const Loss loss = cross_entropy_loss(f.output, s.targets);
    const Gradients g = backward(f, loss.d_output, {&X, &params_.Wq, &params_.Wk, &params_.Wv, nullptr});
    add_to(grad.Wq, g.dWq);
    add_to(grad.Wk, g.dWk);
    add_to(grad.Wv, g.dWv);
    add_to(grad.Wo, g.dWo);
    total += loss.value;
  }
  // The batch mean: ÷ 16 is exact (a power of two).
  for (Matrix* g : {&grad.Wq, &grad.Wk, &grad.Wv, &grad.Wo}) *g /= static_cast<double>(kBatch);
  beta1_t_ *= kAdamBeta1;
  beta2_t_ *= kAdamBeta2;
  update(params_.Wq, grad.Wq, m_.Wq, v_.Wq, lr_, config_.optimizer, beta1_t_, beta2_t_);
  update(params_.Wk, grad.Wk, m_.Wk, v_.Wk, lr_, config_.optimizer, beta1_t_, beta2_t_);
  update(params_.Wv, grad.Wv, m_.Wv, v_.Wv, lr_, config_.optimizer, beta1_t_, beta2_t_);
  update(params_.Wo, grad.Wo, m_.Wo, v_.Wo, lr_, config_.optimizer, beta1_t_, beta2_t_);
  const double mean = total / kBatch;
  losses_.push_back(mean);
  return mean;
}

double Trainer::accuracy(int sequences) const {
  int right = 0, scored = 0;
  const int count = std::clamp(sequences, 1, kEvalSequences);
  for (int k = 0; k < count; ++k) {
    const Sequence& s = eval_[static_cast<std::size_t>(k)];
    const HeadsResult f = forward_exact(embed(s.tokens), params_, config_.heads);
    for (int i = 0; i < kSeqLen; ++i) {
      const int target = s.targets[static_cast<std::size_t>(i)];
      if (target < 0) continue;
      int best = 0;
      for (int c = 1; c < kClasses; ++c)
        if (f.output(i, c) > f.output(i, best)) best = c;
      right += best == target;
      ++scored;
    }
  }
  return scored ? static_cast<double>(right) / scored : 0.0;
}

}  // namespace attn::train
