// keyspace_panel.cpp — the soft dictionary as two pictures (the Key space mode):
//
//   Key space:    keys k_j as points, queries q_i as arrows from 0. The selected query has a line
//                 to every key, thick and opaque in proportion to its weight a_ij (printed by the
//                 key): the query "finds" the key it points at.
//   Value space:  values v_j as points and the selected query's output y_i = Σ_j a_ij v_j as a
//                 ring, with faint segments to each v_j weighted by a_ij: as the query moves toward
//                 k_j, y_i slides onto v_j.
//
// d ≤ 2 draws the vectors' own coordinates (exact); d > 2 the best plane through 0 (core/keyspace:
// uncentred PCA of queries and keys together, or of the values) and says how much it keeps.
// Dragging a query tip, a key or a value edits the scene (direct scenes; exact in d = 2, along the
// plane's two axes otherwise). In a learned scene q = x·W_q, so the pictures are read-only there
// and say where to edit instead. Widget ids: keyspace/q/i, keyspace/k/j, valuespace/v/j,
// valuespace/y/i.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/keyspace.hpp"
#include "scene/variant_keys.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/keyspace/keyspace.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"

namespace ui {
namespace {

// Data bounds → screen: equal scale on both axes (angles and lengths are read off the picture).
struct PlotFrame {
  ImVec2 min, max;        // screen rectangle
  double cx = 0, cy = 0;  // data point at the rectangle's centre
  double px = 1;          // pixels per data unit
  ImVec2 to_px(double x, double y) const {
    return ImVec2(float(0.5 * (min.x + max.x) + (x - cx) * px), float(0.5 * (min.y + max.y) - (y - cy) * px));
  }
  double data_x(float sx) const { return cx + (double(sx) - 0.5 * (min.x + max.x)) / px; }
  double data_y(float sy) const { return cy - (double(sy) - 0.5 * (min.y + max.y)) / px; }
};

// The box of `xy` (m×2) and the origin, padded, centred in [min, max] at one scale for x and y.
// Bounds are kept while a drag runs (the point stays under the mouse).
PlotFrame fit_frame(const attn::Matrix& xy, ImVec2 min, ImVec2 max, PlotBounds* frozen, bool keep) {
  if (!keep) {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    for (Eigen::Index r = 0; r < xy.rows(); ++r) {
      x0 = std::min(x0, xy(r, 0));
      x1 = std::max(x1, xy(r, 0));
      y0 = std::min(y0, xy(r, 1));
      y1 = std::max(y1, xy(r, 1));
    }
    const double span = std::max({x1 - x0, y1 - y0, 1e-9});
    const double pad = 0.14 * span;  // room for labels and for dragging past the outermost point
    *frozen = PlotBounds{float(x0 - pad), float(y0 - pad), float(x1 + pad), float(y1 + pad)};
  }
  PlotFrame f;
  f.min = min;
  f.max = max;
  const double w = std::max(1.0f, max.x - min.x), h = std::max(1.0f, max.y - min.y);
  const double dx = std::max(1e-9, double(frozen->x1 - frozen->x0)),
               dy = std::max(1e-9, double(frozen->y1 - frozen->y0));
  f.px = std::min(w / dx, h / dy);
  f.cx = 0.5 * (double(frozen->x0) + double(frozen->x1));
  f.cy = 0.5 * (double(frozen->y0) + double(frozen->y1));
  return f;
}

// Light grid lines at a round step and the two axes through 0.
void draw_axes(ImDrawList* dl, const PlotFrame& f) {
  const double units = double(f.max.x - f.min.x) / f.px;
  const double raw = units / 6.0;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) {
      step = m * decade;
      break;
    }
  const ImU32 grid = palette::plot_grid(), axis = palette::plot_axis();
  const double x0 = f.data_x(f.min.x), x1 = f.data_x(f.max.x), y0 = f.data_y(f.max.y), y1 = f.data_y(f.min.y);
  for (double x = std::ceil(x0 / step) * step; x <= x1; x += step) {
    const float sx = f.to_px(x, 0).x;
    dl->AddLine(ImVec2(sx, f.min.y), ImVec2(sx, f.max.y), std::abs(x) < 0.5 * step ? axis : grid);
  }
  for (double y = std::ceil(y0 / step) * step; y <= y1; y += step) {
    const float sy = f.to_px(0, y).y;
    dl->AddLine(ImVec2(f.min.x, sy), ImVec2(f.max.x, sy), std::abs(y) < 0.5 * step ? axis : grid);
  }
}

void draw_arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
  const float dx = to.x - from.x, dy = to.y - from.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1.0f) {
    dl->AddCircleFilled(to, thickness * 1.5f, color);
    return;
  }
  const float ux = dx / len, uy = dy / len;
  const float head = std::min(len, 4.0f * thickness + 4.0f);
  const ImVec2 base(to.x - ux * head, to.y - uy * head);
  dl->AddLine(from, base, color, thickness);
  dl->AddTriangleFilled(to, ImVec2(base.x - uy * 0.5f * head, base.y + ux * 0.5f * head),
                        ImVec2(base.x + uy * 0.5f * head, base.y - ux * 0.5f * head), color);
}

