// decode_layout.cpp — the Decode mode's layout (the panels: decode_panel.cpp).
#include <algorithm>
#include <cmath>

#include "ui/modes/decode/decode.hpp"
#include "ui/modes/layout_parts.hpp"

namespace ui {

// Decode: the stepper and the multiply counter on the left, the cache on the right. Narrow: stacked.
void layout_decode(Screen& sc) {
  const float em = sc.em, W = sc.W, margin = sc.margin, gap = sc.gap;
  if (!sc.narrow) {
    const auto [body_y, body_h, left_w, rx, rw] = side_body(sc, 30.0f, 0.34f, 22.0f, 30.0f);
    sc.panel("Decode", draw_decode_panel, ImVec2(margin, body_y), ImVec2(left_w, body_h));
    // The cache policy and the KV calculator: a third column when there is room (≥ 80 em), else
    // below the stepper.
    // Linear attention's state (decode_linear.cpp) takes the lower part of the cache's column.
    const bool linear = decode_shows_linear(sc.state);
    if (W >= 80.0f * em) {
      const float policy_w = side_width(sc, 0.28f, 22.0f, 28.0f), cache_w = rw - policy_w - gap;
      const float cache_h = linear ? std::floor(0.4f * body_h) : body_h;
      sc.panel("KV cache", draw_decode_cache, ImVec2(rx, body_y), ImVec2(cache_w, cache_h),
               ImGuiWindowFlags_NoScrollbar);
      if (linear)
        sc.panel("Linear state", draw_decode_linear, ImVec2(rx, body_y + cache_h + gap),
                 ImVec2(cache_w, body_h - cache_h - gap));
      sc.panel("Cache policy", draw_decode_policy, ImVec2(W - margin - policy_w, body_y),
               ImVec2(policy_w, body_h));
    } else {
      const float part = std::floor((linear ? 0.34f : 0.5f) * body_h);
      sc.panel("KV cache", draw_decode_cache, ImVec2(rx, body_y), ImVec2(rw, part),
               ImGuiWindowFlags_NoScrollbar);
      float py = body_y + part + gap;
      if (linear) {
        sc.panel("Linear state", draw_decode_linear, ImVec2(rx, py), ImVec2(rw, part));
        py += part + gap;
      }
      sc.panel("Cache policy", draw_decode_policy, ImVec2(rx, py), ImVec2(rw, body_y + body_h - py));
    }
  } else {
    Column col(sc);
    const float stepper_h = 25.5f * em,
                cache_h = float(sc.state.scene.n() + 3) * 2.1f * em + 10.0f * em +
                          (0.6f * float(sc.state.scene.n()) + 6.0f) * em;  // + the cache per KV head
    sc.panel("Decode", draw_decode_panel, col.take(stepper_h), col.size(stepper_h));
    sc.panel("KV cache", draw_decode_cache, col.take(cache_h), col.size(cache_h),
             ImGuiWindowFlags_NoScrollbar);
    if (decode_shows_linear(sc.state)) {
      const float linear_h = (22.0f + 1.5f * float(std::min(sc.state.scene.d_k(), 16))) * em;
      sc.panel("Linear state", draw_decode_linear, col.take(linear_h), col.size(linear_h));
    }
    const float policy_h = 34.0f * em;
    sc.panel("Cache policy", draw_decode_policy, col.take(policy_h), col.size(policy_h));
  }
}

}  // namespace ui
