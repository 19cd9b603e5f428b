// heads.cpp — multi-head attention on top of the single-head pass (see heads.hpp).
#include "core/heads.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/alibi.hpp"
namespace attn {
namespace {

// A product of finite matrices can overflow to ±Inf (or Inf − Inf = NaN inside a dot product);
// keep every stage finite the way attention.cpp does: NaN → 0, ±Inf → ±max.
constexpr double kMaxFinite = std::numeric_limits<double>::max();

Matrix finite(const Matrix& m) {
  return m.unaryExpr([](double x) { return std::isnan(x) ? 0.0 : std::clamp(x, -kMaxFinite, kMaxFinite); });
}

}  // namespace

std::string check_heads(const Matrix& Q, const Matrix& V, int heads, const Matrix& Wo) {
  if (heads < 1) return "heads: must be at least 1";
  if (Q.cols() % heads != 0 || V.cols() % heads != 0)
    return "heads: " + std::to_string(heads) + " does not divide d_k = " + std::to_string(Q.cols()) +
           " and d_v = " + std::to_string(V.cols());
  if (Wo.size() != 0 && Wo.rows() != V.cols())
    return "Wo: has " + std::to_string(Wo.rows()) + " rows, expected d_v = " + std::to_string(V.cols());
  return {};
}

std::string check_grouped_heads(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, int kv_heads,
                                const Matrix& Wo) {
  if (heads < 1) return "heads: must be at least 1";
  if (kv_heads < 1 || heads % kv_heads != 0)
    return "kv_heads: " + std::to_string(kv_heads) + " does not divide heads = " + std::to_string(heads);
  if (Q.cols() % heads != 0)
    return "heads: " + std::to_string(heads) + " does not divide d_k = " + std::to_string(Q.cols());
  if (K.cols() != Q.cols() / heads * kv_heads)
    return "K: has " + std::to_string(K.cols()) + " columns, expected " +
           std::to_string(Q.cols() / heads * kv_heads) + " (kv_heads × d_k/h)";
  if (V.cols() % kv_heads != 0)
    return "kv_heads: " + std::to_string(kv_heads) + " does not divide V's " + std::to_string(V.cols()) +
           " columns";
  const Eigen::Index concat = V.cols() / kv_heads * heads;
  if (Wo.size() != 0 && Wo.rows() != concat)
    return "Wo: has " + std::to_string(Wo.rows()) + " rows, expected " + std::to_string(concat) +
           " (the concat's columns)";
  return {};
}

int kv_group(int head, int heads, int kv_heads) {
  return head / (heads / kv_heads);
}

HeadsResult attend_heads(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, const Matrix& Wo,
                         const Options& options, const HeadsOptions& variants) {
  HeadsResult r;
  r.Q = Q;  // n×d_k
  r.K = K;  // n×d_k·H_kv/h
  r.V = V;  // n×d_v
  const int kv_heads = variants.kv_heads > 0 ? variants.kv_heads : heads;
  r.kv_heads = kv_heads;
  const Eigen::Index n = Q.rows();
  // Each head's key size and each group's value size; the concat has h value slices.
  const Eigen::Index dk_head = Q.cols() / heads, dv_head = V.cols() / kv_heads;
  Options head_options = options;

  // (1) one single-head pass per column slice; each divides by its own √(d_k/h). Head t reads its
  // own query columns and the key/value columns of its group.
  r.heads.reserve(static_cast<std::size_t>(heads));
  if (heads == 1) {
    if (variants.alibi) head_options.alibi_slope = alibi_slope(0, 1);
    r.heads.push_back(attend(Q, K, V, head_options));  // no copies: h = 1 is today's pass, bit for bit
  } else {
    for (int t = 0; t < heads; ++t) {
      const int g = kv_group(t, heads, kv_heads);
      if (variants.alibi) head_options.alibi_slope = alibi_slope(t, heads);
      r.heads.push_back(attend(Q.middleCols(t * dk_head, dk_head), K.middleCols(g * dk_head, dk_head),
                               V.middleCols(g * dv_head, dv_head), head_options));
    }
  }

  // (2) concat = [Y_0 | … | Y_{h−1}]   n×(h·d_v/H_kv);  mean of the weights   n×n
  r.concat.resize(n, dv_head * heads);
  r.weights_mean = Matrix::Zero(n, n);
  for (int t = 0; t < heads; ++t) {
    const Result& head = r.heads[static_cast<std::size_t>(t)];
    r.concat.middleCols(t * dv_head, dv_head) = head.output;
    r.weights_mean += head.weights;
  }
  if (heads > 1) r.weights_mean /= static_cast<double>(heads);

  // (3) output = concat · W_o   n×d_v · d_v×d_out = n×d_out
  r.Wo = Wo;
  r.output = Wo.size() == 0 ? r.concat : finite(r.concat * Wo);

  // The mask and the fully masked rows are the same in every head.
  r.allowed = r.heads.front().allowed;
  r.masked_rows = r.heads.front().masked_rows;
  return r;
}

HeadsResult one_head(Result single, const Matrix& Wo) {
  HeadsResult r;
  r.Q = single.Q;
  r.K = single.K;
  r.V = single.V;
  r.Q_rope = single.Q_rope;
  r.K_rope = single.K_rope;
  r.concat = single.output;
  r.weights_mean = single.weights;
  r.Wo = Wo;
  r.output = Wo.size() == 0 ? single.output : finite(single.output * Wo);  // n×d_v · d_v×d_out
  r.allowed = single.allowed;
  r.masked_rows = single.masked_rows;
  r.heads.push_back(std::move(single));
  return r;
}

HeadsResult attend_heads_projected(const Matrix& X, const Matrix& Wq, const Matrix& Wk, const Matrix& Wv,
                                   int heads, const Matrix& Wo, const Options& options,
                                   const HeadsOptions& variants) {
  // h = 1: exactly attend_projected's stages, then the optional W_o.
  if (heads == 1) {
    Options head_options = options;
    if (variants.alibi) head_options.alibi_slope = alibi_slope(0, 1);
    return one_head(attend_projected(X, Wq, Wk, Wv, head_options), Wo);
  }
  // n×d_model · d_model×d_k = n×d_k (K: n×d_k·H_kv/h; V is n×d_v)
  return attend_heads(finite(X * Wq), finite(X * Wk), finite(X * Wv), heads, Wo, options, variants);
}

}  // namespace attn
