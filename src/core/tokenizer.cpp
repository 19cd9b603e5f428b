// tokenizer.cpp — byte-level BPE: chunks, learning, encoding (tokenizer.hpp).
#include "core/tokenizer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace attn::bpe {
namespace {

enum class Kind { Letter, Digit, Space, Other };

Kind kind(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) return Kind::Letter;
  if (c >= '0' && c <= '9') return Kind::Digit;
  if (c == ' ' || (c >= '\t' && c <= '\r')) return Kind::Space;  // \t \n \v \f \r
  return Kind::Other;
}

Kind kind_at(std::string_view s, std::size_t i) {
  return kind(static_cast<unsigned char>(s[i]));
}

// Length of the contraction ('s 't 're 've 'm 'll 'd) starting at `i`, 0 when there is none.
std::size_t contraction(std::string_view s, std::size_t i) {
  if (s[i] != '\'') return 0;
  for (std::string_view c : {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"})
    if (s.substr(i, c.size()) == c) return c.size();
  return 0;
}

// End of the run of bytes of kind `k` starting at `i`.
std::size_t run_end(std::string_view s, std::size_t i, Kind k) {
  while (i < s.size() && kind_at(s, i) == k) ++i;
  return i;
}

// The end of the chunk starting at `i` (i < size): the rule of tokenizer.hpp.
std::size_t chunk_end(std::string_view s, std::size_t i) {
  if (const std::size_t c = contraction(s, i)) return i + c;
  const Kind k = kind_at(s, i);
  if (k != Kind::Space) return run_end(s, i, k);
  // " ?letters+ | ?digits+ | ?other+": one space, then a run of non-space bytes.
  if (s[i] == ' ' && i + 1 < s.size() && kind_at(s, i + 1) != Kind::Space)
    return run_end(s, i + 1, kind_at(s, i + 1));
  const std::size_t end = run_end(s, i, Kind::Space);
  if (end == s.size()) return end;  // whitespace at the end of the text: all of it
  // Followed by a non-space: \s+(?!\S) leaves the last byte to the next chunk; a single byte is \s+.
  return end - i >= 2 ? end - 1 : end;
}

std::uint32_t pair_key(int left, int right) {
  return static_cast<std::uint32_t>(left) << 16 | static_cast<std::uint32_t>(right);
}

// Replaces every (a, b) in `syms` by `id`, left to right without overlap.
void merge_pair(std::vector<int>& syms, int a, int b, int id) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < syms.size(); ++out) {
    if (i + 1 < syms.size() && syms[i] == a && syms[i + 1] == b) {
      syms[out] = id;
      i += 2;
    } else {
      syms[out] = syms[i++];
    }
  }
  syms.resize(out);
}

// The learner's state: each distinct chunk as its current tokens with its count, the count of every
// pair (a dense kMaxVocab² table) and, per pair, the chunks that may hold it (possibly stale or
// repeated: a chunk is recounted as a whole, so a stale entry costs time, never a wrong count).
struct Learner {
  std::vector<std::vector<int>> words;
  std::vector<long long> freq;
  std::vector<long long> counts = std::vector<long long>(std::size_t(kMaxVocab) * kMaxVocab, 0);
  std::unordered_map<std::uint32_t, std::vector<int>> where;
  std::vector<int> seen_at;  // the step that last rewrote each word (to skip repeats in `where`)

  static std::size_t cell(int a, int b) { return std::size_t(a) * kMaxVocab + std::size_t(b); }

  static constexpr int kRecordAll = -1, kRecordNone = -2;

  // Adds `sign` × the word's count to each of its pairs, and records the word under its pairs:
  // every pair (kRecordAll), none (kRecordNone) or those that hold the token `record`.
  void count_word(int w, int sign, int record) {
    const std::vector<int>& s = words[std::size_t(w)];
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
      counts[cell(s[i], s[i + 1])] += sign * freq[std::size_t(w)];
      if (record == kRecordAll || (record >= 0 && (s[i] == record || s[i + 1] == record)))
        where[pair_key(s[i], s[i + 1])].push_back(w);
    }
  }

  explicit Learner(std::string_view text) {
    std::unordered_map<std::string_view, long long> chunk_counts;
    for (std::string_view c : split_chunks(text))
      if (c.size() >= 2) ++chunk_counts[c];  // a one-byte chunk holds no pair
    for (const auto& [chunk, n] : chunk_counts) {
      words.emplace_back(chunk.begin(), chunk.end());
      for (int& sym : words.back()) sym = static_cast<unsigned char>(sym);
      freq.push_back(n);
    }
    seen_at.assign(words.size(), -1);
    for (std::size_t w = 0; w < words.size(); ++w) count_word(int(w), +1, kRecordAll);
  }

  // The most frequent pair among ids < vocab, ties → smallest (left, right); false when none occurs.
  bool best(int vocab, int* left, int* right) const {
    long long top = 0;
    for (int a = 0; a < vocab; ++a) {
      const long long* row = &counts[cell(a, 0)];
      for (int b = 0; b < vocab; ++b)
        if (row[b] > top) top = row[b], *left = a, *right = b;
    }
    return top > 0;
  }

  void apply(int a, int b, int id) {
    const auto it = where.find(pair_key(a, b));
    if (it == where.end()) return;
    const std::vector<int> holders = std::move(it->second);
    where.erase(it);
    for (int w : holders) {
      if (seen_at[std::size_t(w)] == id) continue;
      seen_at[std::size_t(w)] = id;
      count_word(w, -1, kRecordNone);
      merge_pair(words[std::size_t(w)], a, b, id);
      count_word(w, +1, id);
    }
  }
};

}  // namespace

