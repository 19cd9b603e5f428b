// lm_bench.cpp — the language model's forward pass on n tokens and its generation with the KV cache,
// natively and as wasm under node (scripts/bench-lm runs both beside PyTorch CPU on the same weights).
//
//   lm_bench MODEL [N] [REPEATS]     N tokens (default 128) of a fixed English text, REPEATS runs
// Prints one JSON line: {"n", "forward_ms" (median), "forward_ms_all", "decode_tokens_per_s"
// (N tokens through the Decoder, median of the runs), "typing_ms" (median: the pass after the last token
// changed, reusing the previous pass's rows as the Model mode does while typing; "typing_same_bits":
// whether its logits equal forward()'s), "tokens" (the ids, for the peer),
// "loss" (the mean next-token loss, for the peer to match), "logits_hash" (FNV-1a of the logits' bits: native
// and wasm must print the same)}.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/model.hpp"
#include "core/tokenizer.hpp"
#include "scene/lm_file.hpp"

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::uint64_t fnv(const attn::Matrix& m) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (Eigen::Index k = 0; k < m.size(); ++k) {
    unsigned char bytes[8];
    std::memcpy(bytes, &m.data()[k], 8);
    for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ull;
  }
  return h;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // As attention-lab-cli does (src/cli/main.cpp): keep freed stages instead of an mmap and page
  // faults for each one on every pass (30 → 10.5 ms for this forward pass).
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  if (argc < 2) {
    std::fprintf(stderr, "usage: lm_bench MODEL [N] [REPEATS]\n");
    return 2;
  }
  std::string bytes;
  if (std::FILE* f = std::fopen(argv[1], "rb")) {
    char buffer[1 << 16];
    std::size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, got);
    std::fclose(f);
  }
  const scene::LmFileParse parsed = scene::read_any_model(bytes);
  if (!parsed.ok() || !parsed.file->tokenizer) {
    std::fprintf(stderr, "lm_bench: %s\n", parsed.ok() ? "the model has no tokenizer" : parsed.error.c_str());
    return 2;
  }
  const attn::model::Model& m = parsed.file->model;
  const int n = std::min(argc > 2 ? std::atoi(argv[2]) : 128, m.n_ctx());
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 15;
  std::string text;
  while (static_cast<int>(attn::bpe::encode(*parsed.file->tokenizer, text).size()) < n)
    text +=
        "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be "
        "in want of a wife. The more things change, the more they stay the same. ";
  std::vector<int> tokens = attn::bpe::encode(*parsed.file->tokenizer, text);
  tokens.resize(static_cast<std::size_t>(n));
  std::vector<double> forward_ms, decode_rate, typing_ms;
  bool typing_same = true;
  std::uint64_t hash = 0;
  double loss = 0.0;
  for (int r = 0; r < repeats; ++r) {
    const double t0 = now_ms();
    const attn::model::Forward fw = attn::model::forward(m, tokens);
    forward_ms.push_back(now_ms() - t0);
    hash = fnv(fw.logits);
    loss = attn::model::next_token_loss(fw.logits, tokens).value;
    attn::model::Decoder decoder(m);
    const double t1 = now_ms();
    for (int t : tokens) decoder.step(t);
    decode_rate.push_back(1000.0 * n / (now_ms() - t1));
    // A key typed at the end: the last token changes, the rows before it are the previous pass's.
    std::vector<int> typed = tokens;
    typed.back() = (typed.back() + 1 + r) % m.n_vocab();
    const double t2 = now_ms();
    const attn::model::Forward again = attn::model::forward_reusing(m, fw, typed);
    typing_ms.push_back(now_ms() - t2);
    typing_same = typing_same && fnv(again.logits) == fnv(attn::model::forward(m, typed).logits);
  }
  std::printf("{\"n\": %d, \"forward_ms\": %.4f, \"forward_ms_all\": [", n, median(forward_ms));
  for (std::size_t k = 0; k < forward_ms.size(); ++k) std::printf("%s%.4f", k ? ", " : "", forward_ms[k]);
  std::printf(
      "], \"decode_tokens_per_s\": %.1f, \"typing_ms\": %.4f, \"typing_same_bits\": %s, \"tokens\": [",
      median(decode_rate), median(typing_ms), typing_same ? "true" : "false");
  for (std::size_t k = 0; k < tokens.size(); ++k) std::printf("%s%d", k ? ", " : "", tokens[k]);
  std::printf("], \"loss\": %.17g, \"logits_hash\": \"%016llx\"}\n", loss,
              static_cast<unsigned long long>(hash));
  return 0;
}
