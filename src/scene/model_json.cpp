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
#include "scene/tokenizer_json.hpp"

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

// A bias (1×n) as a plain list of n numbers.
ordered_json vector_json(const Matrix& b) {
  ordered_json out = ordered_json::array();
  for (Eigen::Index c = 0; c < b.size(); ++c) out.push_back(b(0, c));
  return out;
}

ordered_json norm_json(const model::Norm& n) {
  ordered_json out;
  out["w"] = vector_json(n.w);
  out["b"] = vector_json(n.b);
  return out;
}

// [{"heads": [{"W_Q", "W_K", "W_V", "W_O", ["b_Q", "b_K", "b_V"]} …], ["b_O", "ln1", "ln2", "mlp"]} …]:
// the weights of a model, or their gradients (the optional keys only where the model has them).
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
      if (h.b_Q.size()) head["b_Q"] = vector_json(h.b_Q);
      if (h.b_K.size()) head["b_K"] = vector_json(h.b_K);
      if (h.b_V.size()) head["b_V"] = vector_json(h.b_V);
      heads.push_back(std::move(head));
    }
    ordered_json l;
    l["heads"] = std::move(heads);
    if (layer.b_O.size()) l["b_O"] = vector_json(layer.b_O);
    if (layer.ln1.present()) l["ln1"] = norm_json(layer.ln1);
    if (layer.ln2.present()) l["ln2"] = norm_json(layer.ln2);
    if (layer.mlp.present()) {
      ordered_json mlp;
      mlp["W_in"] = matrix_rows(layer.mlp.W_in);
      if (layer.mlp.b_in.size()) mlp["b_in"] = vector_json(layer.mlp.b_in);
      mlp["W_out"] = matrix_rows(layer.mlp.W_out);
      if (layer.mlp.b_out.size()) mlp["b_out"] = vector_json(layer.mlp.b_out);
      l["mlp"] = std::move(mlp);
    }
    layers.push_back(std::move(l));
  }
  return layers;
}

// The sizes a document may have: the attention-only model's, or a GPT model's (any GPT key).
struct Limits {
  int layers, heads, d_model, n_ctx, vocab;
};
constexpr Limits kAttentionOnly{model::kMaxLayers, model::kMaxHeads, model::kMaxModelDim, model::kMaxContext,
                                model::kMaxVocab};
constexpr Limits kGpt{model::kMaxLmLayers, model::kMaxLmHeads, model::kMaxLmModelDim, model::kMaxLmContext,
                      model::kMaxLmVocab};

bool has_gpt_keys(const json& doc) {
  for (const char* key : {"ln_final", "b_U", "tokenizer"})
    if (doc.contains(key)) return true;
  const auto layers = doc.find("layers");
  if (layers == doc.end() || !layers->is_array()) return false;
  for (const json& layer : *layers) {
    if (!layer.is_object()) continue;
    for (const char* key : {"b_O", "ln1", "ln2", "mlp"})
      if (layer.contains(key)) return true;
    const auto heads = layer.find("heads");
    if (heads == layer.end() || !heads->is_array()) continue;
    for (const json& head : *heads)
      if (head.is_object() && (head.contains("b_Q") || head.contains("b_K") || head.contains("b_V")))
        return true;
  }
  return false;
}

// A bias or a LayerNorm vector: a list of n finite numbers, |x| ≤ kMaxModelWeight, as a 1×n matrix;
// `what` names n ("V", "d_model", "d_head", "d_mlp").
std::string read_vector(const json& v, const std::string& field, long long n, const char* what, Matrix* out) {
  if (!v.is_array()) return field + ": must be a list of " + n_str(n) + " numbers";
  if (static_cast<long long>(v.size()) != n)
    return field + ": has " + n_str(static_cast<long long>(v.size())) + " numbers, expected " + what + " = " +
           n_str(n);
  json rows = json::array();
  rows.push_back(v);
  return read_matrix(rows, field, 1, n, out, "1×" + n_str(n));
}

// {"w": [D], "b": [D]}.
std::string read_norm(const json& v, const std::string& field, long long D, model::Norm* out) {
  if (!v.is_object() || v.size() != 2 || !v.contains("w") || !v.contains("b"))
    return field + ": must be an object {\"w\": [" + n_str(D) + " numbers], \"b\": [" + n_str(D) +
           " numbers]}";
  std::string e = read_vector(v["w"], field + ".w", D, "d_model", &out->w);
  if (e.empty()) e = read_vector(v["b"], field + ".b", D, "d_model", &out->b);
  return e;
}

