// scene.cpp — scene JSON: read shapes → validate once → write back.
//
// [SECTION] index
//   1. Readers: JSON value → Scene field (types and rectangular shape only, no sizes or limits)
//   2. The key table: every scene key, the version that introduced it, its reader and writer
//   3. validate: every rule about sizes, limits and values, in one place
//   4. parse_scene / scene_to_json
// (compute and result_to_json: compute.cpp)
//
// Reading is two steps. The readers turn JSON into a Scene and only complain about what a Scene
// cannot hold (a string where a number goes, rows of different lengths). validate() then checks
// the Scene — the same function for a scene read from JSON and one built in code — so each rule
// and its message exist once. Nothing here throws (the web build has no exceptions).
// Errors read "<field>: <reason>", e.g. "K: row 2 has 3 entries, expected 4".
#include "scene/scene.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/lookup.hpp"
#include "scene/json_text.hpp"
#include "scene/variant_keys.hpp"

namespace scene {
namespace {

using json_text::clip_utf8;
using json_text::mask_json;
using json_text::matrix_json;
using json_text::type_name;
using json = json_text::json;
using ordered_json = json_text::ordered_json;

// ---------------------------------------------------------------------------------------------
// [SECTION] 1. Readers (each returns "" or "<field>: <reason>")
// ---------------------------------------------------------------------------------------------

// An array of equally long arrays → a rows×cols matrix; `entry(value, &cell)` converts one entry
// and returns "" or why it cannot ("is not a finite number (got null)"). Row 0 sets the width.
template <class Mat, class Entry>
std::string read_rows(const json& m, const std::string& field, Mat* out, Entry entry) {
  if (!m.is_array()) return field + ": expected an array of rows, got " + type_name(m);
  const std::size_t rows = m.size();
  const std::size_t cols = rows == 0 || !m[0].is_array() ? 0 : m[0].size();
  out->resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < rows; ++i) {
    const json& row = m[i];
    const std::string where = field + ": row " + std::to_string(i);
    if (!row.is_array()) return where + " is not an array (got " + type_name(row) + ")";
    if (row.size() != cols)
      return where + " has " + std::to_string(row.size()) + " entries, expected " + std::to_string(cols) +
             " (like row 0)";
    for (std::size_t j = 0; j < cols; ++j) {
      const std::string problem =
          entry(row[j], &(*out)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
      if (!problem.empty()) return where + ", entry " + std::to_string(j) + " " + problem;
    }
  }
  return {};
}

// A matrix of numbers (magnitude limits are validate()'s; JSON numbers are always finite because
// the JSON reader refuses overflow such as 1e400).
std::string read_matrix(const json& value, const std::string& field, attn::Matrix* out) {
  return read_rows(value, field, out, [](const json& v, double* cell) -> std::string {
    if (v.is_number()) {
      *cell = v.get<double>();
      return {};
    }
    if (v.is_string())
      return "is not a finite number (got the string \"" + clip_utf8(v.get_ref<const std::string&>()) + "\")";
    return std::string("is not a finite number (got ") + type_name(v) + ")";
  });
}

// A 0/1 mask. Any other entry (0.5, true, "1") is stored as 2 — a value a MaskMatrix can hold and
// validate() rejects with "mask: row i, entry j must be 0 or 1".
constexpr unsigned char kNotZeroOrOne = 2;

std::string read_mask(const json& value, attn::MaskMatrix* out) {
  const std::string problem = read_rows(value, "mask", out, [](const json& v, unsigned char* cell) {
    const double x = v.is_number() ? v.get<double>() : -1.0;
    *cell = x == 1.0 ? 1 : x == 0.0 ? 0 : kNotZeroOrOne;
    return std::string();
  });
  if (!problem.empty()) return problem;
  // An empty MaskMatrix means "no mask" in a Scene, so an empty array cannot be stored as one.
  if (out->size() == 0) return "mask: is empty (leave the key out for no mask)";
  return {};
}

std::string read_tokens(const json& t, std::vector<std::string>* out) {
  if (!t.is_array()) return std::string("tokens: expected an array of strings, got ") + type_name(t);
  out->clear();
  out->reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].is_string())
      return "tokens: entry " + std::to_string(i) + " is not a string (got " + type_name(t[i]) + ")";
    out->push_back(t[i].get<std::string>());
  }
  return {};
}

