// start.cpp — the one door from outside (start.hpp): a link's or the command line's view, mode and
// mode states applied in one order on the web and the desktop.
#include "app/start.hpp"

#include <algorithm>

#if AL_ALL_MODES
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/model/model_mode.hpp"
#endif
#include "ui/modes/walk/walk_mode.hpp"

namespace app {

void apply_start(ui::AppState& state, const Start& start) {
  if (start.theme) state.ui.settings.theme = start.theme;
  if (start.zoom) ui::set_zoom(state.ui, *start.zoom);
  if (!start.lang.empty()) state.ui.settings.lang = start.lang;
  if (start.mode) state.ui.settings.mode = *start.mode;
#if AL_ALL_MODES
  if (start.circuits) ui::circuits_load_recipe(state, *start.circuits, start.circuits_at_once);
  // The Model mode's state is applied when its model has loaded, which showing or linking it starts.
  if (start.model) ui::model_apply_link(state, *start.model);
  if (!start.model_text.empty()) ui::model_set_text(state, start.model_text);
  if (start.model || state.ui.settings.mode == scene::link::Mode::Model) ui::model_request_load(state);
#endif
  if (start.step > 0) {
    // The walk's steps depend on the result: bring it up to date first.
    ui::recompute_if_dirty(state);
    const int count = ui::walk_count(state);
    ui::set_walk_step(state, std::clamp(start.step > 0 ? start.step - 1 : 0, 0, count - 1), /*notify=*/false);
  }
  if (start.quiz > 0) ui::open_quiz(state, start.quiz - 1);
}

}  // namespace app