// A label beside a point, kept inside the plot, with a dark halo so it reads over lines. Labels
// already placed in this picture (`placed`, screen rectangles) push a new one down a line, so two
// nearby points (common in a PCA picture) do not print over each other.
void draw_label(ImDrawList* dl, const PlotFrame& f, ImVec2 at, const std::string& text, ImU32 color,
                std::vector<ImVec4>* placed, bool above = false) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float em = ImGui::GetFontSize();
  ImVec2 p(at.x + 0.45f * em, above ? at.y - size.y - 0.35f * em : at.y - 0.5f * size.y);
  p.x = std::clamp(p.x, f.min.x + 2.0f, std::max(f.min.x + 2.0f, f.max.x - size.x - 2.0f));
  if (p.x < at.x && p.x + size.x > at.x - 0.3f * em)
    p.x = std::max(f.min.x + 2.0f, at.x - size.x - 0.45f * em);
  auto overlaps = [&](ImVec2 q) {
    for (const ImVec4& r : *placed)
      if (q.x < r.z && q.x + size.x > r.x && q.y < r.w && q.y + size.y > r.y) return true;
    return false;
  };
  for (int tries = 0; tries < 4 && overlaps(p); ++tries) p.y += size.y + 1.0f;
  p.y = std::clamp(p.y, f.min.y + 2.0f, std::max(f.min.y + 2.0f, f.max.y - size.y - 2.0f));
  placed->push_back(ImVec4(p.x - 2, p.y, p.x + size.x + 2, p.y + size.y));
  dl->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p.x + size.x + 2, p.y + size.y),
                    palette::with_alpha(palette::panel(), 190), 3.0f);
  dl->AddText(p, color, text.c_str());
}

ImU32 with_alpha(ImU32 color, float alpha) {
  const int a = std::clamp(int(alpha * 255.0f), 0, 255);
  return (color & ~IM_COL32_A_MASK) | (ImU32(a) << IM_COL32_A_SHIFT);
}

// Many points (n > 64): each picture would pass 65,536 ImGui vertices — a label is ~100, a circle
// and its outline ~50 — and WebGL2 has no base-vertex draw for ImGui's 16-bit indices, so the
// picture broke into stray triangles (n = 1024: 376,108 vertices a frame). Then only the followed
// query's kLabelledKeys heaviest keys (or values) are named, points are small hexagons without an
// outline, and the tooltip still names every point.
constexpr int kManyPoints = 64;
constexpr int kLabelledKeys = 8;

