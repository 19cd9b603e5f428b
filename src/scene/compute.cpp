// compute.cpp — run the core on a scene (compute, compute_heads) and write every stage as JSON
// (result_to_json); see scene.hpp.
#include <string>
#include <utility>

#include "core/reading_aids.hpp"
#include "scene/json_text.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"  // options_of
#include "scene/variant_keys.hpp"

namespace scene {

using json_text::mask_json;
using json_text::matrix_json;
using ordered_json = json_text::ordered_json;

namespace {

// n×n scores / s, masked cells null (they take no part in the softmax).
ordered_json scaled_json(const attn::Result& r) {
  ordered_json scaled = ordered_json::array();
  const bool have_mask = r.allowed.rows() == r.scaled.rows() && r.allowed.cols() == r.scaled.cols();
  for (Eigen::Index i = 0; i < r.scaled.rows(); ++i) {
    ordered_json row = ordered_json::array();
    for (Eigen::Index j = 0; j < r.scaled.cols(); ++j) {
      if (have_mask && !r.allowed(i, j))
        row.push_back(nullptr);
      else
        row.push_back(r.scaled(i, j));
    }
    scaled.push_back(std::move(row));
  }
  return scaled;
}

// Reading aids per query row (core/reading_aids.hpp): entropy in bits (0 for a masked row) and
// the column of the first largest weight (−1 for a masked row).
void put_reading_aids(const attn::Matrix& weights, const attn::MaskMatrix& allowed, ordered_json* j) {
  const attn::ReadingAids aids = attn::reading_aids(weights, allowed);
  (*j)["entropy"] = aids.entropy;  // n
  (*j)["argmax"] = aids.argmax;    // n
}

// The stages' inputs, first in both results: Q, K (n×d_k), with RoPE the turned Q_rope, K_rope the
// scores use, then V (n×d_v). `R` is attn::Result or attn::HeadsResult.
template <class R>
ordered_json inputs_json(const R& r) {
  ordered_json j;
  j["Q"] = matrix_json(r.Q);
  j["K"] = matrix_json(r.K);
  if (r.Q_rope.size() != 0) {
    j["Q_rope"] = matrix_json(r.Q_rope);
    j["K_rope"] = matrix_json(r.K_rope);
  }
  j["V"] = matrix_json(r.V);
  return j;
}

// square = false leaves out the n×n stages (scores, scaled, bias, allowed, weights): at n = 1024 each is a
// million numbers of text, and the page's getState() asks for them only when told to.
ordered_json single_head_json(const attn::Result& r, bool square = true) {
  ordered_json j = inputs_json(r);
  if (square) j["scores"] = matrix_json(r.scores);  // n×n  raw QKᵀ
  j["divisor"] = r.divisor;                         //      s
  if (square) {
    j["scaled"] = scaled_json(r);                        // n×n  scores / s, masked cells null
    if (r.bias.size()) j["bias"] = matrix_json(r.bias);  // n×n  ALiBi's −m·|i − j|
    j["allowed"] = mask_json(r.allowed);                 // n×n  1 = attended
    j["weights"] = matrix_json(r.weights);               // n×n  rows sum to 1 (0 for fully masked rows)
  }
  j["output"] = matrix_json(r.output);  // n×d_v
  j["masked_rows"] = r.masked_rows;
  put_reading_aids(r.weights, r.allowed, &j);
  return j;
}

}  // namespace

attn::HeadsResult compute_heads(const Scene& s) {
  // An invalid scene would break the core's shape assumptions; give an empty result instead of
  // crashing (callers validate first and show validate()'s message).
  if (!validate(s).empty()) return attn::HeadsResult{};
    // The variants: their own pass (core/variants.hpp), not in the web's first load.
#if AL_ALL_MODES
  if (s.variants) return compute_variants(s);
#endif
  if (s.heads == 1) return attn::one_head(compute(s), s.Wo);
  const attn::HeadsOptions variants = heads_options_of(s);
  if (!s.rope_on)
    return s.mode == Mode::Direct
               ? attn::attend_heads(s.Q, s.K, s.V, s.heads, s.Wo, options_of(s), variants)
               : attn::attend_heads_projected(s.X, s.Wq, s.Wk, s.Wv, s.heads, s.Wo, options_of(s), variants);
  // RoPE turns each head's columns of Q and K as a head of size d_k/h (as compute() does for one);
  // with H_kv groups, K turns as H_kv heads of that size.
  const bool direct = s.mode == Mode::Direct;
  const attn::Matrix Q = direct ? s.Q : attn::Matrix(s.X * s.Wq);  // n×d_k (finite: validate's limits)
  const attn::Matrix K = direct ? s.K : attn::Matrix(s.X * s.Wk);  // n×d_k·H_kv/h
  const attn::Matrix V = direct ? s.V : attn::Matrix(s.X * s.Wv);  // n×d_v
  attn::HeadsResult r =
      attn::attend_heads(attn::apply_rope(Q, s.rope, s.heads), attn::apply_rope(K, s.rope, s.kv()), V,
                         s.heads, s.Wo, options_of(s), variants);
  r.Q_rope = std::move(r.Q);
  r.K_rope = std::move(r.K);
  r.Q = Q;
  r.K = K;
  const Eigen::Index d_head = Q.cols() / s.heads;
  for (int t = 0; t < static_cast<int>(r.heads.size()); ++t) {
    attn::Result& head = r.heads[static_cast<std::size_t>(t)];
    const int g = attn::kv_group(t, s.heads, s.kv());
    head.Q_rope = std::move(head.Q);
    head.K_rope = std::move(head.K);
    head.Q = Q.middleCols(t * d_head, d_head);
    head.K = K.middleCols(g * d_head, d_head);
  }
  return r;
}

attn::Result compute(const Scene& s) {
  // An invalid scene would break the core's shape assumptions; give an empty result instead of
  // crashing (callers validate first and show validate()'s message).
  if (!validate(s).empty()) return attn::Result{};
  if (s.heads != 1 || has_variants(s)) return std::move(compute_heads(s).heads.front());
  if (!s.rope_on)
    return s.mode == Mode::Direct ? attn::attend(s.Q, s.K, s.V, options_of(s))
                                  : attn::attend_projected(s.X, s.Wq, s.Wk, s.Wv, options_of(s));
  // RoPE turns Q and K after the projection; the scores use the turned ones. Q and K stay as they
  // were (what the learner edits), Q_rope and K_rope are what attention saw.
  const bool direct = s.mode == Mode::Direct;
  const attn::Matrix Q = direct ? s.Q : attn::Matrix(s.X * s.Wq);  // n×d_k (finite: validate's limits)
  const attn::Matrix K = direct ? s.K : attn::Matrix(s.X * s.Wk);  // n×d_k
  const attn::Matrix V = direct ? s.V : attn::Matrix(s.X * s.Wv);  // n×d_v
  attn::Result r = attn::attend(attn::apply_rope(Q, s.rope), attn::apply_rope(K, s.rope), V, options_of(s));
  r.Q_rope = std::move(r.Q);
  r.K_rope = std::move(r.K);
  r.Q = Q;
  r.K = K;
  return r;
}

namespace {

// The layout of every multi-head result (the variants add their stages after it).
ordered_json heads_json(const attn::HeadsResult& r, bool square) {
  if (r.heads.empty()) return single_head_json(attn::Result{}, square);
  if (r.heads.size() == 1) {
    if (r.Wo.size() == 0) return single_head_json(r.heads.front(), square);  // exactly the single-head text
    const ordered_json j = single_head_json(r.heads.front(), square);
    ordered_json with_wo;
    for (const auto& item : j.items()) {
      if (item.key() == "output") with_wo["concat"] = item.value();  // n×d_v  A·V, before Wo
      with_wo[item.key()] = item.key() == "output" ? matrix_json(r.output) : item.value();  // n×d_out
    }
    return with_wo;
  }
  ordered_json j = inputs_json(r);
  j["divisor"] = r.heads.front().divisor;  //      s of every head: 1, √(d_k/h) or the temperature
  ordered_json heads = ordered_json::array();
  for (const attn::Result& head : r.heads) {
    ordered_json h = ordered_json::object();
    if (square) {
      h["scores"] = matrix_json(head.scores);                    // n×n      Q_t K_tᵀ
      h["scaled"] = scaled_json(head);                           // n×n      / s, masked cells null
      if (head.bias.size()) h["bias"] = matrix_json(head.bias);  // n×n  ALiBi's −m_t·|i − j|
      h["weights"] = matrix_json(head.weights);                  // n×n      A_t
    }
    h["output"] = matrix_json(head.output);  // n×d_v/h  Y_t = A_t V_t
    heads.push_back(std::move(h));
  }
  j["heads"] = std::move(heads);
  j["concat"] = matrix_json(r.concat);  // n×d_v    [Y_0 | … | Y_{h−1}]
  if (square) {
    j["allowed"] = mask_json(r.allowed);         // n×n
    j["weights"] = matrix_json(r.weights_mean);  // n×n      mean of the A_t
  }
  j["output"] = matrix_json(r.output);  // n×d_out  concat · Wo, or concat
  j["masked_rows"] = r.masked_rows;
  put_reading_aids(r.weights_mean, r.allowed, &j);
  return j;
}

}  // namespace

ordered_json result_json(const attn::HeadsResult& r, bool square) {
  ordered_json j = heads_json(r, square);
  // The stages a variant scene adds (scene/variant_keys.hpp), its concat and final output.
#if AL_ALL_MODES
  if (r.variant) variant_json(r, &j, square);
#endif
  return j;
}

ordered_json result_json(const attn::Result& r, bool square) {
  return single_head_json(r, square);
}

std::string result_to_json(const attn::HeadsResult& r, int indent) {
  return json_text::dump(result_json(r), indent);
}

std::string result_to_json(const attn::Result& r, int indent) {
  return json_text::dump(result_json(r), indent);
}

}  // namespace scene
