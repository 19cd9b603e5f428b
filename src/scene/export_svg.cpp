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
#include "scene/variant_keys.hpp"

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

// Row labels: the queries' tokens, or for K and V the keys' — the sources' with cross-attention.
const std::vector<std::string>& row_labels(const Scene& s, ExportStage stage) {
  return stage == ExportStage::K || stage == ExportStage::V ? key_labels(s) : s.tokens;
}

// Column labels: the keys' tokens (or sources) for the n×m stages, dimensions 1…d otherwise.
std::vector<std::string> column_labels(const Scene& s, ExportStage stage, Eigen::Index cols) {
  if (square_stage(stage)) return key_labels(s);
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
// (ui/look/theme.hpp palette::gap() behind palette::hatch() stripes).
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
// symmetric around 0 over the visible (allowed) cells (ui/panels/heatmap_image.cpp).
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

// The figure's geometry (user units = CSS pixels):
//
//   kPad ┌ title, subtitle (title_h) ──────────────────────────┐
//        │            column labels (col_label_h, upright or slanted)
//        │ row labels ┌ grid_x, grid_y ── grid_w ┐
//        │ (row_label_w) cells (cell each)        │ grid_h
//        │            └──────────────────────────┘
//        │            colour bar (bar_w × bar_h at bar_y) · masked swatch
//        └─────────────────────────────────────────── width × height
constexpr double kPad = 16, kFont = 12, kSmall = 10, kCharW = 0.62 * kFont, kMaxLabelChars = 14;
constexpr double kSlant = 55.0;  // degrees: long key labels are drawn rising to the right
constexpr double kPi = 3.14159265358979323846;

struct Figure {
  Eigen::Index rows = 0, cols = 0;
  bool as_image = false;  // one embedded PNG instead of a <rect> per cell
  double cell = 0, grid_w = 0, grid_h = 0, grid_x = 0, grid_y = 0;
  Eigen::Index row_step = 1, col_step = 1;  // every k-th label when cells are smaller than the text
  bool col_upright = true;
  double bar_w = 0, bar_h = 10, bar_y = 0;
  bool any_masked = false;
  std::string title, subtitle;
  double width = 0, height = 0;
};

Figure figure_layout(const Scene& s, ExportStage stage, const Heat& heat,
                     const std::vector<std::string>& col_labels) {
  Figure f;
  f.rows = heat.values->rows();
  f.cols = heat.values->cols();
  f.as_image = std::max(f.rows, f.cols) > kMaxVectorCells;
  f.cell = std::min(56.0, 480.0 / double(std::max(f.rows, f.cols)));
  f.grid_w = f.cell * double(f.cols);
  f.grid_h = f.cell * double(f.rows);
  f.row_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(13.0 / f.cell)));
  f.col_step = f.row_step;
  auto longest = [&](const std::vector<std::string>& labels) {
    int chars = 1;
    for (const std::string& label : labels)
      chars = std::max(chars, utf8_length(clip_label(label, int(kMaxLabelChars))));
    return chars;
  };
  const double row_label_w = longest(row_labels(s, stage)) * kCharW + 8;
  const int col_chars = longest(col_labels);
  f.col_upright = col_chars * kCharW + 4 <= f.cell * double(f.col_step);
  // Slanted labels need about a line height / sin(slant) between neighbours.
  if (!f.col_upright) f.col_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(17.0 / f.cell)));
  const double col_label_h =
      f.col_upright ? kFont + 6 : col_chars * kCharW * std::sin(kSlant * kPi / 180.0) + kFont + 4;
  const double title_h = 2 * kFont + 14;
  f.grid_x = kPad + row_label_w;
  f.grid_y = kPad + title_h + col_label_h;
  f.bar_w = std::max(f.grid_w, 160.0);
  f.bar_y = f.grid_y + f.grid_h + 14;
  for (Eigen::Index i = 0; i < f.rows && heat.allowed; ++i)
    for (Eigen::Index j = 0; j < f.cols; ++j) f.any_masked = f.any_masked || heat.masked(i, j);
  const double swatch_w = f.any_masked ? 130 : 0;
  f.title = stage_formula(s, stage);
  f.subtitle =
      std::to_string(f.rows) + " × " + std::to_string(f.cols) +
      (square_stage(stage) ? " · rows: queries · columns: keys" : " · rows: tokens · columns: dimensions") +
      (stage == ExportStage::Weights || stage == ExportStage::Scaled ? " · " + scale_words(s) : "");
  f.width = std::max({f.grid_x + std::max(f.bar_w, f.grid_w) + swatch_w + kPad,
                      kPad + utf8_length(f.title) * 0.62 * 14 + kPad,
                      kPad + utf8_length(f.subtitle) * 0.62 * kSmall + kPad});
  f.height = f.bar_y + f.bar_h + kSmall + 8 + kPad;
  return f;
}

