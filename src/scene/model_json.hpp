// model_json.hpp — the attention-only transformer (core/model.hpp) as JSON: the model contract
// (TransformerLens's weight names), --eval, --grad and --train's output, ablation specs.
//
// A model: {"vocab": [V symbols], "n_ctx", "d_model", "W_E": V×D, "W_pos": n_ctx×D,
//           "layers": [{"heads": [{"W_Q": D×d_head, "W_K", "W_V", "W_O": d_head×D} …]} …],
//           "W_U": D×V}                       (matrices as row lists; d_head = D / H)
// Checked on reading: exactly these keys; 2 ≤ V ≤ 128 distinct non-empty symbols of at most 64 bytes;
// 4 ≤ n_ctx ≤ 128; 1 ≤ D ≤ 128; 1–3 layers, each with the same number H of heads, 1–4, H dividing D;
// every shape; every entry a finite number with |x| ≤ 1e4 (which keeps every stage and gradient of a
// 3-layer model finite).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/model_train.hpp"

namespace scene {

constexpr double kMaxModelWeight = 1e4;

struct ModelParse {
  std::optional<attn::model::Model> model;
  std::string error;  // "" on success, else "<field>: <reason>" ("layers[1].heads[0].W_Q: has 3 rows, …")
  bool ok() const { return model.has_value(); }
};
ModelParse parse_model(std::string_view json_text);

// The contract above, one matrix row per line when indent ≥ 0; reads back bit for bit.
std::string model_to_json(const attn::model::Model& m, int indent);

// "L.H" specs (layer and head, from 0) → the heads switched off; *error names a bad spec.
attn::model::Ablation parse_ablation(const std::vector<std::string>& specs, const attn::model::Model& m,
                                     std::string* error);

// --eval: {"tokens": [symbols], "logits": n×V, "loss", "weights": [layer][head] n×n,
//          "per_token_loss": [n−1], "predicted": [n symbols, the argmax of each row],
//          "p_predicted": [n], "ablated": ["L.H" …]}
std::string eval_json(const attn::model::Model& m, const attn::model::Forward& f,
                      const attn::model::Ablation& a, int indent);

// --grad: {"loss", "W_E", "W_pos", "layers": [{"heads": [{"W_Q", "W_K", "W_V", "W_O"}]}], "W_U"}: each
// weight's name holds ∂L/∂(that weight), L the mean next-token loss of the text.
std::string model_grad_json(const attn::model::Model& grads, double loss, int indent);

// --train induction|mixed: {"config": {…}, "loss": [per step], "in_context": [per step],
//   "first_copy_loss": [per step], "second_copy_loss": [per step],
//   "heads": [{"layer", "head", "prefix_matching": [per step], "previous_token": [per step]} …],
//   "composition": H×H (layer 0 → layer 1, after the last step; [] for one layer),
//   "composition_per_step": [per step H×H], "formed_at": step or null, "model": {…}}
std::string model_train_json(const attn::model::ModelTrainer& trainer, int indent);

}  // namespace scene