// The keys to name for query `sel`: all of them for a few points, else its heaviest allowed ones.
std::vector<int> labelled_keys(const attn::Result& r, int sel, int n) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) keys[std::size_t(j)] = j;
  if (n <= kManyPoints) return keys;
  keys.erase(std::remove_if(keys.begin(), keys.end(), [&](int j) { return !r.allowed(sel, j); }), keys.end());
  const std::size_t count = std::min<std::size_t>(kLabelledKeys, keys.size());
  std::partial_sort(keys.begin(), keys.begin() + std::ptrdiff_t(count), keys.end(),
                    [&](int a, int b) { return r.weights(sel, a) > r.weights(sel, b); });
  keys.resize(count);
  return keys;
}

// A point: a filled circle with a dark outline; a small hexagon alone when there are many.
void draw_point(ImDrawList* dl, ImVec2 at, float radius, ImU32 color, int n) {
  if (n > kManyPoints) {
    dl->AddCircleFilled(at, radius, color, 6);
    return;
  }
  dl->AddCircleFilled(at, radius, color);
  dl->AddCircle(at, radius, palette::frame(), 0, 1.5f);
}

// Which query the pictures follow: hovering a row anywhere (a grid row, a token block) wins,
// else the one last clicked.
int shown_query(const AppState& state) {
  const int n = state.scene.n();
  if (state.ui.frame.shown.hovered_row >= 0 && state.ui.frame.shown.hovered_row < n)
    return state.ui.frame.shown.hovered_row;
  return std::clamp(state.ui.keyspace.selected, 0, std::max(0, n - 1));
}

// The vectors the scores are made of: Q and K, or their RoPE-turned versions when the scene has rope.
const attn::Matrix& shown_queries(const attn::Result& r) {
  return r.Q_rope.size() > 0 ? r.Q_rope : r.Q;
}
const attn::Matrix& shown_keys(const attn::Result& r) {
  return r.K_rope.size() > 0 ? r.K_rope : r.K;
}

