// export.cpp — the export kinds and stages by name, and export_scene, the one entry point of the
// CLI and the page API (export.hpp). The formats: export_script.cpp (NumPy, PyTorch),
// export_latex.cpp, export_svg.cpp; what they share: export_parts.hpp.
#include "scene/export.hpp"

#include <string>

namespace scene {
namespace {

struct StageName {
  ExportStage stage;
  const char* name;
};
constexpr StageName kStages[] = {
    {ExportStage::Weights, "weights"},
    {ExportStage::Scores, "scores"},
    {ExportStage::Scaled, "scaled"},
    {ExportStage::Q, "Q"},
    {ExportStage::K, "K"},
    {ExportStage::V, "V"},
    {ExportStage::Output, "output"},
};

}  // namespace

std::optional<ExportKind> parse_export_kind(std::string_view name) {
  if (name == "numpy") return ExportKind::NumPy;
  if (name == "pytorch") return ExportKind::PyTorch;
  if (name == "latex") return ExportKind::LaTeX;
  if (name == "svg") return ExportKind::Svg;
  return std::nullopt;
}

std::optional<ExportStage> parse_export_stage(std::string_view name) {
  for (const StageName& s : kStages)
    if (name == s.name) return s.stage;
  return std::nullopt;
}

const char* export_stage_name(ExportStage stage) {
  for (const StageName& s : kStages)
    if (s.stage == stage) return s.name;
  return "weights";
}

const char* export_kind_name(ExportKind kind) {
  switch (kind) {
    case ExportKind::NumPy:
      return "numpy";
    case ExportKind::PyTorch:
      return "pytorch";
    case ExportKind::LaTeX:
      return "latex";
    case ExportKind::Svg:
      return "svg";
  }
  return "numpy";
}

const char* export_extension(ExportKind kind) {
  switch (kind) {
    case ExportKind::NumPy:
    case ExportKind::PyTorch:
      return ".py";
    case ExportKind::LaTeX:
      return ".tex";
    case ExportKind::Svg:
      return ".svg";
  }
  return ".txt";
}

ExportResult export_scene(const Scene& s, std::string_view kind, std::string_view stage, int digits) {
  ExportResult out;
  const std::optional<ExportKind> k = parse_export_kind(kind);
  if (!k) {
    out.error =
        "export: unknown kind \"" + std::string(kind.substr(0, 40)) + "\" (numpy, pytorch, latex, svg)";
    return out;
  }
  const std::optional<ExportStage> st = parse_export_stage(stage);
  if (!st) {
    out.error = "stage: unknown stage \"" + std::string(stage.substr(0, 40)) +
                "\" (weights, scores, scaled, Q, K, V, output)";
    return out;
  }
  if (digits < 0 || digits > kMaxExportDigits) {
    out.error =
        "digits: must be 0 to " + std::to_string(kMaxExportDigits) + ", got " + std::to_string(digits);
    return out;
  }
  const std::string invalid = validate(s);
  if (!invalid.empty()) {
    out.error = invalid;
    return out;
  }
  switch (*k) {
    case ExportKind::NumPy:
      out.text = export_numpy(s);
      break;
    case ExportKind::PyTorch:
      out.text = export_pytorch(s);
      break;
    case ExportKind::LaTeX:
      out.text = export_latex(s, *st, digits);
      break;
    case ExportKind::Svg:
      out.text = export_svg(s, *st, digits);
      break;
  }
  return out;
}

}  // namespace scene
