// model_json.cpp — the model contract read and written, --eval / --grad / --train output
// (model_json.hpp).
#include "scene/model_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <set>
#include <utility>

#include "core/model_scores.hpp"
#include "scene/json_text.hpp"

namespace scene {
namespace {

using json = json_text::json;
using ordered_json = json_text::ordered_json;
using attn::Matrix;
namespace model = attn::model;

std::string n_str(long long v) {
  return std::to_string(v);
}

// `field` must be a rows×cols matrix of finite numbers, |x| ≤ kMaxModelWeight; `shape` says which
// ("V×d_model = 28×32").
std::string read_matrix(const json& v, const std::string& field, long long rows, long long cols, Matrix* out,
                        const std::string& shape) {
  return json_text::read_matrix(v, field, rows, cols,
                                {shape + " rows", shape, shape, "", kMaxModelWeight, "1e4"}, out);
}

// A whole number lo … hi under `key`.
std::string read_size(const json& doc, const char* key, int lo, int hi, int* out) {
  const auto it = doc.find(key);
  if (it == doc.end()) return std::string(key) + ": missing";
  if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
    return std::string(key) + ": must be a whole number from " + n_str(lo) + " to " + n_str(hi);
  *out = static_cast<int>(it->get<long long>());
  return {};
}

ordered_json matrix_rows(const Matrix& m) {
  return json_text::matrix_json(m);
}

// `nested` (an object dumped with `indent`) placed as the value of the last key of `head` (an
// object dumped with the same indent, without that key): one level deeper, as train_json does.
std::string splice(const ordered_json& head_object, const char* key, const std::string& nested, int indent) {
  std::string head = json_text::dump(head_object, indent);
  head.resize(head.rfind('}'));
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  const std::string comma = head_object.empty() ? "" : ",";
  if (indent < 0) return head + comma + "\"" + key + "\":" + nested + "}";
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  std::string deeper;
  for (char c : nested) deeper += c == '\n' ? "\n" + pad : std::string(1, c);
  return head + comma + "\n" + pad + "\"" + key + "\": " + deeper + "\n}";
}

// [{"heads": [{"W_Q", "W_K", "W_V", "W_O"} …]} …]: the weights of a model, or their gradients.
ordered_json layers_json(const model::Model& m) {
  ordered_json layers = ordered_json::array();
  for (const model::Layer& layer : m.layers) {
    ordered_json heads = ordered_json::array();
    for (const model::Head& h : layer.heads) {
      ordered_json head;
      head["W_Q"] = matrix_rows(h.W_Q);
      head["W_K"] = matrix_rows(h.W_K);
      head["W_V"] = matrix_rows(h.W_V);
      head["W_O"] = matrix_rows(h.W_O);
      heads.push_back(std::move(head));
    }
    ordered_json l;
    l["heads"] = std::move(heads);
    layers.push_back(std::move(l));
  }
  return layers;
}

std::string ablated_name(int l, int h) {
  return n_str(l) + "." + n_str(h);
}

// "vocab": 2 … kMaxVocab distinct symbols, each 1 … kMaxTokenBytes bytes of UTF-8.
std::string read_vocab(const json& doc, std::vector<std::string>* out) {
  const auto vocab = doc.find("vocab");
  if (vocab == doc.end()) return "vocab: missing (the list of symbols, e.g. [\"a\", \"b\", …])";
  if (!vocab->is_array() || vocab->size() < 2 || vocab->size() > static_cast<std::size_t>(model::kMaxVocab))
    return "vocab: must be a list of 2 to " + n_str(model::kMaxVocab) + " symbols";
  std::set<std::string> seen;
  for (std::size_t v = 0; v < vocab->size(); ++v) {
    const json& sym = (*vocab)[v];
    const std::string where = "vocab: symbol " + n_str(static_cast<long long>(v));
    if (!sym.is_string()) return where + " is not a string (got " + json_text::type_name(sym) + ")";
    const std::string s = sym.get<std::string>();
    if (s.empty() || s.size() > kMaxTokenBytes || !json_text::valid_utf8(s))
      return where + " must be 1 to " + n_str(static_cast<long long>(kMaxTokenBytes)) + " bytes of UTF-8";
    if (!seen.insert(s).second) return where + " (\"" + json_text::clip_utf8(s) + "\") appears twice";
    out->push_back(s);
  }
  return {};
}

// One head `hw` ("layers[l].heads[h]"): {W_Q, W_K, W_V} d_model×d_head and W_O d_head×d_model.
std::string read_head(const json& head, const std::string& hw, long long D, long long dh, model::Head* w) {
  if (!head.is_object()) return hw + ": must be an object {W_Q, W_K, W_V, W_O}";
  for (const auto& member : json_text::sorted_members(head)) {
    const std::string& key = *member.first;
    if (key != "W_Q" && key != "W_K" && key != "W_V" && key != "W_O")
      return hw + "." + json_text::clip_utf8(key) + ": unknown key (a head has W_Q, W_K, W_V, W_O)";
  }
  const std::string sD = n_str(D);
  const std::string in_shape = "d_model×d_head = " + sD + "×" + n_str(dh);
  const std::string out_shape = "d_head×d_model = " + n_str(dh) + "×" + sD;
  const std::pair<const char*, Matrix*> parts[] = {
      {"W_Q", &w->W_Q}, {"W_K", &w->W_K}, {"W_V", &w->W_V}, {"W_O", &w->W_O}};
  for (const auto& [name, target] : parts) {
    if (!head.contains(name)) return hw + "." + name + ": missing";
    const bool is_out = std::string(name) == "W_O";
    const std::string e = read_matrix(head[name], hw + "." + name, is_out ? dh : D, is_out ? D : dh, target,
                                      is_out ? out_shape : in_shape);
    if (!e.empty()) return e;
  }
  return {};
}

// "layers": 1 … kMaxLayers of {"heads": […]}, the same number of heads in each, dividing d_model.
std::string read_layers(const json& layers, long long D, std::vector<model::Layer>* out) {
  if (!layers.is_array() || layers.empty() || layers.size() > static_cast<std::size_t>(model::kMaxLayers))
    return "layers: must be a list of 1 to " + n_str(model::kMaxLayers) + " layers ({\"heads\": […]})";
  long long H = -1;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string lw = "layers[" + n_str(static_cast<long long>(l)) + "]";
    const json& layer = layers[l];
    if (!layer.is_object() || layer.size() != 1 || !layer.contains("heads"))
      return lw + ": must be an object with one key, \"heads\"";
    const json& heads = layer["heads"];
    if (!heads.is_array() || heads.empty() || heads.size() > static_cast<std::size_t>(model::kMaxHeads))
      return lw + ".heads: must be a list of 1 to " + n_str(model::kMaxHeads) + " heads";
    if (H < 0) H = static_cast<long long>(heads.size());
    if (static_cast<long long>(heads.size()) != H)
      return lw + ".heads: has " + n_str(static_cast<long long>(heads.size())) + " heads, layer 0 has " +
             n_str(H) + " (every layer has the same number)";
    if (D % H != 0)
      return lw + ".heads: " + n_str(H) + " heads do not divide d_model = " + n_str(D) +
             " (d_head = d_model / heads)";
    model::Layer out_layer;
    for (std::size_t h = 0; h < heads.size(); ++h) {
      model::Head w;
      const std::string e =
          read_head(heads[h], lw + ".heads[" + n_str(static_cast<long long>(h)) + "]", D, D / H, &w);
      if (!e.empty()) return e;
      out_layer.heads.push_back(std::move(w));
    }
    out->push_back(std::move(out_layer));
  }
  return {};
}

// The document's keys (an object): only the model's keys, each of them present.
std::string check_model_keys(const json& doc) {
  static const std::set<std::string> keys = {"vocab", "n_ctx", "d_model", "W_E", "W_pos", "layers", "W_U"};
  for (const auto& member : json_text::sorted_members(doc))
    if (!keys.count(*member.first))
      return json_text::clip_utf8(*member.first) +
             ": unknown key (a model has vocab, n_ctx, d_model, W_E, W_pos, layers, W_U)";
  return {};
}

}  // namespace