const char* const kScaleRule = "scale: must be \"none\", \"sqrt_dk\" or a number in [1e-06, 1e+06]";

std::string read_scale(const json& s, attn::Scale* out) {
  if (s.is_string()) {
    const std::string& v = s.get_ref<const std::string&>();
    if (v == "none" || v == "sqrt_dk") {
      out->mode = v == "none" ? attn::ScaleMode::None : attn::ScaleMode::SqrtDk;
      return {};
    }
    return std::string(kScaleRule) + " (got \"" + clip_utf8(v) + "\")";
  }
  if (s.is_number()) {  // its range is validate()'s
    out->mode = attn::ScaleMode::Temperature;
    out->temperature = s.get<double>();
    return {};
  }
  return std::string(kScaleRule) + " (got " + type_name(s) + ")";
}

// A whole number (2, not 2.0); its range is validate()'s. Values beyond ±10⁶ are stored as ±10⁶
// (an int cannot hold every JSON integer, and no limit is anywhere near).
std::string read_int(const json& v, const char* field, int* out) {
  if (!v.is_number_integer())
    return std::string(field) + ": must be a whole number, got " +
           (v.is_number() ? clip_utf8(v.dump()) : std::string(type_name(v)));
  constexpr long long kClampTo = 1000000;
  // Non-negative JSON integers arrive as unsigned.
  const long long x = v.is_number_unsigned() ? static_cast<long long>(std::min<json::number_unsigned_t>(
                                                   v.get<json::number_unsigned_t>(), kClampTo))
                                             : v.get<long long>();
  *out = static_cast<int>(std::clamp(x, -kClampTo, kClampTo));
  return {};
}

// "rope": {"base": 10000, "layout": "interleaved" | "half", "offset": 0}, every member optional.
// Types only here; ranges and the even head size are validate()'s.
std::string read_rope(const json& v, bool* on, attn::Rope* out) {
  if (!v.is_object())
    return std::string("rope: expected an object like {\"base\": 10000, \"layout\": \"interleaved\"}, got ") +
           type_name(v);
  *on = true;
  *out = attn::Rope{};
  for (const auto& [name, value] : json_text::sorted_members(v)) {
    const std::string& key = *name;
    const json& x = *value;
    if (key == "base") {
      if (!x.is_number()) return std::string("rope: base must be a number, got ") + type_name(x);
      out->base = x.get<double>();
    } else if (key == "layout") {
      const std::string layout = x.is_string() ? x.get<std::string>() : std::string();
      if (layout != "interleaved" && layout != "half")
        return "rope: layout must be \"interleaved\" or \"half\", got " + clip_utf8(x.dump());
      out->layout = layout == "half" ? attn::RopeLayout::Half : attn::RopeLayout::Interleaved;
    } else if (key == "offset") {
      const double offset = x.is_number() ? x.get<double>() : -1.0;
      if (!(offset >= 0 && offset <= kMaxRopeOffset && offset == std::floor(offset)))
        return "rope: offset must be a whole number from 0 to " + std::to_string(kMaxRopeOffset) + ", got " +
               clip_utf8(x.dump());
      out->offset = static_cast<int>(offset);
    } else {
      return "rope: unknown key \"" + clip_utf8(key) + "\" (expected base, layout, offset)";
    }
  }
  return {};
}

ordered_json rope_json(const attn::Rope& rope) {
  ordered_json j;
  j["base"] = rope.base;
  j["layout"] = rope.layout == attn::RopeLayout::Half ? "half" : "interleaved";
  if (rope.offset != 0) j["offset"] = rope.offset;
  return j;
}