bool same_matrix(const attn::Matrix& a, const attn::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

// Refit the planes when the numbers changed and no drag holds them — each only when its own points
// did: a mask, causal or scale edit changes the result but no vector (at n = 1024 a refit is a
// 2,048×64 Gram product and an eigensolve, the largest part of the frame that opens the mode).
void update_planes(AppState& state) {
  KeySpaceState& ks = state.ui.keyspace;
  if (ks.planes_version == state.result_version || ks.drag_kind != KeySpaceState::None) return;
  const attn::Result& r = state.result;
  attn::Matrix qk(r.Q.rows() + r.K.rows(), r.Q.cols());
  qk << shown_queries(r), shown_keys(r);
  if (!same_matrix(qk, ks.key_points)) {
    ks.key_plane = attn::best_plane(qk);
    ks.key_points = std::move(qk);
  }
  if (!same_matrix(r.V, ks.value_points)) {
    ks.value_plane = attn::best_plane(r.V);
    ks.value_points = r.V;
  }
  ks.planes_version = state.result_version;
}

// One line under the title: exact or projected, and how much the projection keeps.
void plane_note(const attn::Plane& plane, Text what, const char* dim_name) {
  std::string text;
  if (plane.dim == 2) {
    text = fill(tr(Text::PlaneExact), {dim_name});
  } else if (plane.dim == 1) {
    text = fill(tr(Text::PlaneLine), {dim_name});
  } else {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f", 100.0 * plane.kept);
    text = fill(tr(Text::PlanePca), {dim_name, std::to_string(plane.dim), tr(what), percent});
  }
  wrapped_text(text);
}

// A step that keeps dragged numbers readable (2 significant decimals of the view's span).
double round_to_view(double v, const PlotFrame& f) {
  const double span = double(f.max.x - f.min.x) / f.px;
  const double step = std::pow(10.0, std::floor(std::log10(span / 200.0)));
  return std::round(v / step) * step;
}

// An invisible button over a drawn point: hover, click and drag. Returns the new data position
// while it is dragged (and true), in the frame's data coordinates.
// The keyboard: the point is a Tab stop (*keyed = focused), and the arrows move an editable point by
// 0.5 em on the picture ("key 1 'cat': (0.50, 1.00)" for the live region).
bool point_handle(AppState& state, const std::string& id, ImVec2 at, const PlotFrame& f, int kind, int index,
                  bool editable, double* x, double* y, bool* keyed = nullptr) {
  const float r = 0.7f * ImGui::GetFontSize();
  ImGui::SetCursorScreenPos(ImVec2(at.x - r, at.y - r));
  invisible_button(state, id, id.c_str(), ImVec2(2 * r, 2 * r));
  int dx = 0, dy = 0;
  const bool focused = focus_point(state, id, &dx, &dy);
  if (keyed) *keyed = focused;
  if (focused) {
    const char* role = kind == KeySpaceState::Query ? "query "
                       : kind == KeySpaceState::Key ? "key "
                                                    : "value ";
    const ImVec2 to(std::clamp(at.x + float(dx) * 0.5f * ImGui::GetFontSize(), f.min.x, f.max.x),
                    std::clamp(at.y + float(dy) * 0.5f * ImGui::GetFontSize(), f.min.y, f.max.y));
    announce(state, role + std::to_string(index) + " '" + state.scene.tokens[std::size_t(index)] + "': (" +
                        format_number(f.data_x(to.x), 2) + ", " + format_number(f.data_y(to.y), 2) + ")");
    if (editable && (dx != 0 || dy != 0)) {
      *x = f.data_x(to.x);
      *y = f.data_y(to.y);
      return true;
    }
  }
  KeySpaceState& ks = state.ui.keyspace;
  if (ImGui::IsItemActivated()) {
    ks.drag_kind = kind;
    ks.drag_index = index;
    ks.grab_x = ImGui::GetIO().MousePos.x - at.x;
    ks.grab_y = ImGui::GetIO().MousePos.y - at.y;
  }
  if (ImGui::IsItemHovered() || ImGui::IsItemActive())
    ImGui::SetMouseCursor(editable ? ImGuiMouseCursor_Hand : ImGuiMouseCursor_Arrow);
  if (!ImGui::IsItemActive() || !editable || ks.drag_kind != kind || ks.drag_index != index) return false;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float sx = std::clamp(m.x - ks.grab_x, f.min.x, f.max.x),
              sy = std::clamp(m.y - ks.grab_y, f.min.y, f.max.y);
  *x = f.data_x(sx);
  *y = f.data_y(sy);
  return ImGui::GetIO().MouseDelta.x != 0.0f || ImGui::GetIO().MouseDelta.y != 0.0f;
}

// Move row `row` of `m` so it is drawn at (x, y) in `plane` (exact in d = 2, rounded to the view).
void move_row(AppState& state, SceneMatrix which, int row, const attn::Plane& plane, const PlotFrame& f,
              double x, double y) {
  const attn::Matrix& m = which == SceneMatrix::Q   ? state.scene.Q
                          : which == SceneMatrix::K ? state.scene.K
                                                    : state.scene.V;
  if (plane.exact) {
    x = round_to_view(x, f);
    y = round_to_view(y, f);
  }
  const attn::Matrix moved = attn::lift_to_plane(plane, m.row(row), x, y);
  set_row(state, which, row, moved);  // clamped; a head's columns (a wrong size) never write the full Q
}

// The top of a picture panel: its header; false while there is no result to draw, else the planes
// brought up to date.
bool picture_panel_top(AppState& state, const Fonts& fonts, Text title, Text hint) {
  panel_header(state, fonts, tr(title), tr(hint));
  if (!state.computed) return false;
  update_planes(state);
  return true;
}

// Under the header, in small dim text: how the plane was chosen (plane_note), then the `extra` lines
// that are not empty.
void plane_notes(const Fonts& fonts, const attn::Plane& plane, Text what, const char* dim_name,
                 std::initializer_list<std::string> extra = {}) {
  ImGui::PushFont(fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::text_dim()));
  plane_note(plane, what, dim_name);
  for (const std::string& line : extra)
    if (!line.empty()) wrapped_text(line);
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// The plot rectangle: what is left of the panel, keeping `reserve` pixels below for a caption.
void plot_rect(float reserve, ImVec2* min, ImVec2* max) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  *min = ImGui::GetCursorScreenPos();
  *max = ImVec2(min->x + avail.x, min->y + std::max(4.0f * ImGui::GetFontSize(), avail.y - reserve));
}