ModelParse parse_model(std::string_view text) {
  ModelParse r;
  const json_text::Parsed parsed = json_text::parse_object(
      text, kMaxInputBytes, "a model: vocab, n_ctx, d_model, W_E, W_pos, layers, W_U");
  if ((r.error = parsed.error).size()) return r;
  const json& doc = parsed.doc;
  if ((r.error = check_model_keys(doc)).size()) return r;
  model::Model m;
  if ((r.error = read_vocab(doc, &m.vocab)).size()) return r;
  const long long V = static_cast<long long>(m.vocab.size());
  int n_ctx = 0, D = 0;
  if ((r.error = read_size(doc, "n_ctx", 4, model::kMaxContext, &n_ctx)).size()) return r;
  if ((r.error = read_size(doc, "d_model", 1, model::kMaxModelDim, &D)).size()) return r;
  const std::string sD = n_str(D), sV = n_str(V);
  for (const char* key : {"W_E", "W_pos", "layers", "W_U"})
    if (!doc.contains(key)) {
      r.error = std::string(key) + ": missing";
      return r;
    }
  if ((r.error = read_matrix(doc["W_E"], "W_E", V, D, &m.W_E, "V×d_model = " + sV + "×" + sD)).size())
    return r;
  if ((r.error = read_matrix(doc["W_pos"], "W_pos", n_ctx, D, &m.W_pos,
                             "n_ctx×d_model = " + n_str(n_ctx) + "×" + sD))
          .size())
    return r;
  if ((r.error = read_layers(doc["layers"], D, &m.layers)).size()) return r;
  if ((r.error = read_matrix(doc["W_U"], "W_U", D, V, &m.W_U, "d_model×V = " + sD + "×" + sV)).size())
    return r;
  r.model = std::move(m);
  return r;
}

