// The Model mode's numbers (ui/modes/model/model_logic.hpp) on a small GPT written to the compact file
// and read back, as the page reads web/models/fortunes.alm: the evaluation against --lm-eval's
// definitions (top 10: a stable sort of softmax(last logits row); the lens: the argmax after each
// layer), the opened head as a scene whose pattern is the model's (scene::compute_heads, within 1e-12),
// the prediction with the scene's numbers (unedited: the model's bit for bit; edited: what forward()
// gives with that HeadOverride), the text's cut at n_ctx, and the link's lm= value round trip.
// The CLI itself is compared with the page bit for bit in tests/e2e/model.test.mjs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/lm_train.hpp"
#include "core/sampling.hpp"
#include "core/tokenizer.hpp"
#include "scene/link.hpp"
#include "scene/lm_file.hpp"
#include "ui/modes/model/model_logic.hpp"

namespace model = attn::model;
namespace logic = ui::model_logic;

namespace {

// A 2-layer, 2-head GPT with a tokenizer learned on a few English lines, through the compact file.
scene::LmFile small_model() {
  std::string text;
  for (int k = 0; k < 20; ++k) text += "The cat sat on the mat. A dog ran to the park and the cat ran too.\n";
  const attn::bpe::Tokenizer t = attn::bpe::learn(text, 300);
  model::LmConfig c;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 16;
  c.d_mlp = 32;
  c.n_ctx = 24;
  c.vocab = t.vocab_size();
  c.seed = 5;
  model::Model m = model::init_gpt(c);
  attn::train::Rng rng{9};
  for (attn::Matrix* w : model::weights_of(m))  // larger weights than the init's: every path matters
    for (Eigen::Index k = 0; k < w->size(); ++k) w->data()[k] += (2.0 * rng.uniform() - 1.0) * 0.5;
  scene::LmFileParse parsed = scene::read_lm_file(scene::write_lm_file(m, t, ""));
  REQUIRE(parsed.ok());
  return *parsed.file;
}

}  // namespace

TEST_CASE("typing: an evaluation reusing the previous one equals a fresh evaluation bit for bit") {
  // Reference: evaluate() from scratch. Each step types one more character (the tokens change at the
  // end, sometimes a merge rewrites the last token), then an edit in the middle; the previous
  // evaluation is the one before, as the page keeps it.
  const scene::LmFile f = small_model();
  const std::string typed = "The cat ran to the park.";
  const model::Ablation none;
  ui::ModelEval prev;
  for (std::size_t len = 1; len <= typed.size() + 1; ++len) {
    const std::string text = len <= typed.size() ? typed.substr(0, len) : "The dog ran to the park.";
    const std::vector<int> tokens = logic::encode_text(f, text, nullptr);
    const ui::ModelEval fresh = logic::evaluate(f, tokens, none);
    const ui::ModelEval reused = logic::evaluate(f, tokens, none, {}, &prev);
    CHECK(reused.forward.logits == fresh.forward.logits);
    CHECK(reused.forward.layers[1].heads[1].weights == fresh.forward.layers[1].heads[1].weights);
    CHECK(reused.per_token_loss == fresh.per_token_loss);
    REQUIRE(reused.top.size() == fresh.top.size());
    for (std::size_t r = 0; r < fresh.top.size(); ++r) CHECK(reused.top[r].p == fresh.top[r].p);
    REQUIRE(reused.lens.size() == fresh.lens.size());
    for (std::size_t l = 0; l < fresh.lens.size(); ++l) {
      REQUIRE(reused.lens[l].size() == fresh.lens[l].size());
      for (std::size_t i = 0; i < fresh.lens[l].size(); ++i) CHECK(reused.lens[l][i].p == fresh.lens[l][i].p);
    }
    prev = reused;
  }
}

