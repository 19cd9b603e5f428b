// i18n.hpp — the screen's words in English, Spanish and German: one table per language
// (i18n_en.cpp, i18n_es.cpp, i18n_de.cpp), looked up by key. Formulas and symbols (Q, K, V, Y = A V,
// √d_k, −∞, Σ) stay as they are in every language; tests/i18n_test.cpp checks that every key has a
// text in every table and that the symbols match English's.
//
// The current language is part of the drawing style, like the theme's palette: set_language() sets
// it between frames (ui/layout.cpp, from the link's lang=, the View menu, --lang, or the browser's
// language), tr() reads it. Plain C++ (no ImGui), so the tables are unit-tested.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ui {

enum class Text : int {
  // top bar and mode bar
  Subtitle,
  Dismiss,
  ModeExplore,
  ModeWalk,
  ModeHeads,
  ModeKeySpace,
  ModeFlash,
  ModeDecode,
  ModeTrain,
  CheckYourself,
  CheckYourselfTip,
  // the View menu
  View,
  ViewTip,
  ThemeHeading,
  ThemeDark,
  ThemeLight,
  ThemeContrast,
  ZoomHeading,
  ZoomResetTip,
  LanguageHeading,
  // Controls
  ControlsTitle,
  ControlsHint,
  Example,
  Edited,
  TokensN,
  TokensValue,  // "%d tokens" (a format: keep the %d)
  Heads,
  Scale,
  ScaleNone,
  CausalMask,
  CausalHint,
  Reset,
  ResetTip,
  ClearMask,
  ShareHint,
  Gallery,
  CopyLink,
  ExportJson,
  ImportJson,
  ExportPng,
  ExportMenu,
  Generate,
  // panels
  VectorsTitle,
  VectorsHint,
  MaskTitle,
  MaskHint,
  OutputTitle,
  OutputHint,
  // the Scores and Weights grids (ui/grid_captions.cpp); {1}, {2} are filled in (fill())
  ScoresTitle,
  ScoresHint,
  ScoresHatched,
  HiddenLaterByM,
  WeightsTitle,  // {1}: the scaled term, e.g. "QKᵀ / √d_k"
  WeightsHint,   // {1}: the scaled term, {2}: the divisor ("√d_k = √2 = 1.414") or NoScaling
  NoScaling,
  WeightsMaskedRow,
  Count
};
inline constexpr int kTextCount = int(Text::Count);

struct TextEntry {
  Text key;
  const char* text;  // UTF-8; the font subset holds Latin-1 (á é í ó ú ñ ¿ ¡ ä ö ü ß …)
};

struct LanguageTable {
  std::string_view code;     // "en", "es", "de" (scene::link::kLanguages)
  const TextEntry* entries;  // every key once, in any order
  std::size_t count;
};

const LanguageTable& english_table();
const LanguageTable& spanish_table();
const LanguageTable& german_table();

// The table of `code` (English for an unknown code).
const LanguageTable& language_table(std::string_view code);

// Make `code` the current language (an unknown code: English).
void set_language(std::string_view code);
// The current language's code.
std::string_view current_language();
// The current language's text for `key` (English's if the table lacks it; the tests forbid that).
const char* tr(Text key);

// `pattern` with {1} and {2} replaced by `a` and `b` (a translation may move them).
std::string fill(const char* pattern, const std::string& a, const std::string& b = "");

// The language of a browser's navigator.language ("es-MX" → "es", "de" → "de"; others → "en").
std::string_view language_from_locale(std::string_view locale);

}  // namespace ui
