// lm_cli.cpp — --train-lm, --lm-eval, --lm-generate, --tokenize, --model-json, --lm-held-out
// (lm_cli.hpp).
#include "cli/lm_cli.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/cli_io.hpp"
#include "cli/cli_options.hpp"
#include "cli/corpus.hpp"
#include "core/head_roles.hpp"
#include "core/lm_train.hpp"
#include "core/model.hpp"
#include "core/model_scores.hpp"
#include "core/sampling.hpp"
#include "core/tokenizer.hpp"
#include "scene/json_text.hpp"
#include "scene/lm_file.hpp"
#include "scene/model_json.hpp"

namespace cli {
int lm_train_main(const LmOptions& options);  // lm_train_cli.cpp

namespace lm_detail {

using ordered_json = scene::json_text::ordered_json;
namespace model = attn::model;

constexpr std::size_t kMaxTextBytes = 16384;
constexpr std::size_t kMaxModelBytes = 64u << 20;

bool load_model(const std::string& path, scene::LmFile* out, std::string* error) {
  std::string bytes;
  if (!read_bytes(path, kMaxModelBytes, &bytes, error)) return false;
  scene::LmFileParse parsed = scene::read_any_model(bytes);
  if (!parsed.ok()) {
    *error = parsed.error;
    return false;
  }
  *out = std::move(*parsed.file);
  return true;
}

// The text's tokens: the tokenizer's (any UTF-8 or bytes) or the vocabulary's symbols; at most n_ctx.
bool tokens_of(const scene::LmFile& f, const std::string& text, const char* field, std::vector<int>* out,
               std::string* error) {
  if (text.size() > kMaxTextBytes) {
    *error = std::string(field) + ": longer than " + std::to_string(kMaxTextBytes) + " bytes";
    return false;
  }
  if (f.tokenizer) {
    *out = attn::bpe::encode(*f.tokenizer, text);
  } else {
    *out = model::tokenize(f.model, text, error);
    if (!error->empty()) return false;
  }
  if (out->empty()) {
    *error = std::string(field) + ": empty (give at least one character)";
    return false;
  }
  if (static_cast<int>(out->size()) > f.model.n_ctx()) {
    *error = std::string(field) + ": " + std::to_string(out->size()) +
             " tokens, more than the model's n_ctx = " + std::to_string(f.model.n_ctx());
    return false;
  }
  return true;
}

}  // namespace lm_detail

namespace {
using namespace lm_detail;

// Bytes as valid UTF-8: each byte that does not belong to a well-formed character becomes U+FFFD
// (what a browser or Python's errors="replace" shows). A sample can end inside a character.
std::string replace_invalid_utf8(const std::string& bytes) {
  std::string out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const unsigned char c = static_cast<unsigned char>(bytes[at]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len && at + len <= bytes.size() && scene::json_text::valid_utf8(bytes.substr(at, len))) {
      out += bytes.substr(at, len);
      at += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++at;
    }
  }
  return out;
}

std::string piece(const scene::LmFile& f, int id) {
  return f.model.vocab[static_cast<std::size_t>(id)];
}

bool parse_int(const std::string& text, const char* field, long long lo, long long hi, int* out,
               std::string* error) {
  unsigned long long v = 0;
  if (!parse_whole(text, static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), &v)) {
    *error = std::string(field) + ": must be a whole number from " + std::to_string(lo) + " to " +
             std::to_string(hi) + ", got " + text;
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}

bool parse_real(const std::string& text, const char* field, double* out, std::string* error) {
  char* end = nullptr;
  errno = 0;
  *out = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(*out)) {
    *error = std::string(field) + ": must be a number, got " + text;
    return false;
  }
  return true;
}

ordered_json rows(const attn::Matrix& m) {
  return scene::json_text::matrix_json(m);
}

ordered_json top_tokens(const scene::LmFile& f, const attn::Matrix& logits, int k) {
  const int V = f.model.n_vocab();
  const std::vector<double> p = model::softmax_row(logits.data() + (logits.rows() - 1) * V, V);
  std::vector<int> order(static_cast<std::size_t>(V));
  for (int v = 0; v < V; ++v) order[static_cast<std::size_t>(v)] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p[a] > p[b]; });
  ordered_json top = ordered_json::array();
  for (int r = 0; r < k && r < V; ++r) {
    ordered_json t;
    t["token"] = order[static_cast<std::size_t>(r)];
    t["piece"] = piece(f, order[static_cast<std::size_t>(r)]);
    t["p"] = p[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])];
    top.push_back(std::move(t));
  }
  return top;
}

