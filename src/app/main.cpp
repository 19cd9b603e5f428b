// main.cpp — Attention Lab, one program for the desktop (GLFW + OpenGL 3.3) and the web
// (Emscripten GLFW + WebGL2). The platforms differ only at two places marked #ifdef __EMSCRIPTEN__:
// the GL/GLSL version (step 2) and the main loop (step 8); everything else that differs sits behind
// platform.hpp.
//
//   attention-lab [options] [SCENE.json]      (the command line: desktop_options.hpp)
//
// Steps: 1 parse arguments · 2 select GL version · 3 create window · 4 set up ImGui ·
//        5 load the first scene and apply the start · 6 set up scaling and fonts · 7 create GL resources ·
//        8 main loop (frame: input → idle check → rescale → UI → render) · 9 clean up.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "app/key_queue.hpp"
#include "app/page_api.hpp"
#include "app/platform.hpp"
#include "app/start.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "render/gl.hpp"
#include "ui/frame/frame.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/frame/view_menu.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/modes.hpp"
#include "ui/widgets/keyboard.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace app {

bool App::needs_frame() const {
  return events > 0 || settle_frames > 0 || state.dirty || gl_context_restored ||
         (ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput);
}

namespace {

// Input callbacks only count events (ImGui's GLFW backend chains to them and does the real work).
void note_event(GLFWwindow* window) {
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(window))) ++a->events;
}
void on_cursor(GLFWwindow* w, double, double) {
  note_event(w);
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(w))) a->touch_lift = 0;  // a pointer again
}
void on_button(GLFWwindow* w, int, int, int) {
  note_event(w);
}
void on_scroll(GLFWwindow* w, double, double) {
  note_event(w);
}
// Ctrl + / Ctrl − / Ctrl 0 (⌘ on a Mac keyboard): the UI zoom, on both platforms (web/boot.js keeps
// the browser from zooming the page as well). '+' is the '=' key of US layouts, or the keypad's.
void on_key(GLFWwindow* w, int key, int, int action, int mods) {
  note_event(w);
  if (action == GLFW_RELEASE || !(mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) || (mods & GLFW_MOD_ALT))
    return;
  auto* a = static_cast<App*>(glfwGetWindowUserPointer(w));
  if (!a) return;
  if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD) ui::step_zoom(a->state, +1);
  if (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT) ui::step_zoom(a->state, -1);
  if (key == GLFW_KEY_0 || key == GLFW_KEY_KP_0) ui::step_zoom(a->state, 0);
}
void on_char(GLFWwindow* w, unsigned) {
  note_event(w);
}
void on_size(GLFWwindow* w, int, int) {
  note_event(w);
}

// UI font size in CSS/logical pixels: smaller on small displays (phones, small windows).
float base_font_px(float width, float height) {
  if (width >= 1400 && height >= 850) return 16.0f;
  if (width >= 1000 && height >= 600) return 15.0f;
  return 13.0f;
}

