// The byte-level BPE tokenizer (core/tokenizer.hpp, scene/tokenizer_json.hpp). References: the chunk
// rule against GPT-2's own pre-tokenizer regular expression
//     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// run by Python's `regex` module (the table below was recorded from it on random ASCII strings); the
// textbook BPE example ("aaabdaaabac": aa, then ab, then aaab); GPT-2's encoding rule (lowest rank
// first, not left to right) on a hand-made merge list; decode(encode(x)) == x on random bytes.
#include "core/tokenizer.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scene/tokenizer_json.hpp"

namespace bpe = attn::bpe;

namespace {

std::vector<std::string> chunks_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view c : bpe::split_chunks(text)) out.emplace_back(c);
  return out;
}

bpe::Tokenizer hand_made(std::vector<std::array<int, 2>> merges) {
  bpe::Tokenizer t;
  t.merges = std::move(merges);
  REQUIRE(t.finalize() == "");
  return t;
}

// A small English text to learn on (Jerome K. Jerome, "Three Men in a Boat", 1889: public domain).
const char* kEnglish =
    "There were four of us - George, and William Samuel Harris, and myself, and Montmorency. We were "
    "sitting in my room, smoking, and talking about how bad we were - bad from a medical point of view I "
    "mean, of course. We were all feeling seedy, and we were getting quite nervous about it. Harris said "
    "he felt such extraordinary fits of giddiness come over him at times, that he hardly knew what he was "
    "doing; and then George said that he had fits of giddiness too, and hardly knew what he was doing. "
    "With me, it was my liver that was out of order. I knew it was my liver that was out of order, "
    "because I had just been reading a patent liver-pill circular, in which were detailed the various "
    "symptoms by which a man could tell when his liver was out of order. I had them all.\n\n"
    "It's a most extraordinary thing, but I never read a patent medicine advertisement without being "
    "impelled to the conclusion that I am suffering from the particular disease therein dealt with in its "
    "most virulent form. The diagnosis seems in every case to correspond exactly with all the sensations "
    "that I have ever felt. Don't you think so? I'll say it's 1889, and we've 42 reasons.\n";

// A deterministic generator (xorshift64*), the same bits natively and in wasm.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

// A random code point's UTF-8 (ASCII, Latin, CJK, emoji; no surrogates).
void append_utf8(Rng& r, std::string* s) {
  const int band = r.below(4);
  std::uint32_t cp = band == 0   ? 0x20 + r.below(0x5F)
                     : band == 1 ? 0xA0 + r.below(0x700)
                     : band == 2 ? 0x4E00 + r.below(0x5000)
                                 : 0x1F300 + r.below(0x300);
  if (cp < 0x80) {
    *s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *s += static_cast<char>(0xC0 | cp >> 6), *s += static_cast<char>(0x80 | (cp & 63));
  } else if (cp < 0x10000) {
    *s += static_cast<char>(0xE0 | cp >> 12), *s += static_cast<char>(0x80 | (cp >> 6 & 63));
    *s += static_cast<char>(0x80 | (cp & 63));
  } else {
    *s += static_cast<char>(0xF0 | cp >> 18), *s += static_cast<char>(0x80 | (cp >> 12 & 63));
    *s += static_cast<char>(0x80 | (cp >> 6 & 63)), *s += static_cast<char>(0x80 | (cp & 63));
  }
}

}  // namespace

