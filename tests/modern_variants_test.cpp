// The variants of 2024–26 models as scene keys (scene/variant_keys.hpp, core/variants.hpp): each
// key needs "version": 2, reads back byte for byte through JSON and a link, and the cases a paper
// states outright hold exactly (every stage against NumPy: tests/variants_crosscheck.py modern):
//   softmax-off-by-one (Miller 2023): a sink logit 0 is the "+1" in e^{x_j} / (1 + Σ e^{x_j'});
//   top-k with k = every key, differential with λ = 0 and a very low sink are plain attention;
//   linear attention's recurrent form S_t = S_{t−1} + φ(k_t) v_tᵀ equals its causal matrix form
//   (Katharopoulos et al. 2020, §3.4).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/heads.hpp"
#include "core/variants.hpp"
#include "scene/link.hpp"
#include "scene/scene.hpp"
#include "scene/variant_keys.hpp"

using attn::Matrix;

namespace {

const char* const kBase = R"("tokens":["a","b","c"],"Q":[[1,2],[0.5,-1],[2,0]],"K":[[0,1],[1,1],[-1,2]],)"
                          R"("V":[[1,0],[0,1],[2,2]])";

std::string scene_text(int version, const std::string& keys) {
  return "{\"version\":" + std::to_string(version) + "," + kBase + (keys.empty() ? "" : "," + keys) + "}";
}

// One valid value for every variant key (with what it needs beside it), as JSON members.
const char* const kKeyExamples[][2] = {
    {"sources", R"("sources":["x","y","z"])"},
    {"X_src", ""},  // learned scenes only: below
    {"sink_logit", R"("sink_logit":0)"},
    {"softcap", R"("softcap":2.5)"},
    {"qk_norm", R"("qk_norm":{"eps":1e-6,"gain_q":[1,2],"gain_k":[0.5,1]})"},
    {"topk", R"("topk":2)"},
    {"indexer", R"("topk":1,"indexer":[[1,0,0],[0,1,0],[0,0,1]])"},
    {"topk_block", R"("topk":1,"topk_block":2)"},
    {"differential", R"("differential":{"lambda":0.25,"norm":true,"lambda_init":0.5})"},
    {"gate", R"("gate":[[0,1],[2,3],[-1,0]])"},
    {"Wg", ""},  // learned scenes only: below
    {"linear", R"("linear":"elu1")"},
};

Matrix rows(std::initializer_list<std::initializer_list<double>> r) {
  Matrix m(static_cast<Eigen::Index>(r.size()), static_cast<Eigen::Index>(r.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : r) {
    Eigen::Index j = 0;
    for (double x : row) m(i, j++) = x;
    ++i;
  }
  return m;
}

attn::HeadsResult run(const attn::Variants& v, const attn::Options& o = {}) {
  const Matrix Q = rows({{1, 2}, {0.5, -1}, {2, 0}}), K = rows({{0, 1}, {1, 1}, {-1, 2}}),
               V = rows({{1, 0}, {0, 1}, {2, 2}});
  return attn::attend_variants(Q, K, V, 1, Matrix(), o, {}, nullptr, v);
}

}  // namespace

TEST_CASE("variant keys: each needs version 2, and round-trips through JSON and a link byte for byte") {
  for (const auto& [name, members] : kKeyExamples) {
    std::string v2 = scene_text(2, members), v1 = scene_text(1, members);
    const std::string learned =
        R"({"version":2,"tokens":["a","b"],"X":[[1,0],[0,1]],"Wq":[[1,0],[0,1]],"Wk":[[1,0],[0,1]],"Wv":[[1,0],[0,1]],)";
    if (std::string(name) == "Wg" || std::string(name) == "X_src") {
      v2 = learned + (std::string(name) == "Wg" ? R"("Wg":[[1,-1],[0.5,2]]})"
                                                : R"("sources":["x","y","z"],"X_src":[[1,2],[3,4],[5,6]]})");
      v1 = v2;
      v1.replace(v1.find("\"version\":2"), 11, "\"version\":1");
    }
    CAPTURE(name);
    const scene::ParseResult old = scene::parse_scene(v1);
    REQUIRE_FALSE(old.ok());
    // The first variant key of the text (in name order) is named: `name`, or the topk it needs.
    const std::string named = old.error.substr(0, old.error.find(':'));
    CHECK(old.error == named + ": needs \"version\": 2 (this scene says 1)");
    CHECK((named == name || (named == "topk" && v2.find("\"topk\"") != std::string::npos) ||
           (named == "sources" && std::string(name) == "X_src")));
    const scene::ParseResult parsed = scene::parse_scene(v2);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    REQUIRE(parsed.scene->variants != nullptr);
    const std::string text = scene::scene_to_json(*parsed.scene);
    CHECK(text.find("\"" + std::string(name) + "\"") != std::string::npos);
    CHECK(text.find("\"version\":2") != std::string::npos);
    const scene::ParseResult again = scene::parse_scene(text);
    REQUIRE(again.ok());
    CHECK(scene::scene_to_json(*again.scene) == text);
    // Through a link: the same scene text back.
    const scene::link::MadeFragment made = scene::link::make_fragment(*parsed.scene);
    REQUIRE_MESSAGE(made.ok(), made.error);
    const scene::link::Fragment back = scene::link::parse_fragment(made.fragment);
    REQUIRE_MESSAGE(back.error.empty(), back.error);
    REQUIRE(back.scene.has_value());
    CHECK(scene::scene_to_json(*back.scene) == text);
  }
  // A scene without variant keys keeps no VariantKeys and its text is what it always was.
  const scene::ParseResult plain = scene::parse_scene(scene_text(1, ""));
  REQUIRE(plain.ok());
  CHECK(plain.scene->variants == nullptr);
  CHECK(scene::scene_to_json(*plain.scene).find("\"version\":1") != std::string::npos);
}

TEST_CASE("cross-attention: n queries over m source tokens; causal is refused, naming why") {
  const scene::ParseResult r = scene::parse_scene(
      R"({"version":2,"tokens":["a","b"],"sources":["x","y","z"],"Q":[[1,0],[0,1]],"K":[[1,0],[0,1],[1,1]],)"
      R"("V":[[1],[2],[3]],"mask":[[1,1,0],[0,1,1]]})");
  REQUIRE_MESSAGE(r.ok(), r.error);
  CHECK(scene::key_count(*r.scene) == 3);
  const attn::HeadsResult h = scene::compute_heads(*r.scene);
  REQUIRE(h.heads.size() == 1);
  CHECK(h.heads.front().weights.rows() == 2);
  CHECK(h.heads.front().weights.cols() == 3);
  CHECK(h.heads.front().weights(0, 2) == 0.0);  // the n×m mask hides source 2 from query 0
  // Query 0: scores 1, 0 (source 2 hidden), / √2, softmax.
  const double a = std::exp(1.0 / std::sqrt(2.0)), b = 1.0;
  CHECK(h.heads.front().weights(0, 0) == doctest::Approx(a / (a + b)).epsilon(1e-14));
  CHECK(h.output(0, 0) == doctest::Approx((a * 1.0 + b * 2.0) / (a + b)).epsilon(1e-14));
  const scene::ParseResult causal = scene::parse_scene(
      R"({"version":2,"tokens":["a"],"sources":["x","y"],"Q":[[1]],"K":[[1],[2]],"V":[[1],[2]],"causal":true})");
  REQUIRE_FALSE(causal.ok());
  CHECK(causal.error.rfind("causal: cross-attention (\"sources\") has no causal mask", 0) == 0);
}

TEST_CASE("variant keys: bad values name the key") {
  const std::pair<const char*, const char*> bad[] = {
      {R"("softcap":0)", "softcap: c must be above 0"},
      {R"("sink_logit":[1,2])", "sink_logit: give one number, or one per head (heads = 1), got 2"},
      {R"("topk":4)", "topk: k = 4 must be 1 to the 3 keys"},
      {R"("qk_norm":{"eps":-1})", "qk_norm: eps must be above 0"},
      {R"("differential":{"lambda":0.5},"heads":2)", "differential: each head's d_k/h = 1 must be even"},
      {R"("linear":"elu1","sink_logit":1)", "linear: phi(q)·phi(k) weights have no softmax"},
      {R"("gate":[[1,2,3],[1,2,3],[1,2,3]])", "gate: has 3 columns, expected 2"},
  };
  for (const auto& [members, want] : bad) {
    CAPTURE(members);
    const scene::ParseResult r = scene::parse_scene(scene_text(2, members));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.rfind(want, 0) == 0);
  }
}

