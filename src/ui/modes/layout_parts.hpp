// layout_parts.hpp — geometry the modes' layouts share (modes/*/*_layout.cpp): where the body
// starts and how tall it is, two panels side by side, the narrow layouts' one column, the wide
// layouts' side and left columns.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "imgui.h"
#include "ui/modes/screen.hpp"

namespace ui {

// Where the body (everything under the top bar) starts.
inline float body_top(const Screen& sc) {
  return sc.top_h > 0 ? sc.top_h : sc.margin;
}

// The wide layouts' body height: what the display has left under `body_y`, but at least `min_em`
// ems (below that the page scrolls instead of squeezing the panels).
inline float body_height(const Screen& sc, float body_y, float min_em) {
  return std::max(sc.H - body_y - sc.margin, min_em * sc.em);
}

// Two panels side by side in the rectangle (pos, size): `first` is `first_w` wide when both are
// shown (the whole width alone), `second` takes the rest, a gap to its right. Either may be hidden.
template <class DrawFirst, class DrawSecond>
void side_by_side(const Screen& sc, ImVec2 pos, ImVec2 size, float first_w, bool show_first, bool show_second,
                  DrawFirst first, DrawSecond second) {
  const float w = show_second ? first_w : size.x;
  if (show_first) first(pos, ImVec2(w, size.y));
  if (show_second) {
    const float x = show_first ? pos.x + w + sc.gap : pos.x;
    second(ImVec2(x, pos.y), ImVec2(pos.x + size.x - x, size.y));
  }
}

// The narrow layouts (phones in portrait): one column, the page's width less its scrollbar, in which
// the panels stack from the top bar down, a gap apart; the page scrolls as a whole.
struct Column {
  float x, w, y, gap, em;
  explicit Column(const Screen& sc)
      : x(sc.margin),
        w(sc.W - 2.0f * sc.margin - ImGui::GetStyle().ScrollbarSize),
        y(body_top(sc)),
        gap(sc.gap),
        em(sc.em) {}
  // The side of a square grid (heatmap, mask): the column's width, at most 30 em.
  float square() const { return std::min(w, 30.0f * em); }
  // A heatmap panel's height: `f` of the square plus 6 em of title, tabs and labels.
  float grid_h(float f = 0.9f) const { return square() * f + 6.0f * em; }
  // The next `h` of the column: its top-left corner; the column continues below it.
  ImVec2 take(float h) {
    const ImVec2 pos(x, y);
    y += h + gap;
    return pos;
  }
  ImVec2 size(float h) const { return ImVec2(w, h); }
};

// A wide layout's side column (the steppers, the Train panel): `share` of the display's width, kept
// between min_em and max_em.
inline float side_width(const Screen& sc, float share, float min_em, float max_em) {
  return std::floor(std::clamp(share * sc.W, min_em * sc.em, max_em * sc.em));
}

// A wide layout's body with a side column at the left margin (Decode's stepper, the controls of
// Train, FlashAttention and Circuits), the rest to its right:
//   ┌ y ────────┬─ rx ───────────────────┐
//   │  left_w   │ gap │  rw (to the right margin)
//   └ y + h ────┴────────────────────────┘   h = body_height(min_body_em), left_w = side_width(…)
struct SideBody {
  float y, h, left_w, rx, rw;
};
inline SideBody side_body(const Screen& sc, float min_body_em, float share, float min_em, float max_em) {
  const float y = body_top(sc), left_w = side_width(sc, share, min_em, max_em);
  const float rx = sc.margin + left_w + sc.gap;
  return {y, body_height(sc, y, min_body_em), left_w, rx, sc.W - rx - sc.margin};
}

// A large scene (kLargeSceneTokens, panel_parts.hpp): the grids get the room.
inline bool large_scene(const Screen& sc) {
  return sc.state.scene.n() >= kLargeSceneTokens;
}

// The wide layouts' left column (Explore, Walk through, Heads) is wide enough for the widest vector
// (`d_max` sliders of 4.2 em beside a token label), between 24 em and 42 % of the display — for a large
// scene between 20 em and 26 %.
inline float left_column_width(const Screen& sc, int d_max) {
  const float em = sc.em;
  const float want = 5.0f * em + 1.1f * em + float(d_max) * 4.2f * em + 2.5f * em;
  if (large_scene(sc)) return std::floor(std::clamp(want, 20.0f * em, std::max(20.0f * em, 0.26f * sc.W)));
  return std::floor(std::clamp(want, 24.0f * em, 0.42f * sc.W));
}

// The height of a panel too short for all its rows (`rows`: their bottoms, content y; the last is
// its last row of buttons): every row when they fit in `room`; else it ends on a row boundary near
// `cap` — after the row the cap would cut when that takes at most 2.5 em more (a phone in landscape
// keeps its causal row), otherwise before it — so no row shows cut in half (the rest scrolls).
inline float whole_rows_height(const std::vector<float>& rows, float cap, float room, float em) {
  const float pad = ImGui::GetStyle().WindowPadding.y;
  float last = 0, above = 0, below = 1e30f;
  for (const float bottom : rows) {
    const float h = bottom + pad;
    last = std::max(last, h);
    if (h <= cap)
      above = std::max(above, h);
    else
      below = std::min(below, h);
  }
  if (last > 0 && last <= room) return last;
  if (below - cap <= 2.5f * em) return below;
  return above >= 0.66f * cap ? above : cap;
}

// The wide layouts' left column: Controls above the tokens' vectors, or either one alone, `w` wide
// from `body_y` down `body_h`. On a short display (a phone in landscape) the controls get at most
// 60 % of what is on screen (down to the causal row; the rest scrolls inside the panel), so the
// vectors panel starts above the fold. Taller than that, the controls still show every row of
// buttons when the vectors keep 10 em (at 1280×720 in German); else they end after a whole row.
inline void left_column(Screen& sc, float w, float body_y, float body_h, bool show_ctrl, bool show_vec) {
  const float em = sc.em, margin = sc.margin, gap = sc.gap;
  if (show_ctrl && show_vec) {
    const float visible_h = sc.H - body_y - margin;
    const float ctrl_cap = visible_h < 38.0f * em ? std::max(9.0f * em, 0.6f * visible_h) : 0.6f * body_h;
    // Room for every row of buttons: all but 10 em of the column (a short display: the cap).
    const float room = visible_h < 38.0f * em ? ctrl_cap : body_h - gap - 10.0f * em;
    const float ctrl_h = sc.state.ui.frame.controls_h <= ctrl_cap
                             ? sc.state.ui.frame.controls_h
                             : whole_rows_height(sc.state.ui.frame.controls_rows, ctrl_cap, room, em);
    sc.controls(ImVec2(margin, body_y), ImVec2(w, ctrl_h));
    sc.vectors(ImVec2(margin, body_y + ctrl_h + gap), ImVec2(w, body_h - ctrl_h - gap));
  } else if (show_ctrl) {
    sc.controls(ImVec2(margin, body_y), ImVec2(w, body_h));
  } else if (show_vec) {
    sc.vectors(ImVec2(margin, body_y), ImVec2(w, body_h));
  }
}

// A panel that only draws itself, as Screen::panel places it: its name, how it draws, extra flags.
struct PanelSpec {
  const char* name;
  Screen::DrawPanel draw;
  ImGuiWindowFlags flags = 0;
};

// Flags of a panel that fits what it draws to its size (a curve): it never scrolls.
constexpr ImGuiWindowFlags kFitted = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;

// Two panels in a column at (pos, size): `top` is `top_h` high, `bottom` takes the rest below it, a
// gap apart (Train's and Circuits' controls above their curves, Circuits' composition above its guide).
inline void stack_panels(Screen& sc, ImVec2 pos, ImVec2 size, float top_h, PanelSpec top, PanelSpec bottom) {
  sc.panel(top.name, top.draw, pos, ImVec2(size.x, top_h), top.flags);
  sc.panel(bottom.name, bottom.draw, ImVec2(pos.x, pos.y + top_h + sc.gap),
           ImVec2(size.x, size.y - top_h - sc.gap), bottom.flags);
}

}  // namespace ui
