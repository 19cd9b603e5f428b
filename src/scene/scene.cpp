// scene.cpp — scene JSON v1: parse + validate, write back, run the core, write every stage.
//
// [SECTION] index
//   1. JSON reading without exceptions (a SAX wrapper that remembers where an error happened)
//   2. Field readers: one per JSON shape (matrix, mask, tokens, scale), each naming its field
//   3. parse_scene / validate
//   4. scene_to_json / compute / result_to_json
//
// The web build has no exceptions (a throw aborts), so nothing here may throw: parsing uses
// nlohmann's SAX interface with allow_exceptions = false, and every value's type is checked before
// get<>(). Errors read "<field>: <reason>", e.g. "K: row 2 has 3 entries, expected 4".
#include "scene/scene.hpp"

#include "core/reading_aids.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace scene {
namespace {

using json = nlohmann::json;
// Output keeps the documented key order (version first), which std::map-based json would sort away.
using ordered_json = nlohmann::ordered_json;

// A scene is nested 3 deep (object → matrix → row). Anything far deeper is not a scene, and
// refusing it early keeps memory and stack use bounded for hostile input.
constexpr int kMaxDepth = 32;

// ---------------------------------------------------------------------------------------------
// [SECTION] 1. JSON reading without exceptions
// ---------------------------------------------------------------------------------------------

// At most `max_bytes` of `s`, cut on a UTF-8 character boundary (for quoting user text in errors).
std::string clip_utf8(const std::string& s, std::size_t max_bytes = 40) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // continuation byte
  return s.substr(0, end) + "…";
}

// Length of the well-formed UTF-8 sequence starting at s[i] (no overlongs, no surrogates,
// ≤ U+10FFFF), or 0 when there is none.
std::size_t utf8_sequence_length(const std::string& s, std::size_t i) {
  const auto byte = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = byte(i);
  std::size_t len;
  unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c < 0x80) {
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // > U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return len;
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0, len; i < s.size(); i += len)
    if ((len = utf8_sequence_length(s, i)) == 0) return false;
  return true;
}

// `s` with each byte that does not start a well-formed UTF-8 sequence replaced by '?': parse errors
// quote the input, and the message must be displayable text.
std::string sanitize_utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      out += '?';
      ++i;
    } else {
      out.append(s, i, len);
      i += len;
    }
  }
  return out;
}

// Where we are inside the document, as the user would name it: "Q: row 0, entry 1".
struct PathStep {
  bool is_array = false;
  std::size_t next_index = 0;   // arrays: index of the next element
  std::string key;              // objects: the last key read
  bool awaiting_value = false;  // objects: a key was read, its value not yet
  std::set<std::string> keys;   // objects: keys seen so far (a duplicate would silently lose data)
};

// The element about to be read: for the innermost container the next one, for each enclosing
// container the one currently open. Only the top-level key names a field; indices below it read
// as "row i, entry j" (or "entry i" for the token list).
std::string describe_path(const std::vector<PathStep>& path) {
  std::string field;
  std::vector<std::size_t> indices;
  for (std::size_t level = 0; level < path.size(); ++level) {
    const PathStep& step = path[level];
    const bool innermost = level + 1 == path.size();
    if (step.is_array) {
      indices.push_back(innermost ? step.next_index : step.next_index - 1);
    } else if (level == 0 && (!innermost || step.awaiting_value)) {
      field = step.key;
    }
  }
  if (field.empty()) return {};
  std::string out = clip_utf8(field);
  const bool list = field == "tokens";
  for (std::size_t k = 0; k < indices.size(); ++k) {
    out += k == 0 ? ": " : ", ";
    out += (list || k == 1) ? "entry " : "row ";
    out += std::to_string(indices[k]);
  }
  return out;
}

