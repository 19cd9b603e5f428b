// sampling.hpp — choosing the next token from a language model's logits, reproducibly: temperature,
// top-k and top-p (nucleus) as Transformer Explainer and the Hugging Face generate() describe them,
// and generation with the KV cache (model.hpp's Decoder).
//
//   temperature T > 0:  p_i = softmax(logits / T)_i     (T = 0: the argmax, lowest id on a tie)
//   top-k K > 0:        keep the K most probable tokens (ties: the lower id first), 0 = all
//   top-p P in (0, 1]:  then keep the fewest most probable tokens whose probabilities sum to ≥ P
//   the kept probabilities renormalized; a draw u = Rng::uniform() picks the first kept token (most
//   probable first) whose running sum exceeds u · Σ.
// exp is exact_exp: the same seed gives the same tokens natively and in wasm.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/train.hpp"

namespace attn::model {

struct SampleSettings {
  double temperature = 1.0;
  int top_k = 0;
  double top_p = 1.0;
};
// "" when valid: temperature 0 … 100, top_k 0 … V, top_p in (0, 1].
std::string check_sample_settings(const SampleSettings& s, int vocab);

struct Candidate {
  int token;
  double p;  // after temperature, top-k, top-p and renormalization
};
// The kept tokens, most probable first (T = 0: the argmax alone, p = 1).
std::vector<Candidate> sampling_distribution(const double* logits, int vocab, const SampleSettings& s);
int draw(const std::vector<Candidate>& kept, train::Rng& rng);

struct Generated {
  std::vector<int> tokens;      // the new tokens
  std::vector<double> p;        // each one's probability in the distribution it was drawn from
  std::vector<double> p_model;  // each one's probability under the model (softmax of the logits, T = 1)
};
// Reads `prompt` (1 ≤ size, prompt + count ≤ n_ctx) and draws `count` tokens with the seed.
Generated generate(const Model& m, const std::vector<int>& prompt, int count, const SampleSettings& s,
                   std::uint64_t seed, const Ablation& ablation = {});

// softmax of one row (exact_exp), as next_token_loss computes it.
std::vector<double> softmax_row(const double* logits, int vocab);

}  // namespace attn::model
