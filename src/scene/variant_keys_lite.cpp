// variant_keys_lite.cpp — the web's first load (AL_ALL_MODES=0) knows no variant key: parse_scene
// calls one unknown, web/share.js then starts the full build, which links variant_keys.cpp (see
// variant_keys.hpp). Its Scene has no `variants` field; only what its exporter module links is here.
#include "scene/scene.hpp"
#include "scene/variant_keys.hpp"

namespace scene {

long long key_count(const Scene& s) {
  return s.n();
}

bool is_cross_attention(const Scene&) {
  return false;
}

const std::vector<std::string>& key_labels(const Scene& s) {
  return s.tokens;
}

}  // namespace scene
