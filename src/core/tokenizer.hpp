// tokenizer.hpp — byte-level BPE (GPT-2's tokenizer idea), learned by our own code. Pure: no I/O.
//
// Tokens. Ids 0…255 are the 256 single bytes, so every byte string has an encoding (the byte
// fallback: a byte never merged stays its own id). Id 256 + k is merges[k] = {left, right}: the
// token whose bytes are bytes(left) followed by bytes(right), with left, right < 256 + k. The
// vocabulary is 256 + merges.size(), from kMinVocab to kMaxVocab. A token's bytes may be part of a
// UTF-8 character (display_piece shows such bytes as <0xE2>).
//
// Chunks (GPT-2's pre-tokenizer). Text is first cut into chunks and merges never cross a chunk's
// edge, so a token never spans a word and the space or punctuation after it. GPT-2 writes the rule
// as the regular expression
//     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// tried alternative by alternative at each position. Here it is written for bytes, without a regex
// library: "letters" are the ASCII letters and every byte ≥ 0x80 (so a UTF-8 letter, or any other
// non-ASCII character, stays whole inside a word), "digits" are 0–9, "whitespace" is space, \t, \n,
// \v, \f and \r, "other" is every other byte. At each position, the first that applies:
//   1. an apostrophe starting 's 't 're 've 'm 'll 'd (lower case, as GPT-2) → that contraction;
//   2. an optional single space, then a run of letters, or of digits, or of other bytes;
//   3. a run of whitespace: all of it at the end of the text; followed by a non-space, all but its
//      last byte (\s+(?!\S)), which then starts the next chunk (a space joins the word after it);
//      a single whitespace byte before a non-space is a chunk of its own (\s+).
// Examples: "Hello world's  end" → "Hello" | " world" | "'s" | " " | " end";
//           "don't stop!!" → "don" | "'t" | " stop" | "!!";   "a\n\nb" → "a" | "\n" | "\n" | "b";
//           "x  \n y" → "x" | "  \n" | " y";   "Zoë 42" → "Zoë" | " 42".
//
// Learning (learn). The chunks of the training text are counted once (each distinct chunk with its
// number of occurrences). Each step takes the adjacent pair of tokens that occurs most often inside
// chunks (a pair in a chunk seen c times counts c; "aaa" holds the pair (a, a) twice), ties broken
// by the smallest (left, right) ids, appends it to merges and replaces its occurrences in every
// chunk, left to right without overlap ("aaa" → [aa, a]). Stops at the asked vocabulary size, or
// earlier when no pair is left. Deterministic: the same text and size give the same merges.
// Example: "aaabdaaabac" (one chunk) at vocabulary 259 → 256 = aa (count 4), then "ZabdZabac" has
// (Z, a) and (a, b) twice each: the tie goes to (a, b) = (97, 98) < (256, 97), 257 = ab, then
// 258 = (256, 257) = aaab: "ZYdZYac" → "XdXac", the textbook example.
//
// Encoding (encode, GPT-2's rule). Each chunk starts as its bytes; repeatedly, among the adjacent
// pairs present, the one merged earliest (lowest k) is replaced everywhere in the chunk, left to
// right, until no pair present is a merge. decode(encode(x)) == x for every byte string x.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn::bpe {

constexpr int kMinVocab = 256, kMaxVocab = 1024;

struct Tokenizer {
  // merges[k] = {left id, right id}, both < 256 + k: the token 256 + k.
  std::vector<std::array<int, 2>> merges;

  int vocab_size() const { return 256 + static_cast<int>(merges.size()); }
  // The raw bytes of token `id` (0 ≤ id < vocab_size()); needs finalize().
  const std::string& bytes(int id) const { return pieces_[static_cast<std::size_t>(id)]; }

  // Checks the merges (check()) and builds the tables bytes() and encode() read: "" on success, else
  // check()'s message (and the tables are left empty). learn() and the JSON reader call it; call it
  // again after changing merges by hand.
  std::string finalize();
  bool finalized() const { return pieces_.size() == static_cast<std::size_t>(vocab_size()); }

  // The tables (plain values: a Tokenizer copies as a whole).
  std::vector<std::string> pieces_;              // bytes of each id
  std::unordered_map<std::uint32_t, int> rank_;  // (left << 16 | right) → k, the merge's rank
};

// The chunks of `text`, in order, views into it; their concatenation is `text`.
std::vector<std::string_view> split_chunks(std::string_view text);

// Learn merges on `text` up to vocab_size (kMinVocab … kMaxVocab; clamped to that range). The result is
// finalized.
Tokenizer learn(std::string_view text, int vocab_size);

// The ids of `text` (t finalized). Any bytes encode.
std::vector<int> encode(const Tokenizer& t, std::string_view text);

// The bytes of the ids, concatenated: the exact inverse of encode. An id outside 0 … vocab_size()−1
// (a caller's error, which the model's readers refuse first) is written as U+FFFD.
std::string decode(const Tokenizer& t, const std::vector<int>& ids);

// Token `id` as a learner sees it, always valid UTF-8: its bytes where they form valid UTF-8, each
// byte that does not (part of a character) written as <0xE2> (upper-case hex). Spaces and newlines
// stay as they are. An id out of range → "<bad id N>".
std::string display_piece(const Tokenizer& t, int id);

// "" when the merges are valid: vocabulary kMinVocab … kMaxVocab, each merges[k] of ids in
// 0 … 255 + k; else "tokenizer.merges[k]: <reason>" (or "tokenizer.merges: <reason>" for the size).
std::string check(const Tokenizer& t);

}  // namespace attn::bpe
