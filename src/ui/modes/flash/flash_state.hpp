// flash_state.hpp — the FlashAttention mode's state: which tile is on screen and the core's record
// of the pass up to it (core/online). Plain C++, no ImGui: unit-tested (tests/steppers_test.cpp).
//
// The panels read it; they never recompute math. It follows the scene: after an edit the same step
// is shown for the edited numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/online.hpp"
#include "scene/scene.hpp"

namespace ui {

struct FlashStepper {
  int block = 2;  // B, tokens per block (clamped to 1 … n)
  int step = 0;   // tiles done: 0 = before the first, pass->step_count() = finished
  bool playing = false;
  double play_clock = 0;  // seconds since the last automatic step

  // --- kept in sync by flash_update
  std::optional<attn::OnlinePass> pass;  // advanced to `step`
  attn::OnlineStep last;                 // the record of the tile just done (empty when step = 0)
  attn::Matrix partial;                  // n×d_v  O / ℓ now: the output if the keys stopped here
  double max_abs_diff = 0;               // once finished: max |online − naive| over the output
  std::uint64_t version = 0;             // result version the pass was built from
  int built_block = 0;
  // --- for drawing, built with the pass (once per result and block size, not every frame: at
  // n = 1024 and B = 2 there are 512² tiles and n² cells)
  std::vector<std::uint8_t> hidden;  // blocks×blocks, row-major: 1 where pass->tile_hidden(rb, cb)
  double scaled_max = 1e-9;          // the largest |scaled score| over allowed cells: the m bars' scale

  bool finished() const { return pass && step == pass->step_count(); }
};

// Show step `want` (clamped to 0 … step count) of the tiled pass over the scene's Q, K (turned by
// RoPE when on) and V. Rebuilds the pass when the result version or the block changed, or when
// going back; otherwise advances. `r` is the scene's full pass (the naive reference).
void flash_update(FlashStepper& f, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                  int want);

}  // namespace ui
