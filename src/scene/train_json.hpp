// train_json.hpp — the scene side of training: the --grad input (a scene plus "target"), gradients
// and training runs as JSON, and a trainer's model as an ordinary projected scene (version 2).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/backward.hpp"
#include "core/train.hpp"
#include "scene/scene.hpp"

namespace scene {

// A scene (any version) plus "target": an n×d_out matrix (d_out = the columns of Wo, else d_v).
struct GradInput {
  std::optional<Scene> scene;
  attn::Matrix target;
  std::string error;  // "" on success, else "<field>: <reason>" ("target: has 2 rows, expected n = 3")
  bool ok() const { return scene.has_value(); }
};
GradInput parse_grad_input(std::string_view json_text);

// The gradients of L = ½ Σ (output − target)² for a valid scene: the loss and ∂L/∂(every input).
struct GradOutput {
  double loss = 0.0;
  attn::Gradients grads;
};
GradOutput scene_gradients(const Scene& s, const attn::Matrix& target);

// {"loss", "dX", "dWq", "dWk", "dWv", "dWo"} (projected; "dWo" only with a Wo) or
// {"loss", "dQ", "dK", "dV", "dWo"} (direct). Matrices one row per line when indent ≥ 0.
std::string gradients_json(const Scene& s, const GradOutput& g, int indent);

// The trainer's model on its sample sequence as a scene: tokens "a" … "h" of the sample, X its
// embeddings, the trained Wq, Wk, Wv, Wo, heads, causal, ÷ √d_k. Version 2 (it has a Wo).
Scene trained_scene(const attn::train::Trainer& trainer);

// {"task","steps","seed","lr","heads","loss":[…per step…],"accuracy","scene":{…}} for --train.
std::string train_json(const attn::train::Trainer& trainer, double accuracy, int indent);

}  // namespace scene
