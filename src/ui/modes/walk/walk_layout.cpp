// walk_layout.cpp — the Walk through mode: Explore's panels with the step card (see walk_mode.hpp).

#include "ui/frame/screen.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/explore/explore.hpp"
#include "ui/modes/walk/walk_mode.hpp"

namespace ui {

void layout_walk(Screen& sc) {
  layout_panels(sc, true);
}

// The walk's step card (not a panel of the link's hide=/view=).
void Screen::walk_card(ImVec2 pos, ImVec2 size) {
  ImGui::SetCursorPos(ImVec2(pos.x, pos.y - top_h));
  ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::panel()));
  ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette::accent()));
  ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
  const bool visible = ImGui::BeginChild("Walk through", size, true, ImGuiWindowFlags_NoScrollbar);
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(2);
  if (visible) draw_walk_card(state, fonts);
  ImGui::EndChild();
}

}  // namespace ui
