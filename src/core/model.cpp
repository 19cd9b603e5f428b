// model.cpp — the attention-only transformer: initialization, forward, loss, backward (model.hpp).
#include "core/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/backward.hpp"  // exact_exp, exact_log
#include "core/train.hpp"     // Rng (splitmix64)

namespace attn::model {
namespace {

using Index = Eigen::Index;

// x86-64 natively: each product is also compiled for AVX2 (without FMA) and the one the CPU can run is
// picked when the program starts (GCC's target_clones). Its innermost j loop then does 4 columns at a
// time instead of SSE2's 2; each element still sums the same terms in the same order with separate
// multiplies and adds, so the bits do not change (the hashes of tests/model_test.cpp and
// tests/lm_test.cpp, and wasm's, are the same).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__) && \
    defined(__linux__)
#define AL_PRODUCT __attribute__((target_clones("avx2", "default")))
#else
#define AL_PRODUCT
#endif

// The products below are written as i-k-j loops over row-major data: element C[i][j] is the sum
// of its terms in ascending k, the first added to 0 (or to C's previous value for the add_ forms),
// whatever the compiler does with the innermost j loop (it may vectorize it: each lane is one j).

// C = A B.   A m×p, B p×q, C m×q.
AL_PRODUCT Matrix mul(const Matrix& A, const Matrix& B) {
  const Index m = A.rows(), p = A.cols(), q = B.cols();
  Matrix C = Matrix::Zero(m, q);
  const double* a = A.data();
  const double* b = B.data();
  for (Index i = 0; i < m; ++i) {
    double* __restrict c_row = C.data() + i * q;
    for (Index k = 0; k < p; ++k) {
      const double a_ik = a[i * p + k];
      const double* __restrict b_row = b + k * q;
      for (Index j = 0; j < q; ++j) c_row[j] += a_ik * b_row[j];
    }
  }
  return C;
}

// C += Aᵀ B.   A p×m, B p×q, C m×q (the sum over the rows k of A and B, k ascending).
AL_PRODUCT void add_mul_tn(const Matrix& A, const Matrix& B, Matrix& C) {
  const Index p = A.rows(), m = A.cols(), q = B.cols();
  for (Index k = 0; k < p; ++k) {
    const double* a_row = A.data() + k * m;
    const double* __restrict b_row = B.data() + k * q;
    for (Index i = 0; i < m; ++i) {
      const double a_ki = a_row[i];
      double* __restrict c_row = C.data() + i * q;
      for (Index j = 0; j < q; ++j) c_row[j] += a_ki * b_row[j];
    }
  }
}

// C += A Bt where Bt is Bᵀ already transposed (A m×p, Bt p×q): C += A Bᵀ for B q×p.
AL_PRODUCT void add_mul(const Matrix& A, const Matrix& Bt, Matrix& C) {
  const Index m = A.rows(), p = A.cols(), q = Bt.cols();
  for (Index i = 0; i < m; ++i) {
    double* __restrict c_row = C.data() + i * q;
    for (Index k = 0; k < p; ++k) {
      const double a_ik = A.data()[i * p + k];
      const double* __restrict b_row = Bt.data() + k * q;
      for (Index j = 0; j < q; ++j) c_row[j] += a_ik * b_row[j];
    }
  }
}

// Lower-triangular L (n×n, zero above the diagonal) times B (n×q): row i sums k = 0 … i.
AL_PRODUCT Matrix mul_lower(const Matrix& L, const Matrix& B) {
  const Index n = L.rows(), q = B.cols();
  Matrix C = Matrix::Zero(n, q);
  for (Index i = 0; i < n; ++i) {
    double* __restrict c_row = C.data() + i * q;
    for (Index k = 0; k <= i; ++k) {
      const double l_ik = L.data()[i * n + k];
      const double* __restrict b_row = B.data() + k * q;
      for (Index j = 0; j < q; ++j) c_row[j] += l_ik * b_row[j];
    }
  }
  return C;
}

// Lᵀ B for lower-triangular L (n×n) and B (n×q): row k sums L[i][k] B[i] over i = k … n−1, i ascending.
AL_PRODUCT Matrix mul_lower_tn(const Matrix& L, const Matrix& B) {
  const Index n = L.rows(), q = B.cols();
  Matrix C = Matrix::Zero(n, q);
  for (Index i = 0; i < n; ++i) {
    const double* __restrict b_row = B.data() + i * q;
    for (Index k = 0; k <= i; ++k) {
      const double l_ik = L.data()[i * n + k];
      double* __restrict c_row = C.data() + k * q;
      for (Index j = 0; j < q; ++j) c_row[j] += l_ik * b_row[j];
    }
  }
  return C;
}

// (P Rᵀ)[i][j] · factor for j ≤ i, 0 above the diagonal.   P, R n×d.
Matrix mul_nt_lower(const Matrix& P, const Matrix& R, double factor) {
  const Index n = P.rows(), d = P.cols();
  Matrix C = Matrix::Zero(n, n);
  for (Index i = 0; i < n; ++i) {
    const double* p_row = P.data() + i * d;
    for (Index j = 0; j <= i; ++j) {
      const double* r_row = R.data() + j * d;
      double sum = 0.0;
      for (Index c = 0; c < d; ++c) sum += p_row[c] * r_row[c];
      C(i, j) = sum * factor;
    }
  }
  return C;
}

Matrix transposed(const Matrix& M) {
  return M.transpose();
}

void add_into(Matrix& sum, const Matrix& x) {
  double* __restrict s = sum.data();
  const double* __restrict v = x.data();
  for (Index k = 0; k < sum.size(); ++k) s[k] += v[k];
}

Matrix uniform_matrix(train::Rng& rng, int rows, int cols, double bound) {
  Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = (2.0 * rng.uniform() - 1.0) * bound;
  return m;
}

}  // namespace

std::string check_dims(const Dims& d) {
  if (d.layers < 1 || d.layers > kMaxLayers)
    return "layers: must be 1 to " + std::to_string(kMaxLayers) + ", got " + std::to_string(d.layers);
  if (d.heads < 1 || d.heads > kMaxHeads)
    return "heads: must be 1 to " + std::to_string(kMaxHeads) + ", got " + std::to_string(d.heads);
  if (d.d_model < 1 || d.d_model > kMaxModelDim)
    return "d_model: must be 1 to " + std::to_string(kMaxModelDim) + ", got " + std::to_string(d.d_model);
  if (d.d_model % d.heads != 0)
    return "d_model: must be a multiple of heads (d_head = d_model / heads), got d_model = " +
           std::to_string(d.d_model) + " with " + std::to_string(d.heads) + " heads";
  if (d.n_ctx < 4 || d.n_ctx > kMaxContext)
    return "n_ctx: must be 4 to " + std::to_string(kMaxContext) + ", got " + std::to_string(d.n_ctx);
  if (d.vocab < 2 || d.vocab > kMaxVocab)
    return "vocab: must be 2 to " + std::to_string(kMaxVocab) + " symbols, got " + std::to_string(d.vocab);
  return {};
}

std::vector<std::string> default_vocab(int vocab) {
  std::vector<std::string> symbols;
  for (int v = 0; v < vocab; ++v) {
    if (v < 26)
      symbols.push_back(std::string(1, static_cast<char>('a' + v)));
    else if (v == 26)
      symbols.push_back(" ");
    else if (v == 27)
      symbols.push_back(".");
    else
      symbols.push_back("s" + std::to_string(v));
  }
  return symbols;
}

Model init_model(const Dims& d, std::uint64_t seed) {
  train::Rng rng{seed ^ 0x6A09E667F3BCC909ull};  // a stream of its own (not train.cpp's streams)
  rng.next();
  Model m;
  m.vocab = default_vocab(d.vocab);
  const int d_head = d.d_model / d.heads;
  const double in_bound = 1.0 / std::sqrt(static_cast<double>(d.d_model));
  m.W_E = uniform_matrix(rng, d.vocab, d.d_model, 0.5 * in_bound);
  m.W_pos = uniform_matrix(rng, d.n_ctx, d.d_model, 0.5 * in_bound);
  m.layers.resize(static_cast<std::size_t>(d.layers));
  for (Layer& layer : m.layers) {
    layer.heads.resize(static_cast<std::size_t>(d.heads));
    for (Head& h : layer.heads) {
      h.W_Q = uniform_matrix(rng, d.d_model, d_head, in_bound);
      h.W_K = uniform_matrix(rng, d.d_model, d_head, in_bound);
      h.W_V = uniform_matrix(rng, d.d_model, d_head, in_bound);
      h.W_O = uniform_matrix(rng, d_head, d.d_model, 1.0 / std::sqrt(static_cast<double>(d_head)));
    }
  }
  m.W_U = uniform_matrix(rng, d.d_model, d.vocab, in_bound);
  return m;
}

Model zeros_like(const Model& m) {
  Model z = m;
  for (Matrix* w : weights_of(z)) w->setZero();
  return z;
}

bool Model::is_gpt() const {
  if (ln_final.present() || b_U.size()) return true;
  for (const Layer& layer : layers) {
    if (layer.b_O.size() || layer.ln1.present() || layer.ln2.present() || layer.mlp.present()) return true;
    for (const Head& h : layer.heads)
      if (h.b_Q.size() || h.b_K.size() || h.b_V.size()) return true;
  }
  return false;
}

namespace {

// The one walk over the weights (weights_of, named_weights): visit(name, matrix) for each present one.
template <class M, class Visit>
void visit_weights(M& m, Visit&& visit) {
  auto maybe = [&](const std::string& name, auto& w) {
    if (w.size()) visit(name, w);
  };
  visit(std::string("W_E"), m.W_E);
  visit(std::string("W_pos"), m.W_pos);
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    auto& layer = m.layers[l];
    const std::string ln = "layers[" + std::to_string(l) + "]";
    maybe(ln + ".ln1.w", layer.ln1.w);
    maybe(ln + ".ln1.b", layer.ln1.b);
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
      auto& head = layer.heads[h];
      const std::string hn = ln + ".heads[" + std::to_string(h) + "]";
      visit(hn + ".W_Q", head.W_Q);
      maybe(hn + ".b_Q", head.b_Q);
      visit(hn + ".W_K", head.W_K);
      maybe(hn + ".b_K", head.b_K);
      visit(hn + ".W_V", head.W_V);
      maybe(hn + ".b_V", head.b_V);
      visit(hn + ".W_O", head.W_O);
    }
    maybe(ln + ".b_O", layer.b_O);
    maybe(ln + ".ln2.w", layer.ln2.w);
    maybe(ln + ".ln2.b", layer.ln2.b);
    maybe(ln + ".mlp.W_in", layer.mlp.W_in);
    maybe(ln + ".mlp.b_in", layer.mlp.b_in);
    maybe(ln + ".mlp.W_out", layer.mlp.W_out);
    maybe(ln + ".mlp.b_out", layer.mlp.b_out);
  }
  maybe(std::string("ln_final.w"), m.ln_final.w);
  maybe(std::string("ln_final.b"), m.ln_final.b);
  visit(std::string("W_U"), m.W_U);
  maybe(std::string("b_U"), m.b_U);
}

