// rope.hpp — rotary position embedding (RoPE): queries and keys turned by an angle that grows with
// the token's position, so that q_i · k_j depends on the positions only through i − j.
//
// A head of size d (even) is cut into d/2 coordinate pairs; pair c of the row at position p turns by
//
//   θ_c(p) = p · base^(−2c/d)                 (c = 0 … d/2 − 1; pair 0 turns fastest)
//   (x, y) → (x cos θ − y sin θ,  x sin θ + y cos θ)
//
// and the two layouts differ only in which coordinates form pair c:
//   interleaved  (2c, 2c+1)    RoFormer (Su et al. 2021), GPT-J, Meta's original Llama code
//   half         (c, c + d/2)  GPT-NeoX, Hugging Face Llama ("rotate_half")
// Rotations keep lengths, and R(p_i)ᵀ R(p_j) = R(p_j − p_i), so (R(p_i) q) · (R(p_j) k) = q · R(p_j − p_i) k:
// shifting every position by the same offset changes no score.
#pragma once

#include <vector>

#include "core/attention.hpp"

namespace attn {

enum class RopeLayout { Interleaved, Half };

struct Rope {
  double base = 10000.0;  // > 1; larger = slower turning pairs
  RopeLayout layout = RopeLayout::Interleaved;
  int offset = 0;  // position of token 0 (token i sits at offset + i)
};

// The angle of pair c in a head of size d at position p: p · base^(−2c/d).
double rope_angle(const Rope& rope, int c, int d_head, double position);

// Rows of M (n×d) turned: row i at position offset + i, each of the `heads` consecutive column
// blocks (d / heads columns, even) turned on its own as a head of that size. n×d.
Matrix apply_rope(const Matrix& M, const Rope& rope, int heads = 1);

// One row (1×d_head) turned as position p.
Matrix rope_rotate_row(const Matrix& row, const Rope& rope, double position);

// (R(0) q) · (R(Δ) k) for Δ = −max_distance … max_distance: the score of a query/key pair when the
// key sits Δ positions after the query (position itself does not matter). q, k: 1×d_head.
// 2·max_distance + 1 values, Δ = −max_distance first.
std::vector<double> rope_dot_by_distance(const Matrix& q, const Matrix& k, const Rope& rope,
                                         int max_distance);

}  // namespace attn
