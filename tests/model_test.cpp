// The attention-only transformer (core/model*.hpp, scene/model_json.hpp). References: each layer's
// heads against the core's own multi-head pass (attend_heads_projected, a separate implementation);
// every gradient against central finite differences (PyTorch autograd in tests/model_crosscheck.py);
// the head scores of uniform causal attention against 1/(i+1) written out; K-composition against
// Eigen's own products and two hand-made cases; a fixed run's bits against a hash recorded natively
// (this suite also runs as wasm under node, so both builds must give the same bits).
#include "core/model.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/heads.hpp"
#include "core/model_scores.hpp"
#include "core/model_train.hpp"
#include "fnv_hash.hpp"
#include "scene/model_json.hpp"

using attn::Matrix;
namespace model = attn::model;

namespace {

model::Model small_model(int layers, int heads, int d_model, int vocab, int n_ctx, std::uint64_t seed) {
  model::Dims d;
  d.layers = layers;
  d.heads = heads;
  d.d_model = d_model;
  d.vocab = vocab;
  d.n_ctx = n_ctx;
  REQUIRE(model::check_dims(d).empty());
  model::Model m = model::init_model(d, seed);
  // Larger weights than the init's, so that attention is far from uniform and every path matters.
  for (Matrix* w : model::weights_of(m)) *w *= 2.5;
  return m;
}

// Concatenate the heads' matrices of one layer: W_Q = [W_Q^0 | W_Q^1 | …], W_O stacked by rows.
Matrix concat_cols(const std::vector<model::Head>& heads, Matrix model::Head::*part) {
  Matrix out((heads.front().*part).rows(), 0);
  for (const model::Head& h : heads) {
    Matrix next(out.rows(), out.cols() + (h.*part).cols());
    next << out, h.*part;
    out = next;
  }
  return out;
}

}  // namespace

TEST_CASE("model: each layer is the core's causal multi-head pass on the residual stream") {
  const model::Model m = small_model(3, 2, 8, 6, 10, 4);
  const std::vector<int> tokens = {0, 3, 5, 1, 3, 5, 2, 0, 4};
  const model::Forward f = model::forward(m, tokens);
  REQUIRE(f.layers.size() == 3);
  for (std::size_t l = 0; l < 3; ++l) {
    const std::vector<model::Head>& heads = m.layers[l].heads;
    Matrix Wo(0, 8);
    for (const model::Head& h : heads) {
      Matrix next(Wo.rows() + h.W_O.rows(), 8);
      next << Wo, h.W_O;
      Wo = next;
    }
    attn::Options options;
    options.causal = true;
    const attn::HeadsResult core = attn::attend_heads_projected(
        f.layers[l].resid_pre, concat_cols(heads, &model::Head::W_Q), concat_cols(heads, &model::Head::W_K),
        concat_cols(heads, &model::Head::W_V), 2, Wo, options);
    for (std::size_t h = 0; h < 2; ++h) {
      CHECK((f.layers[l].heads[h].weights - core.heads[h].weights).cwiseAbs().maxCoeff() < 1e-13);
      CHECK((f.layers[l].heads[h].z - core.heads[h].output).cwiseAbs().maxCoeff() < 1e-12);
    }
    // x^{l+1} − x^l = Σ_h z_h W_O^h = concat · W_O
    const Matrix next = l + 1 < 3 ? f.layers[l + 1].resid_pre : f.resid_final;
    CHECK((next - f.layers[l].resid_pre - core.output).cwiseAbs().maxCoeff() < 1e-11);
  }
  // Embedding and unembedding.
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (int c = 0; c < 8; ++c)
      CHECK(f.layers[0].resid_pre(i, c) == m.W_E(tokens[i], c) + m.W_pos(static_cast<Eigen::Index>(i), c));
  CHECK((f.logits - f.resid_final * m.W_U).cwiseAbs().maxCoeff() < 1e-12);
  // Causal: exactly 0 above the diagonal, rows sum to 1.
  for (const model::LayerStages& layer : f.layers)
    for (const model::HeadStages& h : layer.heads)
      for (Eigen::Index i = 0; i < h.weights.rows(); ++i) {
        for (Eigen::Index j = i + 1; j < h.weights.cols(); ++j) CHECK(h.weights(i, j) == 0.0);
        CHECK(h.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-14));
      }
}

