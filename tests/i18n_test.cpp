// i18n_test.cpp — the translation tables (ui/i18n*.cpp): every key has a text in every language,
// once; formats keep their %d; the formulas' symbols are the same as in English.
#include "ui/i18n.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "scene/link.hpp"

namespace {

// The formula-like words of a text: runs of symbols (= · Σ √ ∞ − ÷ ᵀ _ and digits next to them) and
// standalone capital letters Q K V Y A M X (the matrices), in order. A translation must keep them.
std::vector<std::string> symbols(const std::string& text) {
  static const std::vector<std::string> marks = {"=", "·", "Σ",  "√", "∞",   "−",   "÷",
                                                 "ᵀ", "_", "%d", "✓", "{1}", "{2}", "[0, 1]"};
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
    if (!left && !right) out.push_back(std::string(1, c));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("i18n: every language has every key exactly once, non-empty") {
  const ui::LanguageTable* tables[] = {&ui::english_table(), &ui::spanish_table(), &ui::german_table()};
  for (const ui::LanguageTable* t : tables) {
    std::map<int, int> seen;
    for (std::size_t i = 0; i < t->count; ++i) {
      const int key = int(t->entries[i].key);
      ++seen[key];
      INFO((std::string(t->code) + " key " + std::to_string(key)));
      CHECK(t->entries[i].text != nullptr);
      CHECK(std::string(t->entries[i].text ? t->entries[i].text : "").size() > 0);
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
  const ui::LanguageTable& en = ui::english_table();
  std::map<int, std::string> english;
  for (std::size_t i = 0; i < en.count; ++i) english[int(en.entries[i].key)] = en.entries[i].text;
  for (const ui::LanguageTable* t : {&ui::spanish_table(), &ui::german_table()}) {
    int differ = 0;
    for (std::size_t i = 0; i < t->count; ++i) {
      const int key = int(t->entries[i].key);
      const std::string text = t->entries[i].text;
      INFO((std::string(t->code) + ": \"" + text + "\" vs \"" + english[key] + "\""));
      CHECK(symbols(text) == symbols(english[key]));
      differ += text != english[key];
    }
    // Most entries are really translated (a few words are the same: Zoom, FlashAttention, Tokens n).
    CHECK(differ >= ui::kTextCount - 7);
  }
}

TEST_CASE("i18n: lookup, the current language, the browser's locale") {
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
