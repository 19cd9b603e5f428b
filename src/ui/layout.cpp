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

#include "ui/panels/panel_parts.hpp"
#include "ui/sharing.hpp"
#include "ui/theme.hpp"

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
                "attention you can touch");
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
    if (ImGui::SmallButton("dismiss")) state.error.clear();
  }
  ImGui::PopFont();
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

// The mode bar: one tab per mode (widget id mode/NAME), the current one lit. Drawn only when there
// is more than one mode.
constexpr bool kShowModeBar = scene::link::kModeCount >= 2;

float mode_bar_height() {
  return std::floor(2.0f * ImGui::GetFontSize());
}

void draw_mode_bar(AppState& state, ImVec2 pos, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_WindowBg, to_vec4(palette::kBackground));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(std::floor(0.5f * ImGui::GetFontSize()), 0));
  begin_panel("##modes", pos, size, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PopStyleVar(2);
  const float em = ImGui::GetFontSize();
  ImGui::SetCursorPosY(0.5f * (size.y - ImGui::GetFrameHeight()));
  for (const scene::link::ModeInfo& m : scene::link::kModes) {
    const bool current = m.mode == state.ui.mode;
    const std::string label = std::string(m.label) + "##mode";
    ImGui::PushStyleColor(ImGuiCol_Button, current ? to_vec4(palette::kAccentSoft) : ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current ? palette::kAccent : palette::kTextDim));
    if (ImGui::Button(label.c_str()) && !current) {
      state.ui.mode = m.mode;
      state.layout_changed = true;                             // draw the new layout at once
      if (sharing().scene_changed) sharing().scene_changed();  // the address carries the mode
    }
    ImGui::PopStyleColor(2);
    record_item_rect(state, "mode/" + std::string(m.name));
    ImGui::SameLine(0, 0.3f * em);
  }
  ImGui::NewLine();
  ImGui::End();
  ImGui::PopStyleColor();
}

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
  void close() const { ImGui::EndChild(); }

  void controls(ImVec2 pos, ImVec2 size) {
    if (open("Controls", pos, size)) {
      claim_hover(state, Term::Scale);
      draw_controls_panel(state, fonts);
      // Measured each frame (content height + padding); a change means another frame is needed.
      const float measured = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
      if (std::abs(measured - state.ui.controls_h) > 0.5f) state.layout_changed = true;
      state.ui.controls_h = measured;
      panel_border(state, Term::Scale);
    }
    close();
    recompute_if_dirty(state);  // later panels in this frame show the edited scene
  }
  void vectors(ImVec2 pos, ImVec2 size) {
    if (open("Tokens and vectors", pos, size)) {
      claim_hover(state, Term::Tokens);
      draw_vectors_panel(state, fonts);
      panel_border(state, Term::Tokens);
    }
    close();
    recompute_if_dirty(state);
  }
  void heatmap(const char* name, HeatmapKind kind, ImVec2 pos, ImVec2 size) {
    if (open(name, pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_heatmap_panel(state, painter, fonts, kind);
      claim_hover(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
      panel_border(state, kind == HeatmapKind::Scores ? Term::Scores : Term::Weights);
    }
    close();
  }
  void mask(ImVec2 pos, ImVec2 size) {
    if (open("Mask", pos, size, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
      draw_mask_panel(state, painter, fonts);
      claim_hover(state, Term::Mask);
      panel_border(state, Term::Mask);
    }
    close();
    recompute_if_dirty(state);
  }
  void output(ImVec2 pos, ImVec2 size) {
    if (open("Output", pos, size)) {
      draw_output_panel(state, fonts);
      claim_hover(state, Term::Output);
      panel_border(state, Term::Output);
    }
    close();
  }
};

using scene::link::Panel;

// Explore: every panel at once. Wide: controls above the vectors on the left; scores | weights above
// mask | output on the right. Narrow (phones in portrait): one column that scrolls as a whole. One
// full-size panel (view=) fills the window at any width; the wide layout does that.
void layout_explore(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, H = sc.H, margin = sc.margin, gap = sc.gap;
  const float controls_h = state.ui.controls_h;
  if (!sc.narrow || sharing().view) {
    const int d_max = std::max(state.scene.d_k(), state.scene.d_v());
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
      const float ctrl_h = std::min(controls_h, 0.6f * body_h);
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w_used, ctrl_h));
      sc.vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(left_w_used, body_h - ctrl_h - gap));
    } else if (show_ctrl) {
      sc.controls(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    } else if (show_vec) {
      sc.vectors(ImVec2(margin, body_y), ImVec2(left_w_used, body_h));
    }

    const float rx = left ? margin + left_w + gap : margin;
    const float rw = W - rx - margin;
    const float top_row_h = !bottom_row ? body_h : std::floor(0.62f * body_h);
    const float half_w = show_scores && show_weights ? std::floor(0.5f * (rw - gap)) : rw;
    if (show_scores) sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(rx, body_y), ImVec2(half_w, top_row_h));
    if (show_weights) {
      const float x = show_scores ? rx + half_w + gap : rx;
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, body_y), ImVec2(rx + rw - x, top_row_h));
    }
    const float by = top_row ? body_y + top_row_h + gap : body_y;
    const float bh = body_y + body_h - by;
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
    const float tokens_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 5.6f * em));
    const float square = std::min(w, 30.0f * em);
    if (panel_shown(Panel::Controls)) {
      sc.controls(ImVec2(x, y), ImVec2(w, controls_h));
      y += controls_h + gap;
    }
    if (panel_shown(Panel::Vectors)) {
      sc.vectors(ImVec2(x, y), ImVec2(w, tokens_h));
      y += tokens_h + gap;
    }
    if (panel_shown(Panel::Scores)) {
      sc.heatmap("Scores", HeatmapKind::Scores, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (panel_shown(Panel::Weights)) {
      sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(x, y), ImVec2(w, square * 0.9f + 6.0f * em));
      y += square * 0.9f + 6.0f * em + gap;
    }
    if (panel_shown(Panel::Mask)) {
      // Tall enough for cells about the heatmaps' size (the mask is read against them).
      const float mask_h = square * 0.75f + 6.0f * em;
      sc.mask(ImVec2(x, y), ImVec2(w, mask_h));
      y += mask_h + gap;
    }
    if (panel_shown(Panel::Output))
      sc.output(ImVec2(x, y), ImVec2(w, float(state.scene.n()) * 2.5f * em + 6.0f * em));
  }
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
      const float ctrl_h = std::min(controls_h, 0.6f * body_h);
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

// Each mode's layout, in the order of scene::link::kModes.
struct ModeLayout {
  scene::link::Mode mode;
  void (*layout)(Screen&);
};
constexpr ModeLayout kLayouts[] = {
    {scene::link::Mode::Explore, layout_explore},
    {scene::link::Mode::Heads, layout_heads},
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
  state.ui.next_tooltip.clear();
  state.widget_rects.clear();

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

  if (screen.show_formula) draw_top_bar(state, fonts, ImVec2(0, 0), ImVec2(W, formula_h));
  if (mode_bar) draw_mode_bar(state, ImVec2(0, formula_h), ImVec2(W, screen.top_h - formula_h));
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
  draw_sharing(state, fonts);  // the gallery window over the panels; the page follows edits
}

}  // namespace ui