// {"W_in": D×M, "b_in": [M], "W_out": M×D, "b_out": [D]} (the biases optional), M = 1 … 4·D.
std::string read_mlp(const json& v, const std::string& field, long long D, model::Mlp* out) {
  if (!v.is_object()) return field + ": must be an object {W_in, b_in, W_out, b_out}";
  for (const auto& member : json_text::sorted_members(v)) {
    const std::string& key = *member.first;
    if (key != "W_in" && key != "b_in" && key != "W_out" && key != "b_out")
      return field + "." + json_text::clip_utf8(key) + ": unknown key (an MLP has W_in, b_in, W_out, b_out)";
  }
  if (!v.contains("W_in")) return field + ".W_in: missing";
  if (!v.contains("W_out")) return field + ".W_out: missing";
  const json& w_in = v["W_in"];
  const long long M =
      w_in.is_array() && !w_in.empty() && w_in[0].is_array() ? static_cast<long long>(w_in[0].size()) : 0;
  if (M < 1 || M > 4 * D)
    return field + ".W_in: must be d_model×d_mlp with d_mlp from 1 to 4·d_model = " + n_str(4 * D);
  const std::string sD = n_str(D), sM = n_str(M);
  std::string e = read_matrix(w_in, field + ".W_in", D, M, &out->W_in, "d_model×d_mlp = " + sD + "×" + sM);
  if (e.empty() && v.contains("b_in")) e = read_vector(v["b_in"], field + ".b_in", M, "d_mlp", &out->b_in);
  if (e.empty())
    e = read_matrix(v["W_out"], field + ".W_out", M, D, &out->W_out, "d_mlp×d_model = " + sM + "×" + sD);
  if (e.empty() && v.contains("b_out"))
    e = read_vector(v["b_out"], field + ".b_out", D, "d_model", &out->b_out);
  return e;
}

std::string ablated_name(int l, int h) {
  return n_str(l) + "." + n_str(h);
}

