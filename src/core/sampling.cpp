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

Generated generate(const Model& m, const std::vector<int>& prompt, int count, const SampleSettings& s,
                   std::uint64_t seed, const Ablation& ablation) {
  Generated out;
  Decoder decoder(m, ablation);
  train::Rng rng{seed ^ 0xA54FF53A5F1D36F1ull};
  rng.next();
  Matrix logits;
  for (int t : prompt) logits = decoder.step(t);
  const int V = m.n_vocab();
  for (int k = 0; k < count; ++k) {
    const std::vector<Candidate> kept = sampling_distribution(logits.data(), V, s);
    const int token = draw(kept, rng);
    double p = 0.0;
    for (const Candidate& c : kept)
      if (c.token == token) p = c.p;
    out.tokens.push_back(token);
    out.p.push_back(p);
    out.p_model.push_back(softmax_row(logits.data(), V)[static_cast<std::size_t>(token)]);
    if (k + 1 < count) logits = decoder.step(token);
  }
  return out;
}

}  // namespace attn::model