TEST_CASE("the Model mode's evaluation: tokens, cut, top 10, losses and the lens as --lm-eval defines them") {
  const scene::LmFile f = small_model();
  int total = 0;
  const std::vector<int> tokens = logic::encode_text(f, "The cat ran to the mat.", &total);
  CHECK(tokens == attn::bpe::encode(*f.tokenizer, "The cat ran to the mat."));
  CHECK(total == int(tokens.size()));
  const model::Ablation none;
  const ui::ModelEval e = logic::evaluate(f, tokens, none);
  const model::Forward fw = model::forward(f.model, tokens);
  CHECK(e.forward.logits == fw.logits);
  const model::TokenLoss loss = model::next_token_loss(fw.logits, tokens);
  CHECK(e.loss == loss.value);
  CHECK(e.per_token_loss == loss.per_token);
  // The top 10: the most probable first, each p the softmax of the last row, no other token above.
  const int V = f.model.n_vocab(), n = int(tokens.size());
  const std::vector<double> p = model::softmax_row(fw.logits.data() + (n - 1) * V, V);
  REQUIRE(e.top.size() == 10);
  for (std::size_t r = 0; r < e.top.size(); ++r) {
    CHECK(e.top[r].p == p[std::size_t(e.top[r].token)]);
    CHECK(e.top[r].piece == f.model.vocab[std::size_t(e.top[r].token)]);
    if (r > 0) CHECK(e.top[r].p <= e.top[r - 1].p);
  }
  CHECK(*std::max_element(p.begin(), p.end()) == e.top[0].p);
  int above = 0;  // tokens outside the list more probable than its last
  for (int v = 0; v < V; ++v)
    above += p[std::size_t(v)] > e.top.back().p &&
             std::none_of(e.top.begin(), e.top.end(), [&](const ui::ModelToken& t) { return t.token == v; });
  CHECK(above == 0);
  // The lens: the last positions of every layer, its last layer the model's own argmax; lens_of from 0
  // (getModel(true), --lm-eval --lens) holds every position, the same tokens at the last ones.
  REQUIRE(e.lens.size() == 2);
  CHECK(e.lens_from == std::max(0, n - logic::kLensPositions));
  CHECK(e.lens.back().back().token == e.top[0].token);
  const auto all = logic::lens_of(f, fw, 0);
  REQUIRE(all[0].size() == std::size_t(n));
  for (std::size_t l = 0; l < 2; ++l)
    for (std::size_t i = 0; i < e.lens[l].size(); ++i) {
      CHECK(all[l][std::size_t(e.lens_from) + i].token == e.lens[l][i].token);
      CHECK(all[l][std::size_t(e.lens_from) + i].p == e.lens[l][i].p);
    }
  CHECK(e.roles.size() == 4);
  // A text longer than n_ctx is cut to its first n_ctx tokens; the total says how many it had.
  std::string long_text;
  for (int k = 0; k < 10; ++k) long_text += "The cat sat on the mat. ";
  const std::vector<int> cut = logic::encode_text(f, long_text, &total);
  CHECK(int(cut.size()) == f.model.n_ctx());
  CHECK(total > f.model.n_ctx());
  CHECK(total == int(attn::bpe::encode(*f.tokenizer, long_text).size()));
  // Bytes the merges never saw go through the byte fallback (ids below 256).
  const std::vector<int> bytes = logic::encode_text(f, "\xC3\xA9\x01", &total);
  CHECK(bytes == std::vector<int>{0xC3, 0xA9, 0x01});
}