// x + b for every row (b 1×cols), in place; nothing when b is empty.
void add_bias(Matrix& x, const Matrix& b) {
  if (!b.size()) return;
  for (Index i = 0; i < x.rows(); ++i) {
    double* __restrict row = x.data() + i * x.cols();
    const double* __restrict bias = b.data();
    for (Index j = 0; j < x.cols(); ++j) row[j] += bias[j];
  }
}

// ∂b += Σ_i g_i (rows in ascending order); nothing when b is absent.
void add_column_sums(const Matrix& g, Matrix& db) {
  if (!db.size()) return;
  for (Index i = 0; i < g.rows(); ++i) {
    const double* __restrict row = g.data() + i * g.cols();
    double* __restrict out = db.data();
    for (Index j = 0; j < g.cols(); ++j) out[j] += row[j];
  }
}

// LN(x) per row: μ = Σx/D, σ² = Σ(x − μ)²/D (sums in ascending column order), rstd = 1/√(σ² + ε),
// x̂ = (x − μ)·rstd, y = x̂·w + b. Without the norm: y = x (and nothing kept).
Matrix layer_norm(const Matrix& x, const Norm& p, NormStages* kept) {
  if (!p.present()) return x;
  const Index n = x.rows(), D = x.cols();
  Matrix y(n, D);
  kept->xhat.resize(n, D);
  kept->rstd.resize(n, 1);
  for (Index i = 0; i < n; ++i) {
    const double* row = x.data() + i * D;
    double sum = 0.0;
    for (Index c = 0; c < D; ++c) sum += row[c];
    const double mean = sum / static_cast<double>(D);
    double sq = 0.0;
    for (Index c = 0; c < D; ++c) sq += (row[c] - mean) * (row[c] - mean);
    const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(D) + kLayerNormEps);
    kept->rstd(i, 0) = rstd;
    for (Index c = 0; c < D; ++c) {
      const double xh = (row[c] - mean) * rstd;
      kept->xhat(i, c) = xh;
      y(i, c) = xh * p.w(0, c) + p.b(0, c);
    }
  }
  return y;
}