// The XML declaration, <svg>, the hatch pattern, the white page, title and subtitle.
std::string svg_head(const Figure& f, ExportStage stage) {
  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  // (An XML comment may not contain "--", so no command-line flags here.)
  svg += "<!-- Attention Lab: " + xml_text(f.title) + ", stage " + export_stage_name(stage) + " -->\n";
  svg +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
      "version=\"1.1\" width=\"" +
      svg_number(f.width) + "\" height=\"" + svg_number(f.height) + "\" viewBox=\"0 0 " +
      svg_number(f.width) + " " + svg_number(f.height) +
      "\" font-family=\"Inter, 'DejaVu Sans', Helvetica, Arial, sans-serif\" font-size=\"" +
      svg_number(kFont) + "\">\n";
  svg +=
      "<defs>\n<pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" +
      std::string(kHatchBack) + "\"/><rect width=\"2\" height=\"6\" fill=\"" + kHatchStripe +
      "\"/></pattern>\n</defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14) + "\" font-size=\"14\" fill=\"" +
         kInk + "\" font-weight=\"bold\">" + xml_text(f.title) + "</text>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14 + kSmall + 8) +
         "\" font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" + xml_text(f.subtitle) +
         "</text>\n";
  return svg;
}

// Labels: queries (tokens) on the left, keys or dimensions on top.
std::string svg_labels(const Scene& s, ExportStage stage, const Figure& f,
                       const std::vector<std::string>& col_labels) {
  const std::vector<std::string>& rows = row_labels(s, stage);
  std::string svg = "<g fill=\"" + std::string(kInk) + "\">\n";
  for (Eigen::Index i = 0; i < f.rows; i += f.row_step) {
    svg += "<text class=\"row-label\" x=\"" + svg_number(f.grid_x - 6) + "\" y=\"" +
           svg_number(f.grid_y + (double(i) + 0.5) * f.cell) +
           "\" text-anchor=\"end\" dominant-baseline=\"central\">" +
           xml_text(clip_label(rows[std::size_t(i)], int(kMaxLabelChars))) + "</text>\n";
  }
  for (Eigen::Index j = 0; j < f.cols; j += f.col_step) {
    const double x = f.grid_x + (double(j) + 0.5) * f.cell, y = f.grid_y - 6;
    const std::string label = xml_text(clip_label(col_labels[std::size_t(j)], int(kMaxLabelChars)));
    if (f.col_upright)
      svg += "<text class=\"col-label\" x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) +
             "\" text-anchor=\"middle\">" + label + "</text>\n";
    else
      svg += "<text class=\"col-label\" transform=\"translate(" + svg_number(x) + "," + svg_number(y) +
             ") rotate(-" + svg_number(kSlant) + ")\">" + label + "</text>\n";
  }
  return svg + "</g>\n";
}

// A <rect> per cell with its value as a <title> tooltip, and the number in it when it fits.
std::string svg_cells(const Scene& s, ExportStage stage, const Heat& heat, const Figure& f, int digits) {
  const attn::Matrix& m = *heat.values;
  const int decimals = cell_decimals(m, f.cell, 0.62 * 11, digits);
  const double gap = f.cell >= 8 ? 1 : 0, cell = f.cell;
  const std::vector<std::string>& rows = row_labels(s, stage);
  std::string svg = "<g class=\"cells\">\n";
  for (Eigen::Index i = 0; i < f.rows; ++i) {
    for (Eigen::Index j = 0; j < f.cols; ++j) {
      const double x = f.grid_x + double(j) * cell, y = f.grid_y + double(i) * cell;
      const bool hidden = heat.masked(i, j);
      const std::uint8_t* c = heat.color(i, j);
      const std::string where =
          square_stage(stage)
              ? one_line(rows[std::size_t(i)]) + " → " + one_line(key_labels(s)[std::size_t(j)])
              : one_line(rows[std::size_t(i)]) + ", " + std::to_string(j + 1);
      svg += "<rect class=\"" + std::string(hidden ? "cell masked" : "cell") + "\" data-row=\"" +
             std::to_string(i) + "\" data-col=\"" + std::to_string(j) + "\" x=\"" + svg_number(x + gap / 2) +
             "\" y=\"" + svg_number(y + gap / 2) + "\" width=\"" + svg_number(cell - gap) + "\" height=\"" +
             svg_number(cell - gap) + "\" fill=\"" + (hidden ? std::string("url(#hatch)") : hex_color(c)) +
             "\"><title>" + xml_text(where) + ": " +
             (hidden ? std::string(stage == ExportStage::Weights ? "masked (0)" : "masked (−∞)")
                     : fixed(m(i, j), 6, "−")) +
             "</title></rect>\n";
      if (!hidden && decimals >= 0)
        svg += "<text x=\"" + svg_number(x + cell / 2) + "\" y=\"" + svg_number(y + cell / 2) +
               "\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"" +
               text_on(c) + "\">" + fixed(m(i, j), decimals, "−") + "</text>\n";
    }
  }
  return svg + "</g>\n";
}

