// theme.cpp — ImGui style for the one designed screen, in the current theme's colours.
#include "ui/look/theme.hpp"

namespace ui {

static_assert(rgba(1, 2, 3, 4) == IM_COL32(1, 2, 3, 4), "palette.hpp packs colours as ImGui does");

ImVec4 to_vec4(ImU32 color) {
  return ImGui::ColorConvertU32ToFloat4(color);
}

namespace {

// A colour between `a` (t = 0) and `b` (t = 1), opaque.
ImVec4 mix(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = to_vec4(a), y = to_vec4(b);
  return ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, 1.0f);
}

// The widget colours that are the panel's fill moved a step towards the text (frames, plain
// buttons, scrollbars, tabs) or the accent (hovered/active states, headers): one row per ImGui slot.
struct PanelMix {
  ImGuiCol slot;
  Rgba Palette::*toward;
  float amount;  // 0 = the panel, 1 = `toward`
};
constexpr PanelMix kPanelMixes[] = {
    {ImGuiCol_FrameBg, &Palette::text, 0.07f},
    {ImGuiCol_FrameBgHovered, &Palette::text, 0.13f},
    {ImGuiCol_FrameBgActive, &Palette::accent, 0.22f},
    {ImGuiCol_Button, &Palette::text, 0.11f},
    {ImGuiCol_ButtonHovered, &Palette::accent, 0.25f},
    {ImGuiCol_ButtonActive, &Palette::accent, 0.40f},
    {ImGuiCol_Header, &Palette::accent, 0.22f},
    {ImGuiCol_HeaderHovered, &Palette::accent, 0.30f},
    {ImGuiCol_HeaderActive, &Palette::accent, 0.40f},
    {ImGuiCol_ScrollbarGrab, &Palette::text, 0.22f},
    {ImGuiCol_ScrollbarGrabHovered, &Palette::text, 0.32f},
    {ImGuiCol_ScrollbarGrabActive, &Palette::text, 0.42f},
    {ImGuiCol_Tab, &Palette::text, 0.08f},
    {ImGuiCol_TabHovered, &Palette::accent, 0.30f},
    {ImGuiCol_TabActive, &Palette::accent, 0.22f},
};

}  // namespace

void apply_theme(Theme theme, float scale) {
  detail::g_palette = palette_of(theme);
  const Palette& p = detail::g_palette;
  const bool contrast = theme == Theme::Contrast;

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
  style.FrameBorderSize = contrast ? 1.0f : 0.0f;  // high contrast: every control outlined
  style.PopupBorderSize = 1;
  style.ScaleAllSizes(scale);

  // Widget colours are mixes of the palette: frames a step from the panel towards the text, buttons
  // and headers towards the accent, so every theme derives its whole look from its palette.
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = to_vec4(p.text);
  c[ImGuiCol_TextDisabled] = to_vec4(p.text_dim);
  c[ImGuiCol_WindowBg] = to_vec4(p.panel);
  c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_PopupBg] = mix(p.panel, p.background, 0.5f);
  c[ImGuiCol_PopupBg].w = 0.98f;
  c[ImGuiCol_Border] = to_vec4(p.panel_border);
  c[ImGuiCol_SliderGrab] = to_vec4(p.accent);
  c[ImGuiCol_SliderGrab].w = 0.60f;
  c[ImGuiCol_SliderGrabActive] = to_vec4(p.accent);
  c[ImGuiCol_CheckMark] = to_vec4(p.accent);
  c[ImGuiCol_Separator] = to_vec4(p.panel_border);
  c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
  for (const PanelMix& m : kPanelMixes) c[m.slot] = mix(p.panel, p.*m.toward, m.amount);
  c[ImGuiCol_TextSelectedBg] = to_vec4(with_alpha(p.accent, 90));
  c[ImGuiCol_NavHighlight] = to_vec4(p.focus);
  c[ImGuiCol_ModalWindowDimBg] = to_vec4(with_alpha(p.background, 150));
  ImGui::GetStyle() = style;
}

}  // namespace ui
