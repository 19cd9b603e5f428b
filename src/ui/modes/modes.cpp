// modes.cpp — the table of modes (see modes.hpp).
#include "ui/modes/modes.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

#include "ui/modes/explore/explore.hpp"
#include "ui/modes/screen.hpp"
#include "ui/modes/walk/walk_mode.hpp"
#if AL_ALL_MODES
#include "scene/variant_keys.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/modes/flash/flash.hpp"
#include "ui/modes/heads/heads.hpp"
#include "ui/modes/keyspace/keyspace.hpp"
#include "ui/modes/layout_parts.hpp"
#include "ui/modes/model/model_mode.hpp"
#include "ui/modes/train/train_mode.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/widgets/recorded.hpp"
#include "ui/widgets/wrapped_text.hpp"
#endif

namespace ui {
namespace {

// The web's first load (AL_ALL_MODES=0, the top CMakeLists.txt) holds Explore and Walk; the other
// modes' rows have no layout there: their tabs load the build with every mode (Sharing::open_mode).
#if AL_ALL_MODES
#define AL_IN_FULL_BUILD(fn) fn
#else
#define AL_IN_FULL_BUILD(fn) nullptr
#endif

// The --rects file and the command line are the desktop's (the web reads the same through its page
// calls and its link): the web's builds leave the rows' page_rects and flags out.
#ifdef __EMSCRIPTEN__
#define AL_RECTS(fn) nullptr
#define AL_FLAGS(array) \
  ModeFlags {}
#else
#define AL_RECTS(fn) fn
#define AL_FLAGS(array) flags_of(array)
template <std::size_t N>
constexpr ModeFlags flags_of(const ModeFlag (&array)[N]) {
  return {array, array + N};
}
#endif

// A row with a tab and a layout; the modes with more hooks fill them in below.
constexpr ModeEntry row(Mode mode, Text label, void (*layout)(Screen&)) {
  ModeEntry m;
  m.mode = mode;
  m.label = label;
  m.layout = layout;
  return m;
}

constexpr ModeEntry walk_row() {
  ModeEntry m = row(Mode::Walk, Text::ModeWalk, layout_walk);
  m.cross_attention = true;    // its steps follow one query row over the m keys
  m.lit_term = walk_term_lit;  // the step's terms, panels and followed row
  m.lit_panel = walk_panel_lit;
  m.lit_row = walk_lit_row;
  m.start = start_walk;  // its tab starts at the first step
  m.tab_id = "walk/start";
  m.keys = handle_walk_keys;  // ←/→ step; Esc closes the quiz (from any mode) or leaves the walk
  m.overlay = draw_quiz_window;
  m.bar_button_width = quiz_button_width;  // "Check yourself", from any mode
  m.bar_button = draw_quiz_button;
  m.open_question = open_quiz;
  m.apply_start = walk_apply_start;  // step=, --step, --quiz
  m.page_state = walk_page_state;    // getState().ui.step
  m.page_call = walk_page_call;      // getStep, setStep, getQuiz, openQuiz
  m.page_rects = AL_RECTS(walk_page_rects);
  m.link_step = walk_link_step;    // step=
  m.flags = AL_FLAGS(kWalkFlags);  // --step, --quiz
  return m;
}

constexpr ModeEntry explore_row() {
  ModeEntry m = row(Mode::Explore, Text::ModeExplore, layout_explore);
  m.cross_attention = true;
  return m;
}

constexpr ModeEntry heads_row() {
  ModeEntry m = row(Mode::Heads, Text::ModeHeads, AL_IN_FULL_BUILD(layout_heads));
  m.heads_control = true;
  m.cross_attention = true;
  return m;
}

constexpr ModeEntry keyspace_row() {
  ModeEntry m = row(Mode::KeySpace, Text::ModeKeySpace, AL_IN_FULL_BUILD(layout_keyspace));
  m.cross_attention = true;  // the queries and the m sources' keys in one plane
  return m;
}

constexpr ModeEntry ticking_row(Mode mode, Text label, void (*layout)(Screen&), void (*tick)(AppState&)) {
  ModeEntry m = row(mode, label, layout);
  m.tick = tick;
  return m;
}

// FlashAttention and Decode: a step the page reads in getState().ui (null until shown).
constexpr ModeEntry stepping_row(Mode mode, Text label, void (*layout)(Screen&), void (*tick)(AppState&),
                                 void (*page_state)(const AppState&, PageJson&)) {
  ModeEntry m = ticking_row(mode, label, layout, tick);
  m.page_state_key = true;
  m.page_state = page_state;
  return m;
}

constexpr ModeEntry train_row() {
  ModeEntry m =
      ticking_row(Mode::Train, Text::ModeTrain, AL_IN_FULL_BUILD(layout_train), AL_IN_FULL_BUILD(train_tick));
  m.page_call = AL_IN_FULL_BUILD(train_page_call);  // getTraining
  return m;
}

constexpr ModeEntry circuits_row() {
  ModeEntry m = ticking_row(Mode::Circuits, Text::ModeCircuits, AL_IN_FULL_BUILD(layout_circuits),
                            AL_IN_FULL_BUILD(circuits_tick));
  m.controls_rows = AL_IN_FULL_BUILD(draw_circuits_back);  // a head it opened in Explore: the way back
  m.apply_start = AL_IN_FULL_BUILD(circuits_apply_start);  // circuits=, --circuits
  m.page_call = AL_IN_FULL_BUILD(circuits_page_call);      // getCircuits, circuitsExport
  m.page_rects = AL_RECTS(AL_IN_FULL_BUILD(circuits_page_rects));
  m.link = AL_IN_FULL_BUILD(circuits_link);  // circuits=RECIPE&probe=…
#if AL_ALL_MODES
  m.flags = AL_FLAGS(kCircuitsFlags);  // --circuits, --circuits-probe
#endif
  m.cross_attention = true;  // its own model, not the scene
  return m;
}

constexpr ModeEntry model_row() {
  ModeEntry m =
      ticking_row(Mode::Model, Text::ModeModel, AL_IN_FULL_BUILD(layout_model), AL_IN_FULL_BUILD(model_tick));
  m.controls_rows = AL_IN_FULL_BUILD(draw_model_back);  // a head it opened in Explore: its prediction
  m.apply_start = AL_IN_FULL_BUILD(model_apply_start);  // lm=, --model-state, --model-text
  m.page_call = AL_IN_FULL_BUILD(model_page_call);      // getModel
  m.page_rects = AL_RECTS(AL_IN_FULL_BUILD(model_page_rects));
  m.link = AL_IN_FULL_BUILD(model_link_fragment);    // lm=…
  m.file = AL_IN_FULL_BUILD("models/fortunes.alm");  // the model, fetched on first use
  m.file_news = AL_IN_FULL_BUILD(model_file_news);
#if AL_ALL_MODES
  m.flags = AL_FLAGS(kModelFlags);  // --model, --model-state, --model-text
#endif
  m.cross_attention = true;  // its own model, not the scene
  return m;
}

// One mode a line, in the order of scene::link::kModes:
// clang-format off
constexpr ModeEntry kModeTable[] = {
    explore_row(),
    walk_row(),
    heads_row(),
    keyspace_row(),
    stepping_row(Mode::Flash,  Text::ModeFlash,  AL_IN_FULL_BUILD(layout_flash),  AL_IN_FULL_BUILD(flash_tick),
                 AL_IN_FULL_BUILD(flash_page_state)),
    stepping_row(Mode::Decode, Text::ModeDecode, AL_IN_FULL_BUILD(layout_decode), AL_IN_FULL_BUILD(decode_tick),
                 AL_IN_FULL_BUILD(decode_page_state)),
    train_row(),
    circuits_row(),
    model_row(),
};
// clang-format on
#undef AL_IN_FULL_BUILD
#undef AL_RECTS
#undef AL_FLAGS

constexpr bool same_order_as_link() {
  if (sizeof(kModeTable) / sizeof(kModeTable[0]) != std::size_t(scene::link::kModeCount)) return false;
  for (int i = 0; i < scene::link::kModeCount; ++i)
    if (kModeTable[i].mode != scene::link::kModes[i].mode) return false;
  return true;
}
static_assert(same_order_as_link(), "kModeTable needs one row per mode of scene::link::kModes, in its order");

}  // namespace

ModeRows mode_rows() {
  return {kModeTable, kModeTable + sizeof(kModeTable) / sizeof(kModeTable[0])};
}

const ModeEntry& mode_entry(Mode mode) {
  for (const ModeEntry& m : kModeTable)
    if (m.mode == mode) return m;
  return kModeTable[0];  // unreachable: the static_assert and the link's validation keep modes known
}

bool mode_in_build(Mode mode) {
  return mode_entry(mode).layout != nullptr;
}

std::string mode_label(Mode mode) {
  return tr(mode_entry(mode).label);
}

void mode_keys(AppState& state) {
  for (const ModeEntry& m : kModeTable)
    if (m.keys) m.keys(state);
}

void mode_tick(AppState& state) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  if (m.tick) m.tick(state);
}

