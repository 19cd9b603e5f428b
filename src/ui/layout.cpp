// layout.cpp — the screen: the top bar (title, formula strip, caption, mode bar) and, below it, the
// current mode's layout of the panels, fitted to the display (wide: columns; narrow phones: one
// scrolling column).
//
// Modes. The screen has one mode bar; each mode is a layout function that places the shared panels
// (src/ui/panels/) with a Screen. Today there is one mode, Explore, and the bar is drawn only when
// there are two or more (a lone tab says nothing). To add a mode, e.g. Heads:
//   1. src/scene/link.hpp: a value in `enum class Mode` and a row in `kModes`:
//        {Mode::Heads, "heads", "Heads"}   // name: the link's mode=heads; label: the tab's text
//      (links parse and write mode=heads from then on; add a round trip to tests/link_test.cpp).
//   2. here: a layout function `void layout_heads(Screen& screen)` that places panels with
//      screen.controls(pos, size), screen.heatmap(…), … (new panels go in src/ui/panels/ with their
//      declaration in panel_parts.hpp and a Screen method here), and its row in `kLayouts` below.
//      Lay it out for 1280×720 and for a phone (screen.narrow), and look at both screenshots.
//   3. The tab is drawn by draw_mode_bar with the widget id `mode/heads` (widgetRect / --rects);
//      list it in web/attention-lab-api.js's header and README. getState().ui.mode says "heads".
// The mode lives in AppState::ui.mode; a link sets it (mode=, default explore), a tab click sets it
// and updates the address.
#include "ui/layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui_internal.h"  // the panel window's content extent (text overflow check)
#include "ui/i18n.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/sharing.hpp"
#include "ui/theme.hpp"
#include "ui/train_mode.hpp"
#include "ui/view_menu.hpp"
#include "ui/walk_mode.hpp"

namespace ui {

namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                         ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoBringToFrontOnFocus |
                                         ImGuiWindowFlags_NoFocusOnAppearing;

// A fixed panel window at (pos, size).
bool begin_panel(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  return ImGui::Begin(name, nullptr, kPanelFlags | extra);
}

void draw_top_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  begin_panel("##top", pos, size);
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool compact = size.x < 60.0f * em;
  const float title_w = compact ? 0.0f : 9.5f * em;
  if (!compact) {
    ImGui::PushFont(fonts.heading);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * (size.y - fonts.heading->FontSize) - 0.4f * em),
                palette::kAccent, "Attention Lab");
    ImGui::PopFont();
    ImGui::PushFont(fonts.small);
    dl->AddText(ImVec2(pos.x + 0.8f * em, pos.y + 0.5f * size.y + 0.25f * em), palette::kTextDim,
                tr(Text::Subtitle));
    ImGui::PopFont();
  }
  const float formula_cx = pos.x + title_w + 0.5f * (size.x - 2.0f * title_w) + 0.5f * title_w;
  draw_formula_strip(state, fonts, ImVec2(formula_cx, pos.y + 0.36f * size.y), size.x - 2.2f * title_w);

  // Caption: what the hovered term means; an error replaces it until dismissed.
  ImGui::PushFont(fonts.small);
  std::string caption = state.error.empty() ? term_caption(state, state.hovered_term) : state.error;
  caption = fit_text(caption, size.x - 2.0f * em);
  const ImVec2 cs = ImGui::CalcTextSize(caption.c_str());
  const float cy = pos.y + size.y - cs.y - 0.35f * em;
  dl->AddText(ImVec2(formula_cx - 0.5f * cs.x, cy), state.error.empty() ? palette::kTextDim : palette::kError,
              caption.c_str());
  if (!state.error.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(formula_cx + 0.5f * cs.x + 0.5f * em, cy - 0.15f * em));
    if (ImGui::SmallButton(tr(Text::Dismiss))) state.error.clear();
  }
  ImGui::PopFont();
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

// The mode bar: one tab per mode (widget id mode/NAME), the current one lit. Drawn only when there
// is more than one mode.
constexpr bool kShowModeBar = scene::link::kModeCount >= 2;