// Builds the DOM exactly like nlohmann's own parser, and on failure records a message with the
// byte position and the field being read.
class SceneSax {
 public:
  explicit SceneSax(json& root) : dom_(root, /*allow_exceptions=*/false) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return value() && dom_.number_float(v, s);
  }
  bool string(json::string_t& v) { return value() && dom_.string(v); }
  bool binary(json::binary_t& v) { return value() && dom_.binary(v); }

  bool start_object(std::size_t len) {
    if (!value() || !open(false)) return false;
    return dom_.start_object(len);
  }
  bool key(json::string_t& k) {
    PathStep& top = path_.back();
    if (!top.keys.insert(k).second) {
      error_ = path_.size() == 1 ? clip_utf8(k) + ": key appears twice"
                                 : "json: key \"" + clip_utf8(k) + "\" appears twice in one object";
      return false;
    }
    top.key = k;
    top.awaiting_value = true;
    return dom_.key(k);
  }
  bool end_object() {
    path_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t len) {
    if (!value() || !open(true)) return false;
    return dom_.start_array(len);
  }
  bool end_array() {
    path_.pop_back();
    return dom_.end_array();
  }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& ex) {
    const std::string where = describe_path(path_);
    if (ex.id == 406) {  // number overflow, e.g. 1e400: not representable as a finite double
      // "Q: row 0, entry 1 is not …", or for a bare field "scale: the value is not …".
      std::string subject = where.empty() ? "json: a number" : where;
      if (!where.empty() && where.find(':') == std::string::npos) subject += ": the value";
      error_ = subject + " is not a finite number (" + clip_utf8(last_token) + " overflows a double, byte " +
               std::to_string(position) + ")";
    } else {
      // ex.what(): "[json.exception.parse_error.101] parse error at line 1, column 5: <reason>"
      std::string reason = ex.what();
      const std::size_t column = reason.find("column ");
      const std::size_t colon = column == std::string::npos ? column : reason.find(": ", column);
      if (colon != std::string::npos) reason = reason.substr(colon + 2);
      error_ = "json: parse error at byte " + std::to_string(position);
      if (!where.empty()) error_ += " (in " + where + ")";
      error_ += ": " + reason;
    }
    error_ = sanitize_utf8(error_);
    return dom_.parse_error(position, last_token, ex);
  }

  const std::string& error() const { return error_; }

 private:
  // Every value (scalar or container) advances the index of the array it sits in.
  bool value() {
    if (path_.empty()) return true;
    if (path_.back().is_array)
      ++path_.back().next_index;
    else
      path_.back().awaiting_value = false;
    return true;
  }
  bool open(bool is_array) {
    if (path_.size() >= static_cast<std::size_t>(kMaxDepth)) {
      error_ = "json: nested more than " + std::to_string(kMaxDepth) + " levels deep (a scene needs 3)";
      return false;
    }
    PathStep step;
    step.is_array = is_array;
    path_.push_back(std::move(step));
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<PathStep> path_;
  std::string error_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] 2. Field readers (each returns "" or "<field>: <reason>")
// ---------------------------------------------------------------------------------------------

const char* type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    default:
      return "not a JSON value";
  }
}

// A finite number within ±kMaxAbsValue, else the reason it is not.
std::string check_value(const json& v, double* out) {
  if (!v.is_number()) {
    if (v.is_string())
      return "is not a finite number (got the string \"" + clip_utf8(v.get_ref<const std::string&>()) + "\")";
    return std::string("is not a finite number (got ") + type_name(v) + ")";
  }
  const double x = v.get<double>();
  if (!std::isfinite(x)) return "is not a finite number";
  if (std::abs(x) > kMaxAbsValue) return "has magnitude above the limit of 1e15";
  *out = x;
  return {};
}

std::string check_number(const std::string& field, double x) {
  if (!std::isfinite(x)) return field + " is not a finite number";
  if (std::abs(x) > kMaxAbsValue) return field + " has magnitude above the limit of 1e15";
  return {};
}

