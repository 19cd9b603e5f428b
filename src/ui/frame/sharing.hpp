// sharing.hpp — the sharing side of the screen: which panels a link hides or shows full-size
// (hide= / view=), the Share buttons of the Controls panel (Copy link, Export/Import JSON, Export
// PNG, Gallery), and the demo gallery window. Its state is AppState::sharing (sharing_state.hpp).
//
// The actions themselves belong to the platform: on the web, src/app/web_share.cpp connects them
// to web/share.js (clipboard, downloads, file picker, fetching demos/NAME.json); on the desktop,
// desktop_platform.cpp to its path dialog. A button whose action is not set is not drawn.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/look/fonts.hpp"

namespace ui {

// Is `panel` drawn? Not when hidden, nor when another panel is shown full-size.
bool panel_shown(const AppState& state, scene::link::Panel panel);

// Set hide= / view= (from a parsed link). The full-size panel is never hidden.
void set_panel_visibility(AppState& state, const std::vector<scene::link::Panel>& hide,
                          std::optional<scene::link::Panel> view);
// Current hide= list (in enum order).
std::vector<scene::link::Panel> hidden_panels(const AppState& state);

// Parse demos/index.json: [{"name","title","description"}, …]. Returns "" or an error naming the entry.
std::string set_demo_index(AppState& state, std::string_view json_text);

// After a demo's scene has been loaded: the picker names it (AppState::ui.settings.demo and its title from
// the index; load_scene clears both again).
void note_demo_loaded(AppState& state, const std::string& name);
// Load demo `name` from its scene JSON text (the desktop's bundled demos): the scene as setState
// would load it, then note_demo_loaded. "" or the error (also in state.error), scene kept.
std::string load_demo(AppState& state, const std::string& name, std::string_view json_text);

// Once per frame after the panels: the gallery window (when open), and the scene-changed notice.
void draw_sharing(AppState& state, const Fonts& fonts);

}  // namespace ui
