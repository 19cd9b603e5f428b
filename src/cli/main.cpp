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
//   attention-lab-cli --kv-bill              the KV-cache bill of published model shapes (core/kv_bill)
//   --window W, --sinks S, --alibi, --kv-heads H   set these scene keys (version 2) on the scene read
//   --kv-cache --cache all|last,W|sinks,S,W  decode with a cache policy (core/kv_cache.hpp)
//
// Exit status: 0 success; 2 bad input (message on stderr naming the field, nothing on stdout);
// 1 usage error.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "cli/circuits_cli.hpp"
#include "core/kv_bill.hpp"
#include "scene/export.hpp"
#include "scene/generate.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"
#include "scene/train_json.hpp"

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitUsage = 1;

void print_help(std::FILE* out) {
  std::fprintf(
      out,
      "usage: attention-lab-cli [--compact] [FILE|-]\n"
      "       attention-lab-cli [--compact] --online B [FILE|-]\n"
      "       attention-lab-cli [--compact] --kv-cache [FILE|-]\n"
      "       attention-lab-cli --export KIND [--stage STAGE] [--digits D] [FILE|-]\n"
      "       attention-lab-cli --preset NAME\n"
      "       attention-lab-cli --list-presets\n"
      "       attention-lab-cli --gen PATTERN,N,D_K,D_V,SEED\n"
      "       attention-lab-cli [--compact] --grad [FILE|-]\n"
      "       attention-lab-cli [--compact] --train TASK --steps N --seed S [--lr X] [--heads H]\n"
      "                         [--optimizer adam|sgd]\n"
      "       attention-lab-cli [--compact] --train induction|mixed --steps N --seed S [--layers L]\n"
      "                         [--heads H] [--d-model D] [--n-ctx N] [--batch B] [--lr X]\n"
      "                         [--optimizer adamw|adam] [--weight-decay W]\n"
      "       attention-lab-cli [--compact] --eval MODEL --text T [--ablate L.H ...] [--export pytorch]\n"
      "       attention-lab-cli [--compact] --grad MODEL --text T [--ablate L.H ...]\n"
      "       attention-lab-cli [--compact] --kv-bill\n"
      "\n"
      "Reads a scene (JSON version 1) from FILE, or from stdin when FILE is '-' or absent, and\n"
      "prints softmax(QK^T/s + M) V with every stage as one JSON object:\n"
      "  {\"Q\",\"K\",\"V\",\"scores\" (raw QK^T),\"divisor\" (s),\"scaled\" (scores/s, masked cells\n"
      "   null),\"allowed\" (n x n 0/1),\"weights\",\"output\",\"masked_rows\",\"entropy\" (per\n"
      "   row, bits; 0 for a masked row),\"argmax\" (per row, first largest weight; -1 if masked)}\n"
      "Output is indented by 2 spaces; --compact prints it on one line. Numbers are printed so\n"
      "they read back as the same doubles.\n"
      "\n"
      "  --online B        FlashAttention's tiled pass with blocks of B tokens (1 <= B <= n):\n"
      "                    {\"block\",\"steps\": [{\"row_block\",\"col_block\",\"skipped\",\"m\",\"l\",\n"
      "                    \"rescale\",\"O\"} ...],\"output\",\"max_abs_diff_vs_naive\",\"tiles_computed\",\n"
      "                    \"tiles_skipped\"}; one step per tile, query blocks outer; m, l, O are the\n"
      "                    block's rows after the step (m null before any allowed cell, l = 0)\n"
      "  --kv-cache        causal decoding with a key/value cache: {\"steps\": [{\"t\",\"cache_len\",\n"
      "                    \"weights\",\"output\"} ...],\"mults_with_cache\",\"mults_without_cache\"}\n"
      "                    (without cache = rerunning the pass on the whole prefix at every step)\n"
      "  --cache POLICY    with --kv-cache: all (default), last,W (keep the last W keys) or\n"
      "                    sinks,S,W (keep the first S and the last W); each step adds \"kept\"\n"
      "                    (cached positions) and \"evicted\" (the position dropped in that step)\n"
      "  --window W        set the scene's sliding window (0 = none): causal 0 <= i-j < W, else |i-j| < W\n"
      "  --sinks S         set the scene's sink tokens: keys j < S stay visible past the window\n"
      "  --alibi           add ALiBi's bias -m_h |i-j| to each head's scaled scores, m_h = 2^(-8h/H)\n"
      "  --kv-heads H      set the scene's K/V groups (H divides heads; 1 = multi-query)\n"
      "                    (these four make the scene version 2; the result adds \"bias\" with ALiBi)\n"
      "  --kv-bill         the KV-cache bill of published model shapes: {\"presets\": [{\"name\",\n"
      "                    \"source\",\"layers\",\"heads\",\"kv_heads\",\"d_head\",\"context\",\n"
      "                    \"bytes_per_number\",\"window\",\"bytes_per_token\",\"tokens_held\",\n"
      "                    \"bytes_per_context\"} ...]}; bytes per token = 2 layers H_kv d_head bytes\n"
      "  --preset NAME     print the scene JSON of a bundled preset (feed it back to compute it)\n"
      "  --list-presets    list the presets, one per line: NAME<TAB>description\n"
      "  --gen P,N,DK,DV,S print the scene JSON of a generated scene (patterns: random, local,\n"
      "                    previous, sink, periodic, block), e.g. --gen local,1024,64,64,1\n"
      "  --grad            read a scene plus \"target\" (n x d_out) and print the gradients of\n"
      "                    L = 1/2 sum (output - target)^2: "
      "{\"loss\",\"dX\",\"dWq\",\"dWk\",\"dWv\",\"dWo\"}\n"
      "                    (direct scenes: dQ, dK, dV; dWo only when the scene has Wo)\n"
      "  --train TASK      train one causal attention layer (16 -> 8, h heads, Wo 8 x 8) with\n"
      "                    cross-entropy on a toy task: previous-token, same-token, first-token;\n"
      "                    --steps N (1 to 1000000), --seed S (a whole number >= 0), --lr X\n"
      "                    (default 0.02 Adam, 0.5 SGD), --heads H (1, 2, 4, 8), --optimizer;\n"
      "                    prints {\"task\",\"steps\",\"seed\",\"lr\",\"heads\",\"optimizer\",\"loss\": "
      "[per\n"
      "                    step],\"accuracy\" (256 fresh sequences),\"scene\": {the trained model}}\n"
      "%s"
      "  --compact         one-line JSON output\n"
      "  --export KIND     instead of the JSON, print the scene as\n"
      "                      numpy    a Python script computing every stage in NumPy (float64)\n"
      "                      pytorch  the same in PyTorch (torch.float64; nn.Linear when projected)\n"
      "                      latex    one stage as an amsmath bmatrix\n"
      "                      svg      one stage as an SVG heatmap in the app's colours\n"
      "  --stage STAGE     latex/svg: weights (default), scores, scaled, Q, K, V, output\n"
      "  --digits D        latex/svg: decimals, 0 to 15 (default 3)\n"
      "  -h, --help        this text\n"
      "\n"
      "Limits: n <= %d tokens, each dimension <= %d, |values| <= 1e15, token labels <= %zu bytes,\n"
      "input <= 8 MiB. Exit status: 0 ok, 2 bad input (reason on stderr), 1 usage error.\n",
      cli::circuits_help(), scene::kMaxTokens, scene::kMaxDim, scene::kMaxTokenBytes);
}

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

