// Scene tests: presets against the lessons (docs/LESSONS.md) and NumPy, JSON round trips, and a
// table of malformed scenes whose errors must name the field. No file I/O: this also runs as wasm.
#include "scene/scene.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "scene/generate.hpp"
#include "scene/json_text.hpp"

using attn::Matrix;
using json = nlohmann::json;

namespace {

// A valid direct-mode scene as JSON text, with `extra` spliced in before the closing brace.
std::string small_scene(const std::string& extra = "") {
  return R"({"version":1,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[5,6],[7,8]],"V":[[1],[2]])" + extra + "}";
}

std::string tokens_json(int n) {
  std::string t = "[";
  for (int i = 0; i < n; ++i) t += (i ? ",\"t" : "\"t") + std::to_string(i) + "\"";
  return t + "]";
}

std::string matrix_json(int rows, int cols, const std::string& value = "1") {
  std::string m = "[";
  for (int i = 0; i < rows; ++i) {
    m += i ? ",[" : "[";
    for (int j = 0; j < cols; ++j) m += (j ? "," : "") + value;
    m += "]";
  }
  return m + "]";
}

}  // namespace

TEST_CASE("every preset is valid and parses back from its own JSON bit for bit") {
  REQUIRE(scene::preset_list().size() == 6);
  for (const scene::PresetInfo& info : scene::preset_list()) {
    INFO("preset " << info.name);
    CHECK(!info.description.empty());
    const scene::Scene s = must_preset(info.name.c_str());
    CHECK(scene::validate(s) == "");
    for (int indent : {-1, 2}) {
      const scene::ParseResult back = scene::parse_scene(scene::scene_to_json(s, indent));
      REQUIRE_MESSAGE(back.ok(), back.error);
      check_same_scene(s, *back.scene);
    }
  }
  CHECK_FALSE(scene::preset("no-such-preset").has_value());
}

TEST_CASE("preset practice-qkv reproduces lesson 1 through compute()") {
  const scene::Scene s = must_preset("practice-qkv");
  CHECK(s.n() == 3);
  CHECK(s.d_k() == 2);
  CHECK(s.d_v() == 4);
  const attn::Result r = scene::compute(s);
  const double tol = lesson_tolerance();
  check_close(r.Q, lesson_matrix("practice-qkv", "Q"), tol);
  check_close(r.K, lesson_matrix("practice-qkv", "K"), tol);
  check_close(r.scores, lesson_matrix("practice-qkv", "scores"), tol);
  CHECK(r.divisor == 1.0);
  check_close(r.weights, lesson_matrix("practice-qkv", "weights"), tol);
  check_close(r.output, lesson_matrix("practice-qkv", "output"), tol);
  // The lesson prints A's first row rounded to 3 places.
  check_close(r.weights.topRows(1), lesson_matrix("practice-qkv", "weights_row0_3_places"), 5e-4);
}

TEST_CASE("preset soft-dictionary reproduces lesson 2 through compute()") {
  const attn::Result r = scene::compute(must_preset("soft-dictionary"));
  check_close(r.weights, lesson_matrix("soft-dictionary", "weights"), lesson_tolerance());
  check_close(r.output, lesson_matrix("soft-dictionary", "output"), lesson_tolerance());
  // "which rounds to [1, 2]: the first value"
  check_close(r.output.topRows(1), lesson_matrix("soft-dictionary", "output_row0_rounded"), 5e-4);
}

TEST_CASE("preset causal-5 reproduces lesson 4 through compute()") {
  const scene::Scene s = must_preset("causal-5");
  CHECK(s.n() == 5);
  CHECK(s.causal);
  const attn::Result r = scene::compute(s);
  CHECK(r.weights(2, 3) == 0.0);
  CHECK(r.weights(2, 4) == 0.0);
  CHECK(r.weights(2, 0) + r.weights(2, 1) + r.weights(2, 2) == doctest::Approx(1.0).epsilon(1e-12));
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) CHECK(int(r.allowed(i, j)) == (j <= i ? 1 : 0));
  CHECK(r.divisor == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));
  CHECK(r.masked_rows.empty());
}

