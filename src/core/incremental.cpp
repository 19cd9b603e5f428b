// incremental.cpp — see incremental.hpp.
#include "core/incremental.hpp"

#include <algorithm>
#include <cstring>

namespace attn {
namespace {

bool same_shape(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols();
}

bool row_differs(const Matrix& a, const Matrix& b, Eigen::Index i) {
  // Bitwise: −0 and +0 or two NaN payloads count as different (the result could differ).
  return std::memcmp(&a(i, 0), &b(i, 0), sizeof(double) * std::size_t(a.cols())) != 0;
}

bool same_bits(const Matrix& a, const Matrix& b) {  // same shapes
  return std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

}  // namespace

bool same_options_but_mask(const Options& a, const Options& b) {
  if (a.scale.mode != b.scale.mode || a.alibi_slope != b.alibi_slope) return false;
  return a.scale.mode != ScaleMode::Temperature || a.scale.temperature == b.scale.temperature;
}

bool same_options(const Options& a, const Options& b) {
  if (!same_options_but_mask(a, b) || a.causal != b.causal || a.window != b.window || a.sinks != b.sinks)
    return false;
  return a.mask.rows() == b.mask.rows() && a.mask.cols() == b.mask.cols() && a.mask == b.mask;
}

void IncrementalAttention::reset(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  patched_rows_ = 0;
  if (!valid_) result_ = Result{};  // storage that may hold another computation's extra stages
  valid_ = true;
  result_.Q = Q;
  result_.K = K;
  result_.V = V;
  options_ = options;
  detail::full_pass(result_, options_, workspace_);  // sets every other stage
  change_ = StageChange{};                           // full
}

IncrementalAttention::Update IncrementalAttention::update(const Matrix& Q, const Matrix& K, const Matrix& V,
                                                          const Options& options) {
  Result& r = result_;
  patched_rows_ = 0;
  if (empty() || !same_shape(Q, r.Q) || !same_shape(K, r.K) || !same_shape(V, r.V) ||
      !same_options_but_mask(options, options_) || workspace_.set != &kernels::active()) {
    reset(Q, K, V, options);
    return Update::Full;
  }
  if (!same_options(options, options_)) {
    // A new mask: the scores stand; only rows whose allowed cells changed are re-run. Together with
    // an edited Q, K or V (not what one user action does) it is a full pass.
    if (!same_bits(Q, r.Q) || !same_bits(K, r.K) || !same_bits(V, r.V)) {
      reset(Q, K, V, options);
      return Update::Full;
    }
    options_ = options;
    change_ = StageChange{false, {}, {}, false, true, detail::change_mask(r, options_, workspace_)};
    for (int i : change_.rows) detail::softmax_row(r, workspace_, i);
    output_runs(change_.rows);
    detail::collect_masked_rows(r);
    return change_.rows.empty() ? Update::None : Update::Rows;
  }
  std::vector<int> queries, keys, values;
  const Eigen::Index n = Q.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (row_differs(Q, r.Q, i)) {
      r.Q.row(i) = Q.row(i);
      queries.push_back(static_cast<int>(i));
    }
    if (row_differs(K, r.K, i)) {
      r.K.row(i) = K.row(i);
      detail::pack_key(r, workspace_, static_cast<int>(i));
      keys.push_back(static_cast<int>(i));
    }
    if (row_differs(V, r.V, i)) {
      r.V.row(i) = V.row(i);
      detail::pack_value(r, workspace_, static_cast<int>(i));
      values.push_back(static_cast<int>(i));
    }
  }
  if (queries.empty() && keys.empty() && values.empty()) {
    change_ = StageChange{false, {}, {}, false, false, {}};
    return Update::None;
  }
  refresh(queries, keys, values);
  return Update::Rows;
}

IncrementalAttention::Update IncrementalAttention::update_projected(const Matrix& X, const Matrix& Wq,
                                                                    const Matrix& Wk, const Matrix& Wv,
                                                                    const Options& options) {
  return update(detail::project(X, Wq), detail::project(X, Wk), detail::project(X, Wv), options);
}

void IncrementalAttention::set_query(int i, const double* q) {
  std::copy(q, q + result_.Q.cols(), &result_.Q(i, 0));
  refresh({i}, {}, {});
}

void IncrementalAttention::set_key(int j, const double* k) {
  std::copy(k, k + result_.K.cols(), &result_.K(j, 0));
  detail::pack_key(result_, workspace_, j);
  refresh({}, {j}, {});
}

void IncrementalAttention::set_value(int j, const double* v) {
  std::copy(v, v + result_.V.cols(), &result_.V(j, 0));
  detail::pack_value(result_, workspace_, j);
  refresh({}, {}, {j});
}

void IncrementalAttention::refresh(const std::vector<int>& queries, const std::vector<int>& keys,
                                   const std::vector<int>& values) {
  Result& r = result_;
  const int n = static_cast<int>(r.Q.rows());
  // The edited keys' softmax inputs before the edit (they decide whether a row's max can have moved).
  std::vector<double> old_x(keys.size() * std::size_t(n));
  for (std::size_t k = 0; k < keys.size(); ++k)
    for (int i = 0; i < n; ++i) old_x[k * std::size_t(n) + std::size_t(i)] = r.softmax_input()(i, keys[k]);
  // (1)+(2) scores and scaled: the edited rows, then the edited columns (one panel each).
  for (int i : queries) detail::score_rows(r, workspace_, i, i + 1);
  int last_panel = -1;
  for (int j : keys) {
    const int panel = j / workspace_.set->panel_width;
    if (panel != last_panel) detail::score_column(r, workspace_, j);  // keys come sorted
    last_panel = panel;
  }
  // (4) the rows whose softmax can have changed: the edited queries, and the rows that allow an edited
  // key (a hidden cell's logit is never read: its weight is 0 whatever the score). (5) their output,
  // and that of the rows whose key span [first, last] holds an edited value.
  // A row that allows an edited key but is no edited query keeps its max when every such key's new
  // input is ≤ the max and the key was not the max before (or is it still): then only the key's
  // exponential, its block's sum and partial, the row sum, weights and output change ("patched").
  // Otherwise (an edited query, a new max, or the max cell lowered) the whole row is recomputed.
  std::vector<int> softmax, output, whole, patched;
  const Matrix& x = r.softmax_input();
  for (int i = 0; i < n; ++i) {
    const bool query = std::binary_search(queries.begin(), queries.end(), i);
    bool weights = query, keeps_max = !query;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (!r.allowed(i, keys[k])) continue;
      weights = true;
      const double m = r.row_max[std::size_t(i)], now = x(i, keys[k]);
      const double before = old_x[k * std::size_t(n) + std::size_t(i)];
      if (!(now < m || now == m) || !(before < m || now == m)) keeps_max = false;
    }
    bool blend = weights;
    const int first = workspace_.first[std::size_t(i)], last = workspace_.last[std::size_t(i)];
    for (std::size_t k = 0; !blend && k < values.size(); ++k) blend = first <= values[k] && values[k] <= last;
    if (weights) softmax.push_back(i);
    if (weights && !keeps_max) whole.push_back(i);
    if (blend && !(weights && !keeps_max)) patched.push_back(i);
    if (blend) output.push_back(i);
  }
  for (int i : whole) detail::softmax_row(r, workspace_, i);
  patched_rows_ = 0;
  for (int i : patched) patched_rows_ += patch_row(i, keys);
  // The partials: every block of a recomputed row; of a patched row, the blocks that hold an edited
  // key or value (recomputing a block that did not change gives its same bits).
  block_runs(whole, 0, workspace_.blocks);
  std::vector<int> blocks;
  for (int j : keys) blocks.push_back(j / kernels::kKeyBlock);
  for (int j : values) blocks.push_back(j / kernels::kKeyBlock);
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  for (int b : blocks) block_runs(patched, b, b + 1);
  for (int i : output) detail::finish_row(r, workspace_, i);
  change_ = StageChange{false, queries, keys, !values.empty(), false, std::move(softmax)};
}

