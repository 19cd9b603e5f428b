// step_controls.cpp — the stepping modes' Start / Prev / Next / Play row (see step_controls.hpp).
#include "ui/widgets/step_controls.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

int play_tick(AppState& state, StepPlay play, int step) {
  int want = step;
  if (play.playing) {
    play.clock += double(ImGui::GetIO().DeltaTime);
    if (play.clock >= play.seconds) {
      play.clock = 0;
      ++want;
    }
    state.ui.frame.layout_changed = true;  // keep frames coming while playing (the app idles otherwise)
  }
  return want;
}

int step_controls(AppState& state, const StepIds& ids, int step, bool at_end, StepPlay play) {
  std::string play_label_id = ids.play;  // "flash/play" → ImGui's "###flash-play"
  std::replace(play_label_id.begin(), play_label_id.end(), '/', '-');
  const float button_w =
      std::floor((ImGui::GetContentRegionAvail().x - 3.0f * ImGui::GetStyle().ItemSpacing.x) / 4.0f);
  int want = step;
  ImGui::BeginDisabled(step == 0);
  if (button(state, ids.start, tr(Text::StepStart), ImVec2(button_w, 0))) want = 0;
  ImGui::SameLine();
  if (button(state, ids.prev, tr(Text::WalkPrev), ImVec2(button_w, 0))) want = step - 1;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(at_end);
  if (button(state, ids.next, tr(Text::WalkNext), ImVec2(button_w, 0))) want = step + 1;
  ImGui::SameLine();
  if (button(state, ids.play,
             (std::string(tr(play.playing ? Text::Pause : Text::Play)) + "###" + play_label_id).c_str(),
             ImVec2(button_w, 0))) {
    play.playing = !play.playing;
    play.clock = play.seconds;  // the first step at once
  }
  ImGui::EndDisabled();
  if (want < step) play.playing = false;
  return want;
}

}  // namespace ui