TEST_CASE("preset learned-5x8 is lesson 3 replayed: PyTorch's seed-0 numbers") {
  const scene::Scene s = must_preset("learned-5x8");
  CHECK(s.mode == scene::Mode::Projected);
  CHECK(s.X.rows() == 5);
  CHECK(s.X.cols() == 8);
  CHECK(s.d_k() == 8);
  CHECK(s.d_v() == 8);
  // LESSONS.md example 3: with torch.manual_seed(0) the first row of x = torch.rand(1, 5, 8) is
  // [0.496257, 0.768222, 0.088477, 0.132030, 0.307423, 0.634079, 0.490093, 0.896445].
  check_close(s.X.topRows(1), lesson_matrix("learned-5x8", "x_row0"), lesson_tolerance());
  // Exact float32 values printed by python3-torch 1.13 (x[0,4,7], query.weight[0,0], value.weight[7,7];
  // the scene stores Wᵀ). tests/torch_crosscheck.py compares all 232 numbers with PyTorch.
  CHECK(s.X(4, 7) == 0.7423362731933594);
  CHECK(s.Wq(0, 0) == 0.01859392412006855);
  CHECK(s.Wv(7, 7) == 0.29161348938941956);
  const double bound = 1.0 / std::sqrt(8.0);
  for (const Matrix* w : {&s.Wq, &s.Wk, &s.Wv}) {
    CHECK(w->minCoeff() >= -bound - 1e-7);
    CHECK(w->maxCoeff() <= bound + 1e-7);
  }

  const attn::Result r = scene::compute(s);
  CHECK(r.weights.rows() == 5);
  CHECK(r.weights.cols() == 5);
  CHECK(r.output.rows() == 5);
  CHECK(r.output.cols() == 8);
  CHECK(r.divisor == doctest::Approx(std::sqrt(8.0)).epsilon(1e-15));
  for (int i = 0; i < 5; ++i) CHECK(r.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-12));
  // NumPy float64 on those tensors: a = softmax((x Wq)(x Wk)ᵀ/√8), y = a (x Wv). (PyTorch's float32
  // run prints weights[0] = [0.202424, 0.194531, 0.203828, 0.192716, 0.206501].)
  check_close(r.weights.topRows(1),
              rows_of({{0.20242391807603974, 0.1945309885166352, 0.2038280474503219, 0.19271594157868013,
                        0.20650110437832314}}),
              1e-12);
  check_close(r.output.bottomRows(1),
              rows_of({{0.12555680310389186, 0.0874192130849494, 0.4605489972488878, -0.30456888214538647,
                        0.2840483637929182, 0.06920836940223499, 0.07975977324423526, 0.03382058883049658}}),
              1e-12);
}