std::string token_suffix(const AppState& state, int i) {
  return " " + fit_text(state.scene.tokens[std::size_t(i)], 6.0f * ImGui::GetFontSize());
}

// Key j's label: a token, or with cross-attention a source.
std::string key_suffix(const AppState& state, int j) {
  return " " + fit_text(scene::key_labels(state.scene)[std::size_t(j)], 6.0f * ImGui::GetFontSize());
}

void learned_hint(AppState& state, const Fonts& fonts) {
  ImGui::PushFont(fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(palette::accent()));
  wrapped_text(tr(Text::KeySpaceLearned));
  ImGui::PopStyleColor();
  if (small_button(state, "make-direct", tr(Text::EditDirectly))) make_direct(state);
  ImGui::PopFont();
}

// (1) The handles first, so a drag shows in this frame: queries (they win where a tip lies over a
// key), then keys. Returns the followed query (a click or the keyboard's focus picks it).
int keyspace_handles(AppState& state, const PlotFrame& f, const attn::Matrix& q_xy, const attn::Matrix& k_xy,
                     bool editable) {
  KeySpaceState& ks = state.ui.keyspace;
  const attn::Result& r = state.result;
  const int n = state.scene.n(), m = int(r.weights.cols());  // n queries, m keys
  const bool dragging = ks.drag_kind == KeySpaceState::Query || ks.drag_kind == KeySpaceState::Key;
  double x = 0, y = 0;
  bool keyed = false;
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    if (point_handle(state, "keyspace/q/" + std::to_string(i), f.to_px(q_xy(i, 0), q_xy(i, 1)), f,
                     KeySpaceState::Query, i, editable, &x, &y, &keyed))
      move_row(state, SceneMatrix::Q, i, ks.key_plane, f, x, y);
    if (ImGui::IsItemClicked() || keyed) ks.selected = i;  // follow the clicked (or focused) query
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("q_%d (%s): %s", i, state.scene.tokens[std::size_t(i)].c_str(),
                        tr(editable ? Text::QueryPointTip : Text::QueryPointTipFixed));
    ImGui::PopID();
  }
  const int sel = shown_query(state);
  for (int j = 0; j < m; ++j) {
    ImGui::PushID(1000 + j);
    if (point_handle(state, "keyspace/k/" + std::to_string(j), f.to_px(k_xy(j, 0), k_xy(j, 1)), f,
                     KeySpaceState::Key, j, editable, &x, &y))
      move_row(state, SceneMatrix::K, j, ks.key_plane, f, x, y);
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("k_%d (%s): q_%d·k_%d = %s, %s%s%s", j,
                        scene::key_labels(state.scene)[std::size_t(j)].c_str(), sel, j,
                        format_number(r.scores(sel, j), 3).c_str(),
                        fill(tr(Text::KeyPointTip), {format_weight(r.weights(sel, j), 4, 10)}).c_str(),
                        editable ? "  " : "", editable ? tr(Text::DragToMove) : "");
    ImGui::PopID();
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) && dragging) ks.drag_kind = KeySpaceState::None;

  return sel;
}

