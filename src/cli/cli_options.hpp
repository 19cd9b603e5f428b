// cli_options.hpp — the command line of attention-lab-cli, parsed with CLI11 (Debian's
// libcli11-dev, header-only) as the desktop app's is (app/desktop_options.hpp): every flag declared
// once with its check and its line of --help; --flag VALUE and --flag=VALUE both work; a usage
// error exits 2, as bad input does.
//
// The values the commands check themselves (--train's numbers, the model commands' sizes) stay text
// here, so that their messages name the scene or model field ("steps: must be …") as before.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/circuits_cli.hpp"
#include "cli/lm_cli.hpp"
#include "core/kv_cache.hpp"

namespace cli {

struct Options {
  int indent = 2;  // --compact: -1 (one line)
  // --- commands that print and exit
  bool list_presets = false, kv_bill = false;
  bool have_preset = false, have_gen = false;
  std::string preset;  // --preset NAME
  std::string gen;     // --gen PATTERN,N,D_K,D_V,SEED
  // --- a scene from FILE or stdin, and what to print of it
  std::string path;  // FILE ("" or "-" = stdin)
  int online_block = 0;
  bool online = false, kv_cache = false, grad = false;
  attn::CachePolicy cache_policy;
  bool have_cache_policy = false;
  std::optional<int> window, sinks, kv_heads;  // scene keys set from the command line (version 2)
  bool alibi = false;
  std::string export_kind, export_stage = "weights";
  int export_digits = 3;
  // --- --train TASK (a toy task of core/train.hpp): its values as written
  bool train = false;
  std::string train_task, steps, seed, lr, heads, optimizer;
  // --- --corpus-text [PATH…] --part train|held-out|all: the corpus's bytes (cli/corpus.hpp)
  bool corpus_text = false;
  std::vector<std::string> corpus_paths;  // none: the default directory
  std::string corpus_part = "all";
  // --- the model's commands (circuits_cli.hpp): --train induction|mixed, --eval, --grad MODEL
  bool model_command = false;
  ModelOptions model;
  // --- the language model's commands (lm_cli.hpp): --train-lm, --lm-eval, --lm-generate, …
  bool lm_command = false;
  LmOptions lm;
};

enum class ParseOutcome { Run, ExitOk, ExitUsage };

// Parses argv into *options; on ExitOk *message is --help's text (for stdout), on ExitUsage the
// reason (for stderr, exit 2).
ParseOutcome parse_options(int argc, const char* const* argv, Options* options, std::string* message);

std::string usage_text();

// A whole number in [lo, hi] written with digits only (no sign, no space); false otherwise.
bool parse_whole(const std::string& text, unsigned long long lo, unsigned long long hi,
                 unsigned long long* out);

}  // namespace cli
