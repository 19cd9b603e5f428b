// attention_bench — times the core on random scenes of growing size (a benchmark, not a test).
//
// The same source runs natively and as wasm under node (scripts/bench), and
// tests/bench/numpy_bench.py times the same computation in NumPy and PyTorch, so each figure is a
// ratio against a peer measured in the same run. Y = softmax(QKᵀ/√d_k) V, no mask. Per size:
//   ms              full forward pass into the buffers of the previous pass (what the app does on a
//                   full recompute: IncrementalAttention::reset), the dispatched kernel set
//   alloc_ms        attn::attend(), which allocates a fresh Result (three n×n matrices) every call
//   baseline_ms     the full pass with the portable baseline set (sse2 on x86-64; = ms elsewhere)
//   incremental_query_ms  one query row changed (IncrementalAttention::set_query)
//   incremental_key_ms    one key row changed   (IncrementalAttention::set_key)
// Medians of repetitions filling ~0.3 s each (at least 5). Output: one JSON object per line, then
//   {"kernels": NAME, "lanes": N, "baseline": NAME}
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/incremental.hpp"
#include "core/kernels.hpp"

namespace {

attn::Matrix random_matrix(std::mt19937& rng, int rows, int cols) {
  attn::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)  // uniform [-1, 1) from the raw 32-bit draws
    m.data()[i] = static_cast<double>(rng()) / 2147483648.0 - 1.0;
  return m;
}

double checksum = 0.0;  // keeps the optimizer from dropping the work

// Median ms of `run` over enough repetitions for ~0.3 s (≥ 5, ≤ 2000).
double median_ms(const std::function<void()>& run) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  run();
  const double first_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  const int reps = std::clamp(static_cast<int>(300.0 / std::max(first_ms, 1e-3)), 5, 2000);
  std::vector<double> ms(static_cast<std::size_t>(reps));
  for (double& t : ms) {
    const auto start = clock::now();
    run();
    t = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  }
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  struct Size {
    int n, d;
  };
  std::vector<Size> sizes = {{64, 16}, {64, 64}, {256, 16}, {256, 64}, {1024, 16}, {1024, 64}};
  if (argc == 3) sizes = {{std::atoi(argv[1]), std::atoi(argv[2])}};  // one size: attention_bench N D
  const std::string fast = attn::kernels::active().name;
  // The portable baseline: SSE2 on x86-64 (wasm and other targets have one set besides scalar).
  const std::string baseline = attn::kernels::select("sse2") ? "sse2" : fast;
  attn::kernels::select(fast.c_str());
  std::mt19937 rng(1);
  {  // Warm-up, ~0.5 s: lets a wasm engine finish compiling the hot functions with its optimizing tier
    const attn::Matrix Q = random_matrix(rng, 256, 64), K = random_matrix(rng, 256, 64),
                       V = random_matrix(rng, 256, 64);
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500))
      checksum += attn::attend(Q, K, V, attn::Options{}).output(0, 0);
  }
  for (const Size& size : sizes) {
    const attn::Matrix Q = random_matrix(rng, size.n, size.d);
    const attn::Matrix K = random_matrix(rng, size.n, size.d);
    const attn::Matrix V = random_matrix(rng, size.n, size.d);
    const attn::Options options;  // scale √d_k, no mask: Y = softmax(QKᵀ/√d_k) V
    attn::IncrementalAttention inc;

    attn::kernels::select(baseline.c_str());
    const double baseline_ms = median_ms([&] {
      inc.reset(Q, K, V, options);
      checksum += inc.result().output(0, 0);
    });
    attn::kernels::select(fast.c_str());
    const double ms = median_ms([&] {
      inc.reset(Q, K, V, options);
      checksum += inc.result().output(0, 0);
    });
    const double alloc_ms = median_ms([&] { checksum += attn::attend(Q, K, V, options).output(0, 0); });

    inc.reset(Q, K, V, options);
    std::vector<double> row(static_cast<std::size_t>(size.d));
    int step = 0;
    const double query_ms = median_ms([&] {  // drag: query (step mod n) gets a new value
      const int i = step++ % size.n;
      for (int c = 0; c < size.d; ++c) row[std::size_t(c)] = Q(i, c) + 0.01 * (step % 7);
      inc.set_query(i, row.data());
      checksum += inc.result().output(i, 0);
    });
    const double key_ms = median_ms([&] {
      const int j = step++ % size.n;
      for (int c = 0; c < size.d; ++c) row[std::size_t(c)] = K(j, c) + 0.01 * (step % 7);
      inc.set_key(j, row.data());
      checksum += inc.result().output(0, 0);
    });
    std::printf(
        "{\"n\":%d,\"d\":%d,\"ms\":%.6f,\"alloc_ms\":%.6f,\"baseline_ms\":%.6f,\"incremental_query_ms\":%.6f,"
        "\"incremental_key_ms\":%.6f}\n",
        size.n, size.d, ms, alloc_ms, baseline_ms, query_ms, key_ms);
    std::fflush(stdout);
  }
  std::printf("{\"kernels\":\"%s\",\"lanes\":%d,\"baseline\":\"%s\"}\n", fast.c_str(),
              attn::kernels::active().lanes, baseline.c_str());
  std::fprintf(stderr, "checksum %g\n", checksum);
  return 0;
}
