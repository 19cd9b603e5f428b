// export_latex.cpp — one stage as an amsmath `bmatrix` (export.hpp), token labels in comments.
#include <algorithm>

#include "scene/export.hpp"
#include "scene/export_parts.hpp"
#include "scene/variant_keys.hpp"

namespace scene {

using namespace export_parts;

std::string export_latex(const Scene& s, ExportStage stage, int digits) {
  digits = std::clamp(digits, 0, kMaxExportDigits);
  const attn::Result r = figure_stages(s);
  const attn::Matrix& m = stage_matrix(r, stage);
  const bool square = square_stage(stage);
  std::string tex;
  tex += "% Attention Lab: " + stage_formula_tex(s, stage) + ", " + std::to_string(m.rows()) + " x " +
         std::to_string(m.cols()) + ", " + std::to_string(digits) + " decimals\n";
#if AL_ALL_MODES
  if (s.variants) tex += "% the variant pass: $" + variant_formula_tex(s) + "$\n";
  // Cross-attention: the keys (and K, V's rows) are the source tokens.
  const std::vector<std::string>& keys = is_cross_attention(s) ? s.variants->sources : s.tokens;
#else
  const std::vector<std::string>& keys = s.tokens;
#endif
  // With cross-attention K and V have a row per source token (every other scene: unchanged text).
  const bool key_rows = is_cross_attention(s) && (stage == ExportStage::K || stage == ExportStage::V);
  tex += (key_rows ? "% rows (source tokens): " + join_labels(keys, ", ")
                   : "% rows (queries): " + join_labels(s.tokens, ", ")) +
         "\n";
  if (square)
    tex += "% columns (keys): " + join_labels(keys, ", ") + "\n";
  else
    tex += "% columns: dimensions 1.." + std::to_string(m.cols()) + "\n";
  tex += "% needs \\usepackage{amsmath}\n";
  if (m.cols() > 10)  // amsmath's matrices take 10 columns unless told otherwise
    tex += "\\setcounter{MaxMatrixCols}{" + std::to_string(m.cols()) + "}\n";
  tex += "\\begin{bmatrix}\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (j) tex += " & ";
      if (stage == ExportStage::Scaled && !r.allowed(i, j))
        tex += "-\\infty";
      else
        tex += fixed(m(i, j), digits);
    }
    tex += i + 1 < m.rows() ? " \\\\\n" : "\n";
  }
  tex += "\\end{bmatrix}\n";
  return tex;
}

}  // namespace scene
