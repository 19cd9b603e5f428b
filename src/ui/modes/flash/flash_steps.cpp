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
    // One sweep of the n×n allowed-mask (the pass's own: causal, window/sinks and custom, as
    // allowed_mask) gives both: a tile is hidden when none of its cells is allowed.
    const int blocks = f.pass->blocks(), B = f.pass->block();
    f.hidden.assign(std::size_t(blocks) * std::size_t(blocks), 1);
    f.scaled_max = 1e-9;
    const bool whole =
        r.allowed.rows() == n && r.allowed.cols() == n && r.scaled.rows() == n && r.scaled.cols() == n;
    for (int i = 0; i < (whole ? n : 0); ++i) {
      const unsigned char* allowed = r.allowed.data() + std::size_t(i) * std::size_t(n);
      const double* scaled = r.scaled.data() + std::size_t(i) * std::size_t(n);
      std::uint8_t* tiles = f.hidden.data() + std::size_t(i / B) * std::size_t(blocks);
      for (int j = 0; j < n; ++j)
        if (allowed[j]) {
          f.scaled_max = std::max(f.scaled_max, std::abs(scaled[j]));
          tiles[j / B] = 0;
        }
    }
    if (!whole)  // no mask kept with the result: ask the pass tile by tile
      for (int rb = 0; rb < blocks; ++rb)
        for (int cb = 0; cb < blocks; ++cb)
          f.hidden[std::size_t(rb) * std::size_t(blocks) + std::size_t(cb)] = f.pass->tile_hidden(rb, cb);
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
