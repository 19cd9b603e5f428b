// export_svg.cpp — one stage as a standalone SVG heatmap in the app's colormap (export.hpp):
// vector cells for n ≤ 64, one embedded PNG (a pixel per cell) beyond.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "scene/colormap.hpp"
#include "scene/export.hpp"
#include "scene/export_parts.hpp"

// PNG encoding for the big-matrix SVG: stb_image_write (Debian's libstb-dev), private to this file
// (STATIC) so it never clashes with the app's own copy in app/screenshot.cpp.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace scene {
namespace {

using namespace export_parts;

// ---------------------------------------------------------------------------------------------
// [SECTION] 1. Text in SVG
// ---------------------------------------------------------------------------------------------

// Text for an XML attribute or element.
std::string xml_text(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += (c < 0x20 || c == 0x7f) ? ' ' : ch;  // XML 1.0 has no control characters
    }
  }
  return out;
}

// Number of code points of UTF-8 text (for width estimates).
int utf8_length(const std::string& s) {
  int count = 0;
  for (const char ch : s) count += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return count;
}

// At most `max_chars` code points, with "…" when cut.
std::string clip_label(const std::string& s, int max_chars) {
  if (utf8_length(s) <= max_chars) return s;
  std::string out;
  int count = 0;
  for (const char ch : s) {
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80 && ++count > max_chars - 1) break;
    out += ch;
  }
  return out + "…";
}

// Column labels: the keys' tokens for n×n stages, dimensions 1…d otherwise.
std::vector<std::string> column_labels(const Scene& s, ExportStage stage, Eigen::Index cols) {
  if (square_stage(stage)) return s.tokens;
  std::vector<std::string> labels;
  for (Eigen::Index j = 0; j < cols; ++j) labels.push_back(std::to_string(j + 1));
  return labels;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 2. Colours, cells and the figure
// ---------------------------------------------------------------------------------------------

// Beyond this many rows or columns the cells are one embedded PNG (a pixel per cell) instead of
// one <rect> each: 1024×1024 rects would be tens of megabytes.
constexpr Eigen::Index kMaxVectorCells = 64;

// Figure colours: a white page (for papers and slides) and the app's own hatch for masked cells
// (ui/look/theme.hpp palette::kGap behind palette::kHatch stripes).
constexpr const char* kInk = "#1E222A";
constexpr const char* kInkDim = "#5A6270";
constexpr const char* kHatchBack = "#1E222A";
constexpr const char* kHatchStripe = "#5C6474";
constexpr unsigned char kHatchFlat[3] = {0x5C, 0x64, 0x74};  // masked cells inside the PNG

std::string hex_color(const std::uint8_t* c) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02X%02X%02X", c[0], c[1], c[2]);
  return buffer;
}

