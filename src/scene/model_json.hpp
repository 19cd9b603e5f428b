// model_json.hpp — the attention-only transformer (core/model.hpp) as JSON: the model contract
// (TransformerLens's weight names), --eval, --grad and --train's output, ablation specs.
//
// A model: {"vocab": [V symbols], "n_ctx", "d_model", "W_E": V×D, "W_pos": n_ctx×D,
//           "layers": [{"heads": [{"W_Q": D×d_head, "W_K", "W_V", "W_O": d_head×D} …]} …],
//           "W_U": D×V}                       (matrices as row lists, vectors as lists; d_head = D / H)
// and the GPT block's optional keys (core/model.hpp): per head "b_Q", "b_K", "b_V" [d_head]; per
// layer "b_O" [D], "ln1": {"w": [D], "b": [D]}, "mlp": {"W_in": D×M, "b_in": [M], "W_out": M×D,
// "b_out": [D]} (biases optional), "ln2" (with an mlp); at the top "ln_final": {"w", "b"}, "b_U" [V],
// "tokenizer" (a byte-level BPE, scene/tokenizer_json.hpp, instead of "vocab"), "training" (an
// object: the command, corpus and figures that made the weights; kept, not interpreted).
// Checked on reading: only these keys; 2 ≤ V ≤ 128 distinct non-empty symbols of at most 64 bytes;
// 4 ≤ n_ctx ≤ 128; 1 ≤ D ≤ 128; 1–3 layers, each with the same number H of heads, 1–4, H dividing D;
// with any GPT key the limits are V ≤ 1024, n_ctx ≤ 256, D ≤ 256, 1–6 layers, 1–8 heads, and
// 1 ≤ d_mlp ≤ 4·D, the same in every layer; every shape; every entry a finite number with
// |x| ≤ 1e4.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/model_train.hpp"
#include "core/tokenizer.hpp"
#include "scene/scene.hpp"

namespace scene {

constexpr double kMaxModelWeight = 1e4;
// A model's JSON text may be larger than a scene's: a 1 M-weight model printed exactly is ~25 MB.
constexpr std::size_t kMaxModelFileBytes = 64u << 20;

struct ModelParse {
  std::optional<attn::model::Model> model;
  std::optional<attn::bpe::Tokenizer> tokenizer;  // when the file has one (then model->vocab = its pieces)
  std::string training;                           // the "training" object as compact JSON, or ""
  std::string error;  // "" on success, else "<field>: <reason>" ("layers[1].heads[0].W_Q: has 3 rows, …")
  bool ok() const { return model.has_value(); }
};
ModelParse parse_model(std::string_view json_text);

// The contract above, one matrix row per line when indent ≥ 0; reads back bit for bit. With a
// tokenizer it is written instead of "vocab"; `training` (compact JSON of an object) when not "".
std::string model_to_json(const attn::model::Model& m, int indent,
                          const std::optional<attn::bpe::Tokenizer>& tokenizer = std::nullopt,
                          const std::string& training = {});

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

// A trained model's recipe: training is deterministic, so (task, layers, heads, d_model, seed, lr,
// steps) with the other settings at their defaults (n_ctx 32, V 28, batch 16, AdamW, weight decay
// 0.01) rebuild its weights bit for bit. Text form (a link's value):
//   TASK,LAYERS,HEADS,D_MODEL,SEED,LR,STEPS      e.g. induction,2,2,32,1,0.01,450
// LR printed as the shortest decimal that reads back as the same double; STEPS 0 … kMaxRecipeSteps
// (a link must rebuild in reasonable time: about 2 minutes at the wasm build's measured speed).
constexpr int kMaxRecipeSteps = 10000;
struct Recipe {
  attn::model::TrainConfig config;
  int steps = 0;
};
struct RecipeParse {
  std::optional<Recipe> recipe;
  std::string error;  // "recipe: <field>: <reason>"
  bool ok() const { return recipe.has_value(); }
};
std::string recipe_text(const Recipe& r);
RecipeParse parse_recipe(std::string_view text);

// One head of a model on a text as an ordinary projected scene (version 2), so that the existing
// panels show its real numbers: tokens = the text's symbols, X = x^l (the residual stream the layer
// reads, n×D), Wq = W_Q, Wk = W_K, Wv = W_V (D×d_head), Wo = W_O (d_head×D), one head, causal, ÷ √d_head.
// compute_heads() of it gives this head's q, k, v, scores, weights, z and out (= z W_O) of `f`.
Scene head_scene(const attn::model::Model& m, const attn::model::Forward& f, int layer, int head);

}  // namespace scene
