// backward.cpp — gradients through every stage (formulas in backward.hpp).
#include "core/backward.hpp"

#include <cmath>
#include <cstddef>

namespace attn {

namespace {

// C = A·B for `A` a matrix or a transposed view of one: each C(i, j) sums a(i, k)·b(k, j) over k in
// ascending order, whichever A is (so mul_tn gives the bits of the plain loop over Aᵀ).
template <class Left>
Matrix mul_left(const Left& A, const Matrix& B) {
  Matrix C = Matrix::Zero(A.rows(), B.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index k = 0; k < A.cols(); ++k) {
      const double a = A(i, k);
      for (Eigen::Index j = 0; j < B.cols(); ++j) C(i, j) += a * B(k, j);
    }
  return C;
}

}  // namespace

Matrix mul(const Matrix& A, const Matrix& B) {  // (m×p)(p×q) = m×q
  return mul_left(A, B);
}

Matrix mul_tn(const Matrix& A, const Matrix& B) {  // (p×m)ᵀ(p×q) = m×q
  return mul_left(A.transpose(), B);
}

Matrix mul_nt(const Matrix& A, const Matrix& B) {  // (m×p)(q×p)ᵀ = m×q
  Matrix C(A.rows(), B.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.rows(); ++j) {
      double sum = 0.0;
      for (Eigen::Index k = 0; k < A.cols(); ++k) sum += A(i, k) * B(j, k);
      C(i, j) = sum;
    }
  return C;
}

double exact_exp(double x) {
  if (!(x > -746.0)) return 0.0;  // below the smallest subnormal (and NaN → 0: never produced here)
  if (x > 709.78) return HUGE_VAL;
  // x = k ln2 + r, |r| ≤ ln2/2 + tiny; ln2 split in two (Cody–Waite, fdlibm's constants: ln2_hi has
  // 32 trailing zero bits, so k·ln2_hi is exact for |k| ≤ 1075).
  constexpr double kLog2e = 1.44269504088896338700e+00;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const double k = std::floor(x * kLog2e + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // e^r by its Taylor series to r^14/14! (< 4e-18 for |r| ≤ 0.35), Horner from the top.
  double p = 1.0 / 87178291200.0;  // 1/14!
  constexpr double kInvFactorial[] = {1.0 / 6227020800.0,
                                      1.0 / 479001600.0,
                                      1.0 / 39916800.0,
                                      1.0 / 3628800.0,
                                      1.0 / 362880.0,
                                      1.0 / 40320.0,
                                      1.0 / 5040.0,
                                      1.0 / 720.0,
                                      1.0 / 120.0,
                                      1.0 / 24.0,
                                      1.0 / 6.0,
                                      1.0 / 2.0,
                                      1.0,
                                      1.0};  // 1/13! … 1/0!
  for (double c : kInvFactorial) p = p * r + c;
  return std::ldexp(p, static_cast<int>(k));  // × 2^k: exact (one rounding when subnormal)
}

double exact_log(double x) {
  // x = m · 2^e with m in [√½, √2); log m = 2 atanh(u) = 2 (u + u³/3 + u⁵/5 + …), u = (m−1)/(m+1),
  // |u| ≤ 0.172, so the series to u²³/23 is below 1e-19.
  int e = 0;
  double m = std::frexp(x, &e);  // exact; m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double u = (m - 1.0) / (m + 1.0), u2 = u * u;
  double series = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2) series = series * u2 + 1.0 / k;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  return e * kLn2Hi + (2.0 * u * series + e * kLn2Lo);
}

Loss mse_loss(const Matrix& output, const Matrix& target) {
  Loss loss;
  loss.d_output = output - target;  // elementwise: the same bits everywhere
  double sum = 0.0;
  for (Eigen::Index i = 0; i < loss.d_output.rows(); ++i)
    for (Eigen::Index j = 0; j < loss.d_output.cols(); ++j) sum += loss.d_output(i, j) * loss.d_output(i, j);
  loss.value = 0.5 * sum;
  return loss;
}

Loss cross_entropy_loss(const Matrix& logits, const std::vector<int>& targets) {
  Loss loss;
  loss.d_output = Matrix::Zero(logits.rows(), logits.cols());
  int scored = 0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i)
    if (targets[static_cast<std::size_t>(i)] >= 0) ++scored;
  if (scored == 0) return loss;
  double total = 0.0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const int t = targets[static_cast<std::size_t>(i)];
    if (t < 0) continue;
    double m = logits(i, 0);
    for (Eigen::Index j = 1; j < logits.cols(); ++j) m = logits(i, j) > m ? logits(i, j) : m;
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.cols(); ++j) {
      const double e = exact_exp(logits(i, j) - m);
      loss.d_output(i, j) = e;
      sum += e;
    }
    // −log softmax_t = log Σ exp(z − m) − (z_t − m)
    total += exact_log(sum) - (logits(i, t) - m);
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
      loss.d_output(i, j) = (loss.d_output(i, j) / sum - (j == t ? 1.0 : 0.0)) / scored;
  }
  loss.value = total / scored;
  return loss;
}