// Back through y = x̂·w + b:  ∂w += Σ_i ∂y_i ⊙ x̂_i,  ∂b += Σ_i ∂y_i,  with g = ∂y ⊙ w per row,
// ∂x_i = rstd_i · (g_i − mean(g_i) − x̂_i · mean(g_i ⊙ x̂_i)).
Matrix layer_norm_backward(const Matrix& dy, const Norm& p, const NormStages& kept, Norm& grads) {
  const Index n = dy.rows(), D = dy.cols();
  Matrix dx(n, D);
  for (Index i = 0; i < n; ++i) {
    double sum_g = 0.0, sum_gx = 0.0;
    for (Index c = 0; c < D; ++c) {
      const double g = dy(i, c) * p.w(0, c);
      sum_g += g;
      sum_gx += g * kept.xhat(i, c);
      grads.w(0, c) += dy(i, c) * kept.xhat(i, c);
      grads.b(0, c) += dy(i, c);
    }
    const double mean_g = sum_g / static_cast<double>(D), mean_gx = sum_gx / static_cast<double>(D);
    for (Index c = 0; c < D; ++c)
      dx(i, c) = kept.rstd(i, 0) * (dy(i, c) * p.w(0, c) - mean_g - kept.xhat(i, c) * mean_gx);
  }
  return dx;
}

