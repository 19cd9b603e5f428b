// modes.hpp — the table of the screen's modes: one row per mode of scene::link::kModes, in its
// order, saying what the mode bar's tab is called, how the mode lays out its panels, and its optional
// hooks (its tick, keys, highlights, a window over the panels, …). The mode bar, the frame, the
// Screen, the shared panels and the page API read it.
//
// A mode is one folder and one row. To add one (say "circuits"):
//   1. src/scene/link.hpp: a value in `enum class Mode` and a row in `kModes`
//        {Mode::Circuits, "circuits", "Circuits"}   // name: the link's mode=circuits
//      (links parse and write mode=circuits from then on; add a round trip to tests/link_test.cpp).
//   2. src/ui/text/i18n.hpp: a key `ModeCircuits` for the tab's label, and its words in every
//      language table (i18n_en.cpp, i18n_es.cpp, i18n_de.cpp; tests/i18n_test.cpp checks them).
//      A mode of the build with every mode puts its other keys after the marker FullBuildTexts and
//      their English in i18n_en_full.cpp: the web's first load then carries only its tab's name
//      (tests/first_load_texts_test.py).
//   3. src/ui/modes/circuits/: circuits.hpp declaring `void layout_circuits(Screen&)` (and a tick if
//      the mode advances by itself), circuits_layout.cpp placing panels with the Screen
//      (modes/screen.hpp: screen.controls(pos, size), screen.heatmap(…), screen.panel("Name",
//      draw_fn, pos, size) for a panel that only draws itself; geometry in modes/layout_parts.hpp),
//      the mode's own panels, and circuits_state.hpp (plain structs) as a member of UiState.
//      Lay it out for 1280×720 and a phone (screen.narrow), and look at both screenshots.
//   4. modes.cpp: its row in kModeTable, with the hooks it needs (ModeEntry below); nothing outside
//      its folder names it (tests/include_layers_test.py); src/ui/CMakeLists.txt: its sources.
//   5. The tab's widget id is mode/circuits (widgetRect, --rects): list it in docs/PAGE_API.md;
//      getState().ui.mode says "circuits".
//   6. docs/ARCHITECTURE.md's checklist goes on: a page-API call for the mode's numbers (the row's
//      page_call, in its folder's <mode>_page.cpp), a link key when the mode shows more than the scene
//      (a ui::LinkStart field, applied by the row's apply_start hook, written by its link hook), and
//      the download: the web's first load holds Explore
//      and Walk only (AL_ALL_MODES=0), so the row's functions go in AL_IN_FULL_BUILD(…) and the mode's
//      name in web/share.js's kFullBuildModes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/link_start.hpp"
#include "ui/look/fonts.hpp"
#include "ui/text/i18n.hpp"

