// kernels.hpp — the SIMD building blocks of the forward pass (attention.cpp, incremental.cpp).
//
// One source (kernels_impl.inc) is compiled once per instruction set, each copy in its own
// translation unit with its own flags, and a KernelSet of function pointers is picked once at run
// time:
//   x86-64   "avx2+fma"  4 doubles per vector (256 bits), fused multiply-add — when the CPU has it
//            "sse2"      2 doubles per vector (128 bits), the x86-64 baseline every CPU has
//   wasm     "simd128"   2 doubles per vector (128 bits, -msimd128)
//   other    "scalar"    1 double (plain C++), also built on x86-64 for the tests
//
// Every function below computes each output element with one fixed sequence of operations that
// depends only on that element's inputs — never on which rows or columns were asked for at the
// same time. So recomputing one row or one column (incremental.cpp) gives bit for bit what the
// full pass gives.
//
// Matrices are row-major doubles. "Panels" are the right-hand operand of a product packed for the
// kernels: B (inner × cols) cut into column panels of `panel_width` columns, panel p holding
//   packed[p·inner·w + k·w + c] = B(k, p·w + c)   (zero where p·w + c ≥ cols).
#pragma once

#include <cstddef>
#include <vector>

namespace attn::kernels {

// Keys are summed in blocks of kKeyBlock (a multiple of every set's lanes): Σ_j e_ij per block, then
// the blocks in order; Σ_j e_ij v_j likewise. An edit of one key then re-sums one block of a row,
// and the full pass, which sums in the same order, gives the same bits (incremental.cpp).
constexpr int kKeyBlock = 64;
inline int key_blocks(int n) {
  return (n + kKeyBlock - 1) / kKeyBlock;
}

struct RowStats {
  double max = 0;  // max over allowed cells of the scaled row (0 for a fully masked row)
  double sum = 0;  // Σ exp(scaled − max) over allowed cells, ≥ 1 (0 for a fully masked row)
};

struct KernelSet {
  const char* name;  // "avx2+fma", "sse2", "simd128", "scalar"
  int lanes;         // doubles per vector register
  int panel_width;   // columns per packed panel (2 vectors)

  // scores(i, j) = clamp(Σ_k Q(i, k) · K(j, k))        (the sum in order k = 0 … d−1)
  // scaled(i, j) = clamp(scores(i, j) / divisor)
  // for rows [i0, i1) and the columns of panels [p0, p1); Q n×d, K packed as Kᵀ panels (d × n),
  // scores and scaled n×n. clamp: NaN → 0, ±Inf → ±DBL_MAX.
  void (*scores_rows)(const double* Q, int d, const double* packed_keys, int n, int i0, int i1, int p0,
                      int p1, double divisor, double* scores, double* scaled);

  // Row softmax over the allowed cells (allowed == nullptr: all): exps = exp(scaled − max),
  // block_sums[b] = block_sum of exps' block b (key_blocks(n) of them), Σ = the block sums added in
  // order, weights = exps / Σ; masked cells exactly 0; a fully masked row all 0 (stats 0, 0).
  RowStats (*softmax_row)(const double* scaled, const unsigned char* allowed, int n, double* exps,
                          double* block_sums, double* weights);

  // Σ x[0 … count) in the fixed order softmax_row sums one block with (lane by lane, the tail padded
  // with +0, then the lanes in order).
  double (*block_sum)(const double* x, int count);

  // partials(i, b, c) = Σ_j exps(i, j) · V(j, c) over the keys j of block b (in order j, from +0) for
  // rows [i0, i1) and blocks [b0, b1); keys outside [first[i], last[i]] are exact zeros (skipping
  // them changes no bit). partials row i starts at i · key_blocks(n) · padded, block b at b · padded,
  // padded = panels(d_v, panel_width) · panel_width (the padding columns hold 0).
  void (*output_blocks)(const double* exps, int n, const double* packed_values, int d_v, int i0, int i1,
                        int b0, int b1, const int* first, const int* last, double* partials);

  // output(i, c) = clamp(Σ_j weights(i, j) · V(j, c)) for rows [i0, i1), the sum in order j over
  // [first[i], last[i]] (cells outside are exact zeros, and skipping an exact 0 term changes no
  // bit). weights n×n, V packed as panels (n × d_v), output n×d_v.
  void (*output_rows)(const double* weights, int n, const double* packed_values, int d_v, int i0, int i1,
                      const int* first, const int* last, double* output);

  // y[i] = exp(x[i]) for x ≤ 709.78 (overflow → +Inf above), ≤ 2 ulp, subnormal results included;
  // x ≤ −745.2 and −Inf give exactly 0. The exp used by softmax_row.
  void (*exp)(const double* x, double* y, std::size_t count);
};

// The set used by the forward pass, chosen once (the widest the CPU runs).
const KernelSet& active();
// Every set this binary holds that runs on this CPU (for tests and benchmarks).
std::vector<const KernelSet*> available();
// Use `name` from available() for later passes (benchmarks); false if it is not there.
bool select(const char* name);

// Pack B (inner × cols), element (k, c) at src[k·ld_k + c·ld_c], into panels of `width` columns.
// packed must hold panels(cols, width) · inner · width doubles.
void pack_panels(const double* src, std::ptrdiff_t ld_k, std::ptrdiff_t ld_c, int inner, int cols, int width,
                 double* packed);
// Repack only column c (after one key or value changed).
void pack_panel_column(const double* src, std::ptrdiff_t ld_k, std::ptrdiff_t ld_c, int inner, int c,
                       int width, double* packed);
inline int panels(int cols, int width) {
  return (cols + width - 1) / width;
}

}  // namespace attn::kernels
