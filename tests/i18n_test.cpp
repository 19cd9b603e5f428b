// i18n_test.cpp — the translation tables (ui/i18n*.cpp): every key has a text in every language,
// once; formats keep their %d and {1} … {5}; the formulas' symbols are the same as in English; every
// character is in the UI font's subset; a language's two data files (the first load's texts, the full
// build's) carry its table exactly; the walk-through and the quiz speak the chosen language.
#include "ui/text/i18n.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "scene/json_text.hpp"
#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "ui/modes/walk/quiz.hpp"
#include "ui/modes/walk/walk_steps.hpp"

namespace {

// The formula-like words of a text: runs of symbols (= · Σ √ ∞ − ÷ ᵀ _ and digits next to them) and
// standalone capital letters Q K V Y A M X (the matrices), in order. A translation must keep them.
std::vector<std::string> symbols(const std::string& text) {
  static const std::vector<std::string> marks = {"=",   "·",  "Σ",  "√", "∞",      "−",   "÷",   "ᵀ",
                                                 "_",   "%d", "%s", "✓", "{1}",    "{2}", "{3}", "{4}",
                                                 "{5}", "@",  "≈",  "≥", "[0, 1]", "\n"};
  std::vector<std::string> out;
  for (const std::string& m : marks) {
    std::size_t at = 0;
    while ((at = text.find(m, at)) != std::string::npos) {
      out.push_back(m);
      at += m.size();
    }
  }
  // Standalone matrix letters: a capital with no letter on either side.
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (std::string("QKVYAMX").find(c) == std::string::npos) continue;
    // A letter: ASCII, or any byte of a multi-byte UTF-8 character (á, ö, ß …).
    auto letter = [](char ch) {
      const auto u = static_cast<unsigned char>(ch);
      return u >= 0x80 || std::isalpha(u);
    };
    const bool left = i > 0 && letter(text[i - 1]);
    const bool right = i + 1 < text.size() && letter(text[i + 1]);
    // "A" and "Y" before a lower-case word are words ("A small T", "A los tokens", "Y tiene"), not matrices.
    const bool word = (c == 'A' || c == 'Y') && i + 2 < text.size() && text[i + 1] == ' ' &&
                      (std::islower(static_cast<unsigned char>(text[i + 2])) ||
                       static_cast<unsigned char>(text[i + 2]) >= 0x80);
    if (!left && !right && !word) out.push_back(std::string(1, c));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// English, both parts: the first load's (i18n_en.cpp) and the full build's (i18n_en_full.cpp).
std::map<int, std::string> english_texts() {
  std::map<int, std::string> out;
  for (const ui::LanguageTable* t : {&ui::english_table(), &ui::english_full_table()})
    for (std::size_t i = 0; i < t->count; ++i) out[int(t->entries[i].key)] = t->entries[i].text;
  return out;
}

}  // namespace

namespace {
std::vector<std::string> g_loader_asked;  // what set_language() asked the loader for
}  // namespace

// First in this file (doctest runs the cases of a file in order, and no earlier file installs a
// language): Spanish and German are not installed yet, as in the web app before their files load.
TEST_CASE("i18n: a language not installed yet: the words stay, the loader is asked once") {
  REQUIRE_MESSAGE(!ui::language_installed("de"), "this case must run before install_compiled_languages()");
  CHECK(ui::language_installed("en"));
  ui::set_language_loader([](const char* code) { g_loader_asked.emplace_back(code); });
  ui::set_language("en");
  ui::set_language("de");
  CHECK(ui::current_language() == "en");  // the current words stay
  CHECK(std::string(ui::tr(ui::Text::CausalMask)) == "Causal mask");
  ui::set_language("de");  // every frame asks again; the loader only once
  CHECK(g_loader_asked == std::vector<std::string>{"de"});
  // The file arrives (what the page's al_install_language does): the next frame speaks German.
  REQUIRE(ui::install_language_json(ui::language_json(ui::german_table())) == "");
  CHECK(ui::language_installed("de"));
  CHECK(!ui::language_installed("es"));
  ui::set_language("de");
  CHECK(ui::current_language() == "de");
  CHECK(std::string(ui::tr(ui::Text::CausalMask)) == "Kausale Maske");
  CHECK(g_loader_asked.size() == 1);
  // The full build's texts come in their own file (lang/de-full.json): English until it is in.
  const std::string flash_title = english_texts()[int(ui::Text::FlashTitle)];
  REQUIRE(flash_title == "FlashAttention: the online softmax");
#if AL_ALL_MODES
  CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == flash_title);
#else
  CHECK(std::string(ui::tr(ui::Text::FlashTitle)).empty());  // the first load has no English of it
#endif
  REQUIRE(ui::install_language_json(ui::language_json(ui::german_table(), ui::TextPart::FullBuild)) == "");
  CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == "FlashAttention: der Online-Softmax");
  CHECK(std::string(ui::tr(ui::Text::CausalMask)) == "Kausale Maske");
  ui::set_language_loader(nullptr);
  ui::set_language("en");
}

