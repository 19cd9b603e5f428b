// model.cpp — the attention-only transformer: initialization, forward, loss, backward (model.hpp).
#include "core/model.hpp"

#include <cmath>
#include <cstddef>

#include "core/backward.hpp"  // exact_exp, exact_log
#include "core/train.hpp"     // Rng (splitmix64)

namespace attn::model {
namespace {

using Index = Eigen::Index;

// The products below are written as i-k-j loops over row-major data: element C[i][j] is the sum
// of its terms in ascending k, the first added to 0 (or to C's previous value for the add_ forms),
// whatever the compiler does with the innermost j loop (it may vectorize it: each lane is one j).

// C = A B.   A m×p, B p×q, C m×q.
Matrix mul(const Matrix& A, const Matrix& B) {
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
void add_mul_tn(const Matrix& A, const Matrix& B, Matrix& C) {
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
void add_mul(const Matrix& A, const Matrix& Bt, Matrix& C) {
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
Matrix mul_lower(const Matrix& L, const Matrix& B) {
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
Matrix mul_lower_tn(const Matrix& L, const Matrix& B) {
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

std::vector<Matrix*> weights_of(Model& m) {
  std::vector<Matrix*> out{&m.W_E, &m.W_pos};
  for (Layer& layer : m.layers)
    for (Head& h : layer.heads)
      for (Matrix* w : {&h.W_Q, &h.W_K, &h.W_V, &h.W_O}) out.push_back(w);
  out.push_back(&m.W_U);
  return out;
}

std::vector<const Matrix*> weights_of(const Model& m) {
  std::vector<const Matrix*> out{&m.W_E, &m.W_pos};
  for (const Layer& layer : m.layers)
    for (const Head& h : layer.heads)
      for (const Matrix* w : {&h.W_Q, &h.W_K, &h.W_V, &h.W_O}) out.push_back(w);
  out.push_back(&m.W_U);
  return out;
}

Forward forward(const Model& m, const std::vector<int>& tokens, const Ablation& ablation) {
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
    LayerStages& stages = f.layers[l];
    stages.resid_pre = x;
    stages.heads.resize(m.layers[l].heads.size());
    for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h) {
      const Head& w = m.layers[l].heads[h];
      HeadStages& s = stages.heads[h];
      const Matrix& x_l = stages.resid_pre;
      s.q = mul(x_l, w.W_Q);
      s.k = mul(x_l, w.W_K);
      s.v = mul(x_l, w.W_V);
      // (1) scaled scores for j ≤ i; (2) row max; (3) exp and sum; (4) normalize. Above the diagonal
      // the weights stay exactly 0 (the causal mask).
      s.scores = mul_nt_lower(s.q, s.k, inv_sqrt_dh);
      s.weights = Matrix::Zero(n, n);
      for (Index i = 0; i < n; ++i) {
        double row_max = s.scores(i, 0);
        for (Index j = 1; j <= i; ++j) row_max = s.scores(i, j) > row_max ? s.scores(i, j) : row_max;
        double row_sum = 0.0;
        for (Index j = 0; j <= i; ++j) row_sum += (s.weights(i, j) = exact_exp(s.scores(i, j) - row_max));
        for (Index j = 0; j <= i; ++j) s.weights(i, j) /= row_sum;
      }
      s.z = mul_lower(s.weights, s.v);
      s.ablated = ablation.is_off(static_cast<int>(l), static_cast<int>(h));
      s.out = s.ablated ? Matrix::Zero(n, D) : mul(s.z, w.W_O);
      add_into(x, s.out);  // x^{l+1} = x^l + out^{l,0} + out^{l,1} + …
    }
  }
  f.resid_final = x;
  f.logits = mul(x, m.W_U);
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

void backward(const Model& m, const Forward& f, const Matrix& d_logits, Model& grads) {
  const Index n = f.logits.rows(), D = m.d_model();
  const double inv_sqrt_dh = 1.0 / std::sqrt(static_cast<double>(m.d_head()));

  // logits = x^L W_U
  add_mul_tn(f.resid_final, d_logits, grads.W_U);
  Matrix g = Matrix::Zero(n, D);  // ∂L/∂x^{l+1}, then ∂L/∂x^l
  add_mul(d_logits, transposed(m.W_U), g);

  for (std::size_t l = m.layers.size(); l-- > 0;) {
    const LayerStages& stages = f.layers[l];
    const Matrix& x_l = stages.resid_pre;
    const Matrix g_out = g;  // ∂L/∂out^{l,h} for every head: the residual sum passes it through
    for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h) {
      const HeadStages& s = stages.heads[h];
      if (s.ablated) continue;
      const Head& w = m.layers[l].heads[h];
      Head& dw = grads.layers[l].heads[h];
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
      // q = x W_Q, k = x W_K, v = x W_V
      add_mul_tn(x_l, dq, dw.W_Q);
      add_mul_tn(x_l, dk, dw.W_K);
      add_mul_tn(x_l, dv, dw.W_V);
      add_mul(dq, transposed(w.W_Q), g);
      add_mul(dk, transposed(w.W_K), g);
      add_mul(dv, transposed(w.W_V), g);
    }
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