TEST_CASE("scene_to_json round-trips random doubles bit for bit") {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 6), d = 1 + static_cast<int>(rng() % 6);
    scene::Scene s;
    for (int i = 0; i < n; ++i) s.tokens.push_back("tok" + std::to_string(i));
    s.mode = trial % 2 ? scene::Mode::Direct : scene::Mode::Projected;
    // Random bit patterns cover every exponent, subnormals and -0.0; keep those within the limits.
    auto random_value = [&rng]() {
      for (;;) {
        const std::uint64_t bits = rng();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        if (std::isfinite(v) && std::abs(v) <= scene::kMaxAbsValue) return v;
      }
    };
    auto fill = [&](Matrix& m, int rows, int cols) {
      m.resize(rows, cols);
      for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random_value();
    };
    if (s.mode == scene::Mode::Direct) {
      fill(s.Q, n, d);
      fill(s.K, n, d);
      fill(s.V, n, d + 1);
    } else {
      fill(s.X, n, d);
      fill(s.Wq, d, 3);
      fill(s.Wk, d, 3);
      fill(s.Wv, d, 2);
    }
    s.scale.mode = attn::ScaleMode::Temperature;
    s.scale.temperature = scene::kMinTemperature + std::ldexp(static_cast<double>(rng() >> 11), -53) * 1000.0;
    s.causal = trial % 3 == 0;
    if (trial % 4 == 0) {
      s.mask = attn::MaskMatrix::Ones(n, n);
      s.mask(0, 0) = 0;
    }
    REQUIRE(scene::validate(s) == "");
    const std::string text = scene::scene_to_json(s);
    const scene::ParseResult back = scene::parse_scene(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    INFO("trial " << trial);
    check_same_scene(s, *back.scene);
    CHECK(scene::scene_to_json(*back.scene) == text);  // canonical: writing twice gives the same text
  }
  // The awkward ones by name.
  scene::Scene s = must_preset("soft-dictionary");
  s.Q(0, 0) = -0.0;
  s.Q(0, 1) = 4.9406564584124654e-324;  // smallest subnormal
  s.Q(1, 0) = 0.1;
  s.Q(1, 1) = 1e15;
  const scene::ParseResult back = scene::parse_scene(scene::scene_to_json(s));
  REQUIRE(back.ok());
  CHECK(same_bits(back.scene->Q, s.Q));
}

TEST_CASE("scene JSON: canonical key order, defaults, and optional fields") {
  const scene::Scene s = must_preset("causal-5");
  const std::string text = scene::scene_to_json(s);
  CHECK(text.rfind(R"({"version":1,"tokens":["the","cat","sat","on","mats"],"Q":)", 0) == 0);
  CHECK(text.find(R"("scale":"sqrt_dk","causal":true})") != std::string::npos);
  CHECK(text.find("mask") == std::string::npos);  // only written when present

  const scene::ParseResult d = scene::parse_scene(small_scene());
  REQUIRE(d.ok());
  CHECK(d.scene->scale.mode == attn::ScaleMode::SqrtDk);  // default scale
  CHECK_FALSE(d.scene->causal);                           // default causal
  CHECK(d.scene->mask.size() == 0);

  const scene::ParseResult t =
      scene::parse_scene(small_scene(R"(,"scale":2.5,"causal":true,"mask":[[1,0],[1,1]])"));
  REQUIRE_MESSAGE(t.ok(), t.error);
  CHECK(t.scene->scale.mode == attn::ScaleMode::Temperature);
  CHECK(t.scene->scale.temperature == 2.5);
  CHECK(scene::scene_to_json(*t.scene).find(R"("scale":2.5,"causal":true,"mask":[[1,0],[1,1]]})") !=
        std::string::npos);

  // Empty and duplicate labels are fine; UTF-8 labels up to 64 bytes too.
  const std::string label64(64, 'x');
  const scene::ParseResult labels = scene::parse_scene(
      R"({"version":1,"tokens":["","","chat noir é","ü)" + std::string(61, 'y') + R"(","\u732b","x"],"Q":)" +
      matrix_json(6, 1) + R"(,"K":)" + matrix_json(6, 1) + R"(,"V":)" + matrix_json(6, 1) + "}");
  REQUIRE_MESSAGE(labels.ok(), labels.error);
  CHECK(labels.scene->tokens[4] == "\xE7\x8C\xAB");  // 猫
}

TEST_CASE("result_to_json has every stage; masked cells are null in scaled") {
  const scene::ParseResult p = scene::parse_scene(small_scene(R"(,"scale":"none","mask":[[0,0],[1,0]])"));
  REQUIRE(p.ok());
  const attn::Result r = scene::compute(*p.scene);
  const json j = json::parse(scene::result_to_json(r), nullptr, false);
  REQUIRE(j.is_object());
  for (const char* key :
       {"Q", "K", "V", "scores", "divisor", "scaled", "allowed", "weights", "output", "masked_rows"})
    CHECK_MESSAGE(j.contains(key), key);
  // scores = Q Kᵀ = [[1·5+2·6, 1·7+2·8], [3·5+4·6, 3·7+4·8]] = [[17, 23], [39, 53]]
  CHECK(j["scores"] == json::parse("[[17.0,23.0],[39.0,53.0]]"));
  CHECK(j["scaled"] == json::parse("[[null,null],[39.0,null]]"));
  CHECK(j["allowed"] == json::parse("[[0,0],[1,0]]"));
  CHECK(j["weights"] == json::parse("[[0.0,0.0],[1.0,0.0]]"));
  CHECK(j["output"] == json::parse("[[0.0],[1.0]]"));
  CHECK(j["masked_rows"] == json::parse("[0]"));
  CHECK(j["divisor"] == 1.0);
  // Indented output is the same JSON.
  CHECK(json::parse(scene::result_to_json(r, 2), nullptr, false) == j);
}

