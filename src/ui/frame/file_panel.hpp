// file_panel.hpp — the desktop's small Open / Save dialog: a path field and two buttons.
//
// The UI only collects the path; the platform does the file work (src/app/desktop_platform.cpp)
// through a callback that returns "" on success (the dialog closes in that same frame, so the next
// frame — e.g. an exported PNG — no longer shows it) or an error, shown inside the dialog, which
// stays open so the path can be corrected.
#pragma once

#include <array>
#include <functional>
#include <string>

#include "ui/look/fonts.hpp"

namespace ui {

enum class FileAction {
  None,
  OpenScene,   // read a scene JSON v1 file
  SaveScene,   // write the current scene as JSON v1
  SavePng,     // write the screen as a PNG
  SaveExport,  // write the Export menu's text (scene/export: .py, .tex or .svg)
  SaveText,    // write a text the app made (the Circuits mode's model JSON or PyTorch script)
};

struct FileDialog {
  FileAction action = FileAction::None;  // the dialog is open while this is not None
  std::array<char, 1024> path{};         // the path field (UTF-8, NUL-terminated)
  std::string error;                     // the last failure, shown in red under the field
  std::string hint;                      // one dim line, e.g. the folder relative paths start from
  bool focus_path = false;               // put the keyboard in the path field (on opening)
};

// Open the dialog for `action` with the path field set to `path`.
void open_file_dialog(FileDialog& dialog, FileAction action, const std::string& path);
void close_file_dialog(FileDialog& dialog);

// Does `action` with `path`: "" on success, else the reason ("<path>: cannot write the file").
using FileActionRunner = std::function<std::string(FileAction action, const std::string& path)>;

// Draw the dialog (a centred modal) when open, between ImGui::NewFrame and ImGui::Render. When the
// user confirms (button or Enter), `run` does the action. Escape and Cancel close it.
void draw_file_dialog(FileDialog& dialog, const Fonts& fonts, const FileActionRunner& run);

}  // namespace ui
