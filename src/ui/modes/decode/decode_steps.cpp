// decode_steps.cpp — the Decode mode's trace at the shown step (see decode_state.hpp).
#include <algorithm>

#include "scene/traces.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/scored_qk.hpp"

namespace ui {

double max_weight_change(const attn::DecodeResult& a, const attn::DecodeResult& b, int t) {
  if (t < 0 || t >= int(a.steps.size()) || t >= int(b.steps.size())) return 0.0;
  return (a.steps[std::size_t(t)].weights - b.steps[std::size_t(t)].weights).cwiseAbs().maxCoeff();
}

void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  const bool same_policy = d.traced_policy.kind == d.policy.kind &&
                           d.traced_policy.window == d.policy.window &&
                           d.traced_policy.sinks == d.policy.sinks;
  if (!d.trace || d.version != version || !same_policy) {
    const int d_model = s.mode == scene::Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
    const attn::Options options = head_options(s, r);
    auto run = [&](const attn::CachePolicy& policy) {
      return attn::decode_with_cache(scored_queries(r), scored_keys(r), r.V, options, d_model, policy);
    };
    const int w = std::max(1, d.policy.window), sinks = std::max(1, d.policy.sinks);
    d.trace = run(d.policy);
    d.trace_all = run({attn::CacheKind::KeepAll, 0, 0});
    d.trace_last = run({attn::CacheKind::LastW, w, 0});
    d.trace_sinks = run({attn::CacheKind::SinksLastW, w, sinks});
    d.traced_policy = d.policy;
    d.version = version;
  }
  d.t = std::clamp(want, 0, n - 1);
  d.mults_with = d.mults_without = 0;
  for (int t = 0; t <= d.t; ++t) {
    d.mults_with += d.trace->steps[t].mults_with_cache;
    d.mults_without += d.trace->steps[t].mults_without_cache;
  }
}

}  // namespace ui