TEST_CASE("validate() and compute() on scenes built in code") {
  scene::Scene s = must_preset("soft-dictionary");
  s.tokens[1] = "\xC3\x28";  // invalid UTF-8
  CHECK(scene::validate(s).rfind("tokens: entry 1", 0) == 0);
  s = must_preset("soft-dictionary");
  s.K(1, 1) = std::nan("");
  CHECK(scene::validate(s) == "K: row 1, entry 1 is not a finite number");
  CHECK(scene::compute(s).weights.size() == 0);  // invalid: an empty result, not a crash
  s = must_preset("soft-dictionary");
  s.V.resize(3, 2);
  s.V.setOnes();
  CHECK(scene::validate(s).rfind("V: has 3 rows, expected 2", 0) == 0);
  s = must_preset("practice-qkv");
  s.Wk = Matrix::Ones(4, 3);
  CHECK(scene::validate(s).rfind("Wk: row 0 has 3 entries, expected 2", 0) == 0);
  s = must_preset("practice-qkv");
  s.mask = attn::MaskMatrix::Ones(3, 3);
  s.mask(2, 1) = 7;
  CHECK(scene::validate(s) == "mask: row 2, entry 1 must be 0 or 1");
  s.mask = attn::MaskMatrix::Ones(2, 2);
  CHECK(scene::validate(s).rfind("mask:", 0) == 0);
  s = must_preset("practice-qkv");
  s.scale.mode = attn::ScaleMode::Temperature;
  s.scale.temperature = 0.0;
  CHECK(scene::validate(s).rfind("scale:", 0) == 0);
}

TEST_CASE("scene versions: a version-2 scene without version-2 keys is written as version 1, byte for byte") {
  // Every preset's text is version 1; stamping it "version": 2 reads the same scene, which writes
  // back as exactly the original version-1 text (old links and demo files keep their bytes).
  for (const scene::PresetInfo& info : scene::preset_list()) {
    INFO("preset " << info.name);
    const scene::Scene preset = must_preset(info.name.c_str());
    if (preset.heads != 1 || preset.Wo.size() != 0) continue;  // uses version-2 keys
    const std::string v1 = scene::scene_to_json(preset);
    REQUIRE(v1.rfind(R"({"version":1,)", 0) == 0);
    const std::string v2 = R"({"version":2,)" + v1.substr(std::string(R"({"version":1,)").size());
    const scene::ParseResult back = scene::parse_scene(v2);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(scene::scene_to_json(*back.scene) == v1);
    CHECK(scene::scene_to_json(*back.scene, 2) == scene::scene_to_json(must_preset(info.name.c_str()), 2));
  }
  CHECK(scene::kSceneVersion == 2);
}