TEST_CASE("model: the loss is the mean next-token cross-entropy") {
  const model::Model m = small_model(1, 1, 4, 5, 8, 2);
  const std::vector<int> tokens = {1, 4, 0, 2};
  const model::Forward f = model::forward(m, tokens);
  const model::TokenLoss loss = model::next_token_loss(f.logits, tokens);
  REQUIRE(loss.per_token.size() == 3);
  double total = 0.0;
  for (int i = 0; i < 3; ++i) {
    double sum = 0.0;
    for (int c = 0; c < 5; ++c) sum += std::exp(f.logits(i, c));
    const double nll = std::log(sum) - f.logits(i, tokens[static_cast<std::size_t>(i) + 1]);
    CHECK(loss.per_token[static_cast<std::size_t>(i)] == doctest::Approx(nll).epsilon(1e-13));
    total += nll;
  }
  CHECK(loss.value == doctest::Approx(total / 3).epsilon(1e-13));
  for (int c = 0; c < 5; ++c) CHECK(loss.d_logits(3, c) == 0.0);  // the last token predicts nothing
  CHECK(model::next_token_loss(f.logits.topRows(1), {1}).value == 0.0);
}

TEST_CASE("model: backward equals central finite differences for every weight (L = 2, H = 2, and ablated)") {
  const model::Model m = small_model(2, 2, 4, 5, 7, 11);
  const std::vector<int> tokens = {0, 2, 4, 1, 2, 4, 3};
  for (int ablate = 0; ablate < 2; ++ablate) {
    model::Ablation a;
    a.off = {{false, false}, {ablate == 1, false}};
    const model::Forward f = model::forward(m, tokens, a);
    const model::TokenLoss loss = model::next_token_loss(f.logits, tokens);
    model::Model grads = model::zeros_like(m);
    model::backward(m, f, loss.d_logits, grads);
    model::Model probe = m;
    const std::vector<Matrix*> w = model::weights_of(probe);
    const std::vector<Matrix*> g = model::weights_of(grads);
    double worst = 0.0;
    int checked = 0;
    for (std::size_t p = 0; p < w.size(); ++p)
      for (Eigen::Index k = 0; k < w[p]->size(); ++k) {
        const double keep = w[p]->data()[k], h = 1e-5;
        w[p]->data()[k] = keep + h;
        const double up = model::next_token_loss(model::forward(probe, tokens, a).logits, tokens).value;
        w[p]->data()[k] = keep - h;
        const double down = model::next_token_loss(model::forward(probe, tokens, a).logits, tokens).value;
        w[p]->data()[k] = keep;
        const double numeric = (up - down) / (2 * h), ours = g[p]->data()[k];
        worst = std::max(worst, std::abs(ours - numeric) / (std::abs(numeric) + 1e-6));
        ++checked;
      }
    MESSAGE(checked, " weights, worst relative difference to finite differences ", worst);
    CHECK(checked == 5 * 4 + 7 * 4 + 2 * 2 * (3 * 4 * 2 + 2 * 4) + 4 * 5);
    CHECK(worst < 1e-6);
    if (ablate) {  // the ablated head's weights get exactly nothing
      CHECK(grads.layers[1].heads[0].W_Q.cwiseAbs().maxCoeff() == 0.0);
      CHECK(grads.layers[1].heads[0].W_O.cwiseAbs().maxCoeff() == 0.0);
      CHECK(f.layers[1].heads[0].out.cwiseAbs().maxCoeff() == 0.0);
    }
  }
}

