// attention_bench — times attn::attend on random scenes of growing size.
//
// The same source runs natively and as wasm under node (scripts/bench), and
// tests/bench/numpy_bench.py times the same computation in NumPy, so each figure is a ratio
// against a peer measured in the same run. Output: one JSON object per line,
//   {"n":…, "d":…, "ms":<median ms per attend>, "reps":…}
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "core/attention.hpp"

namespace {

attn::Matrix random_matrix(std::mt19937& rng, int rows, int cols) {
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)  // uniform [-1, 1) from the raw 32-bit draws
    m.data()[i] = static_cast<double>(rng()) / 2147483648.0 - 1.0;
  return m;
}

}  // namespace

int main() {
  struct Size {
    int n, d;
  };
  const Size sizes[] = {{8, 8}, {64, 32}, {256, 64}, {1024, 64}};
  std::mt19937 rng(1);
  double checksum = 0.0;  // keeps the optimizer from dropping the work
  for (const Size& size : sizes) {
    const attn::Matrix Q = random_matrix(rng, size.n, size.d);
    const attn::Matrix K = random_matrix(rng, size.n, size.d);
    const attn::Matrix V = random_matrix(rng, size.n, size.d);
    attn::Options options;  // scale √d_k, no mask: Y = softmax(QKᵀ/√d_k) V
    // Enough repetitions for ~0.3 s per size, at least 5, timed one by one; report the median.
    const auto t0 = std::chrono::steady_clock::now();
    checksum += attn::attend(Q, K, V, options).output(0, 0);
    const double first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const int reps = std::clamp(static_cast<int>(300.0 / std::max(first_ms, 1e-3)), 5, 2000);
    std::vector<double> ms(static_cast<std::size_t>(reps));
    for (double& t : ms) {
      const auto start = std::chrono::steady_clock::now();
      checksum += attn::attend(Q, K, V, options).output(0, 0);
      t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
    std::printf("{\"n\":%d,\"d\":%d,\"ms\":%.6f,\"reps\":%d}\n", size.n, size.d, ms[ms.size() / 2], reps);
  }
  std::fprintf(stderr, "checksum %g\n", checksum);
  return 0;
}
