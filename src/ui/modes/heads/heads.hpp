// heads.hpp — the Heads mode: the heads side by side. Its panels are shared (a multi-head scene
// shows its heads in every mode: panels/heads_panel.cpp); the mode is its layout (heads_layout.cpp).
#pragma once

namespace ui {

struct Screen;

void layout_heads(Screen& screen);

}  // namespace ui
