// modes.cpp — the table of modes (see modes.hpp).
#include "ui/modes/modes.hpp"

#include <cstddef>

#include "ui/frame/screen.hpp"
#include "ui/modes/explore/explore.hpp"
#include "ui/modes/walk/walk_mode.hpp"
#if AL_ALL_MODES
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/modes/flash/flash.hpp"
#include "ui/modes/heads/heads.hpp"
#include "ui/modes/keyspace/keyspace.hpp"
#include "ui/modes/train/train_mode.hpp"
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

// One mode a line, in the order of scene::link::kModes:
// clang-format off
constexpr ModeEntry kModeTable[] = {
    {Mode::Explore,  Text::ModeExplore,  layout_explore,                    nullptr},
    {Mode::Walk,     Text::ModeWalk,     layout_walk,                       nullptr},
    {Mode::Heads,    Text::ModeHeads,    AL_IN_FULL_BUILD(layout_heads),    nullptr},
    {Mode::KeySpace, Text::ModeKeySpace, AL_IN_FULL_BUILD(layout_keyspace), nullptr},
    {Mode::Flash,    Text::ModeFlash,    AL_IN_FULL_BUILD(layout_flash),    AL_IN_FULL_BUILD(flash_tick)},
    {Mode::Decode,   Text::ModeDecode,   AL_IN_FULL_BUILD(layout_decode),   AL_IN_FULL_BUILD(decode_tick)},
    {Mode::Train,    Text::ModeTrain,    AL_IN_FULL_BUILD(layout_train),    AL_IN_FULL_BUILD(train_tick)},
    {Mode::Circuits, Text::ModeCircuits, AL_IN_FULL_BUILD(layout_circuits), AL_IN_FULL_BUILD(circuits_tick)},
};
// clang-format on
#undef AL_IN_FULL_BUILD

constexpr bool same_order_as_link() {
  if (sizeof(kModeTable) / sizeof(kModeTable[0]) != std::size_t(scene::link::kModeCount)) return false;
  for (int i = 0; i < scene::link::kModeCount; ++i)
    if (kModeTable[i].mode != scene::link::kModes[i].mode) return false;
  return true;
}
static_assert(same_order_as_link(), "kModeTable needs one row per mode of scene::link::kModes, in its order");

}  // namespace

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

void mode_tick(AppState& state) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  if (m.tick) m.tick(state);
}

void draw_mode_layout(Screen& screen) {
  AppState& state = screen.state;
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
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

}  // namespace ui
