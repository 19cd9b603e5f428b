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
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "app/page_api.hpp"
#include "app/platform.hpp"
#include "scene/variant_keys.hpp"
#include "ui/modes/modes.hpp"
#include "ui/text/i18n.hpp"

// boot.js runs the page's start-up steps (attentionLab._started: share.js installs the demo index,
// the opening link and the language file if they have arrived), before the first frame.
EM_JS(void, js_app_started, (), {
  if (Module["onStarted"]) Module["onStarted"]();
});

// boot.js hides the loading overlay and resolves attentionLab.ready.
EM_JS(void, js_first_frame_drawn, (), {
  if (Module["onFirstFrame"]) Module["onFirstFrame"]();
});

// The system's colour preference: 2 = more contrast (prefers-contrast: more), 1 = light
// (prefers-color-scheme: light), 0 = dark or no preference.
// (clang-format would split the arrow function's => into "= >")
// clang-format off
EM_JS(int, js_system_theme, (), {
  const query = (q) => window.matchMedia && window.matchMedia(q).matches;
  return query("(prefers-contrast: more)") ? 2 : query("(prefers-color-scheme: light)") ? 1 : 0;
});
// clang-format on

// Device pixels per CSS pixel: devicePixelRatio (browser zoom changes it) × the pinch zoom of the
// visual viewport (phones), so text stays sharp however the page is zoomed; a pinch raises it to at
// most 4 (a phone's 3 × a 4× pinch would ask for a canvas of 4680 × 10128 pixels).
EM_JS(double, js_pixel_ratio, (), {
  const dpr = window.devicePixelRatio || 1;
  const pinch = window.visualViewport ? Math.max(window.visualViewport.scale, 1) : 1;
  return Math.min(dpr * pinch, Math.max(dpr, 4));
});

// The browser's language (navigator.language, e.g. "es-MX"), for the screen's words until a link or
// the View menu picks one. The reply lives in a buffer Emscripten frees on the next call.
EM_JS(char*, js_browser_language, (), {
  const text = (navigator.language || "en") + "";
  const size = lengthBytesUTF8(text) + 1;
  const ptr = _malloc(size);
  stringToUTF8(text, ptr, size);
  return ptr;
});

// The screen reader's side of the canvas (web/a11y.js): the focused item's announcement, and a new
// result (the page rebuilds its off-screen tables, debounced). Quoted names: the Closure Compiler
// renames the glue's dotted properties (src/app/CMakeLists.txt).
EM_JS(void, js_announce, (const char* text), {
  const a11y = window["attentionLabA11y"];
  if (a11y) a11y["announce"](UTF8ToString(text));
});
EM_JS(void, js_result_changed, (), {
  const a11y = window["attentionLabA11y"];
  if (a11y) a11y["resultChanged"]();
});

// Resize the canvas backing store through Emscripten's Browser helper, which notifies its GLFW
// (window and framebuffer size, size callbacks). Not glfwSetWindowSize: 3.1.6's GLFW treats a size
// equal to screen.width × screen.height as a fullscreen request, which a page may not make.
EM_JS(void, js_set_canvas_size, (int width, int height), { Browser.setCanvasSize(width, height); });

namespace app {
void gl_state_reset();  // web_gl_state.cpp: the remembered GL state forgotten (a restored context)

namespace {

App* g_app = nullptr;
constexpr const char* kCanvas = "#canvas";
bool g_size_check_needed = true;
double g_last_dpr = 0;
// The canvas's CSS size as last read. The canvas fills the window (position: fixed, 100% × 100%:
// web/style.css), so it changes only with a resize, which sets g_size_check_needed. Read only then:
// reading it (getBoundingClientRect) makes the browser lay out the page at once if anything in it
// changed, and the screen-reader tables change after every edit (web/a11y.js: ~8,000 cells, a
// 60–130 ms layout at 64 tokens and up) — inside the frame, every frame it happened in.
double g_css_w = 0, g_css_h = 0;

void read_css_size() {
  emscripten_get_element_css_size(kCanvas, &g_css_w, &g_css_h);
}

EM_BOOL on_resize(int, const EmscriptenUiEvent*, void*) {
  g_size_check_needed = true;
  if (g_app) ++g_app->events;
  return EM_FALSE;
}

// Backing store = CSS size × devicePixelRatio (rounded), applied through GLFW so that its window
// size, framebuffer size and mouse scaling agree.
void sync_canvas_size(App& app) {
  read_css_size();
  const double dpr = js_pixel_ratio();
  const int want_w = std::max(1, int(std::lround(g_css_w * dpr)));
  const int want_h = std::max(1, int(std::lround(g_css_h * dpr)));
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  if (want_w != fb_w || want_h != fb_h) {
    js_set_canvas_size(want_w, want_h);
    ++app.events;
  }
}

// Emscripten 3.1.6's GLFW passes a wheel event's deltaX and deltaY as the scroll offsets unchanged
// (library_glfw.js onMouseWheel: CSS pixels, positive = right / down), while GLFW and ImGui take
// steps with positive = left / up. One step is 100 pixels (as Emscripten's own
// Browser.getMouseWheelDelta counts them). Without this the wheel scrolled ImGui windows 100 steps
// at a time, the wrong way, and the heatmaps' zoom went to its limit at once.
GLFWscrollfun g_imgui_scroll = nullptr;  // ImGui's GLFW backend callback (it chains to main.cpp's)
void on_scroll(GLFWwindow* window, double xoffset, double yoffset) {
  if (g_imgui_scroll) g_imgui_scroll(window, -xoffset / 100.0, -yoffset / 100.0);
}

}  // namespace

ui::Theme system_theme() {
  switch (js_system_theme()) {
    case 2:
      return ui::Theme::Contrast;
    case 1:
      return ui::Theme::Light;
    default:
      return ui::Theme::Dark;
  }
}

void platform_init(App& app) {
  g_app = &app;
  web_share_init(app.state);
  app.state.ui.settings.system_theme = system_theme();  // the theme until a link or the View menu picks one
  char* locale = js_browser_language();
  app.state.ui.settings.system_lang = std::string(ui::language_from_locale(locale ? locale : "en"));
  std::free(locale);
  g_imgui_scroll = glfwSetScrollCallback(app.window, on_scroll);  // after ImGui installed its own
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_resize);
}

