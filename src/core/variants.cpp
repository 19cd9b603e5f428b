// variants.cpp — the variant pass, every stage kept (see variants.hpp).
//
// Plain Eigen loops rather than the panel kernels of attention.cpp: a variant scene is small and
// shown for what each stage holds, and this file is linked only into the builds that compute the
// variants (the CLI, the desktop app, the web's full build), never the web's first load.
#include "core/variants.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "core/alibi.hpp"

namespace attn {
namespace {

constexpr double kMaxFinite = std::numeric_limits<double>::max();

Matrix finite(const Matrix& m) {
  return m.unaryExpr([](double x) { return std::isnan(x) ? 0.0 : std::clamp(x, -kMaxFinite, kMaxFinite); });
}

// Each row x ← x / √(mean(x²) + ε) · gain (gain empty = ones): RMSNorm (Zhang & Sennrich 2019).
Matrix rms_norm(const Matrix& x, double eps, const std::vector<double>& gain) {
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double mean_square = x.row(i).squaredNorm() / static_cast<double>(x.cols());
    const double inv = 1.0 / std::sqrt(mean_square + eps);
    for (Eigen::Index c = 0; c < x.cols(); ++c)
      out(i, c) = x(i, c) * inv * (gain.empty() ? 1.0 : gain[static_cast<std::size_t>(c)]);
  }
  return out;
}

// Top-k over the allowed keys of each row by `score` (ties: the lower index), single keys or blocks.
MaskMatrix select_topk(const Matrix& score, const MaskMatrix& allowed, int k, int block) {
  const Eigen::Index n = allowed.rows(), m = allowed.cols();
  MaskMatrix selected = MaskMatrix::Zero(n, m);
  const int b = block > 0 ? block : 1;
  const Eigen::Index blocks = (m + b - 1) / b;
  std::vector<std::pair<double, Eigen::Index>> candidates;
  for (Eigen::Index i = 0; i < n; ++i) {
    candidates.clear();
    for (Eigen::Index blk = 0; blk < blocks; ++blk) {
      double sum = 0.0;
      int count = 0;
      for (Eigen::Index j = blk * b; j < std::min(m, (blk + 1) * b); ++j)
        if (allowed(i, j)) {
          sum += score(i, j);
          ++count;
        }
      if (count > 0) candidates.emplace_back(block > 0 ? sum / count : sum, blk);
    }
    // Highest score first; equal scores: the lower index first.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& a, const auto& c) { return a.first > c.first; });
    const std::size_t keep = std::min(candidates.size(), static_cast<std::size_t>(k));
    for (std::size_t c = 0; c < keep; ++c) {
      const Eigen::Index blk = candidates[c].second;
      for (Eigen::Index j = blk * b; j < std::min(m, (blk + 1) * b); ++j) selected(i, j) = allowed(i, j);
    }
  }
  return selected;
}

// One map of query rows q and key rows k: every stage up to the weights (the output is the head's).
Result one_map(const Matrix& q, const Matrix& k, const Options& o, const Variants& v, const Rope* rope,
               bool has_sink, double sink, VariantHead* extra) {
  Result r;
  r.Q = q;
  r.K = k;
  const Eigen::Index n = q.rows(), m = k.rows();
  const int d = static_cast<int>(q.cols());
  Matrix qn = q, kn = k;
  if (v.qk_norm) {
    qn = rms_norm(q, v.qk_eps, v.gain_q);
    kn = rms_norm(k, v.qk_eps, v.gain_k);
    extra->Q_norm = qn;
    extra->K_norm = kn;
  }
  if (rope) {
    r.Q_rope = apply_rope(qn, *rope);
    r.K_rope = apply_rope(kn, *rope);
    qn = r.Q_rope;
    kn = r.K_rope;
  }
  if (m == n) {
    r.allowed = allowed_mask(static_cast<int>(n), o);
  } else {
    // Cross-attention (m source keys): only a custom n×m mask hides keys (positions do not compare).
    r.allowed =
        o.mask.size() ? MaskMatrix((o.mask.array() != 0).cast<unsigned char>()) : MaskMatrix::Ones(n, m);
  }
  r.weights = Matrix::Zero(n, m);
  r.row_max.assign(static_cast<std::size_t>(n), 0.0);
  r.row_sum.assign(static_cast<std::size_t>(n), 0.0);
  if (v.linear) {
    // φ(q) φ(k)ᵀ, no scale; each row divided by its sum over the allowed keys (all terms > 0).
    extra->phi_q = elu1(qn);
    extra->phi_k = elu1(kn);
    r.scores = finite(extra->phi_q * extra->phi_k.transpose());
    r.divisor = 1.0;
    r.scaled = r.scores;
    for (Eigen::Index i = 0; i < n; ++i) {
      double sum = 0.0;
      for (Eigen::Index j = 0; j < m; ++j)
        if (r.allowed(i, j)) sum += r.scores(i, j);
      r.row_sum[static_cast<std::size_t>(i)] = sum;
      if (sum > 0.0)
        for (Eigen::Index j = 0; j < m; ++j)
          if (r.allowed(i, j)) r.weights(i, j) = r.scores(i, j) / sum;
    }
  } else {
    r.scores = finite(qn * kn.transpose());  // n×m   q_i · k_j
    r.divisor = scale_divisor(o.scale, d);
    r.scaled = finite(r.scores / r.divisor);
    Matrix x = r.scaled;
    if (v.softcap > 0.0) {
      extra->capped = (v.softcap * (r.scaled.array() / v.softcap).tanh()).matrix();
      x = extra->capped;
    }
    if (o.alibi_slope != 0.0) {
      r.bias = alibi_bias(static_cast<int>(n), o.alibi_slope);
      x += r.bias;
    }
    if (v.softcap > 0.0 || o.alibi_slope != 0.0) r.logits = x;
    MaskMatrix kept = r.allowed;
    if (v.topk > 0) {
      extra->selected = select_topk(v.indexer.size() ? v.indexer : r.scaled, r.allowed, v.topk, v.topk_block);
      kept = extra->selected;
    }
    if (has_sink) extra->sink_weight.assign(static_cast<std::size_t>(n), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {
      // Softmax over the kept keys and, with a sink, the sink's logit z (which returns no value).
      double mx = has_sink ? sink : -std::numeric_limits<double>::infinity();
      bool any = has_sink;
      for (Eigen::Index j = 0; j < m; ++j)
        if (kept(i, j)) {
          mx = std::max(mx, x(i, j));
          any = true;
        }
      if (!any) continue;  // a fully masked row: weights and output 0
      double sum = has_sink ? std::exp(sink - mx) : 0.0;
      for (Eigen::Index j = 0; j < m; ++j)
        if (kept(i, j)) {
          r.weights(i, j) = std::exp(x(i, j) - mx);
          sum += r.weights(i, j);
        }
      r.weights.row(i) /= sum;
      if (has_sink) extra->sink_weight[static_cast<std::size_t>(i)] = std::exp(sink - mx) / sum;
      r.row_max[static_cast<std::size_t>(i)] = mx;
      r.row_sum[static_cast<std::size_t>(i)] = sum;
    }
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (!r.allowed.row(i).any()) r.masked_rows.push_back(static_cast<int>(i));
  return r;
}

// One head: its map (two with differential attention), weights and output.
Result one_head(const Matrix& q, const Matrix& k, const Matrix& val, const Options& o, const Variants& v,
                const Rope* rope, bool has_sink, double sink, VariantHead* extra) {
  if (!v.differential) {
    Result r = one_map(q, k, o, v, rope, has_sink, sink, extra);
    r.V = val;
    r.output = finite(r.weights * val);
    return r;
  }
  const Eigen::Index d = q.cols() / 2;
  extra->second_stages.resize(1);
  Result r = one_map(q.leftCols(d), k.leftCols(d), o, v, rope, has_sink, sink, extra);
  extra->second.push_back(
      one_map(q.rightCols(d), k.rightCols(d), o, v, rope, has_sink, sink, &extra->second_stages.front()));
  const Result& r2 = extra->second.front();
  // The head's Q, K are its full 2d columns; Q_rope, K_rope both halves turned.
  if (rope) {
    Matrix qr(q.rows(), q.cols()), kr(k.rows(), k.cols());
    qr << r.Q_rope, r2.Q_rope;
    kr << r.K_rope, r2.K_rope;
    r.Q_rope = std::move(qr);
    r.K_rope = std::move(kr);
  }
  r.Q = q;
  r.K = k;
  r.V = val;
  extra->weights_1 = r.weights;
  r.weights = r.weights - v.lambda * r2.weights;  // A₁ − λ A₂
  r.output = finite(r.weights * val);
  if (v.diff_norm) {
    extra->diff_output = r.output;
    r.output = (1.0 - v.lambda_init) * rms_norm(r.output, 1e-5, {});
  }
  return r;
}

}  // namespace

Matrix elu1(const Matrix& x) {
  return x.unaryExpr([](double a) { return a > 0.0 ? a + 1.0 : std::exp(a); });
}

HeadsResult attend_variants(const Matrix& Q, const Matrix& K, const Matrix& V, int heads, const Matrix& Wo,
                            const Options& options, const HeadsOptions& hv, const Rope* rope,
                            const Variants& v) {
  HeadsResult r;
  r.Q = Q;
  r.K = K;
  r.V = V;
  const int kv_heads = hv.kv_heads > 0 ? hv.kv_heads : heads;
  r.kv_heads = kv_heads;
  const Eigen::Index n = Q.rows();
  const Eigen::Index dk_head = Q.cols() / heads, dv_head = V.cols() / kv_heads;
  auto stages = std::make_shared<VariantStages>();
  stages->heads.resize(static_cast<std::size_t>(heads));
  Options head_options = options;
  for (int t = 0; t < heads; ++t) {
    const int g = kv_group(t, heads, kv_heads);
    if (hv.alibi) head_options.alibi_slope = alibi_slope(t, heads);
    r.heads.push_back(one_head(Q.middleCols(t * dk_head, dk_head), K.middleCols(g * dk_head, dk_head),
                               V.middleCols(g * dv_head, dv_head), head_options, v, rope,
                               !v.sink_logit.empty(), v.sink_logit.empty() ? 0.0 : v.sink(t),
                               &stages->heads[static_cast<std::size_t>(t)]));
  }
  r.concat.resize(n, dv_head * heads);
  r.weights_mean = Matrix::Zero(n, K.rows());
  for (int t = 0; t < heads; ++t) {
    const Result& head = r.heads[static_cast<std::size_t>(t)];
    r.concat.middleCols(t * dv_head, dv_head) = head.output;
    r.weights_mean += head.weights;
  }
  if (heads > 1) r.weights_mean /= static_cast<double>(heads);
  Matrix mapped = r.concat;
  if (v.gate.size() != 0) {
    // Y ⊙ σ(G) before W_o: element-wise (a logit per concat column) or head-wise (one per head).
    stages->gate = v.gate;
    stages->gate_sigmoid = v.gate.unaryExpr([](double x) { return 1.0 / (1.0 + std::exp(-x)); });
    const bool elementwise = v.gate.cols() == r.concat.cols();
    stages->gated = r.concat;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index c = 0; c < r.concat.cols(); ++c)
        stages->gated(i, c) *= stages->gate_sigmoid(i, elementwise ? c : c / dv_head);
    mapped = stages->gated;
  }
  r.Wo = Wo;
  r.output = Wo.size() == 0 ? mapped : finite(mapped * Wo);
  r.allowed = r.heads.front().allowed;
  r.masked_rows = r.heads.front().masked_rows;
  if (rope) {
    // The full turned Q and K, head by head (each head's columns as its own head).
    r.Q_rope.resize(Q.rows(), Q.cols());
    r.K_rope.resize(K.rows(), K.cols());
    for (int t = 0; t < heads; ++t) {
      r.Q_rope.middleCols(t * dk_head, dk_head) = r.heads[static_cast<std::size_t>(t)].Q_rope;
      const int g = kv_group(t, heads, kv_heads);
      r.K_rope.middleCols(g * dk_head, dk_head) = r.heads[static_cast<std::size_t>(t)].K_rope;
    }
  }
  r.variant = std::move(stages);
  return r;
}

Matrix linear_recurrent(const Matrix& Q, const Matrix& K, const Matrix& V, std::vector<Matrix>* states) {
  const Eigen::Index n = Q.rows(), d = Q.cols(), dv = V.cols();
  const Matrix phi_q = elu1(Q), phi_k = elu1(K);
  Matrix S = Matrix::Zero(d, dv);                      // Σ_{j≤t} φ(k_j) v_jᵀ
  Eigen::RowVectorXd z = Eigen::RowVectorXd::Zero(d);  // Σ_{j≤t} φ(k_j)
  Matrix Y(n, dv);
  if (states) states->clear();
  for (Eigen::Index t = 0; t < n; ++t) {
    S += phi_k.row(t).transpose() * V.row(t);
    z += phi_k.row(t);
    Y.row(t) = (phi_q.row(t) * S) / phi_q.row(t).dot(z);
    if (states) states->push_back(S);
  }
  return Y;
}

}  // namespace attn