TEST_CASE("model: ablating every head leaves the direct path W_E + W_pos → W_U") {
  const model::Model m = small_model(2, 2, 4, 5, 7, 3);
  const std::vector<int> tokens = {4, 3, 2, 1};
  model::Ablation all;
  all.off = {{true, true}, {true, true}};
  const model::Forward f = model::forward(m, tokens, all);
  Matrix x0(4, 4);
  for (int i = 0; i < 4; ++i) x0.row(i) = m.W_E.row(tokens[static_cast<std::size_t>(i)]) + m.W_pos.row(i);
  CHECK((f.logits - x0 * m.W_U).cwiseAbs().maxCoeff() < 1e-13);
  // The attention weights are still computed (the grid shows them), only the outputs are zero.
  CHECK(f.layers[1].heads[1].weights(3, 0) > 0.0);
}

TEST_CASE("scores: uniform attention gives previous-token and prefix-matching 1/(i+1) averaged") {
  // W_Q = 0 makes every score 0, so A[i][j] = 1/(i+1) for j ≤ i in every head.
  model::Model m = small_model(2, 2, 4, 6, 12, 5);
  for (model::Layer& layer : m.layers)
    for (model::Head& h : layer.heads) h.W_Q.setZero();
  attn::train::Rng rng{8};
  const int k = 5;
  std::vector<std::vector<int>> seqs;
  for (int s = 0; s < 3; ++s) seqs.push_back(model::repeated_sequence(rng, 6, k));
  const model::Scores s = model::measure(m, seqs);
  double prev = 0.0, prefix = 0.0;
  for (int i = 1; i < 2 * k; ++i) prev += 1.0 / (i + 1);
  for (int i = k; i < 2 * k; ++i) prefix += 1.0 / (i + 1);
  prev /= 2 * k - 1;
  prefix /= k;
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h) {
      CHECK(s.previous_token[l][h] == doctest::Approx(prev).epsilon(1e-14));
      CHECK(s.prefix_matching[l][h] == doctest::Approx(prefix).epsilon(1e-14));
    }
  // The copies' losses: positions 0 … k−2 and k … 2k−2 of each sequence, and their difference.
  double first = 0.0, second = 0.0;
  for (const std::vector<int>& t : seqs) {
    const std::vector<double> nll = model::next_token_loss(model::forward(m, t).logits, t).per_token;
    for (int i = 0; i <= k - 2; ++i) first += nll[static_cast<std::size_t>(i)];
    for (int i = k; i <= 2 * k - 2; ++i) second += nll[static_cast<std::size_t>(i)];
  }
  CHECK(s.first_copy_loss == doctest::Approx(first / (3 * (k - 1))).epsilon(1e-13));
  CHECK(s.second_copy_loss == doctest::Approx(second / (3 * (k - 1))).epsilon(1e-13));
  CHECK(s.in_context == doctest::Approx(s.second_copy_loss - s.first_copy_loss).epsilon(1e-13));
}

TEST_CASE("K-composition: Eigen's products, and an orthogonal and an aligned pair") {
  const model::Model m = small_model(2, 2, 6, 5, 8, 9);
  const Matrix kc = model::k_composition(m);
  REQUIRE(kc.rows() == 2);
  REQUIRE(kc.cols() == 2);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const model::Head& A = m.layers[0].heads[static_cast<std::size_t>(a)];
      const model::Head& B = m.layers[1].heads[static_cast<std::size_t>(b)];
      const Matrix W_QK = B.W_Q * B.W_K.transpose(), W_OV = A.W_V * A.W_O;
      const double expected = (W_QK * W_OV.transpose()).norm() / (W_QK.norm() * W_OV.norm());
      CHECK(kc(a, b) == doctest::Approx(expected).epsilon(1e-13));
      CHECK(kc(a, b) > 0.0);
      CHECK(kc(a, b) <= 1.0);
    }
  // D = 2, one head per layer: head 0 writes along e₂ (W_OV = e₂ e₂ᵀ); head 1's keys read e₁ (W_K = e₁)
  // → no K-composition; reading e₂ → full composition (1).
  model::Model t = small_model(2, 1, 2, 3, 4, 1);
  t.layers[0].heads[0].W_V << 0, 0, 0, 1;
  t.layers[0].heads[0].W_O << 0, 0, 0, 1;
  t.layers[1].heads[0].W_Q << 1, 0, 0, 0;
  t.layers[1].heads[0].W_K << 1, 0, 0, 0;
  CHECK(model::k_composition(t)(0, 0) == 0.0);
  t.layers[1].heads[0].W_K << 0, 0, 1, 0;  // W_QK = e₁ e₂ᵀ: keys read e₂
  CHECK(model::k_composition(t)(0, 0) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(model::k_composition(small_model(1, 2, 4, 5, 8, 1)).size() == 0);
}

