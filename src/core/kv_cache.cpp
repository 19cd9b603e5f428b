// kv_cache.cpp — step-by-step causal decode (see kv_cache.hpp).
#include "core/kv_cache.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/products.hpp"

namespace attn {
namespace {

double clamp_finite(double x) {
  if (std::isnan(x)) return 0.0;
  return std::clamp(x, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
}

// Steps (2)–(4) of decode step t (kv_cache.hpp) over the cache as it is after step (1): K_cache and
// V_cache hold the rows of positions step.kept (ascending), step.t and step.kept set.
void attend_cache(const Matrix& Q, const Matrix& K_cache, const Matrix& V_cache, const Options& options,
                  int d_model, DecodeStep& step) {
  const int t = step.t, n = static_cast<int>(Q.rows());
  const int d_k = static_cast<int>(Q.cols()), d_v = static_cast<int>(V_cache.cols());
  const double divisor = scale_divisor(options.scale, d_k);
  const bool custom = options.mask.rows() == n && options.mask.cols() == n;
  const std::vector<int>& kept = step.kept;
  step.cache_len = static_cast<int>(kept.size());
  // (2) the new query against every cached key, scaled (+ ALiBi's −m·(t − j)), each placed at its
  // position j, so the softmax below sums exactly as the full pass's row t does.   1×(t+1)
  const Matrix dots = dot_products(Q.middleRows(t, 1), K_cache);  // 1×cache_len
  step.scaled = Matrix::Zero(1, t + 1);
  MaskMatrix allowed = MaskMatrix::Zero(1, t + 1);
  for (std::size_t r = 0; r < kept.size(); ++r) {
    const int key_j = kept[r];
    double x = clamp_finite(clamp_finite(dots(0, Eigen::Index(r))) / divisor);
    if (options.alibi_slope != 0.0) x = clamp_finite(x + options.alibi_slope * -std::abs(t - key_j));
    step.scaled(0, key_j) = x;
    // (3) visible: cached, inside the scene's window (or a sink), and allowed by the custom mask.
    allowed(0, key_j) = window_allows(t, key_j, options.window, options.sinks, true) &&
                        (!custom || options.mask(t, key_j) != 0);
  }
  step.weights = masked_softmax(step.scaled, allowed, nullptr);
  // (4) the blend of the cached values: a_t at the kept positions times V_cache, summed as the full
  // pass sums row t (each cached value at its position; an evicted position's weight is 0).  1×d_v
  Matrix values = Matrix::Zero(t + 1, d_v);
  for (std::size_t r = 0; r < kept.size(); ++r) values.row(kept[r]) = V_cache.row(Eigen::Index(r));
  step.output = blend_values(step.scaled, allowed, values);
  // The multiplies over the cache count its kept entries (decode_mults_with_cache of a cache of
  // len = cache_len entries is its value at t = len − 1).
  step.mults_with_cache = decode_mults_with_cache(step.cache_len - 1, d_model, d_k, d_v);
  step.mults_without_cache = decode_mults_without_cache(t, d_model, d_k, d_v);
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

std::vector<int> cache_kept(const CachePolicy& policy, int t) {
  std::vector<int> kept;
  for (int j = 0; j <= t; ++j) {
    const bool sink = policy.kind == CacheKind::SinksLastW && j < policy.sinks;
    if (policy.kind == CacheKind::KeepAll || sink || t - j < policy.window) kept.push_back(j);
  }
  return kept;
}

int cache_evicted_at(const CachePolicy& policy, int t) {
  if (policy.kind == CacheKind::KeepAll) return -1;
  const int j = t - policy.window;  // leaves the last w with this step
  const int sinks = policy.kind == CacheKind::SinksLastW ? policy.sinks : 0;
  return j >= sinks ? j : -1;
}

std::string check_cache_policy(const CachePolicy& policy) {
  if (policy.kind == CacheKind::KeepAll) return {};
  if (policy.window < 1) return "cache: keeping the last w needs w ≥ 1, got " + std::to_string(policy.window);
  if (policy.kind == CacheKind::SinksLastW && policy.sinks < 0)
    return "cache: sinks must be 0 or more, got " + std::to_string(policy.sinks);
  return {};
}

DecodeResult decode_with_cache(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options,
                               int d_model, const CachePolicy& policy) {
  DecodeResult result;
  const int n = static_cast<int>(Q.rows());
  const int d_k = static_cast<int>(Q.cols()), d_v = static_cast<int>(V.cols());
  // The cache: K_cache row r is k_j for j = kept[r] (likewise V). Appended to, evicted from; nothing
  // in it is ever recomputed.
  Matrix K_cache(0, d_k), V_cache(0, d_v);
  std::vector<int> kept;
  for (int t = 0; t < n; ++t) {
    DecodeStep step;
    step.t = t;
    // (1) append token t's key and value, then evict what the policy drops.
    const Eigen::Index len = K_cache.rows();
    K_cache.conservativeResize(len + 1, Eigen::NoChange);
    V_cache.conservativeResize(len + 1, Eigen::NoChange);
    K_cache.row(len) = K.row(t);
    V_cache.row(len) = V.row(t);
    kept.push_back(t);
    if (const int gone = cache_evicted_at(policy, t); gone >= 0) {
      const auto at = std::find(kept.begin(), kept.end(), gone);
      if (at != kept.end()) {
        const Eigen::Index r = at - kept.begin(), rest = Eigen::Index(kept.size()) - r - 1;
        K_cache.middleRows(r, rest) = K_cache.bottomRows(rest).eval();
        V_cache.middleRows(r, rest) = V_cache.bottomRows(rest).eval();
        K_cache.conservativeResize(K_cache.rows() - 1, Eigen::NoChange);
        V_cache.conservativeResize(V_cache.rows() - 1, Eigen::NoChange);
        kept.erase(at);
        step.evicted.push_back(gone);
      }
    }
    step.kept = kept;
    attend_cache(Q, K_cache, V_cache, options, d_model, step);
    result.mults_with_cache += step.mults_with_cache;
    result.mults_without_cache += step.mults_without_cache;
    result.steps.push_back(std::move(step));
  }
  return result;
}

int cache_length(const CachePolicy& policy, int t) {
  const int len = t + 1;
  if (policy.kind == CacheKind::KeepAll) return len;
  const int last = std::min(len, std::max(policy.window, 0));  // positions t−last+1 … t
  if (policy.kind == CacheKind::LastW) return last;
  const int sinks = std::min(len, std::max(policy.sinks, 0));  // positions 0 … sinks−1
  return last + sinks - std::max(0, sinks - (len - last));     // less the sinks inside the last w
}

DecodeStep decode_step(const Matrix& Q, const Matrix& K, const Matrix& V, const Options& options, int d_model,
                       const CachePolicy& policy, int t) {
  DecodeStep step;
  step.t = t;
  step.kept = cache_kept(policy, t);
  if (const int gone = cache_evicted_at(policy, t); gone >= 0) step.evicted.push_back(gone);
  // The cache after step t: the kept rows of K and V, ascending, as decode_with_cache holds them.
  const Eigen::Index len = Eigen::Index(step.kept.size());
  Matrix K_cache(len, K.cols()), V_cache(len, V.cols());
  for (Eigen::Index r = 0; r < len; ++r) {
    K_cache.row(r) = K.row(step.kept[std::size_t(r)]);
    V_cache.row(r) = V.row(step.kept[std::size_t(r)]);
  }
  attend_cache(Q, K_cache, V_cache, options, d_model, step);
  return step;
}

DecodeMults decode_mults_through(int t, int d_model, int d_k, int d_v, const CachePolicy& policy) {
  DecodeMults total;
  for (int tau = 0; tau <= t; ++tau) {
    total.with_cache += decode_mults_with_cache(cache_length(policy, tau) - 1, d_model, d_k, d_v);
    total.without_cache += decode_mults_without_cache(tau, d_model, d_k, d_v);
  }
  return total;
}

}  // namespace attn
