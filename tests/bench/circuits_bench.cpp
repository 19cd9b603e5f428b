// circuits_bench — how fast the attention-only transformer trains and when its induction head forms
// (a benchmark program, not a test; scripts/bench-circuits runs it natively and as wasm under node).
//
//   circuits_bench [STEPS [SEED …]]     defaults: 2000 steps, seeds 1 2 3 4 5
//
// For each seed, the Circuits mode's defaults (2 layers × 2 heads, d_model 32, n_ctx 32, batch 16, AdamW
// lr 0.01): one JSON line {"seed", "steps", "formed_at", "seconds", "steps_per_second", "hash"} where
// formed_at is the first step after which a layer-1 head's prefix-matching score is ≥ 0.5 and the
// second copy's loss below half the first copy's (null if never), and hash is FNV-1a over the bits of
// every per-step loss and the final weights: the native and the wasm run must print the same hash.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../fnv_hash.hpp"
#include "core/model_train.hpp"

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 2000;
  std::vector<std::uint64_t> seeds;
  for (int i = 2; i < argc; ++i) seeds.push_back(std::strtoull(argv[i], nullptr, 10));
  if (seeds.empty()) seeds = {1, 2, 3, 4, 5};
  if (steps < 1 || steps > attn::model::kMaxTrainSteps) {
    std::fprintf(stderr, "circuits_bench: STEPS must be 1 to %d\n", attn::model::kMaxTrainSteps);
    return 1;
  }
  for (std::uint64_t seed : seeds) {
    attn::model::TrainConfig config;
    config.seed = seed;
    attn::model::ModelTrainer trainer(config);
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) trainer.step();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::uint64_t h = 1469598103934665603ull;
    for (const attn::model::StepRecord& r : trainer.history()) h = fnv(&r.loss, 1, h);
    h = fnv_model(trainer.model(), h);
    char formed[16] = "null";
    if (trainer.formed_at() > 0) std::snprintf(formed, sizeof formed, "%d", trainer.formed_at());
    std::printf(
        "{\"seed\": %llu, \"steps\": %d, \"formed_at\": %s, \"seconds\": %.3f, \"steps_per_second\": %.1f, "
        "\"hash\": \"%016llx\"}\n",
        static_cast<unsigned long long>(seed), steps, formed, seconds, steps / seconds,
        static_cast<unsigned long long>(h));
    std::fflush(stdout);
  }
  return 0;
}