namespace attn {

std::string check_mla(const Matrix& X, const MlaWeights& w, int heads) {
  const Eigen::Index d_model = X.cols();
  if (heads < 1) return "heads: must be at least 1";
  if (w.W_dkv.rows() != d_model || w.W_dkv.cols() < 1) return "W_dkv: must be d_model × d_c";
  const Eigen::Index d_c = w.W_dkv.cols(), d_rope = w.W_kr.size() ? w.W_kr.cols() : 0;
  if (w.W_kr.size() && w.W_kr.rows() != d_model) return "W_kr: must be d_model × d_rope";
  if (w.W_uk.rows() != d_c || w.W_uk.cols() < heads || w.W_uk.cols() % heads != 0)
    return "W_uk: must be d_c × h·d_nope";
  if (w.W_uv.rows() != d_c || w.W_uv.cols() < heads || w.W_uv.cols() % heads != 0)
    return "W_uv: must be d_c × h·d_v";
  const Eigen::Index d_nope = w.W_uk.cols() / heads;
  if (w.W_q.rows() != d_model || w.W_q.cols() != heads * (d_nope + d_rope))
    return "W_q: must be d_model × h·(d_nope + d_rope) = " + std::to_string(heads * (d_nope + d_rope)) +
           " columns";
  if (d_rope % 2 != 0) return "W_kr: d_rope must be even to form RoPE pairs";
  return {};
}

MlaResult attend_mla(const Matrix& X, const MlaWeights& w, int heads, const Rope* rope,
                     const Options& options) {
  MlaResult r;
  const Eigen::Index n = X.rows(), d_c = w.W_dkv.cols(), d_rope = w.W_kr.size() ? w.W_kr.cols() : 0;
  const Eigen::Index d_nope = w.W_uk.cols() / heads, d_vh = w.W_uv.cols() / heads, d_qh = d_nope + d_rope;
  r.c_kv = X * w.W_dkv;  // what the cache keeps
  if (d_rope) r.k_rope = rope ? apply_rope(Matrix(X * w.W_kr), *rope) : Matrix(X * w.W_kr);
  r.cache_numbers_per_token = static_cast<long long>(d_c + d_rope);
  const Matrix Q = X * w.W_q;
  const double divisor = scale_divisor(options.scale, static_cast<int>(d_qh));
  const MaskMatrix allowed = allowed_mask(static_cast<int>(n), options);
  r.output.resize(n, heads * d_vh);
  r.absorbed_output.resize(n, heads * d_vh);
  for (int t = 0; t < heads; ++t) {
    const Matrix q_nope = Q.middleCols(t * d_qh, d_nope);
    Matrix q_r = Q.middleCols(t * d_qh + d_nope, d_rope);
    if (rope && d_rope) q_r = apply_rope(q_r, *rope);
    const Matrix W_uk_t = w.W_uk.middleCols(t * d_nope, d_nope), W_uv_t = w.W_uv.middleCols(t * d_vh, d_vh);
    // The naive form: keys and values up-projected from the latent for this head.
    const Matrix k_t = r.c_kv * W_uk_t, v_t = r.c_kv * W_uv_t;
    Matrix scores = q_nope * k_t.transpose();
    // The absorbed form: W_uk folded into the query, the latent read as the key.
    const Matrix q_absorbed = q_nope * W_uk_t.transpose();  // n×d_c
    Matrix absorbed = q_absorbed * r.c_kv.transpose();
    if (d_rope) {
      const Matrix rope_part = q_r * r.k_rope.transpose();
      scores += rope_part;
      absorbed += rope_part;
    }
    r.weights.push_back(masked_softmax(finite(scores / divisor), allowed, nullptr));
    r.absorbed_weights.push_back(masked_softmax(finite(absorbed / divisor), allowed, nullptr));
    r.output.middleCols(t * d_vh, d_vh) = r.weights.back() * v_t;
    r.absorbed_output.middleCols(t * d_vh, d_vh) = (r.absorbed_weights.back() * r.c_kv) * W_uv_t;
    r.scores.push_back(std::move(scores));
    r.absorbed_scores.push_back(std::move(absorbed));
  }
  return r;
}

}  // namespace attn
