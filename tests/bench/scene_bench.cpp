// scene_bench — how long a big scene takes to read and write (a benchmark, not a test).
//
// The page's setState and a link's scene go through scene::parse_scene (JSON text → checked Scene);
// getState writes the scene back with scene::scene_to_json. The same source runs natively and as
// wasm under node (scripts/bench), so the wasm figure has its native peer from the same run.
// The scene is what tests/bench/browser_bench.mjs sends: n×d direct Q, K, V with numbers of three
// decimals in [−1, 1] (its LCG), tokens "t0" … Per size, one JSON line (medians of ≥ 5 runs):
//   {"n", "d", "bytes" (the text), "parse_ms" (parse_scene: text → validated Scene),
//    "json_ms" (json_text::parse alone: the text → a JSON document), "write_ms" (scene_to_json)}
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "scene/json_text.hpp"
#include "scene/scene.hpp"

namespace {

// browser_bench.mjs's randomScene(n, d, seed) as text.
std::string random_scene_text(int n, int d, std::uint32_t seed) {
  std::uint32_t state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(static_cast<long long>(state / 4294967296.0 * 2000.0 + 0.5) - 1000) / 1000.0;
  };
  std::string text = "{\"version\":1,\"tokens\":[";
  for (int i = 0; i < n; ++i) text += (i ? ",\"t" : "\"t") + std::to_string(i) + "\"";
  text += "]";
  for (const char* name : {"Q", "K", "V"}) {
    text += std::string(",\"") + name + "\":[";
    for (int i = 0; i < n; ++i) {
      text += i ? ",[" : "[";
      for (int c = 0; c < d; ++c) {
        char number[32];  // as JSON.stringify writes k/1000: "0.5", "-0.125", "0"
        std::snprintf(number, sizeof number, "%.3f", next());
        std::string s = number;
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
        if (s == "-0") s = "0";
        text += (c ? "," : "") + s;
      }
      text += "]";
    }
    text += "]";
  }
  return text + "}";
}

double checksum = 0.0;

double median_ms(const std::function<void()>& run) {
  using clock = std::chrono::steady_clock;
  std::vector<double> ms;
  const auto begin = clock::now();
  while (ms.size() < 5 || (ms.size() < 200 && clock::now() - begin < std::chrono::milliseconds(1500))) {
    const auto t0 = clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main() {
  const int sizes[][2] = {{256, 64}, {1024, 64}};
  for (const auto& size : sizes) {
    const int n = size[0], d = size[1];
    const std::string text = random_scene_text(n, d, 7);
    scene::ParseResult parsed = scene::parse_scene(text);
    if (!parsed.ok()) {
      std::fprintf(stderr, "scene_bench: %s\n", parsed.error.c_str());
      return 1;
    }
    const double parse_ms = median_ms([&] { checksum += scene::parse_scene(text).scene->Q(0, 0); });
    const double json_ms = median_ms([&] { checksum += double(scene::json_text::parse(text).doc.size()); });
    const double write_ms =
        median_ms([&] { checksum += double(scene::scene_to_json(*parsed.scene).size()); });
    std::printf(
        "{\"n\": %d, \"d\": %d, \"bytes\": %zu, \"parse_ms\": %.3f, \"json_ms\": %.3f, \"write_ms\": %.3f}\n",
        n, d, text.size(), parse_ms, json_ms, write_ms);
  }
  std::fprintf(stderr, "checksum %g\n", checksum);
  return 0;
}