// Dark or light text on a cell, whichever contrasts more (WCAG luminance; as ui::contrasting_text).
const char* text_on(const std::uint8_t* c) {
  auto linear = [](std::uint8_t channel) {
    const double v = channel / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const double luminance = 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  return luminance > 0.18 ? "#14161C" : "#FAFAFC";
}

std::string svg_number(double x) {  // coordinates: at most 2 decimals, no trailing zeros
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", x);
  std::string s = buffer;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string base64(const std::vector<unsigned char>& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned v = unsigned(bytes[i]) << 16 | (i + 1 < bytes.size() ? unsigned(bytes[i + 1]) << 8 : 0u) |
                       (i + 2 < bytes.size() ? unsigned(bytes[i + 2]) : 0u);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

struct Heat {
  const attn::Matrix* values = nullptr;
  const attn::MaskMatrix* allowed = nullptr;  // n×n stages: hatched where 0; null for n×d stages
  Colormap colormap = Colormap::Viridis;
  float lo = 0, hi = 1;
  bool masked(Eigen::Index i, Eigen::Index j) const { return allowed && !(*allowed)(i, j); }
  // The cell's table entry, computed as heatmap.frag does (float t, ⌊255 t + ½⌋).
  const std::uint8_t* color(Eigen::Index i, Eigen::Index j) const {
    const float span = std::max(hi - lo, 1e-12f);
    return colormap_entry(colormap, (float((*values)(i, j)) - lo) / span);
  }
};

// What the app's heatmaps do: weights in viridis over [0, 1]; signed stages diverging and
// symmetric around 0 over the visible (allowed) cells (heatmap_panel.cpp's heatmap_data).
Heat heat_of(const attn::Result& r, ExportStage stage) {
  Heat h;
  h.values = &stage_matrix(r, stage);
  if (square_stage(stage)) h.allowed = &r.allowed;
  if (stage == ExportStage::Weights) return h;
  h.colormap = Colormap::Diverging;
  double largest = 0;
  for (Eigen::Index i = 0; i < h.values->rows(); ++i)
    for (Eigen::Index j = 0; j < h.values->cols(); ++j)
      if (!h.masked(i, j)) largest = std::max(largest, std::abs((*h.values)(i, j)));
  const float span = float(largest > 1e-9 ? largest : 1.0);
  h.lo = -span;
  h.hi = span;
  return h;
}

// Decimals of the numbers inside cells: `digits` or fewer until "−x.yyy" fits; −1 = none fit.
int cell_decimals(const attn::Matrix& m, double cell, double char_w, int digits) {
  double largest = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) largest = std::max(largest, std::abs(m(i, j)));
  const int int_digits = largest < 1 ? 1 : int(std::floor(std::log10(largest))) + 1;
  for (int d = digits; d >= std::min(digits, 1); --d) {
    const int chars = 1 + int_digits + (d ? 1 + d : 0);  // sign, integer part, point, decimals
    if (chars * char_w + 6 <= cell) return d;
  }
  return -1;
}

}  // namespace

std::string export_svg(const Scene& s, ExportStage stage, int digits) {
  digits = std::clamp(digits, 0, kMaxExportDigits);
  const attn::Result r = figure_stages(s);
  const Heat heat = heat_of(r, stage);
  const attn::Matrix& m = *heat.values;
  const Eigen::Index rows = m.rows(), cols = m.cols();
  const bool as_image = std::max(rows, cols) > kMaxVectorCells;
  const std::vector<std::string> col_labels = column_labels(s, stage, cols);

  // --- geometry (user units = CSS pixels) ---
  constexpr double kPad = 16, kFont = 12, kSmall = 10, kCharW = 0.62 * kFont, kMaxLabelChars = 14;
  const double cell = std::min(56.0, 480.0 / double(std::max(rows, cols)));
  const double grid_w = cell * double(cols), grid_h = cell * double(rows);
  // Show every k-th label when cells are smaller than the text.
  const Eigen::Index row_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(13.0 / cell)));
  Eigen::Index col_step = row_step;
  auto longest = [&](const std::vector<std::string>& labels) {
    int chars = 1;
    for (const std::string& label : labels)
      chars = std::max(chars, utf8_length(clip_label(label, int(kMaxLabelChars))));
    return chars;
  };
  const double row_label_w = longest(s.tokens) * kCharW + 8;
  const int col_chars = longest(col_labels);
  const bool col_upright = col_chars * kCharW + 4 <= cell * double(col_step);
  // Slanted labels need about a line height / sin(slant) between neighbours.
  if (!col_upright) col_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(17.0 / cell)));
  constexpr double kSlant = 55.0,
                   kPi = 3.14159265358979323846;  // degrees: long key labels are drawn rising to the right
  const double col_label_h =
      col_upright ? kFont + 6 : col_chars * kCharW * std::sin(kSlant * kPi / 180.0) + kFont + 4;
  const double title_h = 2 * kFont + 14;
  const double grid_x = kPad + row_label_w;
  const double grid_y = kPad + title_h + col_label_h;
  const double bar_w = std::max(grid_w, 160.0), bar_h = 10;
  const double bar_y = grid_y + grid_h + 14;
  bool any_masked = false;
  for (Eigen::Index i = 0; i < rows && heat.allowed; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) any_masked = any_masked || heat.masked(i, j);
  const double swatch_w = any_masked ? 130 : 0;
  const std::string title = stage_formula(s, stage);
  const std::string subtitle =
      std::to_string(rows) + " × " + std::to_string(cols) +
      (square_stage(stage) ? " · rows: queries · columns: keys" : " · rows: tokens · columns: dimensions") +
      (stage == ExportStage::Weights || stage == ExportStage::Scaled ? " · " + scale_words(s) : "");
  const double width = std::max({grid_x + std::max(bar_w, grid_w) + swatch_w + kPad,
                                 kPad + utf8_length(title) * 0.62 * 14 + kPad,
                                 kPad + utf8_length(subtitle) * 0.62 * kSmall + kPad});
  const double height = bar_y + bar_h + kSmall + 8 + kPad;

  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  // (An XML comment may not contain "--", so no command-line flags here.)
  svg += "<!-- Attention Lab: " + xml_text(title) + ", stage " + export_stage_name(stage) + " -->\n";
  svg +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
      "version=\"1.1\" width=\"" +
      svg_number(width) + "\" height=\"" + svg_number(height) + "\" viewBox=\"0 0 " + svg_number(width) +
      " " + svg_number(height) +
      "\" font-family=\"Inter, 'DejaVu Sans', Helvetica, Arial, sans-serif\" font-size=\"" +
      svg_number(kFont) + "\">\n";
  svg +=
      "<defs>\n<pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" +
      std::string(kHatchBack) + "\"/><rect width=\"2\" height=\"6\" fill=\"" + kHatchStripe +
      "\"/></pattern>\n</defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14) + "\" font-size=\"14\" fill=\"" +
         kInk + "\" font-weight=\"bold\">" + xml_text(title) + "</text>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14 + kSmall + 8) +
         "\" font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" + xml_text(subtitle) +
         "</text>\n";

  // --- labels: queries (tokens) on the left, keys or dimensions on top ---
  svg += "<g fill=\"" + std::string(kInk) + "\">\n";
  for (Eigen::Index i = 0; i < rows; i += row_step) {
    svg += "<text class=\"row-label\" x=\"" + svg_number(grid_x - 6) + "\" y=\"" +
           svg_number(grid_y + (double(i) + 0.5) * cell) +
           "\" text-anchor=\"end\" dominant-baseline=\"central\">" +
           xml_text(clip_label(s.tokens[std::size_t(i)], int(kMaxLabelChars))) + "</text>\n";
  }
  for (Eigen::Index j = 0; j < cols; j += col_step) {
    const double x = grid_x + (double(j) + 0.5) * cell, y = grid_y - 6;
    const std::string label = xml_text(clip_label(col_labels[std::size_t(j)], int(kMaxLabelChars)));
    if (col_upright)
      svg += "<text class=\"col-label\" x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) +
             "\" text-anchor=\"middle\">" + label + "</text>\n";
    else
      svg += "<text class=\"col-label\" transform=\"translate(" + svg_number(x) + "," + svg_number(y) +
             ") rotate(-" + svg_number(kSlant) + ")\">" + label + "</text>\n";
  }
  svg += "</g>\n";

  // --- cells ---
  if (!as_image) {
    const int decimals = cell_decimals(m, cell, 0.62 * 11, digits);
    const double gap = cell >= 8 ? 1 : 0;
    svg += "<g class=\"cells\">\n";
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index j = 0; j < cols; ++j) {
        const double x = grid_x + double(j) * cell, y = grid_y + double(i) * cell;
        const bool hidden = heat.masked(i, j);
        const std::uint8_t* c = heat.color(i, j);
        const std::string where =
            square_stage(stage)
                ? one_line(s.tokens[std::size_t(i)]) + " → " + one_line(s.tokens[std::size_t(j)])
                : one_line(s.tokens[std::size_t(i)]) + ", " + std::to_string(j + 1);
        svg += "<rect class=\"" + std::string(hidden ? "cell masked" : "cell") + "\" data-row=\"" +
               std::to_string(i) + "\" data-col=\"" + std::to_string(j) + "\" x=\"" +
               svg_number(x + gap / 2) + "\" y=\"" + svg_number(y + gap / 2) + "\" width=\"" +
               svg_number(cell - gap) + "\" height=\"" + svg_number(cell - gap) + "\" fill=\"" +
               (hidden ? std::string("url(#hatch)") : hex_color(c)) + "\"><title>" + xml_text(where) + ": " +
               (hidden ? std::string(stage == ExportStage::Weights ? "masked (0)" : "masked (−∞)")
                       : fixed(m(i, j), 6, "−")) +
               "</title></rect>\n";
        if (!hidden && decimals >= 0)
          svg += "<text x=\"" + svg_number(x + cell / 2) + "\" y=\"" + svg_number(y + cell / 2) +
                 "\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"" +
                 text_on(c) + "\">" + fixed(m(i, j), decimals, "−") + "</text>\n";
      }
    }
    svg += "</g>\n";
  } else {
    // One pixel per cell, scaled up without smoothing; masked cells in the hatch colour (flat).
    std::vector<unsigned char> pixels(std::size_t(rows * cols) * 3);
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index j = 0; j < cols; ++j) {
        unsigned char* p = &pixels[std::size_t(i * cols + j) * 3];
        const std::uint8_t* c = heat.masked(i, j) ? kHatchFlat : heat.color(i, j);
        std::copy(c, c + 3, p);
      }
    }
    std::vector<unsigned char> png;
    stbi_write_png_to_func(append_bytes, &png, int(cols), int(rows), 3, pixels.data(), int(cols) * 3);
    svg += "<image class=\"cells-image\" x=\"" + svg_number(grid_x) + "\" y=\"" + svg_number(grid_y) +
           "\" width=\"" + svg_number(grid_w) + "\" height=\"" + svg_number(grid_h) +
           "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
           "style=\"image-rendering:pixelated\" "
           "xlink:href=\"data:image/png;base64," +
           base64(png) + "\"/>\n";
  }

  // --- colour bar: 64 steps through the same table, lo / middle / hi below ---
  svg += "<g class=\"colorbar\" shape-rendering=\"crispEdges\">\n";
  for (int k = 0; k < 64; ++k) {
    const float v = heat.lo + (heat.hi - heat.lo) * float(k) / 63.0f;
    const std::uint8_t* c =
        colormap_entry(heat.colormap, (v - heat.lo) / std::max(heat.hi - heat.lo, 1e-12f));
    svg += "<rect x=\"" + svg_number(grid_x + bar_w * k / 64.0) + "\" y=\"" + svg_number(bar_y) +
           "\" width=\"" + svg_number(bar_w / 64.0 + 0.3) + "\" height=\"" + svg_number(bar_h) +
           "\" fill=\"" + hex_color(c) + "\"/>\n";
  }
  const bool weights = stage == ExportStage::Weights;
  const std::string lo = weights ? "0" : fixed(heat.lo, 2, "−"), hi = weights ? "1" : fixed(heat.hi, 2, "−");
  const std::string mid = weights ? "0.5" : "0";
  const double label_y = bar_y + bar_h + kSmall + 2;
  svg += "<g font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">";
  svg += "<text x=\"" + svg_number(grid_x) + "\" y=\"" + svg_number(label_y) + "\">" + lo + "</text>";
  svg += "<text x=\"" + svg_number(grid_x + bar_w / 2) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"middle\">" + mid + "</text>";
  svg += "<text x=\"" + svg_number(grid_x + bar_w) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"end\">" + hi + "</text></g>\n";
  if (any_masked) {
    const double sx = grid_x + bar_w + 14;
    // The embedded image cannot hatch a pixel: its masked cells are the stripes' colour, flat.
    svg += "<rect x=\"" + svg_number(sx) + "\" y=\"" + svg_number(bar_y - 2) +
           "\" width=\"14\" height=\"14\" fill=\"" +
           (as_image ? hex_color(kHatchFlat) : std::string("url(#hatch)")) + "\"/>";
    svg += "<text x=\"" + svg_number(sx + 19) + "\" y=\"" + svg_number(bar_y + 9) + "\" font-size=\"" +
           svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" +
           (weights                        ? "masked: 0"
            : stage == ExportStage::Scores ? "masked (−∞ after scaling)"
                                           : "masked: −∞") +
           "</text>\n";
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace scene