TEST_CASE(
    "sink logit 0 is softmax-off-by-one; a very low sink, top-k of every key and λ = 0 are plain attention") {
  const attn::HeadsResult plain = run({});
  const attn::Result& p = plain.heads.front();
  attn::Variants v;
  v.sink_logit = {0.0};
  const attn::HeadsResult off = run(v);
  const auto& sink_weight = off.variant->heads.front().sink_weight;
  for (int i = 0; i < 3; ++i) {
    // Miller 2023: a_ij = e^{x_ij} / (1 + Σ_j' e^{x_ij'}), computed here from the scaled scores.
    double den = 1.0;
    for (int j = 0; j < 3; ++j) den += std::exp(p.scaled(i, j));
    for (int j = 0; j < 3; ++j)
      CHECK(off.heads.front().weights(i, j) ==
            doctest::Approx(std::exp(p.scaled(i, j)) / den).epsilon(1e-14));
    CHECK(sink_weight[std::size_t(i)] == doctest::Approx(1.0 / den).epsilon(1e-14));
    CHECK(off.heads.front().weights.row(i).sum() < 1.0);
  }
  v.sink_logit = {-1e6};
  CHECK((run(v).heads.front().weights - p.weights).cwiseAbs().maxCoeff() < 1e-15);
  attn::Variants all;
  all.topk = 3;
  CHECK(run(all).heads.front().weights == p.weights);
  attn::Variants top1;
  top1.topk = 1;
  const attn::Result one = run(top1).heads.front();
  for (int i = 0; i < 3; ++i) CHECK(one.weights.row(i).maxCoeff() == 1.0);  // one key keeps everything
}

