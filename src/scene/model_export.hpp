// model_export.hpp — the attention-only transformer (core/model.hpp) as a PyTorch script that
// rebuilds it and runs it on a text.
//
// The script holds the model's JSON (every weight printed as the shortest decimal that reads back as
// the same double), builds an nn.Module in float64 with TransformerLens's parameter names and shapes
//   embed.W_E [V, D], pos_embed.W_pos [n_ctx, D], blocks.{l}.attn.W_Q / W_K / W_V [H, D, d_head],
//   blocks.{l}.attn.W_O [H, d_head, D], unembed.W_U [D, V]
// (so a TransformerLens HookedTransformer with attn_only=True, no LayerNorm and zero biases loads its
// state_dict), runs it on the tokens with the given heads ablated, and prints
// {"tokens", "logits", "loss"} as JSON: the logits equal --eval's to about 1e-15 relative (the same
// formulas; only the order of additions inside PyTorch's products differs).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"

namespace scene {

std::string model_pytorch_script(const attn::model::Model& m, const std::vector<int>& tokens,
                                 const attn::model::Ablation& ablation);

}  // namespace scene
