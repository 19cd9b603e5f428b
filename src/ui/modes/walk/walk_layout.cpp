// walk_layout.cpp — the Walk through mode: the shared panels (modes/panels_layout.hpp) with the step
// card on top and the step's panels lit (see walk_mode.hpp).
#include "ui/look/theme.hpp"
#include "ui/modes/panels_layout.hpp"
#include "ui/modes/walk/walk_mode.hpp"

namespace ui {
namespace {

// The walk's step card (not a panel of the link's hide=/view=).
void draw_card(Screen& sc, ImVec2 pos, ImVec2 size) {
  ImGui::SetCursorPos(ImVec2(pos.x, pos.y - sc.top_h));
  ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::panel()));
  ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette::accent()));
  ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
  const bool visible = ImGui::BeginChild("Walk through", size, true, ImGuiWindowFlags_NoScrollbar);
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(2);
  if (visible) draw_walk_card(sc.state, sc.fonts);
  ImGui::EndChild();
}

constexpr PanelsCard kStepCard{walk_card_height, draw_card, walk_panel_lit};

}  // namespace

void layout_walk(Screen& sc) {
  layout_panels(sc, &kStepCard);
  // A new step scrolls the page back up to its card (phones; short landscape displays).
  if (sc.state.ui.walk.scroll_to_top) ImGui::SetScrollY(0.0f);
  sc.state.ui.walk.scroll_to_top = false;
}

}  // namespace ui