// "vocab": 2 … max_vocab distinct symbols, each 1 … kMaxTokenBytes bytes of UTF-8.
std::string read_vocab(const json& doc, int max_vocab, std::vector<std::string>* out) {
  const auto vocab = doc.find("vocab");
  if (vocab == doc.end()) return "vocab: missing (the list of symbols, e.g. [\"a\", \"b\", …])";
  if (!vocab->is_array() || vocab->size() < 2 || vocab->size() > static_cast<std::size_t>(max_vocab))
    return "vocab: must be a list of 2 to " + n_str(max_vocab) + " symbols";
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

// The model's symbols: "vocab", or a byte-level BPE "tokenizer" (then no "vocab": the symbols are
// the tokenizer's pieces as a learner sees them, display_piece).
std::string read_vocab_or_tokenizer(const json& doc, int max_vocab, model::Model* m,
                                    std::optional<attn::bpe::Tokenizer>* tokenizer) {
  if (!doc.contains("tokenizer")) return read_vocab(doc, max_vocab, &m->vocab);
  if (doc.contains("vocab")) return "vocab: not with a tokenizer (its pieces are the vocabulary)";
  TokenizerParse parsed = parse_tokenizer(doc["tokenizer"]);
  if (!parsed.ok()) return parsed.error;
  attn::bpe::Tokenizer& t = *parsed.tokenizer;
  if (t.vocab_size() > max_vocab)
    return "tokenizer: " + n_str(t.vocab_size()) + " tokens, more than " + n_str(max_vocab);
  for (int id = 0; id < t.vocab_size(); ++id) m->vocab.push_back(attn::bpe::display_piece(t, id));
  *tokenizer = std::move(t);
  return {};
}

// One head `hw` ("layers[l].heads[h]"): {W_Q, W_K, W_V} d_model×d_head and W_O d_head×d_model.
std::string read_head(const json& head, const std::string& hw, long long D, long long dh, model::Head* w) {
  if (!head.is_object()) return hw + ": must be an object {W_Q, W_K, W_V, W_O}";
  static const std::set<std::string> keys = {"W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V"};
  for (const auto& member : json_text::sorted_members(head))
    if (!keys.count(*member.first))
      return hw + "." + json_text::clip_utf8(*member.first) +
             ": unknown key (a head has W_Q, W_K, W_V, W_O and optional biases b_Q, b_K, b_V)";
  const std::pair<const char*, Matrix*> biases[] = {{"b_Q", &w->b_Q}, {"b_K", &w->b_K}, {"b_V", &w->b_V}};
  for (const auto& [name, target] : biases)
    if (head.contains(name))
      if (std::string e = read_vector(head[name], hw + "." + name, dh, "d_head", target); !e.empty())
        return e;
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

// One layer's optional GPT keys: b_O, ln1, ln2, mlp (ln2 only with an MLP).
std::string read_layer_extras(const json& layer, const std::string& lw, long long D, model::Layer* out) {
  static const std::set<std::string> keys = {"heads", "b_O", "ln1", "ln2", "mlp"};
  for (const auto& member : json_text::sorted_members(layer))
    if (!keys.count(*member.first))
      return lw + "." + json_text::clip_utf8(*member.first) +
             ": unknown key (a layer has heads, b_O, ln1, ln2, mlp)";
  std::string e;
  if (layer.contains("b_O")) e = read_vector(layer["b_O"], lw + ".b_O", D, "d_model", &out->b_O);
  if (e.empty() && layer.contains("ln1")) e = read_norm(layer["ln1"], lw + ".ln1", D, &out->ln1);
  if (e.empty() && layer.contains("mlp")) e = read_mlp(layer["mlp"], lw + ".mlp", D, &out->mlp);
  if (e.empty() && layer.contains("ln2")) {
    if (!layer.contains("mlp")) return lw + ".ln2: goes with an mlp (it normalizes the MLP's input)";
    e = read_norm(layer["ln2"], lw + ".ln2", D, &out->ln2);
  }
  return e;
}

// "layers": 1 … limits.layers of {"heads": […], …}, the same number of heads in each, dividing d_model.
std::string read_layers(const json& layers, long long D, const Limits& limits,
                        std::vector<model::Layer>* out) {
  if (!layers.is_array() || layers.empty() || layers.size() > static_cast<std::size_t>(limits.layers))
    return "layers: must be a list of 1 to " + n_str(limits.layers) + " layers ({\"heads\": […]})";
  long long H = -1;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const std::string lw = "layers[" + n_str(static_cast<long long>(l)) + "]";
    const json& layer = layers[l];
    if (!layer.is_object() || !layer.contains("heads"))
      return lw + ": must be an object with \"heads\" (and optionally b_O, ln1, ln2, mlp)";
    const json& heads = layer["heads"];
    if (!heads.is_array() || heads.empty() || heads.size() > static_cast<std::size_t>(limits.heads))
      return lw + ".heads: must be a list of 1 to " + n_str(limits.heads) + " heads";
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
    if (const std::string e = read_layer_extras(layer, lw, D, &out_layer); !e.empty()) return e;
    if (l > 0 && out_layer.mlp.present() && out->front().mlp.present() &&
        out_layer.mlp.W_in.cols() != out->front().mlp.W_in.cols())
      return lw + ".mlp.W_in: has d_mlp = " + n_str(out_layer.mlp.W_in.cols()) + ", layer 0 has " +
             n_str(out->front().mlp.W_in.cols()) + " (every layer has the same d_mlp)";
    out->push_back(std::move(out_layer));
  }
  return {};
}

// The document's keys (an object): only the model's keys.
std::string check_model_keys(const json& doc) {
  static const std::set<std::string> keys = {"vocab", "n_ctx",    "d_model", "W_E",       "W_pos",   "layers",
                                             "W_U",   "ln_final", "b_U",     "tokenizer", "training"};
  for (const auto& member : json_text::sorted_members(doc))
    if (!keys.count(*member.first))
      return json_text::clip_utf8(*member.first) +
             ": unknown key (a model has vocab, n_ctx, d_model, W_E, W_pos, layers, W_U, and optionally "
             "ln_final, "
             "b_U, tokenizer, training)";
  return {};
}

// The top's optional GPT keys: ln_final, b_U; "training" (what made the weights) must be an object.
std::string read_top_extras(const json& doc, long long D, long long V, model::Model* m) {
  std::string e;
  if (doc.contains("ln_final")) e = read_norm(doc["ln_final"], "ln_final", D, &m->ln_final);
  if (e.empty() && doc.contains("b_U")) e = read_vector(doc["b_U"], "b_U", V, "V", &m->b_U);
  if (e.empty() && doc.contains("training") && !doc["training"].is_object())
    e = "training: must be an object (the command, corpus and figures that made the weights)";
  return e;
}

}  // namespace

