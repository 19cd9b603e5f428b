// variant_keys.cpp — read, check, write and compute the variant keys (see variant_keys.hpp).
#include "scene/variant_keys.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "scene/json_text.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"  // options_of, heads_options_of

namespace scene {

const char* const kVariantKeyNames[13] = {"sources", "X_src",   "sink_logit", "softcap",      "qk_norm",
                                          "topk",    "indexer", "topk_block", "differential", "gate",
                                          "Wg",      "linear",  "mla"};

bool is_variant_key(const std::string& name) {
  for (const char* k : kVariantKeyNames)
    if (name == k) return true;
  return false;
}

namespace {

using json = json_text::json;
using ordered_json = json_text::ordered_json;
using json_text::clip_utf8;
using json_text::matrix_json;
using json_text::type_name;

std::string got(const json& v) {
  return v.is_number() || v.is_boolean() ? clip_utf8(v.dump()) : std::string(type_name(v));
}

std::string read_number(const json& v, const std::string& field, double* out) {
  if (!v.is_number()) return field + ": must be a number, got " + got(v);
  *out = v.get<double>();
  return {};
}

std::string read_whole(const json& v, const std::string& field, int* out) {
  if (!v.is_number_integer()) return field + ": must be a whole number, got " + got(v);
  const double x = v.get<double>();
  *out = static_cast<int>(std::clamp(x, -1e6, 1e6));
  return {};
}

std::string read_vector(const json& v, const std::string& field, std::vector<double>* out) {
  if (!v.is_array()) return field + ": expected an array of numbers, got " + type_name(v);
  out->clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number())
      return field + ": entry " + std::to_string(i) + " is not a number (got " + got(v[i]) + ")";
    out->push_back(v[i].get<double>());
  }
  return {};
}

// Rows of equal length (limits and sizes: validate_variants).
std::string read_rows(const json& v, const std::string& field, attn::Matrix* out) {
  if (!v.is_array() || v.empty()) return field + ": expected a non-empty array of rows, got " + type_name(v);
  const std::size_t cols = v[0].is_array() ? v[0].size() : 0;
  out->resize(static_cast<Eigen::Index>(v.size()), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_array() || v[i].size() != cols || cols == 0)
      return field + ": row " + std::to_string(i) + " must be an array of " +
             std::to_string(std::max<std::size_t>(cols, 1)) + "+ numbers like row 0";
    for (std::size_t j = 0; j < cols; ++j) {
      if (!v[i][j].is_number())
        return field + ": row " + std::to_string(i) + ", entry " + std::to_string(j) +
               " is not a number (got " + got(v[i][j]) + ")";
      (*out)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = v[i][j].get<double>();
    }
  }
  return {};
}