std::string model_to_json(const model::Model& m, int indent) {
  ordered_json j;
  j["vocab"] = m.vocab;
  j["n_ctx"] = m.n_ctx();
  j["d_model"] = m.d_model();
  j["W_E"] = matrix_rows(m.W_E);
  j["W_pos"] = matrix_rows(m.W_pos);
  j["layers"] = layers_json(m);
  j["W_U"] = matrix_rows(m.W_U);
  return json_text::dump(j, indent);
}

model::Ablation parse_ablation(const std::vector<std::string>& specs, const model::Model& m,
                               std::string* error) {
  model::Ablation a;
  a.off.assign(static_cast<std::size_t>(m.n_layers()),
               std::vector<bool>(static_cast<std::size_t>(m.n_heads()), false));
  for (const std::string& spec : specs) {
    const std::size_t dot = spec.find('.');
    const auto whole = [](const std::string& s, int* out) {
      if (s.empty() || s.size() > 3) return false;
      int v = 0;
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
      }
      *out = v;
      return true;
    };
    int l = 0, h = 0;
    if (dot == std::string::npos || !whole(spec.substr(0, dot), &l) || !whole(spec.substr(dot + 1), &h)) {
      *error = "ablate: \"" + json_text::clip_utf8(spec) + "\" is not LAYER.HEAD (e.g. 1.0: layer 1, head 0)";
      return {};
    }
    if (l >= m.n_layers() || h >= m.n_heads()) {
      *error = "ablate: " + spec + " names no head (the model has layers 0 to " + n_str(m.n_layers() - 1) +
               ", heads 0 to " + n_str(m.n_heads() - 1) + ")";
      return {};
    }
    a.off[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)] = true;
  }
  return a;
}

