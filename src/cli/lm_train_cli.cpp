// lm_train_cli.cpp — --train-lm and --lm-held-out (lm_cli.hpp): the corpus, the tokenizer learned on
// its training part, the training loop with its progress line and checkpoints, the held-out figures.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_io.hpp"
#include "cli/cli_options.hpp"
#include "cli/corpus.hpp"
#include "cli/lm_cli.hpp"
#include "core/lm_train.hpp"
#include "core/tokenizer.hpp"
#include "scene/json_text.hpp"
#include "scene/lm_file.hpp"

namespace cli {
namespace lm_detail {
// lm_cli.cpp's: the model file (compact or JSON) read and parsed.
bool load_model(const std::string& path, scene::LmFile* out, std::string* error);
}  // namespace lm_detail

namespace {

using ordered_json = scene::json_text::ordered_json;
namespace model = attn::model;
using namespace lm_detail;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string hex64(std::uint64_t v) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

// The training settings from the flags (their ranges: check_lm_config's).
bool lm_config(const LmOptions& o, model::LmConfig* c, std::string* error) {
  const std::pair<const std::string*, int*> ints[] = {
      {&o.layers, &c->layers}, {&o.heads, &c->heads},    {&o.d_model, &c->d_model}, {&o.d_mlp, &c->d_mlp},
      {&o.n_ctx, &c->n_ctx},   {&o.vocab, &c->vocab},    {&o.steps, &c->steps},     {&o.batch, &c->batch},
      {&o.warmup, &c->warmup}, {&o.threads, &c->threads}};
  const char* names[] = {"layers", "heads", "d_model", "d_mlp",  "n_ctx",
                         "vocab",  "steps", "batch",   "warmup", "threads"};
  for (std::size_t k = 0; k < 10; ++k) {
    const std::string& text = *ints[k].first;
    if (text.empty()) continue;
    unsigned long long v = 0;
    if (!parse_whole(text, 0, 10000000, &v)) {
      *error = std::string(names[k]) + ": must be a whole number, got " + text;
      return false;
    }
    *ints[k].second = static_cast<int>(v);
  }
  unsigned long long seed = 0;
  if (o.seed.empty() || !parse_whole(o.seed, 0, ~0ull, &seed)) {
    *error = "seed: --train-lm needs --seed S (a whole number >= 0)";
    return false;
  }
  c->seed = seed;
  const std::pair<const std::string*, double*> reals[] = {{&o.lr, &c->lr},
                                                          {&o.weight_decay, &c->weight_decay}};
  const char* real_names[] = {"lr", "weight_decay"};
  for (std::size_t k = 0; k < 2; ++k) {
    if (reals[k].first->empty()) continue;
    char* end = nullptr;
    *reals[k].second = std::strtod(reals[k].first->c_str(), &end);
    if (*end != '\0') {
      *error = std::string(real_names[k]) + ": must be a number, got " + *reals[k].first;
      return false;
    }
  }
  if (c->vocab < attn::bpe::kMinVocab || c->vocab > attn::bpe::kMaxVocab) {
    *error = "vocab: must be " + std::to_string(attn::bpe::kMinVocab) + " to " +
             std::to_string(attn::bpe::kMaxVocab) + " (256 bytes and the merges learned), got " +
             std::to_string(c->vocab);
    return false;
  }
  *error = model::check_lm_config(*c);
  return error->empty();
}

// What makes a run: every setting but the thread count, and the corpus's training text.
std::string config_json(const model::LmConfig& c, const std::string& train_hash) {
  ordered_json j;
  j["layers"] = c.layers;
  j["heads"] = c.heads;
  j["d_model"] = c.d_model;
  j["d_mlp"] = c.d_mlp;
  j["n_ctx"] = c.n_ctx;
  j["vocab"] = c.vocab;
  j["seed"] = std::to_string(c.seed);
  j["batch"] = c.batch;
  j["steps"] = c.steps;
  j["warmup"] = c.warmup;
  j["lr"] = c.lr;
  j["min_lr_ratio"] = c.min_lr_ratio;
  j["weight_decay"] = c.weight_decay;
  j["clip"] = c.clip;
  j["train_text_fnv1a64"] = train_hash;
  return scene::json_text::dump(j, -1);
}

struct HeldOutFigures {
  double loss = 0, bpb = 0;
  long long tokens = 0, bytes = 0;
};
// The stream loss over the held-out tokens; bits per byte over the bytes of the predicted tokens (all
// but the first token's).
HeldOutFigures held_out(const model::Model& m, const attn::bpe::Tokenizer& t, const std::string& text,
                        int threads) {
  const std::vector<int> tokens = attn::bpe::encode(t, text);
  const model::StreamLoss loss = model::stream_loss(m, tokens, threads);
  HeldOutFigures f;
  f.loss = loss.mean();
  f.tokens = loss.predicted;
  f.bytes = static_cast<long long>(text.size() - (tokens.empty() ? 0 : t.bytes(tokens[0]).size()));
  f.bpb = f.bytes ? loss.total_nats / std::log(2.0) / static_cast<double>(f.bytes) : 0.0;
  return f;
}

void progress(const model::LmTrainer& t, double loss, double elapsed, int first_step, bool tty) {
  const int step = t.steps_done(), total = t.config().steps;
  const double per_step = elapsed / std::max(1, step - first_step);
  const double tokens_per_s = t.config().batch * (t.config().n_ctx - 1) / per_step;
  const int eta = static_cast<int>(per_step * (total - step));
  if (!tty && step % 25 != 0 && step != total) return;
  std::fprintf(stderr, "%sstep %d/%d  loss %.4f  |g| %.3f  lr %.2e  %.0f tokens/s  ETA %d:%02d:%02d%s",
               tty ? "\r" : "", step, total, loss, t.last_grad_norm(), t.last_lr(), tokens_per_s, eta / 3600,
               eta / 60 % 60, eta % 60, tty ? "   " : "\n");
  std::fflush(stderr);
}

int train(const LmOptions& o) {
  std::string error;
  if (o.corpus.empty()) return usage_error("--train-lm needs --corpus PATH (files or folders)");
  if (o.out.empty()) return usage_error("--train-lm needs --out MODEL");
  model::LmConfig c;
  if (!lm_config(o, &c, &error)) return bad_input(error);
  Corpus corpus;
  if (!read_corpus(o.corpus, &corpus, &error)) return bad_input(error);
  const auto t0 = std::chrono::steady_clock::now();
  const attn::bpe::Tokenizer tokenizer = attn::bpe::learn(corpus.train, c.vocab);
  const double learn_s = seconds_since(t0);
  std::vector<int> tokens = attn::bpe::encode(tokenizer, corpus.train);
  std::fprintf(stderr,
               "corpus: %zu bytes (%zu train, %zu held out); tokenizer: %d tokens learned in %.1f s, %zu "
               "training tokens (%.2f bytes each)\n",
               corpus.text.size(), corpus.train.size(), corpus.held_out.size(), tokenizer.vocab_size(),
               learn_s, tokens.size(),
               static_cast<double>(corpus.train.size()) / static_cast<double>(tokens.size()));
  if (static_cast<int>(tokens.size()) < c.n_ctx) return bad_input("corpus: fewer training tokens than n_ctx");
  const std::string train_hash = hex64(fnv1a64(corpus.train));
  const std::string cfg = config_json(c, train_hash);
  model::LmTrainer trainer(c, std::move(tokens));
  const std::string checkpoint = o.checkpoint.empty() ? o.out + ".ckpt" : o.checkpoint;
  unsigned long long every = 200;
  if (!o.checkpoint_every.empty() && !parse_whole(o.checkpoint_every, 1, 1000000, &every))
    return bad_input("checkpoint_every: must be a whole number from 1 to 1000000");
  if (!o.resume.empty()) {
    std::string bytes;
    model::LmTrainer::State state = trainer.state();
    if (!read_bytes(o.resume, 1u << 30, &bytes, &error) ||
        !scene::read_checkpoint(bytes, cfg, &state, &error))
      return bad_input(error);
    trainer.restore(state);
    std::fprintf(stderr, "resumed at step %d\n", state.step);
  }
  const int first_step = trainer.steps_done();
  const bool tty = isatty(2);
  const auto start = std::chrono::steady_clock::now();
  double recent = 0.0;
  int recent_count = 0;
  while (trainer.steps_done() < c.steps) {
    const double loss = trainer.step();
    if (trainer.steps_done() > c.steps - 50) recent += loss, ++recent_count;
    progress(trainer, loss, seconds_since(start), first_step, tty);
    if (static_cast<unsigned long long>(trainer.steps_done()) % every == 0 &&
        !write_bytes(checkpoint, scene::write_checkpoint(trainer, cfg), &error))
      return bad_input(error);
  }
  if (tty) std::fputc('\n', stderr);
  const double train_s = seconds_since(start);
  // The shipped weights are the rounded ones: report their held-out figures (and the unrounded ones').
  const model::Model shipped = scene::quantized(trainer.model());
  const HeldOutFigures exact = held_out(trainer.model(), tokenizer, corpus.held_out, c.threads);
  const HeldOutFigures figures = held_out(shipped, tokenizer, corpus.held_out, c.threads);
  ordered_json rec;
  rec["command"] = o.command_line;
  ordered_json corpus_json;
  corpus_json["label"] = o.corpus_label;
  corpus_json["files"] = corpus.files;
  corpus_json["bytes"] = corpus.text.size();
  corpus_json["train_bytes"] = corpus.train.size();
  corpus_json["held_out_bytes"] = corpus.held_out.size();
  corpus_json["train_fnv1a64"] = train_hash;
  corpus_json["held_out_fnv1a64"] = hex64(fnv1a64(corpus.held_out));
  corpus_json["split"] = "held out: the last 5 % of the text, from the first entry boundary at or after 95 %";
  rec["corpus"] = std::move(corpus_json);
  rec["config"] = ordered_json::parse(cfg);
  rec["weights"] = model::weight_count(trainer.model());
  rec["steps_done"] = trainer.steps_done();
  rec["train_loss_last_50_steps"] = recent_count ? recent / recent_count : 0.0;
  rec["held_out_loss"] = figures.loss;
  rec["held_out_bpb"] = figures.bpb;
  rec["held_out_tokens"] = figures.tokens;
  rec["held_out_predicted_bytes"] = figures.bytes;
  rec["held_out_bpb_before_rounding"] = exact.bpb;
  rec["seconds"] = std::round(train_s);
  rec["threads"] = c.threads;
  const std::string training = scene::json_text::dump(rec, -1);
  if (!write_bytes(o.out, scene::write_lm_file(shipped, tokenizer, training), &error))
    return bad_input(error);
  std::fprintf(stderr, "held out: %.4f nats/token, %.4f bits/byte (%.4f before rounding); %s written\n",
               figures.loss, figures.bpb, exact.bpb, o.out.c_str());
  return print_line(scene::json_text::dump(rec, o.indent));
}

int held_out_command(const LmOptions& o) {
  std::string error;
  scene::LmFile f;
  if (o.corpus.empty()) return usage_error("--lm-held-out MODEL needs --corpus PATH");
  if (!load_model(o.held_out_path, &f, &error)) return bad_input(error);
  if (!f.tokenizer) return bad_input("model: has no tokenizer (the held-out figures are per byte of text)");
  Corpus corpus;
  if (!read_corpus(o.corpus, &corpus, &error)) return bad_input(error);
  int threads = 1;
  unsigned long long v = 1;
  if (!o.threads.empty() && parse_whole(o.threads, 1, model::kMaxLmThreads, &v))
    threads = static_cast<int>(v);
  const HeldOutFigures figures = held_out(f.model, *f.tokenizer, corpus.held_out, threads);
  ordered_json j;
  j["held_out_loss"] = figures.loss;
  j["held_out_bpb"] = figures.bpb;
  j["held_out_tokens"] = figures.tokens;
  j["held_out_predicted_bytes"] = figures.bytes;
  j["held_out_bytes"] = corpus.held_out.size();
  j["held_out_fnv1a64"] = hex64(fnv1a64(corpus.held_out));
  return print_line(scene::json_text::dump(j, o.indent));
}

}  // namespace

int lm_train_main(const LmOptions& o) {
  return o.train ? train(o) : held_out_command(o);
}

}  // namespace cli
