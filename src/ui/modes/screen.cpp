// screen.cpp — the Screen's panel methods and the fixed windows (see screen.hpp).
#include "ui/modes/screen.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui_internal.h"  // the panel window's content extent (text overflow check)
#include "ui/look/theme.hpp"

namespace ui {
namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                         ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoBringToFrontOnFocus |
                                         ImGuiWindowFlags_NoFocusOnAppearing;

}  // namespace

bool begin_panel(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  return ImGui::Begin(name, nullptr, kPanelFlags | extra);
}

bool Screen::open(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra) const {
  ImGui::SetCursorPos(ImVec2(pos.x, pos.y - top_h));
  ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::panel()));
  ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
  const bool visible = ImGui::BeginChild(name, size, true, extra);
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  return visible;
}

void Screen::close() const {
  // A text wider than its panel (a long translation on one line) runs past the panel's right edge.
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  // Anything past the work rectangle counts (half a pixel for rounding).
  const float past = window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
  if (past > 0.5f) {  // "Controls +12 px" (the child is "##page/Controls_1A2B3C4D")
    std::string name = window->Name;
    name = name.substr(name.rfind('/') + 1);
    note_overflow(state.ui, name.substr(0, name.rfind('_')) + " +" + std::to_string(int(past)) + " px");
  }
  ImGui::EndChild();
}

void Screen::mode_light(Panel panel) const {
  if (!mode_lights_panels(state)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
  const ImVec2 q(p.x + s.x, p.y + s.y);
  dl->PushClipRectFullScreen();
  if (mode_lights_panel(state, panel)) {
    dl->AddRect(p, q, palette::accent(), ImGui::GetStyle().WindowRounding, 0, std::max(2.0f, 0.15f * em));
  } else {
    const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                                                ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
    dl->AddRectFilled(p, q, palette::with_alpha(palette::background(), hovered ? 90 : 165),
                      ImGui::GetStyle().WindowRounding);
  }
  dl->PopClipRect();
}

void Screen::controls(ImVec2 pos, ImVec2 size) {
  if (open("Controls", pos, size)) {
    claim_hover(state, Term::Scale);
    state.ui.frame.widget_rects["panel/controls"] =
        ImVec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, size.x, size.y);
    state.ui.frame.controls_rows.clear();
    // The rows end at the bottom padding, not the border: a panel cut after a whole row (left_column)
    // shows no sliver of the next one.
    const ImVec2 at = ImGui::GetWindowPos();
    ImGui::PushClipRect(at, ImVec2(at.x + size.x, at.y + size.y - ImGui::GetStyle().WindowPadding.y), true);
    draw_controls_panel(state, fonts);
    ImGui::PopClipRect();
    // Measured each frame (content height + padding); a change means another frame is needed.
    const float measured = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    if (std::abs(measured - state.ui.frame.controls_h) > 0.5f) state.ui.frame.layout_changed = true;
    state.ui.frame.controls_h = measured;
    panel_border(state, Term::Scale);
    mode_light(Panel::Controls);
  }
  close();
}

void Screen::vectors(ImVec2 pos, ImVec2 size) {
  if (open("Tokens and vectors", pos, size)) {
    claim_hover(state, Term::Tokens);
    draw_vectors_panel(state, fonts);
    panel_border(state, Term::Tokens);
    mode_light(Panel::Vectors);
  }
  close();
}

void Screen::heatmap(const char* name, HeatmapKind kind, ImVec2 pos, ImVec2 size, DrawOver over) {
  if (open(name, pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
    draw_heatmap_panel(state, painter, fonts, kind);
    if (over) over(state);
    claim_hover(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
    panel_border(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
    mode_light(kind == HeatmapKind::Scores ? Panel::Scores : Panel::Weights);
  }
  close();
}

void Screen::mask(ImVec2 pos, ImVec2 size) {
  if (open("Mask", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
    draw_mask_panel(state, painter, fonts);
    claim_hover(state, Term::Mask);
    panel_border(state, Term::Mask);
    mode_light(Panel::Mask);
  }
  close();
}

void Screen::panel(const char* name, DrawPanel draw, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra) {
  if (open(name, pos, size, extra)) draw(state, fonts);
  close();
}

void Screen::picture(const char* name, Term term, DrawPanel draw, ImVec2 pos, ImVec2 size) {
  if (open(name, pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
    claim_hover(state, term);
    draw(state, fonts);
    panel_border(state, term);
  }
  close();
}

void Screen::output(ImVec2 pos, ImVec2 size) {
  if (open("Output", pos, size)) {
    draw_output_panel(state, fonts);
    claim_hover(state, Term::Output);
    panel_border(state, Term::Output);
    mode_light(Panel::Output);
  }
  close();
}

}  // namespace ui
