// tokenizer_json.cpp — the tokenizer read and written as JSON (tokenizer_json.hpp).
#include "scene/tokenizer_json.hpp"

#include <array>
#include <utility>

namespace scene {
namespace {

using json_text::json;
using json_text::ordered_json;

std::string read_merges(const json& merges, attn::bpe::Tokenizer* t) {
  const std::size_t max = std::size_t(attn::bpe::kMaxVocab - attn::bpe::kMinVocab);
  if (!merges.is_array())
    return std::string("tokenizer.merges: must be a list of [left, right] pairs, got ") +
           json_text::type_name(merges);
  if (merges.size() > max)
    return "tokenizer.merges: has " + std::to_string(merges.size()) + " merges, at most " +
           std::to_string(max) + " (vocabulary 256 to " + std::to_string(attn::bpe::kMaxVocab) + ")";
  for (std::size_t k = 0; k < merges.size(); ++k) {
    const json& m = merges[k];
    const std::string field = "tokenizer.merges[" + std::to_string(k) + "]";
    if (!m.is_array() || m.size() != 2) return field + ": must be a pair [left id, right id]";
    std::array<int, 2> pair{};
    for (std::size_t side = 0; side < 2; ++side) {
      const long long limit = 256 + static_cast<long long>(k);
      if (!m[side].is_number_integer() || m[side].get<long long>() < 0 || m[side].get<long long>() >= limit)
        return field + ": " + (side ? "right" : "left") + " id must be a whole number from 0 to " +
               std::to_string(limit - 1) + " (a merge joins bytes or earlier merges)";
      pair[side] = static_cast<int>(m[side].get<long long>());
    }
    t->merges.push_back(pair);
  }
  return {};
}

}  // namespace

TokenizerParse parse_tokenizer(const json& value) {
  TokenizerParse result;
  if (!value.is_object())
    return {std::nullopt, std::string("tokenizer: must be an object {type, chunks, merges}, got ") +
                              json_text::type_name(value)};
  for (const auto& member : json_text::sorted_members(value)) {
    const std::string& key = *member.first;
    if (key != "type" && key != "chunks" && key != "merges")
      return {std::nullopt, "tokenizer." + json_text::clip_utf8(key) +
                                ": unknown key (a tokenizer has type, chunks, merges)"};
  }
  const auto type = value.find("type");
  if (type == value.end()) return {std::nullopt, "tokenizer.type: missing (\"byte_bpe\")"};
  if (!type->is_string() || type->get<std::string>() != "byte_bpe")
    return {std::nullopt, "tokenizer.type: must be \"byte_bpe\" (the only kind)"};
  const auto chunks = value.find("chunks");
  if (chunks == value.end()) return {std::nullopt, "tokenizer.chunks: missing (\"gpt2\")"};
  if (!chunks->is_string() || chunks->get<std::string>() != "gpt2")
    return {std::nullopt, "tokenizer.chunks: must be \"gpt2\" (the only pre-tokenizer)"};
  const auto merges = value.find("merges");
  if (merges == value.end())
    return {std::nullopt, "tokenizer.merges: missing (a list of [left, right] pairs)"};
  attn::bpe::Tokenizer t;
  if (std::string e = read_merges(*merges, &t); !e.empty()) return {std::nullopt, e};
  if (std::string e = t.finalize(); !e.empty()) return {std::nullopt, e};
  result.tokenizer = std::move(t);
  return result;
}

TokenizerParse parse_tokenizer_text(std::string_view text) {
  json_text::Parsed parsed = json_text::parse(text);
  if (!parsed.error.empty()) return {std::nullopt, "tokenizer: " + parsed.error};
  return parse_tokenizer(parsed.doc);
}

ordered_json tokenizer_to_json(const attn::bpe::Tokenizer& t) {
  ordered_json out;
  out["type"] = "byte_bpe";
  out["chunks"] = "gpt2";
  ordered_json merges = ordered_json::array();
  for (const std::array<int, 2>& m : t.merges) merges.push_back(ordered_json::array({m[0], m[1]}));
  out["merges"] = std::move(merges);
  return out;
}

std::string tokenizer_json_text(const attn::bpe::Tokenizer& t, int indent) {
  if (indent < 0) return json_text::dump(tokenizer_to_json(t), -1);
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  std::string out =
      "{\n" + pad + "\"type\": \"byte_bpe\",\n" + pad + "\"chunks\": \"gpt2\",\n" + pad + "\"merges\": [";
  for (std::size_t k = 0; k < t.merges.size(); ++k)
    out += std::string(k ? "," : "") + "\n" + pad + pad + "[" + std::to_string(t.merges[k][0]) + ", " +
           std::to_string(t.merges[k][1]) + "]";
  out += t.merges.empty() ? "]\n}" : "\n" + pad + "]\n}";
  return out;
}

}  // namespace scene