namespace {

// The inverse (= transpose) of RoPE on rows: row i turned back by −θ at position offset + i, each
// head's block of d/heads columns on its own.
Matrix rope_transpose(const Matrix& M, const Rope& rope, int heads) {
  Matrix out = M;
  const Eigen::Index d_head = M.cols() / heads;
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (int t = 0; t < heads; ++t) {
      const Matrix block = M.block(i, t * d_head, 1, d_head);
      out.block(i, t * d_head, 1, d_head) =
          rope_rotate_row(block, rope, -static_cast<double>(rope.offset + i));
    }
  return out;
}

}  // namespace

Gradients backward(const HeadsResult& f, const Matrix& d_output, const BackwardInputs& in) {
  Gradients g;
  const int h = static_cast<int>(f.heads.size());
  const Eigen::Index n = f.concat.rows();
  const Eigen::Index d_k = f.Q.cols(), d_v = f.V.cols();
  // Grouped-query attention: head t read K/V group g(t); its gradients add into that group's columns.
  // (kv_heads 0, as train.cpp's own forward leaves it: one K/V per head.)
  const int kv = f.kv_heads >= 1 && h % f.kv_heads == 0 ? f.kv_heads : h;
  const Eigen::Index dk_head = d_k / h, dv_head = d_v / kv;

  // out = C W_o:  ∂W_o = Cᵀ G (d_v×d_out),  ∂C = G W_oᵀ (n×d_v)
  Matrix d_concat;
  if (f.Wo.size() != 0) {
    g.dWo = mul_tn(f.concat, d_output);
    d_concat = mul_nt(d_output, f.Wo);
  } else {
    d_concat = d_output;
  }

  Matrix dQt = Matrix::Zero(n, d_k), dKt = Matrix::Zero(n, dk_head * kv);  // w.r.t. the (turned) Q̃, K̃
  g.dV = Matrix::Zero(n, d_v);
  for (int t = 0; t < h; ++t) {
    const int group = kv_group(t, h, kv);
    const Result& head = f.heads[static_cast<std::size_t>(t)];
    const Matrix& A = head.weights;                                // n×n
    const Matrix& Qh = head.Q_rope.size() ? head.Q_rope : head.Q;  // n×d_k/h, what the scores used
    const Matrix& Kh = head.K_rope.size() ? head.K_rope : head.K;
    const Matrix dY = d_concat.middleCols(t * dv_head, dv_head);  // n×d_v/h
    const Matrix dA = mul_nt(dY, head.V);                         // n×n
    // n×d_v/H_kv; with groups the heads' terms add up in head order (without, one assignment: the
    // same bits as before groups existed, −0 included)
    if (kv == h)
      g.dV.middleCols(group * dv_head, dv_head) = mul_tn(A, dY);
    else
      g.dV.middleCols(group * dv_head, dv_head) += mul_tn(A, dY);
    // Softmax backward, then ÷ s: ∂scores = ∂S / s.
    Matrix dS(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      double dot = 0.0;
      for (Eigen::Index j = 0; j < n; ++j) dot += A(i, j) * dA(i, j);
      for (Eigen::Index j = 0; j < n; ++j) dS(i, j) = A(i, j) * (dA(i, j) - dot) / head.divisor;
    }
    dQt.middleCols(t * dk_head, dk_head) = mul(dS, Kh);  // n×d_k/h
    if (kv == h)
      dKt.middleCols(group * dk_head, dk_head) = mul_tn(dS, Qh);  // n×d_k/h
    else
      dKt.middleCols(group * dk_head, dk_head) += mul_tn(dS, Qh);
  }
  if (in.rope) {
    g.dQ = rope_transpose(dQt, *in.rope, h);
    g.dK = rope_transpose(dKt, *in.rope, kv);
  } else {
    g.dQ = std::move(dQt);
    g.dK = std::move(dKt);
  }

  if (in.X) {  // Q = X W_q, …
    g.dWq = mul_tn(*in.X, g.dQ);
    g.dWk = mul_tn(*in.X, g.dK);
    g.dWv = mul_tn(*in.X, g.dV);
    g.dX = mul_nt(g.dQ, *in.Wq);
    const Matrix from_k = mul_nt(g.dK, *in.Wk), from_v = mul_nt(g.dV, *in.Wv);
    for (Eigen::Index i = 0; i < g.dX.rows(); ++i)
      for (Eigen::Index j = 0; j < g.dX.cols(); ++j) g.dX(i, j) = (g.dX(i, j) + from_k(i, j)) + from_v(i, j);
  }
  return g;
}

}  // namespace attn
