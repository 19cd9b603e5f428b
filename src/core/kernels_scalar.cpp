// kernels_scalar.cpp — the kernels in plain C++, one double at a time: the fallback for CPUs
// without a vector set here, and a reference the tests compare the vector sets with.
#include <cfloat>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/kernels.hpp"

namespace attn::kernels {
namespace {

struct S {
  using reg = double;
  static constexpr int lanes = 1;
  static reg zero() { return 0.0; }
  static reg set1(double x) { return x; }
  static reg load(const double* p) { return *p; }
  static void store(double* p, reg v) { *p = v; }
  static reg add(reg a, reg b) { return a + b; }
  static reg sub(reg a, reg b) { return a - b; }
  static reg mul(reg a, reg b) { return a * b; }
  static reg div(reg a, reg b) { return a / b; }
  static reg fmadd(reg a, reg b, reg c) { return a * b + c; }  // -ffp-contract=off: not fused
  static reg max(reg a, reg b) { return a < b ? b : a; }
  static reg min(reg a, reg b) { return b < a ? b : a; }
  static reg clamp_finite(reg x) {
    if (x != x) return 0.0;  // NaN
    return x > DBL_MAX ? DBL_MAX : (x < -DBL_MAX ? -DBL_MAX : x);
  }
  static reg allowed(const unsigned char* bytes) {  // all-ones bits, or +0
    std::uint64_t bits = bytes[0] ? ~std::uint64_t{0} : 0;
    double m;
    std::memcpy(&m, &bits, sizeof m);
    return m;
  }
  static std::uint64_t bits_of(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }
  static double from_bits(std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  }
  static reg select(reg mask, reg a, reg b) { return bits_of(mask) ? a : b; }
  static reg and_mask(reg mask, reg a) { return from_bits(bits_of(mask) & bits_of(a)); }
  static reg pow2(reg n) {  // bits of n + 1.5·2⁵² are those of 1.5·2⁵² plus n
    return from_bits((bits_of(n + 0x1.8p52) - (0x4338000000000000ULL - 1023)) << 52);
  }
};
constexpr const char* kSetName = "scalar";

#include "core/kernels_impl.inc"

}  // namespace

const KernelSet& scalar_kernels() {
  return kSet;
}

}  // namespace attn::kernels