// One head's stages on its layer's input a (n×D); `over` replaces q, k or v when given.
void head_forward(const Head& w, const Matrix& a, double inv_sqrt_dh, bool ablated, bool mean_ablated,
                  const std::vector<const HeadOverride*>& over, HeadStages& s) {
  const Index n = a.rows();
  s.q = mul(a, w.W_Q);
  add_bias(s.q, w.b_Q);
  s.k = mul(a, w.W_K);
  add_bias(s.k, w.b_K);
  s.v = mul(a, w.W_V);
  add_bias(s.v, w.b_V);
  const HeadOverride* mask = nullptr;
  for (const HeadOverride* o : over) {
    if (o->which == 'm')
      mask = o;
    else
      (o->which == 'q' ? s.q : o->which == 'k' ? s.k : s.v) = o->values;
  }
  // (1) scaled scores for j ≤ i; (2) row max; (3) exp and sum; (4) normalize. Above the diagonal
  // the weights stay exactly 0 (the causal mask), and so do the cells a mask override hides; a row
  // it hides entirely keeps weights 0. Without a mask every cell j ≤ i is allowed, in the same order.
  s.scores = mul_nt_lower(s.q, s.k, inv_sqrt_dh);
  s.weights = Matrix::Zero(n, n);
  for (Index i = 0; i < n; ++i) {
    const auto allowed = [&](Index j) { return mask == nullptr || mask->values(i, j) != 0.0; };
    bool any = false;
    double row_max = 0.0;
    for (Index j = 0; j <= i; ++j)
      if (allowed(j)) {
        row_max = !any || s.scores(i, j) > row_max ? s.scores(i, j) : row_max;
        any = true;
      }
    if (!any) continue;
    double row_sum = 0.0;
    for (Index j = 0; j <= i; ++j)
      if (allowed(j)) row_sum += (s.weights(i, j) = exact_exp(s.scores(i, j) - row_max));
    for (Index j = 0; j <= i; ++j)
      if (allowed(j)) s.weights(i, j) /= row_sum;
  }
  s.z = mul_lower(s.weights, s.v);
  s.ablated = ablated;
  s.mean_ablated = mean_ablated && !ablated;
  s.out = ablated ? Matrix::Zero(n, a.cols()) : mul(s.z, w.W_O);
  if (s.mean_ablated) {  // every row becomes the mean of the rows, summed in ascending order
    for (Index c = 0; c < s.out.cols(); ++c) {
      double sum = 0.0;
      for (Index i = 0; i < n; ++i) sum += s.out(i, c);
      const double mean = sum / static_cast<double>(n);
      for (Index i = 0; i < n; ++i) s.out(i, c) = mean;
    }
  }
}

// The MLP on resid_mid: ln2, mlp_pre, mlp_post, mlp_out; returns resid_post.
Matrix mlp_forward(const Layer& w, LayerStages& s) {
  s.ln2 = layer_norm(s.resid_mid, w.ln2, &s.ln2_kept);
  s.mlp_pre = mul(s.ln2, w.mlp.W_in);
  add_bias(s.mlp_pre, w.mlp.b_in);
  s.mlp_post.resize(s.mlp_pre.rows(), s.mlp_pre.cols());
  for (Index k = 0; k < s.mlp_pre.size(); ++k) s.mlp_post.data()[k] = gelu_tanh(s.mlp_pre.data()[k]);
  s.mlp_out = mul(s.mlp_post, w.mlp.W_out);
  add_bias(s.mlp_out, w.mlp.b_out);
  Matrix x = s.resid_mid;
  add_into(x, s.mlp_out);
  return x;
}

}  // namespace

std::vector<Matrix> logit_lens(const Model& m, const Forward& f, int from) {
  std::vector<Matrix> out;
  for (const LayerStages& layer : f.layers) {
    NormStages kept;
    const Index first = std::min<Index>(std::max(from, 0), layer.resid_post.rows());
    const Matrix rows = layer.resid_post.bottomRows(layer.resid_post.rows() - first);
    Matrix logits = mul(layer_norm(rows, m.ln_final, &kept), m.W_U);
    add_bias(logits, m.b_U);
    out.push_back(std::move(logits));
  }
  return out;
}

std::vector<Matrix*> weights_of(Model& m) {
  std::vector<Matrix*> out;
  visit_weights(m, [&](const std::string&, Matrix& w) { out.push_back(&w); });
  return out;
}

std::vector<const Matrix*> weights_of(const Model& m) {
  std::vector<const Matrix*> out;
  visit_weights(m, [&](const std::string&, const Matrix& w) { out.push_back(&w); });
  return out;
}

std::vector<std::pair<std::string, const Matrix*>> named_weights(const Model& m) {
  std::vector<std::pair<std::string, const Matrix*>> out;
  visit_weights(m, [&](const std::string& name, const Matrix& w) { out.emplace_back(name, &w); });
  return out;
}

std::size_t weight_count(const Model& m) {
  std::size_t count = 0;
  for (const Matrix* w : weights_of(m)) count += static_cast<std::size_t>(w->size());
  return count;
}

// tanh(x) = sign(x) · (1 − e) / (1 + e), e = exp(−2|x|) ∈ (0, 1]: no overflow, and for small |x| the
// relative error stays near 1e-16 · (1/|x|)·|x| — the difference 1 − e is of two nearby numbers only
// when e ≈ 1, where (1 − e) ≈ 2|x| is still exact to the last few bits of e.
double exact_tanh(double x) {
  const double ax = x < 0 ? -x : x;
  if (ax > 20.0) return x < 0 ? -1.0 : 1.0;  // 1 − tanh < 1e-17
  if (ax < 1e-8) return x;                   // tanh x = x − x³/3 + …: x³/3 below x's last bit
  const double e = exact_exp(-2.0 * ax);
  const double t = (1.0 - e) / (1.0 + e);
  return x < 0 ? -t : t;
}

namespace {
constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
constexpr double kGeluA = 0.044715;
}  // namespace

double gelu_tanh(double x) {
  return 0.5 * x * (1.0 + exact_tanh(kGeluC * (x + kGeluA * x * x * x)));
}