TEST_CASE("an opened head: its scene computes the model's pattern; dragging its numbers re-runs the model") {
  const scene::LmFile f = small_model();
  const std::vector<int> tokens = logic::encode_text(f, "A dog sat on the cat.\nThe end", nullptr);
  model::Ablation ablation;
  ablation.off = {{false, true}, {false, false}};
  const ui::ModelEval e = logic::evaluate(f, tokens, ablation);
  const scene::Scene s = logic::head_scene(e, 1, 0);
  CHECK(scene::validate(s).empty());
  CHECK(s.causal);
  CHECK(s.Q == e.forward.layers[1].heads[0].q);
  CHECK(std::find(s.tokens.begin(), s.tokens.end(), "\\n") != s.tokens.end());  // a newline, shown
  const attn::HeadsResult r = scene::compute_heads(s);
  const attn::Matrix& A = e.forward.layers[1].heads[0].weights;
  CHECK((r.heads[0].weights - A).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(logic::scene_fits_head(s, e, 1, 0));
  // Unedited: the model's own prediction, bit for bit.
  const std::vector<ui::ModelToken> same = logic::prediction_with_scene(f, e, ablation, s, 1, 0);
  REQUIRE(same.size() == e.top.size());
  for (std::size_t r2 = 0; r2 < same.size(); ++r2) {
    CHECK(same[r2].token == e.top[r2].token);
    CHECK(same[r2].p == e.top[r2].p);
  }
  // A key cell dragged: the model runs on from that head with it (forward with the override).
  scene::Scene edited = s;
  edited.K(0, 1) += 3.0;
  edited.Q(int(tokens.size()) - 1, 0) -= 2.0;
  const std::vector<ui::ModelToken> moved = logic::prediction_with_scene(f, e, ablation, edited, 1, 0);
  const model::Forward g = model::forward(
      f.model, tokens, ablation, {{1, 0, 'q', edited.Q}, {1, 0, 'k', edited.K}, {1, 0, 'v', edited.V}});
  const std::vector<ui::ModelToken> expected = logic::top_tokens(f, g.logits, int(tokens.size()) - 1, 10);
  REQUIRE(moved.size() == expected.size());
  CHECK(moved[0].p == expected[0].p);
  CHECK(moved[0].p != same[0].p);
  // A mask cell clicked (the last query no longer sees key 0): the model runs on with that head's
  // softmax over the keys left (forward with the 'm' override; lm_crosscheck checks it against PyTorch).
  scene::Scene masked = s;
  const int n = int(tokens.size());
  masked.mask = attn::MaskMatrix::Ones(n, n);
  masked.mask(n - 1, 0) = 0;
  CHECK(logic::scene_fits_head(masked, e, 1, 0));
  const std::vector<ui::ModelToken> hidden = logic::prediction_with_scene(f, e, ablation, masked, 1, 0);
  attn::Matrix allowed = attn::Matrix::Ones(n, n);
  allowed(n - 1, 0) = 0.0;
  const model::Forward gm =
      model::forward(f.model, tokens, ablation,
                     {{1, 0, 'q', s.Q}, {1, 0, 'k', s.K}, {1, 0, 'v', s.V}, {1, 0, 'm', allowed}});
  CHECK(gm.layers[1].heads[0].weights(n - 1, 0) == 0.0);
  // The scene's own pattern (Explore's core) is the head's with the mask, within 1e-12.
  CHECK(
      (scene::compute_heads(masked).heads[0].weights - gm.layers[1].heads[0].weights).cwiseAbs().maxCoeff() <=
      1e-12);
  const std::vector<ui::ModelToken> hidden_expected = logic::top_tokens(f, gm.logits, n - 1, 10);
  REQUIRE(hidden.size() == hidden_expected.size());
  for (std::size_t r2 = 0; r2 < hidden.size(); ++r2) CHECK(hidden[r2].p == hidden_expected[r2].p);
  CHECK(hidden[0].p != same[0].p);
  // A scene of another shape, or computed otherwise (not causal, another scale, ALiBi), is not the head
  // any more: no prediction.
  scene::Scene other = s;
  other.tokens.pop_back();
  CHECK(!logic::scene_fits_head(other, e, 1, 0));
  CHECK(logic::prediction_with_scene(f, e, ablation, other, 1, 0).empty());
  scene::Scene open_ended = s;
  open_ended.causal = false;
  CHECK(!logic::scene_fits_head(open_ended, e, 1, 0));
  scene::Scene unscaled = s;
  unscaled.scale.mode = attn::ScaleMode::None;
  CHECK(!logic::scene_fits_head(unscaled, e, 1, 0));
  scene::Scene alibi = s;
  alibi.alibi = true;
  CHECK(!logic::scene_fits_head(alibi, e, 1, 0));
}

// A build without the Model mode (the web's first load, and the wasm test suite built with it)
// refuses lm= by design: the link round trip is for builds with every mode.
#if AL_ALL_MODES
TEST_CASE("the Model mode's link: lm= round trips every field and names a bad one") {
  scene::link::ModelLink m;
  m.text = "Zoë said \"hi\"\n& left";
  m.temperature = 0.7000000000000001;
  m.top_k = 17;
  m.top_p = 0.9;
  m.seed = 18446744073709551615ull;
  m.generated = 12;
  m.ablate = {"0.1", "1.3:mean"};
  m.open_layer = 1;
  m.open_head = 2;
  m.edits = {{'q', 3, 0, -1.25}, {'v', 0, 23, 0.1 + 0.2}, {'m', 4, 1, 0.0}};  // round-trip exactly
  const scene::link::Fragment f = scene::link::parse_fragment(scene::link::make_model_fragment(m).fragment);
  REQUIRE(f.ok());
  REQUIRE(f.model);
  CHECK(*f.model == m);
  CHECK(f.mode == scene::link::Mode::Model);
  const auto bad = [](const std::string& json) {
    return scene::link::parse_model_link(scene::link::base64url_encode(json)).error;
  };
  CHECK(bad(R"({"top_p": 0})").rfind("lm: top_p:", 0) == 0);
  CHECK(bad(R"({"ablate": ["1.x"]})").rfind("lm: ablate:", 0) == 0);
  CHECK(bad(R"({"seed": 3})").rfind("lm: seed:", 0) == 0);
  CHECK(bad(R"({"colour": 3})").find("unknown key") != std::string::npos);
  CHECK(bad(R"({"open": "1.0", "edits": [["w", 0, 0, 1]]})").rfind("lm: edits: must be a list", 0) == 0);
  CHECK(bad(R"({"open": "1.0", "edits": [["q", -1, 0, 1]]})").rfind("lm: edits: must be a list", 0) == 0);
  CHECK(bad(R"({"open": "1.0", "edits": [["mask", 1, 0, 0.5]]})").rfind("lm: edits: must be a list", 0) == 0);
  CHECK(bad(R"({"open": "1.0", "edits": [["mask", 1, 0, 0]]})").empty());
  CHECK(bad(R"({"edits": [["q", 0, 0, 1]]})") == "lm: edits: belong to an opened head (\"open\": \"L.H\")");
  CHECK(!scene::link::parse_fragment("lm=" + scene::link::model_link_text(m) + "&mode=walk").ok());
}
#endif  // AL_ALL_MODES
