// language_dump.cpp — writes the web app's language files: for every language but English
// (scene::link::kLanguages; today es and de) DIR/CODE.json, the first load's texts, and
// DIR/CODE-full.json, the texts only the build with every mode uses (ui/text/i18n.hpp) — the
// compiled tables as data (ui::language_json; the page loads them on demand).
// Built by Emscripten for node (NODERAWFS) and run by the site's build: src/app/CMakeLists.txt.
//
//   node language-dump.js DIR
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "scene/link.hpp"
#include "ui/text/i18n.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(
        stderr,
        "usage: language-dump DIR (writes DIR/CODE.json and DIR/CODE-full.json for each language but en)\n");
    return 2;
  }
  const std::string dir = argv[1];
  mkdir(dir.c_str(), 0755);  // may exist already
  for (const scene::link::LanguageInfo& language : scene::link::kLanguages) {
    if (language.code == "en") continue;  // English is in the wasm
    for (const ui::TextPart part : {ui::TextPart::FirstLoad, ui::TextPart::FullBuild}) {
      // language_file_name() is "lang/CODE….json": the file goes to DIR/CODE….json.
      const std::string name = ui::language_file_name(language.code, part).substr(5);
      const std::string path = dir + "/" + name;
      const std::string text = ui::language_json(ui::language_table(language.code), part);
      std::FILE* file = std::fopen(path.c_str(), "wb");
      if (!file || std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fclose(file) != 0) {
        std::fprintf(stderr, "language-dump: cannot write %s\n", path.c_str());
        return 1;
      }
    }
  }
  return 0;
}