int bad_input(const std::string& message) {
  std::fprintf(stderr, "attention-lab-cli: %s\n", message.c_str());
  return kExitBadInput;
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

// --cache all | last,W | sinks,S,W → a policy; false when the text is not one of these.
bool parse_cache_policy(std::string_view text, attn::CachePolicy* policy) {
  const auto number = [](std::string_view t, int* out) {
    if (t.empty() || t.size() > 7) return false;
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
  };
  if (text == "all") {
    *policy = attn::CachePolicy{};
    return true;
  }
  if (text.rfind("last,", 0) == 0) {
    policy->kind = attn::CacheKind::LastW;
    return number(text.substr(5), &policy->window);
  }
  if (text.rfind("sinks,", 0) == 0) {
    const std::string_view rest = text.substr(6);
    const std::size_t comma = rest.find(',');
    policy->kind = attn::CacheKind::SinksLastW;
    return comma != std::string_view::npos && number(rest.substr(0, comma), &policy->sinks) &&
           number(rest.substr(comma + 1), &policy->window);
  }
  return false;
}

// A block size: digits only, no sign, at most 4 of them (n ≤ 1024); -1 when not a number.
int parse_block(std::string_view text) {
  if (text.empty() || text.size() > 4) return -1;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

// A whole number in [lo, hi] written with digits only; false otherwise.
bool parse_whole(std::string_view text, unsigned long long lo, unsigned long long hi,
                 unsigned long long* out) {
  if (text.empty() || text.size() > 20) return false;
  unsigned long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const unsigned long long digit = static_cast<unsigned long long>(c - '0');
    if (value > (~0ull - digit) / 10) return false;  // would overflow 64 bits
    value = value * 10 + digit;
  }
  *out = value;
  return value >= lo && value <= hi;
}

// The --train run: options already checked.
int run_train(const attn::train::Config& config, int steps, int indent) {
  attn::train::Trainer trainer(config);
  for (int k = 0; k < steps; ++k) trainer.step();
  const std::string out = scene::train_json(trainer, trainer.accuracy(), indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (cli::is_circuits_command(argc, argv)) return cli::circuits_main(argc, argv);
  int indent = 2;
  bool online = false;
  int online_block = 0;
  bool kv_cache = false;
  bool grad = false;
  // --train and its options (values checked after the loop, so the message can name each one).
  bool train = false;
  std::string train_task, train_steps, train_seed, train_lr, train_heads, train_optimizer;
  std::string export_kind, export_stage = "weights";
  // Scene keys set from the command line (version 2): --window, --sinks, --kv-heads, --alibi.
  std::optional<int> set_window, set_sinks, set_kv_heads;
  bool set_alibi = false;
  attn::CachePolicy cache_policy;
  bool have_cache_policy = false;
  int export_digits = scene::kDefaultExportDigits;
  std::string path;
  bool have_path = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      print_help(stdout);
      return 0;
    } else if (arg == "--list-presets") {
      for (const scene::PresetInfo& p : scene::preset_list())
        std::printf("%s\t%s\n", p.name.c_str(), p.description.c_str());
      return 0;
    } else if (arg == "--preset") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: --preset needs a NAME (see --list-presets)\n");
        return kExitUsage;
      }
      const std::optional<scene::Scene> s = scene::preset(argv[i + 1]);
      if (!s)
        return bad_input(std::string("preset: unknown name \"") + argv[i + 1] + "\" (see --list-presets)");
      std::printf("%s\n", scene::scene_to_json(*s, indent).c_str());
      return 0;
    } else if (arg == "--gen") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: --gen needs PATTERN,N,D_K,D_V,SEED\n");
        return kExitUsage;
      }
      const scene::GenParse g = scene::parse_gen(argv[i + 1]);
      if (!g.ok()) return bad_input(g.error);
      std::printf("%s\n", scene::scene_to_json(scene::generate(*g.spec), indent).c_str());
      return 0;
    } else if (arg == "--compact") {
      indent = -1;
    } else if (arg == "--kv-bill") {
      return print_kv_bill(indent);
    } else if (arg == "--alibi") {
      set_alibi = true;
    } else if (arg == "--window" || arg == "--sinks" || arg == "--kv-heads") {
      // A whole number; its range is the scene's validate()'s, which names the key.
      unsigned long long value = 0;
      if (i + 1 >= argc || !parse_whole(argv[i + 1], 0, 1000000, &value)) {
        std::fprintf(stderr, "attention-lab-cli: %s needs a whole number >= 0\n", argv[i]);
        return kExitUsage;
      }
      (arg == "--window"  ? set_window
       : arg == "--sinks" ? set_sinks
                          : set_kv_heads) = static_cast<int>(value);
      ++i;
    } else if (arg == "--cache") {
      if (i + 1 >= argc || !parse_cache_policy(argv[i + 1], &cache_policy)) {
        std::fprintf(stderr, "attention-lab-cli: --cache needs all, last,W or sinks,S,W\n");
        return kExitUsage;
      }
      have_cache_policy = true;
      ++i;
    } else if (arg == "--online") {
      online = true;
      online_block = i + 1 < argc ? parse_block(argv[i + 1]) : -1;
      if (online_block < 0) {
        std::fprintf(stderr, "attention-lab-cli: --online needs a block size B, a whole number >= 1\n");
        return kExitUsage;
      }
      ++i;
    } else if (arg == "--kv-cache") {
      kv_cache = true;
    } else if (arg == "--grad") {
      grad = true;
    } else if (arg == "--train" || arg == "--steps" || arg == "--seed" || arg == "--lr" || arg == "--heads" ||
               arg == "--optimizer") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: %s needs a value (see --help)\n", argv[i]);
        return kExitUsage;
      }
      const std::string value = argv[++i];
      if (arg == "--train") {
        train = true;
        train_task = value;
      } else {
        (arg == "--steps"   ? train_steps
         : arg == "--seed"  ? train_seed
         : arg == "--lr"    ? train_lr
         : arg == "--heads" ? train_heads
                            : train_optimizer) = value;
      }
    } else if (arg == "--export" || arg == "--stage" || arg == "--digits") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: %s needs a value (see --help)\n", argv[i]);
        return kExitUsage;
      }
      const std::string value = argv[++i];
      if (arg == "--export") {
        if (!scene::parse_export_kind(value)) {
          std::fprintf(stderr, "attention-lab-cli: --export: unknown kind %s (numpy, pytorch, latex, svg)\n",
                       value.c_str());
          return kExitUsage;
        }
        export_kind = value;
      } else if (arg == "--stage") {
        if (!scene::parse_export_stage(value)) {
          std::fprintf(
              stderr,
              "attention-lab-cli: --stage: unknown stage %s (weights, scores, scaled, Q, K, V, output)\n",
              value.c_str());
          return kExitUsage;
        }
        export_stage = value;
      } else {
        char* end = nullptr;
        errno = 0;
        const long digits = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno != 0 || digits < 0 || digits > scene::kMaxExportDigits) {
          std::fprintf(stderr, "attention-lab-cli: --digits: expected 0 to %d, got %s\n",
                       scene::kMaxExportDigits, value.c_str());
          return kExitUsage;
        }
        export_digits = int(digits);
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "attention-lab-cli: unknown option %s (see --help)\n", argv[i]);
      return kExitUsage;
    } else if (have_path) {
      std::fprintf(stderr, "attention-lab-cli: give one FILE only (see --help)\n");
      return kExitUsage;
    } else {
      path = argv[i];
      have_path = true;
    }
  }

  const bool train_options = !train_steps.empty() || !train_seed.empty() || !train_lr.empty() ||
                             !train_heads.empty() || !train_optimizer.empty();
  if (train_options && !train) {
    std::fprintf(stderr, "attention-lab-cli: --steps, --seed, --lr, --heads, --optimizer go with --train\n");
    return kExitUsage;
  }
  if (train) {
    if (have_path || grad || online || kv_cache || !export_kind.empty()) {
      std::fprintf(stderr, "attention-lab-cli: --train takes no FILE and no other mode (see --help)\n");
      return kExitUsage;
    }
    attn::train::Config config;
    const std::optional<attn::train::Task> task = attn::train::parse_task(train_task);
    if (!task)
      return bad_input("task: unknown task \"" + train_task + "\" (" + attn::train::task_names() +
                       ", induction, mixed)");
    config.task = *task;
    unsigned long long steps = 0, seed = 0, heads = 1;
    if (train_steps.empty()) return bad_input("steps: --train needs --steps N (1 to 1000000)");
    if (!parse_whole(train_steps, 1, attn::train::kMaxSteps, &steps))
      return bad_input("steps: must be a whole number from 1 to 1000000, got " + train_steps);
    if (train_seed.empty()) return bad_input("seed: --train needs --seed S (a whole number >= 0)");
    if (!parse_whole(train_seed, 0, ~0ull, &seed))
      return bad_input("seed: must be a whole number from 0 to 18446744073709551615, got " + train_seed);
    config.seed = seed;
    if (!train_heads.empty()) {
      if (!parse_whole(train_heads, 1, 64, &heads))
        return bad_input("heads: must be 1, 2, 4 or 8, got " + train_heads);
      config.heads = static_cast<int>(heads);
    }
    if (!train_lr.empty()) {
      char* end = nullptr;
      errno = 0;
      const double lr = std::strtod(train_lr.c_str(), &end);
      if (*end != '\0' || errno != 0 || !(lr > 0.0 && lr <= 10.0))
        return bad_input("lr: must be a number above 0 and at most 10, got " + train_lr);
      config.lr = lr;
    }
    if (!train_optimizer.empty()) {
      if (train_optimizer != "adam" && train_optimizer != "sgd")
        return bad_input("optimizer: must be adam or sgd, got " + train_optimizer);
      config.optimizer =
          train_optimizer == "sgd" ? attn::train::Optimizer::Sgd : attn::train::Optimizer::Adam;
    }
    if (const std::string e = attn::train::check_config(config); !e.empty()) return bad_input(e);
    return run_train(config, static_cast<int>(steps), indent);
  }

  std::string text;
  if (!have_path || path == "-") {
    if (!read_capped(stdin, &text)) return bad_input("input: could not read stdin");
  } else {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return bad_input("input: cannot open " + path + ": " + std::strerror(errno));
    const bool ok = read_capped(file, &text);
    std::fclose(file);
    // A directory opens on Linux but fails to read (EISDIR).
    if (!ok) return bad_input("input: cannot read " + path);
  }

  if (online && kv_cache) {
    std::fprintf(stderr, "attention-lab-cli: give --online or --kv-cache, not both\n");
    return kExitUsage;
  }
  if (grad && (online || kv_cache || !export_kind.empty())) {
    std::fprintf(stderr,
                 "attention-lab-cli: give --grad alone (not with --online, --kv-cache or --export)\n");
    return kExitUsage;
  }
  if (grad) {
    const scene::GradInput input = scene::parse_grad_input(text);
    if (!input.ok()) return bad_input(input.error);
    const std::string out =
        scene::gradients_json(*input.scene, scene::scene_gradients(*input.scene, input.target), indent);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  scene::ParseResult parsed = scene::parse_scene(text);
  if (!parsed.ok()) return bad_input(parsed.error);
  // The variant flags set their scene keys, then the scene is validated again (naming the key).
  if (set_window) parsed.scene->window = *set_window;
  if (set_sinks) parsed.scene->sinks = *set_sinks;
  if (set_kv_heads) {
    if (*set_kv_heads == 0) return bad_input("kv_heads: must be at least 1, got 0");
    parsed.scene->kv_heads = *set_kv_heads;
  }
  if (set_alibi) parsed.scene->alibi = true;
  if (const std::string e = scene::validate(*parsed.scene); !e.empty()) return bad_input(e);
  if (have_cache_policy && !kv_cache) {
    std::fprintf(stderr, "attention-lab-cli: --cache goes with --kv-cache\n");
    return kExitUsage;
  }
  if (const std::string e = attn::check_cache_policy(cache_policy); !e.empty()) return bad_input(e);
  if ((online || kv_cache) && (parsed.scene->heads != 1 || parsed.scene->Wo.size() != 0))
    return bad_input(
        std::string(online ? "--online" : "--kv-cache") +
        ": runs one head without Wo (this scene has heads = " + std::to_string(parsed.scene->heads) +
        (parsed.scene->Wo.size() != 0 ? " and a Wo)" : ")"));
  if (online) return print_online(*parsed.scene, online_block, indent);
  if (kv_cache) return print_kv_cache(*parsed.scene, cache_policy, have_cache_policy, indent);
  if (!export_kind.empty()) {
    const scene::ExportResult exported =
        scene::export_scene(*parsed.scene, export_kind, export_stage, export_digits);
    if (!exported.ok()) return bad_input(exported.error);
    std::fwrite(exported.text.data(), 1, exported.text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  const attn::HeadsResult result = scene::compute_heads(*parsed.scene);
  const std::string out = scene::result_to_json(result, indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
