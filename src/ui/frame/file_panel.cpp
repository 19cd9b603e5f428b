// file_panel.cpp — the Open / Save dialog of the desktop build (see file_panel.hpp).
#include "ui/frame/file_panel.hpp"

#include <algorithm>
#include <cstring>

#include "ui/look/theme.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

// One popup id for every action ("###file"); the visible title changes with the action.
constexpr const char* kPopupId = "###file-dialog";

struct ActionText {
  const char* title;   // window title
  const char* prompt;  // above the field
  const char* button;  // the confirming button
};

ActionText action_text(FileAction action) {
  switch (action) {
    case FileAction::OpenScene:
      return {"Open scene###file-dialog", "Scene file (JSON v1) to open:", "Open"};
    case FileAction::SaveScene:
      return {"Save scene###file-dialog", "Save the scene (JSON v1) as:", "Save"};
    case FileAction::SavePng:
      return {"Save screenshot###file-dialog", "Save the screen (PNG) as:", "Save"};
    case FileAction::SaveExport:
      return {"Export###file-dialog", "Save the export (NumPy, PyTorch, LaTeX or SVG) as:", "Save"};
    case FileAction::SaveText:
      return {"Export###file-dialog", "Save the export as:", "Save"};
    case FileAction::None:
      break;
  }
  return {kPopupId, "", "OK"};
}

}  // namespace

void open_file_dialog(FileDialog& dialog, FileAction action, const std::string& path) {
  dialog.action = action;
  dialog.error.clear();
  dialog.path.fill('\0');
  std::memcpy(dialog.path.data(), path.data(), std::min(path.size(), dialog.path.size() - 1));
  dialog.focus_path = true;
}

void close_file_dialog(FileDialog& dialog) {
  dialog.action = FileAction::None;
  dialog.error.clear();
  dialog.focus_path = false;
}

void draw_file_dialog(FileDialog& dialog, const Fonts& fonts, const FileActionRunner& run) {
  if (dialog.action == FileAction::None && !ImGui::IsPopupOpen(kPopupId)) return;
  const ActionText text = action_text(dialog.action);
  if (dialog.action != FileAction::None && !ImGui::IsPopupOpen(kPopupId)) ImGui::OpenPopup(text.title);

  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float w = std::min(36.0f * em, io.DisplaySize.x - 2.0f * em);
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(w, 0));
  bool open = true;
  if (!ImGui::BeginPopupModal(text.title, &open,
                              ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                  ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    // Closed by ImGui (its × button): forget the action too.
    if (dialog.action != FileAction::None) close_file_dialog(dialog);
    return;
  }
  if (dialog.action == FileAction::None) {  // closed from outside
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }

  ImGui::TextUnformatted(text.prompt);
  if (dialog.focus_path) {
    ImGui::SetKeyboardFocusHere();
    dialog.focus_path = false;
  }
  ImGui::SetNextItemWidth(-FLT_MIN);
  bool confirmed = ImGui::InputText("##path", dialog.path.data(), dialog.path.size(),
                                    ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  if (!dialog.hint.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
    ImGui::PushFont(fonts.small);
    wrapped_text(dialog.hint);
    ImGui::PopFont();
    ImGui::PopStyleColor();
  }
  if (!dialog.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::error()));
    wrapped_text(dialog.error);
    ImGui::PopStyleColor();
  }
  ImGui::Dummy(ImVec2(0, 0.2f * em));

  const ImGuiStyle& style = ImGui::GetStyle();
  const float button_w = std::max(ImGui::CalcTextSize(text.button).x, ImGui::CalcTextSize("Cancel").x) +
                         2.0f * style.FramePadding.x + em;
  const bool has_path = dialog.path[0] != '\0';
  ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - 2.0f * button_w - style.ItemSpacing.x);
  if (!has_path) ImGui::BeginDisabled();
  confirmed |= ImGui::Button(text.button, ImVec2(button_w, 0));
  if (!has_path) ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", ImVec2(button_w, 0)) ||
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);

  if (cancel || !open) {
    close_file_dialog(dialog);
    ImGui::CloseCurrentPopup();
  } else if (confirmed && has_path) {
    dialog.error = run(dialog.action, std::string(dialog.path.data()));
    if (dialog.error.empty()) {
      close_file_dialog(dialog);
      ImGui::CloseCurrentPopup();
    } else {
      dialog.focus_path = true;  // keep typing in the field
    }
  }
  ImGui::EndPopup();
}

}  // namespace ui