// A matrix field: an array of `rows` (when rows ≥ 0) rows, each an array of the same number of
// entries (`cols` when cols ≥ 0, else taken from row 0), 1..kMaxDim of them.
// `why_rows`/`why_cols` explain where the expected sizes come from.
std::string read_matrix(const json& doc, const char* field, int rows, const std::string& why_rows, int cols,
                        const std::string& why_cols, attn::Matrix* out) {
  const std::string name = field;
  const auto it = doc.find(field);
  if (it == doc.end()) return name + ": missing";
  const json& m = *it;
  if (!m.is_array()) return name + ": expected an array of rows, got " + type_name(m);
  const long long n_rows = static_cast<long long>(m.size());
  if (rows >= 0 && n_rows != rows)
    return name + ": has " + std::to_string(n_rows) + " rows, expected " + std::to_string(rows) + why_rows;
  if (n_rows == 0) return name + ": has no rows";
  if (n_rows > kMaxTokens && rows < 0)
    return name + ": has " + std::to_string(n_rows) + " rows, limit is " + std::to_string(kMaxTokens);
  int n_cols = cols;
  for (long long i = 0; i < n_rows; ++i) {
    const json& row = m[static_cast<std::size_t>(i)];
    const std::string where = name + ": row " + std::to_string(i);
    if (!row.is_array()) return where + " is not an array (got " + type_name(row) + ")";
    const long long len = static_cast<long long>(row.size());
    if (n_cols < 0) {  // row 0 decides the column count
      if (len == 0) return where + " is empty (need at least 1 entry)";
      if (len > kMaxDim)
        return where + " has " + std::to_string(len) + " entries, limit is " + std::to_string(kMaxDim);
      n_cols = static_cast<int>(len);
      out->resize(static_cast<Eigen::Index>(n_rows), n_cols);
    } else if (len != n_cols) {
      return where + " has " + std::to_string(len) + " entries, expected " + std::to_string(n_cols) +
             (i == 0 ? why_cols : std::string(" (like row 0)"));
    } else if (i == 0) {
      out->resize(static_cast<Eigen::Index>(n_rows), n_cols);
    }
    for (long long j = 0; j < len; ++j) {
      double x = 0.0;
      const std::string problem = check_value(row[static_cast<std::size_t>(j)], &x);
      if (!problem.empty()) return where + ", entry " + std::to_string(j) + " " + problem;
      (*out)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = x;
    }
  }
  return {};
}

std::string read_tokens(const json& doc, std::vector<std::string>* out) {
  const auto it = doc.find("tokens");
  if (it == doc.end()) return "tokens: missing (give one label per token, e.g. [\"the\",\"cat\"])";
  const json& t = *it;
  if (!t.is_array()) return std::string("tokens: expected an array of strings, got ") + type_name(t);
  if (t.empty()) return "tokens: need at least 1 token";
  if (t.size() > static_cast<std::size_t>(kMaxTokens))
    return "tokens: " + std::to_string(t.size()) + " tokens, limit is " + std::to_string(kMaxTokens);
  out->clear();
  out->reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string where = "tokens: entry " + std::to_string(i);
    if (!t[i].is_string()) return where + " is not a string (got " + type_name(t[i]) + ")";
    const std::string& label = t[i].get_ref<const std::string&>();
    if (label.size() > kMaxTokenBytes)
      return where + " is " + std::to_string(label.size()) + " bytes, limit is " +
             std::to_string(kMaxTokenBytes);
    out->push_back(label);
  }
  return {};
}

const char* const kScaleRule = "scale: must be \"none\", \"sqrt_dk\" or a number in [1e-06, 1e+06]";