TEST_CASE("tasks: induction sequences are k tokens twice (k = 8 … 16), mixed ones hold a copied span") {
  attn::train::Rng rng{21};
  std::vector<int> lengths(33, 0);
  for (int s = 0; s < 200; ++s) {
    const std::vector<int> t = model::task_sequence(model::Task::Induction, rng, 28, 32);
    const std::size_t k = t.size() / 2;
    REQUIRE(t.size() % 2 == 0);
    CHECK((k >= 8 && k <= 16));
    ++lengths[t.size()];
    for (std::size_t j = 0; j < k; ++j) CHECK(t[j] == t[k + j]);
    for (int x : t) CHECK((x >= 0 && x < 28));
    const std::vector<int> mixed = model::task_sequence(model::Task::Mixed, rng, 28, 32);
    REQUIRE(mixed.size() == 32);
    bool repeat = false;  // a span of ≥ 3 tokens occurs twice without overlapping
    for (int a = 0; a + 3 <= 32 && !repeat; ++a)
      for (int b = a + 3; b + 3 <= 32 && !repeat; ++b)
        repeat = mixed[static_cast<std::size_t>(a)] == mixed[static_cast<std::size_t>(b)] &&
                 mixed[static_cast<std::size_t>(a) + 1] == mixed[static_cast<std::size_t>(b) + 1] &&
                 mixed[static_cast<std::size_t>(a) + 2] == mixed[static_cast<std::size_t>(b) + 2];
    CHECK(repeat);
  }
  for (int k = 8; k <= 16; ++k) CHECK(lengths[2 * k] > 0);  // every k drawn
}

TEST_CASE("training is deterministic: a recorded hash of a fixed run, natively and in wasm") {
  model::TrainConfig c;  // the defaults: 2 × 2, d_model 32, n_ctx 32, batch 16, AdamW lr 0.01
  c.seed = 1;
  model::ModelTrainer a(c), b(c);
  for (int k = 0; k < 20; ++k) CHECK(a.step() == b.step());
  std::uint64_t h = 1469598103934665603ull;
  for (const model::StepRecord& r : a.history()) {
    h = fnv(&r.loss, 1, h);
    h = fnv(&r.scores.in_context, 1, h);
    for (const std::vector<double>& layer : r.scores.prefix_matching)
      h = fnv(layer.data(), static_cast<Eigen::Index>(layer.size()), h);
    h = fnv(r.composition.data(), r.composition.size(), h);
  }
  h = fnv_model(a.model(), h);
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  MESSAGE("20 steps, seed 1: hash ", text, ", loss[19] = ", a.history().back().loss);
  // Recorded natively (x86-64, glibc, gcc 12): the wasm build (musl, clang) must give the same bits.
  CHECK(std::string(text) == "9cfbe8d0b71a0540");
  c.seed = 2;
  model::ModelTrainer other(c);
  other.step();
  CHECK(other.history().back().loss != a.history().front().loss);
  // Adam (no decay) differs from AdamW after one step, and is as repeatable.
  c.seed = 1;
  c.optimizer = model::Optimizer::Adam;
  model::ModelTrainer adam1(c), adam2(c);
  adam1.step();
  adam2.step();
  CHECK(fnv_model(adam1.model(), 0) == fnv_model(adam2.model(), 0));
  model::ModelTrainer adamw(model::TrainConfig{});
  adamw.step();
  CHECK(fnv_model(adam1.model(), 0) != fnv_model(adamw.model(), 0));
}

