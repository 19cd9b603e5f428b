// desktop_options.cpp — parse the command line (see desktop_options.hpp) with CLI11 (Debian's
// libcli11-dev, header-only): each flag is declared once with its check, and --help is generated
// from the declarations. Both spellings work: --flag VALUE and --flag=VALUE.
#include "app/desktop_options.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "ui/modes/modes.hpp"

namespace app {
namespace {

// When --screenshot or --rects is given without --frames: ImGui sizes auto-fit windows and the
// panels measure their content during the first frames, so the third frame is the settled one.
constexpr int kDefaultAutomationFrames = 3;
constexpr int kMaxFrames = 1000000;
constexpr int kMinSide = 200, kMaxSide = 16384;  // --size bounds, logical pixels

std::string preset_names() {
  std::string names;
  for (const scene::PresetInfo& p : scene::preset_list()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

// A check: "" when `value` is good, else the reason (CLI11 prefixes the flag: "--zoom: …").
using Check = std::function<std::string(std::string&)>;

// `noun` names what is expected ("whole number", or "whole percentage" for --zoom, as the messages
// before CLI11 said and the desktop tests check).
Check whole_number(int lo, int hi, int* out, const char* noun = "whole number") {
  return [=](std::string& value) { return ui::flag_whole_number(value, lo, hi, out, noun); };
}

Check one_of(bool (*known)(const std::string&), std::string what, std::string (*names)()) {
  return [=](std::string& value) -> std::string {
    if (known(value)) return "";
    return "unknown " + what + " \"" + value + "\" (" + names() + ")";
  };
}

Check not_empty(std::string what) {
  return [=](std::string& value) -> std::string { return value.empty() ? "empty " + what : ""; };
}

Check window_size(Options* o) {
  return [=](std::string& value) -> std::string {
    const std::size_t x = value.find_first_of("xX");
    if (x != std::string::npos &&
        ui::flag_whole_number(value.substr(0, x), kMinSide, kMaxSide, &o->width).empty() &&
        ui::flag_whole_number(value.substr(x + 1), kMinSide, kMaxSide, &o->height).empty())
      return "";
    return "expected WxH with each side from " + std::to_string(kMinSide) + " to " +
           std::to_string(kMaxSide) + ", got \"" + value + "\"";
  };
}

bool known_preset(const std::string& name) {
  return scene::preset(name).has_value();
}
bool known_mode(const std::string& name) {
  return scene::link::mode_from_name(name).has_value();
}
bool known_theme(const std::string& name) {
  return scene::link::theme_from_name(name).has_value();
}
bool known_language(const std::string& code) {
  return scene::link::is_language(code);
}
std::string mode_list() {
  return "modes: " + scene::link::mode_names();
}
std::string theme_list() {
  return "themes: " + scene::link::theme_names();
}
std::string language_list() {
  return "languages: " + scene::link::language_codes();
}
std::string preset_list_text() {
  return "known: " + preset_names();
}

// Every flag, declared once: its value, its check and its line of --help.
void declare(CLI::App& cli, Options& o, std::string* text_value) {
  cli.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a repeated flag: the last
  const auto check = [](Check c, const std::string& description) {
    return CLI::Validator(c, "", description);
  };
  cli.add_option("--preset", o.preset, "start with a lesson example: " + preset_names())
      ->type_name("NAME")
      ->check(check(one_of(known_preset, "name", preset_list_text), "preset"));
  cli.add_option("--mode", o.mode, "start in a mode of the mode bar: " + scene::link::mode_names())
      ->type_name("NAME")
      ->check(check(one_of(known_mode, "mode", mode_list), "mode"));
  cli.add_option("--demo", o.demo, "start with a gallery demo (web/demos/NAME.json, bundled with the app)")
      ->type_name("NAME")
      ->check(check(not_empty("name"), "demo"));
  cli.add_flag("--gallery", o.gallery, "open the demo gallery at start")->disable_flag_override();
  cli.add_option("--size", *text_value, "window size in logical pixels (default 1440x900)")
      ->type_name("WxH")
      ->check(check(window_size(&o), "size"));
  cli.add_option("--frames", *text_value,
                 "draw N frames, then exit 0 (automation; checks glGetError each frame)")
      ->type_name("N")
      ->check(check(whole_number(1, kMaxFrames, &o.frames), "frames"));
  cli.add_option("--screenshot", o.screenshot_path, "write the last frame as PNG (framebuffer pixels)")
      ->type_name("OUT.png")
      ->check(check(not_empty("path"), "path"));
  cli.add_option("--rects", o.rects_path,
                 "write the named widget rectangles of the last frame, framebuffer pixels (docs/PAGE_API.md)")
      ->type_name("OUT.json")
      ->check(check(not_empty("path"), "path"));
  // Each mode's flags (its row's, ui/modes/modes.hpp): what they start goes into o.start, a file's path
  // into o.file_paths.
  for (const ui::ModeEntry& row : ui::mode_rows())
    for (const ui::ModeFlag& flag : row.flags) {
      CLI::Option* option = cli.add_option(flag.name, *text_value, flag.help)->type_name(flag.value_name);
      const scene::link::Mode mode = row.mode;
      if (flag.apply)
        option->check(check([&o, apply = flag.apply](std::string& value) { return apply(value, o.start); },
                            flag.value_name));
      else
        option->check(check(
            [&o, mode](std::string& value) -> std::string {
              if (value.empty()) return "empty path";
              o.file_paths[mode] = value;
              return "";
            },
            "path"));
    }
  cli.add_option("--theme", o.theme,
                 "colours: " + scene::link::theme_names() + " (default dark; as a link's theme=)")
      ->type_name("NAME")
      ->check(check(one_of(known_theme, "theme", theme_list), "theme"));
  cli.add_option("--zoom", *text_value,
                 "UI zoom in percent, " + std::to_string(scene::link::kMinZoom) + " to " +
                     std::to_string(scene::link::kMaxZoom) +
                     " (default 100; Ctrl + / Ctrl − / Ctrl 0 in the window)")
      ->type_name("N")
      ->check(check(whole_number(scene::link::kMinZoom, scene::link::kMaxZoom, &o.zoom, "whole percentage"),
                    "zoom"));
  cli.add_option("--lang", o.lang,
                 "the screen's language: " + scene::link::language_codes() + " (default en)")
      ->type_name("CODE")
      ->check(check(one_of(known_language, "language", language_list), "language"));
}

// "--frames: 1 required N missing" → "--frames: missing value" (what the tests and users read).
std::string usage_message(const CLI::ParseError& e) {
  std::string text = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos && text.find("missing") != std::string::npos)
      return text.substr(0, colon) + ": missing value";
  }
  return text;
}

}  // namespace

std::string usage_text() {
  Options o;
  std::string scratch;
  CLI::App cli{
      "Opens the Attention Lab window with SCENE.json (scene JSON v1 or v2), or a lesson example.\n"
      "In the window: drop a .json file to open it, Ctrl+O opens and Ctrl+S saves a scene file.",
      "attention-lab"};
  cli.footer(
      "SCENE.json: the scene to open (one at most; or --preset, or --demo).\n"
      "--screenshot and --rects without --frames draw 3 frames. With --frames, a scene file or preset\n"
      "that cannot be loaded is an error (exit 2); interactively the app starts with the default\n"
      "example and shows the error. Bad options exit 2. Every flag also takes --flag=VALUE.");
  declare(cli, o, &scratch);
  return "usage: attention-lab [options] [SCENE.json]\n\n" + cli.help();
}

ParseOutcome parse_options(int argc, const char* const* argv, Options* options, std::string* message) {
  Options o;
  std::string scratch;  // numbers and the size are stored by their checks
  CLI::App cli;
  cli.allow_extras();  // the scene file, and an unknown flag named as such (below)
  declare(cli, o, &scratch);
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
      *message = usage_text();
      return ParseOutcome::ExitOk;
    }
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    *message = usage_message(e);
    return ParseOutcome::ExitUsage;
  }
  for (const std::string& extra : cli.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      *message = extra + ": unknown option (see attention-lab --help)";
      return ParseOutcome::ExitUsage;
    }
    if (!o.scene_path.empty()) {
      *message = extra + ": only one scene file (already have " + o.scene_path + ")";
      return ParseOutcome::ExitUsage;
    }
    o.scene_path = extra;
  }
  if (int(!o.preset.empty()) + int(!o.scene_path.empty()) + int(!o.demo.empty()) > 1) {
    *message = "--preset, --demo and a scene file: give one of them";
    return ParseOutcome::ExitUsage;
  }
  if (cli.count("--frames") == 0 && (!o.screenshot_path.empty() || !o.rects_path.empty()))
    o.frames = kDefaultAutomationFrames;
  *options = std::move(o);
  return ParseOutcome::Run;
}

}  // namespace app
