// kernels.cpp — picks the kernel set once (see kernels.hpp) and packs panels.
#include "core/kernels.hpp"

#include <cstring>

namespace attn::kernels {

// One per kernels_<isa>.cpp compiled into this binary (see src/CMakeLists.txt).
#if defined(__EMSCRIPTEN__)
// wasm always has SIMD128, so the web app leaves the scalar set out (its code is download size);
// the test and benchmark programs link it (attention_core_scalar) to cross-check simd128 against it.
__attribute__((weak)) const KernelSet& scalar_kernels();
#else
const KernelSet& scalar_kernels();
#endif
#if defined(__x86_64__)
const KernelSet& sse2_kernels();
const KernelSet& avx2_kernels();
#endif
#if defined(__EMSCRIPTEN__)
const KernelSet& simd128_kernels();
#endif

namespace {

// Widest first.
std::vector<const KernelSet*> runnable_sets() {
  std::vector<const KernelSet*> sets;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) sets.push_back(&avx2_kernels());
  sets.push_back(&sse2_kernels());
#endif
#if defined(__EMSCRIPTEN__)
  sets.push_back(&simd128_kernels());
#endif
#if defined(__EMSCRIPTEN__)
  if (&scalar_kernels != nullptr) sets.push_back(&scalar_kernels());  // weak: linked or not
#else
  sets.push_back(&scalar_kernels());
#endif
  return sets;
}

const KernelSet*& chosen() {
  static const KernelSet* set = runnable_sets().front();
  return set;
}

}  // namespace

const KernelSet& active() {
  return *chosen();
}

std::vector<const KernelSet*> available() {
  return runnable_sets();
}

bool select(const char* name) {
  for (const KernelSet* set : runnable_sets()) {
    if (std::strcmp(set->name, name) == 0) {
      chosen() = set;
      return true;
    }
  }
  return false;
}

void pack_panels(const double* src, std::ptrdiff_t ld_k, std::ptrdiff_t ld_c, int inner, int cols, int width,
                 double* packed) {
  const int n_panels = panels(cols, width);
  for (int p = 0; p < n_panels; ++p) {
    double* panel = packed + std::ptrdiff_t(p) * inner * width;
    const int c0 = p * width;
    for (int k = 0; k < inner; ++k) {
      double* row = panel + std::ptrdiff_t(k) * width;
      for (int c = 0; c < width; ++c) row[c] = c0 + c < cols ? src[k * ld_k + (c0 + c) * ld_c] : 0.0;
    }
  }
}

void pack_panel_column(const double* src, std::ptrdiff_t ld_k, std::ptrdiff_t ld_c, int inner, int c,
                       int width, double* packed) {
  double* panel = packed + std::ptrdiff_t(c / width) * inner * width + c % width;
  for (int k = 0; k < inner; ++k) panel[std::ptrdiff_t(k) * width] = src[k * ld_k + c * ld_c];
}

}  // namespace attn::kernels
