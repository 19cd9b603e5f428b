// scored_qk.hpp — the Q and K the scores are made of, for the steppers (FlashAttention, Decode):
// with RoPE the scores come from the turned Q and K (n×d_k each).
#pragma once

#include "core/attention.hpp"

namespace ui {

inline const attn::Matrix& scored_queries(const attn::Result& r) {
  return r.Q_rope.size() ? r.Q_rope : r.Q;
}
inline const attn::Matrix& scored_keys(const attn::Result& r) {
  return r.K_rope.size() ? r.K_rope : r.K;
}

}  // namespace ui