// d/dx of 0.5 x (1 + tanh u), u = c (x + a x³):  0.5 (1 + t) + 0.5 x (1 − t²) c (1 + 3 a x²).
double gelu_tanh_grad(double x) {
  const double t = exact_tanh(kGeluC * (x + kGeluA * x * x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * kGeluC * (1.0 + 3.0 * kGeluA * x * x);
}

Forward forward(const Model& m, const std::vector<int>& tokens, const Ablation& ablation,
                const std::vector<HeadOverride>& overrides) {
  Forward f;
  f.tokens = tokens;
  const Index n = static_cast<Index>(tokens.size()), D = m.d_model();
  const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(m.d_head()));

  // x⁰_i = W_E[t_i] + W_pos[i]
  Matrix x(n, D);
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < D; ++c) x(i, c) = m.W_E(tokens[static_cast<std::size_t>(i)], c) + m.W_pos(i, c);

  f.layers.resize(m.layers.size());
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const Layer& w = m.layers[l];
    LayerStages& stages = f.layers[l];
    stages.resid_pre = x;
    stages.ln1 = layer_norm(x, w.ln1, &stages.ln1_kept);
    stages.heads.resize(w.heads.size());
    stages.attn_out = Matrix::Zero(n, D);
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
      HeadStages& s = stages.heads[h];
      std::vector<const HeadOverride*> over;
      for (const HeadOverride& o : overrides)
        if (o.layer == static_cast<int>(l) && o.head == static_cast<int>(h)) over.push_back(&o);
      head_forward(w.heads[h], stages.ln1, inv_sqrt_dh,
                   ablation.is_off(static_cast<int>(l), static_cast<int>(h)),
                   ablation.is_mean(static_cast<int>(l), static_cast<int>(h)), over, s);
      add_into(x, s.out);  // resid_mid = x^l + out^{l,0} + out^{l,1} + …
      add_into(stages.attn_out, s.out);
    }
    add_bias(x, w.b_O);
    add_bias(stages.attn_out, w.b_O);
    stages.resid_mid = x;
    if (w.mlp.present()) x = mlp_forward(w, stages);
    stages.resid_post = x;
  }
  f.resid_final = x;
  f.ln_final = layer_norm(x, m.ln_final, &f.ln_final_kept);
  f.logits = mul(f.ln_final, m.W_U);
  add_bias(f.logits, m.b_U);
  return f;
}

int common_prefix(const std::vector<int>& a, const std::vector<int>& b) {
  std::size_t p = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
  return static_cast<int>(p);
}

namespace {

// An (p + rest.rows())×cols matrix: the first p rows of `kept`, then `rest`.
Matrix join_rows(const Matrix& kept, Index p, const Matrix& rest) {
  Matrix out(p + rest.rows(), rest.cols());
  out.topRows(p) = kept.topRows(p);
  out.bottomRows(rest.rows()) = rest;
  return out;
}

void join_norm(const NormStages& kept, Index p, const NormStages& rest, bool present, NormStages& out) {
  if (!present) return;
  out.xhat = join_rows(kept.xhat, p, rest.xhat);
  out.rstd = join_rows(kept.rstd, p, rest.rstd);
}

// head_forward() for rows p … n−1 only: `a_rest` holds the layer input's rows p … n−1, `kept` the
// head's stages on the previous text (its rows < p are this text's too). Each element is computed
// as head_forward() computes it (mul_nt_lower's dot product, the same softmax, mul_lower's sums).
// Returns the head's output rows p … n−1 (zero when ablated).
Matrix head_rows(const Head& w, const HeadStages& kept, const Matrix& a_rest, Index p, double inv_sqrt_dh,
                 bool ablated, HeadStages& s) {
  Matrix q = mul(a_rest, w.W_Q);
  add_bias(q, w.b_Q);
  Matrix k = mul(a_rest, w.W_K);
  add_bias(k, w.b_K);
  Matrix v = mul(a_rest, w.W_V);
  add_bias(v, w.b_V);
  s.q = join_rows(kept.q, p, q);
  s.k = join_rows(kept.k, p, k);
  s.v = join_rows(kept.v, p, v);
  const Index n = s.q.rows(), d = s.q.cols(), rest = n - p;
  s.scores = Matrix::Zero(n, n);
  s.scores.topLeftCorner(p, p) = kept.scores.topLeftCorner(p, p);
  s.weights = Matrix::Zero(n, n);
  s.weights.topLeftCorner(p, p) = kept.weights.topLeftCorner(p, p);
  Matrix z = Matrix::Zero(rest, d);
  for (Index i = p; i < n; ++i) {
    const double* q_row = s.q.data() + i * d;
    for (Index j = 0; j <= i; ++j) {
      const double* k_row = s.k.data() + j * d;
      double sum = 0.0;
      for (Index c = 0; c < d; ++c) sum += q_row[c] * k_row[c];
      s.scores(i, j) = sum * inv_sqrt_dh;
    }
    double row_max = s.scores(i, 0);
    for (Index j = 1; j <= i; ++j) row_max = s.scores(i, j) > row_max ? s.scores(i, j) : row_max;
    double row_sum = 0.0;
    for (Index j = 0; j <= i; ++j) row_sum += (s.weights(i, j) = exact_exp(s.scores(i, j) - row_max));
    for (Index j = 0; j <= i; ++j) s.weights(i, j) /= row_sum;
    double* __restrict z_row = z.data() + (i - p) * d;
    for (Index j = 0; j <= i; ++j) {
      const double a_ij = s.weights(i, j);
      const double* __restrict v_row = s.v.data() + j * d;
      for (Index c = 0; c < d; ++c) z_row[c] += a_ij * v_row[c];
    }
  }
  s.z = join_rows(kept.z, p, z);
  s.ablated = ablated;
  s.mean_ablated = false;
  Matrix out = ablated ? Matrix::Zero(rest, a_rest.cols()) : mul(z, w.W_O);
  s.out = join_rows(kept.out, p, out);
  return out;
}

// Whether `prev` has the shapes of a forward() of `m` on its tokens with `ablation`'s zero ablations
// and no mean ablation.
bool reusable(const Model& m, const Forward& prev, const Ablation& ablation) {
  const Index n = static_cast<Index>(prev.tokens.size());
  if (prev.layers.size() != m.layers.size() || prev.logits.rows() != n || prev.logits.cols() != m.n_vocab())
    return false;
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const LayerStages& s = prev.layers[l];
    if (s.heads.size() != m.layers[l].heads.size() || s.resid_post.rows() != n) return false;
    for (std::size_t h = 0; h < s.heads.size(); ++h)
      if (s.heads[h].mean_ablated ||
          s.heads[h].ablated != ablation.is_off(static_cast<int>(l), static_cast<int>(h)))
        return false;
  }
  return true;
}

}  // namespace