TEST_CASE("bpe: chunks follow GPT-2's pre-tokenizer") {
  // Each checked against GPT-2's regex: "'s" is a contraction; the two spaces before "end" split as
  // \s+(?!\S) (the first) and " ?\p{L}+" (the second, joining the word).
  CHECK(chunks_of("Hello world's  end") == std::vector<std::string>{"Hello", " world", "'s", " ", " end"});
  CHECK(chunks_of("don't stop!!") == std::vector<std::string>{"don", "'t", " stop", "!!"});
  CHECK(chunks_of("a\n\nb") == std::vector<std::string>{"a", "\n", "\n", "b"});
  CHECK(chunks_of("x  \n y") == std::vector<std::string>{"x", "  \n", " y"});
  CHECK(chunks_of("  ") == std::vector<std::string>{"  "});
  CHECK(chunks_of("I'LL") == std::vector<std::string>{"I", "'", "LL"});  // contractions are lower case
  CHECK(chunks_of("3.14") == std::vector<std::string>{"3", ".", "14"});
  CHECK(chunks_of("it's 'quoted' ''s") ==
        std::vector<std::string>{"it", "'s", " '", "quoted", "'", " ''", "s"});
  CHECK(chunks_of("").empty());
  // Bytes ≥ 0x80 are letters: "Zoë" and "café" stay whole (as GPT-2, whose \p{L} has ë and é); unlike
  // GPT-2, a non-ASCII punctuation mark joins the word ("a—b" is one chunk; GPT-2: a | — | b).
  CHECK(chunks_of("Zoë 42 café") == std::vector<std::string>{"Zoë", " 42", " café"});
  CHECK(chunks_of("a\xE2\x80\x94"
                  "b") == std::vector<std::string>{"a\xE2\x80\x94"
                                                   "b"});
  struct Case {
    const char* text;
    std::vector<std::string> chunks;
  };
  // Random ASCII strings and their chunks by GPT-2's regex (Python `regex`, recorded).
  const Case recorded[] = {
      {" t!Z9d0smZv", {" t", "!", "Z", "9", "d", "0", "smZv"}},
      {"Z9ll9\n9", {"Z", "9", "ll", "9", "\n", "9"}},
      {"lZm0\n!!mZmmtZ\nZd '", {"lZm", "0", "\n", "!!", "mZmmtZ", "\n", "Zd", " '"}},
      {" d0m'd- 0mm! s", {" d", "0", "m", "'d", "-", " 0", "mm", "!", " s"}},
      {"d\r9m", {"d", "\r", "9", "m"}},
      {". ", {".", " "}},
      {"-dl'rmrs'\n \r\n9m'", {"-", "dl", "'", "rmrs", "'", "\n \r", "\n", "9", "m", "'"}},
      {"e'r'.90vl ' elZ-9", {"e", "'", "r", "'.", "90", "vl", " '", " elZ", "-", "9"}},
      {"m''\rs.emr99\te\r-9Z\r",
       {"m", "''", "\r", "s", ".", "emr", "99", "\t", "e", "\r", "-", "9", "Z", "\r"}},
      {"!m-r'\rt-sa", {"!", "m", "-", "r", "'", "\r", "t", "-", "sa"}},
      {"s .0eZ ' \ntte9 ", {"s", " .", "0", "eZ", " '", " ", "\n", "tte", "9", " "}},
      {"td\t ld\t\rls-t\n 9", {"td", "\t", " ld", "\t", "\r", "ls", "-", "t", "\n", " 9"}},
      {" \n-\nae", {" ", "\n", "-", "\n", "ae"}},
      {"\t'a ld", {"\t", "'", "a", " ld"}},
      {".m' \rv.!-Zr-", {".", "m", "'", " ", "\r", "v", ".!-", "Zr", "-"}},
      {"tttt0e!tZ 9 r 0'.Z", {"tttt", "0", "e", "!", "tZ", " 9", " r", " 0", "'.", "Z"}},
      {"am d", {"am", " d"}},
      {"s.a9", {"s", ".", "a", "9"}},
      {".t !\ts.", {".", "t", " !", "\t", "s", "."}},
      {"e00eree'9 0'", {"e", "00", "eree", "'", "9", " 0", "'"}},
      {"e\r va vs ", {"e", "\r", " va", " vs", " "}},
      {"av'!9\r\tvs s\nddv'!\n", {"av", "'!", "9", "\r", "\t", "vs", " s", "\n", "ddv", "'!", "\n"}},
      {"\nt\n ves", {"\n", "t", "\n", " ves"}},
      {"a", {"a"}},
      {"e\t \r.srss", {"e", "\t ", "\r", ".", "srss"}},
      {"\n0\n", {"\n", "0", "\n"}},
      {" ' e..ae!s!9-0t\r", {" '", " e", "..", "ae", "!", "s", "!", "9", "-", "0", "t", "\r"}},
      {"e l!'9t", {"e", " l", "!'", "9", "t"}},
      {"t9   a mr! ..e-", {"t", "9", "  ", " a", " mr", "!", " ..", "e", "-"}},
      {" dd aa!0v l ", {" dd", " aa", "!", "0", "v", " l", " "}},
      {"a\t 'v\nm", {"a", "\t", " '", "v", "\n", "m"}},
      {"\tdl Zsr-mvl", {"\t", "dl", " Zsr", "-", "mvl"}},
      {" d vvar .a   e.0d", {" d", " vvar", " .", "a", "  ", " e", ".", "0", "d"}},
      {"'-", {"'-"}},
      {"vde0dZ\n \tZ0vrda9r", {"vde", "0", "dZ", "\n ", "\t", "Z", "0", "vrda", "9", "r"}},
      {".v.v \r\trvde", {".", "v", ".", "v", " \r", "\t", "rvde"}},
      {"\n\rv\td r l0tr'9-\nl",
       {"\n", "\r", "v", "\t", "d", " r", " l", "0", "tr", "'", "9", "-", "\n", "l"}},
      {" -'", {" -'"}},
      {" \r!-", {" ", "\r", "!-"}},
      {" \t r\n0te -\n ", {" \t", " r", "\n", "0", "te", " -", "\n "}},
      {"vt'l s'9sa'drr", {"vt", "'", "l", " s", "'", "9", "sa", "'d", "rr"}},
      {"t", {"t"}},
      {"v.'v90\n09\t\t", {"v", ".'", "v", "90", "\n", "09", "\t\t"}},
      {" \t", {" \t"}},
      {"l-\tt ", {"l", "-", "\t", "t", " "}},
      {"vme\r'9\tZ\r l9\ta!9\t9",
       {"vme", "\r", "'", "9", "\t", "Z", "\r", " l", "9", "\t", "a", "!", "9", "\t", "9"}},
      {"9\t0ra'dl", {"9", "\t", "0", "ra", "'d", "l"}},
      {". Zv\r\n0 \t", {".", " Zv", "\r", "\n", "0", " \t"}},
      {"  ", {"  "}},
      {"!'v 'rv- \t", {"!'", "v", " '", "rv", "-", " \t"}},
      {"a\tZaavd ve\nr", {"a", "\t", "Zaavd", " ve", "\n", "r"}},
      {"-!l-", {"-!", "l", "-"}},
      {"dtv'\r \n' \r! tsZ ", {"dtv", "'", "\r ", "\n", "'", " ", "\r", "!", " tsZ", " "}},
      {"9", {"9"}},
      {"l Z9-tv-'", {"l", " Z", "9", "-", "tv", "-'"}},
      {"\r'Zr  \tr", {"\r", "'", "Zr", "  ", "\t", "r"}},
      {"\t", {"\t"}},
      {"'d'\nZ' s a't", {"'d", "'", "\n", "Z", "'", " s", " a", "'t"}},
      {"e\tv", {"e", "\t", "v"}},
      {"\nva9\t9 ", {"\n", "va", "9", "\t", "9", " "}},
  };
  for (const Case& c : recorded) {
    CAPTURE(c.text);
    CHECK(chunks_of(c.text) == c.chunks);
  }
}

