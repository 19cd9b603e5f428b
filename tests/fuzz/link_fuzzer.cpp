// link_fuzzer — libFuzzer target over the two decoders that read untrusted text: the URL fragment
// (scene::link::parse_fragment) and scene JSON v1 (scene::parse_scene). Built only with clang and
// -DAL_FUZZ=ON; run it with scripts/fuzz.
//
// Besides "no crash, no sanitizer report, no hang", each input checks properties that must hold for
// everything the decoders accept:
//   1. a scene that parses is valid (validate() agrees with parse_scene());
//   2. its canonical JSON is a fixed point: parse(to_json(s)) prints the same text, so a link or an
//      export made from any accepted scene restores it exactly;
//   3. a fragment that parses re-encodes (make_fragment) to one that parses to the same scene,
//      panels and view;
//   4. computing an accepted scene gives finite weights and outputs, every unmasked weight row
//      summing to 1 (the page must never show NaN).
// A broken property prints what broke and aborts, which libFuzzer records as a crash.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "scene/link.hpp"
#include "scene/scene.hpp"

namespace {

[[noreturn]] void broken(const char* property, const std::string& detail) {
  std::fprintf(stderr, "link_fuzzer: property broken: %s\n  %s\n", property, detail.c_str());
  std::abort();
}

// Work of one compute(), in multiply-adds: projections plus QKᵀ and AV. Bounded so each input
// stays fast; big scenes are still parsed and re-encoded, only not computed.
double compute_cost(const scene::Scene& s) {
  const double n = s.n(), d_k = s.d_k(), d_v = s.d_v();
  const double d_model = s.mode == scene::Mode::Projected ? static_cast<double>(s.X.cols()) : 0.0;
  return n * d_model * (2 * d_k + d_v) + n * n * (d_k + d_v);
}
constexpr double kMaxComputeCost = 4e6;

void check_scene(const scene::Scene& s, const char* where) {
  // 1. accepted means valid.
  if (const std::string problem = scene::validate(s); !problem.empty())
    broken("parsed scene is valid", std::string(where) + ": validate says " + problem);

  // 2. canonical JSON is a fixed point.
  const std::string json = scene::scene_to_json(s);
  const scene::ParseResult again = scene::parse_scene(json);
  if (!again.ok())
    broken("scene_to_json output parses", std::string(where) + ": " + again.error + "\n  " + json);
  if (scene::scene_to_json(*again.scene) != json)
    broken("scene_to_json is a fixed point", std::string(where) + ": " + json);

  // 4. finite results.
  if (compute_cost(s) > kMaxComputeCost) return;
  const attn::Result r = scene::compute(s);
  if (!r.weights.allFinite()) broken("weights are finite", where);
  if (!r.output.allFinite()) broken("output is finite", where);
  for (Eigen::Index i = 0; i < r.weights.rows(); ++i) {
    bool masked = false;
    for (int m : r.masked_rows) masked = masked || m == i;
    const double sum = r.weights.row(i).sum();
    if (!masked && std::abs(sum - 1.0) > 1e-9)
      broken("unmasked weight rows sum to 1",
             std::string(where) + ": row " + std::to_string(i) + " sums to " + std::to_string(sum));
    if (masked && sum != 0.0) broken("fully masked rows are all 0", where);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // The scene decoder on raw JSON text.
  const scene::ParseResult parsed = scene::parse_scene(text);
  if (parsed.ok() != parsed.error.empty())
    broken("ParseResult: scene xor error", std::string(text.substr(0, 200)));
  if (parsed.ok()) check_scene(*parsed.scene, "parse_scene");

  // The fragment decoder on the same bytes.
  const scene::link::Fragment f = scene::link::parse_fragment(text);
  if (!f.ok()) {
    if (f.scene || !f.demo.empty() || !f.hide.empty() || f.view)
      broken("a failed link applies nothing", f.error);
    return 0;
  }
  if (f.scene) {
    check_scene(*f.scene, "parse_fragment");
    // 3. re-encode and decode again.
    const scene::link::MadeFragment made = scene::link::make_fragment(*f.scene, f.hide, f.view);
    if (!made.ok()) {
      // Only allowed reason: the canonical form is longer than the input and over the limit.
      if (made.error.find("limit is") == std::string::npos)
        broken("make_fragment of a parsed link", made.error);
      return 0;
    }
    const scene::link::Fragment back = scene::link::parse_fragment(made.fragment);
    if (!back.ok()) broken("make_fragment output parses", back.error);
    if (!back.scene || scene::scene_to_json(*back.scene) != scene::scene_to_json(*f.scene))
      broken("link round trip keeps the scene", made.fragment);
    if (back.hide != f.hide || back.view != f.view)
      broken("link round trip keeps hide= and view=", made.fragment);
  }
  return 0;
}