Forward forward_reusing(const Model& m, const Forward& prev, const std::vector<int>& tokens,
                        const Ablation& ablation) {
  const Index p = common_prefix(prev.tokens, tokens);
  if (p == 0 || ablation.any_mean() || !reusable(m, prev, ablation)) return forward(m, tokens, ablation);
  Forward f;
  f.tokens = tokens;
  const Index n = static_cast<Index>(tokens.size()), D = m.d_model(), rest = n - p;
  const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(m.d_head()));

  Matrix x(rest, D);  // rows p … n−1 of x⁰, then of each layer's output
  for (Index i = p; i < n; ++i)
    for (Index c = 0; c < D; ++c) x(i - p, c) = m.W_E(tokens[static_cast<std::size_t>(i)], c) + m.W_pos(i, c);

  f.layers.resize(m.layers.size());
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const Layer& w = m.layers[l];
    const LayerStages& kept = prev.layers[l];
    LayerStages& stages = f.layers[l];
    stages.resid_pre = join_rows(kept.resid_pre, p, x);
    NormStages ln1_kept;
    const Matrix a = layer_norm(x, w.ln1, &ln1_kept);
    stages.ln1 = join_rows(kept.ln1, p, a);
    join_norm(kept.ln1_kept, p, ln1_kept, w.ln1.present(), stages.ln1_kept);
    stages.heads.resize(w.heads.size());
    Matrix attn_out = Matrix::Zero(rest, D);
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
      const Matrix out =
          head_rows(w.heads[h], kept.heads[h], a, p, inv_sqrt_dh,
                    ablation.is_off(static_cast<int>(l), static_cast<int>(h)), stages.heads[h]);
      add_into(x, out);
      add_into(attn_out, out);
    }
    add_bias(x, w.b_O);
    add_bias(attn_out, w.b_O);
    stages.attn_out = join_rows(kept.attn_out, p, attn_out);
    stages.resid_mid = join_rows(kept.resid_mid, p, x);
    if (w.mlp.present()) {
      LayerStages t;
      t.resid_mid = x;
      x = mlp_forward(w, t);
      stages.ln2 = join_rows(kept.ln2, p, t.ln2);
      join_norm(kept.ln2_kept, p, t.ln2_kept, w.ln2.present(), stages.ln2_kept);
      stages.mlp_pre = join_rows(kept.mlp_pre, p, t.mlp_pre);
      stages.mlp_post = join_rows(kept.mlp_post, p, t.mlp_post);
      stages.mlp_out = join_rows(kept.mlp_out, p, t.mlp_out);
    }
    stages.resid_post = join_rows(kept.resid_post, p, x);
  }
  f.resid_final = join_rows(prev.resid_final, p, x);
  NormStages lnf_kept;
  const Matrix lnf = layer_norm(x, m.ln_final, &lnf_kept);
  f.ln_final = join_rows(prev.ln_final, p, lnf);
  join_norm(prev.ln_final_kept, p, lnf_kept, m.ln_final.present(), f.ln_final_kept);
  Matrix logits = mul(lnf, m.W_U);
  add_bias(logits, m.b_U);
  f.logits = join_rows(prev.logits, p, logits);
  return f;
}

TokenLoss next_token_loss(const Matrix& logits, const std::vector<int>& tokens) {
  TokenLoss loss;
  const Index n = logits.rows(), V = logits.cols();
  loss.d_logits = Matrix::Zero(n, V);
  if (n < 2) return loss;
  const double inv_count = 1.0 / static_cast<double>(n - 1);
  double total = 0.0;
  for (Index i = 0; i + 1 < n; ++i) {
    const int target = tokens[static_cast<std::size_t>(i + 1)];
    double row_max = logits(i, 0);
    for (Index c = 1; c < V; ++c) row_max = logits(i, c) > row_max ? logits(i, c) : row_max;
    double sum = 0.0;
    for (Index c = 0; c < V; ++c) sum += (loss.d_logits(i, c) = exact_exp(logits(i, c) - row_max));
    // −log softmax_t = log Σ exp(z − m) − (z_t − m)
    const double nll = exact_log(sum) - (logits(i, target) - row_max);
    loss.per_token.push_back(nll);
    total += nll;
    for (Index c = 0; c < V; ++c)
      loss.d_logits(i, c) = (loss.d_logits(i, c) / sum - (c == target ? 1.0 : 0.0)) * inv_count;
  }
  loss.value = total * inv_count;
  return loss;
}

