// traces.hpp — the step-by-step passes of a scene (FlashAttention tiles, KV-cache decode) and their
// JSON form for the CLI. Numbers are printed so they read back bit for bit; −∞ (a running max
// before any allowed cell) is printed as null.
#pragma once

#include <string>

#include "core/kv_cache.hpp"
#include "core/online.hpp"
#include "scene/scene.hpp"

namespace scene {

// The core options of a scene's head `head` (0-based): scale, causal, custom mask, window, sinks
// and, with ALiBi, that head's slope 2^(−8(head+1)/h).
attn::Options options_of(const Scene& s, int head = 0);

// The multi-head variants of a scene: H_kv and ALiBi (core/heads.hpp).
attn::HeadsOptions heads_options_of(const Scene& s);

// One FlashAttention step as a one-line JSON object:
//   {"row_block","col_block","skipped","m","l","rescale","O"}   (m: null where −∞)
std::string online_step_json(const attn::OnlineStep& step);

// One decode step as a one-line JSON object: {"t","cache_len","weights","output"} (flat arrays),
// with a cache policy also "kept" (the cached positions) and "evicted" (the position dropped in
// this step, if any), after "cache_len".
std::string decode_step_json(const attn::DecodeStep& step, bool with_policy = false);

// A matrix as JSON rows: one line, or (indent ≥ 0) one row per line indented by 2·indent spaces
// and closed at indent spaces, as result_to_json prints matrices.
std::string matrix_rows_json(const attn::Matrix& m, int indent);

// A number as JSON (shortest text that reads back as the same double).
std::string number_json(double x);

}  // namespace scene
