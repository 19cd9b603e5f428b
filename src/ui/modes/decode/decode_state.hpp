// decode_state.hpp — the Decode mode's state: which token is decoded on screen and the core's record
// of the causal decode with a KV cache (core/kv_cache). Plain C++, no ImGui: unit-tested
// (tests/steppers_test.cpp).
//
// The panels read it; they never recompute math. It follows the scene: after an edit the same step
// is shown for the edited numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/kv_bill.hpp"
#include "core/kv_cache.hpp"
#include "scene/scene.hpp"

namespace ui {

// The KV-cache calculator's fields (core/kv_bill.hpp): a published shape or the learner's own.
struct KvCalculator {
  int preset = 0;  // index into attn::kv_presets(), −1 = the learner's own shape
  attn::KvShape shape = attn::kv_presets().front().shape;
  std::string error;  // check_kv_shape's sentence for the last refused edit ("" = none)
};

struct DecodeStepper {
  int t = 0;  // the token decoded last (0 … n−1)
  bool playing = false;
  double play_clock = 0;

  // The cache policy (core/kv_cache.hpp): keep all, the last w, or s sinks + the last w.
  attn::CachePolicy policy{attn::CacheKind::KeepAll, 4, 1};
  KvCalculator calculator;

  // --- kept in sync by decode_update: only step t, computed alone (core's decode_step: its cache is
  // the kept rows of K and V), never the n steps of the whole decode (at n = 1024 that was ~n²·d work
  // and n² numbers held, four times over, on every edit and on opening the mode)
  std::optional<attn::DecodeStep> step;  // step t of the causal decode under `policy`
  // What evicting token 0 does at step t (the sink comparison): step t with the cache
  // keeping all, the last w, and s sinks + the last w (w, s from `policy`, s ≥ 1).
  std::optional<attn::DecodeStep> step_all, step_last, step_sinks;
  attn::CachePolicy traced_policy;              // the policy the steps were computed with
  long long mults_with = 0, mults_without = 0;  // multiplies through step t, with / without cache
  long long total_with = 0, total_without = 0;  // … through the last step (the whole decode)
  std::uint64_t version = 0;
};

// The largest |a(j) − b(j)| of two steps' weights (0 when either is missing or they differ in size).
double max_weight_change(const std::optional<attn::DecodeStep>& a, const std::optional<attn::DecodeStep>& b);

// Show decode step `want` (clamped to 0 … n−1); recomputes the traces when the result or the
// policy changed.
void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want);

}  // namespace ui
