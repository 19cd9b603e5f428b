// lm_cli.hpp — the CLI of the GPT language model (core/model.hpp with LayerNorm, MLP and biases, a
// byte-level BPE tokenizer; docs/MODEL.md):
//
//   --train-lm --corpus PATH… --layers L --heads H --d-model D --d-mlp M --n-ctx N --vocab V
//              --steps S --seed X [--batch B] [--lr LR] [--warmup W] [--weight-decay λ] [--threads T]
//              [--corpus-label TEXT] [--checkpoint FILE] [--resume FILE] --out MODEL
//        learn the tokenizer on the corpus's training part, train, write the compact file
//        (scene/lm_file.hpp) with the training record; progress on stderr
//   --lm-eval MODEL --text T [--ablate L.H …] [--override L.H.q=FILE …] [--stages] [--lens] [--roles]
//        {"tokens", "pieces", "logits", "loss", "weights", "per_token_loss", "top", "ablated"}
//        (+ "stages": every kept stage under TransformerLens's hook names; "lens": the logit lens's top
//        token after each layer at each position; "roles": each head's scores on the text,
//        core/head_roles.hpp); --override replaces head H of layer L's q, k or v with FILE's n×d_head
//        JSON rows (what a learner edited)
//   --lm-generate MODEL --prompt T --tokens N --seed S [--temperature X] [--top-k K] [--top-p P]
//   --tokenize MODEL --text T       {"tokens", "pieces", "bytes"}
//   --model-json MODEL              the model in the JSON contract (model_json.hpp), tokenizer included
//   --lm-held-out MODEL --corpus PATH…   the held-out loss and bits per byte on the corpus's last 5 %
// MODEL is the compact file or the JSON contract. Exit status: 0 ok, 2 bad input or a usage error.
#pragma once

#include <string>
#include <vector>

namespace cli {

struct LmOptions {
  int indent = 2;
  bool train = false, stages = false, lens = false, roles = false, have_text = false, have_prompt = false;
  std::vector<std::string> overrides;  // L.H.q=FILE, L.H.k=FILE, L.H.v=FILE
  std::string eval_path, generate_path, tokenize_path, model_json_path, held_out_path;
  std::vector<std::string> corpus, ablate;
  std::string text, prompt, tokens, temperature, top_k, top_p;
  std::string layers, heads, d_model, d_mlp, n_ctx, vocab, steps, seed, batch, lr, warmup, weight_decay,
      threads;
  std::string out, checkpoint, resume, corpus_label, checkpoint_every;
  std::string command_line;  // the whole command, recorded in the model file
};

int lm_main(const LmOptions& options);

}  // namespace cli