bool IncrementalAttention::patch_row(int i, const std::vector<int>& keys) {
  // Row i keeps its max: each allowed edited key's exponential is recomputed with the kernels' exp (the
  // same element-wise function softmax_row uses), then its block's sum, the row sum in block order and
  // every weight (the divisor changed) exactly as softmax_row computes them.
  Result& r = result_;
  detail::Workspace& ws = workspace_;
  const kernels::KernelSet& ks = *ws.set;
  const int n = static_cast<int>(r.Q.rows());
  double* e = &ws.exps[std::size_t(i) * n];
  double* sums = &ws.block_sums[std::size_t(i) * ws.blocks];
  const double m = r.row_max[std::size_t(i)];
  bool any = false;
  for (int j : keys) {
    if (!r.allowed(i, j)) continue;
    any = true;
    const double t = r.softmax_input()(i, j) - m;
    ks.exp(&t, &e[j], 1);
  }
  if (!any) return false;  // only values changed for this row
  for (int j : keys) {
    if (!r.allowed(i, j)) continue;
    const int b = j / kernels::kKeyBlock, j0 = b * kernels::kKeyBlock;
    sums[b] = ks.block_sum(e + j0, std::min(kernels::kKeyBlock, n - j0));
  }
  double row_sum = 0.0;
  for (int b = 0; b < ws.blocks; ++b) row_sum += sums[b];
  r.row_sum[std::size_t(i)] = row_sum;
  double* w = &r.weights(i, 0);
  for (int j = 0; j < n; ++j) w[j] = e[j] / row_sum;
  return true;
}

void IncrementalAttention::block_runs(const std::vector<int>& rows, int b0, int b1) {
  // Runs of consecutive rows, one call each (a run shares the kernel's row tiles).
  for (std::size_t a = 0; a < rows.size();) {
    std::size_t b = a + 1;
    while (b < rows.size() && rows[b] == rows[b - 1] + 1) ++b;
    detail::output_blocks(result_, workspace_, rows[a], rows[b - 1] + 1, b0, b1);
    a = b;
  }
}

void IncrementalAttention::output_runs(const std::vector<int>& rows) {
  // Runs of consecutive rows, one call each (a run shares the kernel's row tiles).
  for (std::size_t a = 0; a < rows.size();) {
    std::size_t b = a + 1;
    while (b < rows.size() && rows[b] == rows[b - 1] + 1) ++b;
    detail::output_rows(result_, workspace_, rows[a], rows[b - 1] + 1);
    a = b;
  }
}

}  // namespace attn