// (2)–(4) The plane: axes, the followed query's lines to every key (∝ a_ij), the points, their labels.
void draw_keyspace_plane(const AppState& state, const PlotFrame& f, const attn::Matrix& q_xy,
                         const attn::Matrix& k_xy, int sel, ImVec2 min, ImVec2 max) {
  const attn::Result& r = state.result;
  const int n = state.scene.n(), m = int(r.weights.cols());  // n queries, m keys
  const float em = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(min, max, true);
  dl->AddRectFilled(min, max, palette::frame(), 4.0f);
  draw_axes(dl, f);
  const ImVec2 origin = f.to_px(0, 0);
  // (2) the followed query's lines to every key, ∝ a_ij.
  for (int j = 0; j < m; ++j) {
    if (!r.allowed(sel, j)) continue;
    const double a = r.weights(sel, j);
    const ImVec2 q = f.to_px(q_xy(sel, 0), q_xy(sel, 1)), k = f.to_px(k_xy(j, 0), k_xy(j, 1));
    dl->AddLine(q, k, with_alpha(palette::accent(), 0.15f + 0.8f * float(a)), 1.0f + 0.3f * em * float(a));
  }
  // (3) keys, then queries (the followed one last, on top).
  for (int j = 0; j < m; ++j) draw_point(dl, f.to_px(k_xy(j, 0), k_xy(j, 1)), 0.32f * em, palette::key(), m);
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n; ++i) {
      if ((i == sel) != (pass == 1)) continue;
      const ImVec2 q = f.to_px(q_xy(i, 0), q_xy(i, 1));
      draw_arrow(dl, origin, q, i == sel ? palette::query() : with_alpha(palette::query(), 0.35f),
                 i == sel ? 0.16f * em : 0.1f * em);
    }
  // (4) labels: the followed query, then keys with its weights, then the other queries.
  std::vector<ImVec4> placed;
  for (const int j : labelled_keys(r, sel, m)) {
    const ImVec2 k = f.to_px(k_xy(j, 0), k_xy(j, 1));
    std::string text = "k" + std::to_string(j) + key_suffix(state, j);
    text += r.allowed(sel, j) ? "   a = " + format_weight(r.weights(sel, j), 3, 9)
                              : "   " + std::string(tr(Text::Masked));
    draw_label(dl, f, k, text, palette::key(), &placed);
  }
  for (int i = 0; i < n; ++i) {
    if (i != sel && n > 8) continue;  // many tokens: only the followed query is named
    // The followed query by name; the others by index only, so their labels stay out of the way.
    const ImVec2 q = f.to_px(q_xy(i, 0), q_xy(i, 1));
    draw_label(dl, f, q, "q" + std::to_string(i) + (i == sel ? token_suffix(state, i) : std::string()),
               i == sel ? palette::query() : with_alpha(palette::query(), 0.6f), &placed, true);
  }
  dl->PopClipRect();
}

// (5) The caption under the plane: the followed query's weights.
void keyspace_caption(const AppState& state, const Fonts& fonts, int sel, ImVec2 min, ImVec2 max) {
  const attn::Result& r = state.result;
  const int n = int(r.weights.cols());  // the keys
  const float em = ImGui::GetFontSize();
  const ImVec2 after = ImVec2(min.x, max.y + 0.25f * em);
  ImGui::SetCursorScreenPos(after);
  ImGui::PushFont(fonts.small);
  std::string caption = fill(tr(Text::QueryAttends), {std::to_string(sel)});
  for (int j = 0; j < n && j < 8; ++j)
    caption += "  " + fill(tr(Text::AttendsTo), {r.allowed(sel, j) ? format_weight(r.weights(sel, j), 3, 9)
                                                                   : std::string(tr(Text::Masked)),
                                                 std::to_string(j)});
  if (n > 8) caption += "  …";
  ImGui::TextUnformatted(fit_text(caption, max.x - min.x).c_str());
  ImGui::PopFont();
}

}  // namespace

