// flash_page.cpp — FlashAttention's part of the page API: getState().ui.flash (its row's page_state
// hook, modes/modes.cpp).
#include "ui/modes/flash/flash.hpp"

namespace ui {

// "flash": {"block", "step", "steps", "finished", "m", "l", "max_abs_diff"} (m null where −∞), null
// until the mode has been shown.
void flash_page_state(const AppState& state, PageJson& ui) {
  const FlashStepper& f = state.ui.flash;
  if (!f.pass) {
    ui["flash"] = nullptr;
    return;
  }
  const std::vector<double>&m = f.pass->m(), &l = f.pass->l();
  ui["flash"] = {{"block", f.pass->block()},
                 {"step", f.step},
                 {"steps", f.pass->step_count()},
                 {"finished", f.finished()},
                 {"m", page_numbers(m.data(), m.size())},
                 {"l", page_numbers(l.data(), l.size())},
                 {"max_abs_diff", f.max_abs_diff}};
}

}  // namespace ui
