// desktop_options.cpp — parse the command line (see desktop_options.hpp).
#include "app/desktop_options.hpp"

#include <cerrno>
#include <cstdlib>

#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "ui/modes/walk/quiz.hpp"

namespace app {
namespace {

// When --screenshot or --rects is given without --frames: ImGui sizes auto-fit windows and the
// panels measure their content during the first frames, so the third frame is the settled one.
constexpr int kDefaultAutomationFrames = 3;
constexpr int kMaxFrames = 1000000;
constexpr int kMinSide = 200, kMaxSide = 16384;  // --size bounds, logical pixels

// A whole decimal number in [lo, hi], nothing else in the text.
bool parse_int(const std::string& text, int lo, int hi, int* out) {
  if (text.empty() || text[0] == '+' || text[0] == '-' || text[0] == ' ') return false;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = int(v);
  return true;
}

std::string preset_names() {
  std::string names;
  for (const scene::PresetInfo& p : scene::preset_list()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

}  // namespace

std::string usage_text() {
  return "usage: attention-lab [options] [SCENE.json]\n"
         "\n"
         "Opens the Attention Lab window with SCENE.json (scene JSON v1), or a lesson example.\n"
         "In the window: drop a .json file to open it, Ctrl+O opens and Ctrl+S saves a scene file.\n"
         "\n"
         "options:\n"
         "  --preset NAME        start with a lesson example: " +
         preset_names() +
         "\n"
         "  --mode NAME          start in a mode of the mode bar: " +
         scene::link::mode_names() +
         "\n"
         "  --demo NAME          start with a gallery demo (web/demos/NAME.json, bundled with the app)\n"
         "  --gallery            open the demo gallery at start\n"
         "  --size WxH           window size in logical pixels (default 1440x900)\n"
         "  --frames N           draw N frames, then exit 0 (automation; checks glGetError each frame)\n"
         "  --screenshot OUT.png write the last frame as PNG (framebuffer pixels)\n"
         "  --rects OUT.json     write the named widget rectangles of the last frame, framebuffer pixels\n"
         "                       (the ids of the web API's widgetRect: Q/i/c, cell/weights/i/j, causal, …)\n"
         "  --step N             open the walk-through at step N (1 = first; as a link's step=N)\n"
         "  --quiz Q             open the quiz at question Q (1 = first)\n"
         "  --theme NAME         colours: " +
         scene::link::theme_names() +
         " (default dark; as a link's theme=)\n"
         "  --zoom N             UI zoom in percent, " +
         std::to_string(scene::link::kMinZoom) + " to " + std::to_string(scene::link::kMaxZoom) +
         " (default 100; Ctrl + / Ctrl − / Ctrl 0 in the window)\n"
         "  --lang CODE          the screen's language: " +
         scene::link::language_codes() +
         " (default en; as a link's lang=)\n"
         "  -h, --help           this text\n"
         "\n"
         "--screenshot and --rects without --frames draw 3 frames. With --frames, a scene file or\n"
         "preset that cannot be loaded is an error (exit 2); interactively the app starts with the\n"
         "default example and shows the error. Bad options exit 2.\n";
}

ParseOutcome parse_options(int argc, const char* const* argv, Options* options, std::string* message) {
  Options o;
  bool frames_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    // "--flag VALUE" or "--flag=VALUE"
    std::string flag = arg, value;
    bool has_value = false;
    if (arg.rfind("--", 0) == 0) {
      const std::size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        flag = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        has_value = true;
      }
    }
    auto take_value = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) {
        *message = flag + ": missing value";
        return false;
      }
      value = argv[++i];
      return true;
    };

