// modes.hpp — the table of the screen's modes: one row per mode of scene::link::kModes, in its
// order, saying what the mode bar's tab is called, what the mode does once per frame before it is
// drawn, and how it lays out its panels. The mode bar, the frame and the page API read it.
//
// A mode is one folder and one row. To add one (say "circuits"):
//   1. src/scene/link.hpp: a value in `enum class Mode` and a row in `kModes`
//        {Mode::Circuits, "circuits", "Circuits"}   // name: the link's mode=circuits
//      (links parse and write mode=circuits from then on; add a round trip to tests/link_test.cpp).
//   2. src/ui/text/i18n.hpp: a key `ModeCircuits` for the tab's label, and its words in every
//      language table (i18n_en.cpp, i18n_es.cpp, i18n_de.cpp; tests/i18n_test.cpp checks them).
//   3. src/ui/modes/circuits/: circuits.hpp declaring `void layout_circuits(Screen&)` (and a tick if
//      the mode advances by itself), circuits_layout.cpp placing panels with the Screen
//      (frame/screen.hpp: screen.controls(pos, size), screen.heatmap(…), screen.panel("Name",
//      draw_fn, pos, size) for a panel that only draws itself; geometry in frame/layout_parts.hpp),
//      the mode's own panels, and circuits_state.hpp (plain structs) as a member of UiState.
//      Lay it out for 1280×720 and a phone (screen.narrow), and look at both screenshots.
//   4. modes.cpp: its row in kModeTable; src/ui/CMakeLists.txt: its sources.
//   5. The tab's widget id is mode/circuits (widgetRect, --rects): list it in docs/PAGE_API.md;
//      getState().ui.mode says "circuits".
//   6. docs/ARCHITECTURE.md's checklist goes on: a page-API call for the mode's numbers, a link key
//      when the mode shows more than the scene, and the download: the web's first load holds Explore
//      and Walk only (AL_ALL_MODES=0), so the row's functions go in AL_IN_FULL_BUILD(…) and the mode's
//      name in web/share.js's kFullBuildModes.
#pragma once

#include <string>

#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/text/i18n.hpp"

namespace ui {

struct Screen;

struct ModeEntry {
  Mode mode;
  Text label;               // the mode bar's tab, in the language tables
  void (*layout)(Screen&);  // places the mode's panels below the top bar; nullptr: not in this build
  void (*tick)(AppState&);  // once per frame before the layout (Play, training), or nullptr
};

// The row of `mode` (every mode of scene::link::kModes has one).
const ModeEntry& mode_entry(Mode mode);
// Whether this build holds the mode: every build but the web's first load, which holds Explore and
// Walk (its other tabs load the build with every mode: Sharing::open_mode).
bool mode_in_build(Mode mode);
// The mode's tab label in the current language.
std::string mode_label(Mode mode);
// Once per frame before anything is drawn: the mode's tick (Play, training), if it has one.
void mode_tick(AppState& state);
// The mode's layout of its panels (a mode not in this build: Explore's, and the page asked to load
// the build that has it).
void draw_mode_layout(Screen& screen);

}  // namespace ui