void draw_keyspace_panel(AppState& state, const Fonts& fonts) {
  if (!picture_panel_top(state, fonts, Text::KeySpaceTitle, Text::KeySpaceHint)) return;
  KeySpaceState& ks = state.ui.keyspace;
  const attn::Result& r = state.result;
  const bool roped = r.Q_rope.size() > 0;
  // Multi-head: result holds one head's columns (the focused head), so the picture is that head's and
  // edits go through the vectors panel, which shows every head's columns.
  const bool multi_head = state.scene.heads > 1;
  const bool editable = state.scene.mode == scene::Mode::Direct && !roped && !multi_head;
  plane_notes(fonts, ks.key_plane, Text::PlaneOfKeys, "d_k",
              {multi_head ? fill(tr(Text::KeySpaceHeads), {std::to_string(state.scene.heads)}) : "",
               roped ? tr(Text::KeySpaceRope) : ""});
  if (state.scene.mode != scene::Mode::Direct) learned_hint(state, fonts);

  ImVec2 min, max;
  const float em = ImGui::GetFontSize();
  plot_rect(1.6f * em, &min, &max);
  const bool dragging = ks.drag_kind == KeySpaceState::Query || ks.drag_kind == KeySpaceState::Key;
  auto coords = [&](attn::Matrix* q_xy, attn::Matrix* k_xy) {
    *q_xy = attn::plane_coords(ks.key_plane, shown_queries(state.result));
    *k_xy = attn::plane_coords(ks.key_plane, shown_keys(state.result));
  };
  attn::Matrix q_xy, k_xy;
  coords(&q_xy, &k_xy);
  attn::Matrix all(q_xy.rows() + k_xy.rows(), 2);
  all << q_xy, k_xy;
  const PlotFrame f = fit_frame(all, min, max, &ks.key_view, dragging);

  const int sel = keyspace_handles(state, f, q_xy, k_xy, editable);
  draw_keyspace_plane(state, f, q_xy, k_xy, sel, min, max);
  keyspace_caption(state, fonts, sel, min, max);
}

