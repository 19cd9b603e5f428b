// start.cpp — the one door from outside (start.hpp): a link's or the command line's view, mode and
// mode parts applied in one order on the web and the desktop; it names no mode (the table's hooks do).
#include "app/start.hpp"

#include "ui/modes/modes.hpp"

namespace app {

void apply_start(ui::AppState& state, const ui::LinkStart& start) {
  if (start.theme) state.ui.settings.theme = start.theme;
  if (start.zoom) ui::set_zoom(state.ui, *start.zoom);
  if (!start.lang.empty()) state.ui.settings.lang = start.lang;
  if (start.mode) state.ui.settings.mode = *start.mode;
  for (const ui::ModeEntry& m : ui::mode_rows()) {
    if (m.apply_start) m.apply_start(state, start);
  }
}

}  // namespace app
