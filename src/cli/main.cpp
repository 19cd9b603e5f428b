// attention-lab-cli — read a scene (JSON v1), print every stage of attention as JSON.
//
//   attention-lab-cli [--compact] [FILE|-]   scene from FILE, or stdin for "-" or no argument
//   attention-lab-cli --preset NAME          print a preset's scene JSON
//   attention-lab-cli --list-presets         list presets: name, tab, description
//   attention-lab-cli --export KIND [--stage S] [--digits D] [FILE|-]
//                                            the scene as a NumPy / PyTorch script, LaTeX or SVG
//
// Exit status: 0 success; 2 bad input (message on stderr naming the field, nothing on stdout);
// 1 usage error.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "scene/export.hpp"
#include "scene/scene.hpp"

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitUsage = 1;

void print_help(std::FILE* out) {
  std::fprintf(
      out,
      "usage: attention-lab-cli [--compact] [FILE|-]\n"
      "       attention-lab-cli --export KIND [--stage STAGE] [--digits D] [FILE|-]\n"
      "       attention-lab-cli --preset NAME\n"
      "       attention-lab-cli --list-presets\n"
      "\n"
      "Reads a scene (JSON version 1) from FILE, or from stdin when FILE is '-' or absent, and\n"
      "prints softmax(QK^T/s + M) V with every stage as one JSON object:\n"
      "  {\"Q\",\"K\",\"V\",\"scores\" (raw QK^T),\"divisor\" (s),\"scaled\" (scores/s, masked cells\n"
      "   null),\"allowed\" (n x n 0/1),\"weights\",\"output\",\"masked_rows\"}\n"
      "Output is indented by 2 spaces; --compact prints it on one line. Numbers are printed so\n"
      "they read back as the same doubles.\n"
      "\n"
      "  --preset NAME     print the scene JSON of a bundled preset (feed it back to compute it)\n"
      "  --list-presets    list the presets, one per line: NAME<TAB>description\n"
      "  --compact         one-line JSON output\n"
      "  --export KIND     instead of the JSON, print the scene as\n"
      "                      numpy    a Python script computing every stage in NumPy (float64)\n"
      "                      pytorch  the same in PyTorch (torch.float64; nn.Linear when projected)\n"
      "                      latex    one stage as an amsmath bmatrix\n"
      "                      svg      one stage as an SVG heatmap in the app's colours\n"
      "  --stage STAGE     latex/svg: weights (default), scores, scaled, Q, K, V, output\n"
      "  --digits D        latex/svg: decimals, 0 to 15 (default 3)\n"
      "  -h, --help        this text\n"
      "\n"
      "Limits: n <= %d tokens, each dimension <= %d, |values| <= 1e15, token labels <= %zu bytes,\n"
      "input <= 8 MiB. Exit status: 0 ok, 2 bad input (reason on stderr), 1 usage error.\n",
      scene::kMaxTokens, scene::kMaxDim, scene::kMaxTokenBytes);
}

// Reads at most kMaxInputBytes + 1 bytes: enough for parse_scene to report an oversized input
// without ever holding a huge file in memory. Empty optional-like flag on failure.
bool read_capped(std::FILE* in, std::string* text) {
  const std::size_t cap = scene::kMaxInputBytes + 1;
  char buffer[1 << 16];
  while (text->size() < cap) {
    const std::size_t want = std::min(sizeof buffer, cap - text->size());
    const std::size_t got = std::fread(buffer, 1, want, in);
    text->append(buffer, got);
    if (got < want) return !std::ferror(in);
  }
  return true;
}

int bad_input(const std::string& message) {
  std::fprintf(stderr, "attention-lab-cli: %s\n", message.c_str());
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  int indent = 2;
  std::string export_kind, export_stage = "weights";
  int export_digits = scene::kDefaultExportDigits;
  std::string path;
  bool have_path = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      print_help(stdout);
      return 0;
    } else if (arg == "--list-presets") {
      for (const scene::PresetInfo& p : scene::preset_list())
        std::printf("%s\t%s\n", p.name.c_str(), p.description.c_str());
      return 0;
    } else if (arg == "--preset") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: --preset needs a NAME (see --list-presets)\n");
        return kExitUsage;
      }
      const std::optional<scene::Scene> s = scene::preset(argv[i + 1]);
      if (!s)
        return bad_input(std::string("preset: unknown name \"") + argv[i + 1] + "\" (see --list-presets)");
      std::printf("%s\n", scene::scene_to_json(*s, indent).c_str());
      return 0;
    } else if (arg == "--compact") {
      indent = -1;
    } else if (arg == "--export" || arg == "--stage" || arg == "--digits") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-lab-cli: %s needs a value (see --help)\n", argv[i]);
        return kExitUsage;
      }
      const std::string value = argv[++i];
      if (arg == "--export") {
        if (!scene::parse_export_kind(value)) {
          std::fprintf(stderr, "attention-lab-cli: --export: unknown kind %s (numpy, pytorch, latex, svg)\n",
                       value.c_str());
          return kExitUsage;
        }
        export_kind = value;
      } else if (arg == "--stage") {
        if (!scene::parse_export_stage(value)) {
          std::fprintf(
              stderr,
              "attention-lab-cli: --stage: unknown stage %s (weights, scores, scaled, Q, K, V, output)\n",
              value.c_str());
          return kExitUsage;
        }
        export_stage = value;
      } else {
        char* end = nullptr;
        errno = 0;
        const long digits = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno != 0 || digits < 0 || digits > scene::kMaxExportDigits) {
          std::fprintf(stderr, "attention-lab-cli: --digits: expected 0 to %d, got %s\n",
                       scene::kMaxExportDigits, value.c_str());
          return kExitUsage;
        }
        export_digits = int(digits);
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "attention-lab-cli: unknown option %s (see --help)\n", argv[i]);
      return kExitUsage;
    } else if (have_path) {
      std::fprintf(stderr, "attention-lab-cli: give one FILE only (see --help)\n");
      return kExitUsage;
    } else {
      path = argv[i];
      have_path = true;
    }
  }

  std::string text;
  if (!have_path || path == "-") {
    if (!read_capped(stdin, &text)) return bad_input("input: could not read stdin");
  } else {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return bad_input("input: cannot open " + path + ": " + std::strerror(errno));
    const bool ok = read_capped(file, &text);
    std::fclose(file);
    // A directory opens on Linux but fails to read (EISDIR).
    if (!ok) return bad_input("input: cannot read " + path);
  }

  const scene::ParseResult parsed = scene::parse_scene(text);
  if (!parsed.ok()) return bad_input(parsed.error);
  if (!export_kind.empty()) {
    const scene::ExportResult exported =
        scene::export_scene(*parsed.scene, export_kind, export_stage, export_digits);
    if (!exported.ok()) return bad_input(exported.error);
    std::fwrite(exported.text.data(), 1, exported.text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  const attn::Result result = scene::compute(*parsed.scene);
  const std::string out = scene::result_to_json(result, indent);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