void draw_valuespace_panel(AppState& state, const Fonts& fonts) {
  if (!picture_panel_top(state, fonts, Text::ValueSpaceTitle, Text::ValueSpaceHint)) return;
  KeySpaceState& ks = state.ui.keyspace;
  const attn::Result& r = state.result;
  const int n = state.scene.n(),
            m = int(r.V.rows());  // n outputs, m values (the sources' with cross-attention)
  const bool editable = state.scene.mode == scene::Mode::Direct && state.scene.heads == 1;  // as in key space
  plane_notes(fonts, ks.value_plane, Text::PlaneOfValues, "d_v");

  ImVec2 min, max;
  const float em = ImGui::GetFontSize();
  plot_rect(1.6f * em, &min, &max);
  const bool dragging = ks.drag_kind == KeySpaceState::Value;
  attn::Matrix v_xy = attn::plane_coords(ks.value_plane, r.V),
               y_xy = attn::plane_coords(ks.value_plane, r.output);
  // Outputs are blends of the values (inside their hull), so the values alone set the view.
  const PlotFrame f = fit_frame(v_xy, min, max, &ks.value_view, dragging);
  const int sel = shown_query(state);

  // Handles first (a drag shows in this frame).
  double x = 0, yy = 0;
  for (int j = 0; j < m; ++j) {
    ImGui::PushID(j);
    if (point_handle(state, "valuespace/v/" + std::to_string(j), f.to_px(v_xy(j, 0), v_xy(j, 1)), f,
                     KeySpaceState::Value, j, editable, &x, &yy))
      move_row(state, SceneMatrix::V, j, ks.value_plane, f, x, yy);
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
      ImGui::SetTooltip("v_%d (%s): %s%s%s", j, scene::key_labels(state.scene)[std::size_t(j)].c_str(),
                        fill(tr(Text::ValuePointTip), {std::to_string(j)}).c_str(), editable ? "  " : "",
                        editable ? tr(Text::DragToMove) : "");
    ImGui::PopID();
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) && dragging) ks.drag_kind = KeySpaceState::None;
  // The outputs: computed, not dragged; their rectangles for hover and automation.
  for (int i = 0; i < n; ++i) {
    const ImVec2 c = f.to_px(y_xy(i, 0), y_xy(i, 1));
    const float h = (i == sel ? 0.6f : 0.3f) * em;
    state.ui.frame.widget_rects["valuespace/y/" + std::to_string(i)] = ImVec4(c.x - h, c.y - h, 2 * h, 2 * h);
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(min, max, true);
  dl->AddRectFilled(min, max, palette::frame(), 4.0f);
  draw_axes(dl, f);
  const ImVec2 y = f.to_px(y_xy(sel, 0), y_xy(sel, 1));
  for (int j = 0; j < m; ++j) {
    if (!r.allowed(sel, j)) continue;
    const double a = r.weights(sel, j);
    dl->AddLine(y, f.to_px(v_xy(j, 0), v_xy(j, 1)),
                with_alpha(palette::output_marker(), 0.12f + 0.75f * float(a)), 1.0f + 0.3f * em * float(a));
  }
  for (int j = 0; j < m; ++j)
    draw_point(dl, f.to_px(v_xy(j, 0), v_xy(j, 1)), 0.32f * em, palette::value(), m);
  // Every other output as a faint dot; the followed one as a ring.
  for (int i = 0; i < n; ++i)
    if (i != sel)
      dl->AddCircleFilled(f.to_px(y_xy(i, 0), y_xy(i, 1)), 0.15f * em,
                          with_alpha(palette::output_marker(), 0.35f), n > kManyPoints ? 6 : 0);
  dl->AddCircle(y, 0.5f * em, palette::output_marker(), 0, 0.2f * em);
  std::vector<ImVec4> placed;  // the output's label first (below its ring), then the values'
  draw_label(dl, f, ImVec2(y.x - 0.45f * em, y.y + 1.3f * em),
             "y" + std::to_string(sel) + token_suffix(state, sel), palette::output_marker(), &placed);
  for (const int j : labelled_keys(r, sel, m)) {
    std::string text = "v" + std::to_string(j) + key_suffix(state, j);
    if (r.allowed(sel, j)) text += "  × " + format_weight(r.weights(sel, j), 3, 9);
    draw_label(dl, f, f.to_px(v_xy(j, 0), v_xy(j, 1)), text, palette::value(), &placed);
  }
  dl->PopClipRect();
  if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(ImVec2(y.x - 0.6f * em, y.y - 0.6f * em),
                                                             ImVec2(y.x + 0.6f * em, y.y + 0.6f * em))) {
    std::string tip = "y_" + std::to_string(sel) + " = ";
    for (int j = 0; j < m && j < 6; ++j)
      tip += (j ? " + " : "") + format_weight(r.weights(sel, j), 3, 9) + "·v_" + std::to_string(j);
    if (m > 6) tip += " + …";
    tip += "\n= [";
    for (Eigen::Index c = 0; c < r.output.cols() && c < 8; ++c)
      tip += (c ? ", " : "") + format_number(r.output(sel, c), 3);
    tip += r.output.cols() > 8 ? ", …]" : "]";
    ImGui::SetTooltip("%s", tip.c_str());
  }
  const ImVec2 after = ImVec2(min.x, max.y + 0.25f * em);

  ImGui::SetCursorScreenPos(after);
  ImGui::PushFont(fonts.small);
  std::string caption = "y" + std::to_string(sel) + " = [";
  for (Eigen::Index c = 0; c < r.output.cols() && c < 6; ++c)
    caption += (c ? ", " : "") + format_number(r.output(sel, c), 3);
  caption += r.output.cols() > 6 ? ", …]" : "]";
  ImGui::TextUnformatted(fit_text(caption, max.x - min.x).c_str());
  ImGui::PopFont();
}

}  // namespace ui
