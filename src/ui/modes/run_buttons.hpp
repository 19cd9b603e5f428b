// run_buttons.hpp — the Play / Pause / Step / Reset row of the modes that train a model (Train,
// Circuits): one copy for both.
//
//   [ Play ][ Pause ][ Step +1 ][ Reset ]   four equal buttons across the panel
//    └ accented, enabled while paused ┘└ enabled while running
//
// Widget ids: the caller's four, written out where it calls (docs/PAGE_API.md lists them;
// tests/widget_ids_test.py reads them from the call).
#pragma once

#include <cmath>
#include <string>

#include "imgui.h"
#include "ui/look/theme.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

// The buttons' widget ids, e.g. {"train/play", "train/pause", "train/step", "train/reset"}.
struct RunIds {
  const char* play;
  const char* pause;
  const char* step;
  const char* reset;
};

// What the buttons do, and the tips of Step and Reset.
struct RunActions {
  void (*play)(AppState& state, bool play);  // Play (true), Pause (false)
  void (*step)(AppState& state);
  void (*reset)(AppState& state);
  Text step_tip, reset_tip;
};

// A button's label: the text, and an ImGui id from the widget id ("train/play" → "###train-play") so
// the button stays the same widget in every language.
inline std::string run_label(Text text, std::string id) {
  for (char& ch : id)
    if (ch == '/') ch = '-';
  return std::string(tr(text)) + "###" + id;
}

// The row. `running` is read again after Play, so Pause is enabled in the frame Play was pressed.
inline void run_buttons(AppState& state, RunIds ids, const bool& running, const RunActions& act) {
  const float button_w =
      std::floor((ImGui::GetContentRegionAvail().x - 3.0f * ImGui::GetStyle().ItemSpacing.x) / 4.0f);
  ImGui::PushStyleColor(ImGuiCol_Button, to_vec4(running ? palette::panel_border() : palette::accent_soft()));
  ImGui::BeginDisabled(running);
  if (button(state, ids.play, run_label(Text::TrainPlay, ids.play).c_str(), ImVec2(button_w, 0)))
    act.play(state, true);
  ImGui::EndDisabled();
  ImGui::PopStyleColor();
  ImGui::SameLine();
  ImGui::BeginDisabled(!running);
  if (button(state, ids.pause, run_label(Text::Pause, ids.pause).c_str(), ImVec2(button_w, 0)))
    act.play(state, false);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (button(state, ids.step, run_label(Text::TrainStep, ids.step).c_str(), ImVec2(button_w, 0)))
    act.step(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(act.step_tip));
  ImGui::SameLine();
  if (button(state, ids.reset, run_label(Text::Reset, ids.reset).c_str(), ImVec2(button_w, 0)))
    act.reset(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(act.reset_tip));
}

}  // namespace ui
