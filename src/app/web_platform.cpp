// web_platform.cpp — platform.hpp for the browser (Emscripten 3.1.6, its built-in GLFW, WebGL2),
// and the C functions behind window.attentionLab (web/attention-lab-api.js).
//
// HiDPI: 3.1.6's GLFW neither sizes the canvas backing store nor reports devicePixelRatio, so we
// do it: backing store = CSS size × devicePixelRatio. ImGui then works in device pixels (its
// display size is the backing store, framebuffer scale 1) and the fonts are rasterized at
// CSS px × devicePixelRatio. GLFW's mouse coordinates are already in backing-store pixels.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/page_api.hpp"
#include "app/platform.hpp"
#include "ui/walk_mode.hpp"

// boot.js hides the loading overlay and resolves attentionLab.ready.
EM_JS(void, js_first_frame_drawn, (), {
  if (Module["onFirstFrame"]) Module["onFirstFrame"]();
});

// Resize the canvas backing store through Emscripten's Browser helper, which notifies its GLFW
// (window and framebuffer size, size callbacks). Not glfwSetWindowSize: 3.1.6's GLFW treats a size
// equal to screen.width × screen.height as a fullscreen request, which a page may not make.
EM_JS(void, js_set_canvas_size, (int width, int height), { Browser.setCanvasSize(width, height); });

namespace app {
namespace {

App* g_app = nullptr;
constexpr const char* kCanvas = "#canvas";
bool g_size_check_needed = true;
double g_last_dpr = 0;

EM_BOOL on_resize(int, const EmscriptenUiEvent*, void*) {
  g_size_check_needed = true;
  if (g_app) ++g_app->events;
  return EM_FALSE;
}

// Backing store = CSS size × devicePixelRatio (rounded), applied through GLFW so that its window
// size, framebuffer size and mouse scaling agree.
void sync_canvas_size(App& app) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int want_w = std::max(1, int(std::lround(css_w * dpr)));
  const int want_h = std::max(1, int(std::lround(css_h * dpr)));
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  if (want_w != fb_w || want_h != fb_h) {
    js_set_canvas_size(want_w, want_h);
    ++app.events;
  }
}

// Emscripten 3.1.6's GLFW passes a wheel event's deltaX as the x offset unchanged (CSS pixels,
// positive = towards the right), while GLFW and ImGui take steps with positive = towards the left,
// as its own y offset already is (−deltaY / 100). Without this a sideways swipe (or Shift+wheel,
// which the browser sends as deltaX) scrolls the wrong way and 100 times too far.
GLFWscrollfun g_imgui_scroll = nullptr;  // ImGui's GLFW backend callback (it chains to main.cpp's)
void on_scroll(GLFWwindow* window, double xoffset, double yoffset) {
  if (g_imgui_scroll) g_imgui_scroll(window, -xoffset / 100.0, yoffset);
}

}  // namespace

void platform_init(App& app) {
  g_app = &app;
  web_share_init(app.state);
  g_imgui_scroll = glfwSetScrollCallback(app.window, on_scroll);  // after ImGui installed its own
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_resize);
}

void platform_before_frame(App& app) {
  // devicePixelRatio changes with browser zoom and when the window moves to another screen.
  const double dpr = emscripten_get_device_pixel_ratio();
  if (dpr != g_last_dpr) {
    g_last_dpr = dpr;
    g_size_check_needed = true;
  }
  if (g_size_check_needed) {
    g_size_check_needed = false;
    sync_canvas_size(app);
  }
}

float platform_ui_scale(App&) {
  const double dpr = emscripten_get_device_pixel_ratio();
  return dpr > 0.25 ? float(dpr) : 1.0f;
}

void platform_logical_size(App&, float* width, float* height) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  *width = float(css_w);
  *height = float(css_h);
}

void platform_draw_ui(App&) {}  // the page's own HTML does files (web/share.js)

void platform_frame_rendered(App&) {}

void platform_frame_drawn(App& app) {
  if (app.first_frame_drawn) return;
  app.first_frame_drawn = true;
  js_first_frame_drawn();
}

}  // namespace app