std::vector<std::string_view> split_chunks(std::string_view text) {
  std::vector<std::string_view> chunks;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = chunk_end(text, i);
    chunks.push_back(text.substr(i, end - i));
    i = end;
  }
  return chunks;
}

std::string check(const Tokenizer& t) {
  if (t.merges.size() > std::size_t(kMaxVocab - kMinVocab))
    return "tokenizer.merges: has " + std::to_string(t.merges.size()) + " merges, at most " +
           std::to_string(kMaxVocab - kMinVocab) + " (vocabulary " + std::to_string(kMinVocab) + " to " +
           std::to_string(kMaxVocab) + ")";
  for (std::size_t k = 0; k < t.merges.size(); ++k) {
    const int limit = 256 + static_cast<int>(k);
    for (int side = 0; side < 2; ++side) {
      const int id = t.merges[k][std::size_t(side)];
      if (id < 0 || id >= limit)
        return "tokenizer.merges[" + std::to_string(k) + "]: " + (side ? "right" : "left") + " id " +
               std::to_string(id) + " must be from 0 to " + std::to_string(limit - 1) +
               " (a merge joins bytes or earlier merges)";
    }
  }
  return {};
}

std::string Tokenizer::finalize() {
  pieces_.clear();
  rank_.clear();
  if (std::string e = check(*this); !e.empty()) return e;
  pieces_.reserve(std::size_t(vocab_size()));
  for (int b = 0; b < 256; ++b) pieces_.emplace_back(1, static_cast<char>(b));
  for (std::size_t k = 0; k < merges.size(); ++k) {
    pieces_.push_back(pieces_[std::size_t(merges[k][0])] + pieces_[std::size_t(merges[k][1])]);
    // A pair merged twice (possible in a hand-written list) keeps its first, lower rank.
    rank_.emplace(pair_key(merges[k][0], merges[k][1]), static_cast<int>(k));
  }
  return {};
}

Tokenizer learn(std::string_view text, int vocab_size) {
  vocab_size = std::clamp(vocab_size, kMinVocab, kMaxVocab);
  Learner learner(text);
  Tokenizer t;
  for (int id = 256; id < vocab_size; ++id) {
    int a = 0, b = 0;
    if (!learner.best(id, &a, &b)) break;
    t.merges.push_back({a, b});
    learner.apply(a, b, id);
  }
  t.finalize();
  return t;
}

namespace {

// One chunk's ids by GPT-2's rule: the present pair of lowest rank merged everywhere, repeatedly.
void encode_chunk(const Tokenizer& t, std::string_view chunk, std::vector<int>* out) {
  std::vector<int> syms(chunk.begin(), chunk.end());
  for (int& s : syms) s = static_cast<unsigned char>(s);
  while (syms.size() >= 2) {
    int best_rank = -1;
    for (std::size_t i = 0; i + 1 < syms.size(); ++i) {
      const auto it = t.rank_.find(pair_key(syms[i], syms[i + 1]));
      if (it != t.rank_.end() && (best_rank < 0 || it->second < best_rank)) best_rank = it->second;
    }
    if (best_rank < 0) break;
    const std::array<int, 2>& m = t.merges[std::size_t(best_rank)];
    merge_pair(syms, m[0], m[1], 256 + best_rank);
  }
  out->insert(out->end(), syms.begin(), syms.end());
}

}  // namespace

std::vector<int> encode(const Tokenizer& t, std::string_view text) {
  std::vector<int> ids;
  ids.reserve(text.size() / 3);
  // Each distinct chunk is encoded once (English repeats its words).
  std::unordered_map<std::string_view, std::vector<int>> cache;
  for (std::string_view chunk : split_chunks(text)) {
    if (chunk.size() == 1) {
      ids.push_back(static_cast<unsigned char>(chunk[0]));
      continue;
    }
    auto [it, fresh] = cache.try_emplace(chunk);
    if (fresh) encode_chunk(t, chunk, &it->second);
    ids.insert(ids.end(), it->second.begin(), it->second.end());
  }
  return ids;
}

std::string decode(const Tokenizer& t, const std::vector<int>& ids) {
  std::string text;
  for (int id : ids) {
    if (id >= 0 && id < t.vocab_size() && t.finalized())
      text += t.bytes(id);
    else
      text += "\xEF\xBF\xBD";  // U+FFFD
  }
  return text;
}

namespace {

// Length of the valid UTF-8 character at s[i] (1–4), or 0 when the bytes there are not one
// (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, > U+10FFFF).
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c == 0xE0)
    n = 3, lo = 0xA0;
  else if (c == 0xED)
    n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF)
    n = 3;
  else if (c == 0xF0)
    n = 4, lo = 0x90;
  else if (c == 0xF4)
    n = 4, hi = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3)
    n = 4;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const unsigned char d = static_cast<unsigned char>(s[i + k]);
    if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF)) return 0;
  }
  return n;
}

}  // namespace

std::string display_piece(const Tokenizer& t, int id) {
  if (id < 0 || id >= t.vocab_size() || !t.finalized()) return "<bad id " + std::to_string(id) + ">";
  const std::string& b = t.bytes(id);
  std::string shown;
  for (std::size_t i = 0; i < b.size();) {
    if (const std::size_t n = utf8_length(b, i)) {
      shown.append(b, i, n);
      i += n;
    } else {
      static const char kHex[] = "0123456789ABCDEF";
      const unsigned char c = static_cast<unsigned char>(b[i++]);
      shown += "<0x";
      shown += kHex[c >> 4];
      shown += kHex[c & 15];
      shown += '>';
    }
  }
  return shown;
}

}  // namespace attn::bpe
