// kernels_avx2.cpp — the kernels for AVX2 + FMA (4 doubles per 256-bit vector, fused
// multiply-add). Built with -mavx2 -mfma; only called after kernels.cpp found both on the CPU.
#include <immintrin.h>

#include <cfloat>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/kernels.hpp"

namespace attn::kernels {
namespace {

struct S {
  using reg = __m256d;
  static constexpr int lanes = 4;
  static reg zero() { return _mm256_setzero_pd(); }
  static reg set1(double x) { return _mm256_set1_pd(x); }
  static reg load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, reg v) { _mm256_storeu_pd(p, v); }
  static reg add(reg a, reg b) { return _mm256_add_pd(a, b); }
  static reg sub(reg a, reg b) { return _mm256_sub_pd(a, b); }
  static reg mul(reg a, reg b) { return _mm256_mul_pd(a, b); }
  static reg div(reg a, reg b) { return _mm256_div_pd(a, b); }
  static reg fmadd(reg a, reg b, reg c) { return _mm256_fmadd_pd(a, b, c); }
  static reg max(reg a, reg b) { return _mm256_max_pd(a, b); }
  static reg min(reg a, reg b) { return _mm256_min_pd(a, b); }
  static reg clamp_finite(reg x) {
    x = _mm256_and_pd(x, _mm256_cmp_pd(x, x, _CMP_EQ_OQ));  // NaN → +0
    return _mm256_max_pd(_mm256_min_pd(x, set1(DBL_MAX)), set1(-DBL_MAX));
  }
  static reg allowed(const unsigned char* bytes) {
    std::int32_t four;
    std::memcpy(&four, bytes, 4);
    const __m256i wide = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
    const __m256i zero = _mm256_cmpeq_epi64(wide, _mm256_setzero_si256());
    return _mm256_castsi256_pd(_mm256_xor_si256(zero, _mm256_set1_epi64x(-1)));
  }
  static reg select(reg mask, reg a, reg b) { return _mm256_blendv_pd(b, a, mask); }
  static reg and_mask(reg mask, reg a) { return _mm256_and_pd(mask, a); }
  static reg pow2(reg n) {  // bits of n + 1.5·2⁵² are those of 1.5·2⁵² plus n
    const __m256i bits = _mm256_castpd_si256(_mm256_add_pd(n, set1(0x1.8p52)));
    const __m256i bias = _mm256_set1_epi64x(0x4338000000000000LL - 1023);
    return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_sub_epi64(bits, bias), 52));
  }
};
constexpr const char* kSetName = "avx2+fma";

#include "core/kernels_impl.inc"

}  // namespace

const KernelSet& avx2_kernels() {
  return kSet;
}

}  // namespace attn::kernels
