// The GPT language model's core (core/model.hpp's GPT block, core/lm_train.hpp, core/sampling.hpp)
// and its compact file (scene/lm_file.hpp). References: the KV-cache decoder against forward()'s
// last row, bit for bit; exact_tanh, GELU and cos_pi against the C library and finite differences;
// the trainer's first 20 steps against a hash recorded natively (this suite also runs as wasm under
// node, so both builds must give the same bits), thread-count and checkpoint independence; the file's
// round trip against quantized(); sampling against its definition. Every stage and gradient against
// PyTorch float64 autograd: tests/lm_crosscheck.py.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/head_roles.hpp"
#include "core/lm_train.hpp"
#include "core/model.hpp"
#include "core/sampling.hpp"
#include "core/tokenizer.hpp"
#include "fnv_hash.hpp"
#include "scene/lm_file.hpp"
#include "scene/model_json.hpp"

using attn::Matrix;
namespace model = attn::model;

namespace {

model::LmConfig tiny_config() {
  model::LmConfig c;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 16;
  c.d_mlp = 32;
  c.n_ctx = 16;
  c.vocab = 300;
  c.batch = 4;
  c.steps = 40;
  c.warmup = 5;
  c.lr = 1e-2;
  c.seed = 7;
  return c;
}

// English text for the tokenizer and the trainer (a few sentences, repeated with variations).
std::string sample_text() {
  std::string text;
  const char* lines[] = {"The quick brown fox jumps over the lazy dog. ",
                         "A journey of a thousand miles begins with one step. ",
                         "To be, or not to be, that is the question. ",
                         "All that glitters is not gold; all who wander are not lost. "};
  for (int k = 0; k < 24; ++k) text += lines[k % 4] + std::to_string(k) + "\n";
  return text;
}

std::vector<int> sample_tokens(const attn::bpe::Tokenizer& t) {
  return attn::bpe::encode(t, sample_text());
}

// A GPT model with larger weights than the init's, so that every path matters.
model::Model random_gpt(std::uint64_t seed) {
  model::LmConfig c = tiny_config();
  c.seed = seed;
  c.vocab = 40;
  model::Model m = model::init_gpt(c);
  attn::train::Rng rng{seed};
  for (Matrix* w : model::weights_of(m))
    for (Eigen::Index k = 0; k < w->size(); ++k) w->data()[k] += (2.0 * rng.uniform() - 1.0) * 0.4;
  return m;
}

}  // namespace

TEST_CASE("the KV-cache decoder gives forward()'s last row bit for bit, with and without ablation") {
  const model::Model m = random_gpt(3);
  std::vector<int> tokens;
  attn::train::Rng rng{11};
  for (int i = 0; i < m.n_ctx(); ++i) tokens.push_back(rng.below(m.n_vocab()));
  for (bool ablate : {false, true}) {
    model::Ablation a;
    if (ablate) a.off = {{false, true}, {true, false}};
    model::Decoder decoder(m, a);
    for (int n = 1; n <= m.n_ctx(); ++n) {
      const Matrix row = decoder.step(tokens[static_cast<std::size_t>(n - 1)]);
      const model::Forward f = model::forward(m, std::vector<int>(tokens.begin(), tokens.begin() + n), a);
      bool same = true;
      for (int c = 0; c < m.n_vocab(); ++c) same = same && row(0, c) == f.logits(n - 1, c);
      CHECK_MESSAGE(same, "n = " << n << ", ablated = " << ablate);
    }
  }
}

namespace {

// Same shape and the same bits in every element (memcmp: 0.0 and −0.0 differ, as a NaN matches itself).
bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0);
}

