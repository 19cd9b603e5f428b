// model_layout.cpp — the Model mode's layout (the panels: model_panels.cpp, model_grid.cpp).
#include <algorithm>

#include "ui/modes/layout_parts.hpp"
#include "ui/modes/model/model_mode.hpp"

namespace ui {
namespace {

void heads_panel(Screen& sc, ImVec2 pos, ImVec2 size) {
  if (sc.open("Heads", pos, size)) draw_model_heads(sc.state, sc.painter, sc.fonts);
  sc.close();
}

}  // namespace

// Wide: Text above Next token on the left; every head above the logit lens on the right.
// Narrow: one column — Text, Next token, the heads, the lens.
void layout_model(Screen& sc) {
  const float em = sc.em;
  const ModelUi& m = sc.state.ui.model;
  const int L = m.file ? m.file->model.n_layers() : 2, H = m.file ? m.file->model.n_heads() : 4;
  if (!sc.narrow) {
    const auto [body_y, body_h, left_w, rx, rw] = side_body(sc, 36.0f, 0.42f, 26.0f, 40.0f);
    const float text_h = std::max(16.5f * em, body_h - 18.5f * em - sc.gap);
    const float pred_h = body_h - text_h - sc.gap;
    const float lens_h = 3.4f * em + float(L + 1) * 2.3f * em;
    sc.panel("Text", draw_model_text, ImVec2(sc.margin, body_y), ImVec2(left_w, text_h));
    sc.panel("Next token", draw_model_prediction, ImVec2(sc.margin, body_y + text_h + sc.gap),
             ImVec2(left_w, pred_h));
    heads_panel(sc, ImVec2(rx, body_y), ImVec2(rw, body_h - lens_h - sc.gap));
    sc.panel("Lens", draw_model_lens, ImVec2(rx, body_y + body_h - lens_h), ImVec2(rw, lens_h));
  } else {
    Column col(sc);
    const float side = (col.w - 3.0f * em) / float(H);
    const float text_h = 20.0f * em, pred_h = 19.5f * em, lens_h = 4.5f * em + float(L + 1) * 2.3f * em;
    const float heads_h = 5.5f * em + float(L) * side * 1.1f + float(H) * 2.0f * em;
    sc.panel("Text", draw_model_text, col.take(text_h), col.size(text_h));
    sc.panel("Next token", draw_model_prediction, col.take(pred_h), col.size(pred_h));
    const ImVec2 at = col.take(heads_h);
    heads_panel(sc, at, col.size(heads_h));
    sc.panel("Lens", draw_model_lens, col.take(lens_h), col.size(lens_h));
  }
}

}  // namespace ui
