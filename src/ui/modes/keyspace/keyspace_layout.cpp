// keyspace_layout.cpp — the Key space mode's layout (the pictures: keyspace_panel.cpp).
#include <algorithm>
#include <cmath>

#include "ui/modes/keyspace/keyspace.hpp"
#include "ui/modes/layout_parts.hpp"

namespace ui {

// Key space: the soft dictionary as pictures. Wide: key space | value space | weights on top (the
// two pictures are read together: move q toward k_j, watch y slide onto v_j; hovering a weights row
// follows that query), the vectors across the bottom. Narrow: key space, value space, weights, vectors in one
// scrolling column. The pictures are drawn first so a drag in them shows in every other panel in the same
// frame.
void layout_keyspace(Screen& sc) {
  const AppState& state = sc.state;
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  if (!sc.narrow) {
    const float body_y = body_top(sc), body_h = body_height(sc, body_y, 34.0f);
    const float full_w = W - 2.0f * margin;
    const float top_h = std::floor(0.62f * body_h);
    const float weights_w = std::floor(std::clamp(0.22f * full_w, 16.0f * em, 26.0f * em));
    const float pic_w = std::floor(0.5f * (full_w - weights_w - 2.0f * gap));
    sc.picture("Key space", Term::Keys, draw_keyspace_panel, ImVec2(margin, body_y), ImVec2(pic_w, top_h));
    sc.picture("Value space", Term::Values, draw_valuespace_panel, ImVec2(margin + pic_w + gap, body_y),
               ImVec2(pic_w, top_h));
    const float wx = margin + 2.0f * (pic_w + gap);
    sc.heatmap("Weights", HeatmapKind::Weights, ImVec2(wx, body_y), ImVec2(margin + full_w - wx, top_h));
    const float by = body_y + top_h + gap;
    sc.vectors(ImVec2(margin, by), ImVec2(full_w, body_y + body_h - by));
  } else {
    Column col(sc);
    const float pic = std::min(col.w, 26.0f * em) + 5.0f * em;
    const float vectors_h = std::min(28.0f * em, std::max(12.0f * em, float(state.scene.n()) * 7.0f * em));
    sc.picture("Key space", Term::Keys, draw_keyspace_panel, col.take(pic), col.size(pic));
    sc.picture("Value space", Term::Values, draw_valuespace_panel, col.take(pic), col.size(pic));
    sc.heatmap("Weights", HeatmapKind::Weights, col.take(col.grid_h()), col.size(col.grid_h()));
    sc.vectors(col.take(vectors_h), col.size(vectors_h));
  }
}

}  // namespace ui