TEST_CASE("i18n: a full build's file that comes first does not put the language on screen") {
  // Spanish is not installed yet (install_compiled_languages() runs in a later case of this file).
  REQUIRE(!ui::language_installed("es"));
  ui::set_language("en");
  REQUIRE(ui::install_language_json(ui::language_json(ui::spanish_table(), ui::TextPart::FullBuild)) == "");
  CHECK(!ui::language_installed("es"));  // the first part puts it on screen
  ui::set_language("es");
  CHECK(ui::current_language() == "en");
  REQUIRE(ui::install_language_json(ui::language_json(ui::spanish_table())) == "");
  CHECK(ui::language_installed("es"));
  ui::set_language("es");
  CHECK(ui::current_language() == "es");
  CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == "Paso a paso");
  CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == "FlashAttention: el softmax en línea");
  ui::set_language("en");
}

TEST_CASE("i18n: every language has every key exactly once, non-empty") {
  // English in two tables: the first load's keys (before Text::FullBuildTexts) and the rest.
  const std::vector<const ui::LanguageTable*> english = {&ui::english_table(), &ui::english_full_table()};
  for (std::size_t part = 0; part < english.size(); ++part) {
    const ui::LanguageTable* t = english[part];
    CHECK(t->code == "en");
    for (std::size_t i = 0; i < t->count; ++i) {
      INFO(("English part " + std::to_string(part) + " key " + std::to_string(int(t->entries[i].key))));
      CHECK((int(t->entries[i].key) >= ui::kFirstLoadTextCount) == (part == 1));
    }
  }
  CHECK(ui::kFirstLoadTextCount > 100);
  CHECK(ui::kTextCount - ui::kFirstLoadTextCount > 100);
  const std::vector<std::vector<const ui::LanguageTable*>> tables = {
      english, {&ui::spanish_table()}, {&ui::german_table()}};
  for (const std::vector<const ui::LanguageTable*>& parts : tables) {
    std::map<int, int> seen;
    const ui::LanguageTable* t = parts.front();
    for (const ui::LanguageTable* part : parts)
      for (std::size_t i = 0; i < part->count; ++i) {
        const int key = int(part->entries[i].key);
        ++seen[key];
        INFO((std::string(t->code) + " key " + std::to_string(key)));
        CHECK(part->entries[i].text != nullptr);
        CHECK(std::string(part->entries[i].text ? part->entries[i].text : "").size() > 0);
      }
    for (int k = 0; k < ui::kTextCount; ++k) {
      INFO((std::string(t->code) + " key " + std::to_string(k)));
      CHECK(seen[k] == 1);  // missing (0) or twice (2)
    }
  }
  // The link's languages are exactly the tables.
  REQUIRE(scene::link::kLanguageCount == 3);
  for (const scene::link::LanguageInfo& l : scene::link::kLanguages)
    CHECK(ui::language_table(l.code).code == l.code);
}

