// view_menu.cpp — the View menu and the zoom steps (see view_menu.hpp).
#include "ui/frame/view_menu.hpp"

#include <string>

#include "core/lookup.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/look/theme.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

namespace {

void address_follows(const AppState& state) {
  if (state.sharing.scene_changed) state.sharing.scene_changed();
}

// Each theme's name in the menu (Dark, the default, also for any other value).
constexpr attn::Row<Theme, Text> kThemeLabels[] = {{Theme::Light, Text::ThemeLight},
                                                   {Theme::Contrast, Text::ThemeContrast}};

const char* theme_label(Theme theme) {
  return tr(attn::lookup(kThemeLabels, theme, Text::ThemeDark));
}

// "View##view": the label in the current language, one ImGui id whatever the language.
std::string view_label() {
  return std::string(tr(Text::View)) + "##view";
}

}  // namespace

int next_zoom(int zoom, int direction) {
  if (direction == 0) return scene::link::kDefaultZoom;
  if (direction > 0) {
    for (int z : kZoomSteps)
      if (z > zoom) return z;
    return scene::link::kMaxZoom;
  }
  int below = scene::link::kMinZoom;
  for (int z : kZoomSteps)
    if (z < zoom) below = z;
  return below;
}

void choose_theme(AppState& state, Theme theme) {
  if (state.ui.settings.theme == theme) return;
  state.ui.settings.theme = theme;
  state.ui.frame.layout_changed = true;
  address_follows(state);
}

void choose_language(AppState& state, std::string_view code) {
  if (state.ui.settings.lang == code || !scene::link::is_language(code)) return;
  state.ui.settings.lang = std::string(code);
  state.ui.frame.layout_changed = true;  // the words change size: measure again
  address_follows(state);
}

void step_zoom(AppState& state, int direction) {
  if (!set_zoom(state.ui, next_zoom(state.ui.settings.zoom, direction))) return;
  state.ui.frame.layout_changed = true;
  address_follows(state);
}

float view_button_width() {
  return ImGui::CalcTextSize(view_label().c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

void draw_view_menu(AppState& state, const Fonts& fonts) {
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text,
                        to_vec4(ImGui::IsPopupOpen("##view-menu") ? palette::accent() : palette::text_dim()));
  if (button(state, "view/menu", view_label().c_str())) ImGui::OpenPopup("##view-menu");
  ImGui::PopStyleColor(2);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ViewTip));
  if (!ImGui::BeginPopup("##view-menu")) return;

  ImGui::PushFont(fonts.small);
  ImGui::TextDisabled("%s", tr(Text::ThemeHeading));
  ImGui::PopFont();
  const Theme shown = shown_theme(state.ui);
  for (const scene::link::ThemeInfo& t : scene::link::kThemes) {
    const std::string label = std::string(theme_label(t.theme)) + "##theme-" + std::string(t.name);
    if (radio_button(state, "view/theme/" + std::string(t.name), label.c_str(), shown == t.theme))
      choose_theme(state, t.theme);
  }
  ImGui::Separator();
  ImGui::PushFont(fonts.small);
  ImGui::TextDisabled("%s", tr(Text::ZoomHeading));
  ImGui::PopFont();
  const float square = ImGui::GetFrameHeight();
  ImGui::BeginDisabled(state.ui.settings.zoom <= scene::link::kMinZoom);
  if (button(state, "zoom/out", "−", ImVec2(square, square))) step_zoom(state, -1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  const std::string percent = std::to_string(state.ui.settings.zoom) + " %";
  if (button(state, "zoom/reset", percent.c_str(), ImVec2(4.5f * ImGui::GetFontSize(), square)))
    step_zoom(state, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::ZoomResetTip));
  ImGui::SameLine();
  ImGui::BeginDisabled(state.ui.settings.zoom >= scene::link::kMaxZoom);
  if (button(state, "zoom/in", "+", ImVec2(square, square))) step_zoom(state, +1);
  ImGui::EndDisabled();
  ImGui::Separator();
  ImGui::PushFont(fonts.small);
  ImGui::TextDisabled("%s", tr(Text::LanguageHeading));
  ImGui::PopFont();
  const std::string& shown_lang = shown_language(state.ui);
  for (const scene::link::LanguageInfo& l : scene::link::kLanguages) {
    const std::string label = std::string(l.name) + "##lang";
    if (radio_button(state, "view/lang/" + std::string(l.code), label.c_str(), shown_lang == l.code))
      choose_language(state, l.code);
  }
  ImGui::EndPopup();
}

}  // namespace ui
