// top_bar.cpp — the top bar and the mode bar (see screen.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "ui/frame/sharing.hpp"
#include "ui/frame/view_menu.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/screen.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/recorded.hpp"

namespace ui {

void draw_top_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::background()));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  begin_panel("##top", pos, size);
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool compact = size.x < 60.0f * em;
  const float title_w = compact ? 0.0f : 9.5f * em;
  if (!compact) {
    ImGui::PushFont(fonts.heading);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * (size.y - fonts.heading->FontSize) - 0.4f * em),
                palette::accent(), "Attention Lab");
    ImGui::PopFont();
    ImGui::PushFont(fonts.small);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * size.y + 0.25f * em), palette::text_dim(),
                tr(Text::Subtitle));
    ImGui::PopFont();
  }
  const float formula_cx = pos.x + title_w + 0.5f * (size.x - 2.0f * title_w) + 0.5f * title_w;
  draw_formula_strip(state, fonts, ImVec2(formula_cx, pos.y + 0.36f * size.y), size.x - 2.2f * title_w);

  // Caption: what the hovered term means; an error replaces it until dismissed.
  ImGui::PushFont(fonts.small);
  std::string caption = state.error.empty() ? term_caption(state, state.ui.frame.shown.hovered_term) : state.error;
  caption = fit_text(caption, size.x - 2.0f * em);
  const ImVec2 cs = ImGui::CalcTextSize(caption.c_str());
  const float cy = pos.y + size.y - cs.y - 0.35f * em;
  dl->AddText(ImVec2(formula_cx - 0.5f * cs.x, cy),
              state.error.empty() ? palette::text_dim() : palette::error(), caption.c_str());
  if (!state.error.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(formula_cx + 0.5f * cs.x + 0.5f * em, cy - 0.15f * em));
    if (ImGui::SmallButton(tr(Text::Dismiss))) state.error.clear();
  }
  ImGui::PopFont();
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

float mode_bar_height() {
  return std::floor(2.0f * ImGui::GetFontSize());
}

// The buttons the modes put at the right end of the bar (the quiz's), `gap` apart: their width, and
// drawing them.
static float bar_buttons_width(float gap) {
  float w = 0.0f;
  int count = 0;
  for (const ModeEntry& m : mode_rows())
    if (m.bar_button) w += (count++ ? gap : 0.0f) + m.bar_button_width();
  return w;
}

static void draw_bar_buttons(AppState& state, float gap) {
  int count = 0;
  for (const ModeEntry& m : mode_rows()) {
    if (!m.bar_button) continue;
    if (count++) ImGui::SameLine(0, gap);
    m.bar_button(state);
  }
}

// A tab of the mode bar: a button, lit when its mode is the current one, recorded under `id`.
// `scroll_here`: the scrolling tabs bring it into view (before its rectangle is recorded).
static bool mode_tab(AppState& state, const std::string& id, const std::string& label, bool current,
                     bool scroll_here) {
  ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::accent_soft()) : ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current ? palette::accent() : palette::text_dim()));
  const bool pressed = ImGui::Button(label.c_str());
  ImGui::PopStyleColor(2);
  if (scroll_here) ImGui::SetScrollHereX(0.5f);
  record_item_rect(state, id);
  return pressed;
}

void draw_mode_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::background()));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  const float pad = std::floor(0.5f * ImGui::GetFontSize());
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, 0));
  begin_panel("##modes", pos, size, ImGuiWindowFlags_NoScrollbar);
  ImGui::PopStyleVar(2);
  const float em = ImGui::GetFontSize();
  const float frame_pad = 2.0f * ImGui::GetStyle().FramePadding.x, gap = 0.3f * em;
  // At the right end: the View menu (theme, zoom, language), then the modes' buttons (the quiz).
  const float buttons_w = bar_buttons_width(gap);
  const float view_w = view_button_width();
  // A mode this build lacks (the web's first load) has its tab when the platform can load the
  // build with it: the same tabs in both builds.
  const auto has_tab = [&state](Mode mode) { return mode_in_build(mode) || bool(state.sharing.open_mode); };
  float tabs_w = 0.0f;
  for (const scene::link::ModeInfo& m : scene::link::kModes)
    if (has_tab(m.mode)) tabs_w += ImGui::CalcTextSize(mode_label(m.mode).c_str()).x + frame_pad + gap;
  // A wide screen has the tabs, View and the quiz on one line. When they do not fit (a phone, a big
  // zoom), View stays pinned at the right edge and the tabs and the quiz scroll sideways beside it.
  const float inner_w = size.x - 2.0f * pad;
  const bool pinned = tabs_w + buttons_w + gap + view_w > inner_w;
  if (pinned && size.x >= 48.0f * em) note_overflow(state.ui, "mode-bar");
  const float thin_scrollbar = std::max(3.0f, std::floor(0.25f * em));
  int& scroll_frames = state.ui.frame.mode_tab_scroll_frames;
  if (state.ui.settings.mode != state.ui.frame.mode_tab_scrolled_to) {
    state.ui.frame.mode_tab_scrolled_to = state.ui.settings.mode;
    scroll_frames = 3;
  }
  if (pinned) {
    ImGui::SetCursorPos(ImVec2(pad, 0.0f));
    // A thin scrollbar under the tabs (not over their words).
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, thin_scrollbar);
    ImGui::BeginChild("##mode-tabs", ImVec2(std::max(1.0f, inner_w - view_w - gap), size.y), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PopStyleVar(2);
  }
  const float scrollbar = pinned ? thin_scrollbar : 0.0f;
  ImGui::SetCursorPosY(std::floor(0.5f * (size.y - scrollbar - ImGui::GetFrameHeight())));
  for (const scene::link::ModeInfo& m : scene::link::kModes) {
    if (!has_tab(m.mode)) continue;
    const bool current = m.mode == state.ui.settings.mode;
    // The scrolling tabs bring the current one into view when the mode changes (and on the first
    // frames, while the bar learns its width).
    if (mode_tab(state, "mode/" + std::string(m.name), mode_label(m.mode) + "##mode", current,
                 pinned && current && scroll_frames > 0) &&
        !current) {
      if (!mode_in_build(m.mode)) {
        state.sharing.open_mode(m.mode);  // the page reloads into the build with every mode
      } else {
        start_mode(state, m.mode);  // its start hook (the walk: its first step), or the mode set
      }
      state.ui.frame.layout_changed = true;  // draw the new layout at once
    }
    if (const char* also = mode_entry(m.mode).tab_id)
      record_item_rect(state, also);  // the tab is that control too
    ImGui::SameLine(0, gap);
  }
  if (scroll_frames > 0) {
    --scroll_frames;
    state.ui.frame.layout_changed = true;  // the scroll lands in the next frame
  }
  if (pinned) {
    draw_bar_buttons(state, gap);
    ImGui::EndChild();
    ImGui::SameLine(0, gap);
    ImGui::SetCursorPosY(std::floor(0.5f * (size.y - ImGui::GetFrameHeight())));
    draw_view_menu(state, fonts);
  } else {
    ImGui::SameLine(
        std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - buttons_w - gap - view_w));
    draw_view_menu(state, fonts);
    ImGui::SameLine(0, gap);
    draw_bar_buttons(state, gap);
  }
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace ui