std::string eval_json(const model::Model& m, const model::Forward& f, const model::Ablation& a, int indent) {
  const model::TokenLoss loss = model::next_token_loss(f.logits, f.tokens);
  ordered_json j;
  ordered_json tokens = ordered_json::array();
  for (int t : f.tokens) tokens.push_back(m.vocab[static_cast<std::size_t>(t)]);
  j["tokens"] = tokens;
  j["logits"] = matrix_rows(f.logits);
  j["loss"] = loss.value;
  ordered_json weights = ordered_json::array();
  for (const model::LayerStages& layer : f.layers) {
    ordered_json heads = ordered_json::array();
    for (const model::HeadStages& h : layer.heads) heads.push_back(matrix_rows(h.weights));
    weights.push_back(std::move(heads));
  }
  j["weights"] = std::move(weights);
  j["per_token_loss"] = loss.per_token;
  ordered_json predicted = ordered_json::array(), p = ordered_json::array();
  for (const model::Prediction& pr : model::predictions(f)) {
    predicted.push_back(m.vocab[static_cast<std::size_t>(pr.predicted)]);
    p.push_back(pr.p);
  }
  j["predicted"] = std::move(predicted);
  j["p_predicted"] = std::move(p);
  ordered_json ablated = ordered_json::array();
  for (int l = 0; l < m.n_layers(); ++l)
    for (int h = 0; h < m.n_heads(); ++h)
      if (a.is_off(l, h)) ablated.push_back(ablated_name(l, h));
  j["ablated"] = std::move(ablated);
  return json_text::dump(j, indent);
}

std::string model_grad_json(const model::Model& grads, double loss, int indent) {
  ordered_json j;
  j["loss"] = loss;
  j["W_E"] = matrix_rows(grads.W_E);
  j["W_pos"] = matrix_rows(grads.W_pos);
  j["layers"] = layers_json(grads);
  j["W_U"] = matrix_rows(grads.W_U);
  return json_text::dump(j, indent);
}

std::string model_train_json(const model::ModelTrainer& t, int indent) {
  const model::TrainConfig& c = t.config();
  ordered_json config;
  config["task"] = model::task_name(c.task);
  config["layers"] = c.dims.layers;
  config["heads"] = c.dims.heads;
  config["d_model"] = c.dims.d_model;
  config["n_ctx"] = c.dims.n_ctx;
  config["vocab"] = c.dims.vocab;
  config["batch"] = c.batch;
  config["steps"] = t.steps();
  config["seed"] = c.seed;
  config["optimizer"] = model::optimizer_name(c.optimizer);
  config["lr"] = c.lr;
  config["weight_decay"] = c.optimizer == model::Optimizer::AdamW ? c.weight_decay : 0.0;
  ordered_json j;
  std::vector<double> loss, in_context, first, second;
  for (const model::StepRecord& r : t.history()) {
    loss.push_back(r.loss);
    in_context.push_back(r.scores.in_context);
    first.push_back(r.scores.first_copy_loss);
    second.push_back(r.scores.second_copy_loss);
  }
  j["config"] = config;
  j["loss"] = loss;
  j["in_context"] = in_context;
  j["first_copy_loss"] = first;
  j["second_copy_loss"] = second;
  ordered_json heads = ordered_json::array();
  for (int l = 0; l < c.dims.layers; ++l)
    for (int h = 0; h < c.dims.heads; ++h) {
      std::vector<double> prefix, previous;
      for (const model::StepRecord& r : t.history()) {
        prefix.push_back(r.scores.prefix_matching[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)]);
        previous.push_back(r.scores.previous_token[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)]);
      }
      ordered_json head;
      head["layer"] = l;
      head["head"] = h;
      head["prefix_matching"] = prefix;
      head["previous_token"] = previous;
      heads.push_back(std::move(head));
    }
  j["heads"] = std::move(heads);
  j["composition"] =
      t.history().empty() ? ordered_json::array() : json_text::matrix_json(t.history().back().composition);
  ordered_json per_step = ordered_json::array();
  for (const model::StepRecord& r : t.history()) per_step.push_back(json_text::matrix_json(r.composition));
  j["composition_per_step"] = std::move(per_step);
  j["formed_at"] = t.formed_at() > 0 ? ordered_json(t.formed_at()) : ordered_json(nullptr);
  return splice(j, "model", model_to_json(t.model(), indent), indent);
}

