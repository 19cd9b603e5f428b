// kernels_simd128.cpp — the kernels for WebAssembly SIMD (2 doubles per 128-bit vector), built with
// -msimd128. Eigen 3.4 has no wasm SIMD path, so these are the wasm build's vector code. No FMA in
// wasm SIMD 1.0: fmadd is a multiply then an add.
#include <wasm_simd128.h>

#include <cfloat>
#include <cstdint>
#include <cstdlib>

#include "core/kernels.hpp"

namespace attn::kernels {
namespace {

struct S {
  using reg = v128_t;
  static constexpr int lanes = 2;
  static reg zero() { return wasm_f64x2_splat(0.0); }
  static reg set1(double x) { return wasm_f64x2_splat(x); }
  static reg load(const double* p) { return wasm_v128_load(p); }
  static void store(double* p, reg v) { wasm_v128_store(p, v); }
  static reg add(reg a, reg b) { return wasm_f64x2_add(a, b); }
  static reg sub(reg a, reg b) { return wasm_f64x2_sub(a, b); }
  static reg mul(reg a, reg b) { return wasm_f64x2_mul(a, b); }
  static reg div(reg a, reg b) { return wasm_f64x2_div(a, b); }
  static reg fmadd(reg a, reg b, reg c) { return wasm_f64x2_add(wasm_f64x2_mul(a, b), c); }
  static reg max(reg a, reg b) { return wasm_f64x2_pmax(a, b); }  // a < b ? b : a
  static reg min(reg a, reg b) { return wasm_f64x2_pmin(a, b); }  // b < a ? b : a
  static reg clamp_finite(reg x) {
    x = wasm_v128_and(x, wasm_f64x2_eq(x, x));  // NaN → +0
    return wasm_f64x2_pmax(wasm_f64x2_pmin(x, set1(DBL_MAX)), set1(-DBL_MAX));
  }
  static reg allowed(const unsigned char* bytes) {
    return wasm_i64x2_make(bytes[0] ? -1 : 0, bytes[1] ? -1 : 0);
  }
  static reg select(reg mask, reg a, reg b) { return wasm_v128_bitselect(a, b, mask); }
  static reg and_mask(reg mask, reg a) { return wasm_v128_and(mask, a); }
  static reg pow2(reg n) {  // bits of n + 1.5·2⁵² are those of 1.5·2⁵² plus n
    const v128_t bits = wasm_f64x2_add(n, set1(0x1.8p52));
    const v128_t bias = wasm_i64x2_splat(0x4338000000000000LL - 1023);
    return wasm_i64x2_shl(wasm_i64x2_sub(bits, bias), 52);
  }
};
constexpr const char* kSetName = "simd128";

#include "core/kernels_impl.inc"

}  // namespace

const KernelSet& simd128_kernels() {
  return kSet;
}

}  // namespace attn::kernels
