// theme.cpp — ImGui style for the one designed screen.
#include "ui/theme.hpp"

namespace ui {

ImVec4 to_vec4(ImU32 color) {
  return ImGui::ColorConvertU32ToFloat4(color);
}

void apply_theme(float scale) {
  ImGuiStyle style;  // fresh defaults, so calling this again after a scale change does not compound
  ImGui::StyleColorsDark(&style);
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(7, 4);
  style.ItemSpacing = ImVec2(8, 6);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.CellPadding = ImVec2(4, 3);
  style.ScrollbarSize = 12;
  style.GrabMinSize = 4;
  style.WindowRounding = 8;
  style.ChildRounding = 6;
  style.FrameRounding = 4;
  style.PopupRounding = 6;
  style.GrabRounding = 3;
  style.ScrollbarRounding = 6;
  style.TabRounding = 4;
  style.WindowBorderSize = 1;
  style.FrameBorderSize = 0;
  style.PopupBorderSize = 1;
  style.ScaleAllSizes(scale);

  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = to_vec4(palette::kText);
  c[ImGuiCol_TextDisabled] = to_vec4(palette::kTextDim);
  c[ImGuiCol_WindowBg] = to_vec4(palette::kPanel);
  c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_PopupBg] = ImVec4(0.10f, 0.11f, 0.14f, 0.97f);
  c[ImGuiCol_Border] = to_vec4(palette::kPanelBorder);
  c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.18f, 0.22f, 1.0f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.20f, 0.23f, 0.28f, 1.0f);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.22f, 0.27f, 0.32f, 1.0f);
  c[ImGuiCol_SliderGrab] = ImVec4(0.37f, 0.78f, 0.75f, 0.60f);
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.50f, 0.90f, 0.86f, 1.0f);
  c[ImGuiCol_CheckMark] = to_vec4(palette::kAccent);
  c[ImGuiCol_Button] = ImVec4(0.20f, 0.24f, 0.29f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.25f, 0.33f, 0.37f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.28f, 0.42f, 0.44f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.22f, 0.30f, 0.33f, 1.0f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.36f, 0.39f, 1.0f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.29f, 0.42f, 0.44f, 1.0f);
  c[ImGuiCol_Separator] = to_vec4(palette::kPanelBorder);
  c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.30f, 0.33f, 0.39f, 1.0f);
  c[ImGuiCol_TextSelectedBg] = ImVec4(0.37f, 0.78f, 0.75f, 0.35f);
  c[ImGuiCol_NavHighlight] = to_vec4(palette::kAccent);
  ImGui::GetStyle() = style;
}

}  // namespace ui
