// i18n.cpp — table lookup and the current language (see i18n.hpp).
#include "ui/text/i18n.hpp"

#include <array>

namespace ui {
namespace {

using Lookup = std::array<const char*, kTextCount>;

Lookup build(const LanguageTable& table, const Lookup* fallback) {
  Lookup out{};
  if (fallback) out = *fallback;
  for (std::size_t i = 0; i < table.count; ++i) {
    const int k = int(table.entries[i].key);
    if (k >= 0 && k < kTextCount && table.entries[i].text && *table.entries[i].text)
      out[k] = table.entries[i].text;
  }
  return out;
}

const Lookup& english_lookup() {
  static const Lookup lookup = build(english_table(), nullptr);
  return lookup;
}

const Lookup& lookup_of(std::string_view code) {
  static const Lookup spanish = build(spanish_table(), &english_lookup());
  static const Lookup german = build(german_table(), &english_lookup());
  if (code == "es") return spanish;
  if (code == "de") return german;
  return english_lookup();
}

// The current language: part of the drawing style, set between frames (like the palette).
std::string_view g_language = "en";
const Lookup* g_lookup = nullptr;

}  // namespace

const LanguageTable& language_table(std::string_view code) {
  if (code == "es") return spanish_table();
  if (code == "de") return german_table();
  return english_table();
}

void set_language(std::string_view code) {
  g_language = language_table(code).code;
  g_lookup = &lookup_of(g_language);
}

std::string_view current_language() {
  return g_language;
}

const char* tr(Text key) {
  const Lookup& lookup = g_lookup ? *g_lookup : english_lookup();
  const int k = int(key);
  const char* text = k >= 0 && k < kTextCount ? lookup[std::size_t(k)] : nullptr;
  return text ? text : "";
}

std::string fill(const char* pattern, std::initializer_list<std::string> args) {
  std::string out = pattern ? pattern : "";
  int n = 0;
  for (const std::string& text : args) {
    const std::string mark = "{" + std::to_string(++n) + "}";
    // Every occurrence; the replacement is never searched again (an argument may hold "{2}").
    for (std::size_t at = out.find(mark); at != std::string::npos; at = out.find(mark, at + text.size()))
      out.replace(at, mark.size(), text);
  }
  return out;
}

std::string_view language_from_locale(std::string_view locale) {
  const std::string_view primary = locale.substr(0, locale.find_first_of("-_"));
  if (primary == "es" || primary == "ES") return "es";
  if (primary == "de" || primary == "DE") return "de";
  return "en";
}

}  // namespace ui