std::string read_scale(const json& doc, attn::Scale* out) {
  *out = attn::Scale{};  // default √d_k
  const auto it = doc.find("scale");
  if (it == doc.end()) return {};
  const json& s = *it;
  if (s.is_string()) {
    const std::string& v = s.get_ref<const std::string&>();
    if (v == "none") {
      out->mode = attn::ScaleMode::None;
      return {};
    }
    if (v == "sqrt_dk") {
      out->mode = attn::ScaleMode::SqrtDk;
      return {};
    }
    return std::string(kScaleRule) + " (got \"" + clip_utf8(v) + "\")";
  }
  if (s.is_number()) {
    const double t = s.get<double>();
    if (!(t >= kMinTemperature && t <= kMaxTemperature))
      return std::string(kScaleRule) + " (got " + s.dump() + ")";
    out->mode = attn::ScaleMode::Temperature;
    out->temperature = t;
    return {};
  }
  return std::string(kScaleRule) + " (got " + type_name(s) + ")";
}

std::string read_mask(const json& doc, int n, attn::MaskMatrix* out) {
  out->resize(0, 0);
  const auto it = doc.find("mask");
  if (it == doc.end()) return {};
  const json& m = *it;
  const std::string rule = " (n×n of 0/1, n = " + std::to_string(n) + " tokens)";
  if (!m.is_array()) return std::string("mask: expected an array of rows, got ") + type_name(m) + rule;
  if (m.size() != static_cast<std::size_t>(n))
    return "mask: has " + std::to_string(m.size()) + " rows, expected " + std::to_string(n) + rule;
  out->resize(n, n);
  for (int i = 0; i < n; ++i) {
    const json& row = m[static_cast<std::size_t>(i)];
    const std::string where = "mask: row " + std::to_string(i);
    if (!row.is_array()) return where + " is not an array (got " + type_name(row) + ")";
    if (row.size() != static_cast<std::size_t>(n))
      return where + " has " + std::to_string(row.size()) + " entries, expected " + std::to_string(n);
    for (int j = 0; j < n; ++j) {
      const json& v = row[static_cast<std::size_t>(j)];
      const double x = v.is_number() ? v.get<double>() : -1.0;
      if (!(x == 0.0 || x == 1.0)) return where + ", entry " + std::to_string(j) + " must be 0 or 1";
      (*out)(i, j) = x == 1.0 ? 1 : 0;
    }
  }
  return {};
}

const char* const kKnownKeys[] = {"version", "tokens", "Q",  "K",     "V",      "X",
                                  "Wq",      "Wk",     "Wv", "scale", "causal", "mask"};

// ---------------------------------------------------------------------------------------------
// [SECTION] 3. parse_scene / validate
// ---------------------------------------------------------------------------------------------

ParseResult fail(std::string message) {
  ParseResult r;
  r.error = std::move(message);
  return r;
}

// Shapes and values of a scene built in code; the same rules parse_scene applies to JSON.
std::string check_matrix(const char* field, const attn::Matrix& m, long long rows,
                         const std::string& why_rows, long long cols, const std::string& why_cols) {
  const std::string name = field;
  if (m.rows() != rows)
    return name + ": has " + std::to_string(m.rows()) + " rows, expected " + std::to_string(rows) + why_rows;
  if (cols >= 0 && m.cols() != cols)
    return name + ": row 0 has " + std::to_string(m.cols()) + " entries, expected " + std::to_string(cols) +
           why_cols;
  if (m.cols() < 1) return name + ": row 0 is empty (need at least 1 entry)";
  if (m.cols() > kMaxDim)
    return name + ": row 0 has " + std::to_string(m.cols()) + " entries, limit is " + std::to_string(kMaxDim);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const std::string problem =
          check_number(name + ": row " + std::to_string(i) + ", entry " + std::to_string(j), m(i, j));
      if (!problem.empty()) return problem;
    }
  return {};
}

}  // namespace

int Scene::d_k() const {
  return static_cast<int>(mode == Mode::Direct ? Q.cols() : Wq.cols());
}
int Scene::d_v() const {
  return static_cast<int>(mode == Mode::Direct ? V.cols() : Wv.cols());
}

