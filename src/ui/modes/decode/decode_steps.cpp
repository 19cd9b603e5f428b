// decode_steps.cpp — the Decode mode's trace at the shown step (see decode_state.hpp).
#include <algorithm>

#include "scene/traces.hpp"
#include "ui/modes/decode/decode_state.hpp"
#include "ui/modes/scored_qk.hpp"

namespace ui {

void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  if (!d.trace || d.version != version) {
    const int d_model = s.mode == scene::Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
    d.trace = attn::decode_with_cache(scored_queries(r), scored_keys(r), r.V, head_options(s, r), d_model);
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