// Every stage of two passes, bit for bit; the first stage that differs in *what.
bool same_stages(const model::Forward& f, const model::Forward& g, std::string* what) {
  auto check = [&](const Matrix& a, const Matrix& b, const std::string& name) {
    if (!same_bits(a, b) && what->empty()) *what = name;
  };
  what->clear();
  if (f.tokens != g.tokens || f.layers.size() != g.layers.size()) *what = "tokens or layers";
  for (std::size_t l = 0; l < f.layers.size() && what->empty(); ++l) {
    const model::LayerStages &a = f.layers[l], &b = g.layers[l];
    const std::string ln = "layer " + std::to_string(l) + " ";
    check(a.resid_pre, b.resid_pre, ln + "resid_pre");
    check(a.ln1, b.ln1, ln + "ln1");
    check(a.ln1_kept.xhat, b.ln1_kept.xhat, ln + "ln1 xhat");
    check(a.ln1_kept.rstd, b.ln1_kept.rstd, ln + "ln1 rstd");
    for (std::size_t h = 0; h < a.heads.size(); ++h) {
      const model::HeadStages &x = a.heads[h], &y = b.heads[h];
      const std::string hn = ln + "head " + std::to_string(h) + " ";
      check(x.q, y.q, hn + "q");
      check(x.k, y.k, hn + "k");
      check(x.v, y.v, hn + "v");
      check(x.scores, y.scores, hn + "scores");
      check(x.weights, y.weights, hn + "weights");
      check(x.z, y.z, hn + "z");
      check(x.out, y.out, hn + "out");
      if (x.ablated != y.ablated || x.mean_ablated != y.mean_ablated) *what = hn + "ablation flags";
    }
    check(a.attn_out, b.attn_out, ln + "attn_out");
    check(a.resid_mid, b.resid_mid, ln + "resid_mid");
    check(a.ln2, b.ln2, ln + "ln2");
    check(a.ln2_kept.xhat, b.ln2_kept.xhat, ln + "ln2 xhat");
    check(a.ln2_kept.rstd, b.ln2_kept.rstd, ln + "ln2 rstd");
    check(a.mlp_pre, b.mlp_pre, ln + "mlp_pre");
    check(a.mlp_post, b.mlp_post, ln + "mlp_post");
    check(a.mlp_out, b.mlp_out, ln + "mlp_out");
    check(a.resid_post, b.resid_post, ln + "resid_post");
  }
  check(f.resid_final, g.resid_final, "resid_final");
  check(f.ln_final, g.ln_final, "ln_final");
  check(f.ln_final_kept.xhat, g.ln_final_kept.xhat, "ln_final xhat");
  check(f.ln_final_kept.rstd, g.ln_final_kept.rstd, "ln_final rstd");
  check(f.logits, g.logits, "logits");
  return what->empty();
}

}  // namespace

TEST_CASE("forward_reusing: edits at every kind of position give forward()'s every stage bit for bit") {
  // Reference: forward() from scratch on the edited text. A chain of edits (replace, insert, delete,
  // append, cut at the end, a new first token), each pass reusing the one before, so that reused rows
  // that were themselves reused are checked too; a GPT block and the attention-only model; with and
  // without a zero-ablated head.
  model::Dims dims;
  dims.vocab = 20;
  dims.n_ctx = 24;
  dims.d_model = 12;
  dims.layers = 2;
  dims.heads = 3;
  const model::Model models[] = {random_gpt(5), model::init_model(dims, 9)};
  for (const model::Model& m : models) {
    for (bool ablate : {false, true}) {
      model::Ablation a;
      if (ablate) a.off = {{false, true}, {false, false}};
      attn::train::Rng rng{17};
      std::vector<int> tokens;
      for (int i = 0; i < 10; ++i) tokens.push_back(rng.below(m.n_vocab()));
      model::Forward prev = model::forward(m, tokens, a);
      for (int edit = 0; edit < 60; ++edit) {
        const int n = static_cast<int>(tokens.size());
        const int kind = edit % 6;
        const int at = rng.below(n);
        const int token = rng.below(m.n_vocab());
        if (kind == 0) tokens[std::size_t(at)] = token;                             // replace
        if (kind == 1 && n < m.n_ctx()) tokens.insert(tokens.begin() + at, token);  // insert
        if (kind == 2 && n > 1) tokens.erase(tokens.begin() + at);                  // delete
        if (kind == 3 && n < m.n_ctx()) tokens.push_back(token);                    // append
        if (kind == 4 && n > 2) tokens.resize(std::size_t(n - 1 - rng.below(2)));   // cut the end
        if (kind == 5) tokens[0] = (tokens[0] + 1) % m.n_vocab();                   // nothing kept
        const model::Forward f = model::forward(m, tokens, a);
        const model::Forward g = model::forward_reusing(m, prev, tokens, a);
        std::string what;
        CHECK_MESSAGE(same_stages(f, g, &what), "edit " << edit << " (kind " << kind << ", gpt " << m.is_gpt()
                                                        << ", ablated " << ablate << "): " << what
                                                        << " differs");
        prev = g;
      }
    }
  }
  // The first rows really are kept: a pass reusing a doctored previous pass shows the doctored rows,
  // and the rows from the first changed position on are computed afresh.
  const model::Model& m = models[0];
  const std::vector<int> tokens = {1, 2, 3, 4, 5, 6};
  model::Forward doctored = model::forward(m, tokens);
  doctored.logits(0, 0) = 12345.0;
  doctored.logits(5, 0) = 12345.0;
  const model::Forward g = model::forward_reusing(m, doctored, {1, 2, 3, 4, 5, 7});
  CHECK(g.logits(0, 0) == 12345.0);
  CHECK(g.logits(5, 0) != 12345.0);
  CHECK(model::common_prefix({1, 2, 3}, {1, 2, 4, 5}) == 2);
  // A mean ablation, or a previous pass with another ablation, falls back to the whole forward().
  model::Ablation mean;
  mean.mean = {{true, false}, {false, false}};
  std::string what;
  CHECK(
      same_stages(model::forward(m, tokens, mean), model::forward_reusing(m, doctored, tokens, mean), &what));
  model::Ablation off;
  off.off = {{false, false}, {true, false}};
  CHECK(same_stages(model::forward(m, tokens, off), model::forward_reusing(m, doctored, tokens, off), &what));
}

