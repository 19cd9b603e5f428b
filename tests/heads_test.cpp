// Multi-head attention: the core (core/heads.hpp) against the single-head pass it is built from,
// the scene keys "heads" and "Wo" (version 2), the CLI's JSON and the presets three-heads and
// torch-mha. References: h = 1 must equal the single-head pass bit for bit; each head must equal
// attn::attend on its column slice bit for bit; three-heads follows its closed form
// score = −3 (j − p)²; torch-mha's numbers are PyTorch's (python3-torch 1.13, printed by
// torch.manual_seed(0); x = torch.rand(1, 5, 8); nn.MultiheadAttention(8, 2, bias=False)).
// PyTorch and NumPy themselves run in tests/heads_crosscheck.py.
#include "core/heads.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "scene/traces.hpp"

using attn::Matrix;

namespace {

// A valid direct scene: n = 2, d_k = 4, d_v = 2, with `extra` spliced in before the closing brace.
std::string scene_text(int version, const std::string& extra) {
  return R"({"version":)" + std::to_string(version) +
         R"(,"tokens":["a","b"],"Q":[[1,2,3,4],[5,6,7,8]],"K":[[1,0,1,0],[0,1,0,1]],"V":[[1,2],[3,4]])" +
         extra + "}";
}

// "[0,0,…,0]" with `cols` entries.
std::string zeros_row(int cols) {
  std::string row = "[";
  for (int j = 0; j < cols; ++j) row += j ? ",0" : "0";
  return row + "]";
}

}  // namespace

TEST_CASE("heads: h = 1 is the single-head pass, bit for bit (direct and projected, with masks)") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 1 + trial % 7, d_k = 1 + trial % 5, d_v = 1 + (trial * 3) % 4, d_model = 2 + trial % 3;
    attn::Options options;
    options.causal = trial % 2 == 0;
    options.scale.mode = trial % 3 == 0 ? attn::ScaleMode::None : attn::ScaleMode::SqrtDk;
    if (trial % 4 == 1) {
      options.mask = attn::MaskMatrix::Ones(n, n);
      options.mask.row(0).setZero();  // a fully masked row
    }
    INFO("trial " << trial);
    const Matrix Q = random_matrix(rng, n, d_k), K = random_matrix(rng, n, d_k),
                 V = random_matrix(rng, n, d_v);
    const attn::Result single = attn::attend(Q, K, V, options);
    const attn::HeadsResult h1 = attn::attend_heads(Q, K, V, 1, Matrix(), options);
    REQUIRE(h1.heads.size() == 1);
    check_same_stages(h1.heads[0], single);
    CHECK(same_bits(h1.concat, single.output));
    CHECK(same_bits(h1.output, single.output));
    CHECK(same_bits(h1.weights_mean, single.weights));

    const Matrix X = random_matrix(rng, n, d_model), Wq = random_matrix(rng, d_model, d_k),
                 Wk = random_matrix(rng, d_model, d_k), Wv = random_matrix(rng, d_model, d_v);
    const attn::Result projected = attn::attend_projected(X, Wq, Wk, Wv, options);
    const attn::HeadsResult p1 = attn::attend_heads_projected(X, Wq, Wk, Wv, 1, Matrix(), options);
    check_same_stages(p1.heads[0], projected);
    CHECK(same_bits(p1.output, projected.output));
  }
  // Through the scene layer: a scene without version-2 keys gives today's CLI text exactly.
  for (const scene::PresetInfo& info : scene::preset_list()) {
    const scene::Scene s = must_preset(info.name.c_str());
    if (s.heads != 1 || s.Wo.size() != 0) continue;
    INFO(info.name);
    CHECK(scene::result_to_json(scene::compute_heads(s), 2) == scene::result_to_json(scene::compute(s), 2));
  }
}

