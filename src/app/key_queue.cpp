// key_queue.cpp — see key_queue.hpp.
#include "app/key_queue.hpp"

#include <GLFW/glfw3.h>

#include <deque>
#include <vector>

#include "app/app.hpp"

namespace app {
namespace {

struct InputEvent {
  enum Kind { Key, Char } kind;
  int key, scancode, action, mods;  // Key
  unsigned codepoint;               // Char
};

GLFWkeyfun g_backend_key = nullptr;  // ImGui's backend callbacks, which do the real work
GLFWcharfun g_backend_char = nullptr;
std::deque<InputEvent> g_queue;

// A key that types a character (letters, digits, punctuation, space, the keypad's digits and
// operators) with no Ctrl, Alt or Super held. Its transitions may share a frame with the characters
// it types; any other key (Tab, Enter, Esc, arrows, Backspace, modifiers…) may change what the
// characters go to, so it and the characters never share a frame.
bool is_typing_key(int key, int mods) {
  if (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) return false;
  return (key >= GLFW_KEY_SPACE && key <= GLFW_KEY_GRAVE_ACCENT) || key == GLFW_KEY_WORLD_1 ||
         key == GLFW_KEY_WORLD_2 || (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_ADD) ||
         key == GLFW_KEY_KP_EQUAL;
}

void wake(GLFWwindow* window) {
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(window))) ++a->events;
}

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  // GLFW_REPEAT changes no state for ImGui 1.86 (it repeats held keys itself): pass it on.
  if (action == GLFW_REPEAT) {
    if (g_backend_key) g_backend_key(window, key, scancode, action, mods);
    return;
  }
  g_queue.push_back({InputEvent::Key, key, scancode, action, mods, 0});
  wake(window);
}

void on_char(GLFWwindow* window, unsigned codepoint) {
  g_queue.push_back({InputEvent::Char, 0, 0, 0, 0, codepoint});
  wake(window);
}

}  // namespace

void key_queue_install(GLFWwindow* window) {
  g_backend_key = glfwSetKeyCallback(window, on_key);
  g_backend_char = glfwSetCharCallback(window, on_char);
}

bool key_queue_deliver(GLFWwindow* window) {
  std::vector<int> changed;      // keys that already went down or up this frame
  bool pressed = false;          // a key went down this frame
  bool command_changed = false;  // a key that is not a typing key went down or up this frame
  bool typed = false;            // a character was delivered this frame
  while (!g_queue.empty()) {
    const InputEvent& e = g_queue.front();
    if (e.kind == InputEvent::Key) {
      bool again = false;
      for (int k : changed) again = again || k == e.key;
      const bool typing = is_typing_key(e.key, e.mods);
      if (again || (e.action == GLFW_RELEASE && pressed) || (typed && !typing)) break;
      changed.push_back(e.key);
      pressed = pressed || e.action == GLFW_PRESS;
      command_changed = command_changed || !typing;
      if (g_backend_key) g_backend_key(window, e.key, e.scancode, e.action, e.mods);
    } else {
      if (command_changed) break;
      typed = true;
      if (g_backend_char) g_backend_char(window, e.codepoint);
    }
    g_queue.pop_front();
  }
  return !g_queue.empty();
}

}  // namespace app