TEST_CASE("AdamW: the first step is the decay, then lr · g / (|g| + ε) (PyTorch's AdamW order)") {
  model::TrainConfig c;
  c.dims.layers = 1;
  c.dims.heads = 1;
  c.dims.d_model = 4;
  c.dims.vocab = 5;
  c.dims.n_ctx = 8;
  c.batch = 2;
  c.lr = 0.05;
  c.weight_decay = 0.1;
  model::ModelTrainer t(c);
  const model::Model before = t.model();
  t.step();
  // After one step m̂ = g and v̂ = g² (up to rounding), so w₁ = w₀ (1 − lr λ) − lr g / (|g| + 1e-8).
  const std::vector<const Matrix*> w0 = model::weights_of(before), w1 = model::weights_of(t.model()),
                                   g = model::weights_of(t.gradient());
  double worst = 0.0;
  int moved = 0;
  for (std::size_t p = 0; p < w0.size(); ++p)
    for (Eigen::Index k = 0; k < w0[p]->size(); ++k) {
      const double gk = g[p]->data()[k];
      const double expected = w0[p]->data()[k] * (1 - 0.05 * 0.1) - 0.05 * gk / (std::abs(gk) + 1e-8);
      worst = std::max(worst, std::abs(w1[p]->data()[k] - expected));
      moved += gk != 0.0;
    }
  CHECK(worst < 1e-15);
  CHECK(moved > 100);
}

TEST_CASE("model JSON: round trip bit for bit, and errors that name the field") {
  const model::Model m = small_model(2, 2, 4, 5, 6, 13);
  const std::string text = scene::model_to_json(m, 2);
  const scene::ModelParse back = scene::parse_model(text);
  REQUIRE(back.ok());
  CHECK(fnv_model(*back.model, 0) == fnv_model(m, 0));
  CHECK(back.model->vocab == m.vocab);
  CHECK(scene::model_to_json(*back.model, -1) == scene::model_to_json(m, -1));
  const auto error_of = [&](const std::string& from, const std::string& to) {
    std::string t = scene::model_to_json(m, -1);
    const std::size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
    return scene::parse_model(t).error;
  };
  CHECK(error_of("\"n_ctx\":6", "\"n_ctx\":7").find("W_pos: has 6 rows, expected n_ctx×d_model = 7×4") == 0);
  CHECK(error_of("\"n_ctx\":6", "\"n_ctx\":100000").find("n_ctx: must be a whole number from 4 to 128") == 0);
  CHECK(error_of("\"d_model\":4", "\"d_model\":3").find("W_E: row 0 has 4 entries") == 0);
  CHECK(error_of("\"vocab\":[\"a\",\"b\"", "\"vocab\":[\"a\",\"a\"")
            .find("vocab: symbol 1 (\"a\") appears twice") == 0);
  CHECK(error_of("\"W_Q\":[[", "\"W_Q\":[[\"x\",").find("layers[0].heads[0].W_Q: row 0 has 3 entries") == 0);
  CHECK(error_of("\"W_U\":[[", "\"W_U\":[[1e5,").find("W_U: row 0 has 6 entries") == 0);
  CHECK(error_of("\"W_U\":[[", "\"W_U\":[[1e5],[").find("W_U: has 5 rows") == 0);
  CHECK(error_of("\"d_model\":4", "\"d_model\":4,\"b_Q\":1").find("b_Q: unknown key") == 0);
  // Two unknown keys: the first in byte order is named (as ever), not the first typed.
  CHECK(error_of("\"d_model\":4", "\"d_model\":4,\"zz\":1,\"b_Q\":1").find("b_Q: unknown key") == 0);
  CHECK(scene::parse_model("[1]").error.find("input: expected a JSON object") == 0);
  CHECK(scene::parse_model("{\"vocab\":").error.find("json: parse error") == 0);
  std::string big = scene::model_to_json(m, -1);
  const std::size_t first = big.find("\"W_E\":[[") + 8;
  big.replace(first, big.find(',', first) - first, "20000");
  CHECK(scene::parse_model(big).error == "W_E: row 0, entry 0 has magnitude above the limit of 1e4");
}

