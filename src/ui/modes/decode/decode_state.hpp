// decode_state.hpp — the Decode mode's state: which token is decoded on screen and the core's record
// of the causal decode with a KV cache (core/kv_cache). Plain C++, no ImGui: unit-tested
// (tests/steppers_test.cpp).
//
// The panels read it; they never recompute math. It follows the scene: after an edit the same step
// is shown for the edited numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/kv_bill.hpp"
#include "core/kv_cache.hpp"
#include "scene/scene.hpp"

namespace ui {

// The KV-cache calculator's fields (core/kv_bill.hpp): a published shape or the learner's own.
struct KvCalculator {
  int preset = 0;  // index into attn::kv_presets(), −1 = the learner's own shape
  attn::KvShape shape = attn::kv_presets().front().shape;
  std::string error;  // check_kv_shape's sentence for the last refused edit ("" = none)
};

// Linear attention's recurrent form at step t (the scene key "linear", core/variants.hpp), for the
// shown head: the fixed-size state that replaces the growing KV cache, and the output read from it
// against the matrix form's row t (the duality).
struct LinearDecodeStep {
  int t = 0;
  attn::Matrix S;            // d_k × d_v   S_t = S_{t−1} + φ(k_t) v_tᵀ = Σ_{j≤t} φ(k_j) v_jᵀ
  attn::Matrix z;            // 1 × d_k     z_t = z_{t−1} + φ(k_t)     = Σ_{j≤t} φ(k_j)
  attn::Matrix y_recurrent;  // 1 × d_v     y_t = φ(q_t)ᵀ S_t / φ(q_t)·z_t (attn::linear_recurrent)
  attn::Matrix y_matrix;     // 1 × d_v     row t of the matrix form (the scene's result)
  double max_diff = 0.0;     // max_c |y_recurrent − y_matrix|: ~1e-16 under a plain causal mask
  bool plain_causal = true;  // row t of the scene's mask allows exactly 0…t (else the rows differ)
};

struct DecodeStepper {
  int t = 0;  // the token decoded last (0 … n−1)
  bool playing = false;
  double play_clock = 0;

  // The cache policy (core/kv_cache.hpp): keep all, the last w, or s sinks + the last w.
  attn::CachePolicy policy{attn::CacheKind::KeepAll, 4, 1};
  KvCalculator calculator;

  // --- kept in sync by decode_update: only step t, computed alone (core's decode_step: its cache is
  // the kept rows of K and V), never the n steps of the whole decode (at n = 1024 that was ~n²·d work
  // and n² numbers held, four times over, on every edit and on opening the mode)
  std::optional<attn::DecodeStep> step;  // step t of the causal decode under `policy`
  // What evicting token 0 does at step t (the sink comparison): step t with the cache
  // keeping all, the last w, and s sinks + the last w (w, s from `policy`, s ≥ 1).
  std::optional<attn::DecodeStep> step_all, step_last, step_sinks;
  attn::CachePolicy traced_policy;              // the policy the steps were computed with
  long long mults_with = 0, mults_without = 0;  // multiplies through step t, with / without cache
  long long total_with = 0, total_without = 0;  // … through the last step (the whole decode)
  std::uint64_t version = 0;
  // Linear attention's state at step t (decode_linear_update); empty for a softmax scene.
  std::optional<LinearDecodeStep> linear;
  std::uint64_t linear_version = 0;
};

// The largest |a(j) − b(j)| of two steps' weights (0 when either is missing or they differ in size).
double max_weight_change(const std::optional<attn::DecodeStep>& a, const std::optional<attn::DecodeStep>& b);

// Show decode step `want` (clamped to 0 … n−1); recomputes the traces when the result or the
// policy changed.
void decode_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r, std::uint64_t version,
                   int want);

// Linear attention's recurrent form at step t of a head: Q, K (n×d_k) the rows φ is applied to (the
// QK-normalised ones with qk_norm), V (n×d_v), `matrix_output` the matrix form's output (n×d_v),
// `allowed` its mask (n×n). S_t, z_t from attn::linear_recurrent over rows 0…t.
LinearDecodeStep linear_decode_step(const attn::Matrix& Q, const attn::Matrix& K, const attn::Matrix& V,
                                    const attn::Matrix& matrix_output, const attn::MaskMatrix& allowed,
                                    int t);

// Keep d.linear on step d.t of the shown head (result r; `phi_rows_q`, `phi_rows_k`: the rows φ reads,
// r.Q and r.K unless QK-norm replaced them); clears it when the scene has no linear attention.
void decode_linear_update(DecodeStepper& d, const scene::Scene& s, const attn::Result& r,
                          const attn::Matrix* phi_rows_q, const attn::Matrix* phi_rows_k,
                          std::uint64_t version);

}  // namespace ui
