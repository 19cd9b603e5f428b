// desktop_platform.cpp — platform.hpp for the native build (GLFW 3.3 + OpenGL 3.3 core).
// GLFW reports the monitor's content scale; ImGui's backend already handles the framebuffer scale
// (macOS-style windows whose framebuffer is larger than the window).
#include <GLFW/glfw3.h>

#include <fstream>
#include <sstream>

#include "app/platform.hpp"
#include "scene/scene.hpp"

namespace app {
namespace {
void on_content_scale(GLFWwindow* window, float, float) {
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(window))) ++a->events;
}
}  // namespace

void platform_init(App& app) {
  glfwSwapInterval(1);  // vsync
  glfwSetWindowContentScaleCallback(app.window, on_content_scale);
}

void platform_before_frame(App&) {}

float platform_ui_scale(App& app) {
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(app.window, &xscale, &yscale);
  int win_w = 0, win_h = 0, fb_w = 0, fb_h = 0;
  glfwGetWindowSize(app.window, &win_w, &win_h);
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  // ImGui works in window coordinates: where the framebuffer is already denser than the window
  // (macOS Retina), ImGui's framebuffer scale covers that part of the content scale.
  const float framebuffer_scale = (win_w > 0 && fb_w > 0) ? float(fb_w) / float(win_w) : 1.0f;
  const float scale = xscale / framebuffer_scale;
  return scale > 0.25f ? scale : 1.0f;
}

void platform_logical_size(App& app, float* width, float* height) {
  int w = 0, h = 0;
  glfwGetWindowSize(app.window, &w, &h);
  const float scale = platform_ui_scale(app);
  *width = float(w) / scale;
  *height = float(h) / scale;
}

void platform_frame_drawn(App& app) {
  app.first_frame_drawn = true;
}

bool platform_read_file(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open the file";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  if (text->size() > scene::kMaxInputBytes) {
    *error = path + ": larger than the 8 MiB scene limit";
    return false;
  }
  return true;
}

}  // namespace app
