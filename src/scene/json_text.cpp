// json_text.cpp — JSON text in and out without exceptions (see json_text.hpp).
#include "scene/json_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

namespace scene::json_text {

std::string clip_utf8(const std::string& s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // continuation byte
  return s.substr(0, end) + "…";
}

namespace {

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

}  // namespace

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0, len; i < s.size(); i += len)
    if ((len = utf8_sequence_length(s, i)) == 0) return false;
  return true;
}

namespace {

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

// The checking pass: follows the path, refuses duplicate keys and deep nesting, and on failure
// records a message with the byte position and the field being read. It builds nothing; the DOM
// comes from nlohmann's parser afterwards.
class CheckingSax {
 public:
  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool string(json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }

  bool start_object(std::size_t) { return value() && open(false); }
  bool key(json::string_t& k) {
    PathStep& top = path_.back();
    if (!top.keys.insert(k).second) {
      error_ = path_.size() == 1 ? clip_utf8(k) + ": key appears twice"
                                 : "json: key \"" + clip_utf8(k) + "\" appears twice in one object";
      return false;
    }
    top.key = k;
    top.awaiting_value = true;
    return true;
  }
  bool end_object() {
    path_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return value() && open(true); }
  bool end_array() {
    path_.pop_back();
    return true;
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
    return false;
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

  std::vector<PathStep> path_;
  std::string error_;
};

// The fast path: a recursive-descent reader of RFC 8259 JSON that builds the document as it goes.
// It returns false, leaving the rest to the checking path, on anything it does not read exactly as
// nlohmann does: a syntax error, a duplicate key, more than kMaxDepth levels, a number beyond a
// double, a \u escape, a string with control characters or malformed UTF-8. Numbers are typed as
// nlohmann types them: without fraction or exponent an unsigned (≥ 0) or signed 64-bit integer,
// else (or when it overflows 64 bits) a double, correctly rounded (as strtod: to_double below).
class FastReader {
 public:
  explicit FastReader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool document(json* out) {
    if (!value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool literal(const char* word, std::size_t length) {
    if (std::size_t(end_ - p_) < length || std::string_view(p_, length) != std::string_view(word, length))
      return false;
    p_ += length;
    return true;
  }

  // An array or object just opened: true (and past it) when `close` follows at once, an empty one.
  bool closes(char close) {
    skip_space();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }
  // After an item of an array or object: ',' (another item follows), `close` (the end), or an error.
  enum class After { Next, Closed, Bad };
  After after_item(char close) {
    skip_space();
    if (p_ == end_) return After::Bad;
    if (*p_ != ',' && *p_ != close) return After::Bad;
    return *p_++ == ',' ? After::Next : After::Closed;
  }

  bool value(json* out, int depth) {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object(out, depth + 1);
      case '[':
        return array(out, depth + 1);
      case '"': {
        std::string text;
        if (!string(&text)) return false;
        *out = std::move(text);
        return true;
      }
      case 't':
        *out = true;
        return literal("true", 4);
      case 'f':
        *out = false;
        return literal("false", 5);
      case 'n':
        *out = nullptr;
        return literal("null", 4);
      default:
        return number(out);
    }
  }

  bool array(json* out, int depth) {
    if (depth > kMaxDepth) return false;
    ++p_;  // '['
    *out = json::array();
    if (closes(']')) return true;
    for (;;) {
      json item;
      if (!value(&item, depth)) return false;
      out->get_ref<json::array_t&>().push_back(std::move(item));
      const After next = after_item(']');
      if (next != After::Next) return next == After::Closed;
    }
  }

  bool object(json* out, int depth) {
    if (depth > kMaxDepth) return false;
    ++p_;  // '{'
    *out = json::object();
    if (closes('}')) return true;
    for (std::size_t count = 0;; ++count) {
      skip_space();
      std::string key;
      if (p_ == end_ || *p_ != '"' || !string(&key)) return false;
      // A scene's objects have a dozen keys: a linear duplicate check is cheap there, and bigger
      // objects go to the checking path (which keeps a set).
      if (count >= 64 || out->contains(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      json item;
      if (!value(&item, depth)) return false;
      out->emplace(std::move(key), std::move(item));
      const After next = after_item('}');
      if (next != After::Next) return next == After::Closed;
    }
  }

  bool string(std::string* out) {
    ++p_;  // '"'
    for (;;) {
      const char* run = p_;
      while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
      out->append(run, p_);
      if (p_ == end_ || static_cast<unsigned char>(*p_) < 0x20) return false;
      if (*p_ == '"') {
        ++p_;
        break;
      }
      if (++p_ == end_) return false;  // after the backslash
      const char* escapes = "\"\\/bfnrt";
      const char* decoded = "\"\\/\b\f\n\r\t";
      const char* hit = std::char_traits<char>::find(escapes, 8, *p_);
      if (!hit) return false;  // \u…, or not an escape at all
      out->push_back(decoded[hit - escapes]);
      ++p_;
    }
    return valid_utf8(*out);
  }

  bool number(json* out) {
    const char* start = p_;
    const char* q = p_;
    auto digits = [&] {
      const char* from = q;
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
      return q != from;
    };
    if (q != end_ && *q == '-') ++q;
    if (q == end_) return false;
    if (*q == '0') {
      ++q;
    } else if (!digits()) {
      return false;
    }
    bool integer = true;
    if (q != end_ && *q == '.') {
      ++q;
      if (!digits()) return false;
      integer = false;
    }
    if (q != end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q != end_ && (*q == '+' || *q == '-')) ++q;
      if (!digits()) return false;
      integer = false;
    }
    p_ = q;
    if (integer) {
      if (*start != '-') {
        std::uint64_t u = 0;
        if (std::from_chars(start, q, u).ec == std::errc()) {
          *out = u;
          return true;
        }
      } else {
        std::int64_t i = 0;
        if (std::from_chars(start, q, i).ec == std::errc()) {
          *out = i;
          return true;
        }
      }
    }
    const double x = to_double(start, q);
    if (!std::isfinite(x)) return false;  // 1e400: the checking path words it
    *out = x;
    return true;
  }

  // The double nearest to the JSON number [first, last), as strtod gives it. Clinger's fast path
  // when it is exact: the number is w·10^e with w < 2^53 and |e| ≤ 22, both w and 10^|e| are
  // doubles exactly, so one multiplication or division rounds once, correctly. That covers what
  // people type and what a page sends with a few decimals (0.125, -3.5e-4); longer ones (a double
  // written with 17 digits) go to strtod. (fast_float would read those too, for 8.6 KB of gzip'd
  // wasm — its table of 128-bit powers of five: more than the site's budget had left.)
  static double to_double(const char* first, const char* last) {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* c = first;
    const bool negative = *c == '-';
    if (negative) ++c;
    std::uint64_t w = 0;  // the significant digits, at most 19 (they fit 64 bits)
    int significant = 0, e = 0;
    bool exact = true;  // false: more than 19 significant digits (strtod's job)
    auto take = [&](char d, bool fraction) {
      if (w == 0 && d == '0') {  // a leading zero: not significant
        e -= fraction;
      } else if (significant < 19) {
        w = w * 10 + std::uint64_t(d - '0');
        ++significant;
        e -= fraction;
      } else {
        exact = false;
      }
    };
    for (; c != last && *c >= '0' && *c <= '9'; ++c) take(*c, false);
    if (c != last && *c == '.')
      for (++c; c != last && *c >= '0' && *c <= '9'; ++c) take(*c, true);
    if (c != last) {  // the exponent: [eE][+-]?digits (clamped: far beyond ±22 either way)
      ++c;
      const bool minus = *c == '-';
      if (*c == '+' || *c == '-') ++c;
      int x = 0;
      for (; c != last; ++c) x = std::min(x * 10 + (*c - '0'), 100000);
      e += minus ? -x : x;
    }
    if (exact && w <= (std::uint64_t(1) << 53) && e >= -22 && e <= 22) {
      const double v = e < 0 ? double(w) / kPow10[-e] : double(w) * kPow10[e];
      return negative ? -v : v;
    }
    char buffer[64];
    if (last - first < std::ptrdiff_t(sizeof buffer)) {
      std::copy(first, last, buffer);
      buffer[last - first] = '\0';
      return std::strtod(buffer, nullptr);
    }
    return std::strtod(std::string(first, last).c_str(), nullptr);
  }

  const char* p_;
  const char* end_;
};

}  // namespace

bool parse_fast(std::string_view text, json* out) {
  return FastReader(text).document(out);
}

Parsed parse(std::string_view text) {
  Parsed out;
  if (parse_fast(text, &out.doc)) return out;
  out.doc = nullptr;
  CheckingSax sax;
  if (!json::sax_parse(text.begin(), text.end(), &sax)) {
    out.error = sax.error().empty() ? "json: parse error" : sax.error();
    return out;
  }
  // The checking pass accepted the text, so nlohmann's parser (same grammar, strict) does too.
  out.doc = json::parse(text.begin(), text.end(), /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (out.doc.is_discarded()) out.error = "json: parse error";
  return out;
}

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

std::vector<std::pair<const std::string*, const json*>> sorted_members(const json& object) {
  std::vector<std::pair<const std::string*, const json*>> out;
  if (!object.is_object()) return out;
  for (auto it = object.begin(); it != object.end(); ++it) out.emplace_back(&it.key(), &it.value());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  return out;
}

namespace {

// `replace` instead of the default strict UTF-8 handling: the strict handler throws (= abort on
// the web) on invalid UTF-8, and a Scene built in code may hold any bytes.
std::string dump_compact(const ordered_json& j) {
  return j.dump(-1, ' ', /*ensure_ascii=*/false, ordered_json::error_handler_t::replace);
}

}  // namespace

// Indented form:
//   {
//     "tokens": ["the", ...],
//     "Q": [
//       [1.0,0.0],
//       ...
//     ],

namespace {

// An object whose opening brace sits at nesting level `depth` (the indentation of its closing
// brace): keys one level deeper, each matrix row two levels deeper, and arrays of objects (the
// CLI's "heads") one object after another, each laid out the same way.
std::string dump_object(const ordered_json& j, const std::string& pad, std::size_t depth) {
  std::string at;  // indentation of this object's closing brace
  for (std::size_t d = 0; d < depth; ++d) at += pad;
  const std::string key_at = at + pad, item_at = key_at + pad;
  std::string out = "{";
  bool first = true;
  for (const auto& item : j.items()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += key_at + dump_compact(ordered_json(item.key())) + ": ";
    const ordered_json& v = item.value();
    const bool rows = v.is_array() && !v.empty() && (v.front().is_array() || v.front().is_object());
    if (!rows) {
      out += dump_compact(v);
      continue;
    }
    out += "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += (i ? ",\n" : "\n") + item_at;
      out += v[i].is_object() ? dump_object(v[i], pad, depth + 2) : dump_compact(v[i]);
    }
    out += "\n" + key_at + "]";
  }
  out += "\n" + at + "}";
  return out;
}

}  // namespace

std::string dump(const ordered_json& j, int indent) {
  if (indent < 0 || !j.is_object()) return dump_compact(j);
  return dump_object(j, std::string(static_cast<std::size_t>(indent), ' '), 0);
}

Parsed parse_object(std::string_view text, std::size_t max_bytes, const char* what) {
  if (text.size() > max_bytes)
    return {json(), "input: larger than the " + std::to_string(max_bytes >> 20) + " MiB limit"};
  Parsed parsed = parse(text);
  if (parsed.error.empty() && !parsed.doc.is_object())
    parsed.error = std::string("input: expected a JSON object (") + what + "), got " + type_name(parsed.doc);
  return parsed;
}

std::string read_matrix(const json& v, const std::string& field, long long rows, long long cols,
                        const MatrixExpect& expect, attn::Matrix* out) {
  if (!v.is_array()) return field + ": expected " + expect.array + ", got " + type_name(v) + expect.why;
  if (static_cast<long long>(v.size()) != rows)
    return field + ": has " + std::to_string(v.size()) + " rows, expected " + expect.rows + expect.why;
  out->resize(Eigen::Index(rows), Eigen::Index(cols));  // rows, cols ≤ the scene's limits (checked before)
  for (long long i = 0; i < rows; ++i) {
    const json& row = v[static_cast<std::size_t>(i)];
    const std::string where = field + ": row " + std::to_string(i);
    if (!row.is_array()) return where + " is not an array (got " + type_name(row) + ")";
    if (static_cast<long long>(row.size()) != cols)
      return where + " has " + std::to_string(row.size()) + " entries, expected " + expect.cols + expect.why;
    for (long long j = 0; j < cols; ++j) {
      const json& x = row[static_cast<std::size_t>(j)];
      const std::string at = where + ", entry " + std::to_string(j);
      if (!x.is_number()) return at + " is not a finite number (got " + type_name(x) + ")";
      const double value = x.get<double>();
      if (!std::isfinite(value) || std::abs(value) > expect.limit)
        return at + " has magnitude above the limit of " + expect.limit_text;
      (*out)(Eigen::Index(i), Eigen::Index(j)) = value;
    }
  }
  return {};
}

// A matrix as a JSON array of its rows, each entry written as `entry` makes it.
template <class M, class Entry>
ordered_json rows_json(const M& m, Entry entry) {
  ordered_json rows = ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(entry(m(i, j)));
    rows.push_back(std::move(row));
  }
  return rows;
}

ordered_json matrix_json(const attn::Matrix& m) {
  return rows_json(m, [](double x) { return x; });
}

ordered_json mask_json(const attn::MaskMatrix& m) {
  return rows_json(m, [](unsigned char allowed) { return allowed ? 1 : 0; });
}

}  // namespace scene::json_text
