// steppers.cpp — the FlashAttention and Decode modes' state (see steppers.hpp).
#include "ui/steppers.hpp"

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

namespace {

std::string numbers_json(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + (std::isinf(values[i]) ? std::string("null") : scene::number_json(values[i]));
  return out + "]";
}

std::string row_json(const attn::Matrix& m) {
  return numbers_json(std::vector<double>(m.data(), m.data() + m.size()));
}

}  // namespace

std::string flash_state_json(const FlashStepper& f) {
  if (!f.pass) return "null";
  return "{\"block\":" + std::to_string(f.pass->block()) + ",\"step\":" + std::to_string(f.step) +
         ",\"steps\":" + std::to_string(f.pass->step_count()) + ",\"finished\":" + (f.finished() ? "true" : "false") +
         ",\"m\":" + numbers_json(f.pass->m()) + ",\"l\":" + numbers_json(f.pass->l()) +
         ",\"max_abs_diff\":" + scene::number_json(f.max_abs_diff) + "}";
}

std::string decode_state_json(const DecodeStepper& d) {
  if (!d.trace || d.trace->steps.empty()) return "null";
  const attn::DecodeStep& st = d.trace->steps[static_cast<std::size_t>(d.t)];
  return "{\"t\":" + std::to_string(d.t) + ",\"cache_len\":" + std::to_string(st.cache_len) +
         ",\"weights\":" + row_json(st.weights) + ",\"output\":" + row_json(st.output) +
         ",\"mults_with_cache\":" + std::to_string(d.mults_with) +
         ",\"mults_without_cache\":" + std::to_string(d.mults_without) + "}";
}

}  // namespace ui
