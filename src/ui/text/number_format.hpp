// number_format.hpp — numbers as the panels print them (plain C++, no ImGui: unit-tested).
//
// Fixed decimals read well for most cells ("0.422"), but they can hide the lesson: the soft
// dictionary's weights 0.999955 / 0.000045 print as "1.000" / "0.000", which looks exact (and "0"
// is what a masked cell shows). These functions add just enough digits, or switch to scientific
// notation, so a value that is almost but not exactly 0 or 1 (or almost a value row) never reads as
// exact, and they stay within a character budget (a heatmap cell, an output box).
#pragma once

#include <string>

namespace ui {

// Fixed decimals, a real minus sign (U+2212 "−"), and no "−0.00": format_number(-0.0001, 2) = "0.00".
// Infinities are "∞" / "−∞"; NaN is "?".
std::string format_number(double value, int decimals);

// A weight in [0, 1] for a cell that shows `decimals` decimals in at most `max_chars` characters:
//   exactly 0 → "0" (a masked or underflowed weight is exactly 0);
//   0 < w < ½·10^−decimals (fixed would print 0.000) → two significant digits, fixed or scientific
//   whichever is shorter ("4.5e-5", "0.040"), else one ("5e-5", "0.04"), else "≈0";
//   1 − ½·10^−decimals < w < 1 (fixed would print 1.000) → decimals up to two significant digits
//   of 1 − w ("0.999955"), else one ("0.99995"), else "≈1";
//   otherwise format_number(w, decimals).
std::string format_weight(double w, int decimals, int max_chars = 32);

// `value` with at least `decimals` decimals, and more when fixed decimals would print it the same as
// `reference` although they differ: the most decimals up to two significant digits of
// |value − reference| that fit in `max_chars` and still differ from the reference's text
// (1.000091 next to 1 → "1.000091", in 6 characters "1.0001"), else format_number(value, decimals).
std::string format_distinct(double value, double reference, int decimals, int max_chars = 32);

// Length in characters (UTF-8 code points), the unit of max_chars.
int text_length(const std::string& text);

}  // namespace ui
