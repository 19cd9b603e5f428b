// forward.hpp — the forward pass in pieces, shared by attend() (attention.cpp) and the
// incremental recompute (incremental.cpp). Internal to the core.
//
// Each piece writes stages of a Result whose Q, K, V, divisor and allowed are already set and whose
// n×n / n×d_v matrices have their final shapes. Every element is computed by the kernels of
// kernels.hpp, whose per-element arithmetic does not depend on which rows or columns are computed
// together: so any mix of pieces that brings every stage up to date gives the full pass's bits.
#pragma once

#include <vector>

#include "core/attention.hpp"
#include "core/kernels.hpp"

namespace attn::detail {

// What the pieces keep between calls.
struct Workspace {
  const kernels::KernelSet* set = nullptr;  // the kernels the stages were computed with
  std::vector<double> packed_keys;          // Kᵀ (d_k × n) as panels
  std::vector<double> packed_values;        // V (n × d_v) as panels
  std::vector<int> first, last;             // per row: first and last allowed key (n and −1 if none)
  // What the softmax and the output keep so that one edited key re-sums one block of each row
  // (kernels::kKeyBlock keys): per row, exps(i, j) = exp(x(i, j) − m_i) (n × n), the sum of each
  // block of exps (n × key_blocks), and each block's Σ_j exps(i, j) · V(j, ·) (n × key_blocks ×
  // padded d_v); output row i = (Σ over blocks) / row_sum_i.
  std::vector<double> exps, block_sums, partials;
  int blocks = 0, padded_dv = 0;
};

// X W, clamped to finite: the projections of attend_projected().
Matrix project(const Matrix& X, const Matrix& W);

// Shapes the stages, sets divisor and allowed, packs K and V, and computes every stage.
void full_pass(Result& r, const Options& options, Workspace& ws);

// (3) r.allowed for `options`, and each row's first and last allowed key (ws.first, ws.last).
void set_mask(Result& r, const Options& options, Workspace& ws);
// Row i's first and last allowed key (n and −1 when the row is fully masked), from r.allowed.
void set_span(const Result& r, Workspace& ws, int i);
// The same on a result computed under another mask: returns the rows whose allowed cells changed
// (ascending). Scores and scaled do not depend on the mask; those rows' softmax and output do.
std::vector<int> change_mask(Result& r, const Options& options, Workspace& ws);

// Pieces (r.Q, r.K, r.V and the packed copies already hold the edited rows):
void pack_key(const Result& r, Workspace& ws, int j);    // repack column j of Kᵀ
void pack_value(const Result& r, Workspace& ws, int j);  // repack row j of V
// scores and scaled (and logits = scaled + B with ALiBi) for rows [i0, i1), every column.
void score_rows(Result& r, const Workspace& ws, int i0, int i1);
// scores and scaled (and logits) of the panel holding column j, every row.
void score_column(Result& r, const Workspace& ws, int j);
// weights, row_max and row_sum of row i from scaled (logits with ALiBi). Returns false when the row is fully
// masked.
bool softmax_row(Result& r, Workspace& ws, int i);
// masked_rows rebuilt from row_sum (0 exactly for a fully masked row).
void collect_masked_rows(Result& r);
// output for rows [i0, i1): every block's partials, then finish_row.
void output_rows(Result& r, Workspace& ws, int i0, int i1);
// The partials of blocks [b0, b1) for rows [i0, i1).
void output_blocks(const Result& r, Workspace& ws, int i0, int i1, int b0, int b1);
// output row i from its partials and row_sum (after a change of some blocks or of the sum).
void finish_row(Result& r, const Workspace& ws, int i);

}  // namespace attn::detail