// A mode's tab label in the current language (a mode the tables do not know yet: its English label).
std::string mode_label(const scene::link::ModeInfo& m) {
  switch (m.mode) {
    case Mode::Explore:
      return tr(Text::ModeExplore);
    case Mode::Walk:
      return tr(Text::ModeWalk);
    case Mode::Heads:
      return tr(Text::ModeHeads);
    case Mode::KeySpace:
      return tr(Text::ModeKeySpace);
    case Mode::Flash:
      return tr(Text::ModeFlash);
    case Mode::Decode:
      return tr(Text::ModeDecode);
    case Mode::Train:
      return tr(Text::ModeTrain);
    default:
      break;
  }
  return std::string(m.label);
}

float mode_bar_height() {
  return std::floor(2.0f * ImGui::GetFontSize());
}

void draw_mode_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(std::floor(0.5f * ImGui::GetFontSize()), 0));
  begin_panel("##modes", pos, size, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PopStyleVar(2);
  const float em = ImGui::GetFontSize();
  ImGui::SetCursorPosY(0.5f * (size.y - ImGui::GetFrameHeight()));
  for (const scene::link::ModeInfo& m : scene::link::kModes) {
    const bool current = m.mode == state.ui.mode;
    const std::string label = mode_label(m) + "##mode";
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::kAccentSoft) : ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current ? palette::kAccent : palette::kTextDim));
    if (ImGui::Button(label.c_str()) && !current) {
      if (m.mode == Mode::Walk) {
        set_walk_step(state, 0);  // the walk starts at its first step
      } else {
        state.ui.mode = m.mode;
        if (sharing().scene_changed) sharing().scene_changed();  // the address carries the mode
      }
      state.layout_changed = true;  // draw the new layout at once
    }
    ImGui::PopStyleColor(2);
    record_item_rect(state, "mode/" + std::string(m.name));
    if (m.mode == Mode::Walk) record_item_rect(state, "walk/start");  // the tab is the Walk through control
    ImGui::SameLine(0, 0.3f * em);
  }
  // At the right end: the View menu (theme, zoom), then the quiz, which opens from any mode.
  const std::string quiz_label = std::string(tr(Text::CheckYourself)) + "##quiz";
  const float quiz_w =
      ImGui::CalcTextSize(quiz_label.c_str(), nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  const float view_w = view_button_width() + 0.3f * em;
  const float right_x = ImGui::GetWindowContentRegionMax().x - quiz_w - view_w;
  // The tabs and the right end share one line on a wide screen (a phone's bar scrolls instead).
  if (ImGui::GetCursorPosX() > right_x && size.x >= 48.0f * em) note_overflow(state.ui, "mode-bar");
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right_x));
  draw_view_menu(state, fonts);
  ImGui::SameLine(0, 0.3f * em);
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(state.ui.quiz.open ? palette::kAccent : palette::kTextDim));
  if (ImGui::Button(quiz_label.c_str())) open_quiz(state, state.ui.quiz.question);
  ImGui::PopStyleColor(2);
  record_item_rect(state, "quiz/open");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Text::CheckYourselfTip));
  ImGui::NewLine();
  ImGui::End();
  ImGui::PopStyleColor();
}

using scene::link::Panel;

// What a mode's layout function works with: the display's geometry and one method per panel, each
// drawing that panel as a child window at (pos, size) of the page (which scrolls when the panels
// need more height than the display has).
struct Screen {
  AppState& state;
  MatrixPainter& painter;
  const Fonts& fonts;
  float W = 0, H = 0;         // display size
  float em = 0;               // font size
  float margin = 0, gap = 0;  // around the page, between panels
  float top_h = 0;            // height of the top bar (0 when hidden); the page starts here
  bool show_formula = true;   // the formula strip is shown (else the body starts at `margin`)
  bool narrow = false;        // phone portrait: one scrolling column