namespace {

// Back through one head that is not ablated: g_out = ∂L/∂out (the same for every head of the
// layer), a = the layer's input; adds the head's weight gradients into dw and ∂L/∂a into da.
void head_backward(const Head& w, const HeadStages& s, const Matrix& a, const Matrix& g_out,
                   double inv_sqrt_dh, Head& dw, Matrix& da) {
  const Index n = a.rows();
  // out = z W_O
  add_mul_tn(s.z, g_out, dw.W_O);
  Matrix dz = Matrix::Zero(n, s.z.cols());
  add_mul(g_out, transposed(w.W_O), dz);
  // z = A v:  ∂A = ∂z vᵀ (only j ≤ i matters),  ∂v = Aᵀ ∂z
  const Matrix dA = mul_nt_lower(dz, s.v, 1.0);
  const Matrix dv = mul_lower_tn(s.weights, dz);
  // softmax, then ÷ √d_head
  Matrix dS = Matrix::Zero(n, n);
  for (Index i = 0; i < n; ++i) {
    double dot = 0.0;
    for (Index j = 0; j <= i; ++j) dot += s.weights(i, j) * dA(i, j);
    for (Index j = 0; j <= i; ++j) dS(i, j) = s.weights(i, j) * (dA(i, j) - dot) * inv_sqrt_dh;
  }
  const Matrix dq = mul_lower(dS, s.k);
  const Matrix dk = mul_lower_tn(dS, s.q);
  // q = a W_Q + b_Q, k = a W_K + b_K, v = a W_V + b_V
  add_mul_tn(a, dq, dw.W_Q);
  add_mul_tn(a, dk, dw.W_K);
  add_mul_tn(a, dv, dw.W_V);
  add_column_sums(dq, dw.b_Q);
  add_column_sums(dk, dw.b_K);
  add_column_sums(dv, dw.b_V);
  add_mul(dq, transposed(w.W_Q), da);
  add_mul(dk, transposed(w.W_K), da);
  add_mul(dv, transposed(w.W_V), da);
}

// Back through the MLP: g = ∂L/∂resid_post; returns ∂L/∂resid_mid (the residual path plus the MLP's).
Matrix mlp_backward(const Layer& w, const LayerStages& s, const Matrix& g, Layer& dw) {
  // mlp_out = mlp_post W_out + b_out
  add_mul_tn(s.mlp_post, g, dw.mlp.W_out);
  add_column_sums(g, dw.mlp.b_out);
  Matrix d_pre = Matrix::Zero(s.mlp_pre.rows(), s.mlp_pre.cols());
  add_mul(g, transposed(w.mlp.W_out), d_pre);
  // mlp_post = GELU(mlp_pre)
  for (Index k = 0; k < d_pre.size(); ++k) d_pre.data()[k] *= gelu_tanh_grad(s.mlp_pre.data()[k]);
  // mlp_pre = ln2 W_in + b_in
  add_mul_tn(s.ln2, d_pre, dw.mlp.W_in);
  add_column_sums(d_pre, dw.mlp.b_in);
  Matrix d_ln2 = Matrix::Zero(g.rows(), g.cols());
  add_mul(d_pre, transposed(w.mlp.W_in), d_ln2);
  Matrix g_mid = g;
  add_into(g_mid, w.ln2.present() ? layer_norm_backward(d_ln2, w.ln2, s.ln2_kept, dw.ln2) : d_ln2);
  return g_mid;
}

}  // namespace

void backward(const Model& m, const Forward& f, const Matrix& d_logits, Model& grads) {
  const Index n = f.logits.rows(), D = m.d_model();
  const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(m.d_head()));

  // logits = LNf(x^L) W_U + b_U
  add_mul_tn(f.ln_final, d_logits, grads.W_U);
  add_column_sums(d_logits, grads.b_U);
  Matrix g = Matrix::Zero(n, D);  // ∂L/∂x^{l+1}, then ∂L/∂x^l
  add_mul(d_logits, transposed(m.W_U), g);
  if (m.ln_final.present()) g = layer_norm_backward(g, m.ln_final, f.ln_final_kept, grads.ln_final);

  for (std::size_t l = m.layers.size(); l-- > 0;) {
    const Layer& w = m.layers[l];
    const LayerStages& stages = f.layers[l];
    Layer& dw = grads.layers[l];
    if (w.mlp.present()) g = mlp_backward(w, stages, g, dw);
    // g = ∂L/∂resid_mid = ∂L/∂out^{l,h} for every head and ∂L/∂b_O; the residual passes it to x^l.
    add_column_sums(g, dw.b_O);
    const Matrix g_out = g;
    // Without ln1 the heads read x^l itself: their ∂x^l goes straight into g (the attention-only
    // model's order of additions); with ln1 it is gathered as ∂ln1 first, then taken through the norm.
    Matrix d_ln1 = w.ln1.present() ? Matrix::Zero(n, D) : Matrix();
    Matrix& da = w.ln1.present() ? d_ln1 : g;
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
      const HeadStages& s = stages.heads[h];
      if (s.ablated) continue;
      head_backward(w.heads[h], s, stages.ln1, g_out, inv_sqrt_dh, dw.heads[h], da);
    }
    if (w.ln1.present()) add_into(g, layer_norm_backward(d_ln1, w.ln1, stages.ln1_kept, dw.ln1));
  }
  // x⁰_i = W_E[t_i] + W_pos[i]
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < D; ++c) {
      grads.W_E(f.tokens[static_cast<std::size_t>(i)], c) += g(i, c);
      grads.W_pos(i, c) += g(i, c);
    }
}

