// Generated scenes (src/scene/generate.hpp) and their links: parameters ↔ text round trips, the
// same bits on every build, and each pattern visible in the weights the core computes.
#include "scene/generate.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "core/attention.hpp"
#include "scene/link.hpp"

namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// Mean over rows of the weight that row i puts on the keys `wanted(i, j)` says the pattern prefers.
template <class Wanted>
double mean_mass(const attn::Result& r, Wanted wanted, int first_row = 0) {
  double total = 0;
  const int n = int(r.weights.rows());
  for (int i = first_row; i < n; ++i) {
    double mass = 0;
    for (int j = 0; j < n; ++j)
      if (wanted(i, j)) mass += r.weights(i, j);
    total += mass;
  }
  return total / double(n - first_row);
}

}  // namespace

TEST_CASE("gen text ↔ parameters round trip exactly; bad text names the field") {
  for (scene::Pattern p : {scene::Pattern::Random, scene::Pattern::Local, scene::Pattern::Previous,
                           scene::Pattern::Sink, scene::Pattern::Periodic, scene::Pattern::Block}) {
    for (const scene::GenSpec spec :
         {scene::GenSpec{p, 1, 1, 1, 0}, scene::GenSpec{p, 1024, 256, 256, 4294967295u},
          scene::GenSpec{p, 37, 5, 3, 12345}}) {
      const std::string text = scene::gen_text(spec);
      const scene::GenParse back = scene::parse_gen(text);
      INFO(text);
      REQUIRE(back.ok());
      CHECK(*back.spec == spec);
      CHECK(scene::gen_text(*back.spec) == text);
    }
  }
  CHECK(scene::gen_text({scene::Pattern::Local, 1024, 64, 64, 7}) == "local,1024,64,64,7");
  const struct {
    const char* text;
    const char* error;
  } bad[] = {
      {"", "gen: expected 5 fields PATTERN,N,D_K,D_V,SEED, got 1"},
      {"diagonal,8,4,4,1",
       "gen: unknown pattern 'diagonal' (patterns: random, local, previous, sink, periodic, block)"},
      {"local,0,4,4,1", "gen: n must be an integer 1 … 1024, got '0'"},
      {"local,1025,4,4,1", "gen: n must be an integer 1 … 1024, got '1025'"},
      {"local,08,4,4,1", "gen: n must be an integer 1 … 1024, got '08'"},
      {"local,8,257,4,1", "gen: d_k must be an integer 1 … 256, got '257'"},
      {"local,8,4,-4,1", "gen: d_v must be an integer 1 … 256, got '-4'"},
      {"local,8,4,4,4294967296", "gen: seed must be an integer 0 … 4294967295, got '4294967296'"},
      {"local,8,4,4", "gen: expected 5 fields PATTERN,N,D_K,D_V,SEED, got 4"},
      {"local,8,4,4,1,2", "gen: expected 5 fields PATTERN,N,D_K,D_V,SEED, got more"},
  };
  for (const auto& b : bad) {
    const scene::GenParse g = scene::parse_gen(b.text);
    INFO(std::string(b.text));
    CHECK_FALSE(g.ok());
    CHECK(g.error.rfind(b.error, 0) == 0);
  }
}

TEST_CASE("a generated scene is valid, deterministic, the same bits on every build, and survives JSON") {
  const scene::GenSpec spec{scene::Pattern::Local, 8, 4, 3, 1};
  const scene::Scene a = scene::generate(spec), b = scene::generate(spec);
  CHECK(scene::validate(a).empty());
  CHECK(a.n() == 8);
  CHECK(a.d_k() == 4);
  CHECK(a.d_v() == 3);
  const std::string json = scene::scene_to_json(a);
  CHECK(json == scene::scene_to_json(b));
  // The same text natively and in wasm (the doctest suite runs in both): generate() uses no libm
  // call whose last bit could differ. Golden value from the native build.
  MESSAGE("fnv1a(scene_to_json(generate(local,8,4,3,1))) = " << fnv1a(json));
  CHECK(fnv1a(json) == 5138183103240893679ULL);
  const scene::ParseResult back = scene::parse_scene(json);
  REQUIRE(back.ok());
  CHECK(scene::scene_to_json(*back.scene) == json);
  // Every pattern at the limits is a valid scene.
  for (const char* text : {"random,1024,256,1,4294967295", "block,1,1,1,0", "previous,2,1,256,3",
                           "sink,1024,1,1,9", "periodic,3,2,2,2"}) {
    INFO(text);
    CHECK(scene::validate(scene::generate(*scene::parse_gen(text).spec)).empty());
  }
}

TEST_CASE("gen= links: the scene is rebuilt from five numbers, an unedited one links back to them") {
  const scene::link::Fragment f = scene::link::parse_fragment("#gen=block,64,16,8,3&view=weights");
  REQUIRE(f.ok());
  REQUIRE(f.gen.has_value());
  CHECK(*f.gen == scene::GenSpec{scene::Pattern::Block, 64, 16, 8, 3});
  REQUIRE(f.scene.has_value());
  CHECK(scene::scene_to_json(*f.scene) == scene::scene_to_json(scene::generate(*f.gen)));
  CHECK(scene::link::make_gen_fragment(*f.gen, f.hide, f.view).fragment ==
        "gen=block,64,16,8,3&view=weights");
  CHECK(scene::link::parse_fragment("gen=local,8,4,4,1&s=e30").error ==
        "link: more than one of s=, demo=, gen= given; a link holds one scene");
  CHECK(scene::link::parse_fragment("gen=local,9999,4,4,1").error ==
        "link: gen: n must be an integer 1 … 1024, got '9999'");
}

TEST_CASE("each pattern shows in the weights (n = 256, d_k = 64)") {
  auto weights = [](scene::Pattern p) {
    const scene::Scene s = scene::generate({p, 256, 64, 16, 1});
    return attn::attend(s.Q, s.K, s.V, attn::Options{});
  };
  // The definitions of generate.hpp, as fractions of each row's weight (rows sum to 1).
  const double local =
      mean_mass(weights(scene::Pattern::Local), [](int i, int j) { return std::abs(i - j) <= 8; });
  const double previous = mean_mass(
      weights(scene::Pattern::Previous), [](int i, int j) { return j == i - 1; }, 1);
  const double sink = mean_mass(weights(scene::Pattern::Sink), [](int, int j) { return j == 0; });
  const double periodic =
      mean_mass(weights(scene::Pattern::Periodic), [](int i, int j) { return (i - j) % 8 == 0; });
  const double block =
      mean_mass(weights(scene::Pattern::Block), [](int i, int j) { return i / 16 == j / 16; });
  const double random_band =
      mean_mass(weights(scene::Pattern::Random), [](int i, int j) { return std::abs(i - j) <= 3; });
  MESSAGE("mass on the pattern: local " << local << ", previous " << previous << ", sink " << sink
                                        << ", periodic " << periodic << ", block " << block
                                        << "; random's band " << random_band);
  CHECK(local >= 0.8);
  CHECK(previous >= 0.6);
  CHECK(sink >= 0.6);
  CHECK(periodic >= 0.8);
  CHECK(block >= 0.8);
  CHECK(random_band <= 0.1);  // 7 of 256 keys: no structure
}
