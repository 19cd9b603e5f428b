// text_wrap.hpp — where a wrapped text breaks its lines (plain C++, no ImGui: unit-tested).
//
// ImGui 1.86's word wrap (ImFont::CalcWordWrapPositionA) may break a line right after '.', ',', ';',
// '!' or '?', so "slope 0.125" can end a line with "0." and start the next with "125". These
// functions break only at spaces (and at explicit '\n'), so a number, "√d_k" or "2^(−8h/H)" always
// stays on one line; a single token wider than the line is the one case broken inside (at the last
// code point that fits).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ui {

// The width of a piece of text, in the unit of `width` below (ImGui: CalcTextSize(begin, end).x).
// A line is measured whole (from its first character), so kerning or rounding never lets it overflow.
using MeasureText = std::function<float(std::string_view)>;

// The lines of `text` at most `width` wide: views into `text`, without the spaces at a break.
//   - '\n' always breaks (an empty line stays one empty line), ' ' is the only other break;
//   - a line takes words while [its first character, the word's end) measures ≤ width;
//   - a word that alone measures > width is split at code-point boundaries, each piece as wide as
//     fits (at least one code point, so any width ends).
// Empty text is one empty line.
std::vector<std::string_view> wrap_lines(std::string_view text, float width, const MeasureText& measure);

// The same lines joined with '\n' (what ImGui::TextUnformatted draws as one item without wrapping).
std::string wrap_text(std::string_view text, float width, const MeasureText& measure);

}  // namespace ui
