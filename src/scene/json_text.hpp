// json_text.hpp — JSON text in and out for the scene layer, without exceptions.
//
// The web build has no exceptions (a throw aborts), so nothing here throws. Reading is one pass over
// the text straight into the document, numbers exact and fast (Clinger's fast path, else strtod): a 1024×64
// scene is 1.3 MB of text, and setState must stay well under a frame budget of seconds. Text that pass does
// not accept (a syntax error, a key given twice, nesting deeper than kMaxDepth, a number that
// overflows, a \u escape) is read again by the checking path, which words every error with its byte
// position and the field being read ("Q: row 0, entry 1"): a checking SAX pass, then nlohmann's own
// DOM parser. Both accept the same documents and build the same values.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/attention.hpp"

namespace scene::json_text {

// One JSON type for reading and writing: nlohmann::ordered_json (an object's keys in the order read or
// written). Output keeps the documented key order (version first), which std::map-based nlohmann::json
// would sort away; and a second basic_json type would instantiate a second parser and serializer
// (≈ 29 KB of wasm). `json` names documents read, `ordered_json` documents written: the same type.
using json = nlohmann::ordered_json;
using ordered_json = json;

// A scene is nested 3 deep (object → matrix → row). Anything far deeper is not a scene, and
// refusing it early keeps memory and stack use bounded for hostile input.
constexpr int kMaxDepth = 32;

struct Parsed {
  json doc;
  std::string error;  // "" on success, else "json: parse error at byte 35 (in Q: row 0, entry 0): …"
};

// Parse JSON text. Errors name the byte and the field being read; a number that overflows a double
// (1e400) names its field ("K: row 0, entry 0 is not a finite number …"); a key given twice reads
// "Q: key appears twice". Every error is valid UTF-8 even when the input is not.
Parsed parse(std::string_view text);
// parse() of an input (a file, stdin, the page's text) that must be an object: refused first when
// it is longer than `max_bytes` ("input: larger than the 8 MiB limit"; the readers stop at
// max_bytes + 1), then when it is not an object ("input: expected a JSON object (`what`), got array").
Parsed parse_object(std::string_view text, std::size_t max_bytes, const char* what);

// parse()'s first pass: true with `*out` set when it read the text — exactly the document
// nlohmann's parser builds (the same types and values) — false for anything it leaves to the
// checking path (any error, a \u escape, an object of more than 64 keys).
bool parse_fast(std::string_view text, json* out);

// At most `max_bytes` of `s`, cut on a UTF-8 character boundary, "…" appended when cut (for quoting
// user text in errors).
std::string clip_utf8(const std::string& s, std::size_t max_bytes = 40);

// Whether `s` is well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF).
bool valid_utf8(const std::string& s);

// "null", "a boolean", "a string", "an array", "an object", "a number".
const char* type_name(const json& v);

// An object's members sorted by key (byte order), the order nlohmann::json's std::map kept them in:
// the readers check keys in this order, so of several bad keys the one named stays the same.
std::vector<std::pair<const std::string*, const json*>> sorted_members(const json& object);

// indent < 0: one line. Otherwise one top-level key per line and one matrix row per line, so a
// 5×8 matrix reads as 5 lines rather than 50. Numbers are the shortest decimals that read back as
// the same doubles, so the text round-trips bit for bit. Invalid UTF-8 in strings is replaced, not
// thrown about.
std::string dump(const ordered_json& j, int indent);

// A matrix as rows of numbers ([[1.0, 0.5], …]); nlohmann prints the shortest decimal that reads
// back as the same double, so the text round-trips bit for bit.
ordered_json matrix_json(const attn::Matrix& m);
// A 0/1 mask as rows of 0 and 1.
ordered_json mask_json(const attn::MaskMatrix& m);

// What a fixed-shape matrix's messages say is expected (read_matrix): `array` after "expected "
// when the value is not an array ("5×8 rows", "an array of rows"), `rows` and `cols` after
// "expected " when a count is off, `why` appended to those three; entries above `limit` are
// refused as "above the limit of `limit_text`".
struct MatrixExpect {
  std::string array, rows, cols, why;
  double limit = 0;
  const char* limit_text = "";
};

// `field` as a rows×cols matrix of finite numbers, |x| ≤ expect.limit: "" and *out filled, or the
// message naming the field, the row and the entry ("W_E: row 2, entry 0 is not a finite number").
std::string read_matrix(const json& v, const std::string& field, long long rows, long long cols,
                        const MatrixExpect& expect, attn::Matrix* out);

}  // namespace scene::json_text