ParseResult parse_scene(std::string_view json_text) {
  // --- the text itself ---
  if (json_text.size() > kMaxInputBytes)
    return fail("input: " + std::to_string(json_text.size()) + " bytes is larger than the 8 MiB limit");
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return fail("input: empty (expected a scene JSON object)");
  json doc;
  SceneSax sax(doc);
  const bool parsed =
      json::sax_parse(json_text.begin(), json_text.end(), &sax, nlohmann::detail::input_format_t::json,
                      /*strict=*/true);
  if (!parsed) return fail(sax.error().empty() ? "json: parse error" : sax.error());
  if (!doc.is_object()) return fail(std::string("scene: expected a JSON object, got ") + type_name(doc));

  // --- version, then typos ---
  const auto version = doc.find("version");
  if (version == doc.end()) return fail("version: missing (expected 1)");
  if (!version->is_number() || version->get<double>() != 1.0)
    return fail("version: expected 1, got " + clip_utf8(version->dump()));
  for (const auto& item : doc.items()) {
    bool known = false;
    for (const char* k : kKnownKeys) known = known || item.key() == k;
    if (!known)
      return fail(clip_utf8(item.key()) +
                  ": unknown key (expected version, tokens, Q, K, V, X, Wq, Wk, Wv, scale, causal, mask)");
  }

  Scene s;
  // --- tokens: n labels; every matrix has n rows (in projected mode, X) ---
  if (std::string e = read_tokens(doc, &s.tokens); !e.empty()) return fail(e);
  const int n = s.n();
  const std::string per_token = " (one per token)";

  // --- exactly one mode ---
  const bool any_direct = doc.contains("Q") || doc.contains("K") || doc.contains("V");
  const bool any_projected =
      doc.contains("X") || doc.contains("Wq") || doc.contains("Wk") || doc.contains("Wv");
  if (any_direct && any_projected) return fail("scene: give either Q/K/V or X/Wq/Wk/Wv, not both");
  if (!any_direct && !any_projected)
    return fail("scene: no vectors: give Q, K, V (direct mode) or X, Wq, Wk, Wv (projected mode)");
  if (any_direct) {
    s.mode = Mode::Direct;
    for (const char* f : {"Q", "K", "V"})
      if (!doc.contains(f)) return fail(std::string(f) + ": missing (direct mode needs Q, K and V)");
    if (std::string e = read_matrix(doc, "Q", n, per_token, -1, "", &s.Q); !e.empty()) return fail(e);
    const int d_k = static_cast<int>(s.Q.cols());
    if (std::string e = read_matrix(doc, "K", n, per_token, d_k, " (d_k, from Q)", &s.K); !e.empty())
      return fail(e);
    if (std::string e = read_matrix(doc, "V", n, per_token, -1, "", &s.V); !e.empty()) return fail(e);
  } else {
    s.mode = Mode::Projected;
    for (const char* f : {"X", "Wq", "Wk", "Wv"})
      if (!doc.contains(f)) return fail(std::string(f) + ": missing (projected mode needs X, Wq, Wk and Wv)");
    if (std::string e = read_matrix(doc, "X", n, per_token, -1, "", &s.X); !e.empty()) return fail(e);
    const int d_model = static_cast<int>(s.X.cols());
    const std::string per_dim = " (d_model, the columns of X)";
    if (std::string e = read_matrix(doc, "Wq", d_model, per_dim, -1, "", &s.Wq); !e.empty()) return fail(e);
    const int d_k = static_cast<int>(s.Wq.cols());
    if (std::string e = read_matrix(doc, "Wk", d_model, per_dim, d_k, " (d_k, from Wq)", &s.Wk); !e.empty())
      return fail(e);
    if (std::string e = read_matrix(doc, "Wv", d_model, per_dim, -1, "", &s.Wv); !e.empty()) return fail(e);
  }

  // --- options ---
  if (std::string e = read_scale(doc, &s.scale); !e.empty()) return fail(e);
  if (const auto causal = doc.find("causal"); causal != doc.end()) {
    if (!causal->is_boolean())
      return fail(std::string("causal: must be true or false, got ") + type_name(*causal));
    s.causal = causal->get<bool>();
  }
  if (std::string e = read_mask(doc, n, &s.mask); !e.empty()) return fail(e);

  ParseResult r;
  r.scene = std::move(s);
  return r;
}