TEST_CASE("i18n: translations keep the formulas and symbols, and are translations") {
  std::map<int, std::string> english = english_texts();
  // The texts that are the same in every language: names, and the quiz's choices that are formulas.
  using ui::Text;
  const std::set<Text> same = {
      Text::ModeFlash, Text::ZoomHeading, Text::TokensN, Text::TokensValue, Text::Quiz2A, Text::Quiz2B,
      Text::Quiz2C, Text::Quiz2D, Text::Quiz5A, Text::Quiz5B, Text::Quiz8C, Text::WalkToQuiz, Text::LiveMask,
      Text::RopeBase, Text::Pause, Text::TrainSeed, Text::RopeBaseFormat, Text::BlockFormat, Text::LogToggle,
      Text::TrainRowToken, Text::GenerateTokens, Text::AutoRangeToggle, Text::CircuitsModelDim,
      Text::CircuitsText,
      // the variants' names as their papers give them, and φ's formula
      Text::VariantsSoftcap, Text::VariantsQkNorm, Text::VariantsLinear, Text::VariantsLinearNote,
      Text::KvCalcKindHeads, Text::KvCalcKindLatent, Text::KvCalcKindLinear};
  for (const ui::LanguageTable* t : {&ui::spanish_table(), &ui::german_table()}) {
    for (std::size_t i = 0; i < t->count; ++i) {
      const int key = int(t->entries[i].key);
      const std::string text = t->entries[i].text;
      INFO((std::string(t->code) + ": \"" + text + "\" vs \"" + english[key] + "\""));
      CHECK(symbols(text) == symbols(english[key]));
      // Everything else is really translated.
      if (!same.count(t->entries[i].key)) CHECK(text != english[key]);
    }
  }
}

TEST_CASE("i18n: lookup, the current language, the browser's locale") {
  ui::install_compiled_languages();
  ui::set_language("es");
  CHECK(ui::current_language() == "es");
  CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == "Paso a paso");
  ui::set_language("de");
  CHECK(std::string(ui::tr(ui::Text::CausalMask)) == "Kausale Maske");
  ui::set_language("fr");  // unknown: English
  CHECK(ui::current_language() == "en");
  CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == "Walk through");
  CHECK(ui::language_from_locale("es-MX") == "es");
  CHECK(ui::language_from_locale("de") == "de");
  CHECK(ui::language_from_locale("de_AT") == "de");
  CHECK(ui::language_from_locale("fr-FR") == "en");
  CHECK(ui::language_from_locale("") == "en");
}