TEST_CASE("bpe: learning the textbook example aaabdaaabac") {
  const bpe::Tokenizer t = bpe::learn("aaabdaaabac", 259);
  // aa occurs 4 times (overlapping pairs count); then (Z, a) and (a, b) twice each: the tie goes to the
  // smaller pair (97, 98); then Z Y twice.
  REQUIRE(t.merges.size() == 3);
  CHECK(t.merges[0] == std::array<int, 2>{97, 97});
  CHECK(t.merges[1] == std::array<int, 2>{97, 98});
  CHECK(t.merges[2] == std::array<int, 2>{256, 257});
  CHECK(t.bytes(258) == "aaab");
  CHECK(bpe::encode(t, "aaabdaaabac") == std::vector<int>{258, 'd', 258, 'a', 'c'});
  CHECK(t.vocab_size() == 259);
}

TEST_CASE("bpe: ties go to the smallest (left, right); pairs never cross chunks; learning stops early") {
  // Chunks "xb", " xa": (x, b), (' ', x), (x, a) once each; the smallest is (' ', x) = (32, 120). The
  // pair (b, ' ') spans two chunks and is never counted.
  const bpe::Tokenizer t = bpe::learn("xb xa", 300);
  REQUIRE(t.merges.size() >= 1);
  CHECK(t.merges[0] == std::array<int, 2>{32, 120});
  for (const auto& m : t.merges) CHECK_FALSE((m[0] == 'b' && m[1] == ' '));
  // "a b a b a b": chunks "a", " b" ×3, " a" ×2: (32, 98) three times, then (32, 97) twice, then no
  // pair is left: vocabulary 258 although 300 was asked.
  const bpe::Tokenizer u = bpe::learn("a b a b a b", 300);
  REQUIRE(u.merges.size() == 2);
  CHECK(u.merges[0] == std::array<int, 2>{32, 98});
  CHECK(u.merges[1] == std::array<int, 2>{32, 97});
  CHECK(u.vocab_size() == 258);
  // The size asked is clamped to 256 … 1024; 256 learns nothing.
  CHECK(bpe::learn(kEnglish, 100).merges.empty());
  CHECK(bpe::learn(kEnglish, 256).vocab_size() == 256);
}