TEST_CASE("malformed scenes are rejected with an error naming the field") {
  const std::string ten_mb(10u << 20, ' ');
  const std::vector<BadScene> table = {
      {"K row too long",
       R"({"version":1,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[1,2],[3,4,5]],"V":[[1],[2]]})",
       "K: row 1 has 3 entries, expected 2"},
      {"K wrong d_k", R"({"version":1,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[1],[3]],"V":[[1],[2]]})",
       "K: row 0 has 1 entries, expected 2"},
      {"V too few rows", R"({"version":1,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[1,2],[3,4]],"V":[[1]]})",
       "V: has 1 rows, expected 2"},
      {"X rows vs tokens", R"({"version":1,"tokens":["a"],"X":[[1],[2]],"Wq":[[1]],"Wk":[[1]],"Wv":[[1]]})",
       "X: has 2 rows, expected 1"},
      {"Wv rows vs d_model",
       R"({"version":1,"tokens":["a"],"X":[[1,2]],"Wq":[[1],[1]],"Wk":[[1],[1]],"Wv":[[1]]})",
       "Wv: has 1 rows, expected 2"},
      {"Wk cols vs Wq", R"({"version":1,"tokens":["a"],"X":[[1]],"Wq":[[1,2]],"Wk":[[1]],"Wv":[[1]]})",
       "Wk: row 0 has 1 entries, expected 2"},
      {"both modes", small_scene(R"(,"X":[[1],[2]])"), "scene: give either Q/K/V or X/Wq/Wk/Wv, not both"},
      {"no mode", R"({"version":1,"tokens":["a"]})", "scene: no vectors"},
      {"half a mode", R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1]]})", "V: missing"},
      {"bare NaN", R"({"version":1,"tokens":["a"],"Q":[[NaN]],"K":[[1]],"V":[[1]]})",
       "json: parse error at byte 35 (in Q: row 0, entry 0)"},
      {"NaN as string", R"({"version":1,"tokens":["a"],"Q":[["NaN"]],"K":[[1]],"V":[[1]]})",
       "Q: row 0, entry 0 is not a finite number"},
      {"Inf as string", R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1, "Inf"]]})",
       "V: row 0, entry 1 is not a finite number"},
      {"1e400", R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1e400]],"V":[[1]]})",
       "K: row 0, entry 0 is not a finite number"},
      {"above 1e15", R"({"version":1,"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[-2e15]]})",
       "V: row 0, entry 0 has magnitude above the limit"},
      {"n = 1025",
       R"({"version":1,"tokens":)" + tokens_json(1025) + R"(,"Q":)" + matrix_json(1025, 1) + R"(,"K":)" +
           matrix_json(1025, 1) + R"(,"V":)" + matrix_json(1025, 1) + "}",
       "tokens: 1025 tokens, limit is 1024"},
      {"d = 257", R"({"version":1,"tokens":["a"],"Q":)" + matrix_json(1, 257) + R"(,"K":[[1]],"V":[[1]]})",
       "Q: row 0 has 257 entries, limit is 256"},
      {"negative scale", small_scene(R"(,"scale":-1)"),
       "scale: must be \"none\", \"sqrt_dk\" or a number in"},
      {"zero scale", small_scene(R"(,"scale":0)"), "scale: must be"},
      {"huge scale", small_scene(R"(,"scale":1e7)"), "scale: must be"},
      {"unknown scale", small_scene(R"(,"scale":"sqrt")"), "scale: must be"},
      {"scale as bool", small_scene(R"(,"scale":true)"), "scale: must be"},
      {"mask entry 2", small_scene(R"(,"mask":[[1,0],[1,2]])"), "mask: row 1, entry 1 must be 0 or 1"},
      {"mask entry 0.5", small_scene(R"(,"mask":[[1,0.5],[1,1]])"), "mask: row 0, entry 1 must be 0 or 1"},
      {"mask as bool", small_scene(R"(,"mask":[[true,1],[1,1]])"), "mask: row 0, entry 0 must be 0 or 1"},
      {"mask wrong size", small_scene(R"(,"mask":[[1,1,1],[1,1,1],[1,1,1]])"),
       "mask: has 3 rows, expected 2"},
      {"mask row short", small_scene(R"(,"mask":[[1,1],[1]])"), "mask: row 1 has 1 entries, expected 2"},
      {"causal as string", small_scene(R"(,"causal":"yes")"), "causal: must be true or false"},
      {"Q as string", R"({"version":1,"tokens":["a"],"Q":"[[1]]","K":[[1]],"V":[[1]]})",
       "Q: expected an array of rows, got a string"},
      {"row as number", R"({"version":1,"tokens":["a","b"],"Q":[[1],2],"K":[[1],[1]],"V":[[1],[1]]})",
       "Q: row 1 is not an array"},
      {"empty row", R"({"version":1,"tokens":["a"],"Q":[[]],"K":[[1]],"V":[[1]]})", "Q: row 0 is empty"},
      {"token as number", R"({"version":1,"tokens":["a",7],"Q":[[1],[1]],"K":[[1],[1]],"V":[[1],[1]]})",
       "tokens: entry 1 is not a string"},
      {"tokens missing", R"({"version":1,"Q":[[1]],"K":[[1]],"V":[[1]]})", "tokens: missing"},
      {"no tokens", R"({"version":1,"tokens":[],"Q":[[1]],"K":[[1]],"V":[[1]]})",
       "tokens: need at least 1 token"},
      {"token of 65 bytes",
       R"({"version":1,"tokens":[")" + std::string(65, 'z') + R"("],"Q":[[1]],"K":[[1]],"V":[[1]]})",
       "tokens: entry 0 is 65 bytes, limit is 64"},
      {"truncated JSON", R"({"version":1,"tokens":["a"],"Q":[[1)",
       "json: parse error at byte 36 (in Q: row 0, entry 1): syntax error while parsing array - unexpected "
       "end of input"},
      {"trailing garbage", small_scene() + "x", "json: parse error at byte"},
      {"invalid UTF-8", "{\"version\":1,\"tokens\":[\"\xC3\x28\"],\"Q\":[[1]],\"K\":[[1]],\"V\":[[1]]}",
       "json: parse error at byte 26 (in tokens: entry 0): syntax error while parsing value - invalid "
       "string: ill-formed UTF-8"},
      {"empty input", "", "input: empty"},
      {"whitespace input", " \n\t ", "input: empty"},
      {"not an object", "[1,2,3]", "scene: expected a JSON object, got an array"},
      {"version 3", R"({"version":3,"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1]]})",
       "version: expected 1 or 2, got 3"},
      {"version 1.5", R"({"version":1.5,"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1]]})",
       "version: expected 1 or 2, got 1.5"},
      {"mask empty", small_scene(R"(,"mask":[])"), "mask: is empty"},
      {"version as string", R"({"version":"1","tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1]]})",
       "version: expected 1"},
      {"missing version", R"({"tokens":["a"],"Q":[[1]],"K":[[1]],"V":[[1]]})", "version: missing"},
      {"unknown key", small_scene(R"(,"casual":true)"), "casual: unknown key"},
      {"duplicate key", small_scene(R"(,"Q":[[1,2],[3,4]])"), "Q: key appears twice"},
      {"deep nesting", std::string(100000, '['), "json: nested more than 32 levels"},
      {"10 MB input", "{" + ten_mb + "}", "input: 10485762 bytes is larger than the 8 MiB limit"},
  };
  CHECK(table.size() >= 20);
  for (const BadScene& bad : table) check_parse_error(bad);
}