// Rebuild fonts and style when the device scale, the chosen font size or the UI zoom changes; the
// style alone when the theme changes. Zoom multiplies every size (fonts, paddings): the layout,
// measured in font heights, then reflows as on a display with fewer, larger pixels.
void update_scale(App& app) {
  float w = 0, h = 0;
  platform_logical_size(app, &w, &h);
  const float device = platform_ui_scale(app);
  const float css_px = base_font_px(w, h);
  const int zoom = app.state.ui.settings.zoom;
  const ui::Theme theme = ui::shown_theme(app.state.ui);
  const bool sizes_changed = device != app.ui_scale || css_px != app.font_css_px || zoom != app.zoom;
  if (!sizes_changed && theme == app.theme) return;
  const float scale = device * float(zoom) / 100.0f;  // ImGui pixels per CSS pixel at this zoom
  app.theme = theme;
  ui::apply_theme(theme, scale);
  if (!sizes_changed) return;
  const bool had_fonts = app.ui_scale > 0;
  app.ui_scale = device;
  app.font_css_px = css_px;
  app.zoom = zoom;
  app.state.ui_scale = device;
  app.fonts = ui::load_fonts(css_px * scale);  // rasterized at device pixels: sharp on HiDPI
  if (had_fonts) {                             // the first texture is created by the backend's first NewFrame
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

void recreate_gl_resources(App& app) {
  // The context was lost and restored: every GL name is invalid. Restart ImGui's GL backend (a full
  // Shutdown/Init: 1.86's DestroyDeviceObjects keeps its cached vertex/index buffer sizes, so the
  // new buffers would never be allocated) and rebuild ours.
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init(app.renderer.glsl_version().c_str());
  app.renderer.forget_device_objects();
  if (!app.renderer.create_device_objects()) std::fprintf(stderr, "%s\n", app.renderer.error().c_str());
}

// Before the very first frame: two UI passes that are never rendered. Panels measure their
// contents in one pass and place them with the measurement in the next (the Controls panel's
// height, the rows that fit), and ImGui decides a window's scrollbars from the previous frame's
// content, so without them the first frame on screen is not the settled layout and the page is
// ready only frames later (each presented frame costs ~150 ms in software WebGL). Two passes are
// what the default screen and the phone need (tests/e2e/first-frame.test.mjs compares the first
// frame's pixels with the settled screen). No input has arrived yet, so none is consumed here.
void lay_out_unseen(App& app) {
  for (int pass = 0; pass < 2; ++pass) {
    ImGui::NewFrame();
    ui::draw_screen(app.state, app.renderer, app.fonts);
    platform_draw_ui(app);
    ImGui::EndFrame();
    ImGui_ImplGlfw_NewFrame();  // the next pass is a frame of its own for ImGui
  }
}

// One iteration of the loop, the same on both platforms.
void frame(App& app) {
  // (a) input and display size
  glfwPollEvents();
  platform_before_frame(app);
  if (app.gl_context_lost) return;  // nothing can be drawn until the context is restored
  if (app.gl_context_restored) {
    app.gl_context_restored = false;
    recreate_gl_resources(app);
    app.settle_frames = kSettleFrames;
  }

  // (b) idle: no input, nothing settling, no edit → no recompute, no redraw
  if (!app.needs_frame()) return;
  if (app.events > 0) app.settle_frames = kSettleFrames;
  app.events = 0;
  if (app.settle_frames > 0) --app.settle_frames;

  const auto start = std::chrono::steady_clock::now();
  // (c) fonts and sizes follow the device scale
  update_scale(app);

  // (d) UI: recompute first so every panel reads the current result. Queued key presses first, in
  // order, as many as this frame may see (key_queue.hpp); the rest wake the next frame.
  if (key_queue_deliver(app.window)) ++app.events;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // After a touch ends, the GLFW cursor stays where the finger was; a finger is not a hovering
  // pointer, so once the release has been handled the mouse leaves the canvas (ImGui 1.86: MousePos
  // = −FLT_MAX means "no mouse").
  if (app.touch_lift == 2) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  // The keyboard: Tab is the screen's (not one window's), and Enter/Space press with a click.
  if (ui::keyboard_before_imgui_frame(app.state)) app.settle_frames = std::max(app.settle_frames, 2);
  if (!app.first_frame_drawn) lay_out_unseen(app);
  ImGui::NewFrame();
  const std::int64_t recomputes = app.state.stats.recomputes;
  ui::draw_screen(app.state, app.renderer, app.fonts);  // recomputes first (its one point), then draws
  platform_draw_ui(app);
  ImGui::Render();
  const auto built = std::chrono::steady_clock::now();

  // (e) render
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 bg = ui::to_vec4(ui::palette::background());  // the current theme's
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

  const auto end = std::chrono::steady_clock::now();
  const auto ms_between = [](auto a, auto b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const double ms = ms_between(start, end);
  ui::FrameParts parts;
  parts.recompute_ms = app.state.stats.recomputes != recomputes ? app.state.stats.last_recompute_ms : 0.0;
  parts.ui_ms = std::max(0.0, ms_between(start, built) - parts.recompute_ms);
  parts.render_ms = ms_between(built, end);
  ui::record_frame(app.state.stats, ms, parts);
  // An edit during this frame is shown by the next one, and a layout that moved settles first.
  if (app.state.dirty || app.state.ui.frame.layout_changed)
    app.settle_frames = std::max(app.settle_frames, 1);
  app.state.ui.frame.layout_changed = false;
  if (app.touch_lift == 1 && !ImGui::GetIO().MouseDown[0]) {  // this frame handled the release
    app.touch_lift = 2;
    app.settle_frames = std::max(app.settle_frames, kSettleFrames);  // draw the canvas without hover
  }

  platform_frame_rendered(app);
  glfwSwapBuffers(app.window);
  platform_frame_drawn(app);
}

}  // namespace

void run_frame(App& app) {
  frame(app);
}

namespace {

#ifdef __EMSCRIPTEN__
App* g_loop_app = nullptr;
void web_loop_iteration() {
  frame(*g_loop_app);
}
#endif

// 2–3. Selects the GL version — WebGL2 (GLSL ES 3.00) on the web, OpenGL 3.3 core (GLSL 330) on
// desktop — and creates the window (current context); nullptr when GLFW or the window fails.
GLFWwindow* create_window(int width, int height, const char** glsl_version) {
  glfwSetErrorCallback(
      [](int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); });
  if (!glfwInit()) return nullptr;
#ifdef __EMSCRIPTEN__
  *glsl_version = "#version 300 es";
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // An opaque canvas without depth or stencil buffers (the UI uses neither; GLFW's defaults ask for
  // both and for alpha): the browser composites an opaque canvas without blending it into the page.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
#else
  *glsl_version = "#version 330 core";
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
#endif
  GLFWwindow* window = glfwCreateWindow(width, height, "Attention Lab", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "attention-lab: could not create an OpenGL 3.3 window\n");
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  return window;
}

// 4. ImGui with no ini file (the layout is fixed and the web has no files), keyboard navigation, its
// GLFW and OpenGL backends (our key queue in front of the backend's callbacks), the platform's hooks.
void setup_imgui(App& app, const char* glsl_version) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  key_queue_install(app.window);  // in front of the backend's key and character callbacks
  ImGui_ImplOpenGL3_Init(glsl_version);
  platform_init(app);
}

#ifndef __EMSCRIPTEN__
// A start-up error (a --demo or scene file that cannot be loaded): said on stderr; automated
// (--frames) the app then exits 2 after this frame, interactively the banner shows it.
void start_failed(App& app) {
  std::fprintf(stderr, "attention-lab: %s\n", app.state.error.c_str());
  if (app.options.automated()) {
    app.exit_code = 2;
    glfwSetWindowShouldClose(app.window, GLFW_TRUE);
  }
}

// The SCENE.json given on the command line, its errors named with the path.
void load_scene_file(App& app) {
  const std::string& path = app.options.scene_path;
  std::string text, error;
  if (!platform_read_file(path, &text, &error)) {
    app.state.error = error;
  } else {
    ui::load_scene_text(app.state, text);
    if (!app.state.error.empty()) app.state.error = path + ": " + app.state.error;
  }
  if (!app.state.error.empty()) start_failed(app);
}

// A mode's file (its row's `file`, ui/modes/modes.hpp: the Model mode's model), read from the
// repository's web/ when the mode first asks (or from the path its file flag gave: --model PATH). The
// error names the path; with --frames it is printed too.
void install_file_reader(App& app) {
  const Options* options = &app.options;
  ui::AppState* state = &app.state;
  app.state.sharing.fetch_file = [options, state](scene::link::Mode mode, const char* file) {
    const auto given = options->file_paths.find(mode);
    const std::string path =
        given == options->file_paths.end() ? std::string(AL_WEB_DIR) + "/" + file : given->second;
    std::string bytes, error;
    ui::FileNews news;
    if (platform_read_file(path, &bytes, &error)) {
      news.kind = ui::FileNews::Kind::Loaded;
      news.bytes = bytes;
    } else {
      error = std::string(scene::link::mode_name(mode)) + " file: " + error;
      if (options->automated()) std::fprintf(stderr, "attention-lab: %s\n", error.c_str());
      news.kind = ui::FileNews::Kind::Failed;
      news.bytes = error;
    }
    ui::deliver_file(*state, mode, news);
  };
}

// The command line's start (every value checked by the parser), as a link's: --theme, --zoom,
// --lang as theme=, zoom=, lang=; --mode; the modes' own flags (--circuits, --model-text, --step, …:
// Options::start), whose mode wins over --mode as a link's circuits= or lm= implies its mode=.
ui::LinkStart start_of(const Options& options) {
  ui::LinkStart start = options.start;
  start.theme = scene::link::theme_from_name(options.theme);
  if (options.zoom > 0) start.zoom = options.zoom;
  start.lang = options.lang;
  if (!start.mode) start.mode = scene::link::mode_from_name(options.mode);
  return start;
}

// The first scene (--preset NAME, --demo NAME or the SCENE.json given, else the first lesson
// example), then the command line's start over it. A demo or file that cannot be loaded leaves the
// example on screen with the error in the banner; with --frames it is an error (exit 2).
void start_desktop(App& app) {
  const Options& options = app.options;
  load_preset(app.state, options.preset.empty() ? page::kDefaultPreset : options.preset.c_str());
  if (!options.demo.empty()) {  // --demo NAME: the gallery's action, as a click would do
    ui::Sharing& sharing = app.state.sharing;
    if (sharing.open_demo)
      sharing.open_demo(options.demo);
    else
      app.state.error = "--demo: this build has no bundled demos";
    if (!app.state.error.empty()) start_failed(app);
  }
  if (options.gallery) app.state.sharing.gallery_open = true;
  if (!options.scene_path.empty()) load_scene_file(app);
  install_file_reader(app);
  apply_start(app.state, start_of(options));
}
#endif

// 9. GL resources, ImGui, the window; returns the app's exit status.
int shut_down(App& app) {
  app.renderer.destroy_device_objects();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(app.window);
  glfwTerminate();
  return app.exit_code;
}

}  // namespace
}  // namespace app