TEST_CASE(
    "differential attention with λ = 0 is map 1; linear attention's recurrent form equals its matrix form") {
  attn::Variants d;
  d.differential = true;
  d.lambda = 0.0;
  const Matrix Q = rows({{1, 2, 0, 1}, {0.5, -1, 1, 1}}), K = rows({{0, 1, 2, 2}, {1, 1, -1, 0}}),
               V = rows({{1, 0}, {0, 1}});
  const attn::HeadsResult r = attn::attend_variants(Q, K, V, 1, Matrix(), {}, {}, nullptr, d);
  const attn::Result map1 = attn::attend(Q.leftCols(2), K.leftCols(2), V, {});
  CHECK((r.heads.front().weights - map1.weights).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((r.output - map1.output).cwiseAbs().maxCoeff() < 1e-15);

  // Causal linear attention, 7 tokens: the state S_t (d × d_v) grows by φ(k_t) v_tᵀ and never in size.
  Matrix Ql(7, 3), Kl(7, 3), Vl(7, 2);
  for (int i = 0; i < 7; ++i)
    for (int c = 0; c < 3; ++c) {
      Ql(i, c) = std::sin(1.3 * i + c);
      Kl(i, c) = std::cos(0.7 * i - 2.0 * c);
      if (c < 2) Vl(i, c) = std::sin(0.4 * i * c + 1.0);
    }
  attn::Variants lin;
  lin.linear = true;
  attn::Options causal;
  causal.causal = true;
  const attn::HeadsResult matrix_form =
      attn::attend_variants(Ql, Kl, Vl, 1, Matrix(), causal, {}, nullptr, lin);
  std::vector<Matrix> states;
  const Matrix recurrent = attn::linear_recurrent(Ql, Kl, Vl, &states);
  CHECK((recurrent - matrix_form.output).cwiseAbs().maxCoeff() <
        1e-12 * matrix_form.output.cwiseAbs().maxCoeff());
  REQUIRE(states.size() == 7);
  CHECK(states.back().rows() == 3);
  CHECK(states.back().cols() == 2);
  // The linear weights are φ(q)·φ(k) normalised: row sums 1, every allowed weight > 0.
  for (int i = 0; i < 7; ++i) CHECK(matrix_form.heads.front().weights.row(i).sum() == doctest::Approx(1.0));
}

TEST_CASE("MLA (DeepSeek-V2): the concatenated form, the absorbed form to 1e-12, and the cache per token") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto random = [&](Eigen::Index r, Eigen::Index c) {
    Matrix m(r, c);
    for (Eigen::Index i = 0; i < r; ++i)
      for (Eigen::Index j = 0; j < c; ++j) m(i, j) = u(rng);
    return m;
  };
  const int n = 6, d_model = 8, d_c = 4, d_nope = 3, d_rope = 2, d_vh = 2, h = 2;
  attn::MlaWeights w;
  w.W_q = random(d_model, h * (d_nope + d_rope));
  w.W_dkv = random(d_model, d_c);
  w.W_uk = random(d_c, h * d_nope);
  w.W_uv = random(d_c, h * d_vh);
  w.W_kr = random(d_model, d_rope);
  const Matrix X = random(n, d_model);
  REQUIRE(attn::check_mla(X, w, h).empty());
  attn::Rope rope;
  rope.base = 100.0;
  attn::Options causal;
  causal.causal = true;
  const attn::MlaResult r = attn::attend_mla(X, w, h, &rope, causal);
  CHECK(r.cache_numbers_per_token == d_c + d_rope);  // against 2·h·(d_nope + d_rope) = 20 for MHA
  for (int t = 0; t < h; ++t) {
    // The paper's eq. (16)–(19): q_t = [q^C; q^R], k_t = [k^C; k^R] — ordinary attention on the
    // concatenations, the RoPE key shared by every head.
    const Matrix Q = X * w.W_q, c = X * w.W_dkv;
    Matrix q(n, d_nope + d_rope), k(n, d_nope + d_rope);
    q << Q.middleCols(t * (d_nope + d_rope), d_nope),
        attn::apply_rope(Q.middleCols(t * (d_nope + d_rope) + d_nope, d_rope), rope);
    k << c * w.W_uk.middleCols(t * d_nope, d_nope), attn::apply_rope(Matrix(X * w.W_kr), rope);
    const attn::Result plain = attn::attend(q, k, c * w.W_uv.middleCols(t * d_vh, d_vh), causal);
    const auto t_ = std::size_t(t);
    CHECK((r.weights[t_] - plain.weights).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((r.output.middleCols(t * d_vh, d_vh) - plain.output).cwiseAbs().maxCoeff() < 1e-12);
    // Absorbed: W_uk folded into the query gives the same scores and weights to 1e-12.
    CHECK((r.absorbed_scores[t_] - r.scores[t_]).cwiseAbs().maxCoeff() <
          1e-12 * r.scores[t_].cwiseAbs().maxCoeff());
    CHECK((r.absorbed_weights[t_] - r.weights[t_]).cwiseAbs().maxCoeff() < 1e-12);
  }
  CHECK((r.absorbed_output - r.output).cwiseAbs().maxCoeff() < 1e-12 * r.output.cwiseAbs().maxCoeff());
  w.W_q = random(d_model, 3);
  CHECK(attn::check_mla(X, w, h).rfind("W_q: must be d_model × h·(d_nope + d_rope)", 0) == 0);
}

namespace {

// A latent-attention scene (the "mla" key): 4 tokens, d_model 4, 2 heads of d_nope 2 + d_rope 2
// (Wq 4×8), d_c 2, values of 2 per head; `extra` adds or replaces members.
std::string mla_text(const std::string& extra = "", const std::string& mla_members = "") {
  const std::string mla =
      mla_members.empty() ? R"("W_dkv":[[1,0],[0,1],[0.5,-0.5],[0.25,1]],"W_uk":[[1,0,0.5,-1],[0,1,1,0.5]],)"
                            R"("W_uv":[[0.5,1,-1,0],[1,-0.5,0,2]],"W_kr":[[1,0],[0,1],[1,1],[-1,0.5]])"
                          : mla_members;
  return R"({"version":2,"tokens":["a","b","c","d"],"X":[[1,0,0.5,0],[0,1,0,-1],[1,1,0,0.5],[0,-0.5,1,1]],)"
         R"("Wq":[[1,0,0.5,0,0,1,0,0.5],[0,1,0,0.5,1,0,-1,0],[0.5,0,1,0,0,0.5,1,0],[0,-1,0,1,0.5,0,0,1]],)"
         R"("heads":2,"mla":{)" +
         mla + "}" + (extra.empty() ? "" : "," + extra) + "}";
}

}  // namespace

TEST_CASE("mla scene key: version 2, Wk and Wv derived and never written, JSON and link round trips") {
  for (const char* extra :
       {"", R"("rope":{"base":100},"causal":true)", R"("mask":[[1,0,1,1],[1,1,0,1],[1,1,1,0],[0,1,1,1]])"}) {
    CAPTURE(extra);
    const scene::ParseResult parsed = scene::parse_scene(mla_text(extra));
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    const scene::Scene& s = *parsed.scene;
    REQUIRE(scene::is_mla(s));
    // Head t's block of Wk is [W_dkv W_uk,t | W_kr]; Wv = W_dkv W_uv.
    const scene::MlaKeys& k = s.variants->mla;
    CHECK(s.Wk.middleCols(0, 2) == k.W_dkv * k.W_uk.middleCols(0, 2));
    CHECK(s.Wk.middleCols(2, 2) == k.W_kr);
    CHECK(s.Wk.middleCols(4, 2) == k.W_dkv * k.W_uk.middleCols(2, 2));
    CHECK(s.Wk.middleCols(6, 2) == k.W_kr);
    CHECK(s.Wv == k.W_dkv * k.W_uv);
    const std::string text = scene::scene_to_json(s);
    CHECK(text.find("\"mla\":{\"W_dkv\"") != std::string::npos);
    CHECK(text.find("\"Wk\"") == std::string::npos);
    CHECK(text.find("\"Wv\"") == std::string::npos);
    const scene::ParseResult again = scene::parse_scene(text);
    REQUIRE_MESSAGE(again.ok(), again.error);
    CHECK(scene::scene_to_json(*again.scene) == text);
    const scene::link::MadeFragment made = scene::link::make_fragment(s);
    REQUIRE_MESSAGE(made.ok(), made.error);
    const scene::link::Fragment back = scene::link::parse_fragment(made.fragment);
    REQUIRE_MESSAGE(back.error.empty(), back.error);
    REQUIRE(back.scene.has_value());
    CHECK(scene::scene_to_json(*back.scene) == text);
  }
  const scene::ParseResult old = scene::parse_scene(
      R"({"version":1,"tokens":["a"],"X":[[1]],"Wq":[[1]],"mla":{"W_dkv":[[1]],"W_uk":[[1]],"W_uv":[[1]]}})");
  REQUIRE_FALSE(old.ok());
  CHECK(old.error == "mla: needs \"version\": 2 (this scene says 1)");
}

TEST_CASE("mla scene key: compute_heads is attend_mla, as an ordinary multi-head result") {
  for (const char* extra : {"", R"("rope":{"base":100},"causal":true)",
                            R"("rope":{"layout":"half"},"window":2,"scale":"none")"}) {
    CAPTURE(extra);
    const scene::ParseResult parsed = scene::parse_scene(mla_text(extra));
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    const scene::Scene& s = *parsed.scene;
    const scene::MlaKeys& k = s.variants->mla;
    attn::Options o;
    o.causal = s.causal;
    o.window = s.window;
    o.scale = s.scale;
    const attn::MlaResult want =
        attn::attend_mla(s.X, {s.Wq, k.W_dkv, k.W_uk, k.W_uv, k.W_kr}, 2, s.rope_on ? &s.rope : nullptr, o);
    const attn::HeadsResult got = scene::compute_heads(s);
    REQUIRE(got.heads.size() == 2);
    REQUIRE(got.variant != nullptr);
    REQUIRE(got.variant->mla != nullptr);
    CHECK(got.variant->mla->cache_numbers_per_token == 4);  // d_c + d_rope, against 2·(4 + 2) = 12
    CHECK(got.variant->mla->c_kv == want.c_kv);
    for (std::size_t t = 0; t < 2; ++t) {
      const attn::Result& head = got.heads[t];
      CHECK(head.divisor == (s.scale.mode == attn::ScaleMode::None ? 1.0 : 2.0));  // √(d_nope + d_rope)
      CHECK((head.scores - want.scores[t]).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((head.weights - want.weights[t]).cwiseAbs().maxCoeff() < 1e-12);
      CHECK((head.weights - want.absorbed_weights[t]).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(head.K.cols() == 4);
      CHECK(head.V.cols() == 2);
    }
    CHECK((got.concat - want.output).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((got.output - want.absorbed_output).cwiseAbs().maxCoeff() < 1e-12);
    // The CLI's JSON carries the latent-attention stages.
    const std::string json = scene::result_to_json(got);
    for (const char* key : {"\"c_kv\"", "\"k_rope\"", "\"absorbed_weights\"", "\"absorbed_output\"",
                            "\"cache_per_token\":4", "\"cache_per_token_mha\":12"})
      CHECK_MESSAGE(json.find(key) != std::string::npos, key);
  }
}

TEST_CASE("mla scene key: bad inputs name the key and the field") {
  const std::string dkv = R"("W_dkv":[[1,0],[0,1],[0.5,-0.5],[0.25,1]],)";
  const std::string uk = R"("W_uk":[[1,0,0.5,-1],[0,1,1,0.5]],)",
                    uv = R"("W_uv":[[0.5,1,-1,0],[1,-0.5,0,2]])";
  const std::string kr = R"(,"W_kr":[[1,0],[0,1],[1,1],[-1,0.5]])";
  const std::pair<std::string, std::string> bad[] = {
      {mla_text("", dkv + R"("W_uk":[[1,0,0.5,-1],[0,1,1,0.5],[1,1,1,1]],)" + uv + kr),
       "mla: W_uk has 3 rows, W_dkv gives d_c = 2"},
      {mla_text("", R"("W_dkv":[[1,0],[0,1],[0.5,-0.5]],)" + uk + uv + kr),
       "mla: W_dkv has 3 rows, X gives d_model = 4"},
      {mla_text("", dkv + uk + uv), "mla: Wq has 8 columns, expected h·(d_nope + d_rope) = 2·(2 + 0) = 4"},
      {mla_text("", dkv + R"("W_uk":[[1,0,0.5],[0,1,1]],)" + uv + kr),
       "mla: W_uk has 3 columns, not a multiple of heads = 2"},
      {mla_text("", dkv + uk + uv + R"(,"W_kr":[[1,0,1],[0,1,1],[1,1,1],[-1,0.5,1]])"),
       "mla: Wq has 8 columns, expected h·(d_nope + d_rope) = 2·(2 + 3) = 10"},
      {mla_text("", R"("W_dkv":[[1e16,0],[0,1],[0.5,-0.5],[0.25,1]],)" + uk + uv + kr),
       "mla: W_dkv: row 0, entry 0 must be a finite number of magnitude at most 1e15"},
      {mla_text("", dkv + uk + R"("W_kr":[[1,0],[0,1],[1,1],[-1,0.5]])"), "mla: W_uv missing"},
      {mla_text("", dkv + uk + uv + kr + R"(,"W_x":[[1]])"), "mla: unknown key \"W_x\""},
      {mla_text(R"("Wk":[[1]])"),
       "mla: a latent-attention scene takes its keys and values from W_dkv, W_uk, W_uv"},
      {mla_text(R"("softcap":2)"), "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass"},
      {mla_text(R"("kv_heads":1)"), "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass"},
      {mla_text(R"("alibi":true)"), "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass"},
      {mla_text(R"("linear":"elu1")"), "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass"},
      {R"({"version":2,"tokens":["a"],"Q":[[1,0]],"K":[[1,0]],"V":[[1]],"mla":{"W_dkv":[[1]],"W_uk":[[1]],"W_uv":[[1]]}})",
       "mla: needs a learned scene (X, Wq)"},
      {R"({"version":2,"tokens":["a"],"X":[[1]],"Wq":[[1,1,1]],"rope":{},"mla":{"W_dkv":[[1]],"W_uk":[[1]],"W_uv":[[1]],"W_kr":[[1,1]]}})",
       ""},
      {R"({"version":2,"tokens":["a"],"X":[[1]],"Wq":[[1,1,1,1]],"rope":{},"mla":{"W_dkv":[[1]],"W_uk":[[1]],"W_uv":[[1]],"W_kr":[[1,1,1]]}})",
       "mla: W_kr has 3 columns; with \"rope\" d_rope must be even to form pairs"},
      {R"({"version":2,"tokens":["a"],"X":[[1]],"Wq":[[1]],"rope":{},"mla":{"W_dkv":[[1]],"W_uk":[[1]],"W_uv":[[1]]}})",
       "mla: with \"rope\", RoPE turns the decoupled parts q_R and k_R"},
  };
  for (const auto& [text, want] : bad) {
    CAPTURE(text);
    const scene::ParseResult r = scene::parse_scene(text);
    if (want.empty()) {  // an odd head size (d_nope 1 + d_rope 2) is fine: RoPE turns only d_rope
      CHECK_MESSAGE(r.ok(), r.error);
      continue;
    }
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.rfind(want, 0) == 0);
  }
  // The softcap's message names the key it refuses.
  CHECK(scene::parse_scene(mla_text(R"("softcap":2)")).error.find("combine with \"softcap\"") !=
        std::string::npos);
  // A scene built in code must carry the derived Wk and Wv.
  scene::Scene s = *scene::parse_scene(mla_text()).scene;
  CHECK(scene::validate(s).empty());
  s.Wv(0, 0) += 1.0;
  CHECK(scene::validate(s).rfind("mla: a latent-attention scene takes its keys and values", 0) == 0);
  scene::fill_mla_kv(&s);
  CHECK(scene::validate(s).empty());
}
