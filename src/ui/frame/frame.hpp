// frame.hpp — the one designed screen: a top bar and the current mode's layout of panels
// (modes/modes.hpp says how to add a mode). Explore, the mode of every link without mode=:
//
//   ┌ Attention Lab ───── Y = softmax( QKᵀ / √d_k + M ) V ─────────────────────────┐
//   │ Controls            │ Scores QKᵀ                  │ Weights softmax(·)       │
//   │─────────────────────│                             │                          │
//   │ Tokens and vectors  │─────────────────────────────┴──────────────────────────│
//   │ (q, k, v sliders)   │ Mask M              │ Output Y = A V                   │
//   └─────────────────────┴─────────────────────┴──────────────────────────────────┘
// On narrow displays (phones) the panels stack in one scrolling column.
#pragma once

#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"
#include "ui/widgets/matrix_painter.hpp"

namespace ui {

// Build this frame's UI (between ImGui::NewFrame and ImGui::Render). Edits go to `state`.
void draw_screen(AppState& state, MatrixPainter& painter, const Fonts& fonts);

}  // namespace ui