std::string validate(const Scene& s) {
  const long long n = s.n();
  if (n < 1) return "tokens: need at least 1 token";
  if (n > kMaxTokens)
    return "tokens: " + std::to_string(n) + " tokens, limit is " + std::to_string(kMaxTokens);
  for (std::size_t i = 0; i < s.tokens.size(); ++i) {
    const std::string where = "tokens: entry " + std::to_string(i);
    if (s.tokens[i].size() > kMaxTokenBytes)
      return where + " is " + std::to_string(s.tokens[i].size()) + " bytes, limit is " +
             std::to_string(kMaxTokenBytes);
    if (!valid_utf8(s.tokens[i])) return where + " is not valid UTF-8";
  }
  const std::string per_token = " (one per token)";
  if (s.mode == Mode::Direct) {
    if (auto e = check_matrix("Q", s.Q, n, per_token, -1, ""); !e.empty()) return e;
    if (auto e = check_matrix("K", s.K, n, per_token, s.Q.cols(), " (d_k, from Q)"); !e.empty()) return e;
    if (auto e = check_matrix("V", s.V, n, per_token, -1, ""); !e.empty()) return e;
  } else {
    if (auto e = check_matrix("X", s.X, n, per_token, -1, ""); !e.empty()) return e;
    const std::string per_dim = " (d_model, the columns of X)";
    if (auto e = check_matrix("Wq", s.Wq, s.X.cols(), per_dim, -1, ""); !e.empty()) return e;
    if (auto e = check_matrix("Wk", s.Wk, s.X.cols(), per_dim, s.Wq.cols(), " (d_k, from Wq)"); !e.empty())
      return e;
    if (auto e = check_matrix("Wv", s.Wv, s.X.cols(), per_dim, -1, ""); !e.empty()) return e;
  }
  if (s.scale.mode == attn::ScaleMode::Temperature &&
      !(s.scale.temperature >= kMinTemperature && s.scale.temperature <= kMaxTemperature))
    return kScaleRule;
  if (s.mask.size() != 0) {
    if (s.mask.rows() != n || s.mask.cols() != n)
      return "mask: is " + std::to_string(s.mask.rows()) + "×" + std::to_string(s.mask.cols()) +
             ", expected " + std::to_string(n) + "×" + std::to_string(n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j)
        if (s.mask(i, j) > 1)
          return "mask: row " + std::to_string(i) + ", entry " + std::to_string(j) + " must be 0 or 1";
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 4. scene_to_json / compute / result_to_json
// ---------------------------------------------------------------------------------------------
namespace {

// Rows of numbers. nlohmann prints the shortest decimal that reads back as the same double, so
// the text round-trips bit-for-bit.
ordered_json matrix_json(const attn::Matrix& m) {
  ordered_json rows = ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

ordered_json mask_json(const attn::MaskMatrix& m) {
  ordered_json rows = ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j) ? 1 : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

// `replace` instead of the default strict UTF-8 handling: the strict handler throws (= abort on
// the web) on invalid UTF-8, and a Scene built in code may hold any bytes.
std::string dump_compact(const ordered_json& j) {
  return j.dump(-1, ' ', /*ensure_ascii=*/false, ordered_json::error_handler_t::replace);
}

// indent < 0: one line. Otherwise one top-level key per line and one matrix row per line, so a
// 5×8 matrix reads as 5 lines rather than 50:
//   {
//     "tokens": ["the", ...],
//     "Q": [
//       [1.0,0.0],
//       ...
//     ],
std::string dump(const ordered_json& j, int indent) {
  if (indent < 0 || !j.is_object()) return dump_compact(j);
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  std::string out = "{";
  bool first = true;
  for (const auto& item : j.items()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += pad + dump_compact(ordered_json(item.key())) + ": ";
    const ordered_json& v = item.value();
    const bool matrix = v.is_array() && !v.empty() && v.front().is_array();
    if (!matrix) {
      out += dump_compact(v);
      continue;
    }
    out += "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ",\n" : "\n") + pad + pad + dump_compact(v[i]);
    out += "\n" + pad + "]";
  }
  out += "\n}";
  return out;
}

}  // namespace

std::string scene_to_json(const Scene& s, int indent) {
  ordered_json j;
  j["version"] = 1;
  j["tokens"] = s.tokens;
  if (s.mode == Mode::Direct) {
    j["Q"] = matrix_json(s.Q);
    j["K"] = matrix_json(s.K);
    j["V"] = matrix_json(s.V);
  } else {
    j["X"] = matrix_json(s.X);
    j["Wq"] = matrix_json(s.Wq);
    j["Wk"] = matrix_json(s.Wk);
    j["Wv"] = matrix_json(s.Wv);
  }
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      j["scale"] = "none";
      break;
    case attn::ScaleMode::SqrtDk:
      j["scale"] = "sqrt_dk";
      break;
    case attn::ScaleMode::Temperature:
      j["scale"] = s.scale.temperature;
      break;
  }
  j["causal"] = s.causal;
  if (s.mask.size() != 0) j["mask"] = mask_json(s.mask);
  return dump(j, indent);
}

attn::Result compute(const Scene& s) {
  // An invalid scene would break the core's shape assumptions; give an empty result instead of
  // crashing (callers validate first and show validate()'s message).
  if (!validate(s).empty()) return attn::Result{};
  attn::Options options;
  options.scale = s.scale;
  options.causal = s.causal;
  options.mask = s.mask;
  return s.mode == Mode::Direct ? attn::attend(s.Q, s.K, s.V, options)
                                : attn::attend_projected(s.X, s.Wq, s.Wk, s.Wv, options);
}

std::string result_to_json(const attn::Result& r, int indent) {
  ordered_json j;
  j["Q"] = matrix_json(r.Q);            // n×d_k
  j["K"] = matrix_json(r.K);            // n×d_k
  j["V"] = matrix_json(r.V);            // n×d_v
  j["scores"] = matrix_json(r.scores);  // n×n  raw QKᵀ
  j["divisor"] = r.divisor;             //      s
  // n×n scores / s, masked cells null (they take no part in the softmax).
  ordered_json scaled = ordered_json::array();
  const bool have_mask = r.allowed.rows() == r.scaled.rows() && r.allowed.cols() == r.scaled.cols();
  for (Eigen::Index i = 0; i < r.scaled.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j2 = 0; j2 < r.scaled.cols(); ++j2) {
      if (have_mask && !r.allowed(i, j2))
        row.push_back(nullptr);
      else
        row.push_back(r.scaled(i, j2));
    }
    scaled.push_back(std::move(row));
  }
  j["scaled"] = std::move(scaled);
  j["allowed"] = mask_json(r.allowed);    // n×n  1 = attended
  j["weights"] = matrix_json(r.weights);  // n×n  rows sum to 1 (0 for fully masked rows)
  j["output"] = matrix_json(r.output);    // n×d_v
  j["masked_rows"] = r.masked_rows;
  // Reading aids per query row (core/reading_aids.hpp): entropy in bits (0 for a masked row) and
  // the column of the first largest weight (−1 for a masked row).
  const attn::ReadingAids aids = attn::reading_aids(r);
  j["entropy"] = aids.entropy;  // n
  j["argmax"] = aids.argmax;    // n
  return dump(j, indent);
}

}  // namespace scene
