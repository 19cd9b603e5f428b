// export_parts.hpp — what the export formats share (export_script.cpp, export_latex.cpp,
// export_svg.cpp): round-trip numbers, comment-safe labels, the stages a figure shows and their
// formulas. Internal to src/scene; the public API is export.hpp.
#pragma once

#include <string>
#include <vector>

#include "core/attention.hpp"
#include "scene/export.hpp"
#include "scene/scene.hpp"

namespace scene::export_parts {

// The shortest decimal that reads back as the same double ("0.1", "1.0", "1e-05"): nlohmann's
// printer, the one scene_to_json uses. Valid Python, NumPy and PyTorch literal syntax.
std::string exact(double x);
// x with `digits` decimals; never "-0.000".
std::string fixed(double x, int digits, const char* minus = "-");
// A token label on one comment line: line breaks and control characters become spaces.
std::string one_line(const std::string& s);
// The tokens on one line, each through one_line, joined by `separator`.
std::string join_labels(const std::vector<std::string>& tokens, const char* separator);

// "s = √d_k = √2", "s = 1 (scale \"none\": …)", "s = the temperature T = 0.5" — the divisor s of
// the scene, for comments and titles.
std::string scale_words(const Scene& s);
// The stage's formula in plain Unicode (SVG titles), with the heads and RoPE notes.
std::string stage_formula(const Scene& s, ExportStage stage);
// The same in LaTeX comment form (ASCII).
std::string stage_formula_tex(const Scene& s, ExportStage stage);

// The stages a figure or matrix shows: the full Q, K, V (before any RoPE), the weights (with heads,
// their mean, as the CLI's "weights"), the final output (after any Wo); scores and scaled of head 0.
attn::Result figure_stages(const Scene& s);
// Weights, scores and scaled are n×n (rows and columns are tokens); Q, K, V and output are n×d.
bool square_stage(ExportStage stage);
const attn::Matrix& stage_matrix(const attn::Result& r, ExportStage stage);

}  // namespace scene::export_parts
