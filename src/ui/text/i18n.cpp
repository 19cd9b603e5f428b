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

// English: the first part in every build; the full build's part only in the builds with every
// mode (the web's first load leaves i18n_en_full.cpp's texts out: i18n.hpp).
const Lookup& english_lookup() {
#if AL_ALL_MODES
  static const Lookup first = build(english_table(), nullptr);
  static const Lookup lookup = build(english_full_table(), &first);
#else
  static const Lookup lookup = build(english_table(), nullptr);
#endif
  return lookup;
}

// The keys of a part: [first, last).
int part_first(TextPart part) {
  return part == TextPart::FirstLoad ? 0 : kFirstLoadTextCount;
}
int part_last(TextPart part) {
  return part == TextPart::FirstLoad ? kFirstLoadTextCount : kTextCount;
}

// An installed language: its lookup (English where a part is not in yet), and the texts it points
// into when they came from data files, one vector per part.
struct Installed {
  std::array<std::vector<std::string>, 2> texts;  // by TextPart: a data file's texts, or empty
  bool first_part = false;                        // shown only once the first part is in
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
  return it == installed().end() || !it->second->first_part ? nullptr : &it->second->lookup;
}

}  // namespace

void install_language(const LanguageTable& table) {
  if (table.code == "en" || lookup_of(table.code)) return;
  std::unique_ptr<Installed>& slot = installed()[std::string(table.code)];
  if (!slot) slot = std::make_unique<Installed>();  // (a full part that came first is replaced)
  slot->texts = {};
  slot->lookup = build(table, &english_lookup());
  slot->first_part = true;
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
  TextPart part = TextPart::FirstLoad;
  const auto part_at = doc.find("part");
  if (part_at != doc.end()) {
    if (!part_at->is_string() || part_at->get_ref<const std::string&>() != "full")
      return language_file_name(code, part) +
             ": \"part\" must be \"full\" (the full build's texts) or absent";
    part = TextPart::FullBuild;
  }
  const std::string file = language_file_name(code, part);
  const auto texts_at = doc.find("texts");
  if (texts_at == doc.end() || !texts_at->is_array()) return file + ": \"texts\" must be an array of strings";
  const int first = part_first(part), count = part_last(part) - first;
  if (texts_at->size() != std::size_t(count))
    return file + ": " + std::to_string(texts_at->size()) + " texts, this build has " +
           std::to_string(count) + " (a file from another version of the app)";
  std::vector<std::string> texts;
  texts.reserve(std::size_t(count));
  for (const jt::json& t : *texts_at) {
    const std::string at = file + ": text " + std::to_string(texts.size());
    if (!t.is_string()) return at + " is " + jt::type_name(t) + ", not a string";
    const std::string& s = t.get_ref<const std::string&>();
    if (s.empty()) return at + " is empty";
    if (!jt::valid_utf8(s)) return at + " is not UTF-8";
    texts.push_back(s);
  }
  // The newest file of a part wins (the page loads each file once). The lookup is changed in place,
  // between frames, so the current words follow it.
  std::unique_ptr<Installed>& slot = installed()[code];
  if (!slot) {
    slot = std::make_unique<Installed>();
    slot->lookup = english_lookup();
  }
  std::vector<std::string>& kept = slot->texts[std::size_t(part)];
  kept = std::move(texts);
  for (int k = 0; k < count; ++k) slot->lookup[std::size_t(first + k)] = kept[std::size_t(k)].c_str();
  if (part == TextPart::FirstLoad) slot->first_part = true;
  return {};
}

std::string language_file_name(std::string_view code, TextPart part) {
  return "lang/" + std::string(code) + (part == TextPart::FullBuild ? "-full" : "") + ".json";
}

std::string language_json(const LanguageTable& table, TextPart part) {
  const Lookup lookup = build(table, &english_lookup());
  // One text per line: line k + 3 of the file is the part's key k's text (key k + kFirstLoadTextCount
  // in the full build's part).
  std::string out = "{\"language\": " + scene::json_text::json(std::string(table.code)).dump() +
                    (part == TextPart::FullBuild ? ", \"part\": \"full\"" : "") + ",\n\"texts\": [\n";
  const int first = part_first(part), last = part_last(part);
  for (int k = first; k < last; ++k) {
    const char* text = lookup[std::size_t(k)];
    out += scene::json_text::json(std::string(text ? text : "")).dump() + (k + 1 < last ? ",\n" : "\n");
  }
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