std::string read_one(const std::string& key, const json& v, VariantKeys* k) {
  attn::Variants& c = k->core;
  if (key == "sources") {
    if (!v.is_array())
      return std::string("sources: expected an array of labels (the source tokens), got ") + type_name(v);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string())
        return "sources: entry " + std::to_string(i) + " is not a string (got " + type_name(v[i]) + ")";
      k->sources.push_back(v[i].get<std::string>());
    }
    return v.empty() ? "sources: need at least 1 source token (leave the key out for self-attention)" : "";
  }
  if (key == "X_src") return read_rows(v, key, &k->X_src);
  if (key == "sink_logit") {
    if (v.is_number()) {
      c.sink_logit = {v.get<double>()};
      return {};
    }
    if (v.is_array() && v.empty()) return "sink_logit: give a number or one number per head, got []";
    return read_vector(v, key, &c.sink_logit);
  }
  if (key == "softcap") {
    // 0 means "no softcap" in a Scene, so a written c ≤ 0 cannot be stored as one.
    const std::string e = read_number(v, key, &c.softcap);
    return e.empty() && !(c.softcap > 0.0)
               ? "softcap: c must be above 0 (scores become c·tanh(s/c)), got " + got(v)
               : e;
  }
  if (key == "qk_norm") {
    if (!v.is_object())
      return "qk_norm: expected an object like {\"eps\": 1e-6, \"gain_q\": […], \"gain_k\": […]}, got " +
             got(v);
    c.qk_norm = true;
    for (const auto& [name, value] : json_text::sorted_members(v)) {
      std::string e;
      if (*name == "eps")
        e = read_number(*value, "qk_norm: eps", &c.qk_eps);
      else if (*name == "gain_q")
        e = read_vector(*value, "qk_norm: gain_q", &c.gain_q);
      else if (*name == "gain_k")
        e = read_vector(*value, "qk_norm: gain_k", &c.gain_k);
      else
        e = "qk_norm: unknown key \"" + clip_utf8(*name) + "\" (expected eps, gain_q, gain_k)";
      if (!e.empty()) return e;
    }
    return {};
  }
  if (key == "topk") {
    const std::string e = read_whole(v, key, &c.topk);
    return e.empty() && c.topk == 0 ? "topk: must be at least 1 (leave the key out to keep every key), got 0"
                                    : e;
  }
  if (key == "indexer") return read_rows(v, key, &c.indexer);
  if (key == "topk_block") {
    const std::string e = read_whole(v, key, &c.topk_block);
    return e.empty() && c.topk_block == 0
               ? "topk_block: must be at least 1 (leave the key out for single keys), got 0"
               : e;
  }
  if (key == "differential") {
    if (!v.is_object()) return "differential: expected an object like {\"lambda\": 0.5}, got " + got(v);
    if (!v.contains("lambda")) return "differential: lambda missing (the weight of the second map, e.g. 0.5)";
    c.differential = true;
    for (const auto& [name, value] : json_text::sorted_members(v)) {
      std::string e;
      if (*name == "lambda")
        e = read_number(*value, "differential: lambda", &c.lambda);
      else if (*name == "lambda_init")
        e = read_number(*value, "differential: lambda_init", &c.lambda_init);
      else if (*name == "norm")
        e = value->is_boolean() ? (c.diff_norm = value->get<bool>(), std::string())
                                : "differential: norm must be true or false, got " + got(*value);
      else
        e = "differential: unknown key \"" + clip_utf8(*name) + "\" (expected lambda, lambda_init, norm)";
      if (!e.empty()) return e;
    }
    return {};
  }
  if (key == "gate") return read_rows(v, key, &c.gate);
  if (key == "Wg") return read_rows(v, key, &k->Wg);
  if (key == "mla") {
    if (!v.is_object())
      return "mla: expected an object like {\"W_dkv\": [[…]], \"W_uk\": [[…]], \"W_uv\": [[…]], \"W_kr\": "
             "[[…]]}, got " +
             got(v);
    MlaKeys& m = k->mla;
    m.on = true;
    for (const auto& [name, value] : json_text::sorted_members(v)) {
      std::string e;
      if (*name == "W_dkv")
        e = read_rows(*value, "mla: W_dkv", &m.W_dkv);
      else if (*name == "W_uk")
        e = read_rows(*value, "mla: W_uk", &m.W_uk);
      else if (*name == "W_uv")
        e = read_rows(*value, "mla: W_uv", &m.W_uv);
      else if (*name == "W_kr")
        e = read_rows(*value, "mla: W_kr", &m.W_kr);
      else
        e = "mla: unknown key \"" + clip_utf8(*name) + "\" (expected W_dkv, W_uk, W_uv, W_kr)";
      if (!e.empty()) return e;
    }
    for (const char* need : {"W_dkv", "W_uk", "W_uv"})
      if (!v.contains(need))
        return std::string("mla: ") + need +
               " missing (the latent c = X W_dkv, the keys c W_uk and the values c W_uv; W_kr is optional)";
    return {};
  }
  if (key == "linear") {
    if (!v.is_string() || v.get<std::string>() != "elu1")
      return "linear: must be \"elu1\" (phi(x) = elu(x) + 1, Katharopoulos et al. 2020), got " +
             clip_utf8(v.dump());
    c.linear = true;
    return {};
  }
  return key + ": unknown key";
}

std::string check_matrix(const std::string& field, const attn::Matrix& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)) || std::abs(m(i, j)) > kMaxAbsValue)
        return field + ": row " + std::to_string(i) + ", entry " + std::to_string(j) +
               " must be a finite number of magnitude at most 1e15";
  return {};
}

std::string num(double x) {
  return ordered_json(x).dump();
}

}  // namespace

std::string read_variant_keys(const json& doc, Scene* s) {
  auto keys = std::make_shared<VariantKeys>();
  bool any = false;
  for (const char* name : kVariantKeyNames)
    if (const auto it = doc.find(name); it != doc.end()) {
      if (std::string e = read_one(name, *it, keys.get()); !e.empty()) return e;
      any = true;
    }
  s->variants = any ? std::move(keys) : nullptr;
  if (is_mla(*s)) fill_mla_kv(s);  // Wk and Wv are derived, never given (variant_keys.hpp)
  return {};
}

long long key_count(const Scene& s) {
  return is_cross_attention(s) ? static_cast<long long>(s.variants->sources.size()) : s.n();
}

bool is_cross_attention(const Scene& s) {
  return s.variants && !s.variants->sources.empty();
}

const std::vector<std::string>& key_labels(const Scene& s) {
  return is_cross_attention(s) ? s.variants->sources : s.tokens;
}

