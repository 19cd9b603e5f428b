// screen.hpp — what a mode's layout function (modes/*/*_layout.cpp) draws with: the Screen (the display's
// geometry and one method per panel), the fixed windows of the top bar and the mode bar.
#pragma once

#include "imgui.h"
#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

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

  bool open(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) const;
  void close() const;

  // A mode that lights panels (the walk's step): its panels get an accent border, the others are
  // dimmed (less when hovered); every control in them stays live. Call inside the panel's child window.
  void mode_light(Panel panel) const;

  void controls(ImVec2 pos, ImVec2 size);
  void vectors(ImVec2 pos, ImVec2 size);
  // A heatmap; `over` (optional) draws over it (the FlashAttention mode's tiles).
  using DrawOver = void (*)(AppState& state);
  void heatmap(const char* name, HeatmapKind kind, ImVec2 pos, ImVec2 size, DrawOver over = nullptr);
  void mask(ImVec2 pos, ImVec2 size);
  void output(ImVec2 pos, ImVec2 size);

  // A panel that only draws itself (no hover links, not lit by the walk): the FlashAttention and
  // Decode steppers, the running state, the KV cache, the Train mode's panels. A new panel of this
  // kind needs no method of its own: sc.panel("Name", draw_name_panel, pos, size).
  using DrawPanel = void (*)(AppState& state, const Fonts& fonts);
  void panel(const char* name, DrawPanel draw, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0);
  // A picture panel lit by `term` (Key space, Value space): no scrolling, drags edit the scene.
  void picture(const char* name, Term term, DrawPanel draw, ImVec2 pos, ImVec2 size);
};

// A fixed window at (pos, size): no title, no moving or resizing (the top bar, the mode bar, the page).
bool begin_panel(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0);

// The top bar: title, the formula strip, and under it the hovered term's caption or the error
// (with its dismiss button).
void draw_top_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size);

// The mode bar: one tab per mode (widget id mode/NAME), the current one lit, and on the right the
// View menu (theme, zoom, language) and the quiz's "Check yourself". Drawn only when there is more than one
// mode.
constexpr bool kShowModeBar = scene::link::kModeCount >= 2;
float mode_bar_height();
void draw_mode_bar(AppState& state, const Fonts& fonts, ImVec2 pos, ImVec2 size);

}  // namespace ui
