// export.cpp — the export kinds and stages by name, and export_scene, the one entry point of the
// CLI and the page API (export.hpp). The formats: export_script.cpp (NumPy, PyTorch),
// export_latex.cpp, export_svg.cpp; what they share: export_parts.hpp.
#include "scene/export.hpp"

#include <string>

#include "core/lookup.hpp"
#include "scene/variant_keys.hpp"

namespace scene {
namespace {

using attn::Row;

// The names the CLI and the page API spell (--export KIND --stage STAGE), and each kind's file
// extension (NumPy and PyTorch are both Python).
constexpr Row<ExportStage, const char*> kStageNames[] = {
    {ExportStage::Weights, "weights"},
    {ExportStage::Scores, "scores"},
    {ExportStage::Scaled, "scaled"},
    {ExportStage::Q, "Q"},
    {ExportStage::K, "K"},
    {ExportStage::V, "V"},
    {ExportStage::Output, "output"},
};
constexpr Row<ExportKind, const char*> kKindNames[] = {
    {ExportKind::NumPy, "numpy"},
    {ExportKind::PyTorch, "pytorch"},
    {ExportKind::LaTeX, "latex"},
    {ExportKind::Svg, "svg"},
};
constexpr Row<ExportKind, const char*> kExtensions[] = {
    {ExportKind::NumPy, ".py"},
    {ExportKind::PyTorch, ".py"},
    {ExportKind::LaTeX, ".tex"},
    {ExportKind::Svg, ".svg"},
};

}  // namespace

std::optional<ExportKind> parse_export_kind(std::string_view name) {
  return attn::key_named(kKindNames, name);
}

std::optional<ExportStage> parse_export_stage(std::string_view name) {
  return attn::key_named(kStageNames, name);
}

const char* export_stage_name(ExportStage stage) {
  return attn::lookup(kStageNames, stage, "weights");
}

const char* export_kind_name(ExportKind kind) {
  return attn::lookup(kKindNames, kind, "numpy");
}

const char* export_extension(ExportKind kind) {
  return attn::lookup(kExtensions, kind, ".txt");
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
