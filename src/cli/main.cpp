// attention-lab-cli — read a scene (JSON, version 1 or 2), print every stage of attention as JSON
// (with "heads" and "concat" for a multi-head scene; see scene::result_to_json).
//
//   attention-lab-cli [--compact] [FILE|-]   scene from FILE, or stdin for "-" or no argument
//   attention-lab-cli --online B [FILE|-]    FlashAttention's tiled pass, block size B, every step
//   attention-lab-cli --kv-cache [FILE|-]    causal decoding token by token with a KV cache
//   attention-lab-cli --preset NAME          print a preset's scene JSON
//   attention-lab-cli --list-presets         list presets: name, tab, description
//   attention-lab-cli --export KIND [--stage S] [--digits D] [FILE|-]
//                                            the scene as a NumPy / PyTorch script, LaTeX or SVG
//   attention-lab-cli --gen P,N,D_K,D_V,SEED print a generated scene's JSON (scene/generate.hpp)
//   attention-lab-cli --grad [FILE|-]        gradients of ½·Σ(output − target)² (scene + "target")
//   attention-lab-cli --train TASK --steps N --seed S [--lr X] [--heads H] [--optimizer adam|sgd]
//                                            train on a toy task (core/train.hpp), print the run
//   attention-lab-cli --train induction|mixed …, --eval MODEL --text T, --grad MODEL --text T
//                                            the attention-only transformer (cli/circuits_cli.hpp)
//   attention-lab-cli --corpus-text [PATH…] [--part train|held-out|all]
//                                            the language model's corpus as raw bytes (cli/corpus.hpp)
//   attention-lab-cli --kv-bill              the KV-cache bill of published model shapes (core/kv_bill)
//   --window W, --sinks S, --alibi, --kv-heads H   set these scene keys (version 2) on the scene read
//   --kv-cache --cache all|last,W|sinks,S,W  decode with a cache policy (core/kv_cache.hpp)
//
// The command line is parsed by cli_options.cpp (CLI11; --help lists every flag). Exit status:
// 0 success; 2 bad input (message on stderr naming the field, nothing on stdout) or a usage error.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <nlohmann/json.hpp>

#include "cli/circuits_cli.hpp"
#include "cli/cli_io.hpp"
#include "cli/cli_options.hpp"
#include "cli/corpus.hpp"
#include "core/kv_bill.hpp"
#include "scene/export.hpp"
#include "scene/generate.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"
#include "scene/train_json.hpp"
#include "scene/variant_keys.hpp"

