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
// generate() one token at a time (the Model mode's Generate and Step): after the prompt, each next()
// draws the token generate() would draw next with the same arguments, bit for bit. The logits come
// from the Decoder (KV cache); with a mean-ablated head, whose output depends on the whole text, from
// forward() on every token so far (its last row). The model must outlive the generator.
class Generator {
 public:
  Generator(const Model& m, const std::vector<int>& prompt, const SampleSettings& s, std::uint64_t seed,
            const Ablation& ablation = {});
  // The next token; *p: its probability in the distribution it was drawn from, *p_model: under the
  // model (T = 1). Needs length() < n_ctx.
  int next(double* p = nullptr, double* p_model = nullptr);
  int length() const { return static_cast<int>(tokens_.size()); }  // prompt + drawn so far

 private:
  const Model* m_;
  SampleSettings settings_;
  Ablation ablation_;
  Decoder decoder_;
  train::Rng rng_;
  std::vector<int> tokens_;
  Matrix logits_;  // 1×V: the prediction after tokens_
  bool whole_text_ = false;
};

// Reads `prompt` (1 ≤ size, prompt + count ≤ n_ctx) and draws `count` tokens with the seed.
Generated generate(const Model& m, const std::vector<int>& prompt, int count, const SampleSettings& s,
                   std::uint64_t seed, const Ablation& ablation = {});

// softmax of one row (exact_exp), as next_token_loss computes it.
std::vector<double> softmax_row(const double* logits, int vocab);

}  // namespace attn::model