void start_mode(AppState& state, Mode mode) {
  const ModeEntry& m = mode_entry(mode);
  if (m.start) {
    m.start(state);
    return;
  }
  state.ui.settings.mode = mode;
  if (state.sharing.scene_changed) state.sharing.scene_changed();  // the address carries the mode
}

void draw_mode_overlays(AppState& state, const Fonts& fonts) {
  for (const ModeEntry& m : kModeTable)
    if (m.overlay) m.overlay(state, fonts);
}

// What the shared panels ask of the modes (panels/panel_parts.hpp).
bool mode_lights_term(const AppState& state, Term term) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  return m.lit_term && m.lit_term(state, term);
}

bool mode_lights_panels(const AppState& state) {
  return mode_entry(state.ui.settings.mode).lit_panel != nullptr;
}

bool mode_lights_panel(const AppState& state, Panel panel) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  return !m.lit_panel || m.lit_panel(state, panel);
}

int mode_lit_row(const AppState& state) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  return m.lit_row ? m.lit_row(state) : -1;
}

bool mode_offers_heads(const AppState& state) {
  return mode_entry(state.ui.settings.mode).heads_control;
}

void open_check_question(AppState& state, int question) {
  for (const ModeEntry& m : kModeTable)
    if (m.open_question) m.open_question(state, question);
}

