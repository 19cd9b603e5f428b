// sharing.hpp — the sharing side of the screen: which panels a link hides or shows full-size
// (hide= / view=), the Share buttons of the Controls panel (Copy link, Export/Import JSON, Export
// PNG, Gallery), and the demo gallery window.
//
// The actions themselves belong to the platform: on the web, src/app/web_share.cpp connects them
// to web/share.js (clipboard, downloads, file picker, fetching demos/NAME.json). A button whose
// action is not set (the desktop build) is not drawn.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/export.hpp"
#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/fonts.hpp"

namespace ui {

// One entry of web/demos/index.json.
struct DemoInfo {
  std::string name;         // file demos/NAME.json, link #demo=NAME
  std::string title;        // e.g. "Two keys tie"
  std::string description;  // one line: what it teaches
};

struct Sharing {
  // --- what a link asked for (hide=, view=)
  std::array<bool, scene::link::kPanelCount> hidden{};  // indexed by scene::link::Panel
  std::optional<scene::link::Panel> view;               // one panel full-size

  // --- gallery
  std::vector<DemoInfo> demos;  // sent by the page (demos/index.json); desktop: bundled
  bool gallery_open = false;    // (the demo loaded last, highlighted: AppState::ui.demo)

  // --- platform actions (empty: button not shown)
  std::function<void(const std::string& name)> open_demo;
  std::function<void()> copy_link, export_json, import_json, export_png;
  // The Export menu (scene/export): the web copies the text or downloads the SVG; the desktop
  // saves a file through its path dialog (`export_saves_files`: the menu says "Save …").
  std::function<void(scene::ExportKind kind, scene::ExportStage stage)> export_text;
  bool export_saves_files = false;
  scene::ExportStage export_stage = scene::ExportStage::Weights;  // for LaTeX and SVG
  // Called once after each recompute (the scene changed): the page updates its address bar.
  std::function<void()> scene_changed;

  // --- bookkeeping
  AppState* state = nullptr;  // the app's state, registered by draw_sharing each frame
  std::uint64_t seen_result_version = 0;
};

// The one sharing state of the program (there is one screen).
Sharing& sharing();

// Is `panel` drawn? Not when hidden, nor when another panel is shown full-size.
bool panel_shown(scene::link::Panel panel);

// Set hide= / view= (from a parsed link). The full-size panel is never hidden.
void set_panel_visibility(const std::vector<scene::link::Panel>& hide,
                          std::optional<scene::link::Panel> view);
// Current hide= list (in enum order).
std::vector<scene::link::Panel> hidden_panels();

// Parse demos/index.json: [{"name","title","description"}, …]. Returns "" or an error naming the entry.
std::string set_demo_index(std::string_view json_text);

// After a demo's scene has been loaded: the picker names it (AppState::ui.demo and its title from
// the index; load_scene clears both again).
void note_demo_loaded(AppState& state, const std::string& name);
// Load demo `name` from its scene JSON text (the desktop's bundled demos): the scene as setState
// would load it, then note_demo_loaded. "" or the error (also in state.error), scene kept.
std::string load_demo(AppState& state, const std::string& name, std::string_view json_text);

// Inside the Controls panel: "Share" row (Copy link, Export JSON, Import JSON, Export PNG, Gallery,
// and the Export… menu: NumPy, PyTorch, LaTeX and SVG of a chosen stage).
void draw_share_buttons(AppState& state, const Fonts& fonts);

// Once per frame after the panels: the gallery window (when open), and the scene-changed notice.
void draw_sharing(AppState& state, const Fonts& fonts);

}  // namespace ui
