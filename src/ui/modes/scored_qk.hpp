// scored_qk.hpp — the Q and K the scores are made of, for the steppers (FlashAttention, Decode):
// with RoPE the scores come from the turned Q and K (n×d_k each); and the options of the shown head.
#pragma once

#include "core/attention.hpp"
#include "scene/traces.hpp"

namespace ui {

inline const attn::Matrix& scored_queries(const attn::Result& r) {
  return r.Q_rope.size() ? r.Q_rope : r.Q;
}
inline const attn::Matrix& scored_keys(const attn::Result& r) {
  return r.K_rope.size() ? r.K_rope : r.K;
}

// The scene's options for the head `r` shows: with ALiBi each head has its own slope m, and its
// bias is −m·|i − j|, so m = −bias(1, 0) (a one-token scene has no distance to bias).
inline attn::Options head_options(const scene::Scene& s, const attn::Result& r) {
  attn::Options options = scene::options_of(s);
  options.alibi_slope = r.bias.rows() > 1 ? -r.bias(1, 0) : 0.0;
  return options;
}

}  // namespace ui
