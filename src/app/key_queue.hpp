// key_queue.hpp — every key press reaches ImGui, however short (both platforms).
//
// Dear ImGui 1.86 reads the keyboard as a state once per frame (io.KeysDown[]): a key whose press
// and release both arrive between two frames never happened for it. Real fingers hold a key for
// longer than a frame; on-screen keyboards, switch access, remote desktops and test drivers
// (Playwright's keyboard.press, `xdotool key`) do not. So the GLFW key and character callbacks
// only queue their events, and each frame hands them to ImGui's backend in arrival order under the
// rules of ImGui 1.87's input queue ("trickling"), and one more for chords:
//   - at most one transition (down or up) of a given key per frame;
//   - no release after a press in the same frame, so that keys pressed together are seen down
//     together (`xdotool key ctrl+s` sends Ctrl's release before S's: Ctrl+S must still be seen);
//   - no character in the frame of a command key's change (Tab, Enter, Esc, arrows, Backspace,
//     a modifier…), and no command key in the frame of a character: a Tab that moves the focus
//     takes effect before the digits typed into the next field, and the Enter after them comes
//     after them. Typing keys (a letter, a digit…) share a frame with their characters, so text
//     arrives at one character per frame;
// the first event that breaks a rule waits, with everything behind it, for the next frame.
#pragma once

struct GLFWwindow;

namespace app {

// After ImGui's GLFW backend installed its callbacks: put the queue in front of its key and
// character callbacks (which chain to main.cpp's own).
void key_queue_install(GLFWwindow* window);

// Before ImGui::NewFrame: deliver what this frame may see. Returns true when events still wait,
// so the loop draws another frame for them.
bool key_queue_deliver(GLFWwindow* window);

}  // namespace app