TEST_CASE("the logit lens from a position gives those rows of the whole lens bit for bit") {
  const model::Model m = random_gpt(8);
  const model::Forward f = model::forward(m, {4, 8, 15, 16, 23, 2, 7});
  const std::vector<Matrix> all = model::logit_lens(m, f), last = model::logit_lens(m, f, 4);
  REQUIRE(last.size() == all.size());
  for (std::size_t l = 0; l < all.size(); ++l) CHECK(same_bits(last[l], all[l].bottomRows(3)));
  CHECK(model::logit_lens(m, f, 99).front().rows() == 0);
}

TEST_CASE("exact_tanh, GELU (tanh form) and cos_pi against the C library and finite differences") {
  double worst = 0.0;
  for (double x = -30.0; x <= 30.0; x += 0.0137) {
    const double ref = std::tanh(x);
    worst = std::max(worst, std::fabs(model::exact_tanh(x) - ref) / std::max(std::fabs(ref), 1e-300));
  }
  CHECK(worst < 4e-15);
  CHECK(model::exact_tanh(1e-9) == 1e-9);
  CHECK(model::exact_tanh(0.0) == 0.0);
  for (double x : {-6.0, -2.5, -1.0, -0.3, 0.0, 0.2, 0.7, 1.5, 3.0, 8.0}) {
    const double ref = 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    CHECK(model::gelu_tanh(x) == doctest::Approx(ref).epsilon(1e-14));
    const double h = 1e-6, fd = (model::gelu_tanh(x + h) - model::gelu_tanh(x - h)) / (2 * h);
    CHECK(model::gelu_tanh_grad(x) == doctest::Approx(fd).epsilon(1e-8));
  }
  for (int k = 0; k <= 1000; ++k) {
    const double p = k / 1000.0;
    CHECK(std::fabs(model::cos_pi(p) - std::cos(3.141592653589793 * p)) < 4e-16);
  }
}

TEST_CASE("the learning rate warms up linearly, then follows the cosine to lr · min_lr_ratio") {
  model::LmConfig c = tiny_config();
  c.steps = 110;
  c.warmup = 10;
  c.lr = 1e-3;
  CHECK(model::lm_learning_rate(c, 1) == doctest::Approx(1e-4));
  CHECK(model::lm_learning_rate(c, 10) == doctest::Approx(1e-3));
  CHECK(model::lm_learning_rate(c, 60) == doctest::Approx(1e-4 + 0.5 * 9e-4));
  CHECK(model::lm_learning_rate(c, 110) == doctest::Approx(1e-4));
}

TEST_CASE("check_lm_config names the field") {
  model::LmConfig c = tiny_config();
  CHECK(model::check_lm_config(c).empty());
  c.d_mlp = 65;
  CHECK(model::check_lm_config(c).rfind("d_mlp:", 0) == 0);
  c = tiny_config();
  c.heads = 3;
  CHECK(model::check_lm_config(c).rfind("d_model:", 0) == 0);
  c = tiny_config();
  c.vocab = 2000;
  CHECK(model::check_lm_config(c).rfind("vocab:", 0) == 0);
  c = tiny_config();
  c.warmup = 40;
  CHECK(model::check_lm_config(c).rfind("warmup:", 0) == 0);
}