void draw_mode_controls_rows(AppState& state, const Fonts& fonts) {
  for (const ModeEntry& m : kModeTable)
    if (m.controls_rows) m.controls_rows(state, fonts);
}

#if AL_ALL_MODES
namespace {
// A mode that follows one sequence, shown with a cross-attention scene: a note saying so, and the way
// to the modes that show it.
void draw_cross_note(Screen& sc, Mode mode) {
  const float y = body_top(sc);
  if (!sc.open("CrossNote", ImVec2(sc.margin, y), ImVec2(sc.W - 2.0f * sc.margin, 7.0f * sc.em))) {
    sc.close();
    return;
  }
  wrapped_text(cross_mode_note(mode_label(mode)));
  ImGui::Spacing();
  for (Mode to : {Mode::Explore, Mode::Walk, Mode::Heads, Mode::KeySpace}) {
    const std::string id = "cross/" + std::string(scene::link::mode_name(to));
    if (button(sc.state, id, (mode_label(to) + "##" + id).c_str())) start_mode(sc.state, to);
    ImGui::SameLine();
  }
  ImGui::NewLine();
  sc.close();
}
}  // namespace
#endif

void draw_mode_layout(Screen& screen) {
  AppState& state = screen.state;
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
#if AL_ALL_MODES
  if (m.layout && !m.cross_attention && scene::is_cross_attention(state.scene)) {
    draw_cross_note(screen, m.mode);
    return;
  }
#endif
  if (m.layout) {
    m.layout(screen);
    return;
  }
  // A mode of the other build (the web's first load): the page loads that build in this mode, with
  // this scene; this frame shows Explore. (Tabs and links ask for it before; this catches the rest.)
  state.ui.settings.mode = scene::link::kDefaultMode;
  if (state.sharing.open_mode) state.sharing.open_mode(m.mode);
  layout_explore(screen);
}

