// online.hpp — FlashAttention's tiled forward pass with the online softmax, one tile at a time.
//
// The same Y = softmax(Q Kᵀ / s + B + M) V as attend() (B: ALiBi's bias, when the options ask for
// it, added to each tile's scaled scores), without ever holding the n×n score matrix:
// queries and keys are cut into blocks of B tokens, and for each query block the key blocks are
// visited in order (FlashAttention-2's loop order). Each query row i keeps three running numbers
//
//   m_i  the largest scaled score seen so far (−∞ before the first allowed cell)
//   ℓ_i  Σ exp(s_ij − m_i) over the keys seen so far
//   O_i  Σ exp(s_ij − m_i) v_j          (1×d_v, not yet divided by ℓ_i)
//
// and one tile (B×B scores) at a time updates them:
//
//   m_new = max(m_i, max_j s_ij)       over the tile's allowed cells j of row i
//   α     = exp(m_i − m_new)           the rescale factor: 1 when the max did not grow
//   ℓ_i   = α ℓ_i + Σ_j exp(s_ij − m_new)
//   O_i   = α O_i + Σ_j exp(s_ij − m_new) v_j
//
// After the last tile y_i = O_i / ℓ_i, which is exactly softmax-then-blend rewritten (equal to
// attend()'s output up to rounding). A tile whose every cell the mask hides (the causal upper
// triangle, a sliding window's far corners, or a custom mask's zeros) is skipped without computing
// anything — with a window of w ≪ n most tiles are; a row that never sees
// an allowed cell keeps ℓ = 0 and gets a zero output, like attend()'s fully masked rows.
#pragma once

#include <vector>

#include "core/attention.hpp"

namespace attn {

// What one step (one tile) did and the state of its query block afterwards.
struct OnlineStep {
  int row_block = 0, col_block = 0;  // tile position in blocks
  int row_begin = 0, row_end = 0;    // query rows  [row_begin, row_end)
  int col_begin = 0, col_end = 0;    // keys        [col_begin, col_end)
  bool skipped = false;              // every cell masked: no score computed, state unchanged
  // One entry per row of the block (row_end − row_begin), after this step:
  std::vector<double> m;        // running max; −∞ while the row has seen no allowed cell
  std::vector<double> l;        // running sum ℓ
  std::vector<double> rescale;  // α applied to ℓ and O in this step (1: max kept, or nothing to rescale)
  Matrix O;                     // rows×d_v  unnormalized accumulator
  Matrix partial;  // rows×d_v  O / ℓ: what the output would be if the keys stopped here (0 if ℓ = 0)
};

// The tiled pass as a stepper: next() runs one tile. Q (n×d_k), K (n×d_k), V (n×d_v) and options
// as for attend() (valid inputs assumed); block B is clamped to 1…n.
class OnlinePass {
 public:
  OnlinePass(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options, int block);

  int n() const { return n_; }
  int block() const { return block_; }
  int blocks() const { return blocks_; }                // ⌈n / B⌉ blocks per side
  int step_count() const { return blocks_ * blocks_; }  // one step per tile
  int steps_done() const { return steps_done_; }
  bool done() const { return steps_done_ == step_count(); }
  double divisor() const { return divisor_; }

  // Runs tile (steps_done / blocks, steps_done % blocks) and returns its record. After done():
  // returns an empty record and changes nothing.
  OnlineStep next();

  // State of every row (n entries / n×d_v), as of the steps done so far.
  const std::vector<double>& m() const { return m_; }
  const std::vector<double>& l() const { return l_; }
  const Matrix& O() const { return O_; }
  // O / ℓ row by row (a row with ℓ = 0 stays 0): the final output once done().
  Matrix output() const;
  // Rows with ℓ = 0 (no allowed cell seen), ascending: attend()'s masked_rows once done().
  std::vector<int> masked_rows() const;

  // Does the mask hide every cell of tile (row_block, col_block)? Such a tile is skipped.
  bool tile_hidden(int row_block, int col_block) const;

  // Memory and work: the pass holds one B×B tile of scores at a time, never the n×n matrix.
  long long tile_cells() const { return static_cast<long long>(block_) * block_; }
  int tiles_computed() const { return tiles_computed_; }
  int tiles_skipped() const { return tiles_skipped_; }

 private:
  bool allowed(int query_i, int key_j) const;

  Matrix Q_, K_, V_;
  Options options_;
  int n_ = 0, block_ = 1, blocks_ = 1, steps_done_ = 0;
  int tiles_computed_ = 0, tiles_skipped_ = 0;
  double divisor_ = 1.0;
  std::vector<double> m_, l_;
  Matrix O_;
};

// The whole pass at once: every step's record (in execution order) and the output.
struct OnlineResult {
  int block = 1;
  std::vector<OnlineStep> steps;
  Matrix output;                 // n×d_v
  std::vector<int> masked_rows;  // rows with no allowed cell
  int tiles_computed = 0, tiles_skipped = 0;
};
OnlineResult attend_online(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                           int block);

}  // namespace attn
