// export.hpp — a scene as text to take away: NumPy and PyTorch scripts, LaTeX matrices, SVG figures.
//
// Pure text generation (no UI, no I/O), shared by the CLI (`--export KIND`), the app's Export menu
// and the page API `attentionLab.exportText(kind, stage)`, so all three give the same bytes.
//
//   numpy    a self-contained Python script: the scene's numbers (they read back bit for bit),
//            every stage step by step as the panels show it, module-level `weights` (n×n) and
//            `output` (n×d_v) float64 arrays; the app's conventions exactly (fully masked row →
//            zero weights and output, custom mask AND causal, none / √d_k / temperature scaling).
//   pytorch  the same with torch.float64 tensors; projected scenes use nn.Linear(bias=False).
//   latex    one stage as an amsmath `bmatrix`, token labels in a comment.
//   svg      one stage as a standalone SVG heatmap in the app's colormap (scene/colormap).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/attention.hpp"
#include "scene/scene.hpp"

namespace scene {

enum class ExportKind { NumPy, PyTorch, LaTeX, Svg };

// What a LaTeX or SVG export shows.
enum class ExportStage {
  Weights,  // n×n    A = softmax(QKᵀ/s + M)
  Scores,   // n×n    raw QKᵀ
  Scaled,   // n×n    QKᵀ/s, masked cells −∞
  Q,        // n×d_k
  K,        // n×d_k
  V,        // n×d_v
  Output,   // n×d_v  Y = A V
};

constexpr int kDefaultExportDigits = 3;
constexpr int kMaxExportDigits = 15;

// "numpy" | "pytorch" | "latex" | "svg"; nullopt otherwise.
std::optional<ExportKind> parse_export_kind(std::string_view name);
// "weights" | "scores" | "scaled" | "Q" | "K" | "V" | "output"; nullopt otherwise.
std::optional<ExportStage> parse_export_stage(std::string_view name);
const char* export_stage_name(ExportStage stage);
const char* export_kind_name(ExportKind kind);  // "numpy", "pytorch", "latex", "svg"
// The file name extension of a kind: ".py", ".tex", ".svg".
const char* export_extension(ExportKind kind);

// Each takes a valid scene (validate(s) empty); `digits` ∈ [0, kMaxExportDigits].
std::string export_numpy(const Scene& s);
std::string export_pytorch(const Scene& s);
std::string export_latex(const Scene& s, ExportStage stage, int digits = kDefaultExportDigits);
std::string export_svg(const Scene& s, ExportStage stage, int digits = kDefaultExportDigits);

// The one entry point for the CLI and the page API: kind and stage by name. On a bad name, bad
// digits or an invalid scene, `error` names the field ("export: unknown kind …") and text is empty.
struct ExportResult {
  std::string text;
  std::string error;
  bool ok() const { return error.empty(); }
};
ExportResult export_scene(const Scene& s, std::string_view kind, std::string_view stage = "weights",
                          int digits = kDefaultExportDigits);

}  // namespace scene