std::vector<int> tokenize(const Model& m, const std::string& text, std::string* error) {
  std::vector<int> tokens;
  std::size_t at = 0;
  while (at < text.size()) {
    int best = -1;
    std::size_t best_len = 0;
    for (std::size_t v = 0; v < m.vocab.size(); ++v) {
      const std::string& sym = m.vocab[v];
      if (sym.size() > best_len && text.compare(at, sym.size(), sym) == 0) {
        best = static_cast<int>(v);
        best_len = sym.size();
      }
    }
    if (best < 0) {
      // Quote the whole UTF-8 character that did not match.
      std::size_t len = 1;
      while (at + len < text.size() && (static_cast<unsigned char>(text[at + len]) & 0xC0) == 0x80) ++len;
      std::string known;
      for (std::size_t v = 0; v < m.vocab.size() && v < 30; ++v)
        known += (v ? " " : "") + (m.vocab[v] == " " ? std::string("space") : m.vocab[v]);
      if (m.vocab.size() > 30) known += " …";
      if (error)
        *error = "text: \"" + text.substr(at, len) + "\" at byte " + std::to_string(at) +
                 " is not in the vocabulary (" + known + ")";
      return {};
    }
    tokens.push_back(best);
    at += best_len;
  }
  return tokens;
}

}  // namespace attn::model

namespace attn::model {

Decoder::Decoder(const Model& m, const Ablation& ablation) : m_(&m), ablation_(ablation) {
  k_.resize(m.layers.size());
  v_.resize(m.layers.size());
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    k_[l].assign(m.layers[l].heads.size(), Matrix::Zero(m.n_ctx(), m.d_head()));
    v_[l].assign(m.layers[l].heads.size(), Matrix::Zero(m.n_ctx(), m.d_head()));
  }
}

// The new token's row of every stage, in forward()'s order of operations: the same bits as the
// last row of forward() on all the tokens so far.
Matrix Decoder::step(int token) {
  const Model& m = *m_;
  const Index p = n_, D = m.d_model(), dh = m.d_head();
  const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(dh));
  Matrix x(1, D);
  for (Index c = 0; c < D; ++c) x(0, c) = m.W_E(token, c) + m.W_pos(p, c);
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const Layer& w = m.layers[l];
    NormStages kept;
    const Matrix a = layer_norm(x, w.ln1, &kept);
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
      const Head& hw = w.heads[h];
      Matrix q = mul(a, hw.W_Q), k = mul(a, hw.W_K), v = mul(a, hw.W_V);
      add_bias(q, hw.b_Q);
      add_bias(k, hw.b_K);
      add_bias(v, hw.b_V);
      k_[l][h].row(p) = k.row(0);
      v_[l][h].row(p) = v.row(0);
      if (ablation_.is_off(static_cast<int>(l), static_cast<int>(h))) continue;  // out = 0: x unchanged
      const Matrix& K = k_[l][h];
      const Matrix& Vc = v_[l][h];
      std::vector<double> weights(static_cast<std::size_t>(p + 1));
      for (Index j = 0; j <= p; ++j) {
        double sum = 0.0;
        for (Index c = 0; c < dh; ++c) sum += q(0, c) * K(j, c);
        weights[static_cast<std::size_t>(j)] = sum * inv_sqrt_dh;
      }
      double row_max = weights[0];
      for (Index j = 1; j <= p; ++j) row_max = weights[j] > row_max ? weights[j] : row_max;
      double row_sum = 0.0;
      for (Index j = 0; j <= p; ++j) row_sum += (weights[j] = exact_exp(weights[j] - row_max));
      for (Index j = 0; j <= p; ++j) weights[j] /= row_sum;
      Matrix z = Matrix::Zero(1, dh);
      for (Index j = 0; j <= p; ++j)
        for (Index c = 0; c < dh; ++c) z(0, c) += weights[j] * Vc(j, c);
      add_into(x, mul(z, hw.W_O));
    }
    add_bias(x, w.b_O);
    if (w.mlp.present()) {
      LayerStages s;
      s.resid_mid = x;
      x = mlp_forward(w, s);
    }
  }
  ++n_;
  NormStages kept;
  Matrix logits = mul(layer_norm(x, m.ln_final, &kept), m.W_U);
  add_bias(logits, m.b_U);
  return logits;
}

}  // namespace attn::model
