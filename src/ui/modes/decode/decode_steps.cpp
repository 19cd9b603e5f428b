// decode_steps.cpp — the Decode mode's trace at the shown step (see decode_state.hpp).
#include <algorithm>

#include "scene/traces.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/scored_qk.hpp"

namespace ui {

double max_weight_change(const std::optional<attn::DecodeStep>& a, const std::optional<attn::DecodeStep>& b) {
  if (!a || !b || a->weights.size() == 0 || a->weights.size() != b->weights.size()) return 0.0;
  return (a->weights - b->weights).cwiseAbs().maxCoeff();
}

void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  const bool same_policy = d.traced_policy.kind == d.policy.kind &&
                           d.traced_policy.window == d.policy.window &&
                           d.traced_policy.sinks == d.policy.sinks;
  const int t = std::clamp(want, 0, n - 1);
  if (d.step && d.version == version && same_policy && d.t == t) return;  // every frame asks (decode_tick)
  const int d_model = s.mode == scene::Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
  const attn::Options options = head_options(s, r);
  const attn::Matrix &Q = scored_queries(r), &K = scored_keys(r);
  auto run = [&](const attn::CachePolicy& policy) {
    return attn::decode_step(Q, K, r.V, options, d_model, policy, t);
  };
  const int w = std::max(1, d.policy.window), sinks = std::max(1, d.policy.sinks);
  d.t = t;
  d.step = run(d.policy);
  d.step_all = run({attn::CacheKind::KeepAll, 0, 0});
  d.step_last = run({attn::CacheKind::LastW, w, 0});
  d.step_sinks = run({attn::CacheKind::SinksLastW, w, sinks});
  d.traced_policy = d.policy;
  d.version = version;
  const int d_k = static_cast<int>(Q.cols()), d_v = static_cast<int>(r.V.cols());
  const attn::DecodeMults through = attn::decode_mults_through(t, d_model, d_k, d_v, d.policy);
  const attn::DecodeMults total = attn::decode_mults_through(n - 1, d_model, d_k, d_v, d.policy);
  d.mults_with = through.with_cache;
  d.mults_without = through.without_cache;
  d.total_with = total.with_cache;
  d.total_without = total.without_cache;
}

}  // namespace ui
