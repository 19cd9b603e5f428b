// incremental.hpp — recompute only what an edit changed, with the full pass's bits.
//
// Dragging one number changes one row of Q, K or V. For n tokens:
//   query i  → row i of scores, scaled, weights and output                         O(n·(d_k + d_v))
//   key j    → column j of scores and scaled; in every row that allows key j (all n when nothing
//              is masked) and keeps its max: one exponential, the sum of key j's block of 64 keys
//              and that block's Σ e·v, the row sum, the n weights (a new divisor) and the output;
//              a row whose max moves (or whose max cell was lowered) re-runs whole  O(n·d_k + n² + n·64·d_v)
//   value j  → the output of the rows whose key span holds j, no softmax             O(n²·d_v)
//   the mask (custom, causal, window, sinks) → softmax and output of the rows whose allowed cells
//              changed; scores and scaled stay (a click on one mask cell: one row)  O(n² + rows·n·d_v)
// while the full pass is O(n²·(d_k + d_v)). The full pass sums in the same blocks (kernels.hpp:
// kKeyBlock), output = (Σ over blocks of Σ_j e_ij v_j) / Σ_j e_ij, so a patched row is its row. Every element
// is computed by the same kernels in the same order as attend() (core/forward.hpp), so the result is
// identical to attend() bit for bit — tests/incremental_test.cpp checks every stage after random edit
// sequences.
#pragma once

#include <utility>
#include <vector>

#include "core/attention.hpp"
#include "core/forward.hpp"

namespace attn {

// What an edit changed in the n×n stages: the one record from the engine to the screen's textures
// (the UI keeps the last one with the result version it starts from, and uploads only these cells).
// `full` everything; else rows `queries` of scores and scaled, columns `keys` of scores and scaled,
// and rows `rows` of the weights (and their output). `rows` holds the queries, every row that allows
// an edited key (a row's softmax never reads a hidden cell's logit, so a 64-wide window re-runs 64
// rows of 1024, not all), and with `mask` the rows whose allowed cells changed (a mask, causal,
// window or sinks edit: scores and scaled stay). An edited value (`values`) changes the output of
// the rows whose keys include it, and no weight. Nothing listed: nothing changed.
struct StageChange {
  bool full = true;
  std::vector<int> queries, keys;  // ascending
  bool values = false;
  bool mask = false;
  std::vector<int> rows;  // ascending
  // The rows of scores and scaled that changed: the edited queries; with `mask` (an edit that comes
  // alone, Q, K and V unchanged) the mask's rows, repainted there as hidden or shown.
  const std::vector<int>& score_rows() const { return mask ? rows : queries; }
};

class IncrementalAttention {
 public:
  // What update() did.
  enum class Update { None, Rows, Full };
  // Full pass over Q (n×d_k), K (n×d_k), V (n×d_v); inputs as for attend().
  void reset(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);

  // Bring the result up to Q, K, V, options: the rows that differ from the last ones are recomputed
  // as above; a new mask (custom, causal, window, sinks) on unchanged Q, K, V re-runs the rows whose
  // allowed cells changed; any other change of shape or options (scale, ALiBi slope) is a full pass.
  // (ALiBi's bias depends only on positions: an edited row or column adds it again, so the logits,
  // and everything after them, stay bit for bit the full pass's.)
  Update update(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options);
  // The same for a projected scene: Q = X W_q, K = X W_k, V = X W_v exactly as attend_projected()
  // computes them (an edit of token i's x changes its q, k and v rows; a weight edit, every row).
  Update update_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                          const Options& options);

  // One row replaced (q: d_k numbers, k: d_k, v: d_v).
  void set_query(int i, const double* q);
  void set_key(int j, const double* k);
  void set_value(int j, const double* v);

  const Result& result() const { return result_; }
  // What the last reset/update/set_* changed.
  const StageChange& last_change() const { return change_; }
  // Lend the result out without copying (three n×n matrices): swap it with `other`, and swap it
  // back before the next update, which otherwise starts over with a full pass.
  void swap_result(Result& other) { std::swap(result_, other); }
  bool empty() const { return !valid_; }
  // Rows whose softmax the last update patched (an edited key left their max alone: one exponential,
  // one block's sum and partial re-run) rather than recomputed whole.
  int patched_rows() const { return patched_rows_; }
  // Forget the last pass (e.g. the result lent out was replaced by another computation): the next
  // update() is a full pass on fresh storage.
  void invalidate() { valid_ = false; }

 private:
  void refresh(const std::vector<int>& queries, const std::vector<int>& keys, const std::vector<int>& values);
  void output_runs(const std::vector<int>& rows);  // output rows `rows` (ascending)
  // Row i's softmax after edits of `keys` that leave its max alone (see refresh()).
  // True when one of `keys` is allowed in row i (false: only its output partials change).
  bool patch_row(int i, const std::vector<int>& keys);
  // The output partials of blocks [b0, b1) for `rows` (ascending).
  void block_runs(const std::vector<int>& rows, int b0, int b1);

  Result result_;
  StageChange change_;
  int patched_rows_ = 0;
  bool valid_ = false;  // result_ is the pass over result_.Q, K, V and options_
  Options options_;
  detail::Workspace workspace_;
};

// True when the two option sets give the same divisor, allowed mask and bias for n tokens.
bool same_options(const Options& a, const Options& b);
// True when they give the same divisor and bias (the scores, scaled and logits), masks aside.
bool same_options_but_mask(const Options& a, const Options& b);

}  // namespace attn
