// explore_layout.cpp — the Explore mode: every panel at once (modes/panels_layout.cpp).
#include "ui/modes/explore/explore.hpp"
#include "ui/modes/panels_layout.hpp"

namespace ui {

void layout_explore(Screen& sc) {
  layout_panels(sc, nullptr);
}

}  // namespace ui
