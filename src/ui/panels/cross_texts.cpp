// cross_texts.cpp — see variant_parts.hpp: the words of a cross-attention scene's screen, in the build
// with every mode only (tests/first_load_texts_test.py keeps them out of the first load).
#include "ui/panels/variant_parts.hpp"
#include "ui/text/i18n.hpp"

namespace ui {

const char* cross_heading(bool sources) {
  return tr(sources ? Text::CrossSources : Text::CrossQueries);
}

std::string cross_mode_note(const std::string& mode) {
  return fill(tr(Text::CrossModeNote), {mode});
}

}  // namespace ui