  bool open(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) const {
    ImGui::SetCursorPos(ImVec2(pos.x, pos.y - top_h));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::kPanel));
    ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
    const bool visible = ImGui::BeginChild(name, size, true, extra);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    return visible;
  }
  void close() const {
    // A text wider than its panel (a long translation on one line) runs past the panel's right edge.
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    // A few pixels are not a text: with a vertical scrollbar, right-aligned buttons (Reset) end up to
    // ~4 px past the work rectangle.
    const float past = window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
    if (past > 0.5f * ImGui::GetFontSize()) {  // "Controls +12 px" (the child is "##page/Controls_1A2B3C4D")
      std::string name = window->Name;
      name = name.substr(name.rfind('/') + 1);
      note_overflow(state.ui, name.substr(0, name.rfind('_')) + " +" + std::to_string(int(past)) + " px");
    }
    ImGui::EndChild();
  }

  // Walk through: the step's panels get an accent border, the others are dimmed (less when
  // hovered); every control in them stays live. Call inside the panel's child window.
  void walk_light(Panel panel) const {
    if (state.ui.mode != Mode::Walk) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    const ImVec2 q(p.x + s.x, p.y + s.y);
    dl->PushClipRectFullScreen();
    if (walk_panel_lit(state, panel)) {
      dl->AddRect(p, q, palette::kAccent, ImGui::GetStyle().WindowRounding, 0, std::max(2.0f, 0.15f * em));
    } else {
      const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows |
                                                  ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
      dl->AddRectFilled(p, q, palette::with_alpha(palette::kBackground, hovered ? 90 : 165),
                        ImGui::GetStyle().WindowRounding);
    }
    dl->PopClipRect();
  }

  // The walk's step card (not a panel of the link's hide=/view=).
  void walk_card(ImVec2 pos, ImVec2 size) {
    ImGui::SetCursorPos(ImVec2(pos.x, pos.y - top_h));
    ImGui::PushStyleColor(ImGuiCol_ChildBg, to_vec4(palette::kPanel));
    ImGui::PushStyleColor(ImGuiCol_Border, to_vec4(palette::kAccent));
    ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ImGui::GetStyle().WindowRounding);
    const bool visible = ImGui::BeginChild("Walk through", size, true, ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
    if (visible) draw_walk_card(state, fonts);
    ImGui::EndChild();
    recompute_if_dirty(state);
  }

  void controls(ImVec2 pos, ImVec2 size) {
    if (open("Controls", pos, size)) {
      claim_hover(state, Term::Scale);
      draw_controls_panel(state, fonts);
      // Measured each frame (content height + padding); a change means another frame is needed.
      const float measured = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
      if (std::abs(measured - state.ui.controls_h) > 0.5f) state.layout_changed = true;
      state.ui.controls_h = measured;
      panel_border(state, Term::Scale);
      walk_light(Panel::Controls);
    }
    close();
    recompute_if_dirty(state);  // later panels in this frame show the edited scene
  }
  void vectors(ImVec2 pos, ImVec2 size) {
    if (open("Tokens and vectors", pos, size)) {
      claim_hover(state, Term::Tokens);
      draw_vectors_panel(state, fonts);
      panel_border(state, Term::Tokens);
      walk_light(Panel::Vectors);
    }
    close();
    recompute_if_dirty(state);
  }
  void heatmap(const char* name, HeatmapKind kind, ImVec2 pos, ImVec2 size) {
    if (open(name, pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_heatmap_panel(state, painter, fonts, kind);
      claim_hover(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
      panel_border(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
      walk_light(kind == HeatmapKind::Scores ? Panel::Scores : Panel::Weights);
    }
    close();
  }
  void mask(ImVec2 pos, ImVec2 size) {
    if (open("Mask", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_mask_panel(state, painter, fonts);
      claim_hover(state, Term::Mask);
      panel_border(state, Term::Mask);
      walk_light(Panel::Mask);
    }
    close();
    recompute_if_dirty(state);
  }
  // FlashAttention mode: the Scores heatmap with the tiles drawn over it.
  void flash_scores(ImVec2 pos, ImVec2 size) {
    if (open("Scores", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_heatmap_panel(state, painter, fonts, HeatmapKind::Scores);
      draw_flash_tiles(state);
      claim_hover(state, Term::Scores);
      panel_border(state, Term::Scores);
    }
    close();
  }
  void flash_stepper(ImVec2 pos, ImVec2 size) {
    if (open("FlashAttention", pos, size)) draw_flash_panel(state, fonts);
    close();
  }
  void flash_rows(ImVec2 pos, ImVec2 size) {
    if (open("Running state", pos, size)) draw_flash_rows(state, fonts);
    close();
  }
  void decode_stepper(ImVec2 pos, ImVec2 size) {
    if (open("Decode", pos, size)) draw_decode_panel(state, fonts);
    close();
  }
  void decode_cache(ImVec2 pos, ImVec2 size) {
    if (open("KV cache", pos, size, ImGuiWindowFlags_NoScrollbar)) draw_decode_cache(state, fonts);
    close();
  }
  // Train mode (train_mode.cpp): the run's controls, the loss curve, the sample's predictions.
  void train_controls(ImVec2 pos, ImVec2 size) {
    if (open("Train", pos, size)) draw_train_panel(state, fonts);
    close();
  }
  void train_curve(ImVec2 pos, ImVec2 size) {
    if (open("Loss", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
      draw_train_curve(state, fonts);
    close();
  }
  void train_predictions(ImVec2 pos, ImVec2 size) {
    if (open("Predictions", pos, size, ImGuiWindowFlags_NoScrollbar)) draw_train_predictions(state, fonts);
    close();
  }
  void keyspace(ImVec2 pos, ImVec2 size) {
    if (open("Key space", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      claim_hover(state, Term::Keys);
      draw_keyspace_panel(state, fonts);
      panel_border(state, Term::Keys);
    }
    close();
    recompute_if_dirty(state);
  }
  void valuespace(ImVec2 pos, ImVec2 size) {
    if (open("Value space", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      claim_hover(state, Term::Values);
      draw_valuespace_panel(state, fonts);
      panel_border(state, Term::Values);
    }
    close();
    recompute_if_dirty(state);
  }
  void output(ImVec2 pos, ImVec2 size) {
    if (open("Output", pos, size)) {
      draw_output_panel(state, fonts);
      claim_hover(state, Term::Output);
      panel_border(state, Term::Output);
      walk_light(Panel::Output);
    }
    close();
  }
};

// Explore: every panel at once. Wide: controls above the vectors on the left; scores | weights above
// mask | output on the right. Narrow (phones in portrait): one column that scrolls as a whole. One
// full-size panel (view=) fills the window at any width; the wide layout does that.
// Walk through (walk = true): the same panels with the step card on top of the right column (wide)
// or of the column (narrow), where the step's panels come first, right under the card.
void layout_panels(Screen& sc, bool walk) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  if (!sc.narrow || sharing().view) {
    const int d_max = std::max({state.scene.d_k(), state.scene.d_v(), int(state.scene.X.cols())});
    const float want_left = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
    const float left_w = std::floor(std::clamp(want_left, 24.0f * em, 0.42f * W));
    const float body_y = sc.top_h > 0 ? sc.top_h : margin;
    // Below ~38 em of height (phones in landscape) the page scrolls instead of squeezing panels
    // (a single full-size panel of an embed fits any height).
    const float body_h = std::max(H - body_y - margin, (sharing().view ? 10.0f : 38.0f) * em);
    const bool show_ctrl = panel_shown(Panel::Controls), show_vec = panel_shown(Panel::Vectors);
    const bool show_scores = panel_shown(Panel::Scores), show_weights = panel_shown(Panel::Weights);
    const bool show_mask = panel_shown(Panel::Mask), show_out = panel_shown(Panel::Output);
    const bool left = show_ctrl || show_vec;
    const bool top_row = show_scores || show_weights, bottom_row = show_mask || show_out;
    const float full_w = W - 2.0f * margin;
    const float left_w_used = !(top_row || bottom_row) ? full_w : left_w;
    if (show_ctrl && show_vec) {
      // On a short display (a phone in landscape) the controls get at most 60 % of what is on
      // screen (down to the causal row; the rest scrolls inside the panel), so the vectors panel
      // starts above the fold.
      const float visible_h = H - body_y - margin;
      const float ctrl_cap = visible_h < 38.0f * em ? std::max(9.0f * em, 0.6f * visible_h) : 0.6f * body_h;
      const float ctrl_h = std::min(controls_h, ctrl_cap);
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w_used, ctrl_h));
      sc.vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(left_w_used, body_h - ctrl_h - gap));
    } else if (show_ctrl) {
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    } else if (show_vec) {
      sc.vectors(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    }

    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    // The right column, below the walk's step card when there is one.
    float ry = body_y, rh = body_h;
    if (walk) {
      const float card_h = walk_card_height(state, sc.fonts, rw);
      sc.walk_card(ImVec2(rx, body_y), ImVec2(rw, card_h));
      ry += card_h + gap;
      rh -= card_h + gap;
    }
    const float top_row_h = !bottom_row ? rh : std::floor(0.62f * rh);
    const float half_w = show_scores && show_weights ? std::floor(0.5f * (rw - gap)) : rw;
    if (show_scores) sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, ry), ImVec2(half_w, top_row_h));
    if (show_weights) {
      const float x = show_scores ? rx + half_w + gap : rx;
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, ry), ImVec2(rx + rw - x, top_row_h));
    }
    const float by = top_row ? ry + top_row_h + gap : ry;
    const float bh = ry + rh - by;
    // The mask needs little room for few tokens: give the rest to the output bars.
    const float mask_want = 8.0f * em + float(state.scene.n()) * 2.6f * em;  // labels + cells
    const float mask_w =
        !show_out ? rw : std::floor(std::clamp(std::min(0.34f * rw, mask_want), 16.0f * em, 0.5f * rw));
    if (show_mask) sc.mask(ImVec2(rx, by), ImVec2(mask_w, bh));
    if (show_out) {
      const float x = show_mask ? rx + mask_w + gap : rx;
      sc.output(ImVec2(x, by), ImVec2(rx + rw - x, bh));
    }
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    const float x = margin;
    float y = sc.top_h > 0 ? sc.top_h : margin;
    // A learned scene has four rows per token (x, q, k, v) and the W grids below them.
    const bool learned = state.scene.mode == scene::Mode::Projected;
    const float per_token = learned ? 7.4f * em : 5.6f * em;
    const float tokens_h =
        std::min(learned ? 40.0f * em : 28.0f * em, std::max(12.0f * em, float(state.scene.n()) * per_token));
    const float square = std::min(w, 30.0f * em);
    if (walk) {
      const float card_h = walk_card_height(state, sc.fonts, w);
      sc.walk_card(ImVec2(x, y), ImVec2(w, card_h));
      y += card_h + gap;
    }
    // Panels in their usual order; in the walk, the step's own panels first.
    const Panel order[] = {Panel::Controls, Panel::Vectors, Panel::Scores,
                           Panel::Weights,  Panel::Mask,    Panel::Output};
    for (int pass = walk ? 0 : 1; pass < 2; ++pass) {
      for (Panel panel : order) {
        if (!panel_shown(panel)) continue;
        if (walk && walk_panel_lit(state, panel) != (pass == 0)) continue;
        switch (panel) {
          case Panel::Controls:
            sc.controls(ImVec2(x, y), ImVec2(w, controls_h));
            y += controls_h + gap;
            break;
          case Panel::Vectors:
            sc.vectors(ImVec2(x, y), ImVec2(w, tokens_h));
            y += tokens_h + gap;
            break;
          case Panel::Scores:
            sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
            y += square * 0.9f + 6.0f * em + gap;
            break;
          case Panel::Weights:
            sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
            y += square * 0.9f + 6.0f * em + gap;
            break;
          case Panel::Mask: {
            // Tall enough for cells about the heatmaps' size (the mask is read against them).
            const float mask_h = square * 0.75f + 6.0f * em;
            sc.mask(ImVec2(x, y), ImVec2(w, mask_h));
            y += mask_h + gap;
            break;
          }
          case Panel::Output: {
            const float out_h = float(state.scene.n()) * 2.5f * em + 6.0f * em;
            sc.output(ImVec2(x, y), ImVec2(w, out_h));
            y += out_h + gap;
            break;
          }
          case Panel::Formula:
            break;
        }
      }
    }
  }
  // A new step scrolls the page back up to its card (phones; short landscape displays).
  if (walk && state.ui.walk.scroll_to_top) ImGui::SetScrollY(0.0f);
}

void layout_explore(Screen& sc) {
  layout_panels(sc, false);
}
void layout_walk(Screen& sc) {
  layout_panels(sc, true);
}

// Heads: the heads side by side. Wide: controls (with the heads control) above the vectors (each
// head's columns underlined) on the left; on the right the weights of every head as small multiples
// across the top, and below them the focused head's scores beside the output (each head's Y_t, the
// concat, W_o). Narrow: the same panels in one scrolling column.
void layout_heads(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  const bool show_ctrl = panel_shown(Panel::Controls), show_vec = panel_shown(Panel::Vectors);
  const bool show_scores = panel_shown(Panel::Scores), show_weights = panel_shown(Panel::Weights);
  const bool show_out = panel_shown(Panel::Output);
  if (!sc.narrow || sharing().view) {
    const int d_max = std::max(state.scene.d_k(), state.scene.d_v());
    const float want_left = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
    const float left_w = std::floor(std::clamp(want_left, 24.0f * em, 0.42f * W));
    const float body_y = sc.top_h > 0 ? sc.top_h : margin;
    const float body_h = std::max(H - body_y - margin, (sharing().view ? 10.0f : 38.0f) * em);
    const bool left = show_ctrl || show_vec;
    if (show_ctrl && show_vec) {
      // On a short display (a phone in landscape) the controls get at most 60 % of what is on
      // screen (down to the causal row; the rest scrolls inside the panel), so the vectors panel
      // starts above the fold.
      const float visible_h = H - body_y - margin;
      const float ctrl_cap = visible_h < 38.0f * em ? std::max(9.0f * em, 0.6f * visible_h) : 0.6f * body_h;
      const float ctrl_h = std::min(controls_h, ctrl_cap);
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w, ctrl_h));
      sc.vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(left_w, body_h - ctrl_h - gap));
    } else if (show_ctrl) {
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w, body_h));
    } else if (show_vec) {
      sc.vectors(ImVec2(margin, body_y), ImVec2(left_w, body_h));
    }
    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    const bool bottom = show_scores || show_out;
    const float top_h = !bottom ? body_h : std::floor(0.52f * body_h);
    if (show_weights) sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, top_h));
    const float by = show_weights ? body_y + top_h + gap : body_y;
    const float bh = body_y + body_h - by;
    const float scores_w = !show_out ? rw : std::floor(std::min(0.42f * rw, bh + 6.0f * em));
    if (show_scores) sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, by), ImVec2(scores_w, bh));
    if (show_out) {
      const float x = show_scores ? rx + scores_w + gap : rx;
      sc.output(ImVec2(x, by), ImVec2(rx + rw - x, bh));
    }
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    const float x = margin;
    float y = sc.top_h > 0 ? sc.top_h : margin;
    const float tokens_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 5.6f * em));
    const float square = std::min(w, 30.0f * em);
    if (show_ctrl) {
      sc.controls(ImVec2(x, y), ImVec2(w, controls_h));
      y += controls_h + gap;
    }
    if (show_weights) {  // the small multiples two or three across
      const float weights_h = square * 1.1f + 8.0f * em;
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, weights_h));
      y += weights_h + gap;
    }
    if (show_vec) {
      sc.vectors(ImVec2(x, y), ImVec2(w, tokens_h));
      y += tokens_h + gap;
    }
    if (show_scores) {
      sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (show_out) sc.output(ImVec2(x, y), ImVec2(w, float(state.scene.n()) * 4.0f * em + 16.0f * em));
  }
}

