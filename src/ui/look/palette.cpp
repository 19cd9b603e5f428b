// palette.cpp — a theme's palette, and WCAG luminance and contrast.
#include "ui/look/palette.hpp"

#include <algorithm>
#include <cmath>

namespace ui {
namespace {

double linear(int channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

}  // namespace

const Palette& palette_of(Theme theme) {
  switch (theme) {
    case Theme::Light:
      return kLightPalette;
    case Theme::Contrast:
      return kContrastPalette;
    case Theme::Dark:
      break;
  }
  return kDarkPalette;
}

double relative_luminance(Rgba c) {
  return 0.2126 * linear(red_of(c)) + 0.7152 * linear(green_of(c)) + 0.0722 * linear(blue_of(c));
}

double contrast_ratio(Rgba a, Rgba b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace ui