// The web app's language files (ui::language_json, written by language-dump at build time):
// lang/CODE.json with the first load's texts, lang/CODE-full.json with the rest; every compiled text,
// in key order, read back byte for byte; a bad file changes nothing.
TEST_CASE("i18n: a language's two files carry its table exactly; a bad one is refused, naming the problem") {
  ui::install_compiled_languages();
  CHECK(ui::language_file_name("de", ui::TextPart::FirstLoad) == "lang/de.json");
  CHECK(ui::language_file_name("de", ui::TextPart::FullBuild) == "lang/de-full.json");
  for (const ui::LanguageTable* t : {&ui::spanish_table(), &ui::german_table()}) {
    const std::string code(t->code);
    const std::string first = ui::language_json(*t), full = ui::language_json(*t, ui::TextPart::FullBuild);
    INFO(code);
    // The format: one text per line, so line k + 3 is the part's key k's text.
    CHECK(first.rfind("{\"language\": \"" + code + "\",\n\"texts\": [\n", 0) == 0);
    CHECK(full.rfind("{\"language\": \"" + code + "\", \"part\": \"full\",\n\"texts\": [\n", 0) == 0);
    const scene::json_text::Parsed parsed = scene::json_text::parse(first),
                                   parsed_full = scene::json_text::parse(full);
    REQUIRE(parsed.error.empty());
    REQUIRE(parsed_full.error.empty());
    REQUIRE(parsed.doc["texts"].size() == std::size_t(ui::kFirstLoadTextCount));
    REQUIRE(parsed_full.doc["texts"].size() == std::size_t(ui::kTextCount - ui::kFirstLoadTextCount));
    for (std::size_t i = 0; i < t->count; ++i) {
      const int key = int(t->entries[i].key);
      const std::string in_file =
          key < ui::kFirstLoadTextCount
              ? parsed.doc["texts"][std::size_t(key)].get<std::string>()
              : parsed_full.doc["texts"][std::size_t(key - ui::kFirstLoadTextCount)].get<std::string>();
      CHECK(in_file == t->entries[i].text);
    }
    // Installed from the files, the words are the compiled table's, byte for byte.
    REQUIRE(ui::install_language_json(full) == "");
    REQUIRE(ui::install_language_json(first) == "");
    ui::set_language(code);
    for (std::size_t i = 0; i < t->count; ++i)
      CHECK(std::string(ui::tr(t->entries[i].key)) == t->entries[i].text);
    // A newer file replaces the shown words of its part at once (the current lookup follows it) and
    // leaves the other part's.
    scene::json_text::json edited = parsed.doc, edited_full = parsed_full.doc;
    edited["texts"][std::size_t(ui::Text::ModeWalk)] = "¡nuevo!";
    edited_full["texts"][std::size_t(int(ui::Text::FlashTitle) - ui::kFirstLoadTextCount)] =
        "¡nuevo también!";
    const std::string flash_title = ui::tr(ui::Text::FlashTitle);
    REQUIRE(ui::install_language_json(edited.dump()) == "");
    CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == "¡nuevo!");
    CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == flash_title);
    REQUIRE(ui::install_language_json(edited_full.dump()) == "");
    CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == "¡nuevo también!");
    CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == "¡nuevo!");
    REQUIRE(ui::install_language_json(first) == "");
    REQUIRE(ui::install_language_json(full) == "");
    for (std::size_t i = 0; i < t->count; ++i)
      CHECK(std::string(ui::tr(t->entries[i].key)) == t->entries[i].text);
  }
  ui::set_language("es");
  const std::string walk = ui::tr(ui::Text::ModeWalk), flash = ui::tr(ui::Text::FlashTitle);
  REQUIRE(walk == "Paso a paso");
  const std::string n = std::to_string(ui::kFirstLoadTextCount);
  const std::string n_full = std::to_string(ui::kTextCount - ui::kFirstLoadTextCount);
  std::string texts;  // kFirstLoadTextCount texts, all "x"
  for (int k = 0; k < ui::kFirstLoadTextCount; ++k) texts += k ? ",\"x\"" : "\"x\"";
  const std::pair<std::string, std::string> bad[] = {
      {"{\"language\": \"es\", \"texts\": [", "language file: json: "},
      {"[1, 2]", "language file: expected an object, got an array"},
      {"{\"texts\": []}", "language file: \"language\" must be a language code (en, es, de)"},
      {"{\"language\": \"fr\", \"texts\": []}",
       "language file: unknown language 'fr' (files: the languages other than en)"},
      {"{\"language\": \"en\", \"texts\": []}",
       "language file: unknown language 'en' (files: the languages other than en)"},
      {"{\"language\": \"es\"}", "lang/es.json: \"texts\" must be an array of strings"},
      {"{\"language\": \"es\", \"texts\": [\"a\", \"b\", \"c\"]}",
       "lang/es.json: 3 texts, this build has " + n + " (a file from another version of the app)"},
      {"{\"language\": \"es\", \"part\": \"full\", \"texts\": [\"a\", \"b\", \"c\"]}",
       "lang/es-full.json: 3 texts, this build has " + n_full + " (a file from another version of the app)"},
      // the first part's file where the full build's is expected: its count says so
      {"{\"language\": \"es\", \"part\": \"full\", \"texts\": [" + texts + "]}",
       "lang/es-full.json: " + n + " texts, this build has " + n_full},
      {"{\"language\": \"es\", \"part\": \"all\", \"texts\": []}",
       "lang/es.json: \"part\" must be \"full\" (the full build's texts) or absent"},
      {"{\"language\": \"es\", \"texts\": [" + texts.substr(0, texts.size() - 3) + "7]}",
       "lang/es.json: text " + std::to_string(ui::kFirstLoadTextCount - 1) + " is a number, not a string"},
      {"{\"language\": \"es\", \"texts\": [\"\"" + texts.substr(3) + "]}", "lang/es.json: text 0 is empty"},
  };
  for (const std::pair<std::string, std::string>& entry : bad) {
    const std::string &file = entry.first,
                      &error = entry.second;  // (INFO cannot capture a structured binding)
    INFO(file.substr(0, 60));
    const std::string got = ui::install_language_json(file);
    CHECK(got.rfind(error, 0) == 0);
    CHECK(!got.empty());
    CHECK(std::string(ui::tr(ui::Text::ModeWalk)) == walk);  // nothing changed
    CHECK(std::string(ui::tr(ui::Text::FlashTitle)) == flash);
  }
  ui::set_language("en");
}

