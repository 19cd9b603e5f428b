// i18n.cpp — table lookup, the installed languages and the current one (see i18n.hpp).
#include "ui/text/i18n.hpp"

#include <array>
#include <map>
#include <memory>
#include <vector>

#include "scene/json_text.hpp"
#include "scene/link.hpp"

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

// An installed language: its lookup, and the texts it points into when they came from a data file.
struct Installed {
  std::vector<std::string> texts;  // kTextCount texts (a data file's), or empty (a compiled table's)
  Lookup lookup{};
};

// Installed languages other than English, by code. Never erased; a language file installed again
// replaces its entry between frames (and g_lookup follows it).
std::map<std::string, std::unique_ptr<Installed>, std::less<>>& installed() {
  static std::map<std::string, std::unique_ptr<Installed>, std::less<>> languages;
  return languages;
}

// The current language: part of the drawing style, set between frames (like the palette).
std::string g_language = "en";
const Lookup* g_lookup = nullptr;
void (*g_loader)(const char*) = nullptr;
std::vector<std::string> g_asked;  // languages the loader was asked for

const Lookup* lookup_of(std::string_view code) {
  if (code == "en") return &english_lookup();
  const auto it = installed().find(code);
  return it == installed().end() ? nullptr : &it->second->lookup;
}

}  // namespace

void install_language(const LanguageTable& table) {
  if (table.code == "en" || lookup_of(table.code)) return;
  auto language = std::make_unique<Installed>();
  language->lookup = build(table, &english_lookup());
  installed().emplace(std::string(table.code), std::move(language));
}

std::string install_language_json(std::string_view text) {
  namespace jt = scene::json_text;
  const jt::Parsed parsed = jt::parse(text);
  if (!parsed.error.empty()) return "language file: " + parsed.error;
  const jt::json& doc = parsed.doc;
  if (!doc.is_object()) return std::string("language file: expected an object, got ") + jt::type_name(doc);
  const auto code_at = doc.find("language");
  if (code_at == doc.end() || !code_at->is_string())
    return "language file: \"language\" must be a language code (" + scene::link::language_codes() + ")";
  const std::string code = code_at->get<std::string>();
  if (!scene::link::is_language(code) || code == "en")
    return "language file: unknown language '" + jt::clip_utf8(code) +
           "' (files: the languages other than en)";
  const std::string file = "lang/" + code + ".json";
  const auto texts_at = doc.find("texts");
  if (texts_at == doc.end() || !texts_at->is_array()) return file + ": \"texts\" must be an array of strings";
  if (texts_at->size() != std::size_t(kTextCount))
    return file + ": " + std::to_string(texts_at->size()) + " texts, this build has " +
           std::to_string(kTextCount) + " (a file from another version of the app)";
  auto language = std::make_unique<Installed>();
  language->texts.reserve(std::size_t(kTextCount));
  for (const jt::json& t : *texts_at) {
    const std::string at = file + ": text " + std::to_string(language->texts.size());
    if (!t.is_string()) return at + " is " + jt::type_name(t) + ", not a string";
    const std::string& s = t.get_ref<const std::string&>();
    if (s.empty()) return at + " is empty";
    if (!jt::valid_utf8(s)) return at + " is not UTF-8";
    language->texts.push_back(s);
  }
  for (std::size_t k = 0; k < language->texts.size(); ++k) language->lookup[k] = language->texts[k].c_str();
  // The newest file wins (the page loads each file once); the current words follow it.
  std::unique_ptr<Installed>& slot = installed()[code];
  const bool shown = slot && g_lookup == &slot->lookup;
  slot = std::move(language);
  if (shown) g_lookup = &slot->lookup;
  return {};
}

std::string language_json(const LanguageTable& table) {
  const Lookup lookup = build(table, &english_lookup());
  // One text per line: line k + 3 of the file is key k's text.
  std::string out =
      "{\"language\": " + scene::json_text::json(std::string(table.code)).dump() + ",\n\"texts\": [\n";
  for (std::size_t k = 0; k < lookup.size(); ++k)
    out += scene::json_text::json(std::string(lookup[k] ? lookup[k] : "")).dump() +
           (k + 1 < lookup.size() ? ",\n" : "\n");
  return out + "]}\n";
}

bool language_installed(std::string_view code) {
  return lookup_of(code) != nullptr;
}

void set_language_loader(void (*loader)(const char* code)) {
  g_loader = loader;
}

void set_language(std::string_view code) {
  if (!scene::link::is_language(code)) code = "en";
  if (const Lookup* lookup = lookup_of(code)) {
    g_language = std::string(code);
    g_lookup = lookup;
    return;
  }
  // Not installed: keep the current words and ask for the language's data file, once.
  for (const std::string& asked : g_asked)
    if (asked == code) return;
  g_asked.emplace_back(code);
  if (g_loader) g_loader(g_asked.back().c_str());
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
