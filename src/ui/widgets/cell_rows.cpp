// cell_rows.cpp — see cell_rows.hpp.
#include "ui/widgets/cell_rows.hpp"

#include <cstdint>
#include <cstring>

namespace ui {
namespace {

// The bits of a float ≥ 0 (not NaN) order as the floats do, so the largest |value| is an unsigned
// integer max: no call, no NaN case (a vectorizing compiler can also turn it into a vector max).
inline std::uint32_t magnitude_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits & 0x7fffffffu;
}

inline float from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace

float paint_row_linear(const double* v, const unsigned char* allowed, int n, float masked, float* out) {
  std::uint32_t largest = 0;
  for (int j = 0; j < n; ++j) {
    const float x = float(v[j]);
    const bool ok = allowed[j] != 0;
    out[j] = ok ? x : masked;
    const std::uint32_t m = ok ? magnitude_bits(x) : 0u;
    largest = m > largest ? m : largest;
  }
  return from_bits(largest);
}

}  // namespace ui