// FlashAttention: the stepper on the left; on the right the Scores grid cut into tiles above each
// query row's running state. Narrow: one scrolling column.
void layout_flash(Screen& sc) {
  flash_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    // Top: the stepper beside the tiled Scores grid; below, across the width, the rows' state.
    const float body_h = std::max(H - body_y - margin, 36.0f * em);
    const float rows_h = std::floor(std::clamp(float(n) * 1.7f * em + 8.5f * em, 9.0f * em, 0.45f * body_h));
    const float top_h = body_h - rows_h - gap;
    const float left_w = std::floor(std::clamp(0.36f * W, 22.0f * em, 30.0f * em));
    sc.flash_stepper(ImVec2(margin, body_y), ImVec2(left_w, top_h));
    const float rx = margin + left_w + gap;
    sc.flash_scores(ImVec2(rx, body_y), ImVec2(W - rx - margin, top_h));
    sc.flash_rows(ImVec2(margin, body_y + top_h + gap), ImVec2(W - 2.0f * margin, rows_h));
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float stepper_h = 23.5f * em, square = std::min(w, 30.0f * em);
    sc.flash_stepper(ImVec2(margin, y), ImVec2(w, stepper_h));
    y += stepper_h + gap;
    sc.flash_scores(ImVec2(margin, y), ImVec2(w, square * 0.9f + 6.0f * em));
    y += square * 0.9f + 6.0f * em + gap;
    sc.flash_rows(ImVec2(margin, y), ImVec2(w, float(n) * 2.0f * em + 8.0f * em));
  }
}

