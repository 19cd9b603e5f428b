// desktop_options.hpp — the command line of the desktop app.
//
//   attention-lab [options] [SCENE.json]
//
// Interactive use needs no flag. The automation flags draw a fixed number of frames and write what
// tests and figures need: the last frame as PNG and the named widget rectangles as JSON.
// Plain C++ (no GL, no ImGui). Desktop only: the web app has no command line (main.cpp).
#pragma once

#include <map>
#include <string>

#include "scene/link.hpp"
#include "ui/link_start.hpp"

namespace app {

struct Options {
  std::string scene_path;          // SCENE.json to open ("" = none)
  std::string preset;              // --preset NAME ("" = the default lesson example)
  std::string mode;                // --mode NAME: the screen's mode, as in links' mode= ("" = explore)
  std::string demo;                // --demo NAME: a gallery demo (web/demos/NAME.json, bundled)
  bool gallery = false;            // --gallery: open the demo gallery at start
  int frames = 0;                  // --frames N: draw N frames, then exit (0 = interactive)
  std::string screenshot_path;     // --screenshot OUT.png: the last frame, framebuffer pixels
  std::string rects_path;          // --rects OUT.json: widget rectangles, framebuffer pixels
  int width = 1440, height = 900;  // --size WxH: window size in logical pixels
  std::string theme;               // --theme NAME: dark, light or contrast, as a link's theme= ("" = dark)
  int zoom = 0;                    // --zoom N: UI zoom in percent, 75 … 200, as a link's zoom= (0 = 100)
  std::string lang;                // --lang CODE: en, es or de, as a link's lang= ("" = en)
  // The modes' own flags (each mode's row, ui/modes/modes.hpp: --step, --quiz, --circuits,
  // --model-text, …): what they start, as a link's keys do (a mode flag sets its mode over --mode) …
  ui::LinkStart start;
  // … and the path a mode's file is read from instead of the site's web/ (--model PATH).
  std::map<scene::link::Mode, std::string> file_paths;

  // Automation: frames are drawn back to back (no waiting for input), glGetError is checked after
  // each one, and the app exits after the last.
  bool automated() const { return frames > 0; }
};

// What main() does after parsing: run, or exit at once with a status.
enum class ParseOutcome { Run, ExitOk, ExitUsage };

// Parse argv into `options`. ExitOk after --help (usage printed on stdout); ExitUsage (2) for an
// unknown flag, a missing or malformed value, or two scene files, with the reason in `message`.
ParseOutcome parse_options(int argc, const char* const* argv, Options* options, std::string* message);

// The --help text.
std::string usage_text();

}  // namespace app
