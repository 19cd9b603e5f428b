// tokenizer_corpus — the tokenizer on the whole fortunes corpus (cli/corpus.hpp), too big for the
// doctest suite (which also runs as wasm and reads no file). Learns merges on the train text, then:
//   - decode(encode(text)) == text for the whole corpus (train + held-out), exit 1 otherwise;
//   - prints one JSON line: the sizes, seconds to learn and to encode (wall clock), and the held-out
//     text's bytes per token.
//
//   tokenizer_corpus [--vocab V …] [DIR|FILE …]    default V = 512, the default corpus directory
// Exit 77 (ctest: skipped) when the corpus is not installed (Debian's `fortunes`, scripts/setup test).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/corpus.hpp"
#include "core/tokenizer.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> vocabs;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--vocab" && i + 1 < argc) {
      vocabs.push_back(std::atoi(argv[++i]));
    } else {
      paths.push_back(arg);
    }
  }
  if (vocabs.empty()) vocabs.push_back(512);
  const std::string dir = paths.empty() ? cli::kDefaultCorpusDir : paths[0];
  if (std::FILE* probe = std::fopen(dir.c_str(), "rb")) {
    std::fclose(probe);
  } else {
    std::printf("SKIP: %s not found (Debian package fortunes; scripts/setup test installs it)\n",
                dir.c_str());
    return 77;
  }
  cli::Corpus corpus;
  std::string error;
  if (!cli::read_corpus(paths, &corpus, &error)) {
    std::fprintf(stderr, "tokenizer_corpus: %s\n", error.c_str());
    return 1;
  }
  for (int vocab : vocabs) {
    auto start = std::chrono::steady_clock::now();
    const attn::bpe::Tokenizer t = attn::bpe::learn(corpus.train, vocab);
    const double learn_s = seconds_since(start);
    start = std::chrono::steady_clock::now();
    const std::vector<int> ids = attn::bpe::encode(t, corpus.text);
    const double encode_s = seconds_since(start);
    if (attn::bpe::decode(t, ids) != corpus.text) {
      std::fprintf(stderr, "tokenizer_corpus: V = %d: decode(encode(corpus)) differs from the corpus\n",
                   vocab);
      return 1;
    }
    const std::size_t held_tokens = attn::bpe::encode(t, corpus.held_out).size();
    std::printf(
        "{\"vocab\": %d, \"corpus_bytes\": %zu, \"train_bytes\": %zu, \"held_out_bytes\": %zu, "
        "\"learn_s\": %.3f, \"encode_s\": %.3f, \"corpus_tokens\": %zu, \"held_out_tokens\": %zu, "
        "\"held_out_bytes_per_token\": %.4f, \"round_trip\": true}\n",
        t.vocab_size(), corpus.text.size(), corpus.train.size(), corpus.held_out.size(), learn_s, encode_s,
        ids.size(), held_tokens, double(corpus.held_out.size()) / double(held_tokens));
  }
  return 0;
}
