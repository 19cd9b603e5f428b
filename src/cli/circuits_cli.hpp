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
// Exit status as the rest of the CLI: 0 ok, 2 bad input (the field named on stderr, nothing on
// stdout), 1 usage error.
#pragma once

namespace cli {

// Whether the arguments ask for the model's commands (--eval, --text, --ablate, --layers, --d-model,
// --n-ctx, --batch, --weight-decay, or --train induction / mixed) and not for --help.
bool is_circuits_command(int argc, char** argv);

int circuits_main(int argc, char** argv);

// The lines of --help about these commands.
const char* circuits_help();

}  // namespace cli