bool page_int(std::string_view arg, int* out) {
  // A sign, then 1 to 9 digits (std::from_chars would link a second integer reader).
  std::size_t at = !arg.empty() && arg[0] == '-' ? 1 : 0;
  if (arg.size() <= at || arg.size() - at > 9) return false;
  int value = 0;
  for (std::size_t k = at; k < arg.size(); ++k) {
    if (arg[k] < '0' || arg[k] > '9') return false;
    value = value * 10 + (arg[k] - '0');
  }
  *out = at ? -value : value;
  return true;
}

#ifndef __EMSCRIPTEN__
std::string flag_whole_number(const std::string& value, int lo, int hi, int* out, const char* noun) {
  int v = 0;
  if (!value.empty() && value[0] != '-' && page_int(value, &v) && v >= lo && v <= hi) {
    *out = v;
    return "";
  }
  return std::string("expected a ") + noun + " from " + std::to_string(lo) + " to " + std::to_string(hi) +
         ", got \"" + value + "\"";
}
#endif

PageJson page_numbers(const double* values, std::size_t count) {
  PageJson out = PageJson::array();
  for (std::size_t i = 0; i < count; ++i)
    out.push_back(std::isinf(values[i]) ? PageJson(nullptr) : PageJson(values[i]));
  return out;
}

PageJson page_ok() {
  return {{"ok", true}};
}

PageJson page_fail(std::string error) {
  return {{"ok", false}, {"error", std::move(error)}};
}

PageJson page_call(AppState& state, std::string_view mode, std::string_view call, std::string_view arg) {
  const std::optional<Mode> m = scene::link::mode_from_name(mode);
  PageJson reply =
      m && mode_entry(*m).page_call ? mode_entry(*m).page_call(state, call, arg) : PageJson(nullptr);
  if (!reply.is_null()) return reply;
  // An unknown mode, a mode this build leaves out (the web's first load: the page loads the build
  // with every mode for it), or a call the mode does not answer.
  return page_fail(std::string(mode) + ": no call '" + std::string(call) + "' in this build");
}

void page_state_parts(const AppState& state, PageJson& ui) {
  for (const ModeEntry& m : kModeTable) {
    if (m.page_state)
      m.page_state(state, ui);
    else if (m.page_state_key)
      ui[std::string(scene::link::mode_name(m.mode))] = nullptr;
  }
}

void page_rects_parts(const AppState& state, PageJson& rects) {
  for (const ModeEntry& m : kModeTable)
    if (m.page_rects) m.page_rects(state, rects);
}

bool mode_link(const AppState& state, scene::link::MadeFragment& made) {
  for (const ModeEntry& m : kModeTable)
    if (m.link && m.link(state, made)) return true;
  return false;
}

int mode_link_step(const AppState& state) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  return m.link_step ? m.link_step(state) : 0;
}

void request_file(AppState& state, Mode mode) {
  const ModeEntry& m = mode_entry(mode);
  if (!m.file || !m.file_news) return;
  if (state.sharing.fetch_file) {
    state.sharing.fetch_file(mode, m.file);
    return;
  }
  FileNews news;
  news.kind = FileNews::Kind::Failed;
  news.bytes = "this build has no way to read a file";
  m.file_news(state, news);
}

void deliver_file(AppState& state, Mode mode, const FileNews& news) {
  const ModeEntry& m = mode_entry(mode);
  if (m.file_news) m.file_news(state, news);
}

}  // namespace ui
