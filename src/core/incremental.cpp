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

}  // namespace

bool same_options(const Options& a, const Options& b) {
  if (a.scale.mode != b.scale.mode || a.causal != b.causal) return false;
  if (a.window != b.window || a.sinks != b.sinks || a.alibi_slope != b.alibi_slope) return false;
  if (a.scale.mode == ScaleMode::Temperature && a.scale.temperature != b.scale.temperature) return false;
  return a.mask.rows() == b.mask.rows() && a.mask.cols() == b.mask.cols() && a.mask == b.mask;
}

void IncrementalAttention::reset(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  if (!valid_) result_ = Result{};  // storage that may hold another computation's extra stages
  valid_ = true;
  result_.Q = Q;
  result_.K = K;
  result_.V = V;
  options_ = options;
  detail::full_pass(result_, options_, workspace_);  // sets every other stage
  change_ = Change{};                                // full
}

IncrementalAttention::Update IncrementalAttention::update(const Matrix& Q, const Matrix& K, const Matrix& V,
                                                          const Options& options) {
  Result& r = result_;
  if (empty() || !same_shape(Q, r.Q) || !same_shape(K, r.K) || !same_shape(V, r.V) ||
      !same_options(options, options_) || workspace_.set != &kernels::active()) {
    reset(Q, K, V, options);
    return Update::Full;
  }
  std::vector<int> queries, keys;
  bool values = false;
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
      values = true;
    }
  }
  if (queries.empty() && keys.empty() && !values) {
    change_ = Change{false, {}, {}, false};
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
  refresh({i}, {}, false);
}

void IncrementalAttention::set_key(int j, const double* k) {
  std::copy(k, k + result_.K.cols(), &result_.K(j, 0));
  detail::pack_key(result_, workspace_, j);
  refresh({}, {j}, false);
}

void IncrementalAttention::set_value(int j, const double* v) {
  std::copy(v, v + result_.V.cols(), &result_.V(j, 0));
  detail::pack_value(result_, workspace_, j);
  refresh({}, {}, true);
}

void IncrementalAttention::refresh(const std::vector<int>& queries, const std::vector<int>& keys,
                                   bool values) {
  Result& r = result_;
  const int n = static_cast<int>(r.Q.rows());
  change_ = Change{false, queries, keys, values};
  // (1)+(2) scores and scaled: the edited rows, then the edited columns (one panel each).
  for (int i : queries) detail::score_rows(r, workspace_, i, i + 1);
  int last_panel = -1;
  for (int j : keys) {
    const int panel = j / workspace_.set->panel_width;
    if (panel != last_panel) detail::score_column(r, workspace_, j);  // keys come sorted
    last_panel = panel;
  }
  if (!keys.empty()) {
    // (4) every row's softmax (a column changed in each), (5) every output row.
    for (int i = 0; i < n; ++i) detail::softmax_row(r, workspace_, i);
    detail::output_rows(r, workspace_, 0, n);
    return;
  }
  for (int i : queries) detail::softmax_row(r, workspace_, i);
  if (values) {
    detail::output_rows(r, workspace_, 0, n);  // A V: every row blends the edited value
  } else {
    for (int i : queries) detail::output_rows(r, workspace_, i, i + 1);
  }
}

}  // namespace attn
