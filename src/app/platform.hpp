// platform.hpp — what differs between the desktop and the web build, behind one interface.
// web_platform.cpp (Emscripten) and desktop_platform.cpp (GLFW + OpenGL 3.3) implement it;
// CMake compiles exactly one of them.
#pragma once

#include <string>

#include "app/app.hpp"

namespace app {

// After the window, the GL context and ImGui exist: install resize/scale hooks (and on the web
// the page API of web/attention-lab-api.js).
void platform_init(App& app);

// Each loop iteration, before deciding whether to draw: keep the framebuffer matched to the
// display (web: canvas backing store = CSS size × devicePixelRatio).
void platform_before_frame(App& app);

// Device pixels per CSS pixel (web: devicePixelRatio) or per logical pixel (desktop: the monitor's
// content scale over the framebuffer scale). Fonts and sizes are multiplied by it.
float platform_ui_scale(App& app);

// The display size in CSS/logical pixels (picks the base font size).
void platform_logical_size(App& app, float* width, float* height);

// After the panels, before ImGui::Render: windows of the platform's own (desktop: the Open/Save
// dialog, Ctrl+O / Ctrl+S, dropped files; web: nothing).
void platform_draw_ui(App& app);

// After the frame is rendered, before the buffers swap (desktop: glGetError checks, --screenshot
// and --rects from the back buffer, --frames exit; web: nothing).
void platform_frame_rendered(App& app);

// Once, when the app is set up and before its first frame (web: the page installs what it has
// already fetched — the demo index, the language file — so the first frame shows them).
void platform_started(App& app);

// After a frame has been drawn (web: resolves attentionLab.ready after the first one).
void platform_frame_drawn(App& app);

#ifdef __EMSCRIPTEN__
// web_share.cpp: connect the Share buttons' actions to web/share.js and give the exported
// al_share_* functions the app's state (platform_init calls it once).
void web_share_init(ui::AppState& state);
#else
// Read a whole file; false with `error` set (the web build has no files).
bool platform_read_file(const std::string& path, std::string* text, std::string* error);
#endif

}  // namespace app
