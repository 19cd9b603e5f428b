// sampling.cpp — temperature, top-k, top-p and generation with the KV cache (sampling.hpp).
#include "core/sampling.hpp"

#include <algorithm>

#include "core/backward.hpp"  // exact_exp

namespace attn::model {

std::string check_sample_settings(const SampleSettings& s, int vocab) {
  if (!(s.temperature >= 0 && s.temperature <= 100)) return "temperature: must be 0 to 100";
  if (s.top_k < 0 || s.top_k > vocab) return "top_k: must be 0 (all) to " + std::to_string(vocab);
  if (!(s.top_p > 0 && s.top_p <= 1)) return "top_p: must be above 0 and at most 1";
  return {};
}

std::vector<double> softmax_row(const double* logits, int vocab) {
  double row_max = logits[0];
  for (int c = 1; c < vocab; ++c) row_max = logits[c] > row_max ? logits[c] : row_max;
  std::vector<double> p(static_cast<std::size_t>(vocab));
  double sum = 0.0;
  for (int c = 0; c < vocab; ++c) sum += (p[static_cast<std::size_t>(c)] = exact_exp(logits[c] - row_max));
  for (double& x : p) x /= sum;
  return p;
}

std::vector<Candidate> sampling_distribution(const double* logits, int vocab, const SampleSettings& s) {
  if (s.temperature == 0) {
    int best = 0;
    for (int c = 1; c < vocab; ++c) best = logits[c] > logits[best] ? c : best;
    return {{best, 1.0}};
  }
  std::vector<double> scaled(logits, logits + vocab);
  for (double& x : scaled) x /= s.temperature;
  const std::vector<double> p = softmax_row(scaled.data(), vocab);
  std::vector<Candidate> all;
  for (int c = 0; c < vocab; ++c) all.push_back({c, p[static_cast<std::size_t>(c)]});
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) { return a.p > b.p; });
  std::size_t keep = s.top_k > 0 ? static_cast<std::size_t>(s.top_k) : all.size();
  if (s.top_p < 1) {
    double running = 0.0;
    std::size_t k = 0;
    while (k < keep) {
      running += all[k].p;
      ++k;
      if (running >= s.top_p) break;
    }
    keep = k;
  }
  all.resize(keep);
  double total = 0.0;
  for (const Candidate& c : all) total += c.p;
  for (Candidate& c : all) c.p /= total;
  return all;
}

int draw(const std::vector<Candidate>& kept, train::Rng& rng) {
  double total = 0.0;
  for (const Candidate& c : kept) total += c.p;
  const double u = rng.uniform() * total;
  double running = 0.0;
  for (const Candidate& c : kept) {
    running += c.p;
    if (u < running) return c.token;
  }
  return kept.back().token;
}

Generator::Generator(const Model& m, const std::vector<int>& prompt, const SampleSettings& s,
                     std::uint64_t seed, const Ablation& ablation)
    : m_(&m),
      settings_(s),
      ablation_(ablation),
      decoder_(m, ablation),
      rng_{seed ^ 0xA54FF53A5F1D36F1ull},
      tokens_(prompt),
      whole_text_(ablation.any_mean()) {
  rng_.next();
  if (whole_text_) {
    const Forward f = forward(m, tokens_, ablation_);
    logits_ = f.logits.bottomRows(1);
  } else {
    for (int t : prompt) logits_ = decoder_.step(t);
  }
}

int Generator::next(double* p, double* p_model) {
  const int V = m_->n_vocab();
  const std::vector<Candidate> kept = sampling_distribution(logits_.data(), V, settings_);
  const int token = draw(kept, rng_);
  if (p) {
    *p = 0.0;
    for (const Candidate& c : kept)
      if (c.token == token) *p = c.p;
  }
  if (p_model) *p_model = softmax_row(logits_.data(), V)[static_cast<std::size_t>(token)];
  tokens_.push_back(token);
  if (static_cast<int>(tokens_.size()) < m_->n_ctx()) {  // the prediction after it, if there is room
    if (whole_text_) {
      const Forward f = forward(*m_, tokens_, ablation_);
      logits_ = f.logits.bottomRows(1);
    } else {
      logits_ = decoder_.step(token);
    }
  }
  return token;
}

Generated generate(const Model& m, const std::vector<int>& prompt, int count, const SampleSettings& s,
                   std::uint64_t seed, const Ablation& ablation) {
  Generated out;
  Generator g(m, prompt, s, seed, ablation);
  for (int k = 0; k < count; ++k) {
    double p = 0.0, p_model = 0.0;
    out.tokens.push_back(g.next(&p, &p_model));
    out.p.push_back(p);
    out.p_model.push_back(p_model);
  }
  return out;
}

}  // namespace attn::model
