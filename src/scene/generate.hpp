// generate.hpp — scenes built from a pattern, so structure shows at any size (up to 1024 tokens).
//
// A generated scene is a normal direct scene (Q, K, V numbers); what makes it shareable is that
// the five parameters rebuild it exactly: the link #gen=PATTERN,N,D_K,D_V,SEED (scene/link.hpp)
// stores them instead of n·(2·d_k + d_v) numbers. Every number comes from integer arithmetic and
// IEEE +, −, ×, ÷ (no libm call whose last bit could differ between the native and the wasm build),
// rounded to 3 decimals, so the same parameters give the same bits everywhere.
//
// Patterns, as they appear in the weights (scale √d_k, no mask) for d_k ≥ 16 or so:
//   random    Q, K, V uniform in [−1, 1]: no structure (the baseline)
//   local     each query prefers keys within about ±5 positions (a band around the diagonal)
//   previous  each query attends to the token just before it (the sub-diagonal)
//   sink      every query puts much of its weight on token 0 (an "attention sink")
//   periodic  a query attends to the tokens at the same phase of a period of 8 (stripes)
//   block     tokens form segments of 16; a query attends within its own segment (blocks)
// Construction: token i gets position features p(i) = [cos(ω_m i), sin(ω_m i)]_m (frequencies ω_m
// chosen per pattern from the seed), so q_i · k_j = α Σ_m cos(ω_m (i − j')) peaks where the pattern
// wants it (j' = i for local, i − 1 for previous, the same phase for periodic); sink and block use
// a shared direction per target (token 0, or the segment). V is uniform in [−1, 1].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scene/scene.hpp"

namespace scene {

enum class Pattern { Random, Local, Previous, Sink, Periodic, Block };

struct GenSpec {
  Pattern pattern = Pattern::Local;
  int n = 256;             // tokens, 1 … 1024
  int d_k = 64, d_v = 64;  // 1 … 256
  std::uint32_t seed = 1;  // 0 … 4294967295
  bool operator==(const GenSpec& o) const {
    return pattern == o.pattern && n == o.n && d_k == o.d_k && d_v == o.d_v && seed == o.seed;
  }
};

// "random", "local", "previous", "sink", "periodic", "block"
std::string_view pattern_name(Pattern pattern);
std::optional<Pattern> pattern_from_name(std::string_view name);
// "random, local, previous, sink, periodic, block" (for errors and docs)
std::string pattern_names();

struct GenParse {
  std::optional<GenSpec> spec;
  std::string error;  // e.g. "gen: n must be an integer 1 … 1024, got '2000'"
  bool ok() const { return spec.has_value(); }
};

// "local,1024,64,64,7" → spec. Exactly five comma-separated fields, integers in decimal without
// sign or leading zeros (so each spec has one text, and text → spec → text is the identity).
GenParse parse_gen(std::string_view text);
// spec → "local,1024,64,64,7" (parse_gen's inverse).
std::string gen_text(const GenSpec& spec);

// The scene of `spec` (valid for every spec parse_gen accepts): tokens "t0" … "t{n−1}", direct
// Q (n×d_k), K (n×d_k), V (n×d_v), scale √d_k, no mask.
Scene generate(const GenSpec& spec);

}  // namespace scene