namespace {

// Cross-attention: the sources' labels, X_src, and what cannot go with two sequences.
std::string check_cross(const Scene& s) {
  const VariantKeys& k = *s.variants;
  if (k.sources.empty())
    return k.X_src.size() ? "X_src: the source tokens' vectors need \"sources\" (their labels)" : "";
  if (static_cast<int>(k.sources.size()) > kMaxTokens)
    return "sources: " + std::to_string(k.sources.size()) + " source tokens, limit is " +
           std::to_string(kMaxTokens);
  for (std::size_t i = 0; i < k.sources.size(); ++i) {
    if (k.sources[i].size() > kMaxTokenBytes)
      return "sources: entry " + std::to_string(i) + " is " + std::to_string(k.sources[i].size()) +
             " bytes, limit is " + std::to_string(kMaxTokenBytes);
    if (!json_text::valid_utf8(k.sources[i]))
      return "sources: entry " + std::to_string(i) + " is not valid UTF-8";
  }
  if (s.mode == Mode::Direct && k.X_src.size())
    return "X_src: a direct scene gives the sources' K and V (m rows); X_src goes with X, Wq, Wk, Wv";
  if (s.mode == Mode::Projected) {
    if (!k.X_src.size())
      return "X_src: missing (a learned cross-attention scene projects the source tokens' vectors X_src by "
             "Wk and Wv)";
    if (k.X_src.rows() != static_cast<long long>(k.sources.size()))
      return "X_src: has " + std::to_string(k.X_src.rows()) + " rows, expected " +
             std::to_string(k.sources.size()) + " (one per source token)";
    if (k.X_src.cols() != s.X.cols())
      return "X_src: row 0 has " + std::to_string(k.X_src.cols()) + " entries, expected " +
             std::to_string(s.X.cols()) + " (d_model, the columns of X)";
    if (std::string e = check_matrix("X_src", k.X_src); !e.empty()) return e;
  }
  const char* why = " is about positions in one sequence; the queries and the sources are two sequences";
  if (s.causal)
    return std::string(
        "causal: cross-attention (\"sources\") has no causal mask: the queries and the sources are "
        "two sequences, no source token comes after a query (use \"mask\" to hide keys)");
  if (s.window) return std::string("window: a sliding window") + why;
  if (s.alibi) return std::string("alibi: ALiBi's distance |i − j|") + why;
  if (s.rope_on) return std::string("rope: RoPE's rotation by position") + why;
  return {};
}

}  // namespace

bool is_mla(const Scene& s) {
  return s.variants && s.variants->mla.on;
}

namespace {

// d_rope: the decoupled RoPE key's columns (0 without W_kr).
Eigen::Index rope_dim(const MlaKeys& k) {
  return k.W_kr.size() ? k.W_kr.cols() : 0;
}

// The derived Wk and Wv (variant_keys.hpp); the shapes must already agree.
void derived_kv(const Scene& s, attn::Matrix* Wk, attn::Matrix* Wv) {
  const MlaKeys& k = s.variants->mla;
  const int h = s.heads;
  const Eigen::Index d_model = s.X.cols(), d_nope = k.W_uk.cols() / h, d_rope = rope_dim(k);
  const Eigen::Index d_vh = k.W_uv.cols() / h, d_qh = d_nope + d_rope;
  Wk->resize(d_model, h * d_qh);
  for (int t = 0; t < h; ++t) {
    Wk->middleCols(t * d_qh, d_nope) = k.W_dkv * k.W_uk.middleCols(t * d_nope, d_nope);
    if (d_rope) Wk->middleCols(t * d_qh + d_nope, d_rope) = k.W_kr;
  }
  *Wv = k.W_dkv * k.W_uv;
  static_cast<void>(d_vh);
}

bool mla_shapes_agree(const Scene& s) {
  const MlaKeys& k = s.variants->mla;
  const int h = s.heads;
  return s.mode == Mode::Projected && h >= 1 && h <= kMaxHeads && k.W_dkv.size() &&
         k.W_dkv.rows() == s.X.cols() && k.W_uk.rows() == k.W_dkv.cols() && k.W_uv.rows() == k.W_dkv.cols() &&
         k.W_uk.cols() % h == 0 && k.W_uv.cols() % h == 0 && (!k.W_kr.size() || k.W_kr.rows() == s.X.cols());
}

// Which key a latent-attention scene cannot take (its pass is attend_mla: mask, causal, window and
// sinks, the scale, RoPE on q_R and k_R, heads and Wo; nothing else), or null.
const char* mla_conflict(const Scene& s) {
  const VariantKeys& k = *s.variants;
  const attn::Variants& v = k.core;
  if (!k.sources.empty() || k.X_src.size()) return "sources";
  if (s.kv_heads != 0 && s.kv_heads != s.heads) return "kv_heads";
  if (s.alibi) return "alibi";
  if (!v.sink_logit.empty()) return "sink_logit";
  if (v.softcap != 0.0) return "softcap";
  if (v.qk_norm) return "qk_norm";
  if (v.topk != 0 || v.indexer.size() || v.topk_block != 0) return "topk";
  if (v.differential) return "differential";
  if (v.gate.size() || k.Wg.size()) return "gate";
  if (v.linear) return "linear";
  return nullptr;
}

}  // namespace