std::string read_bool(const json& v, const char* field, bool* out) {
  if (!v.is_boolean()) return std::string(field) + ": must be true or false, got " + type_name(v);
  *out = v.get<bool>();
  return {};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 2. The key table
// ---------------------------------------------------------------------------------------------

// One scene key. The table below lists every key except "version", in the order scene_to_json
// writes them (so version-1 text stays byte for byte what it always was).
//
// `since` is the scene version that introduced the key. A scene that writes a key is written with
// the highest `since` among its written keys, so a scene using only version-1 keys stays
// "version": 1; reading a key whose `since` is above the scene's "version" is an error naming it.
//
// To add a key (e.g. for a new feature, version 2):
//   1. a field in Scene (scene.hpp) whose default means "feature off";
//   2. a row at the end of kKeys: name, since = kSceneVersion, a reader (JSON → field: types and
//      rectangular shape only) and a writer (field → JSON; false when the field is at its default,
//      so the key is not written and old scenes keep their exact text);
//   3. its size/limit/value rules in validate() (section 3), naming the key;
//   4. a line in README.md's scene section, and a doctest that a version-1 scene with it fails.
struct KeySpec {
  const char* name;
  int since;
  std::string (*read)(const json& value, Scene* s);    // "" or "<name>: <reason>"
  bool (*write)(const Scene& s, ordered_json* value);  // false: at its default, not written
};

// A writer's usual body: the key is written (as `value`) when `written`, else left out.
bool put(bool written, ordered_json* out, ordered_json value) {
  if (written) *out = std::move(value);
  return written;
}

// The version-1 matrix keys by name: Q, K, V of a direct scene, X, Wq, Wk, Wv of a projected one.
const attn::Row<attn::Matrix Scene::*, const char*> kMatrixNames[] = {
    {&Scene::Q, "Q"},   {&Scene::K, "K"},   {&Scene::V, "V"},   {&Scene::X, "X"},
    {&Scene::Wq, "Wq"}, {&Scene::Wk, "Wk"}, {&Scene::Wv, "Wv"},
};

// Wk and Wv of a latent-attention scene ("mla") are derived from its weights and never written
// (variant_keys.hpp says why), so the scene's text holds only what the user gives.
bool derived_matrix(const Scene& s, const attn::Matrix Scene::*field) {
#if AL_ALL_MODES
  return (field == &Scene::Wk || field == &Scene::Wv) && is_mla(s);
#else
  (void)s;
  (void)field;
  return false;
#endif
}

// A version-1 matrix key's row: `field`, named as kMatrixNames says, read as a matrix and written
// when the scene is in `mode` (the other mode's matrices are not part of it).
template <attn::Matrix Scene::*field, Mode mode>
KeySpec matrix_key() {
  return {attn::lookup(kMatrixNames, field, ""), 1,
          [](const json& v, Scene* s) {
            return read_matrix(v, attn::lookup(kMatrixNames, field, ""), &(s->*field));
          },
          [](const Scene& s, ordered_json* v) {
            return put(s.mode == mode && !derived_matrix(s, field), v, matrix_json(s.*field));
          }};
}

const KeySpec kKeys[] = {
    {"tokens", 1, [](const json& v, Scene* s) { return read_tokens(v, &s->tokens); },
     [](const Scene& s, ordered_json* v) { return put(true, v, s.tokens); }},
    // Direct mode (parse_scene has already decided the mode from which keys are present).
    matrix_key<&Scene::Q, Mode::Direct>(),
    matrix_key<&Scene::K, Mode::Direct>(),
    matrix_key<&Scene::V, Mode::Direct>(),
    // Projected mode.
    matrix_key<&Scene::X, Mode::Projected>(),
    matrix_key<&Scene::Wq, Mode::Projected>(),
    matrix_key<&Scene::Wk, Mode::Projected>(),
    matrix_key<&Scene::Wv, Mode::Projected>(),
    // Options. Version 1 always wrote scale and causal, so they are always written.
    {"scale", 1, [](const json& v, Scene* s) { return read_scale(v, &s->scale); },
     [](const Scene& s, ordered_json* v) {
       switch (s.scale.mode) {
         case attn::ScaleMode::None:
           *v = "none";
           break;
         case attn::ScaleMode::SqrtDk:
           *v = "sqrt_dk";
           break;
         case attn::ScaleMode::Temperature:
           *v = s.scale.temperature;
           break;
       }
       return true;
     }},
    {"causal", 1, [](const json& v, Scene* s) { return read_bool(v, "causal", &s->causal); },
     [](const Scene& s, ordered_json* v) { return put(true, v, s.causal); }},
    {"mask", 1, [](const json& v, Scene* s) { return read_mask(v, &s->mask); },
     [](const Scene& s, ordered_json* v) { return put(s.mask.size() != 0, v, mask_json(s.mask)); }},
    // Version 2: multi-head attention.
    {"heads", 2, [](const json& v, Scene* s) { return read_int(v, "heads", &s->heads); },
     [](const Scene& s, ordered_json* v) { return put(s.heads != 1, v, s.heads); }},
    {"Wo", 2,
     [](const json& v, Scene* s) {
       const std::string e = read_matrix(v, "Wo", &s->Wo);
       // An empty Wo means "no output map" in a Scene, so an empty array cannot be stored as one.
       return e.empty() && s->Wo.size() == 0 ? std::string("Wo: is empty (leave the key out for no Wo)") : e;
     },
     [](const Scene& s, ordered_json* v) { return put(s.Wo.size() != 0, v, matrix_json(s.Wo)); }},
    // Version 2: rotary position embedding.
    {"rope", 2, [](const json& v, Scene* s) { return read_rope(v, &s->rope_on, &s->rope); },
     [](const Scene& s, ordered_json* v) { return put(s.rope_on, v, rope_json(s.rope)); }},
    // Version 2: grouped-query attention, sliding window with sinks, ALiBi.
    {"kv_heads", 2,
     [](const json& v, Scene* s) {
       const std::string e = read_int(v, "kv_heads", &s->kv_heads);
       // 0 means "not given" in a Scene, so a written 0 cannot be stored as one.
       return e.empty() && s->kv_heads == 0
                  ? std::string(
                        "kv_heads: must be at least 1 (leave the key out for one K/V per head), got 0")
                  : e;
     },
     [](const Scene& s, ordered_json* v) { return put(s.kv_heads != 0, v, s.kv_heads); }},
    {"window", 2, [](const json& v, Scene* s) { return read_int(v, "window", &s->window); },
     [](const Scene& s, ordered_json* v) { return put(s.window != 0, v, s.window); }},
    {"sinks", 2, [](const json& v, Scene* s) { return read_int(v, "sinks", &s->sinks); },
     [](const Scene& s, ordered_json* v) { return put(s.sinks != 0, v, s.sinks); }},
    {"alibi", 2, [](const json& v, Scene* s) { return read_bool(v, "alibi", &s->alibi); },
     [](const Scene& s, ordered_json* v) { return put(s.alibi, v, true); }},
};

const KeySpec* find_key(const std::string& name) {
  for (const KeySpec& k : kKeys)
    if (name == k.name) return &k;
  return nullptr;
}

// "version, tokens, Q, K, V, …" for the unknown-key message.
std::string key_names() {
  std::string names = "version";
  for (const KeySpec& k : kKeys) names += std::string(", ") + k.name;
#if AL_ALL_MODES  // the variant keys (scene/variant_keys.hpp), written after kKeys
  for (const char* k : kVariantKeyNames) names += std::string(", ") + k;
#endif
  return names;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 3. validate
// ---------------------------------------------------------------------------------------------

std::string check_number(const std::string& where, double x) {
  if (!std::isfinite(x)) return where + " is not a finite number";
  if (std::abs(x) > kMaxAbsValue) return where + " has magnitude above the limit of 1e15";
  return {};
}

// `field` is rows×cols. rows must be `rows` (`why_rows` says why); cols must be `cols` when ≥ 0 (a
// size already checked: d_k from Q, n for the mask — up to kMaxTokens, more than kMaxDim), else
// anything in 1..kMaxDim.
template <class Mat>
std::string check_shape(const std::string& field, const Mat& m, long long rows, const std::string& why_rows,
                        long long cols, const std::string& why_cols) {
  if (m.rows() != rows)
    return field + ": has " + std::to_string(m.rows()) + " rows, expected " + std::to_string(rows) + why_rows;
  if (cols >= 0 && m.cols() != cols)
    return field + ": row 0 has " + std::to_string(m.cols()) + " entries, expected " + std::to_string(cols) +
           why_cols;
  if (m.cols() < 1) return field + ": row 0 is empty (need at least 1 entry)";
  if (cols < 0 && m.cols() > kMaxDim)
    return field + ": row 0 has " + std::to_string(m.cols()) + " entries, limit is " +
           std::to_string(kMaxDim);
  return {};
}

// A matrix's shape (as check_shape) and values: finite, |x| ≤ kMaxAbsValue.
std::string check_matrix(const char* field, const attn::Matrix& m, long long rows,
                         const std::string& why_rows, long long cols, const std::string& why_cols) {
  if (std::string e = check_shape(field, m, rows, why_rows, cols, why_cols); !e.empty()) return e;
  // The entry's name is only built for the message (a 1024×64 matrix has 65 536 entries).
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)) || std::abs(m(i, j)) > kMaxAbsValue)
        return check_number(
            std::string(field) + ": row " + std::to_string(i) + ", entry " + std::to_string(j), m(i, j));
  return {};
}