TEST_CASE(
    "the trainer's first 20 steps: the same bits natively and in wasm, for any thread count, resumed or "
    "not") {
  const attn::bpe::Tokenizer t = attn::bpe::learn(sample_text(), 300);
  const std::vector<int> tokens = sample_tokens(t);
  model::LmTrainer trainer(tiny_config(), tokens);
  double first = 0.0, last = 0.0;
  for (int s = 0; s < 20; ++s) {
    last = trainer.step();
    if (s == 0) first = last;
  }
  CHECK(last < first);  // it learns
  const std::uint64_t hash = fnv_model(trainer.model(), 0);
  std::printf("lm trainer: 20 steps, loss %.6f -> %.6f, weights hash %016llx\n", first, last,
              static_cast<unsigned long long>(hash));
  CHECK(hash == 0x292641afd5230ecbull);  // recorded natively (x86-64, -O3); wasm must give the same
#if !defined(__EMSCRIPTEN__)
  model::LmConfig threaded = tiny_config();
  threaded.threads = 3;
  model::LmTrainer parallel(threaded, tokens);
  for (int s = 0; s < 20; ++s) parallel.step();
  CHECK(fnv_model(parallel.model(), 0) == hash);
#endif
  // 10 steps, a checkpoint through the file format, 10 more: the same run.
  model::LmTrainer a(tiny_config(), tokens);
  for (int s = 0; s < 10; ++s) a.step();
  const std::string bytes = scene::write_checkpoint(a, "{\"run\":1}");
  model::LmTrainer b(tiny_config(), tokens);
  model::LmTrainer::State state = b.state();
  std::string error;
  REQUIRE(scene::read_checkpoint(bytes, "{\"run\":1}", &state, &error));
  b.restore(state);
  for (int s = 0; s < 10; ++s) b.step();
  CHECK(fnv_model(b.model(), 0) == hash);
  CHECK_FALSE(scene::read_checkpoint(bytes, "{\"run\":2}", &state, &error));
  CHECK(error.find("other settings") != std::string::npos);
  CHECK_FALSE(scene::read_checkpoint(bytes.substr(0, bytes.size() - 3), "{\"run\":1}", &state, &error));
  CHECK(error.find("truncated") != std::string::npos);
}

TEST_CASE("the compact file reads back quantized() bit for bit, and refuses a damaged file") {
  const attn::bpe::Tokenizer t = attn::bpe::learn(sample_text(), 300);
  model::LmConfig c = tiny_config();
  model::Model m = model::init_gpt(c);
  const std::string bytes = scene::write_lm_file(m, t, "{\"steps\":0}");
  const scene::LmFileParse r = scene::read_lm_file(bytes);
  REQUIRE_MESSAGE(r.ok(), r.error);
  const model::Model q = scene::quantized(m);
  CHECK(fnv_model(r.file->model, 0) == fnv_model(q, 0));
  CHECK(r.file->training == "{\"steps\":0}");
  REQUIRE(r.file->tokenizer);
  CHECK(r.file->tokenizer->vocab_size() == 300);
  CHECK(r.file->model.vocab[static_cast<std::size_t>('a')] == "a");
  // Rounding: each int8 row within half a step of its scale, vectors as float32.
  const Matrix& w = m.layers[0].heads[0].W_Q;
  const Matrix& wq = q.layers[0].heads[0].W_Q;
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    const double scale = w.row(i).cwiseAbs().maxCoeff() / 127.0;
    CHECK((w.row(i) - wq.row(i)).cwiseAbs().maxCoeff() <= 0.5 * scale * (1 + 1e-6));
  }
  // Writing the rounded model again changes nothing.
  CHECK(scene::write_lm_file(q, t, "{\"steps\":0}") == bytes);
  // Damage.
  CHECK(scene::read_lm_file(bytes.substr(0, bytes.size() - 1)).error.find("truncated") != std::string::npos);
  CHECK(scene::read_lm_file(bytes + "x").error.find("extra bytes") != std::string::npos);
  CHECK(scene::read_lm_file("ALM1\xff\xff\xff\x0f").error.find("header") != std::string::npos);
  CHECK(scene::read_lm_file("{\"a\":1}").error.find("ALM1") != std::string::npos);
  std::string nan_scale = bytes;
  const std::size_t header =
      8 + (static_cast<unsigned char>(bytes[4]) | static_cast<unsigned char>(bytes[5]) << 8 |
           static_cast<unsigned char>(bytes[6]) << 16);
  nan_scale[header + 3] = '\x7f', nan_scale[header + 2] = '\xc0';  // W_E's first scale → NaN
  CHECK(scene::read_lm_file(nan_scale).error.find("W_E") != std::string::npos);
  // The same model through the JSON contract, tokenizer included, reads back bit for bit.
  const std::string json = scene::model_to_json(q, -1, t, "{\"steps\":0}");
  const scene::ModelParse p = scene::parse_model(json);
  REQUIRE_MESSAGE(p.ok(), p.error);
  CHECK(fnv_model(*p.model, 0) == fnv_model(q, 0));
  CHECK(p.tokenizer);
  CHECK(p.training == "{\"steps\":0}");
}