// Decode: the stepper and the multiply counter on the left, the cache on the right. Narrow: stacked.
void layout_decode(Screen& sc) {
  decode_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const int n = sc.state.scene.n();
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 30.0f * em);
    const float left_w = std::floor(std::clamp(0.34f * W, 22.0f * em, 30.0f * em));
    sc.decode_stepper(ImVec2(margin, body_y), ImVec2(left_w, body_h));
    const float rx = margin + left_w + gap;
    sc.decode_cache(ImVec2(rx, body_y), ImVec2(W - rx - margin, body_h));
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float stepper_h = 25.5f * em;
    sc.decode_stepper(ImVec2(margin, y), ImVec2(w, stepper_h));
    y += stepper_h + gap;
    sc.decode_cache(ImVec2(margin, y), ImVec2(w, float(n + 3) * 2.1f * em + 10.0f * em));
  }
}

// Key space: the soft dictionary as pictures. Wide: key space | value space | weights on top (the
// two pictures are read together: move q toward k_j, watch y slide onto v_j; hovering a weights row
// follows that query), the vectors across the bottom. Narrow: key space, value space, weights, vectors in one
// scrolling column. The pictures are drawn first so a drag in them shows in every other panel in the same
// frame.
void layout_keyspace(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 34.0f * em);
    const float full_w = W - 2.0f * margin;
    const float top_h = std::floor(0.62f * body_h);
    const float weights_w = std::floor(std::clamp(0.22f * full_w, 16.0f * em, 26.0f * em));
    const float pic_w = std::floor(0.5f * (full_w - weights_w - 2.0f * gap));
    sc.keyspace(ImVec2(margin, body_y), ImVec2(pic_w, top_h));
    sc.valuespace(ImVec2(margin + pic_w + gap, body_y), ImVec2(pic_w, top_h));
    const float wx = margin + 2.0f * (pic_w + gap);
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(wx, body_y), ImVec2(margin + full_w - wx, top_h));
    const float by = body_y + top_h + gap;
    sc.vectors(ImVec2(margin, by), ImVec2(full_w, body_y + body_h - by));
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float pic = std::min(w, 26.0f * em) + 5.0f * em;
    sc.keyspace(ImVec2(margin, y), ImVec2(w, pic));
    y += pic + gap;
    sc.valuespace(ImVec2(margin, y), ImVec2(w, pic));
    y += pic + gap;
    const float square = std::min(w, 30.0f * em);
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(margin, y), ImVec2(w, square * 0.9f + 6.0f * em));
    y += square * 0.9f + 6.0f * em + gap;
    sc.vectors(ImVec2(margin, y),
               ImVec2(w, std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 7.0f * em))));
  }
}

