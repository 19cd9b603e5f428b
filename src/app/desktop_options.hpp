// desktop_options.hpp — the command line of the desktop app.
//
//   attention-lab [options] [SCENE.json]
//
// Interactive use needs no flag. The automation flags draw a fixed number of frames and write what
// tests and figures need: the last frame as PNG and the named widget rectangles as JSON.
// Plain C++ (no GL). Desktop only: the web app has no command line (main.cpp).
#pragma once

#include <string>

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
  int step = 0;                    // --step N: open the walk-through at step N (1-based; 0 = no walk)
  int quiz = 0;                    // --quiz Q: open the quiz at question Q (1-based; 0 = closed)
  std::string theme;               // --theme NAME: dark, light or contrast, as a link's theme= ("" = dark)
  int zoom = 0;                    // --zoom N: UI zoom in percent, 75 … 200, as a link's zoom= (0 = 100)
  std::string lang;                // --lang CODE: en, es or de, as a link's lang= ("" = en)
  std::string circuits_probe;      // --circuits-probe P: what that model is probed with, as a link's probe=
  std::string circuits;            // --circuits RECIPE: the Circuits mode's model, as a link's circuits=
  std::string model_path;          // --model PATH: the Model mode's language model ("" = the repository's)
  std::string model_state;         // --model-state LM: the Model mode's state, as a link's lm= value
  std::string model_text;          // --model-text T: the Model mode's text (opens the mode)

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