void fill_mla_kv(Scene* s) {
  if (!is_mla(*s) || !mla_shapes_agree(*s)) return;
  derived_kv(*s, &s->Wk, &s->Wv);
}

std::string validate_mla(const Scene& s) {
  if (!is_mla(s)) return {};
  const MlaKeys& k = s.variants->mla;
  if (s.mode != Mode::Projected)
    return "mla: needs a learned scene (X, Wq): the latent c = X W_dkv comes from the tokens' vectors X";
  const int h = s.heads;
  if (h < 1 || h > kMaxHeads)
    return "heads: must be 1 to " + std::to_string(kMaxHeads) + ", got " + std::to_string(h);
  const long long d_model = s.X.cols();
  // Each weight: its rows from what comes before it, at most kMaxDim columns, finite entries.
  auto check = [&](const char* name, const attn::Matrix& w, long long rows, const std::string& why) {
    const std::string field = std::string("mla: ") + name;
    if (w.rows() != rows)
      return field + " has " + std::to_string(w.rows()) + " rows, " + why + " = " + std::to_string(rows);
    if (w.cols() > kMaxDim)
      return field + " has " + std::to_string(w.cols()) + " columns, limit is " + std::to_string(kMaxDim);
    return check_matrix(field, w);
  };
  if (auto e = check("W_dkv", k.W_dkv, d_model, "X gives d_model"); !e.empty()) return e;
  const long long d_c = k.W_dkv.cols();
  if (auto e = check("W_uk", k.W_uk, d_c, "W_dkv gives d_c"); !e.empty()) return e;
  if (auto e = check("W_uv", k.W_uv, d_c, "W_dkv gives d_c"); !e.empty()) return e;
  for (const auto* w : {&k.W_uk, &k.W_uv})
    if (w->cols() % h != 0)
      return std::string("mla: ") + (w == &k.W_uk ? "W_uk" : "W_uv") + " has " + std::to_string(w->cols()) +
             " columns, not a multiple of heads = " + std::to_string(h) +
             (w == &k.W_uk ? " (h·d_nope: each head's content keys)" : " (h·d_v: each head's values)");
  if (k.W_kr.size())
    if (auto e = check("W_kr", k.W_kr, d_model, "X gives d_model"); !e.empty()) return e;
  const long long d_nope = k.W_uk.cols() / h, d_rope = rope_dim(k);
  if (s.Wq.cols() != h * (d_nope + d_rope))
    return "mla: Wq has " + std::to_string(s.Wq.cols()) +
           " columns, expected h·(d_nope + d_rope) = " + std::to_string(h) + "·(" + std::to_string(d_nope) +
           " + " + std::to_string(d_rope) + ") = " + std::to_string(h * (d_nope + d_rope)) +
           " (each head's query is [q_nope | q_R])";
  if (s.rope_on && d_rope == 0)
    return "mla: with \"rope\", RoPE turns the decoupled parts q_R and k_R: give \"W_kr\" (d_model × d_rope) "
           "or leave out \"rope\"";
  if (s.rope_on && d_rope % 2 != 0)
    return "mla: W_kr has " + std::to_string(d_rope) +
           " columns; with \"rope\" d_rope must be even to form pairs";
  if (const char* with = mla_conflict(s))
    return std::string(
               "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass (masks, window, scale, rope, "
               "heads and Wo only), so it does not combine with \"") +
           with + "\"";
  // Wk and Wv: the derived ones, within the scene's limits.
  attn::Matrix Wk, Wv;
  derived_kv(s, &Wk, &Wv);
  if (!Wk.allFinite() || !Wv.allFinite() || Wk.cwiseAbs().maxCoeff() > kMaxAbsValue ||
      Wv.cwiseAbs().maxCoeff() > kMaxAbsValue)
    return "mla: the products W_dkv W_uk and W_dkv W_uv go past 1e15 (every stage must stay finite)";
  if (s.Wk != Wk || s.Wv != Wv)
    return "mla: a latent-attention scene takes its keys and values from W_dkv, W_uk, W_uv (and W_kr); leave "
           "out \"Wk\" and \"Wv\" (scene::fill_mla_kv derives them)";
  return {};
}

