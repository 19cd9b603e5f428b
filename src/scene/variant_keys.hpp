// variant_keys.hpp — the scene keys of the attention variants (core/variants.hpp): sink_logit,
// softcap, qk_norm, topk (+ indexer, topk_block), differential, gate / Wg, linear.
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

// What the variant keys hold (a Scene points at one; null = no variant key).
struct VariantKeys {
  attn::Variants core;  // gate: the direct scene's gate logits G
  attn::Matrix Wg;      // learned scenes: d_model × (concat or h); G = X W_g
  // Cross-attention: the m source tokens the keys and values come from (empty = self-attention);
  // learned scenes give their vectors X_src (m × d_model), projected by Wk and Wv.
  std::vector<std::string> sources;
  attn::Matrix X_src;
};

// m, the keys' count: the sources' with cross-attention, else n (the first load: always n).
long long key_count(const Scene& s);
bool is_cross_attention(const Scene& s);
// The keys' labels: the sources' with cross-attention, else the tokens (the grids' columns).
const std::vector<std::string>& key_labels(const Scene& s);

// The variant keys' names, in the order scene_to_json writes them (after every other key). Keep
// web/share.js's kVariantKeys (the first load's list of them) the same.
extern const char* const kVariantKeyNames[12];
bool is_variant_key(const std::string& name);

// The variant keys present in the scene object `doc` → s->variants (null when none). "" or the
// message naming the key.
std::string read_variant_keys(const nlohmann::ordered_json& doc, Scene* s);
// Their rules (sizes, ranges, allowed combinations), naming the key; "" when valid or none given.
std::string validate_variants(const Scene& s);
// Writes the keys s->variants holds into `out` (nothing when null).
void write_variant_keys(const Scene& s, nlohmann::ordered_json* out);
// Every stage of a valid scene with variant keys.
attn::HeadsResult compute_variants(const Scene& s);
// The variant stages of `r` (r.variant) added to its JSON `j` (result_json's layout).
void variant_json(const attn::HeadsResult& r, nlohmann::ordered_json* j, bool square);
// The variant pass as one LaTeX formula (the LaTeX export's comment line).
std::string variant_formula_tex(const Scene& s);

}  // namespace scene