// --- window.attentionLab: C functions returning JSON (see web/attention-lab-api.js) -------------
namespace page = app::page;

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* al_get_state() {
  if (!app::g_app) return page::reply(nullptr);
  ui::recompute_if_dirty(app::g_app->state);
  return page::reply(page::state(app::g_app->state));
}

EMSCRIPTEN_KEEPALIVE const char* al_set_state(const char* json) {
  if (!app::g_app) return page::reply(page::fail("app: not started"));
  ++app::g_app->events;  // show the new scene
  return page::reply(page::load_scene_text(app::g_app->state, json ? json : ""));
}

// In CSS pixels relative to the canvas (the JS side adds the canvas's page offset).
EMSCRIPTEN_KEEPALIVE const char* al_widget_rect(const char* id) {
  if (!app::g_app || !id) return page::reply(nullptr);
  // Rectangles are recorded while drawing: after a change not drawn yet (setState, a resize), draw
  // now so the answer describes the screen the next click will hit.
  if (app::g_app->needs_frame() && !app::g_app->gl_context_lost) app::run_frame(*app::g_app);
  return page::reply(page::widget_rect(app::g_app->state, id, app::g_app->ui_scale));
}

EMSCRIPTEN_KEEPALIVE const char* al_frame_stats() {
  if (!app::g_app) return page::reply(nullptr);
  return page::reply(page::frame_stats(app::g_app->state));
}

// Walk through: getStep() / setStep(i) (i 0-based; −1 leaves the walk).
EMSCRIPTEN_KEEPALIVE const char* al_get_step() {
  if (!app::g_app) return page::reply(nullptr);
  ui::recompute_if_dirty(app::g_app->state);
  return page::reply(page::walk_step(app::g_app->state));
}

EMSCRIPTEN_KEEPALIVE const char* al_set_step(int index) {
  if (!app::g_app) return page::reply(page::fail("app: not started"));
  ui::AppState& state = app::g_app->state;
  ui::recompute_if_dirty(state);
  const int count = ui::walk_count(state);
  if (!ui::set_walk_step(state, index)) {
    return page::reply(page::fail("step: " + std::to_string(index) + " is not a step of this walk (0 to " +
                                  std::to_string(count - 1) + ", or -1 to leave)"));
  }
  ++app::g_app->events;
  return page::reply(page::ok());
}

// The Train mode's run: getTraining() → {running, task, step, loss, accuracy, lr, seed, heads, workMs}.
EMSCRIPTEN_KEEPALIVE const char* al_get_training() {
  if (!app::g_app) return page::reply(nullptr);
  return page::reply(page::training(app::g_app->state));
}

// The quiz: getQuiz() / openQuiz(q) (q 0-based; −1 closes it).
EMSCRIPTEN_KEEPALIVE const char* al_get_quiz() {
  if (!app::g_app) return page::reply(nullptr);
  return page::reply(page::quiz(app::g_app->state));
}

EMSCRIPTEN_KEEPALIVE const char* al_open_quiz(int question) {
  if (!app::g_app) return page::reply(page::fail("app: not started"));
  if (question < 0) {
    app::g_app->state.ui.quiz.open = false;
  } else {
    ui::open_quiz(app::g_app->state, question);
  }
  ++app::g_app->events;
  return page::reply(page::ok());
}

EMSCRIPTEN_KEEPALIVE void al_gl_context_lost() {
  if (app::g_app) app::g_app->gl_context_lost = true;
}

EMSCRIPTEN_KEEPALIVE void al_gl_context_restored() {
  if (!app::g_app) return;
  app::g_app->gl_context_lost = false;
  app::g_app->gl_context_restored = true;
}

EMSCRIPTEN_KEEPALIVE void al_request_frame() {
  if (app::g_app) ++app::g_app->events;
}

// boot.js, after the mouseup of a lifted finger: see App::touch_lift.
EMSCRIPTEN_KEEPALIVE void al_touch_lifted() {
  if (!app::g_app) return;
  app::g_app->touch_lift = 1;
  ++app::g_app->events;
}

}  // extern "C"