std::string validate_variants(const Scene& s) {
  if (!s.variants) return {};
  if (std::string e = validate_mla(s); !e.empty()) return e;
  if (std::string e = check_cross(s); !e.empty()) return e;
  const attn::Variants& v = s.variants->core;
  const attn::Matrix& Wg = s.variants->Wg;
  const int n = s.n(), h = s.heads;
  const int m = static_cast<int>(key_count(s));
  const int d_head = s.d_k() / std::max(h, 1);
  // --- sink logit: one, or one per head ---
  if (!v.sink_logit.empty()) {
    if (v.sink_logit.size() != 1 && static_cast<int>(v.sink_logit.size()) != h)
      return "sink_logit: give one number, or one per head (heads = " + std::to_string(h) + "), got " +
             std::to_string(v.sink_logit.size());
    for (double z : v.sink_logit)
      if (!(std::abs(z) <= 1e6)) return "sink_logit: each must be a number from -1e6 to 1e6, got " + num(z);
  }
  // --- softcap c > 0 ---
  if (v.softcap != 0.0 && !(v.softcap > 0.0 && v.softcap <= 1e6))
    return "softcap: c must be above 0 and at most 1e6 (scores become c·tanh(s/c)), got " + num(v.softcap);
  // --- differential: two maps of d columns per head ---
  if (v.differential) {
    if (!(std::abs(v.lambda) <= 10.0))
      return "differential: lambda must be a number from -10 to 10, got " + num(v.lambda);
    if (!(v.lambda_init >= 0.0 && v.lambda_init <= 1.0))
      return "differential: lambda_init must be from 0 to 1, got " + num(v.lambda_init);
    if (d_head % 2 != 0)
      return "differential: each head's d_k/h = " + std::to_string(d_head) +
             " must be even (its first half makes map 1, its second half map 2)";
    if (s.rope_on && (d_head / 2) % 2 != 0)
      return "differential: with rope each map's d = " + std::to_string(d_head / 2) +
             " must be even to form pairs";
  } else if (v.diff_norm) {
    return "differential: norm needs lambda";
  }
  // --- QK-norm: ε > 0, gains of the normalised vectors' size ---
  if (v.qk_norm) {
    if (!(v.qk_eps > 0.0 && v.qk_eps <= 1.0))
      return "qk_norm: eps must be above 0 and at most 1, got " + num(v.qk_eps);
    const std::size_t size = static_cast<std::size_t>(v.differential ? d_head / 2 : d_head);
    const std::string why =
        v.differential ? " (d_k/(2h), each differential map's size)" : " (d_k/h, each head's size)";
    for (const auto* g : {&v.gain_q, &v.gain_k}) {
      const char* field = g == &v.gain_q ? "qk_norm: gain_q" : "qk_norm: gain_k";
      if (!g->empty() && g->size() != size)
        return std::string(field) + ": has " + std::to_string(g->size()) + " entries, expected " +
               std::to_string(size) + why;
      for (double x : *g)
        if (!(std::abs(x) <= 1e6))
          return std::string(field) + ": each gain must be a number from -1e6 to 1e6, got " + num(x);
    }
  }
  // --- top-k: 1 ≤ k ≤ the keys (or blocks); the indexer n×n ---
  if ((v.indexer.size() != 0 || v.topk_block != 0) && v.topk == 0)
    return std::string(v.indexer.size() != 0 ? "indexer" : "topk_block") +
           ": chooses the keys top-k keeps; give \"topk\" too";
  if (v.topk_block < 0 || v.topk_block > m)
    return "topk_block: must be 1 to the " + std::to_string(m) + " keys, got " + std::to_string(v.topk_block);
  if (v.topk != 0) {
    const int units = v.topk_block > 0 ? (m + v.topk_block - 1) / v.topk_block : m;
    if (v.topk < 1 || v.topk > units)
      return "topk: k = " + std::to_string(v.topk) + " must be 1 to the " + std::to_string(units) +
             (v.topk_block > 0 ? " blocks of " + std::to_string(v.topk_block) + " keys"
                               : std::string(" keys"));
    if (v.indexer.size() != 0) {
      if (v.indexer.rows() != n || v.indexer.cols() != m)
        return "indexer: must be n×m = " + std::to_string(n) + "×" + std::to_string(m) +
               " (a score per query and key), got " + std::to_string(v.indexer.rows()) + "×" +
               std::to_string(v.indexer.cols());
      if (std::string e = check_matrix("indexer", v.indexer); !e.empty()) return e;
    }
  }
  // --- gate: G (direct) or W_g (learned), a column per concat column or per head ---
  const int concat = s.concat_dim();
  if (v.gate.size() != 0 || Wg.size() != 0) {
    const bool direct = s.mode == Mode::Direct;
    if (v.gate.size() != 0 && !direct)
      return "gate: a learned scene (X, Wq, …) takes its gate as \"Wg\" (G = X Wg), not gate logits";
    if (Wg.size() != 0 && direct)
      return "Wg: a direct scene (Q, K, V) gives its gate logits as \"gate\", not Wg";
    const attn::Matrix& g = direct ? v.gate : Wg;
    const char* field = direct ? "gate" : "Wg";
    const long long rows = direct ? n : s.X.cols();
    if (g.rows() != rows)
      return std::string(field) + ": has " + std::to_string(g.rows()) + " rows, expected " +
             std::to_string(rows) + (direct ? " (one per token)" : " (d_model, the columns of X)");
    if (g.cols() != concat && g.cols() != h)
      return std::string(field) + ": has " + std::to_string(g.cols()) + " columns, expected " +
             std::to_string(concat) + " (element-wise, one per concat column) or " + std::to_string(h) +
             " (head-wise, one per head)";
    if (std::string e = check_matrix(field, g); !e.empty()) return e;
  }
  // --- linear attention: no softmax, so nothing that shapes a softmax ---
  if (v.linear) {
    const char* with = v.softcap != 0.0        ? "softcap"
                       : !v.sink_logit.empty() ? "sink_logit"
                       : v.topk != 0           ? "topk"
                       : v.differential        ? "differential"
                       : s.alibi               ? "alibi"
                       : s.rope_on             ? "rope"
                                               : nullptr;
    if (with)
      return std::string(
                 "linear: phi(q)·phi(k) weights have no softmax and no logits, so they do not combine with "
                 "\"") +
             with + "\"";
  }
  return {};
}

