// kernels_sse2.cpp — the kernels for SSE2 (2 doubles per 128-bit vector): the x86-64 baseline,
// which every x86-64 CPU runs. No FMA: fmadd is a multiply then an add.
#include <emmintrin.h>

#include <cfloat>
#include <cstdint>
#include <cstdlib>

#include "core/kernels.hpp"

namespace attn::kernels {
namespace {

struct S {
  using reg = __m128d;
  static constexpr int lanes = 2;
  static reg zero() { return _mm_setzero_pd(); }
  static reg set1(double x) { return _mm_set1_pd(x); }
  static reg load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, reg v) { _mm_storeu_pd(p, v); }
  static reg add(reg a, reg b) { return _mm_add_pd(a, b); }
  static reg sub(reg a, reg b) { return _mm_sub_pd(a, b); }
  static reg mul(reg a, reg b) { return _mm_mul_pd(a, b); }
  static reg div(reg a, reg b) { return _mm_div_pd(a, b); }
  static reg fmadd(reg a, reg b, reg c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
  static reg max(reg a, reg b) { return _mm_max_pd(a, b); }
  static reg min(reg a, reg b) { return _mm_min_pd(a, b); }
  static reg clamp_finite(reg x) {
    x = _mm_and_pd(x, _mm_cmpeq_pd(x, x));  // NaN → +0
    return _mm_max_pd(_mm_min_pd(x, set1(DBL_MAX)), set1(-DBL_MAX));
  }
  static reg allowed(const unsigned char* bytes) {
    return _mm_castsi128_pd(_mm_set_epi64x(bytes[1] ? -1 : 0, bytes[0] ? -1 : 0));
  }
  static reg select(reg mask, reg a, reg b) { return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b)); }
  static reg and_mask(reg mask, reg a) { return _mm_and_pd(mask, a); }
  static reg pow2(reg n) {  // bits of n + 1.5·2⁵² are those of 1.5·2⁵² plus n
    const __m128i bits = _mm_castpd_si128(_mm_add_pd(n, set1(0x1.8p52)));
    const __m128i bias = _mm_set1_epi64x(0x4338000000000000LL - 1023);
    return _mm_castsi128_pd(_mm_slli_epi64(_mm_sub_epi64(bits, bias), 52));
  }
};
constexpr const char* kSetName = "sse2";

#include "core/kernels_impl.inc"

}  // namespace

const KernelSet& sse2_kernels() {
  return kSet;
}

}  // namespace attn::kernels
