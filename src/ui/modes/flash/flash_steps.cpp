// steppers.cpp — the FlashAttention and Decode modes' state (see steppers.hpp).
#include "ui/modes/flash/flash_state.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "scene/traces.hpp"

namespace ui {
namespace {

// With RoPE the scores come from the turned Q and K.
const attn::Matrix& queries(const attn::Result& r) { return r.Q_rope.size() ? r.Q_rope : r.Q; }
const attn::Matrix& keys(const attn::Result& r) { return r.K_rope.size() ? r.K_rope : r.K; }

}  // namespace

void flash_update(FlashStepper& f, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                  int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  f.block = std::clamp(f.block, 1, n);
  const bool rebuild = !f.pass || f.version != version || f.built_block != f.block || want < f.step;
  if (rebuild) {
    f.pass.emplace(queries(r), keys(r), r.V, scene::options_of(s), f.block);
    f.version = version;
    f.built_block = f.block;
    f.step = 0;
    f.last = attn::OnlineStep{};
  }
  want = std::clamp(want, 0, f.pass->step_count());
  while (f.step < want) {
    f.last = f.pass->next();
    ++f.step;
  }
  f.partial = f.pass->output();
  f.max_abs_diff = f.finished() && f.partial.size() ? (f.partial - r.output).cwiseAbs().maxCoeff() : 0.0;
}

void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  if (!d.trace || d.version != version) {
    const int d_model = s.mode == scene::Mode::Projected ? static_cast<int>(s.X.cols()) : 0;
    d.trace = attn::decode_with_cache(queries(r), keys(r), r.V, scene::options_of(s), d_model);
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