// Documents are read into ordered_json (the app's one JSON type, keys in the order typed), and the
// readers walk an object's keys sorted (json_text::sorted_members), as they did when std::map-based
// nlohmann::json held them: of several bad keys, the one named is the first in byte order ("Alpha"
// before "zeta", "heads" before "zz"), not the first typed.
TEST_CASE("of several bad keys the error names the first in byte order, not the first in the text") {
  CHECK(scene::parse_scene(small_scene(R"(,"zeta":1,"Alpha":2)")).error.rfind("Alpha: unknown key", 0) == 0);
  CHECK(scene::parse_scene(small_scene(R"(,"zz":1,"heads":2)")).error ==
        "heads: needs \"version\": 2 (this scene says 1)");
  const std::string rope = R"({"version":2,"tokens":["a","b"],"Q":[[1,2],[3,4]],"K":[[5,6],[7,8]],)"
                           R"("V":[[1],[2]],"rope":{"offset":-1,"base":"x"}})";
  CHECK(scene::parse_scene(rope).error == "rope: base must be a number, got a string");
}

TEST_CASE("the limits themselves are accepted: n = 1024, d = 256, |value| = 1e15, scale at both ends") {
  const std::string big = R"({"version":1,"tokens":)" + tokens_json(1024) + R"(,"Q":)" +
                          matrix_json(1024, 1) + R"(,"K":)" + matrix_json(1024, 1) + R"(,"V":)" +
                          matrix_json(1024, 1) + "}";
  const scene::ParseResult r = scene::parse_scene(big);
  REQUIRE_MESSAGE(r.ok(), r.error);
  CHECK(r.scene->n() == 1024);
  const scene::ParseResult wide =
      scene::parse_scene(R"({"version":1,"tokens":["a"],"X":)" + matrix_json(1, 256, "-1e15") + R"(,"Wq":)" +
                         matrix_json(256, 256, "0") + R"(,"Wk":)" + matrix_json(256, 1) + R"(,"Wv":)" +
                         matrix_json(256, 256) + "}");
  // Wk must have Wq's 256 columns: the error names Wk.
  CHECK(wide.error.rfind("Wk: row 0 has 1 entries, expected 256", 0) == 0);
  const scene::ParseResult wide_ok =
      scene::parse_scene(R"({"version":1,"tokens":["a","b"],"X":)" + matrix_json(2, 256, "-1e15") +
                         R"(,"Wq":)" + matrix_json(256, 256, "0") + R"(,"Wk":)" + matrix_json(256, 256) +
                         R"(,"Wv":)" + matrix_json(256, 256) + "}");
  REQUIRE_MESSAGE(wide_ok.ok(), wide_ok.error);
  const attn::Result wr = scene::compute(*wide_ok.scene);
  CHECK(wr.output.allFinite());
  CHECK(wr.output(0, 0) == -2.56e17);  // both rows of V are 256 · (−1e15); weights [0.5, 0.5]
  for (const char* scale : {"1e-06", "1e+06", "1", "0.001"})
    CHECK_MESSAGE(scene::parse_scene(small_scene(std::string(R"(,"scale":)") + scale)).ok(), scale);
}

