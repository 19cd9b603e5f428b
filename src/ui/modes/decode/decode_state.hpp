// decode_state.hpp — the Decode mode's state: which token is decoded on screen and the core's record
// of the causal decode with a KV cache (core/kv_cache). Plain C++, no ImGui: unit-tested
// (tests/steppers_test.cpp).
//
// The panels read it; they never recompute math. It follows the scene: after an edit the same step
// is shown for the edited numbers.
#pragma once

#include <cstdint>
#include <optional>

#include "core/kv_cache.hpp"
#include "scene/scene.hpp"

namespace ui {

struct DecodeStepper {
  int t = 0;  // the token decoded last (0 … n−1)
  bool playing = false;
  double play_clock = 0;

  // --- kept in sync by decode_update
  std::optional<attn::DecodeResult> trace;      // every step of the causal decode
  long long mults_with = 0, mults_without = 0;  // multiplies through step t, with / without cache
  std::uint64_t version = 0;
};

// Show decode step `want` (clamped to 0 … n−1); recomputes the trace when the result changed.
void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want);

}  // namespace ui