TEST_CASE("bpe: encoding applies the lowest-rank merge first (GPT-2), not left to right") {
  // merges: 256 = (b, c), 257 = (a, b). "abc": (b, c) has the lower rank → [a, bc]; a left-to-right
  // greedy pass would give [ab, c].
  const bpe::Tokenizer t = hand_made({{'b', 'c'}, {'a', 'b'}});
  CHECK(bpe::encode(t, "abc") == std::vector<int>{'a', 256});
  CHECK(bpe::encode(t, "abab") == std::vector<int>{257, 257});
  // Merges stay inside chunks: "a bc" is "a" | " bc".
  CHECK(bpe::encode(t, "a bc") == std::vector<int>{'a', ' ', 256});
  CHECK(bpe::encode(t, "").empty());
}

TEST_CASE("bpe: learned on English, encoding compresses and is deterministic") {
  const bpe::Tokenizer t = bpe::learn(kEnglish, 400);
  CHECK(t.vocab_size() == 400);
  CHECK(bpe::check(t) == "");
  const bpe::Tokenizer again = bpe::learn(kEnglish, 400);
  CHECK(again.merges == t.merges);
  const std::vector<int> ids = bpe::encode(t, kEnglish);
  const std::string text = kEnglish;
  CHECK(bpe::decode(t, ids) == text);
  // 144 merges learned on this very text: well under half the bytes.
  CHECK(ids.size() * 2 < text.size());
}

TEST_CASE("bpe: the incremental learner equals a plain recount of every pair at every step") {
  // The reference: every chunk occurrence kept separately, every pair recounted from scratch each step
  // (a std::map, so the first of the largest counts is the smallest (left, right)), merged left to right.
  std::vector<std::vector<int>> chunks;
  for (std::string_view c : bpe::split_chunks(kEnglish)) {
    chunks.emplace_back();
    for (char b : c) chunks.back().push_back(static_cast<unsigned char>(b));
  }
  std::vector<std::array<int, 2>> expected;
  for (int id = 256; id < 600; ++id) {
    std::map<std::pair<int, int>, long long> counts;
    for (const auto& c : chunks)
      for (std::size_t i = 0; i + 1 < c.size(); ++i) ++counts[{c[i], c[i + 1]}];
    std::pair<int, int> top{};
    long long top_count = 0;
    for (const auto& [pair, n] : counts)
      if (n > top_count) top = pair, top_count = n;
    if (top_count == 0) break;
    expected.push_back({top.first, top.second});
    for (auto& c : chunks) {
      std::vector<int> merged;
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (i + 1 < c.size() && c[i] == top.first && c[i + 1] == top.second) {
          merged.push_back(id);
          ++i;
        } else {
          merged.push_back(c[i]);
        }
      }
      c = merged;
    }
  }
  const bpe::Tokenizer t = bpe::learn(kEnglish, 600);
  CHECK(t.merges.size() == expected.size());
  CHECK(t.merges == expected);
  // This text's first merge, counted with Python over GPT-2's regex chunks: " w" (" were", " was",
  // " with" …) 24 times, ahead of "in" 23, "er" 22, " a" 21, " t" 21. Across chunks, "e " would be
  // far more frequent, but a space never ends a chunk before a word.
  CHECK(t.merges[0] == std::array<int, 2>{' ', 'w'});
  CHECK(t.merges[1] == std::array<int, 2>{'i', 'n'});
}

TEST_CASE("bpe: decode(encode(x)) == x on 2,000 random byte strings") {
  const bpe::Tokenizer t = bpe::learn(kEnglish, 512);
  Rng r{0x9E3779B97F4A7C15ull};
  for (int trial = 0; trial < 2000; ++trial) {
    std::string s;
    const int length = r.below(301);
    const int style = trial % 3;  // valid UTF-8, any bytes, or English with random bytes mixed in
    while (static_cast<int>(s.size()) < length) {
      if (style == 0)
        append_utf8(r, &s);
      else if (style == 1 || r.below(8) == 0)
        s += static_cast<char>(r.below(256));
      else
        s += kEnglish[r.below(200)];
    }
    const std::vector<int> ids = bpe::encode(t, s);
    for (int id : ids) REQUIRE((id >= 0 && id < t.vocab_size()));
    REQUIRE(bpe::decode(t, ids) == s);
  }
  CHECK(bpe::decode(t, {-1, 512}) == "\xEF\xBF\xBD\xEF\xBF\xBD");  // ids out of range: U+FFFD
}