TEST_CASE("heads: each head is attend() on its column slice; concat, mean and Wo follow") {
  std::mt19937 rng(5);
  for (int h : {2, 3, 4}) {
    for (bool causal : {false, true}) {
      const int n = 6, d_k = 2 * h, d_v = 3 * h, d_out = 5;
      attn::Options options;
      options.causal = causal;
      const Matrix Q = random_matrix(rng, n, d_k), K = random_matrix(rng, n, d_k),
                   V = random_matrix(rng, n, d_v);
      const Matrix Wo = random_matrix(rng, d_v, d_out);
      const attn::HeadsResult r = attn::attend_heads(Q, K, V, h, Wo, options);
      INFO("h = " << h << ", causal " << causal);
      REQUIRE(r.heads.size() == static_cast<std::size_t>(h));
      Matrix mean = Matrix::Zero(n, n);
      for (int t = 0; t < h; ++t) {
        const attn::Result want =
            attn::attend(Q.middleCols(t * 2, 2), K.middleCols(t * 2, 2), V.middleCols(t * 3, 3), options);
        check_same_stages(r.heads[static_cast<std::size_t>(t)], want);
        // Under sqrt_dk each head divides by √(d_k/h), its own key size.
        CHECK(r.heads[static_cast<std::size_t>(t)].divisor == std::sqrt(2.0));
        CHECK(same_bits(Matrix(r.concat.middleCols(t * 3, 3)), want.output));
        // Each head's rows sum to 1.
        for (int i = 0; i < n; ++i) CHECK(want.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-12));
        mean += want.weights;
      }
      mean /= h;
      CHECK((r.weights_mean - mean).cwiseAbs().maxCoeff() <= 1e-15);
      CHECK((r.output - r.concat * Wo).cwiseAbs().maxCoeff() <= 1e-13);  // Eigen may sum in another order
      CHECK(r.output.rows() == n);
      CHECK(r.output.cols() == d_out);
      // Without Wo the output is the concatenation itself.
      CHECK(same_bits(attn::attend_heads(Q, K, V, h, Matrix(), options).output, r.concat));
    }
  }
}

