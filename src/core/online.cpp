// online.cpp — the tiled pass with the online softmax (formulas in online.hpp).
#include "core/online.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/products.hpp"

namespace attn {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// As in attention.cpp: a dot product of huge vectors may overflow; keep every stage finite.
double clamp_finite(double x) {
  if (std::isnan(x)) return 0.0;
  return std::clamp(x, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
}

}  // namespace

OnlinePass::OnlinePass(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options, int block)
    : Q_(Q), K_(K), V_(V), options_(options) {
  n_ = static_cast<int>(Q.rows());
  block_ = std::clamp(block, 1, std::max(n_, 1));
  blocks_ = (n_ + block_ - 1) / block_;
  divisor_ = scale_divisor(options.scale, static_cast<int>(Q.cols()));
  m_.assign(static_cast<std::size_t>(n_), kMinusInf);
  l_.assign(static_cast<std::size_t>(n_), 0.0);
  O_ = Matrix::Zero(n_, V.cols());
}

// allowed_mask()'s cell, computed where it is needed (the pass holds no n×n matrix).
bool OnlinePass::allowed(int query_i, int key_j) const {
  if (options_.causal && key_j > query_i) return false;
  if (!window_allows(query_i, key_j, options_.window, options_.sinks, options_.causal)) return false;
  const bool custom = options_.mask.rows() == n_ && options_.mask.cols() == n_;
  return !custom || options_.mask(query_i, key_j) != 0;
}

bool OnlinePass::tile_hidden(int row_block, int col_block) const {
  const int row_end = std::min((row_block + 1) * block_, n_), col_end = std::min((col_block + 1) * block_, n_);
  for (int i = row_block * block_; i < row_end; ++i)
    for (int j = col_block * block_; j < col_end; ++j)
      if (allowed(i, j)) return false;
  return true;
}

OnlineStep OnlinePass::next() {
  OnlineStep step;
  if (done()) return step;
  step.row_block = steps_done_ / blocks_;
  step.col_block = steps_done_ % blocks_;
  step.row_begin = step.row_block * block_;
  step.row_end = std::min(step.row_begin + block_, n_);
  step.col_begin = step.col_block * block_;
  step.col_end = std::min(step.col_begin + block_, n_);
  ++steps_done_;
  const int rows = step.row_end - step.row_begin, cols = step.col_end - step.col_begin;
  step.rescale.assign(static_cast<std::size_t>(rows), 1.0);

  // (0) skip a tile the mask hides entirely: its scores are never computed.
  step.skipped = tile_hidden(step.row_block, step.col_block);

  if (step.skipped) {
    ++tiles_skipped_;
  } else {
    ++tiles_computed_;
    // (1) the tile's scaled scores (+ ALiBi's −m·|i − j|), the only scores held at any time.  rows×cols
    Matrix tile = dot_products(Q_.middleRows(step.row_begin, rows), K_.middleRows(step.col_begin, cols))
                      .unaryExpr([this](double x) { return clamp_finite(clamp_finite(x) / divisor_); });
    if (options_.alibi_slope != 0.0)
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          tile(r, c) = clamp_finite(tile(r, c) + options_.alibi_slope *
                                                     -std::abs(step.row_begin + r - step.col_begin - c));
    for (int r = 0; r < rows; ++r) {
      const int query_i = step.row_begin + r;
      // (2) the row's max over the tile's allowed cells; a row with none is left as it was.
      double tile_max = kMinusInf;
      for (int c = 0; c < cols; ++c)
        if (allowed(query_i, step.col_begin + c)) tile_max = std::max(tile_max, tile(r, c));
      if (tile_max == kMinusInf) continue;
      const double m_old = m_[query_i];
      const double m_new = std::max(m_old, tile_max);
      // (3) rescale what was summed under the old max: α = exp(m_old − m_new) ≤ 1. Before the
      // first allowed cell ℓ and O are 0, so there is nothing to rescale (α reported as 1).
      const double alpha = m_old == kMinusInf ? 1.0 : std::exp(m_old - m_new);
      step.rescale[static_cast<std::size_t>(r)] = alpha;
      if (alpha != 1.0) {
        l_[query_i] *= alpha;
        O_.row(query_i) *= alpha;
      }
      // (4) add the tile's exp(s_ij − m_new) to ℓ and exp(s_ij − m_new) v_j to O.
      for (int c = 0; c < cols; ++c) {
        const int key_j = step.col_begin + c;
        if (!allowed(query_i, key_j)) continue;  // masked: −∞ before softmax, contributes 0
        const double p = std::exp(tile(r, c) - m_new);
        l_[query_i] += p;
        O_.row(query_i) += p * V_.row(key_j);
      }
      m_[query_i] = m_new;
    }
  }

  // The block's state after the step.
  step.m.assign(m_.begin() + step.row_begin, m_.begin() + step.row_end);
  step.l.assign(l_.begin() + step.row_begin, l_.begin() + step.row_end);
  step.O = O_.middleRows(step.row_begin, rows);
  step.partial = Matrix::Zero(rows, O_.cols());
  for (int r = 0; r < rows; ++r)
    if (step.l[static_cast<std::size_t>(r)] > 0.0)
      step.partial.row(r) = (step.O.row(r) / step.l[static_cast<std::size_t>(r)]).unaryExpr(&clamp_finite);
  return step;
}

Matrix OnlinePass::output() const {
  // (5) y_i = O_i / ℓ_i. ℓ_i ≥ 1 once a row has seen its max cell (that cell adds exp(0) = 1).
  Matrix Y = Matrix::Zero(n_, O_.cols());
  for (int i = 0; i < n_; ++i)
    if (l_[i] > 0.0) Y.row(i) = (O_.row(i) / l_[i]).unaryExpr(&clamp_finite);
  return Y;
}

std::vector<int> OnlinePass::masked_rows() const {
  std::vector<int> rows;
  for (int i = 0; i < n_; ++i)
    if (l_[i] == 0.0) rows.push_back(i);
  return rows;
}

OnlineResult attend_online(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                           int block) {
  OnlinePass pass(Q, K, V, options, block);
  OnlineResult result;
  result.block = pass.block();
  result.steps.reserve(static_cast<std::size_t>(pass.step_count()));
  while (!pass.done()) result.steps.push_back(pass.next());
  result.output = pass.output();
  result.masked_rows = pass.masked_rows();
  result.tiles_computed = pass.tiles_computed();
  result.tiles_skipped = pass.tiles_skipped();
  return result;
}

}  // namespace attn