// Train: the controls above the loss curve on the left; the weights of the sample sequence (the
// model itself, updated every step) above its predictions on the right. Narrow: controls, weights,
// predictions, curve in one scrolling column.
void layout_train(Screen& sc) {
  train_tick(sc.state);
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float body_y = sc.top_h > 0 ? sc.top_h : margin;
  if (!sc.narrow) {
    const float body_h = std::max(H - body_y - margin, 34.0f * em);
    const float left_w = std::floor(std::clamp(0.36f * W, 24.0f * em, 32.0f * em));
    const float controls_h = std::min(24.0f * em, 0.64f * body_h);
    sc.train_controls(ImVec2(margin, body_y), ImVec2(left_w, controls_h));
    sc.train_curve(ImVec2(margin, body_y + controls_h + gap), ImVec2(left_w, body_h - controls_h - gap));
    const float rx = margin + left_w + gap, rw = W - rx - margin;
    const float pred_h = 10.4f * em;
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(rx, body_y), ImVec2(rw, body_h - pred_h - gap));
    sc.train_predictions(ImVec2(rx, body_y + body_h - pred_h), ImVec2(rw, pred_h));
  } else {
    const float w = W - 2.0f * margin - ImGui::GetStyle().ScrollbarSize;
    float y = body_y;
    const float controls_h = 24.5f * em, square = std::min(w, 30.0f * em);
    sc.train_controls(ImVec2(margin, y), ImVec2(w, controls_h));
    y += controls_h + gap;
    const float weights_h = square * (sc.state.scene.heads > 1 ? 1.1f : 0.9f) + 7.0f * em;
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(margin, y), ImVec2(w, weights_h));
    y += weights_h + gap;
    sc.train_predictions(ImVec2(margin, y), ImVec2(w, 9.0f * em));
    y += 9.0f * em + gap;
    sc.train_curve(ImVec2(margin, y), ImVec2(w, 16.0f * em));
  }
}

