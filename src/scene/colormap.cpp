// colormap.cpp — colormap tables built from published anchor colours by linear interpolation.
#include "scene/colormap.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace scene {
namespace {

struct Rgb {
  float r, g, b;
};

constexpr Rgb hex(std::uint32_t v) {
  return {float((v >> 16) & 0xff), float((v >> 8) & 0xff), float(v & 0xff)};
}

// matplotlib's viridis sampled at 9 evenly spaced points (R viridisLite::viridis(9)).
constexpr std::array<Rgb, 9> kViridis = {hex(0x440154), hex(0x472D7B), hex(0x3B528B),
                                         hex(0x2C728E), hex(0x21908C), hex(0x27AD81),
                                         hex(0x5DC863), hex(0xAADC32), hex(0xFDE725)};
// ColorBrewer RdBu (9 classes), reversed so negative = blue, 0 = near white, positive = red.
constexpr std::array<Rgb, 9> kDiverging = {hex(0x2166AC), hex(0x4393C3), hex(0x92C5DE),
                                           hex(0xD1E5F0), hex(0xF7F7F7), hex(0xFDDBC7),
                                           hex(0xF4A582), hex(0xD6604D), hex(0xB2182B)};

// The mask grid: 0 = hidden (a dark slate), 1 = may attend (theme teal, palette::allowed()).
constexpr std::array<Rgb, 2> kMask = {hex(0x262B35), hex(0x56968F)};

template <std::size_t N>
void fill_row(const std::array<Rgb, N>& anchors, std::uint8_t* row) {
  for (int i = 0; i < kColormapSize; ++i) {
    const float x = float(i) / float(kColormapSize - 1) * float(N - 1);
    const int k = std::min(int(x), int(N) - 2);
    const float f = x - float(k);
    const Rgb& a = anchors[k];
    const Rgb& b = anchors[k + 1];
    row[4 * i + 0] = std::uint8_t(std::lround(a.r + (b.r - a.r) * f));
    row[4 * i + 1] = std::uint8_t(std::lround(a.g + (b.g - a.g) * f));
    row[4 * i + 2] = std::uint8_t(std::lround(a.b + (b.b - a.b) * f));
    row[4 * i + 3] = 255;
  }
}

std::array<std::uint8_t, kColormapCount * kColormapSize * 4> build_table() {
  std::array<std::uint8_t, kColormapCount * kColormapSize * 4> table{};
  fill_row(kViridis, table.data());
  fill_row(kDiverging, table.data() + kColormapSize * 4);
  fill_row(kMask, table.data() + 2 * kColormapSize * 4);
  return table;
}

}  // namespace

const std::uint8_t* colormap_rgba8() {
  static const auto table = build_table();
  return table.data();
}

int colormap_index(float t) {
  if (!(t >= 0.0f)) t = 0.0f;  // also catches NaN
  if (t > 1.0f) t = 1.0f;
  return int(t * 255.0f + 0.5f);
}

const std::uint8_t* colormap_entry(Colormap map, float t) {
  return colormap_rgba8() + (int(map) * kColormapSize + colormap_index(t)) * 4;
}

}  // namespace scene