// Every kept stage under TransformerLens's hook names; per-head stages as [head] lists.
ordered_json stages_json(const model::Forward& fw) {
  ordered_json s;
  for (std::size_t l = 0; l < fw.layers.size(); ++l) {
    const model::LayerStages& L = fw.layers[l];
    const std::string b = "blocks." + std::to_string(l) + ".";
    s[b + "hook_resid_pre"] = rows(L.resid_pre);
    s[b + "ln1.hook_normalized"] = rows(L.ln1);
    const std::pair<const char*, attn::Matrix model::HeadStages::*> per_head[] = {
        {"attn.hook_q", &model::HeadStages::q},
        {"attn.hook_k", &model::HeadStages::k},
        {"attn.hook_v", &model::HeadStages::v},
        {"attn.hook_attn_scores", &model::HeadStages::scores},
        {"attn.hook_pattern", &model::HeadStages::weights},
        {"attn.hook_z", &model::HeadStages::z},
        {"attn.hook_result", &model::HeadStages::out}};
    for (const auto& [name, member] : per_head) {
      ordered_json heads = ordered_json::array();
      for (const model::HeadStages& h : L.heads) heads.push_back(rows(h.*member));
      s[b + name] = std::move(heads);
    }
    s[b + "hook_attn_out"] = rows(L.attn_out);
    s[b + "hook_resid_mid"] = rows(L.resid_mid);
    if (L.mlp_pre.size()) {
      s[b + "ln2.hook_normalized"] = rows(L.ln2);
      s[b + "mlp.hook_pre"] = rows(L.mlp_pre);
      s[b + "mlp.hook_post"] = rows(L.mlp_post);
      s[b + "hook_mlp_out"] = rows(L.mlp_out);
    }
    s[b + "hook_resid_post"] = rows(L.resid_post);
  }
  s["ln_final.hook_normalized"] = rows(fw.ln_final);
  return s;
}

// --override L.H.x=FILE: head H of layer L reads FILE's n×d_head rows as its q, k or v; L.H.mask=FILE
// reads an n×n matrix of 0 and 1 as a mask ANDed with the causal one (1 = the key may be attended).
bool parse_overrides(const LmOptions& o, const model::Model& m, int n, std::vector<model::HeadOverride>* out,
                     std::string* error) {
  for (const std::string& spec : o.overrides) {
    const std::size_t eq = spec.find('=');
    const std::string what = spec.substr(0, eq);
    unsigned long long l = 0, h = 0;
    const std::size_t d1 = what.find('.'), d2 = what.rfind('.');
    const std::string part = d2 == std::string::npos ? std::string() : what.substr(d2 + 1);
    const char which = part == "mask" ? 'm' : part.size() == 1 ? part[0] : '?';
    if (eq == std::string::npos || d1 == std::string::npos || d1 == d2 ||
        (which != 'q' && which != 'k' && which != 'v' && which != 'm') ||
        !parse_whole(what.substr(0, d1), 0, 99, &l) ||
        !parse_whole(what.substr(d1 + 1, d2 - d1 - 1), 0, 99, &h)) {
      *error = "override: \"" + spec + "\" is not LAYER.HEAD.q=FILE (or .k, .v, .mask), e.g. 1.0.q=q.json";
      return false;
    }
    if (static_cast<int>(l) >= m.n_layers() || static_cast<int>(h) >= m.n_heads()) {
      *error = "override: " + what + " names no head (the model has layers 0 to " +
               std::to_string(m.n_layers() - 1) + ", heads 0 to " + std::to_string(m.n_heads() - 1) + ")";
      return false;
    }
    std::string text;
    if (!read_bytes(spec.substr(eq + 1), 64u << 20, &text, error)) return false;
    const auto doc = scene::json_text::json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
      *error = "override: " + spec.substr(eq + 1) + " is not JSON";
      return false;
    }
    model::HeadOverride over{static_cast<int>(l), static_cast<int>(h), which, {}};
    const int cols = which == 'm' ? n : m.d_head();
    const std::string shape = std::to_string(n) + "×" + std::to_string(cols);
    const std::string rows = which == 'm' ? " rows (tokens × tokens)" : " rows (tokens × d_head)";
    *error = scene::json_text::read_matrix(doc, "override " + what, n, cols,
                                           {shape + rows, shape, shape, "", 1e4, "1e4"}, &over.values);
    if (!error->empty()) return false;
    if (which == 'm')
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
          if (over.values(i, j) != 0.0 && over.values(i, j) != 1.0) {
            *error = "override " + what + ": [" + std::to_string(i) + "][" + std::to_string(j) +
                     "] must be 0 (masked) or 1 (allowed)";
            return false;
          }
    out->push_back(std::move(over));
  }
  return true;
}