void platform_before_frame(App& app) {
  // devicePixelRatio changes with browser zoom and when the window moves to another screen.
  const double dpr = js_pixel_ratio();
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
  const double dpr = js_pixel_ratio();
  return dpr > 0.25 ? float(dpr) : 1.0f;
}

void platform_logical_size(App&, float* width, float* height) {
  if (g_size_check_needed || (g_css_w <= 0 && g_css_h <= 0)) read_css_size();  // else as at the last resize
  *width = float(g_css_w);
  *height = float(g_css_h);
}

void platform_draw_ui(App&) {}  // the page's own HTML does files (web/share.js)

void platform_frame_rendered(App&) {}

void platform_started(App&) {
  js_app_started();
}

void platform_frame_drawn(App& app) {
  const ui::KeyboardUi& keys = app.state.ui.keyboard;
  if (keys.announce != app.announced) {
    app.announced = keys.announce;
    if (!app.announced.empty()) js_announce(app.announced.c_str());
  }
  if (app.state.computed && app.state.result_version != app.tabled_version) {
    app.tabled_version = app.state.result_version;
    js_result_changed();
  }
  if (app.first_frame_drawn) return;
  app.first_frame_drawn = true;
  js_first_frame_drawn();
}

}  // namespace app

// --- window.attentionLab: C functions returning JSON (see web/attention-lab-api.js) -------------
namespace page = app::page;

namespace {
// The page API's one "bring up to date": a reading call (getState, getMatrix, checkResult, getStep,
// setStep) sees the result of every edit made so far, recomputed now when the next frame has not
// done it yet. nullptr before the app started.
ui::AppState* up_to_date_state() {
  if (!app::g_app) return nullptr;
  ui::recompute_if_dirty(app::g_app->state);
  return &app::g_app->state;
}
}  // namespace

