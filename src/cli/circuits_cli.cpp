// circuits_cli.cpp — --train induction|mixed, --eval, --grad MODEL --text (circuits_cli.hpp).
#include "cli/circuits_cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/cli_io.hpp"
#include "cli/cli_options.hpp"
#include "core/model.hpp"
#include "core/model_train.hpp"
#include "core/tokenizer.hpp"
#include "scene/lm_file.hpp"
#include "scene/model_export.hpp"
#include "scene/model_json.hpp"
#include "scene/scene.hpp"

namespace cli {
namespace {

constexpr std::size_t kMaxTextBytes = 4096;

bool parse_number(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(text.c_str(), &end);
  return *end == '\0' && errno == 0;
}

int run_train(const ModelOptions& o) {
  if (!o.eval_path.empty() || !o.grad_path.empty() || o.have_text || !o.ablate.empty() ||
      !o.export_kind.empty())
    return usage_error("--train takes no --eval, --grad, --text, --ablate or --export");
  attn::model::TrainConfig c;
  const std::optional<attn::model::Task> task = attn::model::parse_task(o.train_task);
  if (!task) return bad_input("task: unknown task \"" + o.train_task + "\" (induction, mixed)");
  c.task = *task;
  unsigned long long v = 0;
  const std::string steps_range = "1 to " + std::to_string(attn::model::kMaxTrainSteps);
  if (o.steps.empty()) return bad_input("steps: --train needs --steps N (" + steps_range + ")");
  if (!parse_whole(o.steps, 1, attn::model::kMaxTrainSteps, &v))
    return bad_input("steps: must be a whole number from " + steps_range + ", got " + o.steps);
  const int steps = static_cast<int>(v);
  if (o.seed.empty()) return bad_input("seed: --train needs --seed S (a whole number >= 0)");
  if (!parse_whole(o.seed, 0, ~0ull, &v))
    return bad_input("seed: must be a whole number from 0 to 18446744073709551615, got " + o.seed);
  c.seed = v;
  // Sizes: whole numbers (their ranges are check_train_config's, which words the message).
  const std::pair<const std::string*, int*> sizes[] = {{&o.layers, &c.dims.layers},
                                                       {&o.heads, &c.dims.heads},
                                                       {&o.d_model, &c.dims.d_model},
                                                       {&o.n_ctx, &c.dims.n_ctx},
                                                       {&o.batch, &c.batch}};
  const char* names[] = {"layers", "heads", "d_model", "n_ctx", "batch"};
  for (std::size_t k = 0; k < 5; ++k) {
    const std::string& text = *sizes[k].first;
    if (text.empty()) continue;
    if (!parse_whole(text, 0, 1000000, &v))
      return bad_input(std::string(names[k]) + ": must be a whole number, got " + text);
    *sizes[k].second = static_cast<int>(v);
  }
  if (!o.lr.empty() && !parse_number(o.lr, &c.lr))
    return bad_input("lr: must be a number above 0 and at most 1, got " + o.lr);
  if (!o.optimizer.empty()) {
    if (o.optimizer != "adam" && o.optimizer != "adamw")
      return bad_input("optimizer: must be adamw or adam, got " + o.optimizer);
    c.optimizer = o.optimizer == "adam" ? attn::model::Optimizer::Adam : attn::model::Optimizer::AdamW;
  }
  if (!o.weight_decay.empty()) {
    if (c.optimizer != attn::model::Optimizer::AdamW)
      return bad_input("weight_decay: goes with --optimizer adamw (Adam has none)");
    if (!parse_number(o.weight_decay, &c.weight_decay))
      return bad_input("weight_decay: must be a number from 0 to 1, got " + o.weight_decay);
  }
  if (const std::string e = attn::model::check_train_config(c); !e.empty()) return bad_input(e);
  attn::model::ModelTrainer trainer(c);
  for (int k = 0; k < steps; ++k) trainer.step();
  return print_line(scene::model_train_json(trainer, o.indent));
}

// --eval and --grad: the model, the text's tokens, the ablation.
int run_model(const ModelOptions& o) {
  const bool eval = !o.eval_path.empty();
  if (eval && !o.grad_path.empty()) return usage_error("give --eval or --grad, not both");
  if (!o.have_text) return usage_error(std::string(eval ? "--eval" : "--grad") + " MODEL needs --text T");
  if (!o.export_kind.empty() && (!eval || o.export_kind != "pytorch"))
    return usage_error("--export with a model: --eval MODEL --text T --export pytorch");
  std::string file, error;
  if (!read_prefix(eval ? o.eval_path : o.grad_path, scene::kMaxModelFileBytes, &file, &error))
    return bad_input(error);
  // The JSON contract or the language model's compact file (scene/lm_file.hpp).
  const scene::LmFileParse parsed = scene::read_any_model(file);
  if (!parsed.ok()) return bad_input(parsed.error);
  const attn::model::Model& m = parsed.file->model;
  if (o.text.size() > kMaxTextBytes) return bad_input("text: longer than 4096 bytes");
  const std::vector<int> tokens = parsed.file->tokenizer ? attn::bpe::encode(*parsed.file->tokenizer, o.text)
                                                         : attn::model::tokenize(m, o.text, &error);
  if (!error.empty()) return bad_input(error);
  if (tokens.empty()) return bad_input("text: empty (give at least one symbol)");
  if (static_cast<int>(tokens.size()) > m.n_ctx())
    return bad_input("text: " + std::to_string(tokens.size()) +
                     " tokens, more than the model's n_ctx = " + std::to_string(m.n_ctx()));
  const attn::model::Ablation ablation = scene::parse_ablation(o.ablate, m, &error);
  if (!error.empty()) return bad_input(error);
  if (ablation.any_mean())  // the gradient and the PyTorch script know zero ablation only
    return bad_input("ablate: --eval and --grad take zero ablations (L.H); L.H:mean is --lm-eval's");
  const attn::model::Forward f = attn::model::forward(m, tokens, ablation);
  if (!o.export_kind.empty()) {
    const std::string script = scene::model_pytorch_script(m, tokens, ablation);
    std::fwrite(script.data(), 1, script.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  if (eval) return print_line(scene::eval_json(m, f, ablation, o.indent));
  const attn::model::TokenLoss loss = attn::model::next_token_loss(f.logits, tokens);
  attn::model::Model grads = attn::model::zeros_like(m);
  attn::model::backward(m, f, loss.d_logits, grads);
  return print_line(scene::model_grad_json(grads, loss.value, o.indent));
}

}  // namespace

int circuits_main(const ModelOptions& o) {
  if (!o.train_task.empty()) return run_train(o);
  if (!o.steps.empty() || !o.seed.empty() || !o.layers.empty() || !o.heads.empty() || !o.d_model.empty() ||
      !o.n_ctx.empty() || !o.batch.empty() || !o.lr.empty() || !o.optimizer.empty() ||
      !o.weight_decay.empty())
    return usage_error(
        "--steps, --seed, --layers, --heads, --d-model, --n-ctx, --batch, --lr, --optimizer, "
        "--weight-decay go with --train");
  if (o.eval_path.empty() && o.grad_path.empty())
    return usage_error("--text and --ablate go with --eval MODEL or --grad MODEL");
  return run_model(o);
}

}  // namespace cli