int main(int argc, char** argv) {
  using namespace app;

#ifdef __EMSCRIPTEN__
  // 1. The web has no command line: the page's link and API choose what is shown. The window size
  //    is a start; the canvas's CSS size replaces it before the first frame (web_platform.cpp).
  (void)argc;
  (void)argv;
  const int window_w = 1440, window_h = 900;
#else
  // 1. Parse arguments (--help → 0, a bad option → 2).
  Options options;
  std::string message;
  switch (parse_options(argc, argv, &options, &message)) {
    case ParseOutcome::Run:
      break;
    case ParseOutcome::ExitOk:
      std::printf("%s", message.c_str());
      return 0;
    case ParseOutcome::ExitUsage:
      std::fprintf(stderr, "attention-lab: %s\n", message.c_str());
      return 2;
  }
  const int window_w = options.width, window_h = options.height;
#endif

  // 2–3. The GL version and the window.
  const char* glsl_version = nullptr;
  GLFWwindow* window = create_window(window_w, window_h, &glsl_version);
  if (!window) return 1;
  static App the_app(glsl_version);
  App& app = the_app;
  app.window = window;
#ifndef __EMSCRIPTEN__
  app.options = options;
#endif
  glfwSetWindowUserPointer(window, &app);
  // Installed before ImGui's backend, which chains to them: every input wakes the loop.
  glfwSetCursorPosCallback(window, on_cursor);
  glfwSetMouseButtonCallback(window, on_button);
  glfwSetScrollCallback(window, on_scroll);
  glfwSetKeyCallback(window, on_key);
  glfwSetCharCallback(window, on_char);
  glfwSetFramebufferSizeCallback(window, on_size);

  // 4. Set up ImGui.
  setup_imgui(app, glsl_version);

  // 5. Load the first scene and apply the start before the fonts are sized: the desktop's from its
  //    command line (start_desktop); the web's default example, over which share.js then applies
  //    the address's link (al_share_load), both through apply_start.
#ifdef __EMSCRIPTEN__
  load_preset(app.state, page::kDefaultPreset);
#else
  start_desktop(app);
#endif

  // 6. Set up scaling, theme and fonts (sizes in font-height units follow the device scale and the
  //    UI zoom).
  platform_before_frame(app);
  update_scale(app);

  // 7. Create GL resources for the heatmaps.
  if (!app.renderer.create_device_objects()) {
    std::fprintf(stderr, "attention-lab: %s\n", app.renderer.error().c_str());
    app.state.error = "Heatmap shader failed: " + app.renderer.error();
  }

  // 8. Main loop.
  platform_started(app);
#ifdef __EMSCRIPTEN__
  // Follows requestAnimationFrame; frame() returns at once when nothing changed.
  g_loop_app = &app;
  emscripten_set_main_loop(web_loop_iteration, 0, true);
#else
  while (!glfwWindowShouldClose(window)) {
    if (options.automated()) {
      ++app.events;  // --frames: draw every iteration (platform_frame_rendered closes the window)
    } else if (!app.needs_frame()) {
      glfwWaitEventsTimeout(1.0);  // sleep until input
    }
    frame(app);
  }
#endif

  // 9. Clean up.
  return shut_down(app);
}
