// frame.cpp — one frame of the screen: the top bar (title, formula strip, caption, mode bar) and,
// below it, the current mode's layout of the panels (modes/modes.hpp: the table of modes, and how to
// add one), fitted to the display (wide: columns; narrow phones: one scrolling column); then the
// windows over the page (the quiz, the gallery).
//
// The mode lives in AppState::ui.settings.mode; a link sets it (mode=, default explore), a tab click sets it
// and updates the address.
#include "ui/frame/frame.hpp"

#include <cmath>
#include <utility>

#include "ui/frame/sharing.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/modes.hpp"
#include "ui/modes/screen.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/keyboard.hpp"

namespace ui {

void draw_screen(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  // What the last frame gathered is what this one reads (FrameReads); the next is gathered afresh.
  state.ui.frame.shown = std::move(state.ui.frame.next);
  state.ui.frame.next = FrameReads{};
  set_language(shown_language(state.ui));  // the words of this frame (ui/text/i18n.hpp)
  state.ui.frame.widget_rects.clear();
  state.ui.frame.widget_text_w.clear();

  const ImGuiIO& io = ImGui::GetIO();
  Screen screen{state, painter, fonts};
  const float em = screen.em = ImGui::GetFontSize();
  const float W = screen.W = io.DisplaySize.x, H = screen.H = io.DisplaySize.y;
  screen.margin = screen.gap = std::floor(0.5f * em);
  // Links may hide panels (hide=) or show one full-size (view=); see sharing.hpp.
  screen.show_formula = panel_shown(state, Panel::Formula) || state.sharing.view == Panel::Formula;
  const float formula_h = screen.show_formula ? std::floor(3.6f * em) : 0.0f;
  const bool mode_bar = kShowModeBar && !state.sharing.view;
  screen.top_h = formula_h + (mode_bar ? mode_bar_height() : 0.0f);
  screen.narrow = W < 48.0f * em;
  state.ui.frame.compact_headers = H < 40.0f * em;
  if (state.ui.frame.controls_h <= 0) state.ui.frame.controls_h = 16.0f * em;  // until the first measurement

  keyboard_begin_frame(state);  // Tab moves the focus; the focused item's keys (ui/widgets/keyboard.hpp)
  mode_keys(state);             // the modes' keys (the walk's ←/→, Esc): the frame shows their effect
  mode_tick(state);             // the mode's Play or training step (modes/modes.hpp)
  // The one point where an edit becomes a result: after input (last frame's widgets, the keyboard,
  // the page API, the tick), before anything is drawn, so every panel of this frame shows the same
  // result. An edit made while this frame is drawn shows in the next (`dirty` asks the app for it).
  recompute_if_dirty(state);
  if (screen.show_formula) draw_top_bar(state, fonts, ImVec2(0, 0), ImVec2(W, formula_h));
  if (mode_bar) draw_mode_bar(state, fonts, ImVec2(0, formula_h), ImVec2(W, screen.top_h - formula_h));

  // The page: everything below the top bar, scrolling when the panels need more height.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::background()));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  begin_panel("##page", ImVec2(0, screen.top_h), ImVec2(W, H - screen.top_h));
  ImGui::PopStyleVar(3);
  draw_mode_layout(screen);                // modes/modes.cpp
  ImGui::Dummy(ImVec2(0, screen.margin));  // bottom margin when the page scrolls
  ImGui::End();
  ImGui::PopStyleColor();
  draw_mode_overlays(state, fonts);  // over the panels, which stay live (the quiz)
  draw_sharing(state, fonts);        // the gallery window over the panels; the page follows edits
  keyboard_end_frame(state);
}

}  // namespace ui