TEST_CASE("tokenize: longest symbol first; an unknown character named with its byte") {
  model::Model m = small_model(1, 1, 4, 28, 8, 1);
  std::string error;
  CHECK(model::tokenize(m, "ab c.", &error) == std::vector<int>{0, 1, 26, 2, 27});
  CHECK(error.empty());
  CHECK(model::tokenize(m, "abC", &error).empty());
  CHECK(error.find("text: \"C\" at byte 2 is not in the vocabulary (a b c") == 0);
  m.vocab[1] = "bc";  // multi-byte symbols: the longest match wins
  m.vocab[2] = "b";
  CHECK(model::tokenize(m, "abcb", &error) == std::vector<int>{0, 1, 2});
  std::string bad;
  CHECK(model::tokenize(m, "a\xC3\xA9", &bad).empty());
  CHECK(bad.find("text: \"\xC3\xA9\" at byte 1") == 0);
}

TEST_CASE("ablation specs: L.H within the model, else the field named") {
  const model::Model m = small_model(2, 2, 4, 5, 6, 13);
  std::string error;
  const model::Ablation a = scene::parse_ablation({"1.0", "0.1"}, m, &error);
  CHECK(error.empty());
  CHECK(a.is_off(1, 0));
  CHECK(a.is_off(0, 1));
  CHECK(!a.is_off(0, 0));
  scene::parse_ablation({"2.0"}, m, &error);
  CHECK(error.find("ablate: 2.0 names no head (the model has layers 0 to 1, heads 0 to 1)") == 0);
  scene::parse_ablation({"1"}, m, &error);
  CHECK(error.find("ablate: \"1\" is not LAYER.HEAD") == 0);
  scene::parse_ablation({"-1.0"}, m, &error);
  CHECK(error.find("ablate: \"-1.0\" is not LAYER.HEAD") == 0);
}

TEST_CASE("check_dims and check_train_config name the field") {
  model::Dims d;
  CHECK(model::check_dims(d).empty());
  d.layers = 4;
  CHECK(model::check_dims(d).find("layers:") == 0);
  d.layers = 2;
  d.heads = 3;
  CHECK(model::check_dims(d).find("d_model: must be a multiple of heads") == 0);
  d.heads = 5;
  CHECK(model::check_dims(d).find("heads: must be 1 to 4") == 0);
  model::TrainConfig c;
  c.lr = 0.0;
  CHECK(model::check_train_config(c).find("lr:") == 0);
  c.lr = std::nan("");
  CHECK(model::check_train_config(c).find("lr:") == 0);
  c.lr = 0.01;
  c.batch = 0;
  CHECK(model::check_train_config(c).find("batch:") == 0);
}

TEST_CASE("predictions: the argmax and its softmax probability; p_next = exp(−loss of that position)") {
  const model::Model m = small_model(2, 2, 6, 7, 9, 17);
  const std::vector<int> tokens = {3, 1, 4, 1, 5, 2, 6};
  const model::Forward f = model::forward(m, tokens);
  const std::vector<model::Prediction> pred = model::predictions(f);
  const model::TokenLoss loss = model::next_token_loss(f.logits, tokens);
  REQUIRE(pred.size() == tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    Eigen::Index best = 0;
    f.logits.row(static_cast<Eigen::Index>(i)).maxCoeff(&best);
    const double sum = f.logits.row(static_cast<Eigen::Index>(i)).array().exp().sum();
    CHECK(pred[i].token == tokens[i]);
    CHECK(pred[i].predicted == best);
    CHECK(pred[i].p ==
          doctest::Approx(std::exp(f.logits(static_cast<Eigen::Index>(i), best)) / sum).epsilon(1e-13));
    if (i + 1 < tokens.size())
      CHECK(pred[i].p_next == doctest::Approx(std::exp(-loss.per_token[i])).epsilon(1e-13));
  }
  CHECK(pred.back().p_next == 0.0);
  CHECK(std::string(model::head_role(1, 0.1, 0.7)) == "induction");
  CHECK(std::string(model::head_role(0, 0.6, 0.7)) == "previous token");
  CHECK(std::string(model::head_role(0, 0.2, 0.7)).empty());
  CHECK(std::string(model::head_role(2, 0.9, 0.2)) == "previous token");
}