TEST_CASE("heads: permutation equivariance per head (no mask): permuting tokens permutes every stage") {
  std::mt19937 rng(23);
  const int n = 5, h = 2;
  const Matrix Q = random_matrix(rng, n, 4), K = random_matrix(rng, n, 4), V = random_matrix(rng, n, 6);
  const Matrix Wo = random_matrix(rng, 6, 3);
  std::vector<int> perm = {3, 0, 4, 1, 2};  // new row i is old row perm[i]
  Eigen::PermutationMatrix<Eigen::Dynamic> P(n);
  for (int i = 0; i < n; ++i) P.indices()[i] = perm[static_cast<std::size_t>(i)];
  const Matrix Pm = Matrix(P.transpose());  // (Pm · M).row(i) = M.row(perm[i])
  for (int i = 0; i < n; ++i) REQUIRE((Pm * Q).row(i) == Q.row(perm[static_cast<std::size_t>(i)]));
  const attn::Options options;
  const attn::HeadsResult a = attn::attend_heads(Q, K, V, h, Wo, options);
  const attn::HeadsResult b = attn::attend_heads(Pm * Q, Pm * K, Pm * V, h, Wo, options);
  for (int t = 0; t < h; ++t) {
    const Matrix& wa = a.heads[static_cast<std::size_t>(t)].weights;
    const Matrix& wb = b.heads[static_cast<std::size_t>(t)].weights;
    CHECK((wb - Pm * wa * Pm.transpose()).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((b.heads[static_cast<std::size_t>(t)].output - Pm * a.heads[static_cast<std::size_t>(t)].output)
              .cwiseAbs()
              .maxCoeff() <= 1e-12);
  }
  CHECK((b.output - Pm * a.output).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("heads: a fully masked row is all-zero in every head, the concat and the output") {
  std::mt19937 rng(3);
  const int n = 4, h = 2;
  attn::Options options;
  options.mask = attn::MaskMatrix::Ones(n, n);
  options.mask.row(2).setZero();
  const attn::HeadsResult r =
      attn::attend_heads(random_matrix(rng, n, 4), random_matrix(rng, n, 4), random_matrix(rng, n, 4), h,
                         random_matrix(rng, 4, 3), options);
  CHECK(r.masked_rows == std::vector<int>{2});
  for (const attn::Result& head : r.heads) {
    CHECK(head.masked_rows == std::vector<int>{2});
    CHECK(head.weights.row(2).cwiseAbs().maxCoeff() == 0.0);
  }
  CHECK(r.weights_mean.row(2).cwiseAbs().maxCoeff() == 0.0);
  CHECK(r.concat.row(2).cwiseAbs().maxCoeff() == 0.0);
  CHECK(r.output.row(2).cwiseAbs().maxCoeff() == 0.0);
  CHECK(r.output.allFinite());
}

TEST_CASE("scene: heads and Wo are version-2 keys; errors name the key") {
  const std::vector<BadScene> table = {
      {"heads in version 1", scene_text(1, R"(,"heads":2)"),
       "heads: needs \"version\": 2 (this scene says 1)"},
      {"Wo in version 1", scene_text(1, R"(,"Wo":[[1],[1]])"), "Wo: needs \"version\": 2"},
      {"3 does not divide", scene_text(2, R"(,"heads":3)"), "heads: 3 does not divide d_k = 4 and d_v = 2"},
      {"4 divides d_k, not d_v", scene_text(2, R"(,"heads":4)"),
       "heads: 4 does not divide d_k = 4 and d_v = 2"},
      {"heads 0", scene_text(2, R"(,"heads":0)"), "heads: must be 1 to 16, got 0"},
      {"heads 17", scene_text(2, R"(,"heads":17)"), "heads: must be 1 to 16, got 17"},
      {"heads -2", scene_text(2, R"(,"heads":-2)"), "heads: must be 1 to 16, got -2"},
      {"heads huge", scene_text(2, R"(,"heads":18446744073709551615)"), "heads: must be 1 to 16"},
      {"heads 2.0", scene_text(2, R"(,"heads":2.0)"), "heads: must be a whole number, got 2.0"},
      {"heads string", scene_text(2, R"(,"heads":"2")"), "heads: must be a whole number, got a string"},
      {"Wo rows", scene_text(2, R"(,"Wo":[[1,2,3]])"), "Wo: has 1 rows, expected 2 (d_v, the columns of V)"},
      {"Wo ragged", scene_text(2, R"(,"Wo":[[1,2],[3]])"), "Wo: row 1 has 1 entries, expected 2"},
      {"Wo empty", scene_text(2, R"(,"Wo":[])"), "Wo: is empty"},
      {"Wo 257 wide", scene_text(2, R"(,"Wo":[)" + zeros_row(257) + "," + zeros_row(257) + "]"),
       "Wo: row 0 has 257 entries, limit is 256"},
      {"Wo NaN string", scene_text(2, R"(,"Wo":[[1,"NaN"],[1,1]])"),
       "Wo: row 0, entry 1 is not a finite number"},
      {"Wo above 1e15", scene_text(2, R"(,"Wo":[[1,2e15],[1,1]])"), "Wo: row 0, entry 1 has magnitude above"},
  };
  for (const BadScene& bad : table) check_parse_error(bad);
  // The projected mode names Wv as the source of d_v.
  scene::Scene p = must_preset("practice-qkv");
  p.Wo = Matrix::Ones(3, 2);
  CHECK(scene::validate(p) == "Wo: has 3 rows, expected 4 (d_v, the columns of Wv)");
  p.heads = 3;
  CHECK(scene::validate(p).rfind("heads: 3 does not divide d_k = 2 and d_v = 4", 0) == 0);
  // A version-2 scene with heads = 2 (the default written out as 1 would be left out).
  const scene::ParseResult ok = scene::parse_scene(scene_text(2, R"(,"heads":2,"Wo":[[1],[0]])"));
  REQUIRE_MESSAGE(ok.ok(), ok.error);
  CHECK(ok.scene->heads == 2);
  CHECK(ok.scene->Wo.rows() == 2);
  const scene::ParseResult one = scene::parse_scene(scene_text(2, R"(,"heads":1)"));
  REQUIRE_MESSAGE(one.ok(), one.error);
  CHECK(scene::scene_to_json(*one.scene) ==
        scene::scene_to_json(*scene::parse_scene(scene_text(1, "")).scene));
}

TEST_CASE("scene: heads and Wo round-trip bit for bit through JSON and links, written as version 2") {
  std::mt19937 rng(8);
  for (int h : {1, 2, 4}) {
    for (bool with_wo : {false, true}) {
      if (h == 1 && !with_wo) continue;
      scene::Scene s = must_preset("learned-5x8");
      s.heads = h;
      if (with_wo) s.Wo = random_matrix(rng, 8, 3);
      REQUIRE(scene::validate(s) == "");
      const std::string text = scene::scene_to_json(s);
      INFO(text.substr(0, 40));
      CHECK(text.rfind(R"({"version":2,)", 0) == 0);
      CHECK((text.find(R"("heads":)") != std::string::npos) == (h != 1));
      CHECK((text.find(R"("Wo":)") != std::string::npos) == with_wo);
      const scene::ParseResult back = scene::parse_scene(text);
      REQUIRE_MESSAGE(back.ok(), back.error);
      CHECK(back.scene->heads == h);
      CHECK(same_bits(back.scene->Wo, s.Wo));
      CHECK(scene::scene_to_json(*back.scene) == text);
      const scene::link::MadeFragment made = scene::link::make_fragment(s);
      REQUIRE(made.ok());
      const scene::link::Fragment f = scene::link::parse_fragment(made.fragment);
      REQUIRE_MESSAGE(f.ok(), f.error);
      CHECK(f.scene->heads == h);
      CHECK(same_bits(f.scene->Wo, s.Wo));
      CHECK(scene::scene_to_json(*f.scene) == text);
    }
  }
}

TEST_CASE("CLI JSON for h > 1: per-head stages, concat, mean weights, final output; no top-level scores") {
  const scene::Scene s = must_preset("torch-mha");
  const attn::HeadsResult r = scene::compute_heads(s);
  const nlohmann::json j = nlohmann::json::parse(scene::result_to_json(r, 2), nullptr, false);
  REQUIRE(j.is_object());
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  std::sort(keys.begin(), keys.end());
  CHECK(keys == std::vector<std::string>{"K", "Q", "V", "allowed", "argmax", "concat", "divisor", "entropy",
                                         "heads", "masked_rows", "output", "weights"});
  REQUIRE(j["heads"].size() == 2);
  for (const auto& head : j["heads"]) {
    CHECK(head.size() == 4);
    CHECK(head["weights"].size() == 5);
    CHECK(head["output"][0].size() == 4);  // d_v / h
  }
  CHECK(j["divisor"] == 2.0);  // √(8/2)
  CHECK(j["concat"][0].size() == 8);
  CHECK(j["output"][0].size() == 8);
  // Indented and compact forms hold the same numbers.
  CHECK(nlohmann::json::parse(scene::result_to_json(r, -1), nullptr, false) == j);
  // One head with a Wo: the single-head keys, plus concat (= A·V) before the final output.
  scene::Scene one = must_preset("learned-5x8");
  one.Wo = Matrix::Identity(8, 8) * 2.0;
  const nlohmann::json j1 =
      nlohmann::json::parse(scene::result_to_json(scene::compute_heads(one)), nullptr, false);
  REQUIRE(j1.contains("scores"));
  REQUIRE(j1.contains("concat"));
  CHECK(j1["output"][0][0].get<double>() == 2.0 * j1["concat"][0][0].get<double>());
}

TEST_CASE("preset three-heads: previous token, itself, first token (score = -3 (j - p)^2)") {
  const scene::Scene s = must_preset("three-heads");
  REQUIRE(scene::validate(s) == "");
  CHECK(s.heads == 3);
  CHECK(s.d_k() == 9);
  CHECK(s.d_v() == 3);
  const attn::HeadsResult r = scene::compute_heads(s);
  REQUIRE(r.heads.size() == 3);
  const int n = s.n();
  for (int t = 0; t < 3; ++t) {
    for (int i = 0; i < n; ++i) {
      const int p = t == 0 ? i - 1 : t == 1 ? i : 0;  // the position head t asks for
      INFO("head " << t << ", row " << i);
      // Closed form: softmax_j(−3 (j − p)²); the largest weight sits at the wanted position
      // (row 0 of head 0 asks for position −1, the nearest being 0).
      double z = 0;
      for (int j = 0; j < n; ++j) z += std::exp(-3.0 * (j - p) * (j - p));
      for (int j = 0; j < n; ++j) {
        CHECK(r.heads[static_cast<std::size_t>(t)].scores(i, j) == -3.0 * (j - p) * (j - p));
        CHECK(r.heads[static_cast<std::size_t>(t)].weights(i, j) ==
              doctest::Approx(std::exp(-3.0 * (j - p) * (j - p)) / z).epsilon(1e-12));
      }
      Eigen::Index best = 0;
      r.heads[static_cast<std::size_t>(t)].weights.row(i).maxCoeff(&best);
      CHECK(best == std::max(p, 0));
    }
  }
  // Each head's output is about the position it fetched: e.g. 'mats' (row 4): 3, 4, 0.
  CHECK(r.output(4, 0) == doctest::Approx(3.0).epsilon(0.02));
  CHECK(r.output(4, 1) == doctest::Approx(3.95).epsilon(0.01));
  CHECK(r.output(4, 2) == doctest::Approx(0.05).epsilon(0.01));
}

TEST_CASE("preset torch-mha: PyTorch's seed-0 MultiheadAttention(8, 2, bias=False) weights") {
  const scene::Scene s = must_preset("torch-mha");
  REQUIRE(scene::validate(s) == "");
  CHECK(s.heads == 2);
  CHECK(s.mode == scene::Mode::Projected);
  // python3-torch 1.13: x[0, 0, 0], out_proj.weight[0, 0] (drawn first: the constructor builds
  // out_proj before it resets in_proj_weight), in_proj_weight[0, 0] and in_proj_weight[23, 7].
  CHECK(s.X(0, 0) == 0.49625658988952637);
  CHECK(s.Wo(0, 0) == 0.01859392412006855);
  CHECK(s.Wo(1, 0) == -0.18126098811626434);  // out_proj.weight[0, 1], transposed
  CHECK(s.Wq(0, 0) == -0.41248705983161926);
  CHECK(s.Wq(1, 0) == -0.007783030159771442);  // in_proj_weight[0, 1], transposed
  const double xavier = std::sqrt(3.0) * std::sqrt(2.0 / 32.0);
  for (const Matrix* w : {&s.Wq, &s.Wk, &s.Wv}) CHECK(w->cwiseAbs().maxCoeff() <= xavier + 1e-7);
  const attn::HeadsResult r = scene::compute_heads(s);
  CHECK(r.heads[0].divisor == 2.0);
  CHECK(r.output.rows() == 5);
  CHECK(r.output.cols() == 8);
}

TEST_CASE("heads with rope: each head's columns turn as a head of size d_k/h, then attend") {
  std::mt19937 rng(31);
  scene::Scene s;
  s.tokens = {"a", "b", "c", "d"};
  s.Q = random_matrix(rng, 4, 8);
  s.K = random_matrix(rng, 4, 8);
  s.V = random_matrix(rng, 4, 4);
  s.heads = 2;
  s.rope_on = true;
  s.rope.offset = 3;
  REQUIRE(scene::validate(s) == "");
  const attn::HeadsResult r = scene::compute_heads(s);
  REQUIRE(r.heads.size() == 2);
  for (int t = 0; t < 2; ++t) {
    const Matrix Qt = s.Q.middleCols(t * 4, 4), Kt = s.K.middleCols(t * 4, 4);
    const attn::Result want = attn::attend(attn::apply_rope(Qt, s.rope), attn::apply_rope(Kt, s.rope),
                                           s.V.middleCols(t * 2, 2), scene::options_of(s));
    const attn::Result& got = r.heads[static_cast<std::size_t>(t)];
    CHECK(same_bits(got.Q, Qt));           // what the learner edits …
    CHECK(same_bits(got.Q_rope, want.Q));  // … and what the head saw
    CHECK(same_bits(got.scores, want.scores));
    CHECK(same_bits(got.weights, want.weights));
    CHECK(same_bits(got.output, want.output));
  }
  CHECK(same_bits(Matrix(r.Q_rope.middleCols(4, 4)), r.heads[1].Q_rope));
  // A head of odd size cannot form pairs: d_k = 6, h = 2 → 3.
  s.Q = random_matrix(rng, 4, 6);
  s.K = random_matrix(rng, 4, 6);
  CHECK(scene::validate(s) == "rope: each head's size must be even to form pairs (d_k = 6, d_k/h = 3)");
}
