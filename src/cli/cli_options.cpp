// cli_options.cpp — parse attention-lab-cli's command line with CLI11 (see cli_options.hpp).
#include "cli/cli_options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>

#include "cli/corpus.hpp"
#include "core/model_train.hpp"
#include "scene/export.hpp"
#include "scene/scene.hpp"

namespace cli {
namespace {

// A check: "" when `value` is good, else the reason (CLI11 prefixes the flag: "--online: …").
using Check = std::function<std::string(std::string&)>;

CLI::Validator check(Check c) {
  return CLI::Validator(std::move(c), "", "");
}

// --cache all | last,W | sinks,S,W → a policy; false when the text is not one of these.
bool parse_cache_policy(const std::string& text, attn::CachePolicy* policy) {
  unsigned long long a = 0, b = 0;
  const std::size_t max = 9999999;  // 7 digits
  if (text == "all") {
    *policy = attn::CachePolicy{};
    return true;
  }
  if (text.rfind("last,", 0) == 0 && parse_whole(text.substr(5), 0, max, &a)) {
    *policy = attn::CachePolicy{attn::CacheKind::LastW, int(a), 0};
    return true;
  }
  const std::size_t comma = text.find(',', 6);
  if (text.rfind("sinks,", 0) == 0 && comma != std::string::npos &&
      parse_whole(text.substr(6, comma - 6), 0, max, &a) && parse_whole(text.substr(comma + 1), 0, max, &b)) {
    *policy = attn::CachePolicy{attn::CacheKind::SinksLastW, int(b), int(a)};
    return true;
  }
  return false;
}

// "--steps: 1 required TEXT missing" → "--steps: missing value" (what the tests and users read).
std::string usage_message(const CLI::ParseError& e) {
  const std::string text = e.what();
  const std::size_t colon = text.find(':');
  const bool missing =
      dynamic_cast<const CLI::ArgumentMismatch*>(&e) && text.find("missing") != std::string::npos;
  return missing && colon != std::string::npos ? text.substr(0, colon) + ": missing value" : text;
}

// The flags of the scene commands: not with the model's commands.
constexpr const char* kSceneOnly[] = {"--online", "--kv-cache",     "--cache",  "--window", "--sinks",
                                      "--alibi",  "--kv-heads",     "--stage",  "--digits", "--preset",
                                      "--gen",    "--list-presets", "--kv-bill"};
// The flags only the model's commands have: any of them makes the command line one of those.
constexpr const char* kModelOnly[] = {"--eval",    "--text",  "--ablate", "--layers",
                                      "--d-model", "--n-ctx", "--batch",  "--weight-decay"};

// `scratch`: the text of the flags whose checks store the value (numbers, the cache policy).
void declare_scene_flags(CLI::App& cli, Options& o, std::string* grad_value, std::string* scratch) {
  cli.add_flag("--compact", "one-line JSON output (default: indented by 2 spaces)")->disable_flag_override();
  cli.add_flag("--list-presets", o.list_presets, "list the presets, one per line: NAME<TAB>description")
      ->disable_flag_override();
  cli.add_option("--preset", o.preset,
                 "print the scene JSON of a bundled preset (feed it back to compute it)")
      ->type_name("NAME");
  cli.add_option("--gen", o.gen,
                 "print a generated scene's JSON; patterns random, local, previous, sink, periodic, block "
                 "(e.g. local,1024,64,64,1)")
      ->type_name("P,N,DK,DV,SEED");
  cli.add_option("--online", *scratch,
                 "FlashAttention's tiled pass with blocks of B tokens (1 <= B <= n), every step")
      ->type_name("B")
      ->check(check([&o](std::string& v) -> std::string {
        unsigned long long b = 0;
        if (!parse_whole(v, 0, 9999, &b))
          return "needs a block size B, a whole number >= 1, got \"" + v + "\"";
        o.online = true;
        o.online_block = int(b);
        return "";
      }));
  cli.add_flag("--kv-cache", o.kv_cache, "causal decoding token by token with a key/value cache")
      ->disable_flag_override();
  cli.add_option("--cache", *scratch, "with --kv-cache: all (default), last,W (the last W keys) or sinks,S,W")
      ->type_name("POLICY")
      ->check(check([&o](std::string& v) -> std::string {
        o.have_cache_policy = parse_cache_policy(v, &o.cache_policy);
        return o.have_cache_policy ? "" : "needs all, last,W or sinks,S,W, got \"" + v + "\"";
      }));
  // The scene keys' ranges are the scene's validate()'s, which names the key.
  const std::pair<const char*, std::optional<int>*> keys[] = {
      {"--window", &o.window}, {"--sinks", &o.sinks}, {"--kv-heads", &o.kv_heads}};
  const char* key_help[] = {"set the scene's sliding window (0 = none): causal 0 <= i-j < W, else |i-j| < W",
                            "set the scene's sink tokens: keys j < S stay visible past the window",
                            "set the scene's K/V groups (H divides heads; 1 = multi-query)"};
  for (std::size_t k = 0; k < 3; ++k) {
    std::optional<int>* slot = keys[k].second;
    cli.add_option(keys[k].first, *scratch, key_help[k])
        ->type_name("N")
        ->check(check([slot](std::string& v) -> std::string {
          unsigned long long n = 0;
          if (!parse_whole(v, 0, 1000000, &n)) return "needs a whole number >= 0, got \"" + v + "\"";
          *slot = int(n);
          return "";
        }));
  }
  cli.add_flag("--alibi", o.alibi,
               "add ALiBi's bias -m_h |i-j| to each head's scaled scores, m_h = 2^(-8h/H)")
      ->disable_flag_override();
  cli.add_flag("--kv-bill", o.kv_bill, "the KV-cache bill of published model shapes")
      ->disable_flag_override();
  cli.add_option(
         "--grad", *grad_value,
         "gradients of 1/2 sum (output - target)^2 for a scene with \"target\"; --grad MODEL: the model's")
      ->type_name("[MODEL]")
      ->expected(0, 1);
  cli.add_option("--export", o.export_kind,
                 "print the scene as numpy, pytorch (scripts), latex or svg (one stage)")
      ->type_name("KIND")
      ->check(check([](std::string& v) -> std::string {
        return scene::parse_export_kind(v) ? "" : "unknown kind " + v + " (numpy, pytorch, latex, svg)";
      }));
  cli.add_option("--stage", o.export_stage, "latex/svg: weights (default), scores, scaled, Q, K, V, output")
      ->type_name("STAGE")
      ->check(check([](std::string& v) -> std::string {
        return scene::parse_export_stage(v)
                   ? ""
                   : "unknown stage " + v + " (weights, scores, scaled, Q, K, V, output)";
      }));
  cli.add_option("--digits", *scratch, "latex/svg: decimals, 0 to 15 (default 3)")
      ->type_name("D")
      ->check(check([&o](std::string& v) -> std::string {
        unsigned long long d = 0;
        if (!parse_whole(v, 0, scene::kMaxExportDigits, &d))
          return "expected 0 to " + std::to_string(scene::kMaxExportDigits) + ", got " + v;
        o.export_digits = int(d);
        return "";
      }));
}

// --train's flags (both kinds of task) and the model's commands (circuits_cli.hpp).
void declare_train_and_model_flags(CLI::App& cli, Options& o) {
  ModelOptions& m = o.model;
  cli.add_option("--train", o.train_task,
                 "train on a task: previous-token, same-token, first-token (one attention layer, 16 -> 8, "
                 "cross-entropy) or induction, mixed (an attention-only transformer)")
      ->type_name("TASK");
  cli.add_option("--steps", o.steps, "--train: steps, 1 to 1000000 (induction, mixed: 1 to 100000)")
      ->type_name("N");
  cli.add_option("--seed", o.seed, "--train: the seed, a whole number >= 0")->type_name("S");
  cli.add_option("--lr", o.lr, "--train: learning rate (default 0.02 Adam, 0.5 SGD; the model: 0.01)")
      ->type_name("X");
  cli.add_option("--heads", o.heads, "--train: heads (1, 2, 4, 8; the model: 1 to 4 per layer)")
      ->type_name("H");
  cli.add_option("--optimizer", o.optimizer, "--train: adam or sgd (the model: adamw or adam)")
      ->type_name("NAME");
  CLI::Option_group* model = cli.add_option_group(
      "Model commands", "the attention-only transformer (embeddings, 1-3 layers of 1-4 heads, unembedding)");
  model->add_option("--layers", m.layers, "--train induction|mixed: layers (default 2)")->type_name("L");
  model->add_option("--d-model", m.d_model, "--train induction|mixed: width (default 32)")->type_name("D");
  model->add_option("--n-ctx", m.n_ctx, "--train induction|mixed: context length (default 32)")
      ->type_name("N");
  model->add_option("--batch", m.batch, "--train induction|mixed: sequences per step (default 16)")
      ->type_name("B");
  model->add_option("--weight-decay", m.weight_decay, "--train induction|mixed: AdamW's decay (default 0.01)")
      ->type_name("W");
  model->add_option("--eval", m.eval_path, "run a model (JSON) on --text: logits, loss, every head's weights")
      ->type_name("MODEL");
  model->add_option("--text", m.text, "the text a model reads (its symbols)")->type_name("T");
  model
      ->add_option("--ablate", m.ablate,
                   "switch off head H of layer L (its output zeroed; L.H:mean: replaced by its mean over "
                   "the text, --lm-eval only); repeatable")
      ->type_name("L.H")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// The flags only the language model's commands have (lm_cli.hpp); they share --layers, --heads,
// --d-model, --n-ctx, --batch, --steps, --seed, --lr, --weight-decay, --text and --ablate.
constexpr const char* kLmOnly[] = {"--train-lm", "--corpus",           "--d-mlp",       "--vocab",
                                   "--warmup",   "--threads",          "--out",         "--checkpoint",
                                   "--resume",   "--corpus-label",     "--lm-eval",     "--lm-generate",
                                   "--tokenize", "--model-json",       "--lm-held-out", "--prompt",
                                   "--tokens",   "--temperature",      "--top-k",       "--top-p",
                                   "--stages",   "--checkpoint-every", "--lens",        "--roles",
                                   "--override"};

void declare_lm_flags(CLI::App& cli, LmOptions& l) {
  CLI::Option_group* g =
      cli.add_option_group("Language model commands",
                           "the GPT model with its tokenizer (docs/MODEL.md); MODEL is its file or JSON");
  g->add_flag("--train-lm", l.train, "train a language model on --corpus, write it to --out");
  g->add_option("--corpus", l.corpus, "--train-lm, --lm-held-out: the corpus's files or folders")
      ->type_name("PATH")
      ->expected(1, 64)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  g->add_option("--d-mlp", l.d_mlp, "--train-lm: the MLP's width (at most 4 x d_model)")->type_name("M");
  g->add_option("--vocab", l.vocab, "--train-lm: tokens of the BPE tokenizer, 256 to 1024")->type_name("V");
  g->add_option("--warmup", l.warmup, "--train-lm: warm-up steps (default 100)")->type_name("W");
  g->add_option("--threads", l.threads, "--train-lm: windows computed at once (same result)")->type_name("T");
  g->add_option("--out", l.out, "--train-lm: the model file to write")->type_name("MODEL");
  g->add_option("--checkpoint", l.checkpoint, "--train-lm: the checkpoint file (default MODEL.ckpt)")
      ->type_name("FILE");
  g->add_option("--checkpoint-every", l.checkpoint_every,
                "--train-lm: steps between checkpoints (default 200)")
      ->type_name("N");
  g->add_option("--resume", l.resume, "--train-lm: continue from a checkpoint")->type_name("FILE");
  g->add_option("--corpus-label", l.corpus_label, "--train-lm: the corpus's name, version and licence")
      ->type_name("TEXT");
  g->add_option("--lm-eval", l.eval_path, "run a language model on --text (logits, weights, top-10)")
      ->type_name("MODEL");
  g->add_flag("--stages", l.stages, "--lm-eval: every stage under TransformerLens's hook names");
  g->add_flag("--lens", l.lens, "--lm-eval: the logit lens, the top token after each layer");
  g->add_flag("--roles", l.roles, "--lm-eval: each head's scores on the text and the role they name");
  g->add_option("--override", l.overrides,
                "--lm-eval: head H of layer L reads FILE's q, k or v (n x d_head), or .mask (n x n of 0/1, "
                "ANDed with the causal mask)")
      ->type_name("L.H.q=FILE")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  g->add_option("--lm-generate", l.generate_path, "sample --tokens N after --prompt T with the KV cache")
      ->type_name("MODEL");
  g->add_option("--prompt", l.prompt, "--lm-generate: the text to continue")->type_name("T");
  g->add_option("--tokens", l.tokens, "--lm-generate: how many tokens to draw")->type_name("N");
  g->add_option("--temperature", l.temperature, "--lm-generate: 0 (greedy) to 100 (default 1)")
      ->type_name("X");
  g->add_option("--top-k", l.top_k, "--lm-generate: keep the K most probable tokens (0: all)")
      ->type_name("K");
  g->add_option("--top-p", l.top_p, "--lm-generate: keep the most probable tokens up to mass P")
      ->type_name("P");
  g->add_option("--tokenize", l.tokenize_path, "the tokens and pieces of --text")->type_name("MODEL");
  g->add_option("--model-json", l.model_json_path, "print a model file in the JSON contract")
      ->type_name("MODEL");
  g->add_option("--lm-held-out", l.held_out_path, "held-out loss and bits per byte on --corpus")
      ->type_name("MODEL");
}

// --corpus-text: the language model's corpus as raw bytes on stdout (cli/corpus.hpp).
void declare_corpus_flags(CLI::App& cli, Options& o) {
  cli.add_option("--corpus-text", o.corpus_paths,
                 "print the corpus's text (raw bytes): files and directories (default " +
                     std::string(kDefaultCorpusDir) + "), see docs/MODEL_CORPUS.md")
      ->type_name("[PATH...]")
      ->expected(0, -1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--part", o.corpus_part,
                 "--corpus-text: train, held-out (the last 5 % from an entry boundary) or all (default)")
      ->type_name("PART")
      ->check(check([](std::string& v) -> std::string {
        return v == "train" || v == "held-out" || v == "all" ? ""
                                                             : "must be train, held-out or all, got " + v;
      }));
}

void declare(CLI::App& cli, Options& o, std::string* grad_value, std::string* scratch) {
  cli.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a repeated flag: the last
  declare_scene_flags(cli, o, grad_value, scratch);
  declare_train_and_model_flags(cli, o);
  declare_lm_flags(cli, o.lm);
  declare_corpus_flags(cli, o);
}

// A language model command line: its values, and the flags it may not have.
std::string finish_lm(const CLI::App& cli, Options& o, const std::vector<std::string>& files) {
  for (const char* flag : kSceneOnly)
    if (cli.count(flag)) return std::string(flag) + ": not with the language model's commands (see --help)";
  for (const char* flag : {"--eval", "--train", "--optimizer", "--export", "--grad"})
    if (cli.count(flag)) return std::string(flag) + ": not with the language model's commands (see --help)";
  if (!files.empty())
    return "unexpected argument " + files[0] + " with the language model's commands (see --help)";
  LmOptions& l = o.lm;
  l.indent = o.indent;
  l.have_text = cli.count("--text") > 0;
  l.have_prompt = cli.count("--prompt") > 0;
  l.text = o.model.text;
  l.ablate = o.model.ablate;
  l.steps = o.steps, l.seed = o.seed, l.heads = o.heads, l.lr = o.lr;
  l.layers = o.model.layers, l.d_model = o.model.d_model, l.n_ctx = o.model.n_ctx, l.batch = o.model.batch;
  l.weight_decay = o.model.weight_decay;
  return "";
}

// After the parse: which command, and the checks that involve several flags.
std::string finish(const CLI::App& cli, Options& o, const std::string& grad_value) {
  if (cli.count("--compact")) o.indent = -1;
  o.have_preset = cli.count("--preset") > 0;
  o.have_gen = cli.count("--gen") > 0;
  o.train = cli.count("--train") > 0;
  o.corpus_text = cli.count("--corpus-text") > 0;
  // CLI11 gives a flag written without values one empty value: no path, the default directory.
  o.corpus_paths.erase(std::remove(o.corpus_paths.begin(), o.corpus_paths.end(), std::string()),
                       o.corpus_paths.end());
  if (cli.count("--part") && !o.corpus_text) return "--part goes with --corpus-text (see --help)";
  if (o.corpus_text) {
    if (!cli.remaining().empty())
      return "unexpected argument " + cli.remaining()[0] + " with --corpus-text (see --help)";
    // Every other flag is another command's.
    for (const CLI::Option* opt : cli.get_options())
      if (opt->count() && opt->get_name() != "--corpus-text" && opt->get_name() != "--part")
        return opt->get_name() + ": not with --corpus-text (see --help)";
    return "";
  }
  bool model_only = false;
  for (const char* flag : kModelOnly) model_only = model_only || cli.count(flag) > 0;
  o.model_command = model_only || (o.train && attn::model::parse_task(o.train_task));
  std::vector<std::string> files;
  for (const std::string& extra : cli.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') return extra + ": unknown option (see --help)";
    files.push_back(extra);
  }
  for (const char* flag : kLmOnly) o.lm_command = o.lm_command || cli.count(flag) > 0;
  if (o.lm_command) {
    o.model_command = false;
    return finish_lm(cli, o, files);
  }
  if (o.model_command) {
    for (const char* flag : kSceneOnly)
      if (cli.count(flag)) return std::string(flag) + ": not with the model's commands (see --help)";
    if (!files.empty()) return "unexpected argument " + files[0] + " with the model's commands (see --help)";
    if (cli.count("--grad") && grad_value.empty()) return "--grad: missing value (--grad MODEL --text T)";
    ModelOptions& m = o.model;
    m.indent = o.indent;
    m.have_text = cli.count("--text") > 0;
    m.train_task = o.train_task;
    m.grad_path = grad_value;
    m.export_kind = o.export_kind;
    m.steps = o.steps, m.seed = o.seed, m.heads = o.heads, m.lr = o.lr, m.optimizer = o.optimizer;
    return "";
  }
  o.grad = cli.count("--grad") > 0;
  if (!grad_value.empty()) files.insert(files.begin(), grad_value);  // --grad FILE
  if (files.size() > 1) return "give one FILE only (see --help)";
  if (!files.empty()) o.path = files[0];
  return "";
}

}  // namespace

bool parse_whole(const std::string& text, unsigned long long lo, unsigned long long hi,
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

std::string usage_text() {
  Options o;
  std::string grad, scratch;
  CLI::App cli{
      "Reads a scene (JSON version 1 or 2) from FILE, or from stdin when FILE is '-' or absent, and prints\n"
      "softmax(QK^T/s + M) V with every stage as one JSON object (docs/CLI.md lists each command's keys):\n"
      "  {\"Q\",\"K\",\"V\",\"scores\" (raw QK^T),\"divisor\" (s),\"scaled\" (scores/s, masked cells null),\n"
      "   \"allowed\" (n x n 0/1),\"weights\",\"output\",\"masked_rows\",\"entropy\" (per row, "
      "bits),\"argmax\"}\n"
      "and \"heads\", \"concat\" for a multi-head scene. Numbers read back as the same doubles.",
      "attention-lab-cli"};
  cli.footer(
      "--window, --sinks, --alibi and --kv-heads make the scene version 2. Every flag also takes\n"
      "--flag=VALUE.\n"
      "Limits: n <= " +
      std::to_string(scene::kMaxTokens) + " tokens, each dimension <= " + std::to_string(scene::kMaxDim) +
      ", |values| <= 1e15, token labels <= " + std::to_string(scene::kMaxTokenBytes) +
      " bytes, input <= 8 MiB.\n"
      "Exit status: 0 ok, 2 bad input or a usage error (the reason on stderr, nothing on stdout).");
  declare(cli, o, &grad, &scratch);
  return "usage: attention-lab-cli [--compact] [FILE|-]\n"
         "       attention-lab-cli [--compact] --online B | --kv-cache [--cache POLICY] | --grad [FILE|-]\n"
         "       attention-lab-cli --export KIND [--stage STAGE] [--digits D] [FILE|-]\n"
         "       attention-lab-cli --preset NAME | --list-presets | --gen P,N,DK,DV,SEED | --kv-bill\n"
         "       attention-lab-cli --train TASK --steps N --seed S [--lr X] [--heads H] [--optimizer NAME]\n"
         "       attention-lab-cli --eval MODEL --text T [--ablate L.H ...] [--export pytorch]\n"
         "       attention-lab-cli --grad MODEL --text T [--ablate L.H ...]\n"
         "       attention-lab-cli --train-lm --corpus PATH... --layers L --heads H --d-model D --d-mlp M\n"
         "                         --n-ctx N --vocab V --steps S --seed X [--batch B] [--lr LR] [--warmup "
         "W]\n"
         "                         [--threads T] [--resume CKPT] --out MODEL\n"
         "       attention-lab-cli --lm-eval MODEL --text T [--ablate L.H ...] [--stages]\n"
         "       attention-lab-cli --lm-generate MODEL --prompt T --tokens N --seed S [--temperature X]\n"
         "                         [--top-k K] [--top-p P]\n"
         "       attention-lab-cli --tokenize MODEL --text T | --model-json MODEL | --lm-held-out MODEL "
         "--corpus PATH...\n"
         "       attention-lab-cli --corpus-text [PATH...] [--part train|held-out|all]\n\n" +
         cli.help();
}

ParseOutcome parse_options(int argc, const char* const* argv, Options* options, std::string* message) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "-h" || std::string_view(argv[i]) == "--help") {
      *message = usage_text();
      return ParseOutcome::ExitOk;
    }
  Options o;
  std::string grad_value, scratch;
  CLI::App cli;
  cli.allow_extras();  // FILE, and an unknown flag named as such (finish)
  declare(cli, o, &grad_value, &scratch);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    *message = usage_message(e);
    return ParseOutcome::ExitUsage;
  }
  *message = finish(cli, o, grad_value);
  if (!message->empty()) return ParseOutcome::ExitUsage;
  for (int i = 0; i < argc; ++i) {  // recorded in a trained model's file
    const std::string arg = i == 0 ? "attention-lab-cli" : argv[i];
    const bool plain = arg.find_first_of(" \"'\\$`") == std::string::npos && !arg.empty();
    o.lm.command_line += (i ? " " : "") + (plain ? arg : "'" + arg + "'");
  }
  *options = std::move(o);
  return ParseOutcome::Run;
}

}  // namespace cli
