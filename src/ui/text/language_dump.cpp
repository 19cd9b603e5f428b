// language_dump.cpp — writes the web app's language files: DIR/es.json and DIR/de.json, the
// compiled Spanish and German tables as data (ui::language_json; the page loads them on demand).
// Built by Emscripten for node (NODERAWFS) and run by the site's build: src/app/CMakeLists.txt.
//
//   node language-dump.js DIR
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "ui/text/i18n.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: language-dump DIR (writes DIR/es.json, DIR/de.json)\n");
    return 2;
  }
  const std::string dir = argv[1];
  mkdir(dir.c_str(), 0755);  // may exist already
  for (const ui::LanguageTable* table : {&ui::spanish_table(), &ui::german_table()}) {
    const std::string path = dir + "/" + std::string(table->code) + ".json";
    const std::string text = ui::language_json(*table);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fclose(file) != 0) {
      std::fprintf(stderr, "language-dump: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