TEST_CASE(
    "sampling: temperature 0 and top-k 1 are the argmax, top-p keeps the fewest tokens, a seed repeats") {
  const double logits[5] = {0.5, 2.0, 1.0, 2.0, -1.0};
  model::SampleSettings greedy;
  greedy.temperature = 0;
  auto g = model::sampling_distribution(logits, 5, greedy);
  REQUIRE(g.size() == 1);
  CHECK(g[0].token == 1);  // the first of the two maxima
  model::SampleSettings k1;
  k1.top_k = 1;
  CHECK(model::sampling_distribution(logits, 5, k1)[0].token == 1);
  model::SampleSettings all;
  auto d = model::sampling_distribution(logits, 5, all);
  double sum = 0.0;
  for (const auto& c : d) sum += c.p;
  CHECK(sum == doctest::Approx(1.0));
  CHECK(d[0].token == 1);
  CHECK(d[1].token == 3);  // ties keep the lower id first
  const std::vector<double> p = model::softmax_row(logits, 5);
  model::SampleSettings nucleus;
  nucleus.top_p = p[1] + p[3] - 1e-9;  // the two maxima reach it
  CHECK(model::sampling_distribution(logits, 5, nucleus).size() == 2);
  model::SampleSettings hot;
  hot.temperature = 2.0;
  auto h = model::sampling_distribution(logits, 5, hot);
  const std::vector<double> ph = model::softmax_row(std::vector<double>{0.25, 1.0, 0.5, 1.0, -0.5}.data(), 5);
  CHECK(h[0].p == doctest::Approx(ph[1]));
  const model::Model m = random_gpt(5);
  model::SampleSettings s;
  s.temperature = 0.8;
  s.top_k = 20;
  s.top_p = 0.95;
  const model::Generated a = model::generate(m, {1, 2, 3}, 8, s, 42),
                         b = model::generate(m, {1, 2, 3}, 8, s, 42);
  CHECK(a.tokens == b.tokens);
  CHECK(a.p == b.p);
  // Each drawn token had the probability the full forward pass gives it.
  std::vector<int> all_tokens = {1, 2, 3};
  for (std::size_t k = 0; k < a.tokens.size(); ++k) {
    const model::Forward f = model::forward(m, all_tokens);
    const std::vector<double> pm =
        model::softmax_row(f.logits.data() + (f.logits.rows() - 1) * m.n_vocab(), m.n_vocab());
    CHECK(a.p_model[k] == pm[static_cast<std::size_t>(a.tokens[k])]);
    all_tokens.push_back(a.tokens[k]);
  }
}