// Each mode's layout, in the order of scene::link::kModes.
struct ModeLayout {
  scene::link::Mode mode;
  void (*layout)(Screen&);
};
constexpr ModeLayout kLayouts[] = {
    {scene::link::Mode::Explore, layout_explore},
    {scene::link::Mode::Walk, layout_walk},
    {scene::link::Mode::Heads, layout_heads},
    {scene::link::Mode::KeySpace, layout_keyspace},
    {scene::link::Mode::Flash, layout_flash},
    {scene::link::Mode::Decode, layout_decode},
    {scene::link::Mode::Train, layout_train},
};
static_assert(sizeof(kLayouts) / sizeof(kLayouts[0]) == std::size_t(scene::link::kModeCount),
              "every mode of scene::link::kModes needs its layout here");

void layout_mode(Screen& screen) {
  for (const ModeLayout& m : kLayouts) {
    if (m.mode == screen.state.ui.mode) return m.layout(screen);
  }
  layout_explore(screen);  // unreachable: the static_assert and the link's validation keep modes known
}

}  // namespace

void draw_screen(AppState& state, MatrixPainter& painter, const Fonts& fonts) {
  // Hover links are one frame behind: what was hovered while drawing the last frame lights now.
  state.hovered_term = state.next_hovered_term;
  state.hovered_row = state.next_hovered_row;
  state.hovered_col = state.next_hovered_col;
  state.next_hovered_term = Term::None;
  state.next_hovered_row = state.next_hovered_col = -1;
  state.ui.tooltip = std::move(state.ui.next_tooltip);  // the tooltip text drawn last frame
  state.ui.overflow = std::move(state.ui.next_overflow);  // texts that did not fit, last frame
  state.ui.next_overflow.clear();
  set_language(shown_language(state.ui));  // the words of this frame (ui/i18n.hpp)
  state.ui.next_tooltip.clear();
  state.widget_rects.clear();
  state.widget_text_w.clear();

  const ImGuiIO& io = ImGui::GetIO();
  Screen screen{state, painter, fonts};
  const float em = screen.em = ImGui::GetFontSize();
  const float W = screen.W = io.DisplaySize.x, H = screen.H = io.DisplaySize.y;
  screen.margin = screen.gap = std::floor(0.5f * em);
  // Links may hide panels (hide=) or show one full-size (view=); see sharing.hpp.
  screen.show_formula = panel_shown(Panel::Formula) || sharing().view == Panel::Formula;
  const float formula_h = screen.show_formula ? std::floor(3.6f * em) : 0.0f;
  const bool mode_bar = kShowModeBar && !sharing().view;
  screen.top_h = formula_h + (mode_bar ? mode_bar_height() : 0.0f);
  screen.narrow = W < 48.0f * em;
  state.ui.compact_headers = H < 40.0f * em;
  if (state.ui.controls_h <= 0) state.ui.controls_h = 16.0f * em;  // until the first measurement

  keyboard_begin_frame(state);  // Tab moves the focus; the focused item's keys (ui/keyboard.hpp)
  handle_walk_keys(state);  // ←/→ and Esc: before anything is drawn, so the frame shows the new step
  if (screen.show_formula) draw_top_bar(state, fonts, ImVec2(0, 0), ImVec2(W, formula_h));
  if (mode_bar) draw_mode_bar(state, fonts, ImVec2(0, formula_h), ImVec2(W, screen.top_h - formula_h));
  recompute_if_dirty(state);  // an edit made by the formula strip (none today) would show at once

  // The page: everything below the top bar, scrolling when the panels need more height.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  begin_panel("##page", ImVec2(0, screen.top_h), ImVec2(W, H - screen.top_h));
  ImGui::PopStyleVar(3);
  layout_mode(screen);
  ImGui::Dummy(ImVec2(0, screen.margin));  // bottom margin when the page scrolls
  ImGui::End();
  ImGui::PopStyleColor();
  state.ui.walk.scroll_to_top = false;
  draw_quiz_window(state, fonts);  // over the panels, which stay live
  draw_sharing(state, fonts);      // the gallery window over the panels; the page follows edits
  keyboard_end_frame(state);
}

}  // namespace ui