ParseResult fail(std::string message) {
  ParseResult r;
  r.error = std::move(message);
  return r;
}

}  // namespace

namespace {
// Whether RoPE turns each head's whole query and key, so d_k/h must be even: not with latent
// attention, whose RoPE turns only the decoupled parts q_R and k_R (validate_mla: d_rope even).
bool rope_turns_whole_heads(const Scene& s) {
#if AL_ALL_MODES
  return !is_mla(s);
#else
  (void)s;
  return true;
#endif
}
}  // namespace

int Scene::d_k() const {
  return static_cast<int>(mode == Mode::Direct ? Q.cols() : Wq.cols());
}
int Scene::d_v() const {
  return static_cast<int>(mode == Mode::Direct ? V.cols() : Wv.cols());
}

std::string validate(const Scene& s) {
  // --- tokens: n labels; every matrix has n rows (in projected mode, X) ---
  const long long n = s.n();
  if (n < 1) return "tokens: need at least 1 token";
  if (n > kMaxTokens)
    return "tokens: " + std::to_string(n) + " tokens, limit is " + std::to_string(kMaxTokens);
  for (std::size_t i = 0; i < s.tokens.size(); ++i) {
    const std::string where = "tokens: entry " + std::to_string(i);
    if (s.tokens[i].size() > kMaxTokenBytes)
      return where + " is " + std::to_string(s.tokens[i].size()) + " bytes, limit is " +
             std::to_string(kMaxTokenBytes);
    if (!json_text::valid_utf8(s.tokens[i])) return where + " is not valid UTF-8";
  }
  // --- grouped-query attention: H_kv divides h (its shapes are checked with the vectors) ---
  if (s.kv_heads != 0 && (s.kv_heads < 1 || s.heads < 1 || s.kv_heads > s.heads || s.heads % s.kv_heads != 0))
    return "kv_heads: must divide heads = " + std::to_string(s.heads) + " (1 = multi-query, " +
           std::to_string(s.heads) + " = one K/V per head), got " + std::to_string(s.kv_heads);
  // K's columns: d_k, or with H_kv < h groups d_k/h × H_kv (when h divides d_k; else the heads rule
  // below names the problem).
  const long long d_q = s.mode == Mode::Direct ? s.Q.cols() : s.Wq.cols();
  const bool grouped = s.kv() != s.heads && s.heads >= 1 && d_q % s.heads == 0;
  const long long d_key = grouped ? d_q / s.heads * s.kv() : d_q;
  const std::string key_why = grouped ? " (d_k/h × kv_heads = " + std::to_string(d_q / s.heads) + " × " +
                                            std::to_string(s.kv()) + ": one key per K/V group)"
                                      : std::string();
  // --- vectors ---
  const std::string per_token = " (one per token)";
  // m keys: n, or the source tokens' count with cross-attention (K and V, or X_src, have m rows).
#if AL_ALL_MODES
  const long long m = key_count(s);
  const std::string per_key = m == n && !is_cross_attention(s) ? per_token : " (one per source token)";
#else
  const long long m = n;
  const std::string& per_key = per_token;
#endif
  if (s.mode == Mode::Direct) {
    if (auto e = check_matrix("Q", s.Q, n, per_token, -1, ""); !e.empty()) return e;
    if (auto e = check_matrix("K", s.K, m, per_key, d_key, grouped ? key_why : " (d_k, from Q)"); !e.empty())
      return e;
    if (auto e = check_matrix("V", s.V, m, per_key, -1, ""); !e.empty()) return e;
  } else {
    if (auto e = check_matrix("X", s.X, n, per_token, -1, ""); !e.empty()) return e;
    const std::string per_dim = " (d_model, the columns of X)";
    if (auto e = check_matrix("Wq", s.Wq, s.X.cols(), per_dim, -1, ""); !e.empty()) return e;
#if AL_ALL_MODES
    // Latent attention derives Wk and Wv from its weights: their rules first, naming the key.
    if (auto e = validate_mla(s); !e.empty()) return e;
#endif
    if (auto e = check_matrix("Wk", s.Wk, s.X.cols(), per_dim, d_key, grouped ? key_why : " (d_k, from Wq)");
        !e.empty())
      return e;
    if (auto e = check_matrix("Wv", s.Wv, s.X.cols(), per_dim, -1, ""); !e.empty()) return e;
  }
  // --- options ---
  if (s.scale.mode == attn::ScaleMode::Temperature &&
      !(s.scale.temperature >= kMinTemperature && s.scale.temperature <= kMaxTemperature))
    return std::string(kScaleRule) + " (got " + ordered_json(s.scale.temperature).dump() + ")";
  if (s.mask.size() != 0) {
    const std::string rule = " (n×n of 0/1, n = " + std::to_string(n) + " tokens)";
#if AL_ALL_MODES
    const std::string cols = m == n ? rule : " (n×m of 0/1, m = " + std::to_string(m) + " source tokens)";
#else
    const std::string& cols = rule;
#endif
    if (auto e = check_shape("mask", s.mask, n, rule, m, cols); !e.empty()) return e;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < m; ++j)
        if (s.mask(i, j) > 1)
          return "mask: row " + std::to_string(i) + ", entry " + std::to_string(j) + " must be 0 or 1";
  }
  // --- multi-head (version 2) ---
  const int d_k = s.d_k(), d_v = s.d_v();
  if (s.heads < 1 || s.heads > kMaxHeads)
    return "heads: must be 1 to " + std::to_string(kMaxHeads) + ", got " + std::to_string(s.heads);
  if (s.kv() == s.heads && (d_k % s.heads != 0 || d_v % s.heads != 0))
    return "heads: " + std::to_string(s.heads) + " does not divide d_k = " + std::to_string(d_k) +
           " and d_v = " + std::to_string(d_v) + " (each head takes d_k/h and d_v/h columns)";
  if (s.kv() != s.heads && d_k % s.heads != 0)
    return "heads: " + std::to_string(s.heads) + " does not divide d_k = " + std::to_string(d_k) +
           " (each head takes d_k/h query columns)";
  if (s.kv() != s.heads && d_v % s.kv() != 0)
    return "kv_heads: " + std::to_string(s.kv()) + " does not divide d_v = " + std::to_string(d_v) +
           " (each K/V group takes d_v/kv_heads value columns)";
  if (s.Wo.size() != 0) {
    const std::string why = s.kv() != s.heads        ? " (h·d_v/kv_heads, the concat's columns)"
                            : s.mode == Mode::Direct ? " (d_v, the columns of V)"
                                                     : " (d_v, the columns of Wv)";
    if (auto e = check_matrix("Wo", s.Wo, s.concat_dim(), why, -1, ""); !e.empty()) return e;
    static_assert(kMaxOutDim == kMaxDim, "check_matrix limits Wo's columns (d_out) to kMaxDim");
  }
  // --- rotary position embedding (version 2), per head ---
  if (s.rope_on) {
    if (!(s.rope.base > 1.0 && s.rope.base <= kMaxRopeBase))
      return "rope: base must be above 1 and at most 1e12 (got " + ordered_json(s.rope.base).dump() + ")";
    if (s.rope.offset < 0 || s.rope.offset > kMaxRopeOffset)
      return "rope: offset must be a whole number from 0 to " + std::to_string(kMaxRopeOffset);
    if ((d_k / s.heads) % 2 != 0 && rope_turns_whole_heads(s))
      return "rope: each head's size must be even to form pairs (d_k = " + std::to_string(d_k) +
             (s.heads > 1 ? ", d_k/h = " + std::to_string(d_k / s.heads) : std::string()) + ")";
  }
  // --- sliding window, sinks, ALiBi (version 2) ---
  if (s.window < 0 || s.window > kMaxTokens)
    return "window: must be 0 (none) or a width of 1 to " + std::to_string(kMaxTokens) + " tokens, got " +
           std::to_string(s.window);
  if (s.sinks < 0 || s.sinks > kMaxTokens)
    return "sinks: must be 0 to " + std::to_string(kMaxTokens) + " tokens, got " + std::to_string(s.sinks);
  if (s.sinks > 0 && s.window == 0)
    return "sinks: sink tokens stay visible past a sliding window; give \"window\" too (without one every "
           "key "
           "is visible and sinks change nothing)";
  if (s.alibi && s.rope_on)
    return "alibi: ALiBi replaces position embeddings; give \"rope\" or \"alibi\", not both";