TEST_CASE("head_scene: a head on a text is an ordinary scene whose stages are the head's") {
  const model::Model m = small_model(2, 2, 6, 28, 12, 19);
  std::string error;
  const std::vector<int> tokens = model::tokenize(m, "ab c.ab c", &error);
  REQUIRE(error.empty());
  const model::Forward f = model::forward(m, tokens);
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h) {
      const scene::Scene s = scene::head_scene(m, f, l, h);
      CHECK(scene::validate(s).empty());
      const scene::ParseResult back = scene::parse_scene(scene::scene_to_json(s));
      REQUIRE(back.ok());
      const attn::HeadsResult r = scene::compute_heads(*back.scene);
      const model::HeadStages& st = f.layers[static_cast<std::size_t>(l)].heads[static_cast<std::size_t>(h)];
      CHECK((r.heads[0].weights - st.weights).cwiseAbs().maxCoeff() < 1e-14);
      CHECK((r.heads[0].Q - st.q).cwiseAbs().maxCoeff() < 1e-13);
      CHECK((r.output - st.out).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(back.scene->tokens[2] == " ");
    }
}

TEST_CASE("recipe: the text round-trips and rebuilds the same weights bit for bit; errors name the field") {
  scene::Recipe r;
  r.config.seed = 12345678901234567ull;
  r.config.lr = 0.007;
  r.config.dims.heads = 4;
  r.steps = 3;
  const std::string text = scene::recipe_text(r);
  CHECK(text == "induction,2,4,32,12345678901234567,0.007,3");
  const scene::RecipeParse back = scene::parse_recipe(text);
  REQUIRE(back.ok());
  CHECK(scene::recipe_text(*back.recipe) == text);
  CHECK(back.recipe->config.lr == 0.007);
  model::ModelTrainer a(r.config), b(back.recipe->config);
  for (int k = 0; k < r.steps; ++k) {
    a.step();
    b.step();
  }
  CHECK(fnv_model(a.model(), 0) == fnv_model(b.model(), 0));
  CHECK(scene::parse_recipe("mixed,3,1,8,0,0.1,0").ok());
  CHECK(scene::parse_recipe("induction,2,2,32,1,0.01").error.find("recipe: expected TASK,") == 0);
  CHECK(scene::parse_recipe("copy,2,2,32,1,0.01,5").error ==
        "recipe: task: unknown task \"copy\" (induction, mixed)");
  CHECK(scene::parse_recipe("induction,2,3,32,1,0.01,5")
            .error.find("recipe: d_model: must be a multiple of heads") == 0);
  CHECK(scene::parse_recipe("induction,9,2,32,1,0.01,5").error.find("recipe: layers: must be 1 to 3") == 0);
  CHECK(scene::parse_recipe("induction,2,2,32,-1,0.01,5").error.find("recipe: seed:") == 0);
  CHECK(scene::parse_recipe("induction,2,2,32,1,nan,5").error.find("recipe: lr:") == 0);
  CHECK(scene::parse_recipe("induction,2,2,32,1,0.01x,5").error.find("recipe: lr:") == 0);
  CHECK(scene::parse_recipe("induction,2,2,32,1,0.01,10001")
            .error.find("recipe: steps: must be a whole number from 0 to 10000") == 0);
}