ordered_json lens_json(const scene::LmFile& f, const model::Forward& fw) {
  ordered_json lens = ordered_json::array();
  const int V = f.model.n_vocab();
  for (const attn::Matrix& logits : model::logit_lens(f.model, fw)) {
    ordered_json layer = ordered_json::array();
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
      const std::vector<double> p = model::softmax_row(logits.data() + i * V, V);
      int best = 0;
      for (int v = 1; v < V; ++v)
        best = p[static_cast<std::size_t>(v)] > p[static_cast<std::size_t>(best)] ? v : best;
      ordered_json top;
      top["token"] = best;
      top["piece"] = piece(f, best);
      top["p"] = p[static_cast<std::size_t>(best)];
      layer.push_back(std::move(top));
    }
    lens.push_back(std::move(layer));
  }
  return lens;
}

ordered_json roles_json(const model::Forward& fw) {
  ordered_json roles = ordered_json::array();
  for (const model::HeadRole& r : model::head_roles(fw)) {
    ordered_json j;
    j["layer"] = r.layer;
    j["head"] = r.head;
    j["role"] = r.role;
    j["previous_token"] = r.previous_token;
    j["first_token"] = r.first_token;
    j["self"] = r.self;
    j["entropy"] = r.entropy;
    j["prefix_matching"] = r.prefix_matching;
    roles.push_back(std::move(j));
  }
  return roles;
}

int run_eval(const LmOptions& o) {
  scene::LmFile f;
  std::string error;
  if (!o.have_text) return usage_error("--lm-eval MODEL needs --text T");
  if (!load_model(o.eval_path, &f, &error)) return bad_input(error);
  std::vector<int> tokens;
  if (!tokens_of(f, o.text, "text", &tokens, &error)) return bad_input(error);
  const model::Ablation ablation = scene::parse_ablation(o.ablate, f.model, &error);
  if (!error.empty()) return bad_input(error);
  std::vector<model::HeadOverride> overrides;
  if (!parse_overrides(o, f.model, static_cast<int>(tokens.size()), &overrides, &error))
    return bad_input(error);
  const model::Forward fw = model::forward(f.model, tokens, ablation, overrides);
  const model::TokenLoss loss = model::next_token_loss(fw.logits, tokens);
  ordered_json j;
  j["tokens"] = tokens;
  ordered_json pieces = ordered_json::array();
  for (int t : tokens) pieces.push_back(piece(f, t));
  j["pieces"] = std::move(pieces);
  j["logits"] = rows(fw.logits);
  j["loss"] = loss.value;
  ordered_json weights = ordered_json::array();
  for (const model::LayerStages& layer : fw.layers) {
    ordered_json heads = ordered_json::array();
    for (const model::HeadStages& h : layer.heads) heads.push_back(rows(h.weights));
    weights.push_back(std::move(heads));
  }
  j["weights"] = std::move(weights);
  j["per_token_loss"] = loss.per_token;
  j["top"] = top_tokens(f, fw.logits, 10);
  ordered_json ablated = ordered_json::array();
  for (int l = 0; l < f.model.n_layers(); ++l)
    for (int h = 0; h < f.model.n_heads(); ++h)
      if (ablation.is_off(l, h))
        ablated.push_back(std::to_string(l) + "." + std::to_string(h));
      else if (ablation.is_mean(l, h))
        ablated.push_back(std::to_string(l) + "." + std::to_string(h) + ":mean");
  j["ablated"] = std::move(ablated);
  if (o.stages) j["stages"] = stages_json(fw);
  if (o.lens) j["lens"] = lens_json(f, fw);
  if (o.roles) j["roles"] = roles_json(fw);
  return print_line(scene::json_text::dump(j, o.indent));
}

