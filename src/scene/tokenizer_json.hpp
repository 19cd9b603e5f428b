// tokenizer_json.hpp — the byte-level BPE tokenizer (core/tokenizer.hpp) in the model file:
//
//   "tokenizer": {"type": "byte_bpe", "chunks": "gpt2", "merges": [[left, right], …]}
//
// "type" names the algorithm (bytes 0–255 are ids 0–255, id 256 + k is merges[k]); "chunks" the
// pre-tokenizer (GPT-2's rule, tokenizer.hpp); "merges" in rank order, each a pair of whole numbers,
// both below 256 + k, at most kMaxVocab − 256 of them. Exactly these keys. Errors name the field:
// "tokenizer.merges[3]: right id 300 must be from 0 to 258 (…)".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/tokenizer.hpp"
#include "scene/json_text.hpp"

namespace scene {

struct TokenizerParse {
  std::optional<attn::bpe::Tokenizer> tokenizer;  // finalized
  std::string error;                              // "" on success, else "tokenizer…: <reason>"
  bool ok() const { return tokenizer.has_value(); }
};

// The value of the "tokenizer" key (an object), as read from a model document.
TokenizerParse parse_tokenizer(const json_text::json& value);
// A JSON text holding that object alone (tests, tools).
TokenizerParse parse_tokenizer_text(std::string_view text);

// The object above, merges in rank order; reads back to the same merges.
json_text::ordered_json tokenizer_to_json(const attn::bpe::Tokenizer& t);
// Its text: one merge per line when indent ≥ 0, one line when indent < 0.
std::string tokenizer_json_text(const attn::bpe::Tokenizer& t, int indent);

}  // namespace scene