TEST_CASE("the GPT block's gradients against central finite differences (every kind of weight)") {
  const model::Model m = random_gpt(9);
  std::vector<int> tokens;
  attn::train::Rng rng{4};
  for (int i = 0; i < 9; ++i) tokens.push_back(rng.below(m.n_vocab()));
  model::Ablation a;
  a.off = {{false, false}, {false, true}};
  const auto loss_of = [&](const model::Model& w) {
    return model::next_token_loss(model::forward(w, tokens, a).logits, tokens).value;
  };
  const model::Forward f = model::forward(m, tokens, a);
  model::Model grads = model::zeros_like(m);
  model::backward(m, f, model::next_token_loss(f.logits, tokens).d_logits, grads);
  const auto named = model::named_weights(m);
  const std::vector<Matrix*> g = model::weights_of(grads);
  double worst = 0.0;
  std::string worst_name;
  for (std::size_t p = 0; p < named.size(); ++p) {
    const Matrix& w = *named[p].second;
    for (int pick = 0; pick < 3; ++pick) {
      const Eigen::Index k = rng.below(static_cast<int>(w.size()));
      model::Model plus = m, minus = m;
      const double h = 1e-5;
      model::weights_of(plus)[p]->data()[k] += h;
      model::weights_of(minus)[p]->data()[k] -= h;
      const double fd = (loss_of(plus) - loss_of(minus)) / (2 * h);
      // Relative, or absolute below 1e-3 (b_K's gradient is 0 exactly: a shift of every key moves a
      // row's scores together, which softmax ignores; its difference quotient is rounding noise).
      const double err = std::fabs(fd - g[p]->data()[k]) / std::max(std::fabs(fd), 1e-3);
      if (err > worst) worst = err, worst_name = named[p].first;
    }
  }
  INFO("worst relative error " << worst << " at " << worst_name);
  CHECK(worst < 1e-5);
  // The ablated head gets no gradient.
  CHECK(grads.layers[1].heads[1].W_Q.cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("head roles on a text: previous-token, induction and broad patterns written out") {
  model::Forward f;
  f.tokens = {1, 2, 3, 1, 2};
  const int n = 5;
  f.layers.resize(1);
  f.layers[0].heads.resize(3);
  Matrix prev = Matrix::Zero(n, n), induction = Matrix::Zero(n, n), uniform = Matrix::Zero(n, n);
  prev(0, 0) = induction(0, 0) = 1;
  for (int i = 1; i < n; ++i) prev(i, i - 1) = 1;
  // Induction: from each repeated token to the one after its earlier copy (3 → 1, 4 → 2); else self.
  induction(1, 1) = induction(2, 2) = 1;
  induction(3, 1) = induction(4, 2) = 1;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) uniform(i, j) = 1.0 / (i + 1);
  f.layers[0].heads[0].weights = prev;
  f.layers[0].heads[1].weights = induction;
  f.layers[0].heads[2].weights = uniform;
  const std::vector<model::HeadRole> r = model::head_roles(f);
  REQUIRE(r.size() == 3);
  CHECK(r[0].role == "previous-token");
  CHECK(r[0].previous_token == 1.0);
  CHECK(r[0].first_token == 0.25);  // row 1's previous token is token 0
  CHECK(r[0].prefix_matching == 0.0);
  CHECK(r[0].entropy == 0.0);
  CHECK(r[1].role == "induction");
  CHECK(r[1].prefix_matching == 1.0);
  CHECK(r[1].self == 0.5);
  CHECK(r[2].role == "broad");
  const double mean_log = (std::log2(2.0) + std::log2(3.0) + std::log2(4.0) + std::log2(5.0)) / 4;
  CHECK(r[2].entropy == doctest::Approx(mean_log).epsilon(1e-12));
  CHECK(r[2].first_token == doctest::Approx((0.5 + 1.0 / 3 + 0.25 + 0.2) / 4).epsilon(1e-12));
}

TEST_CASE("an override of a head's q with its own q changes no bit; another q changes the logits") {
  const model::Model m = random_gpt(12);
  const std::vector<int> tokens = {3, 1, 4, 1, 5, 9, 2, 6};
  const model::Forward f = model::forward(m, tokens);
  model::HeadOverride same{1, 0, 'q', f.layers[1].heads[0].q};
  CHECK(fnv(model::forward(m, tokens, {}, {same}).logits.data(), f.logits.size(), 0) ==
        fnv(f.logits.data(), f.logits.size(), 0));
  model::HeadOverride other{0, 1, 'v', f.layers[0].heads[1].v * 2.0};
  const model::Forward g = model::forward(m, tokens, {}, {other});
  CHECK(g.layers[0].heads[1].v == other.values);
  CHECK((g.logits - f.logits).cwiseAbs().maxCoeff() > 1e-6);
  // The logit lens's last layer is the model's own logits.
  CHECK(model::logit_lens(m, f).back() == f.logits);
}

TEST_CASE("a mask override: all ones changes no bit; a hidden cell is renormalised away; a hidden row is 0") {
  const model::Model m = random_gpt(12);
  const std::vector<int> tokens = {3, 1, 4, 1, 5, 9, 2, 6};
  const Eigen::Index n = static_cast<Eigen::Index>(tokens.size());
  const model::Forward f = model::forward(m, tokens);
  const model::HeadOverride ones{1, 0, 'm', Matrix::Ones(n, n)};
  CHECK(model::forward(m, tokens, {}, {ones}).logits == f.logits);
  // Hide key 2 from query 5 and every key from query 6 in layer 1 head 0.
  model::HeadOverride mask{1, 0, 'm', Matrix::Ones(n, n)};
  mask.values(5, 2) = 0.0;
  mask.values.row(6).setZero();
  const model::Forward g = model::forward(m, tokens, {}, {mask});
  const model::HeadStages& own = f.layers[1].heads[0];
  const model::HeadStages& hid = g.layers[1].heads[0];
  CHECK(hid.weights(5, 2) == 0.0);
  // Softmax without a cell = the others' weights divided by 1 − the hidden one's (the same exponentials).
  for (Eigen::Index j = 0; j <= 5; ++j)
    if (j != 2)
      CHECK(hid.weights(5, j) ==
            doctest::Approx(own.weights(5, j) / (1.0 - own.weights(5, 2))).epsilon(1e-13));
  CHECK(hid.weights.row(6).isZero(0.0));
  CHECK(hid.z.row(6).isZero(0.0));
  CHECK(hid.weights.row(4) == own.weights.row(4));  // other rows untouched
  CHECK((g.logits - f.logits).cwiseAbs().maxCoeff() > 1e-9);
}

TEST_CASE("mean ablation: every row of the head's output is the column mean of z W_O over the text") {
  const model::Model m = random_gpt(21);
  const std::vector<int> tokens = {5, 3, 8, 3, 5, 7, 1};
  const model::Forward f = model::forward(m, tokens);
  model::Ablation a;
  a.mean = {{false, false}, {false, true}};
  const model::Forward g = model::forward(m, tokens, a);
  const Matrix& full = f.layers[1].heads[1].out;  // z W_O of the unablated pass (layer 0 is the same)
  const Matrix& out = g.layers[1].heads[1].out;
  for (Eigen::Index c = 0; c < full.cols(); ++c) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < full.rows(); ++i) sum += full(i, c);
    for (Eigen::Index i = 0; i < out.rows(); ++i) CHECK(out(i, c) == sum / double(full.rows()));
  }
  CHECK(g.layers[1].heads[1].mean_ablated);
  CHECK(!g.layers[1].heads[1].ablated);
  CHECK(g.layers[0].heads[0].out == f.layers[0].heads[0].out);
  CHECK((g.logits - f.logits).cwiseAbs().maxCoeff() > 1e-6);
  // Zero ablation wins over mean on the same head; is_mean says so.
  a.off = {{false, false}, {false, true}};
  CHECK(!a.is_mean(1, 1));
  CHECK(model::forward(m, tokens, a).layers[1].heads[1].out.isZero(0.0));
}

