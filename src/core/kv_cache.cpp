// kv_cache.cpp — step-by-step causal decode (see kv_cache.hpp).
#include "core/kv_cache.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/products.hpp"

namespace attn {
namespace {

double clamp_finite(double x) {
  if (std::isnan(x)) return 0.0;
  return std::clamp(x, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
}

}  // namespace

long long decode_mults_with_cache(int t, int d_model, int d_k, int d_v) {
  const long long len = t + 1;
  return static_cast<long long>(d_model) * (2LL * d_k + d_v) + len * d_k + len * d_v;
}

long long decode_mults_without_cache(int t, int d_model, int d_k, int d_v) {
  const long long len = t + 1;
  return len * d_model * (2LL * d_k + d_v) + len * len * d_k + len * len * d_v;
}

DecodeResult decode_with_cache(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                               int d_model) {
  DecodeResult result;
  const int n = static_cast<int>(Q.rows());
  const int d_k = static_cast<int>(Q.cols()), d_v = static_cast<int>(V.cols());
  const double divisor = scale_divisor(options.scale, d_k);
  const bool custom = options.mask.rows() == n && options.mask.cols() == n;
  // The cache: row j is k_j (v_j). It only ever grows; nothing in it is recomputed.
  Matrix K_cache(0, d_k), V_cache(0, d_v);
  for (int t = 0; t < n; ++t) {
    DecodeStep step;
    step.t = t;
    // (1) append token t's key and value.
    K_cache.conservativeResize(t + 1, Eigen::NoChange);
    V_cache.conservativeResize(t + 1, Eigen::NoChange);
    K_cache.row(t) = K.row(t);
    V_cache.row(t) = V.row(t);
    step.cache_len = t + 1;
    // (2) the new query against every cached key, scaled.                            1×(t+1)
    step.scaled = dot_products(Q.middleRows(t, 1), K_cache).unaryExpr([divisor](double x) {
      return clamp_finite(clamp_finite(x) / divisor);
    });
    // (3) softmax over the allowed cached keys: all of them, unless the custom mask hides some.
    MaskMatrix allowed = MaskMatrix::Ones(1, t + 1);
    if (custom)
      for (int key_j = 0; key_j <= t; ++key_j) allowed(0, key_j) = options.mask(t, key_j) ? 1 : 0;
    step.weights = masked_softmax(step.scaled, allowed, nullptr);
    // (4) the blend of the cached values.                                               1×d_v
    step.output = weighted_sum(step.weights, V_cache).unaryExpr(&clamp_finite);
    step.mults_with_cache = decode_mults_with_cache(t, d_model, d_k, d_v);
    step.mults_without_cache = decode_mults_without_cache(t, d_model, d_k, d_v);
    result.mults_with_cache += step.mults_with_cache;
    result.mults_without_cache += step.mults_without_cache;
    result.steps.push_back(std::move(step));
  }
  return result;
}

}  // namespace attn