void write_variant_keys(const Scene& s, ordered_json* out) {
  if (!s.variants) return;
  const attn::Variants& v = s.variants->core;
  ordered_json& j = *out;
  if (!s.variants->sources.empty()) j["sources"] = s.variants->sources;
  if (s.variants->X_src.size() != 0) j["X_src"] = matrix_json(s.variants->X_src);
  if (!v.sink_logit.empty()) {
    if (v.sink_logit.size() == 1)
      j["sink_logit"] = v.sink_logit[0];
    else
      j["sink_logit"] = v.sink_logit;
  }
  if (v.softcap != 0.0) j["softcap"] = v.softcap;
  if (v.qk_norm) {
    ordered_json q = ordered_json::object();
    q["eps"] = v.qk_eps;
    if (!v.gain_q.empty()) q["gain_q"] = v.gain_q;
    if (!v.gain_k.empty()) q["gain_k"] = v.gain_k;
    j["qk_norm"] = std::move(q);
  }
  if (v.topk != 0) j["topk"] = v.topk;
  if (v.indexer.size() != 0) j["indexer"] = matrix_json(v.indexer);
  if (v.topk_block != 0) j["topk_block"] = v.topk_block;
  if (v.differential) {
    ordered_json d;
    d["lambda"] = v.lambda;
    if (v.diff_norm) {
      d["norm"] = true;
      d["lambda_init"] = v.lambda_init;
    } else if (v.lambda_init != 0.8) {
      d["lambda_init"] = v.lambda_init;
    }
    j["differential"] = std::move(d);
  }
  if (v.gate.size() != 0) j["gate"] = matrix_json(v.gate);
  if (s.variants->Wg.size() != 0) j["Wg"] = matrix_json(s.variants->Wg);
  if (v.linear) j["linear"] = "elu1";
  if (const MlaKeys& m = s.variants->mla; m.on) {
    ordered_json o = ordered_json::object();
    o["W_dkv"] = matrix_json(m.W_dkv);
    o["W_uk"] = matrix_json(m.W_uk);
    o["W_uv"] = matrix_json(m.W_uv);
    if (m.W_kr.size()) o["W_kr"] = matrix_json(m.W_kr);
    j["mla"] = std::move(o);
  }
}

namespace {

// Multi-head latent attention as an ordinary multi-head result: head t's keys are
// K_t = [c W_uk,t | k_R] (n × (d_nope + d_rope)) and its values V_t = c W_uv,t, so Q_t K_tᵀ is MLA's
// score q_nope k_tᵀ + q_R k_Rᵀ (to rounding) and every grid of the app reads it as any head; under
// sqrt_dk each head divides by √(d_nope + d_rope), its query's size. attend_mla's own stages (c, k_R,
// the absorbed form, the cache size) ride along in variant->mla.
attn::HeadsResult compute_mla(const Scene& s) {
  const MlaKeys& k = s.variants->mla;
  const int h = s.heads;
  const attn::Rope* rope = s.rope_on ? &s.rope : nullptr;
  const attn::Options options = options_of(s);
  const attn::MlaWeights w{s.Wq, k.W_dkv, k.W_uk, k.W_uv, k.W_kr};
  auto mla = std::make_shared<attn::MlaResult>(attn::attend_mla(s.X, w, h, rope, options));
  const Eigen::Index n = s.X.rows(), d_nope = k.W_uk.cols() / h, d_rope = rope_dim(k);
  const Eigen::Index d_vh = k.W_uv.cols() / h, d_qh = d_nope + d_rope;
  const attn::Matrix Q = s.X * s.Wq;  // n × h·(d_nope + d_rope), as attend_mla's
  attn::Matrix K(n, h * d_qh), V(n, h * d_vh);
  attn::Matrix Q_turned = Q, K_turned;
  const attn::Matrix k_r = d_rope ? attn::Matrix(s.X * k.W_kr) : attn::Matrix(n, 0);  // before RoPE
  for (int t = 0; t < h; ++t) {
    K.middleCols(t * d_qh, d_nope) = mla->c_kv * k.W_uk.middleCols(t * d_nope, d_nope);
    if (d_rope) K.middleCols(t * d_qh + d_nope, d_rope) = k_r;
    V.middleCols(t * d_vh, d_vh) = mla->c_kv * k.W_uv.middleCols(t * d_vh, d_vh);
  }
  if (rope) {
    K_turned = K;
    for (int t = 0; t < h; ++t) {
      Q_turned.middleCols(t * d_qh + d_nope, d_rope) =
          attn::apply_rope(attn::Matrix(Q.middleCols(t * d_qh + d_nope, d_rope)), *rope);
      K_turned.middleCols(t * d_qh + d_nope, d_rope) = mla->k_rope;
    }
  }
  attn::HeadsResult r = attn::attend_heads(rope ? Q_turned : Q, rope ? K_turned : K, V, h, s.Wo, options);
  if (rope) {  // as compute_heads: Q, K before RoPE; Q_rope, K_rope what the scores used
    r.Q_rope = std::move(r.Q);
    r.K_rope = std::move(r.K);
    r.Q = Q;
    r.K = K;
    for (int t = 0; t < h; ++t) {
      attn::Result& head = r.heads[static_cast<std::size_t>(t)];
      head.Q_rope = std::move(head.Q);
      head.K_rope = std::move(head.K);
      head.Q = Q.middleCols(t * d_qh, d_qh);
      head.K = K.middleCols(t * d_qh, d_qh);
    }
  }
  auto stages = std::make_shared<attn::VariantStages>();
  stages->heads.resize(static_cast<std::size_t>(h));  // no per-head variant stage of the usual kind
  stages->mla = std::move(mla);
  r.variant = std::move(stages);
  return r;
}

}  // namespace