int run_generate(const LmOptions& o) {
  scene::LmFile f;
  std::string error;
  if (!o.have_prompt) return usage_error("--lm-generate MODEL needs --prompt T");
  if (o.tokens.empty() || o.seed.empty()) return usage_error("--lm-generate needs --tokens N and --seed S");
  if (!load_model(o.generate_path, &f, &error)) return bad_input(error);
  std::vector<int> prompt;
  if (!tokens_of(f, o.prompt, "prompt", &prompt, &error)) return bad_input(error);
  int count = 0;
  const int room = f.model.n_ctx() - static_cast<int>(prompt.size());
  if (!parse_int(o.tokens, "tokens", 1, room < 1 ? 1 : room, &count, &error))
    return bad_input(error + " (the prompt's " + std::to_string(prompt.size()) +
                     " tokens and these fit n_ctx = " + std::to_string(f.model.n_ctx()) + ")");
  if (room < 1) return bad_input("prompt: fills the model's n_ctx already");
  unsigned long long seed = 0;
  if (!parse_whole(o.seed, 0, ~0ull, &seed))
    return bad_input("seed: must be a whole number >= 0, got " + o.seed);
  model::SampleSettings s;
  if (!o.temperature.empty() && !parse_real(o.temperature, "temperature", &s.temperature, &error))
    return bad_input(error);
  if (!o.top_k.empty() && !parse_int(o.top_k, "top_k", 0, f.model.n_vocab(), &s.top_k, &error))
    return bad_input(error);
  if (!o.top_p.empty() && !parse_real(o.top_p, "top_p", &s.top_p, &error)) return bad_input(error);
  if (std::string e = model::check_sample_settings(s, f.model.n_vocab()); !e.empty()) return bad_input(e);
  const model::Ablation ablation = scene::parse_ablation(o.ablate, f.model, &error);
  if (!error.empty()) return bad_input(error);
  const model::Generated g = model::generate(f.model, prompt, count, s, seed, ablation);
  ordered_json j;
  j["prompt_tokens"] = prompt;
  j["tokens"] = g.tokens;
  ordered_json pieces = ordered_json::array();
  for (int t : g.tokens) pieces.push_back(piece(f, t));
  j["pieces"] = std::move(pieces);
  j["p"] = g.p;
  j["p_model"] = g.p_model;
  if (f.tokenizer) {
    std::vector<int> all = prompt;
    all.insert(all.end(), g.tokens.begin(), g.tokens.end());
    j["text"] = replace_invalid_utf8(attn::bpe::decode(*f.tokenizer, all));
  }
  return print_line(scene::json_text::dump(j, o.indent));
}

int run_tokenize(const LmOptions& o) {
  scene::LmFile f;
  std::string error;
  if (!o.have_text) return usage_error("--tokenize MODEL needs --text T");
  if (!load_model(o.tokenize_path, &f, &error)) return bad_input(error);
  if (o.text.size() > kMaxTextBytes)
    return bad_input("text: longer than " + std::to_string(kMaxTextBytes) + " bytes");
  std::vector<int> tokens;
  if (f.tokenizer)
    tokens = attn::bpe::encode(*f.tokenizer, o.text);
  else if (tokens = model::tokenize(f.model, o.text, &error); !error.empty())
    return bad_input(error);
  ordered_json j;
  j["tokens"] = tokens;
  ordered_json pieces = ordered_json::array(), bytes = ordered_json::array();
  for (int t : tokens) {
    pieces.push_back(piece(f, t));
    bytes.push_back(f.tokenizer ? f.tokenizer->bytes(t).size()
                                : f.model.vocab[static_cast<std::size_t>(t)].size());
  }
  j["pieces"] = std::move(pieces);
  j["bytes"] = std::move(bytes);
  return print_line(scene::json_text::dump(j, o.indent));
}

int run_model_json(const LmOptions& o) {
  scene::LmFile f;
  std::string error;
  if (!load_model(o.model_json_path, &f, &error)) return bad_input(error);
  return print_line(scene::model_to_json(f.model, o.indent, f.tokenizer, f.training));
}

}  // namespace

int lm_main(const LmOptions& o) {
  const int commands = !o.eval_path.empty() + !o.generate_path.empty() + !o.tokenize_path.empty() +
                       !o.model_json_path.empty() + !o.held_out_path.empty() + o.train;
  if (commands != 1)
    return usage_error(
        "give one of --train-lm, --lm-eval, --lm-generate, --tokenize, --model-json, --lm-held-out");
  if (o.train || !o.held_out_path.empty()) return lm_train_main(o);
  if (!o.eval_path.empty()) return run_eval(o);
  if (!o.generate_path.empty()) return run_generate(o);
  if (!o.tokenize_path.empty()) return run_tokenize(o);
  return run_model_json(o);
}

}  // namespace cli