TEST_CASE("i18n: fill() puts each argument in place, wherever the translation moved it") {
  CHECK(ui::fill("{2} before {1}", {"a", "b"}) == "b before a");
  CHECK(ui::fill("{1}, {1}", {"x"}) == "x, x");
  CHECK(ui::fill("{1} {2} {3} {4} {5}", {"1", "2", "3", "4", "{2}"}) == "1 2 3 4 {2}");
}

#ifdef AL_FONT_RANGES_HEADER
#include AL_FONT_RANGES_HEADER  // kFontRanges[]: what src/app/subset_fonts.py kept
namespace {
// The code points of UTF-8 `text` (well-formed: the tables are the repository's own).
std::vector<char32_t> code_points(const std::string& text) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int extra = b < 0x80 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
    char32_t cp = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
    for (int k = 1; k <= extra && i + std::size_t(k) < text.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + std::size_t(k)]) & 0x3F);
    out.push_back(cp);
    i += std::size_t(extra) + 1;
  }
  return out;
}
}  // namespace

TEST_CASE("i18n: every character of every language is in the UI font's subset") {
  // kFontRanges: [first, last] pairs, zero-terminated, as ImGui takes them (src/app/subset_fonts.py).
  std::vector<std::pair<char32_t, char32_t>> ranges;
  for (std::size_t i = 0; kFontRanges[i] != 0; i += 2)
    ranges.emplace_back(kFontRanges[i], kFontRanges[i + 1]);
  REQUIRE(ranges.size() > 10);
  for (const ui::LanguageTable* t :
       {&ui::english_table(), &ui::english_full_table(), &ui::spanish_table(), &ui::german_table()}) {
    for (std::size_t i = 0; i < t->count; ++i) {
      for (char32_t cp : code_points(t->entries[i].text)) {
        if (cp == '\n') continue;
        const bool covered = std::any_of(ranges.begin(), ranges.end(),
                                         [&](const auto& r) { return cp >= r.first && cp <= r.second; });
        INFO((std::string(t->code) + ": \"" + t->entries[i].text + "\" has U+" +
              std::to_string(unsigned(cp))));
        CHECK(covered);
      }
    }
  }
}
#endif

TEST_CASE("i18n: the walk-through and the quiz speak the chosen language") {
  const scene::Scene s = must_preset("practice-qkv");
  const scene::Scene causal = must_preset("causal-5");
  const attn::Result r = scene::compute(s);
  ui::install_compiled_languages();
  ui::set_language("es");
  CHECK(ui::walk::step_text(ui::walk::Stage::Projections, s).title == "Tres papeles: Q, K, V");
  CHECK(ui::walk::live_numbers(ui::walk::Stage::Softmax, s, r, 0) ==
        "Fila 'the': e^(puntuación − 1) = 0.37, 1, 1; ÷ su suma 2.37 → pesos 0.155, 0.422, 0.422 (suma 1).");
  CHECK(ui::quiz::questions().front().prompt == "¿Qué dos cosas deciden cuánto atiende un token a otro?");
  CHECK(ui::quiz::feedback(ui::quiz::questions().front(), 0) ==
        "No exactamente: la respuesta es «Su consulta y la clave del otro token».");
  ui::set_language("de");
  CHECK(ui::walk::step_text(ui::walk::Stage::Mask, causal).title == "Maske: + M");
  CHECK(ui::walk::live_numbers(ui::walk::Stage::Mask, causal, scene::compute(causal), 2) ==
        "Zeile 'sat': 'on' und 'mats' verborgen → 0.71, 1.41, 0.71, −∞, −∞.");
  CHECK(ui::quiz::questions()[6].choices[2] == "Auf die Tokens 0, 1 und 2");
  // The same table in every language: the same answers, choices and "show me" scenes.
  const std::vector<ui::quiz::Question> german = ui::quiz::questions();
  ui::set_language("en");
  const std::vector<ui::quiz::Question>& english = ui::quiz::questions();
  REQUIRE(german.size() == english.size());
  for (std::size_t q = 0; q < english.size(); ++q) {
    CHECK(german[q].choices.size() == english[q].choices.size());
    CHECK(german[q].answer == english[q].answer);
    CHECK(german[q].show_me.preset == english[q].show_me.preset);
  }
  CHECK(english.front().prompt == "Which two things decide how much one token attends to another?");
}
