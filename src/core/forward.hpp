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
};

// X W, clamped to finite: the projections of attend_projected().
Matrix project(const Matrix& X, const Matrix& W);

// Shapes the stages, sets divisor and allowed, packs K and V, and computes every stage.
void full_pass(Result& r, const Options& options, Workspace& ws);

// (3) r.allowed for `options`, and each row's first and last allowed key (ws.first, ws.last).
void set_mask(Result& r, const Options& options, Workspace& ws);
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
bool softmax_row(Result& r, const Workspace& ws, int i);
// masked_rows rebuilt from row_sum (0 exactly for a fully masked row).
void collect_masked_rows(Result& r);
// output for rows [i0, i1).
void output_rows(Result& r, const Workspace& ws, int i0, int i1);

}  // namespace attn::detail