namespace {

using cli::bad_input;
using cli::kExitBadInput;

// Reads at most kMaxInputBytes + 1 bytes: enough for parse_scene to report an oversized input
// without ever holding a huge file in memory. Empty optional-like flag on failure.
bool read_capped(std::FILE* in, std::string* text) {
  const std::size_t cap = scene::kMaxInputBytes + 1;
  char buffer[1 << 16];
  while (text->size() < cap) {
    const std::size_t want = std::min(sizeof buffer, cap - text->size());
    const std::size_t got = std::fread(buffer, 1, want, in);
    text->append(buffer, got);
    if (got < want) return !std::ferror(in);
  }
  return true;
}

// The indented layout of result_to_json: one key per line, matrices one row per line, and here
// one step per line.
struct JsonWriter {
  int indent;
  bool first = true;
  std::string pad() const { return std::string(static_cast<std::size_t>(std::max(indent, 0)), ' '); }
  void key(const char* name) {
    std::fputs(first ? "{" : ",", stdout);
    if (indent >= 0) std::fputs("\n", stdout);
    first = false;
    std::printf(indent >= 0 ? "%s\"%s\": " : "%s\"%s\":", pad().c_str(), name);
  }
  void raw(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }
  void close() { std::fputs(indent >= 0 ? "\n}\n" : "}\n", stdout); }
};

// --online B: the steps are printed as they run, so a 1024-token scene with B = 1 (a million
// steps) never holds its trace in memory.
int print_online(const scene::Scene& s, int block, int indent) {
  const attn::Result naive = scene::compute(s);
  if (block < 1 || block > s.n())
    return bad_input("--online: block " + std::to_string(block) +
                     " must be between 1 and n = " + std::to_string(s.n()));
  // With RoPE the scores come from the turned Q and K.
  const attn::Matrix& Q = naive.Q_rope.size() ? naive.Q_rope : naive.Q;
  const attn::Matrix& K = naive.K_rope.size() ? naive.K_rope : naive.K;
  attn::OnlinePass pass(Q, K, naive.V, scene::options_of(s), block);
  JsonWriter out{indent};
  out.key("block");
  out.raw(std::to_string(block));
  out.key("steps");
  out.raw("[");
  for (int k = 0; !pass.done(); ++k) {
    if (k) out.raw(",");
    if (indent >= 0) out.raw("\n" + out.pad() + out.pad());
    out.raw(scene::online_step_json(pass.next()));
  }
  out.raw(indent >= 0 ? "\n" + out.pad() + "]" : "]");
  const attn::Matrix output = pass.output();
  out.key("output");
  out.raw(scene::matrix_rows_json(output, indent));
  out.key("max_abs_diff_vs_naive");
  out.raw(scene::number_json(output.size() ? (output - naive.output).cwiseAbs().maxCoeff() : 0.0));
  out.key("tiles_computed");
  out.raw(std::to_string(pass.tiles_computed()));
  out.key("tiles_skipped");
  out.raw(std::to_string(pass.tiles_skipped()));
  out.close();
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// --kv-cache: decode the scene's tokens in order (causal implied), with a cache policy.
int print_kv_cache(const scene::Scene& s, const attn::CachePolicy& policy, bool with_policy, int indent) {
  const attn::Result full = scene::compute(s);
  const int d_model = s.mode == scene::Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
  const attn::Matrix& Q = full.Q_rope.size() ? full.Q_rope : full.Q;  // with RoPE: turned
  const attn::Matrix& K = full.K_rope.size() ? full.K_rope : full.K;
  const attn::DecodeResult decode =
      attn::decode_with_cache(Q, K, full.V, scene::options_of(s), d_model, policy);
  JsonWriter out{indent};
  out.key("steps");
  out.raw("[");
  for (std::size_t t = 0; t < decode.steps.size(); ++t) {
    if (t) out.raw(",");
    if (indent >= 0) out.raw("\n" + out.pad() + out.pad());
    out.raw(scene::decode_step_json(decode.steps[t], with_policy));
  }
  out.raw(indent >= 0 ? "\n" + out.pad() + "]" : "]");
  out.key("mults_with_cache");
  out.raw(std::to_string(decode.mults_with_cache));
  out.key("mults_without_cache");
  out.raw(std::to_string(decode.mults_without_cache));
  out.close();
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// --kv-bill: every preset's shape and bill (core/kv_bill.hpp), one preset per line.
int print_kv_bill(int indent) {
  JsonWriter out{indent};
  out.key("presets");
  out.raw("[");
  bool first = true;
  for (const attn::KvPreset& p : attn::kv_presets()) {
    const attn::KvShape& k = p.shape;
    std::string line = "{\"name\": \"" + std::string(p.name) + "\", \"source\": \"" + p.source + "\"";
    line += ", \"layers\": " + std::to_string(k.layers) + ", \"heads\": " + std::to_string(k.heads) +
            ", \"kv_heads\": " + std::to_string(k.kv_heads) + ", \"d_head\": " + std::to_string(k.d_head) +
            ", \"context\": " + std::to_string(k.context) +
            ", \"bytes_per_number\": " + std::to_string(k.bytes_per_number) +
            ", \"window\": " + std::to_string(k.window) + ", \"sinks\": " + std::to_string(k.sinks) +
            ", \"kind\": \"" +
            (k.kind == attn::KvKind::Latent   ? "latent"
             : k.kind == attn::KvKind::Linear ? "linear"
                                              : "heads") +
            "\", \"latent\": " + std::to_string(k.latent) + ", \"rope_dim\": " + std::to_string(k.rope_dim) +
            ", \"bytes_per_token\": " + std::to_string(attn::kv_bytes_per_token(k)) +
            ", \"tokens_held\": " + std::to_string(attn::kv_tokens_held(k)) +
            ", \"bytes_per_context\": " + std::to_string(attn::kv_bytes_per_context(k)) + "}";
    out.raw(std::string(first ? "" : ",") + (indent >= 0 ? "\n" + out.pad() + out.pad() : "") + line);
    first = false;
  }
  out.raw(indent >= 0 ? "\n" + out.pad() + "]" : "]");
  out.close();
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int usage(const std::string& message) {
  std::fprintf(stderr, "attention-lab-cli: %s\n", message.c_str());
  return kExitBadInput;  // as the desktop app's usage errors (CLI11)
}

// --train TASK on a toy task: each value checked, its message naming the field.
int train_command(const cli::Options& o) {
  if (!o.path.empty() || o.grad || o.online || o.kv_cache || !o.export_kind.empty())
    return usage("--train takes no FILE and no other mode (see --help)");
  attn::train::Config config;
  const std::optional<attn::train::Task> task = attn::train::parse_task(o.train_task);
  if (!task)
    return bad_input("task: unknown task \"" + o.train_task + "\" (" + attn::train::task_names() +
                     ", induction, mixed)");
  config.task = *task;
  unsigned long long steps = 0, seed = 0, heads = 1;
  if (o.steps.empty()) return bad_input("steps: --train needs --steps N (1 to 1000000)");
  if (!cli::parse_whole(o.steps, 1, attn::train::kMaxSteps, &steps))
    return bad_input("steps: must be a whole number from 1 to 1000000, got " + o.steps);
  if (o.seed.empty()) return bad_input("seed: --train needs --seed S (a whole number >= 0)");
  if (!cli::parse_whole(o.seed, 0, ~0ull, &seed))
    return bad_input("seed: must be a whole number from 0 to 18446744073709551615, got " + o.seed);
  config.seed = seed;
  if (!o.heads.empty()) {
    if (!cli::parse_whole(o.heads, 1, 64, &heads))
      return bad_input("heads: must be 1, 2, 4 or 8, got " + o.heads);
    config.heads = static_cast<int>(heads);
  }
  if (!o.lr.empty()) {
    char* end = nullptr;
    errno = 0;
    const double lr = std::strtod(o.lr.c_str(), &end);
    if (*end != '\0' || errno != 0 || !(lr > 0.0 && lr <= 10.0))
      return bad_input("lr: must be a number above 0 and at most 10, got " + o.lr);
    config.lr = lr;
  }
  if (!o.optimizer.empty()) {
    if (o.optimizer != "adam" && o.optimizer != "sgd")
      return bad_input("optimizer: must be adam or sgd, got " + o.optimizer);
    config.optimizer = o.optimizer == "sgd" ? attn::train::Optimizer::Sgd : attn::train::Optimizer::Adam;
  }
  if (const std::string e = attn::train::check_config(config); !e.empty()) return bad_input(e);
  attn::train::Trainer trainer(config);
  for (unsigned long long k = 0; k < steps; ++k) trainer.step();
  const std::string out = scene::train_json(trainer, trainer.accuracy(), o.indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// The scene's text from FILE, or stdin for "" and "-"; "" on success, else the message.
std::string read_input(const std::string& path, std::string* text) {
  if (path.empty() || path == "-") return read_capped(stdin, text) ? "" : "input: could not read stdin";
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return "input: cannot open " + path + ": " + std::strerror(errno);
  const bool ok = read_capped(file, text);
  std::fclose(file);
  // A directory opens on Linux but fails to read (EISDIR).
  return ok ? "" : "input: cannot read " + path;
}

// The variant keys a scene holds, "softcap, topk" (scene/variant_keys.hpp): they are written in
// order, so the scene's own JSON says which.
std::string variant_keys_of(const scene::Scene& s) {
  const nlohmann::ordered_json j = scene::scene_json(s);
  std::string names;
  for (const char* k : scene::kVariantKeyNames)
    if (j.contains(k)) names += (names.empty() ? "" : ", ") + std::string(k);
  return names;
}

// --grad: a scene with "target", its gradients.
int grad_command(const std::string& text, int indent) {
  const scene::GradInput input = scene::parse_grad_input(text);
  if (!input.ok()) return bad_input(input.error);
  if (input.scene->variants)
    return bad_input(
        "--grad: the gradients are those of plain softmax attention; this scene uses a variant key (" +
        variant_keys_of(*input.scene) + ")");
  const std::string out =
      scene::gradients_json(*input.scene, scene::scene_gradients(*input.scene, input.target), indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// A scene from FILE or stdin, the command-line keys set on it, then what was asked of it: every
// stage (default), --online, --kv-cache or --export.
int scene_command(const cli::Options& o) {
  std::string text;
  if (const std::string e = read_input(o.path, &text); !e.empty()) return bad_input(e);
  if (o.online && o.kv_cache) return usage("give --online or --kv-cache, not both");
  if (o.grad && (o.online || o.kv_cache || !o.export_kind.empty()))
    return usage("give --grad alone (not with --online, --kv-cache or --export)");
  if (o.grad) return grad_command(text, o.indent);
  scene::ParseResult parsed = scene::parse_scene(text);
  if (!parsed.ok()) return bad_input(parsed.error);
  // The variant flags set their scene keys, then the scene is validated again (naming the key).
  scene::Scene& s = *parsed.scene;
  if (o.window) s.window = *o.window;
  if (o.sinks) s.sinks = *o.sinks;
  if (o.kv_heads) {
    if (*o.kv_heads == 0) return bad_input("kv_heads: must be at least 1, got 0");
    s.kv_heads = *o.kv_heads;
  }
  if (o.alibi) s.alibi = true;
  if (const std::string e = scene::validate(s); !e.empty()) return bad_input(e);
  if (o.have_cache_policy && !o.kv_cache) return usage("--cache goes with --kv-cache");
  if (const std::string e = attn::check_cache_policy(o.cache_policy); !e.empty()) return bad_input(e);
  if ((o.online || o.kv_cache) && (s.heads != 1 || s.Wo.size() != 0))
    return bad_input(std::string(o.online ? "--online" : "--kv-cache") +
                     ": runs one head without Wo (this scene has heads = " + std::to_string(s.heads) +
                     (s.Wo.size() != 0 ? " and a Wo)" : ")"));
  if ((o.online || o.kv_cache) && s.variants)
    return bad_input(std::string(o.online ? "--online" : "--kv-cache") +
                     ": runs plain softmax attention step by step; this scene uses a variant key (" +
                     variant_keys_of(s) + ")");
  if (o.online) return print_online(s, o.online_block, o.indent);
  if (o.kv_cache) return print_kv_cache(s, o.cache_policy, o.have_cache_policy, o.indent);
  if (!o.export_kind.empty()) {
    const scene::ExportResult exported =
        scene::export_scene(s, o.export_kind, o.export_stage, o.export_digits);
    if (!exported.ok()) return bad_input(exported.error);
    std::fwrite(exported.text.data(), 1, exported.text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  const std::string out = scene::result_to_json(scene::compute_heads(s), o.indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

// --corpus-text: the corpus (or its train / held-out part) as raw bytes on stdout.
int corpus_command(const cli::Options& o) {
  cli::Corpus corpus;
  std::string error;
  if (!cli::read_corpus(o.corpus_paths, &corpus, &error)) return bad_input(error);
  const std::string& part = o.corpus_part == "train"      ? corpus.train
                            : o.corpus_part == "held-out" ? corpus.held_out
                                                          : corpus.text;
  std::fwrite(part.data(), 1, part.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // The model's passes allocate and free the same large stages (n×d_mlp, n×n per head) again and
  // again. glibc serves blocks over 128 KiB with mmap and hands freed memory back to the system, so
  // every pass paid its page faults again: a 128-token forward pass took 30 ms instead of 10.5, and
  // training slowed alike. Keeping the memory changes no result.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  cli::Options o;
  std::string message;
  switch (cli::parse_options(argc, argv, &o, &message)) {
    case cli::ParseOutcome::ExitOk:
      std::fputs(message.c_str(), stdout);
      return std::fflush(stdout) == 0 ? 0 : 1;
    case cli::ParseOutcome::ExitUsage:
      return usage(message);
    case cli::ParseOutcome::Run:
      break;
  }
  if (o.lm_command) return cli::lm_main(o.lm);
  if (o.corpus_text) return corpus_command(o);
  if (o.model_command) return cli::circuits_main(o.model);
  if (o.list_presets) {
    for (const scene::PresetInfo& p : scene::preset_list())
      std::printf("%s\t%s\n", p.name.c_str(), p.description.c_str());
    return 0;
  }
  if (o.have_preset) {
    const std::optional<scene::Scene> s = scene::preset(o.preset);
    if (!s) return bad_input("preset: unknown name \"" + o.preset + "\" (see --list-presets)");
    std::printf("%s\n", scene::scene_to_json(*s, o.indent).c_str());
    return 0;
  }
  if (o.have_gen) {
    const scene::GenParse g = scene::parse_gen(o.gen);
    if (!g.ok()) return bad_input(g.error);
    std::printf("%s\n", scene::scene_to_json(scene::generate(*g.spec), o.indent).c_str());
    return 0;
  }
  if (o.kv_bill) return print_kv_bill(o.indent);
  if (o.train) return train_command(o);
  if (!o.steps.empty() || !o.seed.empty() || !o.lr.empty() || !o.heads.empty() || !o.optimizer.empty())
    return usage("--steps, --seed, --lr, --heads, --optimizer go with --train");
  return scene_command(o);
}