ModelParse parse_model(std::string_view text) {
  ModelParse r;
  const json_text::Parsed parsed = json_text::parse_object(
      text, kMaxModelFileBytes, "a model: vocab, n_ctx, d_model, W_E, W_pos, layers, W_U");
  if ((r.error = parsed.error).size()) return r;
  const json& doc = parsed.doc;
  if ((r.error = check_model_keys(doc)).size()) return r;
  const Limits& limits = has_gpt_keys(doc) ? kGpt : kAttentionOnly;
  model::Model m;
  if ((r.error = read_vocab_or_tokenizer(doc, limits.vocab, &m, &r.tokenizer)).size()) return r;
  const long long V = static_cast<long long>(m.vocab.size());
  int n_ctx = 0, D = 0;
  if ((r.error = read_size(doc, "n_ctx", 4, limits.n_ctx, &n_ctx)).size()) return r;
  if ((r.error = read_size(doc, "d_model", 1, limits.d_model, &D)).size()) return r;
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
  if ((r.error = read_layers(doc["layers"], D, limits, &m.layers)).size()) return r;
  if ((r.error = read_matrix(doc["W_U"], "W_U", D, V, &m.W_U, "d_model×V = " + sD + "×" + sV)).size())
    return r;
  if ((r.error = read_top_extras(doc, D, V, &m)).size()) return r;
  if (doc.contains("training")) r.training = json_text::dump(doc["training"], -1);
  r.model = std::move(m);
  return r;
}

std::string model_to_json(const model::Model& m, int indent,
                          const std::optional<attn::bpe::Tokenizer>& tokenizer, const std::string& training) {
  ordered_json j;
  if (tokenizer)
    j["tokenizer"] = tokenizer_to_json(*tokenizer);
  else
    j["vocab"] = m.vocab;
  j["n_ctx"] = m.n_ctx();
  j["d_model"] = m.d_model();
  j["W_E"] = matrix_rows(m.W_E);
  j["W_pos"] = matrix_rows(m.W_pos);
  j["layers"] = layers_json(m);
  if (m.ln_final.present()) j["ln_final"] = norm_json(m.ln_final);
  j["W_U"] = matrix_rows(m.W_U);
  if (m.b_U.size()) j["b_U"] = vector_json(m.b_U);
  if (!training.empty()) j["training"] = ordered_json::parse(training);
  return json_text::dump(j, indent);
}

model::Ablation parse_ablation(const std::vector<std::string>& specs, const model::Model& m,
                               std::string* error) {
  model::Ablation a;
  a.off.assign(static_cast<std::size_t>(m.n_layers()),
               std::vector<bool>(static_cast<std::size_t>(m.n_heads()), false));
  for (const std::string& given : specs) {
    // "L.H" or "L.H:zero" switches the head off; "L.H:mean" replaces its output by its mean over the text.
    const std::size_t colon = given.find(':');
    const std::string spec = given.substr(0, colon),
                      kind = colon == std::string::npos ? "zero" : given.substr(colon + 1);
    if (kind != "zero" && kind != "mean") {
      *error = "ablate: \"" + json_text::clip_utf8(given) + "\" has the kind \"" +
               json_text::clip_utf8(kind) + "\" (zero or mean, e.g. 1.0:mean)";
      return {};
    }
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
    if (kind == "mean") {
      if (a.mean.empty())
        a.mean.assign(static_cast<std::size_t>(m.n_layers()),
                      std::vector<bool>(static_cast<std::size_t>(m.n_heads()), false));
      a.mean[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)] = true;
    } else {
      a.off[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)] = true;
    }
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
  if (grads.ln_final.present()) j["ln_final"] = norm_json(grads.ln_final);
  j["W_U"] = matrix_rows(grads.W_U);
  if (grads.b_U.size()) j["b_U"] = vector_json(grads.b_U);
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
