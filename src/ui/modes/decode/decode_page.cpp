// decode_page.cpp — the Decode mode's part of the page API: getState().ui.decode (its row's
// page_state hook, modes/modes.cpp).
#include <cstdint>
#include <vector>

#include "core/kv_bill.hpp"
#include "ui/modes/decode/decode.hpp"

namespace ui {
namespace {

// The KV-cache calculator: the shape it holds, the preset's name (null: the learner's own shape), its
// kind (heads, latent: MLA's d_c = latent and d_rope = rope_dim, linear: a fixed state), and the bill it
// shows, core/kv_bill.hpp's
//   per_token = 2 · layers · H_kv · d_head · bytes (latent: layers · (d_c + d_rope) · bytes; linear: 0),
//   per_context = per_token · tokens_held (linear: state = layers · H · (d_head² + d_head) · bytes),
//   mha_per_context = the same heads as plain multi-head attention
// in bytes and as the panel prints them (per_token_text, per_context_text); error: the last refused
// edit's sentence ("" = none).
PageJson kv_calculator_json(const KvCalculator& c) {
  const std::vector<attn::KvPreset>& presets = attn::kv_presets();
  const attn::KvShape& s = c.shape;
  const std::int64_t per_token = attn::kv_bytes_per_token(s), per_context = attn::kv_bytes_per_context(s);
  return {{"preset", c.preset >= 0 && c.preset < int(presets.size())
                         ? PageJson(presets[std::size_t(c.preset)].name)
                         : PageJson(nullptr)},
          {"layers", s.layers},
          {"heads", s.heads},
          {"kv_heads", s.kv_heads},
          {"d_head", s.d_head},
          {"context", s.context},
          {"bytes", s.bytes_per_number},
          {"kind", s.kind == attn::KvKind::Latent   ? "latent"
                   : s.kind == attn::KvKind::Linear ? "linear"
                                                    : "heads"},
          {"latent", s.latent},
          {"rope_dim", s.rope_dim},
          {"state", attn::kv_state_bytes(s)},
          {"mha_per_context", attn::kv_bytes_per_context(attn::kv_as_mha(s))},
          {"tokens_held", attn::kv_tokens_held(s)},
          {"per_token", per_token},
          {"per_context", per_context},
          {"per_token_text", byte_text(per_token)},
          {"per_context_text", byte_text(per_context)},
          {"error", c.error}};
}

}  // namespace

// Linear attention's recurrent form at step t (DecodeStepper::linear): S_t row by row (d_k rows of d_v),
// z_t (d_k), y_t from the state and the matrix form's row t (d_v each), their max |difference|, the
// state's size d_k·d_v + d_k and whether row t's mask is plain causal.
PageJson linear_json(const LinearDecodeStep& L) {
  PageJson S = PageJson::array();
  for (Eigen::Index i = 0; i < L.S.rows(); ++i) {
    const attn::Matrix row = L.S.row(i);
    S.push_back(page_numbers(row.data(), std::size_t(row.size())));
  }
  return {{"t", L.t},
          {"S", std::move(S)},
          {"z", page_numbers(L.z.data(), std::size_t(L.z.size()))},
          {"y_recurrent", page_numbers(L.y_recurrent.data(), std::size_t(L.y_recurrent.size()))},
          {"y_matrix", page_numbers(L.y_matrix.data(), std::size_t(L.y_matrix.size()))},
          {"max_diff", L.max_diff},
          {"state_numbers", L.S.size() + L.z.size()},
          {"plain_causal", L.plain_causal}};
}

// "decode": {"t", "cache_len", "weights", "output", "mults_with_cache", "mults_without_cache", "policy",
// "window", "sinks", "kept", "evicted", "kv", "linear"} (kv: the calculator above; linear: linear_json, null
// for a scene without linear attention), null until the mode has been shown.
void decode_page_state(const AppState& state, PageJson& ui) {
  const DecodeStepper& d = state.ui.decode;
  if (!d.step) {
    ui["decode"] = nullptr;
    return;
  }
  const attn::DecodeStep& step = *d.step;
  ui["decode"] = {{"t", d.t},
                  {"cache_len", step.cache_len},
                  {"weights", page_numbers(step.weights.data(), std::size_t(step.weights.size()))},
                  {"output", page_numbers(step.output.data(), std::size_t(step.output.size()))},
                  {"mults_with_cache", d.mults_with},
                  {"mults_without_cache", d.mults_without},
                  // The cache policy: "all", "last" (the last w) or "sinks" (s sinks + the last w),
                  // the positions held after step t and the one evicted in it.
                  {"policy", d.policy.kind == attn::CacheKind::KeepAll ? "all"
                             : d.policy.kind == attn::CacheKind::LastW ? "last"
                                                                       : "sinks"},
                  {"window", d.policy.window},
                  {"sinks", d.policy.sinks},
                  {"kept", step.kept},
                  {"evicted", step.evicted},
                  {"kv", kv_calculator_json(d.calculator)},
                  {"linear", d.linear ? linear_json(*d.linear) : PageJson(nullptr)}};
}

}  // namespace ui