    if (flag == "-h" || flag == "--help") {
      *message = usage_text();
      return ParseOutcome::ExitOk;
    } else if (flag == "--preset") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!scene::preset(value)) {
        *message = "--preset: unknown name \"" + value + "\" (known: " + preset_names() + ")";
        return ParseOutcome::ExitUsage;
      }
      o.preset = value;
    } else if (flag == "--mode") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!scene::link::mode_from_name(value)) {
        *message = "--mode: unknown mode \"" + value + "\" (modes: " + scene::link::mode_names() + ")";
        return ParseOutcome::ExitUsage;
      }
      o.mode = value;
    } else if (flag == "--theme") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!scene::link::theme_from_name(value)) {
        *message = "--theme: unknown theme \"" + value + "\" (themes: " + scene::link::theme_names() + ")";
        return ParseOutcome::ExitUsage;
      }
      o.theme = value;
    } else if (flag == "--zoom") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!parse_int(value, scene::link::kMinZoom, scene::link::kMaxZoom, &o.zoom)) {
        *message = "--zoom: expected a whole percentage from " + std::to_string(scene::link::kMinZoom) +
                   " to " + std::to_string(scene::link::kMaxZoom) + ", got \"" + value + "\"";
        return ParseOutcome::ExitUsage;
      }
    } else if (flag == "--lang") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!scene::link::is_language(value)) {
        *message =
            "--lang: unknown language \"" + value + "\" (languages: " + scene::link::language_codes() + ")";
        return ParseOutcome::ExitUsage;
      }
      o.lang = value;
    } else if (flag == "--demo") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (value.empty()) {
        *message = "--demo: empty name";
        return ParseOutcome::ExitUsage;
      }
      o.demo = value;  // checked against the bundled demos when the app starts
    } else if (flag == "--gallery") {
      if (has_value) {
        *message = "--gallery: takes no value";
        return ParseOutcome::ExitUsage;
      }
      o.gallery = true;
    } else if (flag == "--frames") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (!parse_int(value, 1, kMaxFrames, &o.frames)) {
        *message = "--frames: expected a whole number from 1 to " + std::to_string(kMaxFrames) + ", got \"" +
                   value + "\"";
        return ParseOutcome::ExitUsage;
      }
      frames_given = true;
    } else if (flag == "--step" || flag == "--quiz") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      int* target = flag == "--step" ? &o.step : &o.quiz;
      const int most = flag == "--step" ? scene::link::kMaxWalkStep : int(ui::quiz::questions().size());
      if (!parse_int(value, 1, most, target)) {
        *message =
            flag + ": expected a whole number from 1 to " + std::to_string(most) + ", got \"" + value + "\"";
        return ParseOutcome::ExitUsage;
      }
    } else if (flag == "--screenshot" || flag == "--rects") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      if (value.empty()) {
        *message = flag + ": empty path";
        return ParseOutcome::ExitUsage;
      }
      (flag == "--screenshot" ? o.screenshot_path : o.rects_path) = value;
    } else if (flag == "--size") {
      if (!take_value()) return ParseOutcome::ExitUsage;
      const std::size_t x = value.find_first_of("xX");
      int w = 0, h = 0;
      if (x == std::string::npos || !parse_int(value.substr(0, x), kMinSide, kMaxSide, &w) ||
          !parse_int(value.substr(x + 1), kMinSide, kMaxSide, &h)) {
        *message = "--size: expected WxH with each side from " + std::to_string(kMinSide) + " to " +
                   std::to_string(kMaxSide) + ", got \"" + value + "\"";
        return ParseOutcome::ExitUsage;
      }
      o.width = w;
      o.height = h;
    } else if (arg.size() > 1 && arg[0] == '-') {
      *message = arg + ": unknown option (see attention-lab --help)";
      return ParseOutcome::ExitUsage;
    } else {
      if (!o.scene_path.empty()) {
        *message = arg + ": only one scene file (already have " + o.scene_path + ")";
        return ParseOutcome::ExitUsage;
      }
      o.scene_path = arg;
    }
  }
  if (int(!o.preset.empty()) + int(!o.scene_path.empty()) + int(!o.demo.empty()) > 1) {
    *message = "--preset, --demo and a scene file: give one of them";
    return ParseOutcome::ExitUsage;
  }
  if (!frames_given && (!o.screenshot_path.empty() || !o.rects_path.empty()))
    o.frames = kDefaultAutomationFrames;
  *options = std::move(o);
  return ParseOutcome::Run;
}

}  // namespace app
