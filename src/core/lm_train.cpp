// lm_train.cpp — the GPT language model's initialization, AdamW loop and held-out loss (lm_train.hpp).
#include "core/lm_train.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#if !defined(__EMSCRIPTEN__)
#include <thread>
#endif

namespace attn::model {
namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.95, kEps = 1e-8;
constexpr double kInitStd = 0.02;

Matrix uniform(train::Rng& rng, Eigen::Index rows, Eigen::Index cols, double stddev) {
  const double bound = stddev * std::sqrt(3.0);  // U(−a, a) has σ = a/√3
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = (2.0 * rng.uniform() - 1.0) * bound;
  return m;
}

// Runs work(k) for k = 0 … count−1 on up to `threads` threads (k spread round-robin); natively only.
template <class Work>
void for_each_index(int count, int threads, Work&& work) {
#if !defined(__EMSCRIPTEN__)
  threads = std::min(threads, count);
  if (threads > 1) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (int k = t; k < count; k += threads) work(k);
      });
    for (std::thread& th : pool) th.join();
    return;
  }
#else
  (void)threads;
#endif
  for (int k = 0; k < count; ++k) work(k);
}

bool decayed(const Matrix& w) {
  return w.rows() >= 2 && w.cols() >= 2;
}

}  // namespace

std::string check_lm_config(const LmConfig& c) {
  auto range = [](const char* field, long long v, long long lo, long long hi) -> std::string {
    if (v >= lo && v <= hi) return {};
    return std::string(field) + ": must be " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
           std::to_string(v);
  };
  std::string e;
  if ((e = range("layers", c.layers, 1, kMaxLmLayers)).size()) return e;
  if ((e = range("heads", c.heads, 1, kMaxLmHeads)).size()) return e;
  if ((e = range("d_model", c.d_model, 1, kMaxLmModelDim)).size()) return e;
  if (c.d_model % c.heads != 0)
    return "d_model: must be a multiple of heads (d_head = d_model / heads), got d_model = " +
           std::to_string(c.d_model) + " with " + std::to_string(c.heads) + " heads";
  if ((e = range("d_mlp", c.d_mlp, 1, 4LL * c.d_model)).size()) return e;
  if ((e = range("n_ctx", c.n_ctx, 4, kMaxLmContext)).size()) return e;
  if ((e = range("vocab", c.vocab, 2, kMaxLmVocab)).size()) return e;
  if ((e = range("batch", c.batch, 1, kMaxLmBatch)).size()) return e;
  if ((e = range("steps", c.steps, 1, kMaxLmSteps)).size()) return e;
  if ((e = range("warmup", c.warmup, 0, c.steps - 1)).size()) return e;
  if ((e = range("threads", c.threads, 1, kMaxLmThreads)).size()) return e;
  if (!(c.lr > 0 && c.lr <= 1)) return "lr: must be above 0 and at most 1";
  if (!(c.min_lr_ratio >= 0 && c.min_lr_ratio <= 1)) return "min_lr_ratio: must be 0 to 1";
  if (!(c.weight_decay >= 0 && c.weight_decay <= 1)) return "weight_decay: must be 0 to 1";
  if (!(c.clip > 0 && c.clip <= 1e6)) return "clip: must be above 0";
  return {};
}

Model init_gpt(const LmConfig& c) {
  train::Rng rng{c.seed ^ 0xBB67AE8584CAA73Bull};  // a stream of its own
  rng.next();
  Model m;
  for (int v = 0; v < c.vocab; ++v) m.vocab.push_back("t" + std::to_string(v));
  const int dh = c.d_model / c.heads;
  const double resid_std = kInitStd / std::sqrt(2.0 * c.layers);
  auto ones = [](int n) { return Matrix::Ones(1, n).eval(); };
  auto zeros = [](int n) { return Matrix::Zero(1, n).eval(); };
  m.W_E = uniform(rng, c.vocab, c.d_model, kInitStd);
  m.W_pos = uniform(rng, c.n_ctx, c.d_model, kInitStd);
  m.layers.resize(static_cast<std::size_t>(c.layers));
  for (Layer& layer : m.layers) {
    layer.ln1 = {ones(c.d_model), zeros(c.d_model)};
    layer.heads.resize(static_cast<std::size_t>(c.heads));
    for (Head& h : layer.heads) {
      h.W_Q = uniform(rng, c.d_model, dh, kInitStd);
      h.b_Q = zeros(dh);
      h.W_K = uniform(rng, c.d_model, dh, kInitStd);
      h.b_K = zeros(dh);
      h.W_V = uniform(rng, c.d_model, dh, kInitStd);
      h.b_V = zeros(dh);
      h.W_O = uniform(rng, dh, c.d_model, resid_std);
    }
    layer.b_O = zeros(c.d_model);
    layer.ln2 = {ones(c.d_model), zeros(c.d_model)};
    layer.mlp.W_in = uniform(rng, c.d_model, c.d_mlp, kInitStd);
    layer.mlp.b_in = zeros(c.d_mlp);
    layer.mlp.W_out = uniform(rng, c.d_mlp, c.d_model, resid_std);
    layer.mlp.b_out = zeros(c.d_model);
  }
  m.ln_final = {ones(c.d_model), zeros(c.d_model)};
  m.W_U = uniform(rng, c.d_model, c.vocab, kInitStd);
  return m;
}

