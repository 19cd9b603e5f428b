// alibi.hpp — ALiBi, "Attention with Linear Biases" (Press, Smith & Lewis, ICLR 2022): no position
// embedding; instead a fixed penalty proportional to the distance is added to each head's scores,
//
//   softmax( q_i K_tᵀ / s + B_t + M ),   B_t(i, j) = −m_t · |i − j|
//
// (for a causal scene j ≤ i, so this is the paper's −m_t·(i − j)), with one slope per head, a
// geometric sequence: head h = 1 … H has m_h = 2^(−8h/H) — for 8 heads 1/2, 1/4, …, 1/256 (the
// paper's §3). Every head sees the same distances but forgets them at its own rate: a steep head
// is local, a shallow one looks far back. (For H not a power of 2 the paper's code interpolates
// between the slopes of the neighbouring powers of 2; Attention Lab uses 2^(−8h/H) for every H.)
#pragma once

#include "core/attention.hpp"

namespace attn {

// m_h for head `head` (0-based, so h = head + 1) of `heads`: 2^(−8(head + 1)/heads).
double alibi_slope(int head, int heads);

// B (n×n): B(i, j) = −slope · |i − j|.
Matrix alibi_bias(int n, double slope);

// (2b) logits = scaled + B over rows [i0, i1) × columns [j0, j1), clamped to finite (a scaled score
// near −DBL_MAX plus a negative bias would be −∞). The forward pass and the incremental recompute
// call it for the cells they (re)computed. (Compiled for size: it runs only with ALiBi.)
void add_bias(const Matrix& scaled, const Matrix& bias, int i0, int i1, int j0, int j1, Matrix& logits);

// allowed(i, j) = 0 where the window and sinks hide key j from query i (window_allows).
void hide_outside_window(MaskMatrix& allowed, int window, int sinks, bool causal);

}  // namespace attn
