// attention.cpp — softmax(QKᵀ / s + B + M) V, one numbered pass per stage (see attention.hpp).
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/alibi.hpp"
#include "core/forward.hpp"
#include "core/kernels.hpp"

namespace attn {
namespace {

constexpr double kMaxFinite = std::numeric_limits<double>::max();

// Dot products of huge vectors can overflow to ±Inf; clamp so softmax stays finite.
// Inf − Inf inside a dot product gives NaN; the two infinities cancel, so 0 is the fair value.
double clamp_finite(double x) {
  if (std::isnan(x)) return 0.0;
  return std::clamp(x, -kMaxFinite, kMaxFinite);
}

const auto kClamp = [](double x) { return clamp_finite(x); };

}  // namespace

double scale_divisor(const Scale& scale, int d_k) {
  switch (scale.mode) {
    case ScaleMode::None:
      return 1.0;
    case ScaleMode::SqrtDk:
      return std::sqrt(static_cast<double>(std::max(d_k, 1)));
    case ScaleMode::Temperature:
      return scale.temperature;
  }
  return 1.0;
}

MaskMatrix allowed_mask(int n, const Options& options) {
  const bool custom = options.mask.rows() == n && options.mask.cols() == n;
  MaskMatrix allowed = custom ? options.mask : MaskMatrix::Ones(n, n);
  if (custom) allowed = (allowed.array() != 0).cast<unsigned char>();  // any nonzero byte = 1
  if (options.causal)
    for (int query_i = 0; query_i + 1 < n; ++query_i) allowed.row(query_i).tail(n - 1 - query_i).setZero();
  if (options.window > 0) hide_outside_window(allowed, options.window, options.sinks, options.causal);
  return allowed;
}

Matrix masked_softmax(const Matrix& scaled, const MaskMatrix& allowed, std::vector<int>* masked_rows) {
  const kernels::KernelSet& ks = kernels::active();
  const int n_rows = static_cast<int>(scaled.rows()), n_cols = static_cast<int>(scaled.cols());
  Matrix weights(n_rows, n_cols);
  std::vector<double> exps(static_cast<std::size_t>(n_cols)),
      block_sums(static_cast<std::size_t>(kernels::key_blocks(n_cols)));
  for (int row_i = 0; row_i < n_rows; ++row_i) {
    const kernels::RowStats stats = ks.softmax_row(&scaled(row_i, 0), &allowed(row_i, 0), n_cols, exps.data(),
                                                   block_sums.data(), &weights(row_i, 0));
    if (stats.sum == 0.0 && masked_rows) masked_rows->push_back(row_i);  // nothing to attend to
  }
  return weights;
}

std::string check_inputs(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  const Eigen::Index n = Q.rows();
  if (n < 1) return "Q: need at least one token";
  if (K.rows() != n) return "K: has " + std::to_string(K.rows()) + " rows, expected " + std::to_string(n);
  if (V.rows() != n) return "V: has " + std::to_string(V.rows()) + " rows, expected " + std::to_string(n);
  if (Q.cols() < 1) return "Q: need at least one column";
  if (K.cols() != Q.cols())
    return "K: has " + std::to_string(K.cols()) + " columns, expected d_k = " + std::to_string(Q.cols());
  if (V.cols() < 1) return "V: need at least one column";
  if (!Q.allFinite()) return "Q: contains a non-finite number";
  if (!K.allFinite()) return "K: contains a non-finite number";
  if (!V.allFinite()) return "V: contains a non-finite number";
  if (options.scale.mode == ScaleMode::Temperature &&
      !(std::isfinite(options.scale.temperature) && options.scale.temperature > 0.0))
    return "scale: temperature must be a positive finite number";
  if (options.mask.size() != 0 && (options.mask.rows() != n || options.mask.cols() != n))
    return "mask: must be " + std::to_string(n) + "×" + std::to_string(n);
  if (options.window < 0) return "window: must be 0 (none) or more";
  if (options.sinks < 0) return "sinks: must be 0 or more";
  if (!(std::isfinite(options.alibi_slope) && options.alibi_slope >= 0.0))
    return "alibi: the slope must be a finite number ≥ 0";
  return {};
}

namespace detail {

void full_pass(Result& r, const Options& options, Workspace& ws) {
  const kernels::KernelSet& ks = kernels::active();
  ws.set = &ks;
  const int n = static_cast<int>(r.Q.rows());
  const int d_k = static_cast<int>(r.Q.cols()), d_v = static_cast<int>(r.V.cols());
  const int w = ks.panel_width;

  set_mask(r, options, ws);

  r.divisor = scale_divisor(options.scale, d_k);
  r.scores.resize(n, n);
  r.scaled.resize(n, n);
  // (2b) ALiBi's bias B(i,j) = −m·|i − j| (fixed by the positions) and the logits scaled + B.
  if (options.alibi_slope != 0.0) {
    r.bias = alibi_bias(n, options.alibi_slope);
    r.logits.resize(n, n);
  } else {
    r.bias.resize(0, 0);
    r.logits.resize(0, 0);
  }
  r.weights.resize(n, n);
  r.output.resize(n, d_v);
  r.row_max.assign(n, 0.0);
  r.row_sum.assign(n, 0.0);

  // The right-hand operands packed once: Kᵀ(k, j) = K(j, k) and V(j, c).
  ws.packed_keys.assign(std::size_t(kernels::panels(n, w)) * d_k * w, 0.0);
  kernels::pack_panels(r.K.data(), 1, d_k, d_k, n, w, ws.packed_keys.data());
  ws.packed_values.assign(std::size_t(kernels::panels(d_v, w)) * n * w, 0.0);
  kernels::pack_panels(r.V.data(), d_v, 1, n, d_v, w, ws.packed_values.data());
  ws.blocks = kernels::key_blocks(n);
  ws.padded_dv = kernels::panels(d_v, w) * w;
  ws.exps.resize(std::size_t(n) * n);
  ws.block_sums.resize(std::size_t(n) * ws.blocks);
  ws.partials.resize(std::size_t(n) * ws.blocks * ws.padded_dv);

  // Blocks of rows, each through every stage while its rows are still in cache:
  // (1)+(2) scores and scaled in one sweep (+ B with ALiBi), (4) softmax per row, (5) output.
  constexpr int kBlock =
      12;  // 12 rows × 3 n×n stages stay in L2 (measured: 48 rows was 2× slower at n = 1024)
  for (int i0 = 0; i0 < n; i0 += kBlock) {
    const int i1 = std::min(n, i0 + kBlock);
    score_rows(r, ws, i0, i1);
    for (int query_i = i0; query_i < i1; ++query_i) softmax_row(r, ws, query_i);
    output_rows(r, ws, i0, i1);
  }
  collect_masked_rows(r);
}

// Row i's first and last allowed key (n and −1 when the row is fully masked): output_rows reads only
// the keys between them (every other weight is exactly 0).
void set_span(const Result& r, Workspace& ws, int i) {
  const int n = static_cast<int>(r.allowed.cols());
  const unsigned char* row = &r.allowed(i, 0);
  int first = 0, last = n - 1;
  while (first < n && !row[first]) ++first;
  while (last >= first && !row[last]) --last;
  ws.first[std::size_t(i)] = first < n ? first : n;
  ws.last[std::size_t(i)] = first < n ? last : -1;
}

// (3) mask M: 0 where allowed, −∞ where hidden (causal future or custom 0).           n×n
void set_mask(Result& r, const Options& options, Workspace& ws) {
  const int n = static_cast<int>(r.Q.rows());
  r.allowed = allowed_mask(n, options);
  ws.first.assign(n, n);
  ws.last.assign(n, -1);
  for (int query_i = 0; query_i < n; ++query_i) set_span(r, ws, query_i);
}

std::vector<int> change_mask(Result& r, const Options& options, Workspace& ws) {
  const int n = static_cast<int>(r.Q.rows());
  MaskMatrix allowed = allowed_mask(n, options);
  std::vector<int> rows;
  for (int i = 0; i < n; ++i)
    if (std::memcmp(&allowed(i, 0), &r.allowed(i, 0), std::size_t(n)) != 0) rows.push_back(i);
  r.allowed = std::move(allowed);
  for (int i : rows) set_span(r, ws, i);
  return rows;
}

void pack_key(const Result& r, Workspace& ws, int j) {
  const int d_k = static_cast<int>(r.K.cols());
  kernels::pack_panel_column(r.K.data(), 1, d_k, d_k, j, ws.set->panel_width, ws.packed_keys.data());
}

void pack_value(const Result& r, Workspace& ws, int j) {
  const int n = static_cast<int>(r.V.rows()), d_v = static_cast<int>(r.V.cols());
  const int w = ws.set->panel_width;
  for (int c = 0; c < d_v; ++c)
    ws.packed_values[std::size_t(c / w) * n * w + std::size_t(j) * w + c % w] = r.V(j, c);
}

// (1) raw scores(i,j) = q_i · k_j and (2) scaled = scores / s, both clamped to finite.   n×n
void score_rows(Result& r, const Workspace& ws, int i0, int i1) {
  const int n = static_cast<int>(r.Q.rows()), d_k = static_cast<int>(r.Q.cols());
  ws.set->scores_rows(r.Q.data(), d_k, ws.packed_keys.data(), n, i0, i1, 0,
                      kernels::panels(n, ws.set->panel_width), r.divisor, r.scores.data(), r.scaled.data());
  if (r.logits.size()) add_bias(r.scaled, r.bias, i0, i1, 0, n, r.logits);
}

void score_column(Result& r, const Workspace& ws, int j) {
  const int n = static_cast<int>(r.Q.rows()), d_k = static_cast<int>(r.Q.cols());
  const int w = ws.set->panel_width, panel = j / w;
  ws.set->scores_rows(r.Q.data(), d_k, ws.packed_keys.data(), n, 0, n, panel, panel + 1, r.divisor,
                      r.scores.data(), r.scaled.data());
  if (r.logits.size()) add_bias(r.scaled, r.bias, 0, n, panel * w, std::min(n, (panel + 1) * w), r.logits);
}

// (4) weights A = row-softmax(scaled + B + M): rows sum to 1, hidden cells exactly 0.
bool softmax_row(Result& r, Workspace& ws, int i) {
  const int n = static_cast<int>(r.scaled.cols());
  const Matrix& x = r.softmax_input();
  const kernels::RowStats stats =
      ws.set->softmax_row(&x(i, 0), &r.allowed(i, 0), n, &ws.exps[std::size_t(i) * n],
                          &ws.block_sums[std::size_t(i) * ws.blocks], &r.weights(i, 0));
  r.row_max[std::size_t(i)] = stats.max;
  r.row_sum[std::size_t(i)] = stats.sum;
  return stats.sum != 0.0;
}

void collect_masked_rows(Result& r) {
  r.masked_rows.clear();
  for (std::size_t i = 0; i < r.row_sum.size(); ++i)
    if (r.row_sum[i] == 0.0) r.masked_rows.push_back(static_cast<int>(i));
}

// (5) output Y = A V: row i is the weight-blend of the value rows, computed as (Σ_j e_ij v_j) / Σ_j e_ij
// with both sums taken block by block (kernels::kKeyBlock keys), the order an edit of one key keeps.
void output_blocks(const Result& r, Workspace& ws, int i0, int i1, int b0, int b1) {
  const int n = static_cast<int>(r.V.rows()), d_v = static_cast<int>(r.V.cols());
  ws.set->output_blocks(ws.exps.data(), n, ws.packed_values.data(), d_v, i0, i1, b0, b1, ws.first.data(),
                        ws.last.data(), ws.partials.data());
}

void finish_row(Result& r, const Workspace& ws, int i) {
  const int d_v = static_cast<int>(r.V.cols());
  double* out = &r.output(i, 0);
  const double sum = r.row_sum[std::size_t(i)];
  if (sum == 0.0) {  // fully masked: nothing to attend to
    std::fill(out, out + d_v, 0.0);
    return;
  }
  const double* p = &ws.partials[std::size_t(i) * ws.blocks * ws.padded_dv];
  std::copy(p, p + d_v, out);
  for (int b = 1; b < ws.blocks; ++b) {
    const double* block = p + std::size_t(b) * ws.padded_dv;
    for (int c = 0; c < d_v; ++c) out[c] += block[c];
  }
  for (int c = 0; c < d_v; ++c) out[c] = clamp_finite(out[c] / sum);
}

void output_rows(Result& r, Workspace& ws, int i0, int i1) {
  output_blocks(r, ws, i0, i1, 0, ws.blocks);
  for (int i = i0; i < i1; ++i) finish_row(r, ws, i);
}

}  // namespace detail

Matrix blend_values(const Matrix& x, const MaskMatrix& allowed, const Matrix& V) {
  const int rows = static_cast<int>(x.rows()), m = static_cast<int>(x.cols()),
            d_v = static_cast<int>(V.cols());
  Result r;
  r.scaled = x;
  r.allowed = allowed;
  r.V = V;
  r.weights.resize(rows, m);
  r.output.resize(rows, d_v);
  r.row_max.assign(std::size_t(rows), 0.0);
  r.row_sum.assign(std::size_t(rows), 0.0);
  detail::Workspace ws;
  ws.set = &kernels::active();
  const int w = ws.set->panel_width;
  ws.packed_values.assign(std::size_t(kernels::panels(d_v, w)) * m * w, 0.0);
  kernels::pack_panels(r.V.data(), d_v, 1, m, d_v, w, ws.packed_values.data());
  ws.blocks = kernels::key_blocks(m);
  ws.padded_dv = kernels::panels(d_v, w) * w;
  ws.exps.resize(std::size_t(rows) * m);
  ws.block_sums.resize(std::size_t(rows) * ws.blocks);
  ws.partials.resize(std::size_t(rows) * ws.blocks * ws.padded_dv);
  ws.first.assign(std::size_t(rows), m);
  ws.last.assign(std::size_t(rows), -1);
  for (int i = 0; i < rows; ++i) {
    detail::set_span(r, ws, i);
    detail::softmax_row(r, ws, i);
  }
  detail::output_rows(r, ws, 0, rows);
  return r.output;
}

Result attend(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options) {
  Result r;
  r.Q = Q;  // n×d_k
  r.K = K;  // n×d_k
  r.V = V;  // n×d_v
  detail::Workspace workspace;
  detail::full_pass(r, options, workspace);
  return r;
}

Matrix detail::project(const Matrix& X, const Matrix& W) {
  return (X * W).unaryExpr(kClamp);
}

Result attend_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                        const Options& options) {
  // Three learned linear maps of the same input: what a token looks for (Q), what it offers to be
  // found by (K), what it gives when found (V).
  const Matrix Q = detail::project(X, Wq);  // n×d_model · d_model×d_k = n×d_k
  const Matrix K = detail::project(X, Wk);  // n×d_k
  const Matrix V = detail::project(X, Wv);  // n×d_v
  return attend(Q, K, V, options);
}

}  // namespace attn