#if AL_ALL_MODES
  return validate_variants(s);
#else
  return {};
#endif
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 4. parse_scene / scene_to_json
// ---------------------------------------------------------------------------------------------

ParseResult parse_scene(std::string_view json_text) {
  // --- the text itself ---
  if (json_text.size() > kMaxInputBytes)
    return fail("input: " + std::to_string(json_text.size()) + " bytes is larger than the 8 MiB limit");
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return fail("input: empty (expected a scene JSON object)");
  const json_text::Parsed parsed = json_text::parse(json_text);
  if (!parsed.error.empty()) return fail(parsed.error);
  const json& doc = parsed.doc;
  if (!doc.is_object()) return fail(std::string("scene: expected a JSON object, got ") + type_name(doc));

  // --- version, then typos, then keys newer than the version ---
  const auto version_it = doc.find("version");
  const std::string versions = kSceneVersion == 2 ? "1 or 2" : "1 to " + std::to_string(kSceneVersion);
  if (version_it == doc.end()) return fail("version: missing (expected " + versions + ")");
  const double version_value = version_it->is_number() ? version_it->get<double>() : 0.0;
  if (!(version_value >= 1 && version_value <= kSceneVersion && version_value == std::floor(version_value)))
    return fail("version: expected " + versions + ", got " + clip_utf8(version_it->dump()));
  const int version = static_cast<int>(version_value);
  for (const auto& [name, value] : json_text::sorted_members(doc)) {
    if (*name == "version") continue;
    const KeySpec* key = find_key(*name);
#if AL_ALL_MODES
    // A variant key: read by read_variant_keys below. The web's first load does not know them (an
    // unknown key there, which web/share.js recognises and answers by starting the full build).
    if (!key && is_variant_key(*name)) {
      if (version < 2)
        return fail(*name + ": needs \"version\": 2 (this scene says " + std::to_string(version) + ")");
      continue;
    }
#endif
    if (!key) return fail(clip_utf8(*name) + ": unknown key (expected " + key_names() + ")");
    if (key->since > version)
      return fail(*name + ": needs \"version\": " + std::to_string(key->since) + " (this scene says " +
                  std::to_string(version) + ")");
  }

  // --- which keys must be there: tokens, and exactly one mode's matrices ---
  if (!doc.contains("tokens"))
    return fail("tokens: missing (give one label per token, e.g. [\"the\",\"cat\"])");
  Scene s;
  const bool any_direct = doc.contains("Q") || doc.contains("K") || doc.contains("V");
  const bool any_projected =
      doc.contains("X") || doc.contains("Wq") || doc.contains("Wk") || doc.contains("Wv");
  if (any_direct && any_projected) return fail("scene: give either Q/K/V or X/Wq/Wk/Wv, not both");
  if (!any_direct && !any_projected)
    return fail("scene: no vectors: give Q, K, V (direct mode) or X, Wq, Wk, Wv (projected mode)");
  s.mode = any_direct ? Mode::Direct : Mode::Projected;
#if AL_ALL_MODES
  // Latent attention ("mla") derives Wk and Wv from its own weights (scene/variant_keys.hpp).
  const bool mla = any_projected && doc.contains("mla");
  if (mla && (doc.contains("Wk") || doc.contains("Wv")))
    return fail(
        "mla: a latent-attention scene takes its keys and values from W_dkv, W_uk, W_uv (and W_kr); leave "
        "out \"Wk\" and \"Wv\"");
#else
  const bool mla = false;
#endif
  for (const char* f :
       any_direct ? std::vector<const char*>{"Q", "K", "V"} : std::vector<const char*>{"X", "Wq", "Wk", "Wv"})
    if (!doc.contains(f) && !(mla && (std::string_view(f) == "Wk" || std::string_view(f) == "Wv")))
      return fail(std::string(f) + (any_direct ? ": missing (direct mode needs Q, K and V)"
                                               : ": missing (projected mode needs X, Wq, Wk and Wv)"));

  // --- read every key present (in table order), then validate the whole scene once ---
  for (const KeySpec& key : kKeys)
    if (const auto it = doc.find(key.name); it != doc.end())
      if (std::string e = key.read(*it, &s); !e.empty()) return fail(e);
#if AL_ALL_MODES
  if (std::string e = read_variant_keys(doc, &s); !e.empty()) return fail(e);
#endif
  if (std::string e = validate(s); !e.empty()) return fail(e);

  ParseResult r;
  r.scene = std::move(s);
  return r;
}

std::string scene_to_json(const Scene& s, int indent) {
  return json_text::dump(scene_json(s), indent);
}

ordered_json scene_json(const Scene& s) {
  ordered_json j;
  j["version"] = 1;  // first in the text; raised below to the newest key written
  int version = 1;
  for (const KeySpec& key : kKeys) {
    ordered_json value;
    if (!key.write(s, &value)) continue;
    j[key.name] = std::move(value);
    version = std::max(version, key.since);
  }
#if AL_ALL_MODES
  if (s.variants) {
    write_variant_keys(s, &j);
    version = std::max(version, 2);
  }
#endif
  j["version"] = version;
  return j;
}

}  // namespace scene