TEST_CASE("the Generator draws generate()'s tokens one by one; with a mean-ablated head, forward()'s") {
  const model::Model m = random_gpt(5);
  const std::vector<int> prompt = {2, 7, 1};
  model::SampleSettings s;
  s.temperature = 0.9;
  s.top_k = 12;
  s.top_p = 0.95;
  const model::Generated g = model::generate(m, prompt, 10, s, 42);
  model::Generator step(m, prompt, s, 42);
  for (std::size_t k = 0; k < g.tokens.size(); ++k) {
    double p = 0, p_model = 0;
    CHECK(step.next(&p, &p_model) == g.tokens[k]);
    CHECK(p == g.p[k]);
    CHECK(p_model == g.p_model[k]);
  }
  CHECK(step.length() == 13);
  // Mean ablation: each draw reads the last row of forward() on every token so far (a KV cache cannot
  // hold a mean over tokens still to come). Rebuild the first draw by hand.
  model::Ablation a;
  a.mean = {{true, false}, {false, false}};
  model::Generator mean(m, prompt, s, 42, a);
  const model::Forward f = model::forward(m, prompt, a);
  attn::train::Rng rng{42 ^ 0xA54FF53A5F1D36F1ull};
  rng.next();
  const int first =
      model::draw(model::sampling_distribution(f.logits.data() + 2 * m.n_vocab(), m.n_vocab(), s), rng);
  CHECK(mean.next() == first);
  // The same seed gives the same text.
  const model::Generated again = model::generate(m, prompt, 10, s, 42);
  CHECK(again.tokens == g.tokens);
}
