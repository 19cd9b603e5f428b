// decode_steps.cpp — the Decode mode's trace at the shown step (see decode_state.hpp).
#include <algorithm>
#include <vector>

#include "scene/traces.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/scored_qk.hpp"
#if AL_ALL_MODES
#include "core/variants.hpp"
#include "scene/variant_keys.hpp"
#endif

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

// Linear attention is a variant key: the web's first load (AL_ALL_MODES=0) has none, nor this Decode mode.
#if AL_ALL_MODES
LinearDecodeStep linear_decode_step(const attn::Matrix& Q, const attn::Matrix& K, const attn::Matrix& V,
                                    const attn::Matrix& matrix_output, const attn::MaskMatrix& allowed,
                                    int t) {
  LinearDecodeStep out;
  out.t = t;
  const Eigen::Index rows = t + 1;
  std::vector<attn::Matrix> states;
  const attn::Matrix Y = attn::linear_recurrent(Q.topRows(rows), K.topRows(rows), V.topRows(rows), &states);
  out.S = states.back();                                // d_k × d_v
  out.z = attn::elu1(K.topRows(rows)).colwise().sum();  // 1 × d_k
  out.y_recurrent = Y.row(t);                           // 1 × d_v
  out.y_matrix = matrix_output.row(t);                  // 1 × d_v
  out.max_diff = (out.y_recurrent - out.y_matrix).cwiseAbs().maxCoeff();
  // The recurrent form is the causal one: row t must allow exactly the keys 0…t.
  for (Eigen::Index j = 0; j < allowed.cols() && t < allowed.rows(); ++j)
    if ((allowed(t, j) != 0) != (j <= t)) out.plain_causal = false;
  return out;
}

void decode_linear_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r,
                          const attn::Matrix* phi_rows_q, const attn::Matrix* phi_rows_k,
                          std::uint64_t version) {
  const bool linear = scene::has_variants(s) && s.variants->core.linear;
  const attn::Matrix& Q = phi_rows_q && phi_rows_q->size() ? *phi_rows_q : r.Q;
  const attn::Matrix& K = phi_rows_k && phi_rows_k->size() ? *phi_rows_k : r.K;
  const int n = static_cast<int>(r.V.rows());
  if (!linear || n < 1 || Q.rows() != n || K.rows() != n || Q.cols() != K.cols() || r.output.rows() != n) {
    d.linear.reset();
    return;
  }
  const int t = std::clamp(d.t, 0, n - 1);
  if (d.linear && d.linear_version == version && d.linear->t == t) return;  // every frame asks
  d.linear = linear_decode_step(Q, K, r.V, r.output, r.allowed, t);
  d.linear_version = version;
}

#else
void decode_linear_update(DecodeStepper& d, const scene::Scene&, const attn::Result&, const attn::Matrix*,
                          const attn::Matrix*, std::uint64_t) {
  d.linear.reset();
}
#endif

}  // namespace ui
