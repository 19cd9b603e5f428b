// Wrapped texts (src/ui/text/text_wrap): lines break at spaces and '\n' only, so a number such as
// "0.125" never ends one line with "0." and starts the next with "125", as ImGui 1.86's word wrap
// (ImFont::CalcWordWrapPositionA, which may break after '.', ',', ';', '!', '?') can.
#include "ui/text/text_wrap.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/alibi.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"

using ui::wrap_lines;
using ui::wrap_text;

namespace {

// A monospace font: every code point (UTF-8) one unit wide, so widths are counts of characters.
float monospace(std::string_view s) {
  return float(ui::text_length(std::string(s)));
}

// A proportional one, closer to the UI font: '.', ',', ' ' and 'i' narrow, 'm' and 'W' wide.
float proportional(std::string_view s) {
  float w = 0.0f;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
    w += c == '.' || c == ',' || c == ' ' || c == 'i' ? 0.3f : c == 'm' || c == 'W' ? 0.9f : 0.6f;
  }
  return w;
}

std::vector<std::string> as_strings(const std::vector<std::string_view>& lines) {
  return std::vector<std::string>(lines.begin(), lines.end());
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("wrap: a number stays whole where ImGui's rule breaks after '0.'") {
  // Width 13: ImGui's wrap fits "the slope 0." (12 characters) on the first line and breaks after the
  // '.', leaving "125 of head 1" for the next. Breaking at spaces only, "0.125" moves down whole.
  const std::string text = "the slope 0.125 of head 1";
  CHECK(as_strings(wrap_lines(text, 13.0f, monospace)) ==
        std::vector<std::string>{"the slope", "0.125 of head", "1"});
  CHECK(wrap_text(text, 13.0f, monospace) == "the slope\n0.125 of head\n1");
  // Wide enough: one line, unchanged.
  CHECK(wrap_text(text, 25.0f, monospace) == text);
  CHECK(wrap_text(text, 24.0f, monospace) == "the slope 0.125 of head\n1");
}

TEST_CASE("wrap: a symbol in several bytes (√d_k) is one token") {
  // "√d_k" (6 bytes, 4 characters) is one token, never "√" at a line's end and "d_k" on the next.
  CHECK(as_strings(wrap_lines("divide by √d_k = 1.414", 9.0f, monospace)) ==
        std::vector<std::string>{"divide by", "√d_k =", "1.414"});
  CHECK(as_strings(wrap_lines("divide by √d_k = 1.414", 12.0f, monospace)) ==
        std::vector<std::string>{"divide by", "√d_k = 1.414"});
}

TEST_CASE("wrap: '\\n' always breaks, empty lines stay, spaces at a break are dropped") {
  CHECK(as_strings(wrap_lines("a b\n\nc  d", 10.0f, monospace)) ==
        std::vector<std::string>{"a b", "", "c  d"});
  CHECK(as_strings(wrap_lines("aaa   bbb   ", 4.0f, monospace)) == std::vector<std::string>{"aaa", "bbb"});
  CHECK(as_strings(wrap_lines("", 4.0f, monospace)) == std::vector<std::string>{""});
  CHECK(as_strings(wrap_lines("  indented text", 11.0f, monospace)) ==
        std::vector<std::string>{"  indented", "text"});
}

TEST_CASE("wrap: only a token wider than the line is broken inside, as much as fits per line") {
  CHECK(as_strings(wrap_lines("x 0.0000000001 y", 5.0f, monospace)) ==
        std::vector<std::string>{"x", "0.000", "00000", "01 y"});
  // At a width below one character every line still takes one code point (the loop ends).
  CHECK(as_strings(wrap_lines("√ab", 0.5f, monospace)) == std::vector<std::string>{"√", "a", "b"});
}

TEST_CASE("wrap: the variants' sentences keep every number whole in en, es and de, at every width") {
  // The ALiBi slopes m_h = 2^(−8h/H) of 8 heads (Press et al. 2022: 1/2, 1/4, …, 1/256) as the panel
  // prints them (1/32 = 0.03125 exactly, printed to even), and the sink sentence with its numbers.
  std::string slopes;
  for (int t = 0; t < 8; ++t) slopes += (t ? ", " : "") + ui::format_number(attn::alibi_slope(t, 8), 4);
  CHECK(slopes == "0.5000, 0.2500, 0.1250, 0.0625, 0.0312, 0.0156, 0.0078, 0.0039");
  ui::install_compiled_languages();  // Spanish and German as the desktop app has them
  for (const char* lang : {"en", "es", "de"}) {
    ui::set_language(lang);
    REQUIRE(ui::current_language() == lang);
    const std::vector<std::string> texts = {
        ui::fill(ui::tr(ui::Text::AlibiSlopes), {slopes}),
        ui::fill(ui::tr(ui::Text::SinkEffect), {"4", "9", "0.412", "0.538", "1", "0.004"}),
        ui::fill(ui::tr(ui::Text::HeadsScaleHint), {"2", "1.414"}), ui::tr(ui::Text::KvCalcHint)};
    for (const std::string& text : texts) {
      const std::vector<std::string> expected = words(text);
      for (float width = 2.0f; width <= 40.0f; width += 0.35f) {
        CAPTURE(lang);
        CAPTURE(text);
        CAPTURE(width);
        std::vector<std::string> got;
        for (std::string_view line : wrap_lines(text, width, proportional)) {
          const std::vector<std::string> line_words = words(std::string(line));
          // A line wider than the width is one token that alone is wider (broken inside, below).
          if (proportional(line) > width) CHECK(line_words.size() == 1);
          got.insert(got.end(), line_words.begin(), line_words.end());
        }
        // Every word of the sentence is a word of one line, whole, in order, unless it alone is
        // wider than the line.
        bool any_too_wide = false;
        for (const std::string& w : expected) any_too_wide |= proportional(w) > width;
        if (!any_too_wide) CHECK(got == expected);
      }
    }
  }
  ui::set_language("en");
}
