// sharing_state.hpp — the sharing side's state (AppState::sharing): which panels a link hides or
// shows full-size (hide= / view=), the demo gallery, and the platform's actions behind the Share
// buttons. Drawn and changed by ui/frame/sharing.cpp; the actions are set by the platform
// (src/app/web_share.cpp: web/share.js; src/app/desktop_platform.cpp: the path dialog).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scene/export.hpp"
#include "scene/link.hpp"

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
  // Whether `panel` is drawn: the one of view=, else every panel hide= leaves.
  bool shown(scene::link::Panel panel) const {
    if (view) return *view == panel;
    return !hidden[static_cast<std::size_t>(panel)];
  }

  // --- gallery
  std::vector<DemoInfo> demos;  // sent by the page (demos/index.json); desktop: bundled
  bool gallery_open = false;    // (the demo loaded last, highlighted: AppState::ui.settings.demo)

  // --- platform actions (empty: button not shown)
  std::function<void(const std::string& name)> open_demo;
  std::function<void()> copy_link, export_json, import_json, export_png;
  // The Export menu (scene/export): the web copies the text or downloads the SVG; the desktop
  // saves a file through its path dialog (`export_saves_files`: the menu says "Save …").
  std::function<void(scene::ExportKind kind, scene::ExportStage stage)> export_text;
  bool export_saves_files = false;
  // Save a text as a file named `name` (the Circuits mode's exports): the web downloads it, the
  // desktop saves it through its path dialog.
  std::function<void(const std::string& name, const std::string& text)> save_text;
  scene::ExportStage export_stage = scene::ExportStage::Weights;  // for LaTeX and SVG
  // Called once after each recompute (the scene changed) and when the mode changes: the page
  // updates its address bar.
  std::function<void()> scene_changed;
  // A build without every mode (the web's first load: Explore and Walk, ui/modes/modes.hpp): load
  // the build that has them, in `mode`, with this scene (the web reloads the page into
  // attention-lab-full.wasm). Unset: the modes this build lacks get no tab.
  std::function<void(scene::link::Mode mode)> open_mode;
  // Read a mode's file (its row's `file`, relative to the site's folder web/: the Model mode's model);
  // the platform reports through ui::deliver_file (modes/modes.hpp). The web fetches it with a
  // progress bar, the desktop reads it from disk. Unset: the mode is told at once that it cannot be.
  std::function<void(scene::link::Mode mode, const char* file)> fetch_file;

  // --- bookkeeping
  std::uint64_t seen_result_version = 0;  // the last AppState::result_version scene_changed saw
};

}  // namespace ui
