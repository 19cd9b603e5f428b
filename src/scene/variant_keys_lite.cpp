// variant_keys_lite.cpp — the variant keys in the web's first load (AL_ALL_MODES=0): named, never
// computed. A scene or link with one fails with "<key>: needs the full build …" (the page then
// starts the full build, which links variant_keys.cpp); see variant_keys.hpp.
#include <string>

#include "scene/json_text.hpp"
#include "scene/scene.hpp"
#include "scene/variant_keys.hpp"

namespace scene {

long long key_count(const Scene& s) {
  return s.n();
}

bool is_cross_attention(const Scene&) {
  return false;
}

std::string read_variant_keys(const nlohmann::ordered_json& doc, Scene*) {
  for (const char* k : kVariantKeyNames)
    if (doc.contains(k)) return std::string(k) + ": " + kNeedsFullBuild;
  return {};
}

std::string validate_variants(const Scene& s) {
  return s.variants ? std::string("scene: ") + kNeedsFullBuild : std::string();
}

void write_variant_keys(const Scene&, nlohmann::ordered_json*) {}

attn::HeadsResult compute_variants(const Scene&) {
  return {};
}

void variant_json(const attn::HeadsResult&, nlohmann::ordered_json*, bool) {}

std::string variant_formula_tex(const Scene&) {
  return {};
}

}  // namespace scene
