// i18n_compiled.cpp — Spanish and German compiled in (the desktop app and the tests; the web app
// loads them as data instead: i18n.hpp).
#include "ui/text/i18n.hpp"

namespace ui {

const LanguageTable& language_table(std::string_view code) {
  if (code == "es") return spanish_table();
  if (code == "de") return german_table();
  return english_table();
}

void install_compiled_languages() {
  install_language(spanish_table());
  install_language(german_table());
}

}  // namespace ui