namespace ui {

struct Screen;

// The page API's JSON (app/page_api.hpp's Json): keys in the order written.
using PageJson = nlohmann::ordered_json;

// A file a mode reads on first use (the Model mode's model), as the platform reports it: progress
// while it arrives, then the bytes, or why it could not be read.
struct FileNews {
  enum class Kind { Progress, Loaded, Failed } kind = Kind::Progress;
  float progress = 0.0f;   // Progress: the share received, 0…1
  std::string_view bytes;  // Loaded: the file; Failed: why ("model file: …")
};

// A flag of the desktop app's command line that starts a mode: the mode's own words, as a link's keys
// are, so that the command line's parser (app/desktop_options.cpp) names no mode. The web has no
// command line: its builds leave the rows' flags out.
struct ModeFlag {
  const char* name = nullptr;        // "--circuits"
  const char* value_name = nullptr;  // "RECIPE", in --help
  const char* help = nullptr;        // its line of --help
  // Checks the value and writes what it starts into `start`: "" or the reason ("expected …").
  // nullptr: the value is the path the desktop reads the mode's `file` from (--model PATH).
  std::string (*apply)(const std::string& value, LinkStart& start) = nullptr;
};
struct ModeFlags {
  const ModeFlag* first = nullptr;
  const ModeFlag* last = nullptr;
  const ModeFlag* begin() const { return first; }
  const ModeFlag* end() const { return last; }
};
// "" when `value` is a whole decimal number in [lo, hi] (then *out holds it), else "expected a whole
// number from lo to hi, got "value"" (`noun` in place of "whole number": "whole percentage").
std::string flag_whole_number(const std::string& value, int lo, int hi, int* out,
                              const char* noun = "whole number");

// A mode's row: its tab, its layout, and hooks, each optional (nullptr: none), so that the frame, the
// top bar, the Screen and the shared panels name no mode. A panel asks through panels/panel_parts.hpp
// (mode_lights_term, …), the frame and the top bar through the functions below.
struct ModeEntry {
  Mode mode = scene::link::kDefaultMode;
  Text label{};  // the mode bar's tab, in the language tables
  // Places the mode's panels below the top bar; nullptr: not in this build.
  void (*layout)(Screen&) = nullptr;
  // --- while the mode is shown
  void (*tick)(AppState&) = nullptr;                  // once per frame before the layout (Play, training)
  bool (*lit_term)(const AppState&, Term) = nullptr;  // formula terms it lights while nothing is hovered
  bool (*lit_panel)(const AppState&, scene::link::Panel) = nullptr;  // it lights its panels, dims the others
  int (*lit_row)(const AppState&) = nullptr;  // the query row the grids mark (≥ 0), or none
  bool heads_control = false;                 // the Controls panel offers the heads even for one head
  // It can be shown with a cross-attention scene (n queries, m sources: n×m grids), or draws no scene;
  // the others follow one sequence and show a note in its place.
  bool cross_attention = false;
  // --- entering it from its tab (default: the mode is set and the address follows)
  void (*start)(AppState&) = nullptr;
  const char* tab_id = nullptr;  // a second widget id its tab is recorded under ("walk/start")
  // --- a link or the command line applied (app::apply_start), after the scene, the look and the mode
  void (*apply_start)(AppState&, const LinkStart&) = nullptr;  // its part: a recipe, a step, …
  // --- whichever mode is shown (a mode's state lives on while another is shown)
  void (*keys)(AppState&) = nullptr;                         // its keys, before anything is drawn
  void (*overlay)(AppState&, const Fonts&) = nullptr;        // a window over the panels (the quiz)
  float (*bar_button_width)() = nullptr;                     // a button at the mode bar's right end …
  void (*bar_button)(AppState&) = nullptr;                   // … and drawing it (the quiz's)
  void (*open_question)(AppState&, int question) = nullptr;  // a check question clicked: open it
  void (*controls_rows)(AppState&, const Fonts&) = nullptr;  // rows at the top of the Controls panel
  // --- its part of the page API (app/page_api.cpp: window.attentionLab, the desktop's --rects file)
  // Its keys in getState().ui (the walk's "step", FlashAttention's "flash": its step); with
  // `page_state_key` a key of its name that is null in a build without the mode.
  bool page_state_key = false;
  void (*page_state)(const AppState&, PageJson& ui) = nullptr;
  // The page's calls to it (al_mode_call(<its name>, call, arg)): the reply, or null for a call it does
  // not know (page_call() says so). Calls named get… only read ("get": its numbers); any other call
  // may change the screen, and the platform draws a frame after it.
  PageJson (*page_call)(AppState&, std::string_view call, std::string_view arg) = nullptr;
  void (*page_rects)(const AppState&, PageJson& rects) = nullptr;  // what it adds to the --rects file
  // The address while it is shown (or its head is opened in Explore): a fragment of its own (the
  // Circuits recipe, the Model mode's lm=), true; false: the scene's ordinary link.
  bool (*link)(const AppState&, scene::link::MadeFragment& made) = nullptr;
  int (*link_step)(const AppState&) = nullptr;  // the scene link's step= while it is shown (0: none)
  // --- a file it reads on first use (`file`, relative to the site's folder web/): asked for with
  // request_file(state, mode), delivered by the platform through file_news.
  const char* file = nullptr;
  void (*file_news)(AppState&, const FileNews&) = nullptr;
  // --- the desktop's command-line flags that start it (--step, --circuits, --model-text, …)
  ModeFlags flags{};
};

// Every row, in the order of scene::link::kModes (for (const ModeEntry& m : mode_rows())).
struct ModeRows {
  const ModeEntry* first;
  const ModeEntry* last;
  const ModeEntry* begin() const { return first; }
  const ModeEntry* end() const { return last; }
};
ModeRows mode_rows();
// The row of `mode` (every mode of scene::link::kModes has one).
const ModeEntry& mode_entry(Mode mode);
// Whether this build holds the mode: every build but the web's first load, which holds Explore and
// Walk (its other tabs load the build with every mode: Sharing::open_mode).
bool mode_in_build(Mode mode);
// The mode's tab label in the current language.
std::string mode_label(Mode mode);
// Once per frame before anything is drawn: every mode's keys, then the shown mode's tick (Play,
// training), if it has one.
void mode_keys(AppState& state);
void mode_tick(AppState& state);
// A tab clicked: enter `mode` (its start hook, else set it and tell the page the address changed).
void start_mode(AppState& state, Mode mode);
// After the panels: every mode's window over them (the quiz, when open).
void draw_mode_overlays(AppState& state, const Fonts& fonts);
// The mode's layout of its panels (a mode not in this build: Explore's, and the page asked to load
// the build that has it).
void draw_mode_layout(Screen& screen);

// --- the page API's side (app/page_api.cpp, the platforms)
// The page's call `call` to the mode called `mode` (al_mode_call): its reply, or a fail naming what
// is unknown (the mode, a mode this build lacks, the call).
PageJson page_call(AppState& state, std::string_view mode, std::string_view call, std::string_view arg);
// An integer argument of a call ("3", "-1"): false for anything else.
bool page_int(std::string_view arg, int* out);
// Numbers as a JSON array, −∞ (a running max before any allowed key) as null.
PageJson page_numbers(const double* values, std::size_t count);
PageJson page_ok();
PageJson page_fail(std::string error);
// getState().ui's keys of the modes with a step of their own, in the table's order.
void page_state_parts(const AppState& state, PageJson& ui);
// The --rects file's parts of the modes, in the table's order.
void page_rects_parts(const AppState& state, PageJson& rects);
// The address of the mode shown, when it has a link of its own (Circuits, Model): true and `made`.
bool mode_link(const AppState& state, scene::link::MadeFragment& made);
// The scene link's step= (1-based; 0: none): the walk's step while it is shown.
int mode_link_step(const AppState& state);
// A mode's file: the platform fetches it (Sharing::fetch_file) and reports through deliver_file; a
// platform that cannot fetch it reports Failed at once.
void request_file(AppState& state, Mode mode);
void deliver_file(AppState& state, Mode mode, const FileNews& news);

}  // namespace ui
