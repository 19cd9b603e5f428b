// desktop_demos.hpp — the gallery's demos in the desktop app: web/demos/*.json, bundled into the
// executable at build time (generated demos_bundle.hpp), so the desktop Gallery shows the same
// demos, titles and descriptions as the web page.
#pragma once

#include <string>

#include "ui/app_state.hpp"

namespace app {

// Give state.sharing the bundled index (demos/index.json) and an open_demo action that loads a
// bundled demo into `state` (the Gallery button appears).
void install_bundled_demos(ui::AppState& state);

// Load bundled demo `name` into `state`: "" or the problem (unknown name, with the known ones).
std::string open_bundled_demo(ui::AppState& state, const std::string& name);

}  // namespace app
