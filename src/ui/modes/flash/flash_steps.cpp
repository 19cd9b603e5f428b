// flash_steps.cpp — the FlashAttention mode's pass at the shown step (see flash_state.hpp).
#include <algorithm>
#include <cmath>

#include "scene/traces.hpp"
#include "ui/modes/flash/flash_state.hpp"
#include "ui/modes/scored_qk.hpp"

namespace ui {
void flash_update(FlashStepper& f, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                  int want) {
  const int n = static_cast<int>(r.V.rows());
  if (n < 1) return;
  f.block = std::clamp(f.block, 1, n);
  const bool new_pass = !f.pass || f.version != version || f.built_block != f.block;
  const bool rebuild = new_pass || want < f.step;
  if (rebuild) {
    f.pass.emplace(scored_queries(r), scored_keys(r), r.V, head_options(s, r), f.block);
    f.version = version;
    f.built_block = f.block;
    f.step = 0;
    f.last = attn::OnlineStep{};
  }
  if (new_pass) {
    const int blocks = f.pass->blocks();
    f.hidden.assign(std::size_t(blocks) * std::size_t(blocks), 0);
    for (int rb = 0; rb < blocks; ++rb)
      for (int cb = 0; cb < blocks; ++cb)
        f.hidden[std::size_t(rb) * std::size_t(blocks) + std::size_t(cb)] =
            f.pass->tile_hidden(rb, cb) ? 1 : 0;
    f.scaled_max = 1e-9;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (r.allowed(i, j)) f.scaled_max = std::max(f.scaled_max, std::abs(r.scaled(i, j)));
  }
  want = std::clamp(want, 0, f.pass->step_count());
  if (!rebuild && want == f.step) return;  // nothing moved: every frame asks (flash_tick)
  while (f.step < want) {
    f.last = f.pass->next();
    ++f.step;
  }
  f.partial = f.pass->output();
  f.max_abs_diff = f.finished() && f.partial.size() ? (f.partial - r.output).cwiseAbs().maxCoeff() : 0.0;
}

}  // namespace ui