attn::HeadsResult compute_variants(const Scene& s) {
  if (is_mla(s)) return compute_mla(s);
  const bool direct = s.mode == Mode::Direct;
  const attn::Matrix Q = direct ? s.Q : attn::Matrix(s.X * s.Wq);  // n×d_k (finite: validate's limits)
  // Cross-attention: the keys and values of the m source tokens (X_src in a learned scene).
  const attn::Matrix& X_kv = is_cross_attention(s) && !direct ? s.variants->X_src : s.X;
  const attn::Matrix K = direct ? s.K : attn::Matrix(X_kv * s.Wk);  // m×d_k·H_kv/h
  const attn::Matrix V = direct ? s.V : attn::Matrix(X_kv * s.Wv);  // m×d_v
  attn::Variants v = s.variants->core;
  if (s.variants->Wg.size() != 0) v.gate = s.X * s.variants->Wg;  // G = X W_g
  return attn::attend_variants(Q, K, V, s.heads, s.Wo, options_of(s), heads_options_of(s),
                               s.rope_on ? &s.rope : nullptr, v);
}

namespace {

void put_head(const attn::Result& r, const attn::VariantHead& x, bool square, ordered_json* j) {
  ordered_json& o = *j;
  if (x.Q_norm.size()) {
    o["Q_norm"] = matrix_json(x.Q_norm);
    o["K_norm"] = matrix_json(x.K_norm);
  }
  if (x.phi_q.size()) {
    o["phi_q"] = matrix_json(x.phi_q);
    o["phi_k"] = matrix_json(x.phi_k);
  }
  if (square) {
    if (x.capped.size()) o["capped"] = matrix_json(x.capped);
    if (r.logits.size()) o["logits"] = matrix_json(r.logits);
    if (x.selected.size()) o["selected"] = json_text::mask_json(x.selected);
    if (x.weights_1.size()) o["weights_1"] = matrix_json(x.weights_1);
  }
  if (!x.sink_weight.empty()) o["sink_weight"] = x.sink_weight;
  if (!x.second.empty()) {
    const attn::Result& r2 = x.second.front();
    ordered_json m = ordered_json::object();
    if (square) {
      m["scores"] = matrix_json(r2.scores);
      m["scaled"] = matrix_json(r2.scaled);
      m["weights"] = matrix_json(r2.weights);
    }
    put_head(r2, x.second_stages.front(), square, &m);
    o["map_2"] = std::move(m);
  }
  if (x.diff_output.size()) o["diff_output"] = matrix_json(x.diff_output);
}

}  // namespace