double cos_pi(double p) {
  constexpr double kPi = 3.141592653589793;
  p = p < 0 ? 0 : (p > 1 ? 1 : p);
  const bool upper = p > 0.5;
  const double x = kPi * (upper ? 1.0 - p : p);  // [0, π/2]
  // cos x = Σ (−1)^k x^{2k} / (2k)!, summed from the smallest term up; 12 terms reach 1e-20 at π/2.
  const double x2 = x * x;
  double term = 1.0;
  double terms[12];
  for (int k = 0; k < 12; ++k) {
    terms[k] = term;
    term = -term * x2 / static_cast<double>((2 * k + 1) * (2 * k + 2));
  }
  double sum = 0.0;
  for (int k = 11; k >= 0; --k) sum += terms[k];
  return upper ? -sum : sum;
}

double lm_learning_rate(const LmConfig& c, int t) {
  if (t <= c.warmup) return c.lr * static_cast<double>(t) / static_cast<double>(c.warmup);
  const double lr_min = c.lr * c.min_lr_ratio;
  const double p = static_cast<double>(t - c.warmup) / static_cast<double>(c.steps - c.warmup);
  return lr_min + 0.5 * (c.lr - lr_min) * (1.0 + cos_pi(p));
}

LmTrainer::LmTrainer(const LmConfig& config, std::vector<int> tokens)
    : config_(config), tokens_(std::move(tokens)), data_{config.seed ^ 0x3C6EF372FE94F82Bull} {
  data_.next();
  model_ = init_gpt(config_);
  m_ = zeros_like(model_);
  v_ = zeros_like(model_);
  window_grads_.assign(static_cast<std::size_t>(config_.batch), m_);
}

void LmTrainer::restore(const State& s) {
  model_ = s.model;
  m_ = s.m;
  v_ = s.v;
  step_ = s.step;
  data_.state = s.rng;
}

double LmTrainer::step() {
  const int n = config_.n_ctx, B = config_.batch;
  const int starts = static_cast<int>(tokens_.size()) - n + 1;
  std::vector<std::vector<int>> windows(static_cast<std::size_t>(B));
  for (auto& w : windows) {
    const auto at = tokens_.begin() + data_.below(starts);
    w.assign(at, at + n);
  }
  std::vector<double> losses(static_cast<std::size_t>(B));
  for_each_index(B, config_.threads, [&](int b) {
    Model& g = window_grads_[static_cast<std::size_t>(b)];
    for (Matrix* w : weights_of(g)) w->setZero();
    const Forward f = forward(model_, windows[static_cast<std::size_t>(b)]);
    const TokenLoss loss = next_token_loss(f.logits, f.tokens);
    backward(model_, f, loss.d_logits, g);
    losses[static_cast<std::size_t>(b)] = loss.value;
  });
  // The batch mean, window by window in order; then the global norm and the clip factor.
  const double inv_batch = 1.0 / static_cast<double>(B);
  Model& total = window_grads_[0];
  std::vector<Matrix*> g_total = weights_of(total);
  for (int b = 1; b < B; ++b) {
    const std::vector<Matrix*> g_b = weights_of(window_grads_[static_cast<std::size_t>(b)]);
    for (std::size_t p = 0; p < g_total.size(); ++p) {
      double* __restrict dst = g_total[p]->data();
      const double* __restrict src = g_b[p]->data();
      for (Eigen::Index k = 0; k < g_total[p]->size(); ++k) dst[k] += src[k];
    }
  }
  double sq = 0.0;
  for (Matrix* g : g_total) {
    double* gp = g->data();
    for (Eigen::Index k = 0; k < g->size(); ++k) {
      gp[k] *= inv_batch;
      sq += gp[k] * gp[k];
    }
  }
  grad_norm_ = std::sqrt(sq);
  const double scale = grad_norm_ > config_.clip ? config_.clip / grad_norm_ : 1.0;
  ++step_;
  lr_ = lm_learning_rate(config_, step_);
  const double bias1 = 1.0 - std::pow(kBeta1, step_), bias2 = 1.0 - std::pow(kBeta2, step_);
  std::vector<Matrix*> w = weights_of(model_), m = weights_of(m_), v = weights_of(v_);
  for (std::size_t p = 0; p < w.size(); ++p) {
    double* wp = w[p]->data();
    const double* gp = g_total[p]->data();
    double* mp = m[p]->data();
    double* vp = v[p]->data();
    const double decay = decayed(*w[p]) ? lr_ * config_.weight_decay : 0.0;
    for (Eigen::Index k = 0; k < w[p]->size(); ++k) {
      const double gk = gp[k] * scale;
      wp[k] -= decay * wp[k];
      mp[k] = kBeta1 * mp[k] + (1.0 - kBeta1) * gk;
      vp[k] = kBeta2 * vp[k] + (1.0 - kBeta2) * (gk * gk);
      wp[k] -= lr_ * (mp[k] / bias1) / (std::sqrt(vp[k] / bias2) + kEps);
    }
  }
  double loss = 0.0;
  for (double l : losses) loss += l;
  return loss * inv_batch;
}

StreamLoss stream_loss(const Model& m, const std::vector<int>& tokens, int threads,
                       std::vector<double>* per_token) {
  StreamLoss out;
  const long long N = static_cast<long long>(tokens.size());
  if (N < 2) return out;
  const long long stride = m.n_ctx() - 1;
  const int windows = static_cast<int>((N - 2) / stride + 1);
  std::vector<std::vector<double>> losses(static_cast<std::size_t>(windows));
  for_each_index(windows, threads, [&](int w) {
    const long long start = w * stride, end = std::min(N, start + m.n_ctx());
    const std::vector<int> window(tokens.begin() + start, tokens.begin() + end);
    losses[static_cast<std::size_t>(w)] = next_token_loss(forward(m, window).logits, window).per_token;
  });
  for (const std::vector<double>& l : losses)
    for (double x : l) {
      out.total_nats += x;
      ++out.predicted;
      if (per_token) per_token->push_back(x);
    }
  return out;
}

}  // namespace attn::model
