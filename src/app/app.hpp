// app.hpp — the running program: window, UI state, fonts, renderer, and what wakes the loop.
// Shared by main.cpp and the platform files (web_platform.cpp, desktop_platform.cpp).
#pragma once

#include <cstdint>
#include <string>

#ifndef __EMSCRIPTEN__
#include "app/desktop_options.hpp"
#endif
#include "render/heatmap_renderer.hpp"
#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"

struct GLFWwindow;

namespace app {

// After any input, render this many frames even without further events: ImGui needs a frame or
// two to settle (hover states, press-then-release, tooltips following the mouse).
constexpr int kSettleFrames = 3;

struct App {
  GLFWwindow* window = nullptr;
  ui::AppState state;
  ui::Fonts fonts;
  render::HeatmapRenderer renderer;
  float ui_scale = 0;                 // device pixels per CSS/logical pixel the fonts are built for
  float font_css_px = 0;              // UI font size in CSS/logical pixels the fonts are built for
  int zoom = 0;                       // UI zoom (percent) the fonts and style are built for (0: none yet)
  ui::Theme theme = ui::Theme::Dark;  // the theme the style was built for
  std::uint64_t events = 0;           // input/resize events since the last rendered frame
  int settle_frames = kSettleFrames;  // frames still to render without new events
  bool gl_context_lost = false;
  bool gl_context_restored = false;
  bool first_frame_drawn = false;
  // A finger lifted (web): 1 = its release is still to be processed at the finger's position,
  // 2 = processed, so ImGui's mouse is kept off the canvas (no hover or tooltip stays where the
  // finger was) until the pointer moves again.
  int touch_lift = 0;
  // The page's screen-reader side (web): the live region's text and the result its tables show.
  std::string announced;
  std::uint64_t tabled_version = 0;
#ifndef __EMSCRIPTEN__
  Options options;  // the command line (desktop_options.hpp; the web has none)
#endif
  int exit_code = 0;  // main()'s status: non-zero when an automation step failed

  explicit App(const char* glsl_version) : renderer(glsl_version) {}

  // Does the loop have work? (input arrived, frames to settle, an edit to show, or a text field
  // that is being typed in.)
  bool needs_frame() const;
};

// One iteration of the main loop (main.cpp): input, idle check, UI, render. The page API calls it
// to bring widget rectangles up to date after a change that has not been drawn yet.
void run_frame(App& app);

}  // namespace app