// One pixel per cell, scaled up without smoothing; masked cells in the hatch colour (flat).
std::string svg_cells_image(const Heat& heat, const Figure& f) {
  const Eigen::Index rows = f.rows, cols = f.cols;
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
  return "<image class=\"cells-image\" x=\"" + svg_number(f.grid_x) + "\" y=\"" + svg_number(f.grid_y) +
         "\" width=\"" + svg_number(f.grid_w) + "\" height=\"" + svg_number(f.grid_h) +
         "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
         "style=\"image-rendering:pixelated\" "
         "xlink:href=\"data:image/png;base64," +
         base64(png) + "\"/>\n";
}

// The colour bar: 64 steps through the same table, lo / middle / hi below; the masked swatch.
std::string svg_colorbar(ExportStage stage, const Heat& heat, const Figure& f) {
  std::string svg = "<g class=\"colorbar\" shape-rendering=\"crispEdges\">\n";
  for (int k = 0; k < 64; ++k) {
    const float v = heat.lo + (heat.hi - heat.lo) * float(k) / 63.0f;
    const std::uint8_t* c =
        colormap_entry(heat.colormap, (v - heat.lo) / std::max(heat.hi - heat.lo, 1e-12f));
    svg += "<rect x=\"" + svg_number(f.grid_x + f.bar_w * k / 64.0) + "\" y=\"" + svg_number(f.bar_y) +
           "\" width=\"" + svg_number(f.bar_w / 64.0 + 0.3) + "\" height=\"" + svg_number(f.bar_h) +
           "\" fill=\"" + hex_color(c) + "\"/>\n";
  }
  const bool weights = stage == ExportStage::Weights;
  const std::string lo = weights ? "0" : fixed(heat.lo, 2, "−"), hi = weights ? "1" : fixed(heat.hi, 2, "−");
  const std::string mid = weights ? "0.5" : "0";
  const double label_y = f.bar_y + f.bar_h + kSmall + 2;
  svg += "<g font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">";
  svg += "<text x=\"" + svg_number(f.grid_x) + "\" y=\"" + svg_number(label_y) + "\">" + lo + "</text>";
  svg += "<text x=\"" + svg_number(f.grid_x + f.bar_w / 2) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"middle\">" + mid + "</text>";
  svg += "<text x=\"" + svg_number(f.grid_x + f.bar_w) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"end\">" + hi + "</text></g>\n";
  if (f.any_masked) {
    const double sx = f.grid_x + f.bar_w + 14;
    // The embedded image cannot hatch a pixel: its masked cells are the stripes' colour, flat.
    svg += "<rect x=\"" + svg_number(sx) + "\" y=\"" + svg_number(f.bar_y - 2) +
           "\" width=\"14\" height=\"14\" fill=\"" +
           (f.as_image ? hex_color(kHatchFlat) : std::string("url(#hatch)")) + "\"/>";
    svg += "<text x=\"" + svg_number(sx + 19) + "\" y=\"" + svg_number(f.bar_y + 9) + "\" font-size=\"" +
           svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" +
           (weights                        ? "masked: 0"
            : stage == ExportStage::Scores ? "masked (−∞ after scaling)"
                                           : "masked: −∞") +
           "</text>\n";
  }
  return svg + "</g>\n";
}

}  // namespace

std::string export_svg(const Scene& s, ExportStage stage, int digits) {
  digits = std::clamp(digits, 0, kMaxExportDigits);
  const attn::Result r = figure_stages(s);
  const Heat heat = heat_of(r, stage);
  const std::vector<std::string> col_labels = column_labels(s, stage, heat.values->cols());
  const Figure f = figure_layout(s, stage, heat, col_labels);
  return svg_head(f, stage) + svg_labels(s, stage, f, col_labels) +
         (f.as_image ? svg_cells_image(heat, f) : svg_cells(s, stage, heat, f, digits)) +
         svg_colorbar(stage, heat, f) + "</svg>\n";
}

}  // namespace scene
