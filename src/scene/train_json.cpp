// train_json.cpp — --grad input/output, --train output, the trained model as a scene.
#include "scene/train_json.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "scene/json_text.hpp"
#include "scene/traces.hpp"  // options_of

namespace scene {
namespace {

using json = json_text::json;
using ordered_json = json_text::ordered_json;

// Rows of finite numbers (±Inf clamped to ±max: a product of numbers near the 1e15 limit can
// overflow; NaN cannot arise from finite inputs here but would become 0).
ordered_json matrix_json(const attn::Matrix& m) {
  constexpr double kMax = std::numeric_limits<double>::max();
  ordered_json rows = ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const double x = m(i, j);
      row.push_back(std::isnan(x) ? 0.0 : std::clamp(x, -kMax, kMax));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// "target": rows × cols numbers, finite, |x| ≤ 1e15.
std::string read_target(const json& v, Eigen::Index rows, Eigen::Index cols, attn::Matrix* out) {
  const std::string shape = std::to_string(rows) + "×" + std::to_string(cols);
  const std::string why = " (target is n×d_out = " + shape + ", d_out = the columns of Wo, else d_v)";
  return json_text::read_matrix(
      v, "target", rows, cols,
      {"an array of rows", std::to_string(rows), std::to_string(cols), why, kMaxAbsValue, "1e15"}, out);
}

}  // namespace

GradInput parse_grad_input(std::string_view text) {
  GradInput r;
  json_text::Parsed parsed = json_text::parse_object(text, kMaxInputBytes, "a scene plus \"target\"");
  if ((r.error = parsed.error).size()) return r;
  auto target = parsed.doc.find("target");
  if (target == parsed.doc.end()) {
    r.error = "target: missing (an n×d_out matrix the output is compared with, L = ½·Σ(output − target)²)";
    return r;
  }
  const json target_value = *target;
  parsed.doc.erase(target);
  ParseResult s = parse_scene(parsed.doc.dump());  // the rest is an ordinary scene
  if (!s.ok()) {
    r.error = s.error;
    return r;
  }
  const Eigen::Index d_out = s.scene->Wo.size() ? s.scene->Wo.cols() : s.scene->concat_dim();
  r.error = read_target(target_value, s.scene->n(), d_out, &r.target);
  if (r.error.empty()) r.scene = std::move(s.scene);
  return r;
}

GradOutput scene_gradients(const Scene& s, const attn::Matrix& target) {
  GradOutput out;
  const attn::HeadsResult f = compute_heads(s);
  const attn::Loss loss = attn::mse_loss(f.output, target);
  out.loss = loss.value;
  attn::BackwardInputs in;
  if (s.mode == Mode::Projected) {
    in.X = &s.X;
    in.Wq = &s.Wq;
    in.Wk = &s.Wk;
    in.Wv = &s.Wv;
  }
  if (s.rope_on) in.rope = &s.rope;
  out.grads = attn::backward(f, loss.d_output, in);
  return out;
}

std::string gradients_json(const Scene& s, const GradOutput& g, int indent) {
  ordered_json j;
  j["loss"] = std::isfinite(g.loss) ? g.loss : std::numeric_limits<double>::max();
  if (s.mode == Mode::Projected) {
    j["dX"] = matrix_json(g.grads.dX);
    j["dWq"] = matrix_json(g.grads.dWq);
    j["dWk"] = matrix_json(g.grads.dWk);
    j["dWv"] = matrix_json(g.grads.dWv);
  } else {
    j["dQ"] = matrix_json(g.grads.dQ);
    j["dK"] = matrix_json(g.grads.dK);
    j["dV"] = matrix_json(g.grads.dV);
  }
  if (s.Wo.size()) j["dWo"] = matrix_json(g.grads.dWo);
  return json_text::dump(j, indent);
}

Scene trained_scene(const attn::train::Trainer& trainer) {
  Scene s;
  const attn::train::Sequence& sample = trainer.sample();
  for (int t : sample.tokens) s.tokens.push_back(attn::train::symbol(t));
  s.mode = Mode::Projected;
  s.X = attn::train::embed(sample.tokens);
  s.Wq = trainer.params().Wq;
  s.Wk = trainer.params().Wk;
  s.Wv = trainer.params().Wv;
  s.Wo = trainer.params().Wo;
  s.heads = trainer.config().heads;
  s.causal = true;
  s.scale.mode = attn::ScaleMode::SqrtDk;
  return s;
}

std::string train_json(const attn::train::Trainer& trainer, double accuracy, int indent) {
  ordered_json j;
  j["task"] = attn::train::task_name(trainer.config().task);
  j["steps"] = trainer.steps();
  j["seed"] = trainer.config().seed;
  j["lr"] = trainer.lr();
  j["heads"] = trainer.config().heads;
  j["optimizer"] = trainer.config().optimizer == attn::train::Optimizer::Adam ? "adam" : "sgd";
  j["loss"] = trainer.losses();
  j["accuracy"] = accuracy;
  // The scene in its own layout (one matrix row per line when indented), spliced in as the last key.
  std::string head = json_text::dump(j, indent);
  head.resize(head.rfind('}'));
  while (!head.empty() && head.back() == '\n') head.pop_back();
  const std::string pad(static_cast<std::size_t>(std::max(indent, 0)), ' ');
  std::string nested;
  for (char c : scene_to_json(trained_scene(trainer), indent))
    nested += c == '\n' ? "\n" + pad : std::string(1, c);
  if (indent < 0) return head + ",\"scene\":" + nested + "}";
  return head + ",\n" + pad + "\"scene\": " + nested + "\n}";
}

}  // namespace scene
