// model_scores.cpp — in-context, previous-token, prefix-matching and K-composition scores
// (definitions in model_scores.hpp).
#include "core/model_scores.hpp"

#include <cmath>
#include <cstddef>

#include "core/backward.hpp"  // exact_exp

namespace attn::model {
namespace {

using Index = Eigen::Index;

// Plain i-k-j product (fixed order of additions, as in model.cpp).
Matrix product(const Matrix& A, const Matrix& B) {
  Matrix C = Matrix::Zero(A.rows(), B.cols());
  for (Index i = 0; i < A.rows(); ++i)
    for (Index k = 0; k < A.cols(); ++k) {
      const double a = A(i, k);
      for (Index j = 0; j < B.cols(); ++j) C(i, j) += a * B(k, j);
    }
  return C;
}

double frobenius(const Matrix& M) {
  double sum = 0.0;
  for (Index k = 0; k < M.size(); ++k) sum += M.data()[k] * M.data()[k];
  return std::sqrt(sum);
}

}  // namespace

Scores scores_of(const std::vector<Forward>& passes) {
  Scores s;
  if (passes.empty()) return s;
  const std::size_t L = passes.front().layers.size();
  s.previous_token.assign(L, {});
  s.prefix_matching.assign(L, {});
  for (std::size_t l = 0; l < L; ++l) {
    s.previous_token[l].assign(passes.front().layers[l].heads.size(), 0.0);
    s.prefix_matching[l].assign(passes.front().layers[l].heads.size(), 0.0);
  }
  double first = 0.0, second = 0.0, all = 0.0;
  Index first_count = 0, second_count = 0, all_count = 0, prev_count = 0, prefix_count = 0;
  for (const Forward& f : passes) {
    const Index n = static_cast<Index>(f.tokens.size()), k = n / 2;
    const std::vector<double> nll = next_token_loss(f.logits, f.tokens).per_token;  // n − 1
    for (Index i = 0; i + 1 < n; ++i) {
      all += nll[static_cast<std::size_t>(i)];
      ++all_count;
      if (i <= k - 2) {
        first += nll[static_cast<std::size_t>(i)];
        ++first_count;
      } else if (i >= k) {
        second += nll[static_cast<std::size_t>(i)];
        ++second_count;
      }
    }
    prev_count += n - 1;
    prefix_count += k;
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t h = 0; h < f.layers[l].heads.size(); ++h) {
        const Matrix& A = f.layers[l].heads[h].weights;
        for (Index i = 1; i < n; ++i) s.previous_token[l][h] += A(i, i - 1);
        for (Index i = k; i < n; ++i) s.prefix_matching[l][h] += A(i, i - k + 1);
      }
  }
  s.loss = all_count ? all / static_cast<double>(all_count) : 0.0;
  s.first_copy_loss = first_count ? first / static_cast<double>(first_count) : 0.0;
  s.second_copy_loss = second_count ? second / static_cast<double>(second_count) : 0.0;
  s.in_context = s.second_copy_loss - s.first_copy_loss;
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < s.previous_token[l].size(); ++h) {
      if (prev_count) s.previous_token[l][h] /= static_cast<double>(prev_count);
      if (prefix_count) s.prefix_matching[l][h] /= static_cast<double>(prefix_count);
    }
  return s;
}

Scores measure(const Model& m, const std::vector<std::vector<int>>& sequences, const Ablation& ablation) {
  std::vector<Forward> passes;
  passes.reserve(sequences.size());
  for (const std::vector<int>& tokens : sequences) passes.push_back(forward(m, tokens, ablation));
  return scores_of(passes);
}

double composition_score(const Matrix& A, const Matrix& B) {
  const double norms = frobenius(A) * frobenius(B);
  return norms > 0.0 ? frobenius(product(A, B)) / norms : 0.0;
}

Matrix k_composition(const Model& m, int from_layer, int to_layer) {
  if (m.n_layers() <= to_layer || from_layer < 0 || from_layer >= to_layer) return Matrix();
  const std::vector<Head>& from = m.layers[static_cast<std::size_t>(from_layer)].heads;
  const std::vector<Head>& to = m.layers[static_cast<std::size_t>(to_layer)].heads;
  Matrix scores(static_cast<Index>(from.size()), static_cast<Index>(to.size()));
  for (std::size_t b = 0; b < to.size(); ++b) {
    const Matrix W_QK = product(to[b].W_Q, to[b].W_K.transpose());  // D×D
    for (std::size_t a = 0; a < from.size(); ++a) {
      const Matrix W_OV_T = product(from[a].W_O.transpose(), from[a].W_V.transpose());  // (W_V W_O)ᵀ
      scores(static_cast<Index>(a), static_cast<Index>(b)) = composition_score(W_QK, W_OV_T);
    }
  }
  return scores;
}

std::vector<Prediction> predictions(const Forward& f) {
  std::vector<Prediction> out;
  const Index n = f.logits.rows(), V = f.logits.cols();
  for (Index i = 0; i < n; ++i) {
    Prediction p;
    p.token = f.tokens[static_cast<std::size_t>(i)];
    Index best = 0;
    for (Index c = 1; c < V; ++c)
      if (f.logits(i, c) > f.logits(i, best)) best = c;
    double sum = 0.0;
    for (Index c = 0; c < V; ++c) sum += exact_exp(f.logits(i, c) - f.logits(i, best));
    p.predicted = static_cast<int>(best);
    p.p = 1.0 / sum;
    if (i + 1 < n)
      p.p_next = exact_exp(f.logits(i, f.tokens[static_cast<std::size_t>(i + 1)]) - f.logits(i, best)) / sum;
    out.push_back(p);
  }
  return out;
}

const char* head_role(int layer, double previous_token, double prefix_matching) {
  if (layer >= 1 && prefix_matching >= 0.5) return "induction";
  if (previous_token >= 0.5) return "previous token";
  return "";
}

bool induction_formed(const Scores& s) {
  bool head = false;
  for (std::size_t l = 1; l < s.prefix_matching.size(); ++l)
    for (double p : s.prefix_matching[l]) head = head || p >= 0.5;
  return head && s.second_copy_loss < 0.5 * s.first_copy_loss;
}

}  // namespace attn::model
