// scene.hpp — what the user edits: tokens, vectors (or projections), scale, causal, mask.
//
// A Scene is the contract shared by the app, shareable links, the CLI and the tests. Its JSON form
// (versions 1 and 2) is documented in README.md. Parsing validates every field and names the field
// in its error ("K: row 2 has 3 entries, expected 4"); it never throws and never aborts.
//
// Versions: every key has the version that introduced it (the key table in scene.cpp, which also
// says how to add one). A scene is written with the oldest version that holds it — one that uses no
// version-2 key is version-1 text, byte for byte what version 1 always wrote — and a key newer than
// the scene's "version" is an error naming the key.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attention.hpp"
#include "core/heads.hpp"
#include "core/rope.hpp"

namespace scene {

// Limits (documented in README.md).
constexpr int kMaxTokens = 1024;             // n
constexpr int kMaxDim = 256;                 // each of d_k, d_v, d_model
constexpr std::size_t kMaxTokenBytes = 64;   // one token label, UTF-8 bytes
constexpr double kMaxAbsValue = 1e15;        // |each matrix entry|: keeps every stage finite
constexpr double kMinTemperature = 1e-6;     // scale as a number: within [1e-6, 1e6]
constexpr double kMaxTemperature = 1e6;
constexpr std::size_t kMaxInputBytes = 8u << 20;  // 8 MiB of JSON text
constexpr int kMaxHeads = 16;                     // h
constexpr int kMaxOutDim = 256;                   // d_out, the columns of Wo
constexpr double kMaxRopeBase = 1e12;             // rope.base within (1, 1e12]
constexpr int kMaxRopeOffset = 100000;            // rope.offset within 0 … 100000
// window and sinks: 0 … kMaxTokens (a window of n or more hides nothing)

// The newest scene version this code reads and writes ("version": 1 … kSceneVersion).
constexpr int kSceneVersion = 2;

enum class Mode { Direct, Projected };

struct VariantKeys;  // scene/variant_keys.hpp

struct Scene {
  std::vector<std::string> tokens;  // n labels
  Mode mode = Mode::Direct;
  attn::Matrix Q, K, V;             // direct mode: n×d_k, n×d_k, n×d_v
  attn::Matrix X, Wq, Wk, Wv;       // projected mode: n×d_model, d_model×d_k, d_model×d_k, d_model×d_v
  attn::Scale scale;                // default √d_k
  bool causal = false;
  attn::MaskMatrix mask;            // optional n×n of 0/1; empty = none
  // Version 2: multi-head attention (core/heads.hpp).
  int heads = 1;                    // h: divides d_k and d_v; head t uses columns [t·d/h, (t+1)·d/h)
  attn::Matrix Wo;                  // optional d_v×d_out output map (output = concat · Wo); empty = none
  // Version 2: rotary position embedding of Q and K after any projection (core/rope.hpp).
  bool rope_on = false;             // the "rope" key is present
  attn::Rope rope;                  // base, layout, offset (position of token 0)
  // Version 2: the variants current models use (core/heads.hpp, core/attention.hpp, core/alibi.hpp).
  int kv_heads = 0;                 // H_kv, dividing heads: K and V have H_kv groups of d_k/h and d_v/H_kv
                                    //   columns, head t uses group ⌊t / (h / H_kv)⌋; 0 = not given (= heads)
  int window = 0;                   // sliding window w: causal 0 ≤ i − j < w, else |i − j| < w; 0 = none
  int sinks = 0;                    // keys j < sinks stay visible past the window (needs a window)
  bool alibi = false;               // ALiBi: head h of H adds −2^(−8h/H)·|i − j| to its scaled scores
  // Version 2: the variants of 2024–26 models (sink_logit, softcap, qk_norm, topk, indexer,
  // topk_block, differential, gate, Wg, linear: scene/variant_keys.hpp, core/variants.hpp). Null =
  // none. Shared between copies and never edited in place: to change one, make a new VariantKeys.
  // Not in the web's first load (AL_ALL_MODES=0), which refuses these keys: its Scene stays as it was.
#if AL_ALL_MODES
  std::shared_ptr<const VariantKeys> variants;
#endif

  int n() const { return static_cast<int>(tokens.size()); }
  int d_k() const;  // the queries' columns (Q, or Wq): h heads of d_k/h
  int d_v() const;  // the values' columns (V, or Wv): H_kv groups of d_v/H_kv
  int kv() const { return kv_heads > 0 ? kv_heads : heads; }  // H_kv (heads when not given)
  int concat_dim() const { return kv() > 0 ? d_v() / kv() * heads : d_v(); }  // h·d_v/H_kv: Wo's rows
};

// Whether the scene uses a variant key (never in the web's first load).
inline bool has_variants(const Scene& s) {
#if AL_ALL_MODES
  return s.variants != nullptr;
#else
  (void)s;
  return false;
#endif
}

// Either a scene or an error naming the field and the reason.
struct ParseResult {
  std::optional<Scene> scene;
  std::string error;  // empty on success
  bool ok() const { return scene.has_value(); }
};

// Read scene JSON text (any version 1 … kSceneVersion), then validate it: one validate() for every
// rule, the same as for a Scene built in code.
ParseResult parse_scene(std::string_view json_text);

// Validate a Scene built in code (same rules as parse_scene). Empty string when valid.
std::string validate(const Scene& s);

// Scene → JSON text, as the oldest version that holds it. Numbers are printed so they round-trip
// bit-for-bit.
std::string scene_to_json(const Scene& s, int indent = -1);
// The same as a JSON value (the page API embeds it in its replies): scene_to_json(s, indent) is
// json_text::dump(scene_json(s), indent).
nlohmann::ordered_json scene_json(const Scene& s);

// Run the core on a (valid) scene: every head, the concatenation and the W_o map.
attn::HeadsResult compute_heads(const Scene& s);

// The single-head stages of a (valid) scene: for heads = 1 the whole pass (its output is A·V,
// before any Wo); for heads > 1 head 0's pass. compute_heads gives every head.
attn::Result compute(const Scene& s);

// Result → JSON text: {"Q","K","V","scores","divisor","scaled","allowed","weights","output",
// "masked_rows","entropy","argmax"}.
// "scores" is raw QKᵀ; "scaled" has masked cells as null. Numbers round-trip.
std::string result_to_json(const attn::Result& r, int indent = -1);

// A multi-head result → JSON text. One head without Wo: exactly result_to_json(r.heads[0]).
// Otherwise {"Q","K","V","divisor","heads","concat","allowed","weights","output","masked_rows",
// "entropy","argmax"}: "heads" lists {"scores","scaled","weights","output"} per head (the
// conventions above; output is Y_t), "weights" is the mean over heads (entropy and argmax are
// its), "output" the final output (concat · Wo, or concat). With one head and a Wo the single-head
// keys stay, plus "concat" (= A·V) and the final "output".
std::string result_to_json(const attn::HeadsResult& r, int indent = -1);
// The two as JSON values, as scene_json is to scene_to_json. square = false leaves out the n×n
// stages (scores, scaled, allowed, weights, and each head's): the page's getState() at large n.
nlohmann::ordered_json result_json(const attn::Result& r, bool square = true);
nlohmann::ordered_json result_json(const attn::HeadsResult& r, bool square = true);

// Bundled presets (the lesson examples and more).
struct PresetInfo {
  std::string name;         // e.g. "practice-qkv"
  std::string description;  // one line for the picker/gallery
};
const std::vector<PresetInfo>& preset_list();
std::optional<Scene> preset(std::string_view name);

}  // namespace scene