void variant_json(const attn::HeadsResult& r, ordered_json* j, bool square) {
  const attn::VariantStages& st = *r.variant;
  ordered_json& o = *j;
  if (r.heads.size() == 1) {
    put_head(r.heads.front(), st.heads.front(), square, j);
  } else {
    for (std::size_t t = 0; t < r.heads.size(); ++t)
      put_head(r.heads[t], st.heads[t], square, &o["heads"][t]);
  }
  if (st.gate.size()) {
    o["gate"] = matrix_json(st.gate);
    o["gate_sigmoid"] = matrix_json(st.gate_sigmoid);
    o["gated"] = matrix_json(st.gated);
  }
  // Latent attention: the latent, the shared RoPE key, the absorbed form per head, the cache size.
  if (const attn::MlaResult* m = st.mla.get()) {
    for (std::size_t t = 0; t < m->weights.size() && square; ++t) {
      ordered_json& head = r.heads.size() == 1 ? o : o["heads"][t];
      head["absorbed_scores"] = matrix_json(m->absorbed_scores[t]);    // n×n  q̃_t cᵀ + q_R k_Rᵀ
      head["absorbed_weights"] = matrix_json(m->absorbed_weights[t]);  // n×n
    }
    o["c_kv"] = matrix_json(m->c_kv);                            // n×d_c: what the cache keeps
    if (m->k_rope.size()) o["k_rope"] = matrix_json(m->k_rope);  // n×d_rope, turned with rope
    o["absorbed_output"] = matrix_json(m->absorbed_output);      // n×h·d_v: (weights c) W_uv per head
    o["cache_per_token"] = m->cache_numbers_per_token;           // d_c + d_rope
    // The same heads as multi-head attention cache their keys and values: h·(d_nope + d_rope + d_v).
    o["cache_per_token_mha"] = static_cast<long long>(r.K.cols() + r.V.cols());
  }
  // The concat (before any gate) and the final output (gated, then W_o) of the variant pass.
  o["concat"] = matrix_json(r.concat);
  o["output"] = matrix_json(r.output);
}

std::string variant_formula_tex(const Scene& s) {
  if (is_mla(s)) {
    // Head t's query [q_t | q_{R,t}] = X W_{Q,t}; the latent c is what the cache keeps.
    const bool decoupled = s.variants->mla.W_kr.size() != 0;
    std::string tex = "c = X W_{DKV},\\ ";
    if (decoupled) tex += s.rope_on ? "k_R = \\operatorname{RoPE}(X W_{KR}),\\ " : "k_R = X W_{KR},\\ ";
    tex += "Y_t = \\operatorname{softmax}\\!\\left(\\frac{q_t (c W_{UK,t})^\\top";
    if (decoupled) tex += s.rope_on ? " + \\operatorname{RoPE}(q_{R,t}) k_R^\\top" : " + q_{R,t} k_R^\\top";
    return tex + "}{s} + M\\right) c W_{UV,t}";
  }
  const attn::Variants& v = s.variants->core;
  const std::string q = v.qk_norm ? "\\hat{Q}" : "Q", k = v.qk_norm ? "\\hat{K}" : "K";
  std::string tex;
  if (v.qk_norm)
    tex +=
        "\\hat{Q} = \\frac{Q}{\\sqrt{\\operatorname{mean}(Q^2) + \\varepsilon}} \\odot g_q,\\ \\hat{K} = "
        "\\frac{K}{\\sqrt{\\operatorname{mean}(K^2) + \\varepsilon}} \\odot g_k,\\ \\varepsilon = " +
        num(v.qk_eps) + ";\\ ";
  std::string attention;
  if (v.linear) {
    attention = "\\frac{(\\phi(" + q + ")\\phi(" + k + ")^\\top \\odot M)}{(\\phi(" + q + ")\\phi(" + k +
                ")^\\top \\odot M)\\mathbf{1}} V,\\ \\phi = \\operatorname{elu} + 1";
  } else {
    auto map = [&](const std::string& index) {
      const std::string qk = q + index + " " + k + index + "^\\top";
      std::string x =
          v.softcap > 0.0 ? "c \\tanh\\!\\left(\\frac{" + qk + "}{c\\,s}\\right)" : "\\frac{" + qk + "}{s}";
      if (s.alibi) x += " + B";
      x += " + M";
      if (v.topk) x += " + M_{\\text{top-}" + std::to_string(v.topk) + "}";
      return v.sink_logit.empty() ? "\\operatorname{softmax}\\!\\left(" + x + "\\right)"
                                  : "\\operatorname{softmax}_{+z}\\!\\left(" + x + "\\right)";
    };
    attention = v.differential ? "\\left(" + map("_1") + " - \\lambda\\, " + map("_2") + "\\right) V"
                               : map("") + " V";
    if (v.differential) attention += ",\\ \\lambda = " + num(v.lambda);
    if (v.softcap > 0.0) attention += ",\\ c = " + num(v.softcap);
    if (!v.sink_logit.empty())
      attention += ",\\ \\operatorname{softmax}_{+z}(x)_j = \\frac{e^{x_j}}{e^{z} + \\sum_{j'} e^{x_{j'}}}";
  }
  tex += "Y = " + attention;
  if (v.gate.size() != 0 || s.variants->Wg.size() != 0)
    tex += ";\\ Y \\leftarrow Y \\odot \\sigma(" + std::string(s.variants->Wg.size() ? "X W_g" : "G") + ")";
  return tex;
}

}  // namespace scene
