// variant_keys.hpp — the scene keys of the attention variants (core/variants.hpp): sink_logit,
// softcap, qk_norm, topk (+ indexer, topk_block), differential, gate / Wg, linear, mla.
//
// The web's first load (AL_ALL_MODES=0) links variant_keys_lite.cpp instead of variant_keys.cpp and
// does not know these keys at all (its Scene has no `variants`): a scene with one fails to parse
// with "<key>: unknown key …", which web/share.js recognises by the key's name and answers by
// reloading into the full build. So none of the variants' reading, checking or computing — not even
// their names — is in the first download; the CLI, the desktop app and the full build have it all.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/heads.hpp"
#include "core/variants.hpp"

namespace scene {

struct Scene;

// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1; core/variants.hpp's attend_mla),
// a learned scene's "mla" key: c = X W_dkv (n×d_c), head t's keys [c W_uk,t | k_R] and values
// c W_uv,t, the decoupled RoPE key k_R = RoPE(X W_kr) shared by every head; the scene's Wq is
// d_model × h·(d_nope + d_rope), each head's query [q_nope | q_R].
//
// The scene's Wk and Wv are not given: they are derived from these weights (fill_mla_kv) and never
// written. Everything that reads a learned scene's shapes (d_v, the heads, Wo's rows, the app's
// grids) then keeps working unchanged, and Wk is exactly the key map of the pass without RoPE:
// head t's block of Wk is [W_dkv W_uk,t | W_kr], so X Wk_t = [c W_uk,t | X W_kr] up to rounding.
// The pass itself (compute_variants) never reads Wk or Wv: it computes c first, as the paper does.
struct MlaKeys {
  bool on = false;
  attn::Matrix W_dkv;  // d_model × d_c
  attn::Matrix W_uk;   // d_c × h·d_nope
  attn::Matrix W_uv;   // d_c × h·d_vh
  attn::Matrix W_kr;   // d_model × d_rope; empty: no decoupled RoPE part (d_rope = 0)
};

// What the variant keys hold (a Scene points at one; null = no variant key).
struct VariantKeys {
  attn::Variants core;  // gate: the direct scene's gate logits G
  attn::Matrix Wg;      // learned scenes: d_model × (concat or h); G = X W_g
  // Cross-attention: the m source tokens the keys and values come from (empty = self-attention);
  // learned scenes give their vectors X_src (m × d_model), projected by Wk and Wv.
  std::vector<std::string> sources;
  attn::Matrix X_src;
  MlaKeys mla;  // multi-head latent attention; mla.on = false: none

  bool any() const { return core.any() || Wg.size() != 0 || !sources.empty() || mla.on; }
};

// m, the keys' count: the sources' with cross-attention, else n (the first load: always n).
long long key_count(const Scene& s);
bool is_cross_attention(const Scene& s);
// The keys' labels: the sources' with cross-attention, else the tokens (the grids' columns).
const std::vector<std::string>& key_labels(const Scene& s);

// The variant keys' names, in the order scene_to_json writes them (after every other key). Keep
// web/share.js's kVariantKeys (the first load's list of them) the same.
extern const char* const kVariantKeyNames[13];
bool is_variant_key(const std::string& name);

// The variant keys present in the scene object `doc` → s->variants (null when none). "" or the
// message naming the key.
std::string read_variant_keys(const nlohmann::ordered_json& doc, Scene* s);
// Their rules (sizes, ranges, allowed combinations), naming the key; "" when valid or none given.
std::string validate_variants(const Scene& s);
// Writes the keys s->variants holds into `out` (nothing when null).
void write_variant_keys(const Scene& s, nlohmann::ordered_json* out);
// Whether the scene is a latent-attention one (the "mla" key).
bool is_mla(const Scene& s);
// An mla scene's derived Wk (d_model × h·(d_nope + d_rope): head t's block [W_dkv W_uk,t | W_kr])
// and Wv (d_model × h·d_vh = W_dkv W_uv), set on *s when the weights' shapes agree (validate names
// them otherwise). parse_scene calls it; a Scene built in code calls it after setting its mla keys.
void fill_mla_kv(Scene* s);
// The mla key's rules, naming the key: a learned scene, the weights' shapes against X, Wq and heads,
// finite numbers, what it combines with; Wk and Wv must be the derived ones. "" when valid or none.
std::string validate_mla(const Scene& s);
// Every stage of a valid scene with variant keys.
attn::HeadsResult compute_variants(const Scene& s);
// The variant stages of `r` (r.variant) added to its JSON `j` (result_json's layout).
void variant_json(const attn::HeadsResult& r, nlohmann::ordered_json* j, bool square);
// The variant pass as one LaTeX formula (the LaTeX export's comment line).
std::string variant_formula_tex(const Scene& s);

}  // namespace scene