extern "C" {

// square_stages: 1 puts the n×n stages in the reply at any n (page_api.hpp, state()).
EMSCRIPTEN_KEEPALIVE const char* al_get_state(int square_stages) {
  const ui::AppState* state = up_to_date_state();
  if (!state) return page::reply(nullptr);
  return page::reply(page::state(*state, square_stages != 0));
}

// getMatrix(stage, head): {ok, rows, cols, ptr}; the numbers stay at ptr until the next call.
EMSCRIPTEN_KEEPALIVE const char* al_get_matrix(const char* stage, int head) {
  const ui::AppState* state = up_to_date_state();
  if (!state) return page::reply(page::fail("app: not started"));
  page::MatrixView view;
  return page::reply(page::matrix(*state, stage ? stage : "", head, &view));
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

// checkResult(): the shown result against a full pass of the core over the current scene.
EMSCRIPTEN_KEEPALIVE const char* al_check_result() {
  const ui::AppState* state = up_to_date_state();
  if (!state) return page::reply(page::fail("app: not started"));
  return page::reply(page::check_result(*state));
}

// A mode's call (window.attentionLab's getStep, setStep, getQuiz, openQuiz, getTraining, getCircuits,
// circuitsExport, getModel): its row's page_call (ui/modes/modes.hpp) on the state brought up to date.
// A call not named get… may change the screen: a frame is drawn after it.
EMSCRIPTEN_KEEPALIVE const char* al_mode_call(const char* mode, const char* call, const char* arg) {
  ui::AppState* state = up_to_date_state();
  if (!state) return page::reply(page::fail("app: not started"));
  const std::string_view name = call ? call : "";
  page::Json reply = ui::page_call(*state, mode ? mode : "", name, arg ? arg : "");
  if (name.rfind("get", 0) != 0) ++app::g_app->events;
  return page::reply(reply);
}

// A mode's file (its row's `file`, fetched by web_share.cpp's js_fetch_file): kind 0 progress (the
// share received), 1 the bytes, 2 why it failed (`bytes` the sentence).
EMSCRIPTEN_KEEPALIVE void al_mode_file(const char* mode, int kind, double progress, const char* bytes,
                                       int size) {
  if (!app::g_app) return;
  const std::optional<scene::link::Mode> m = scene::link::mode_from_name(mode ? mode : "");
  if (!m || kind < 0 || kind > 2) return;
  ui::FileNews news;
  news.kind = ui::FileNews::Kind(kind);
  news.progress = float(progress);
  news.bytes = std::string_view(bytes ? bytes : "", bytes ? std::size_t(size > 0 ? size : 0) : 0);
  ui::deliver_file(app::g_app->state, *m, news);
  ++app::g_app->events;
}

EMSCRIPTEN_KEEPALIVE void al_gl_context_lost() {
  if (app::g_app) app::g_app->gl_context_lost = true;
}

EMSCRIPTEN_KEEPALIVE void al_gl_context_restored() {
  app::gl_state_reset();  // the new context's state is its defaults (web_gl_state.cpp)
  if (!app::g_app) return;
  app::g_app->gl_context_lost = false;
  app::g_app->gl_context_restored = true;
}

// boot.js, when the system's colour preference changes (a followed theme changes with it).
EMSCRIPTEN_KEEPALIVE void al_system_theme_changed() {
  if (!app::g_app) return;
  app::g_app->state.ui.settings.system_theme = app::system_theme();
  ++app::g_app->events;
}

EMSCRIPTEN_KEEPALIVE void al_request_frame() {
  if (app::g_app) ++app::g_app->events;
}

// boot.js, after the mouseup of a lifted finger: see App::touch_lift.
// The numbers of web/a11y.js's off-screen tables, for the first `max_tokens` tokens only: the
// weights (query rows × key columns; the mean over heads for several heads, as getState's) and
// the output rows. A screen reader browses a 64×64 table, not a 1024×1024 one — and rebuilding
// that (from a 30 MB getState reply) after every edit stalled the drawing for a second.
// {"n": N, "shown": k, "tokens": [k], "weights": [k×k], "output": [k×d_out]}
EMSCRIPTEN_KEEPALIVE const char* al_a11y_tables(int max_tokens) {
  if (!app::g_app || !app::g_app->state.computed)
    return app::page::reply(app::page::fail("app: no result yet"));
  const ui::AppState& state = app::g_app->state;
  const bool heads = !state.heads.heads.empty();
  const attn::Matrix& weights = heads ? state.heads.weights_mean : state.result.weights;
  const attn::Matrix& output = heads ? state.heads.output : state.result.output;
  // Key columns: m of them (the sources' with cross-attention, else the tokens again).
  const int n = int(weights.rows()), k = std::clamp(max_tokens, 0, n), m = std::min(k, int(weights.cols()));
  app::page::Json rows_w = app::page::Json::array(), rows_y = app::page::Json::array(),
                  tokens = app::page::Json::array(), keys = app::page::Json::array();
  for (int j = 0; j < m; ++j) keys.push_back(scene::key_labels(state.scene)[std::size_t(j)]);
  for (int i = 0; i < k; ++i) {
    tokens.push_back(state.scene.tokens[std::size_t(i)]);
    app::page::Json w = app::page::Json::array(), y = app::page::Json::array();
    for (int j = 0; j < m; ++j) w.push_back(weights(i, j));
    for (Eigen::Index c = 0; c < output.cols(); ++c) y.push_back(output(i, c));
    rows_w.push_back(std::move(w));
    rows_y.push_back(std::move(y));
  }
  return app::page::reply({{"n", n},
                           {"shown", k},
                           {"tokens", std::move(tokens)},
                           {"keys", std::move(keys)},
                           {"weights", std::move(rows_w)},
                           {"output", std::move(rows_y)}});
}

// 1 when the point (x, y) of the canvas, in backing-store pixels (as ImGui's mouse), is over a
// Scores or Weights grid drawn in the last frame: web/boot.js then turns a two-finger pinch there
// into the grid's zoom instead of the browser's page zoom.
EMSCRIPTEN_KEEPALIVE int al_grid_at(float x, float y) {
  if (!app::g_app) return 0;
  return app::g_app->state.ui.grid_view.grid_at(x, y, ImGui::GetFrameCount()) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void al_touch_lifted() {
  if (!app::g_app) return;
  app::g_app->touch_lift = 1;
  ++app::g_app->events;
}

}  // extern "C"
