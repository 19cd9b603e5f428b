// backward.hpp — gradients of a loss through every stage of (multi-head) attention.
//
// The forward pass (heads.hpp) for n tokens, h heads, head t on its column slices:
//   Q = X W_q, K = X W_k, V = X W_v                       (projected mode; direct mode starts at Q, K, V)
//   Q̃, K̃ = RoPE(Q), RoPE(K)                               (when the scene turns them; else Q̃ = Q)
//   S_t = Q̃_t K̃_tᵀ / s,   A_t = masked row-softmax(S_t),   Y_t = A_t V_t
//   C = [Y_0 | … | Y_{h−1}],   out = C W_o  (or C)
// Given G = ∂L/∂out (n×d_out), backward() walks it back from the kept stages (the weights A_t and the
// inputs of each product; nothing is recomputed, no finite differences):
//   ∂W_o = Cᵀ G,   ∂C = G W_oᵀ (or G)
//   ∂A_t = ∂Y_t V_tᵀ,   ∂V_t = A_tᵀ ∂Y_t
//   ∂S_t[i,j] = A_t[i,j] (∂A_t[i,j] − Σ_k A_t[i,k] ∂A_t[i,k])   (0 where masked: A = 0 there, so a
//                                                               fully masked row gives exactly 0)
//   ∂Q̃_t = ∂S_t K̃_t / s,   ∂K̃_t = ∂S_tᵀ Q̃_t / s
//   ∂Q = RoPEᵀ(∂Q̃) (the rotation by −θ; identity without RoPE), likewise ∂K
//   ∂X = ∂Q W_qᵀ + ∂K W_kᵀ + ∂V W_vᵀ,   ∂W_q = Xᵀ ∂Q,   ∂W_k = Xᵀ ∂K,   ∂W_v = Xᵀ ∂V
//
// Every product here is a plain loop summing over the inner index in ascending order (no Eigen
// product kernels, whose blocking and vector width differ between x86-64 and wasm), and the core is
// compiled with -ffp-contract=off: the same inputs give the same bits natively and in WebAssembly.
#pragma once

#include <vector>

#include "core/heads.hpp"
#include "core/rope.hpp"

namespace attn {

// The parameters the forward pass was given (X and the W's only in projected mode).
struct BackwardInputs {
  const Matrix* X = nullptr;   // n×d_model, or nullptr in direct mode
  const Matrix* Wq = nullptr;  // d_model×d_k
  const Matrix* Wk = nullptr;  // d_model×d_k
  const Matrix* Wv = nullptr;  // d_model×d_v
  const Rope* rope = nullptr;  // the RoPE the pass applied, or nullptr
};

struct Gradients {
  Matrix dQ, dK, dV;         // n×d_k, n×d_k, n×d_v   (before RoPE: ∂L/∂Q of Q = X W_q)
  Matrix dX, dWq, dWk, dWv;  // projected mode only; empty in direct mode
  Matrix dWo;                // d_v×d_out when the pass had a W_o; empty otherwise
};

// ∂L/∂(every input) from the forward stages `f` (as attend_heads / compute_heads keep them) and
// d_output = ∂L/∂out (n×d_out). Never NaN for finite input.
Gradients backward(const HeadsResult& f, const Matrix& d_output, const BackwardInputs& in);

// A loss value and its gradient with respect to the output it was computed from.
struct Loss {
  double value = 0.0;
  Matrix d_output;  // same shape as the output
};

// L = ½ Σ (out − target)², ∂L/∂out = out − target. Shapes must agree.
Loss mse_loss(const Matrix& output, const Matrix& target);

// Cross-entropy with each output row read as logits over d_out classes:
//   L = (1/m) Σ_{scored i} −log softmax(out_i)[target_i],  ∂L/∂out_i = (softmax(out_i) − e_target) / m
// where target_i < 0 means "row i is not scored" (its gradient is 0) and m is the number of scored
// rows (L = 0 when none). exp and log are exact_exp / exact_log (same bits everywhere).
Loss cross_entropy_loss(const Matrix& logits, const std::vector<int>& targets);

// Plain products in a fixed summation order (k ascending), the same bits on every platform.
Matrix mul(const Matrix& A, const Matrix& B);     // A B
Matrix mul_tn(const Matrix& A, const Matrix& B);  // Aᵀ B
Matrix mul_nt(const Matrix& A, const Matrix& B);  // A Bᵀ

// exp and natural log from +, −, ×, ÷ and exact scaling by powers of two only (no libm), so that
// wasm (musl) and native (glibc) agree bit for bit. exact_exp: relative error below 1e-15 on
// [−745, 709], 0 below; exact_log: x > 0 finite, relative error below 1e-15.
double exact_exp(double x);
double exact_log(double x);

}  // namespace attn