std::string recipe_text(const Recipe& r) {
  const model::TrainConfig& c = r.config;
  return std::string(model::task_name(c.task)) + "," + n_str(c.dims.layers) + "," + n_str(c.dims.heads) +
         "," + n_str(c.dims.d_model) + "," + std::to_string(c.seed) + "," +
         json_text::dump(ordered_json(c.lr), -1) + "," + n_str(r.steps);
}

RecipeParse parse_recipe(std::string_view text) {
  RecipeParse out;
  std::vector<std::string> parts(1);
  for (char ch : text) {
    if (ch == ',')
      parts.emplace_back();
    else
      parts.back() += ch;
  }
  const auto fail = [&](const std::string& message) {
    out.error = "recipe: " + message;
    return out;
  };
  if (text.size() > 200 || parts.size() != 7)
    return fail("expected TASK,LAYERS,HEADS,D_MODEL,SEED,LR,STEPS (e.g. induction,2,2,32,1,0.01,450)");
  const auto whole = [](const std::string& s, unsigned long long hi, unsigned long long* v) {
    if (s.empty() || s.size() > 20) return false;
    unsigned long long x = 0;
    for (char ch : s) {
      if (ch < '0' || ch > '9') return false;
      const unsigned long long digit = static_cast<unsigned long long>(ch - '0');
      if (x > (~0ull - digit) / 10) return false;
      x = x * 10 + digit;
    }
    *v = x;
    return x <= hi;
  };
  Recipe r;
  const std::optional<model::Task> task = model::parse_task(parts[0]);
  if (!task) return fail("task: unknown task \"" + json_text::clip_utf8(parts[0]) + "\" (induction, mixed)");
  r.config.task = *task;
  unsigned long long v = 0;
  const char* names[] = {"layers", "heads", "d_model"};
  int* sizes[] = {&r.config.dims.layers, &r.config.dims.heads, &r.config.dims.d_model};
  for (int k = 0; k < 3; ++k) {
    if (!whole(parts[static_cast<std::size_t>(k) + 1], 1000, &v))
      return fail(std::string(names[k]) + ": must be a whole number, got \"" +
                  json_text::clip_utf8(parts[static_cast<std::size_t>(k) + 1]) + "\"");
    *sizes[k] = static_cast<int>(v);
  }
  if (!whole(parts[4], ~0ull, &v)) return fail("seed: must be a whole number from 0 to 18446744073709551615");
  r.config.seed = v;
  char* end = nullptr;
  const std::string& lr = parts[5];
  r.config.lr = lr.empty() ? 0.0 : std::strtod(lr.c_str(), &end);
  if (lr.empty() || *end != '\0') return fail("lr: must be a number above 0 and at most 1");
  if (!whole(parts[6], kMaxRecipeSteps, &v))
    return fail("steps: must be a whole number from 0 to " + n_str(kMaxRecipeSteps));
  r.steps = static_cast<int>(v);
  if (const std::string e = model::check_train_config(r.config); !e.empty()) return fail(e);
  out.recipe = r;
  return out;
}

Scene head_scene(const model::Model& m, const model::Forward& f, int layer, int head) {
  const model::Head& w = m.layers[static_cast<std::size_t>(layer)].heads[static_cast<std::size_t>(head)];
  Scene s;
  for (int t : f.tokens) s.tokens.push_back(m.vocab[static_cast<std::size_t>(t)]);
  s.mode = Mode::Projected;
  s.X = f.layers[static_cast<std::size_t>(layer)].resid_pre;
  s.Wq = w.W_Q;
  s.Wk = w.W_K;
  s.Wv = w.W_V;
  s.Wo = w.W_O;
  s.causal = true;
  s.scale.mode = attn::ScaleMode::SqrtDk;
  return s;
}

}  // namespace scene