TEST_CASE("error messages are valid UTF-8 even when the input is not") {
  const scene::ParseResult r =
      scene::parse_scene("{\"version\":1,\"tokens\":[\"\xFF\xFE\"],\"Q\":[[1]],\"K\":[[1]],\"V\":[[1]]}");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.find('\xFF') == std::string::npos);
  CHECK(r.error.find('\xFE') == std::string::npos);
  CHECK(r.error.rfind("json: parse error at byte", 0) == 0);
}

// json_text::parse_fast, setState's one pass (numbers by Clinger's fast path, else strtod): it must build
// exactly the document nlohmann's own parser builds — the same types (unsigned, signed, double) and the same
// doubles bit for bit — and leave everything else to the checking path, which words the errors.
TEST_CASE("the fast JSON pass builds nlohmann's document exactly, and refuses what it cannot read") {
  using document = scene::json_text::json;  // the app's one type: ordered, so == checks key order too
  const char* same[] = {"0",
                        "-0",
                        "17",
                        "-17",
                        "18446744073709551615",
                        "18446744073709551616",
                        "-9223372036854775808",
                        "-9223372036854775809",
                        "0.1",
                        "-0.125",
                        "1e2",
                        "1E-2",
                        "2.5e+3",
                        "1.7976931348623157e308",
                        "4.9e-324",
                        "2.2250738585072011e-308",
                        "0.30000000000000004",
                        "123456789012345678901234567890",
                        "true",
                        "false",
                        "null",
                        "\"\"",
                        R"("a\"b\\c\/d\b\f\n\r\t")",
                        "\"ünïcödé √ ᵀ\"",
                        "[]",
                        "{}",
                        " [ 1 , [2.5,-3] , { \"k\" : [ ] } ] ",
                        R"({"version":2,"tokens":["a","b"],"Q":[[1,2.5],[-3,4e-3]]})"};
  for (const char* text : same) {
    CAPTURE(text);
    document fast;
    REQUIRE(scene::json_text::parse_fast(text, &fast));
    const document reference = document::parse(text);
    CHECK(fast == reference);
    CHECK(fast.dump() == reference.dump());  // the same types: 1 and 1.0 dump differently
    if (reference.is_number_float())
      CHECK(std::memcmp(&fast.get_ref<const double&>(), &reference.get_ref<const double&>(),
                        sizeof(double)) == 0);
  }
  // Short decimals (Clinger's fast path: up to 15 digits, exponents −30 … 30, across the ±22 edge)
  // read as strtod reads them, bit for bit.
  std::mt19937_64 digits_rng(9);
  for (int k = 0; k < 20000; ++k) {
    char text[48];
    const long long w = static_cast<long long>(digits_rng() % 1000000000000000ULL) >> (digits_rng() % 50);
    const int exponent = int(digits_rng() % 61) - 30;
    std::snprintf(text, sizeof text, "%s%lld.%de%d", k % 2 ? "-" : "", w, int(digits_rng() % 1000), exponent);
    document fast;
    REQUIRE(scene::json_text::parse_fast(text, &fast));
    const double want = std::strtod(text, nullptr);
    CAPTURE(text);
    CHECK(std::memcmp(&fast.get_ref<const double&>(), &want, sizeof want) == 0);
  }
  // Random doubles written with 17 digits (strtod's part) read back bit for bit.
  std::mt19937_64 rng(5);
  for (int k = 0; k < 2000; ++k) {
    std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", x);
    document fast;
    REQUIRE(scene::json_text::parse_fast(text, &fast));
    CHECK(fast.get<double>() == x);
  }
  const char* refused[] = {"",
                           " ",
                           "01",
                           "1.",
                           ".5",
                           "-",
                           "+1",
                           "1e",
                           "1e400",
                           "-1e400",
                           "NaN",
                           "[1,]",
                           "[1 2]",
                           "{\"a\":1,}",
                           "{\"a\":1,\"a\":2}",
                           "\"\\u00e9\"",
                           "\"\\x\"",
                           "\"a\nb\"",
                           "\"\xff\"",
                           "[1] x",
                           "tru",
                           "{\"a\" 1}",
                           "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"};
  for (const char* text : refused) {
    CAPTURE(text);
    document fast;
    CHECK_FALSE(scene::json_text::parse_fast(text, &fast));
  }
  // 32 levels are a document; 33 are refused (kMaxDepth), by both paths.
  const std::string deep32 = std::string(32, '[') + std::string(32, ']');
  document fast;
  CHECK(scene::json_text::parse_fast(deep32, &fast));
  CHECK(scene::json_text::parse(deep32).error.empty());
}

TEST_CASE("a custom mask of a 1024-token scene validates (its width is n, not a feature size)") {
  // The soak (tests/bench/soak.mjs) clicked the Mask grid of #gen=local,1024,64,64,1: validate said
  // "mask: row 0 has 1024 entries, limit is 256" (the d_k/d_v limit) and the app kept a stale result.
  scene::GenSpec spec;
  spec.n = scene::kMaxTokens;
  spec.d_k = spec.d_v = 4;
  scene::Scene s = scene::generate(spec);
  s.mask = attn::MaskMatrix::Ones(s.n(), s.n());
  s.mask(5, 3) = 0;
  CHECK(scene::validate(s) == "");
  // Still checked: the mask's width must be n, and a feature size above kMaxDim is still refused.
  s.mask = attn::MaskMatrix::Ones(s.n(), s.n() - 1);
  CHECK(scene::validate(s).find("mask: row 0 has 1023 entries, expected 1024") == 0);
  s.mask.resize(0, 0);
  s.Q = attn::Matrix::Zero(s.n(), scene::kMaxDim + 1);
  CHECK(scene::validate(s).find("limit is 256") != std::string::npos);
}
