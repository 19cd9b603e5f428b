// circuits_cli.hpp — the CLI of the attention-only transformer (core/model.hpp):
//
//   --train induction|mixed --steps N --seed S [--layers L] [--heads H] [--d-model D] [--n-ctx N]
//           [--batch B] [--lr X] [--optimizer adamw|adam] [--weight-decay W]
//                                  train, print the per-step measures and the model (model_json.hpp)
//   --eval MODEL.json --text T [--ablate L.H …]   logits, loss, every head's weights on the text
//   --eval MODEL.json --text T [--ablate …] --export pytorch   a PyTorch script rebuilding the model
//   --grad MODEL.json --text T [--ablate L.H …]   ∂(mean next-token loss)/∂(every weight)
//   (--compact anywhere: one-line JSON)
//
// Exit status as the rest of the CLI: 0 ok, 2 bad input or a usage error (the reason on stderr,
// nothing on stdout).
#pragma once

#include <string>
#include <vector>

namespace cli {

// The model's commands' values as written (cli_options.cpp parses them); run_* checks each and
// names its field.
struct ModelOptions {
  int indent = 2;
  std::string train_task, eval_path, grad_path, text, export_kind;
  bool have_text = false;
  std::vector<std::string> ablate;
  std::string steps, seed, layers, heads, d_model, n_ctx, batch, lr, optimizer, weight_decay;
};

int circuits_main(const ModelOptions& options);

}  // namespace cli
