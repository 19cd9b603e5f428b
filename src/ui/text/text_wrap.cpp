// text_wrap.cpp — line breaks at spaces only (text_wrap.hpp).
#include "ui/text/text_wrap.hpp"

namespace ui {

namespace {

// The byte after the code point that starts at byte i (UTF-8: continuation bytes are 10xxxxxx).
std::size_t next_code_point(std::string_view s, std::size_t i) {
  ++i;
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}

// Pieces of one word wider than the line: the longest prefixes (by code points) that fit, each at
// least one code point. Returns the start of the last piece, which the caller keeps on its line.
std::size_t split_word(std::string_view line, float width, const MeasureText& measure,
                       std::vector<std::string_view>& lines, std::size_t offset) {
  std::size_t start = 0;
  while (start < line.size()) {
    std::size_t end = next_code_point(line, start);
    while (end < line.size()) {
      const std::size_t longer = next_code_point(line, end);
      if (measure(line.substr(start, longer - start)) > width) break;
      end = longer;
    }
    if (end >= line.size()) return offset + start;  // the rest fits: it may still take more words
    lines.push_back(line.substr(start, end - start));
    start = end;
  }
  return offset + start;
}

// One paragraph (no '\n'): words separated by runs of ' '.
void wrap_paragraph(std::string_view text, float width, const MeasureText& measure,
                    std::vector<std::string_view>& lines) {
  std::size_t line_start = 0, line_end = 0;  // the current line: [line_start, line_end)
  bool has_word = false;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t word_start = text.find_first_not_of(' ', i);
    if (word_start == std::string_view::npos) break;  // trailing spaces: dropped
    std::size_t word_end = text.find(' ', word_start);
    if (word_end == std::string_view::npos) word_end = text.size();
    i = word_end;
    if (!has_word) {
      // The first word of a line (leading spaces of the paragraph kept as its indentation).
      if (measure(text.substr(line_start, word_end - line_start)) > width)
        line_start =
            split_word(text.substr(line_start, word_end - line_start), width, measure, lines, line_start);
      line_end = word_end;
      has_word = true;
    } else if (measure(text.substr(line_start, word_end - line_start)) <= width) {
      line_end = word_end;
    } else {
      lines.push_back(text.substr(line_start, line_end - line_start));
      line_start = word_start;
      if (measure(text.substr(word_start, word_end - word_start)) > width)
        line_start =
            split_word(text.substr(word_start, word_end - word_start), width, measure, lines, word_start);
      line_end = word_end;
    }
  }
  lines.push_back(has_word ? text.substr(line_start, line_end - line_start) : text.substr(0, 0));
}

}  // namespace

std::vector<std::string_view> wrap_lines(std::string_view text, float width, const MeasureText& measure) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = text.find('\n', start);
    wrap_paragraph(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start),
                   width, measure, lines);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string wrap_text(std::string_view text, float width, const MeasureText& measure) {
  std::string out;
  out.reserve(text.size() + 8);
  bool first = true;
  for (std::string_view line : wrap_lines(text, width, measure)) {
    if (!first) out += '\n';
    out.append(line.data(), line.size());
    first = false;
  }
  return out;
}

}  // namespace ui
