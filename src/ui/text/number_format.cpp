// number_format.cpp — see number_format.hpp.
#include "ui/text/number_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace ui {
namespace {

// More decimals than a double carries (17 significant digits) only print noise.
constexpr int kMaxDecimals = 17;

// "4.5e-5" (sig = 2) or "5e-5" (sig = 1): C's "%.1e" is "4.5e-05"; drop the exponent's '+' and
// leading zeros, which only take room in a cell.
std::string scientific(double value, int sig) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", std::max(0, sig - 1), value);
  std::string text(buffer);
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string mantissa = text.substr(0, e), exponent = text.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

// Decimal place of the first significant digit of `gap` > 0: 4.5e-5 → 5 (0.0000|4|5).
int first_digit_place(double gap) {
  return int(-std::floor(std::log10(gap)));
}

}  // namespace

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return value > 0 ? "∞" : value < 0 ? "−∞" : "?";
  // 512: room for the 309 integer digits of the largest double and kMaxDecimals decimals.
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%.*f", std::clamp(decimals, 0, kMaxDecimals), std::abs(value));
  // "−0.00" reads as a different number from "0.00": print the sign only if a digit survives.
  bool nonzero = false;
  for (const char* p = buffer; *p; ++p) nonzero |= (*p >= '1' && *p <= '9');
  return (value < 0 && nonzero ? "−" : "") + std::string(buffer);
}

std::string format_weight(double w, int decimals, int max_chars) {
  if (!std::isfinite(w)) return format_number(w, decimals);
  if (w == 0) return "0";
  decimals = std::clamp(decimals, 0, kMaxDecimals);
  const double half_step = 0.5 * std::pow(10.0, -decimals);  // fixed decimals round below this to 0
  if (w > 0 && w < half_step) {
    // Two significant digits, then one: fixed ("0.040") or scientific ("4.5e-5"), whichever is
    // shorter (fixed on a tie).
    const int place = first_digit_place(w);
    for (int sig : {2, 1}) {
      const std::string fixed = place + sig - 1 <= kMaxDecimals ? format_number(w, place + sig - 1) : "";
      const std::string sci = scientific(w, sig);
      const std::string& text = !fixed.empty() && text_length(fixed) <= text_length(sci) ? fixed : sci;
      if (text_length(text) <= max_chars) return text;
    }
    return "≈0";
  }
  if (w < 1 && 1 - w < half_step) {
    const std::string one = format_number(1.0, decimals);
    const int place = first_digit_place(1 - w);
    for (int extra : {1, 0}) {
      const int d = std::max(decimals, place + extra);
      if (d > kMaxDecimals) continue;
      std::string text = format_number(w, d);
      if (text_length(text) <= max_chars && text != format_number(1.0, d)) return text;
    }
    return "≈1";
  }
  return format_number(w, decimals);
}

std::string format_distinct(double value, double reference, int decimals, int max_chars) {
  std::string base = format_number(value, decimals);
  if (!std::isfinite(value) || !std::isfinite(reference) || value == reference) return base;
  if (base != format_number(reference, decimals)) return base;
  // From two significant digits of the difference down to one decimal more than asked: the first
  // text that fits and still differs from the reference's (1.000091 → "1.000091", "1.00009", "1.0001").
  const int place = first_digit_place(std::abs(value - reference));
  for (int d = std::min(place + 1, kMaxDecimals); d > decimals; --d) {
    std::string text = format_number(value, d);
    if (text_length(text) <= max_chars && text != format_number(reference, d)) return text;
  }
  return base;
}

int text_length(const std::string& text) {
  int n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;  // count all but UTF-8 continuation bytes
  return n;
}

}  // namespace ui