TEST_CASE("bpe: display_piece shows partial characters as <0xNN>") {
  // 256 = é (C3 A9), 257 = " " + E2 (the first byte of an em dash), 258 = 80 94 (its other two),
  // 259 = 257 + 258 = " —".
  const bpe::Tokenizer t = hand_made({{0xC3, 0xA9}, {' ', 0xE2}, {0x80, 0x94}, {257, 258}});
  CHECK(bpe::display_piece(t, 256) == "é");
  CHECK(bpe::display_piece(t, 0xC3) == "<0xC3>");
  CHECK(bpe::display_piece(t, 257) == " <0xE2>");
  CHECK(bpe::display_piece(t, 258) == "<0x80><0x94>");
  CHECK(bpe::display_piece(t, 259) == " \xE2\x80\x94");
  CHECK(bpe::display_piece(t, ' ') == " ");
  CHECK(bpe::display_piece(t, '\n') == "\n");
  CHECK(bpe::display_piece(t, 0xFF) == "<0xFF>");
  CHECK(bpe::display_piece(t, 260) == "<bad id 260>");
  // Overlong (C0 AF) and surrogate (ED A0 80) forms are not valid UTF-8.
  const bpe::Tokenizer u = hand_made({{0xC0, 0xAF}, {0xED, 0xA0}, {257, 0x80}});
  CHECK(bpe::display_piece(u, 256) == "<0xC0><0xAF>");
  CHECK(bpe::display_piece(u, 258) == "<0xED><0xA0><0x80>");
}

TEST_CASE("bpe: check() names the bad merge") {
  bpe::Tokenizer t;
  t.merges = {{97, 98}, {256, 257}};
  CHECK(bpe::check(t) ==
        "tokenizer.merges[1]: right id 257 must be from 0 to 256 (a merge joins bytes or earlier merges)");
  CHECK(t.finalize() != "");
  CHECK_FALSE(t.finalized());
  t.merges = {{-1, 98}};
  CHECK(bpe::check(t).find("tokenizer.merges[0]: left id -1 must be from 0 to 255") == 0);
  t.merges.assign(769, {97, 97});
  CHECK(bpe::check(t).find("tokenizer.merges: has 769 merges, at most 768") == 0);
  t.merges.assign(768, {97, 97});
  CHECK(bpe::check(t) == "");
}

TEST_CASE("bpe: the tokenizer as JSON reads back; bad JSON names the field") {
  const bpe::Tokenizer t = bpe::learn(kEnglish, 300);
  for (int indent : {-1, 2}) {
    const std::string text = scene::tokenizer_json_text(t, indent);
    const scene::TokenizerParse back = scene::parse_tokenizer_text(text);
    REQUIRE(back.ok());
    CHECK(back.tokenizer->merges == t.merges);
    CHECK(bpe::encode(*back.tokenizer, kEnglish) == bpe::encode(t, kEnglish));
  }
  CHECK(scene::tokenizer_json_text(hand_made({{97, 98}}), -1) ==
        R"({"type":"byte_bpe","chunks":"gpt2","merges":[[97,98]]})");
  const auto error_of = [](const char* text) { return scene::parse_tokenizer_text(text).error; };
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":[]})") == "");
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":[[97,98],[97,300]]})") ==
        "tokenizer.merges[1]: right id must be a whole number from 0 to 256 (a merge joins bytes or "
        "earlier merges)");
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":[[97,98],[1.5,2]]})")
            .find("tokenizer.merges[1]: left id must be a whole number") == 0);
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":[[97,98],[97]]})") ==
        "tokenizer.merges[1]: must be a pair [left id, right id]");
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":{}})")
            .find("tokenizer.merges: must be a list") == 0);
  CHECK(error_of(R"({"type":"wordpiece","chunks":"gpt2","merges":[]})").find("tokenizer.type:") == 0);
  CHECK(error_of(R"({"chunks":"gpt2","merges":[]})").find("tokenizer.type: missing") == 0);
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"none","merges":[]})").find("tokenizer.chunks:") == 0);
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2"})").find("tokenizer.merges: missing") == 0);
  CHECK(error_of(R"({"type":"byte_bpe","chunks":"gpt2","merges":[],"vocab":3})") ==
        "tokenizer.vocab: unknown key (a tokenizer has type, chunks, merges)");
  CHECK(error_of("[1]").find("tokenizer: must be an object") == 0);
  CHECK(error_of("{").find("tokenizer: ") == 0);
  std::string many = R"({"type":"byte_bpe","chunks":"gpt2","merges":[)";
  for (int k = 0; k < 769; ++k) many += std::string(k ? "," : "") + "[97,97]";
  CHECK(error_of((many + "]}").c_str()).find("tokenizer.merges: has 769 merges, at most 768") == 0);
}
