// modes.cpp — the table of modes (see modes.hpp).
#include "ui/modes/modes.hpp"

#include <cstddef>

#include "ui/frame/screen.hpp"
#if AL_CIRCUITS_MODE
#include "ui/modes/circuits/circuits.hpp"
#endif
#include "ui/modes/decode/decode.hpp"
#include "ui/modes/explore/explore.hpp"
#include "ui/modes/flash/flash.hpp"
#include "ui/modes/heads/heads.hpp"
#include "ui/modes/keyspace/keyspace.hpp"
#include "ui/modes/train/train_mode.hpp"
#include "ui/modes/walk/walk_mode.hpp"

namespace ui {
namespace {

// One mode a line, in the order of scene::link::kModes:
// clang-format off
constexpr ModeEntry kModeTable[] = {
    {Mode::Explore,  Text::ModeExplore,  layout_explore,  nullptr},
    {Mode::Walk,     Text::ModeWalk,     layout_walk,     nullptr},
    {Mode::Heads,    Text::ModeHeads,    layout_heads,    nullptr},
    {Mode::KeySpace, Text::ModeKeySpace, layout_keyspace, nullptr},
    {Mode::Flash,    Text::ModeFlash,    layout_flash,    flash_tick},
    {Mode::Decode,   Text::ModeDecode,   layout_decode,   decode_tick},
    {Mode::Train,    Text::ModeTrain,    layout_train,    train_tick},
#if AL_CIRCUITS_MODE
    {Mode::Circuits, Text::ModeCircuits, layout_circuits, circuits_tick},
#endif
};
// clang-format on

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

std::string mode_label(Mode mode) {
  return tr(mode_entry(mode).label);
}

void mode_tick(AppState& state) {
  const ModeEntry& m = mode_entry(state.ui.settings.mode);
  if (m.tick) m.tick(state);
}

void draw_mode_layout(Screen& screen) {
  mode_entry(screen.state.ui.settings.mode).layout(screen);
}

}  // namespace ui
