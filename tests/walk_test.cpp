// The walk-through's steps and live numbers (ui/walk_steps) and the quiz (ui/quiz), without the UI.
// Every number in an expected sentence is a lesson's (docs/LESSONS.md): the sentences of row 0 at
// the softmax, blend and output steps of examples 1 (practice-qkv) and 2 (soft-dictionary) are in
// tests/fixtures/lessons.json (walk_row0), shared with the browser and desktop tests; example 4
// causal-5: row 2 sees columns 0..2 only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "helpers.hpp"
#include "scene/scene.hpp"
#include "ui/modes/walk/quiz.hpp"
#include "ui/modes/walk/walk_steps.hpp"
#include "ui/text/grid_captions.hpp"

using ui::walk::Stage;

namespace {

std::string live(Stage stage, const scene::Scene& s, int row) {
  return ui::walk::live_numbers(stage, s, scene::compute(s), row);
}

// What the walk prints for row 0 of a lesson at `step` (tests/fixtures/lessons.json, walk_row0).
std::string lesson_walk(const char* example, const char* step) {
  return lesson(example).at("walk_row0").at(step).get<std::string>();
}

}  // namespace

TEST_CASE("walk: eight steps for a projected scene, seven (no X) for a direct one") {
  const std::vector<Stage> eight = ui::walk::stages_for(must_preset("practice-qkv"));
  CHECK(eight == std::vector<Stage>{Stage::Inputs, Stage::Projections, Stage::Scores, Stage::Scale,
                                    Stage::Mask, Stage::Softmax, Stage::Blend, Stage::Output});
  const std::vector<Stage> seven = ui::walk::stages_for(must_preset("causal-5"));
  REQUIRE(seven.size() == 7);
  CHECK(seven.front() == Stage::Projections);
  // Every step has a title and two or three sentences.
  for (const char* name : {"practice-qkv", "causal-5", "soft-dictionary", "learned-5x8"}) {
    const scene::Scene s = must_preset(name);
    for (Stage st : ui::walk::stages_for(s)) {
      const ui::walk::StepText t = ui::walk::step_text(st, s);
      CAPTURE(name);
      CAPTURE(t.title);
      CHECK(!t.title.empty());
      // A sentence ends in ". " or at the final ".".
      int sentences = t.body.back() == '.' ? 1 : 0;
      for (std::size_t at = t.body.find(". "); at != std::string::npos; at = t.body.find(". ", at + 1))
        ++sentences;
      CHECK(sentences >= 2);
      CHECK(sentences <= 3);
    }
  }
}

TEST_CASE("walk: practice-qkv row 0 'the', every step's numbers are lesson 1's") {
  const scene::Scene s = must_preset("practice-qkv");
  CHECK(live(Stage::Inputs, s, 0) == "Row 'the': x = [1, 0, 1, 0].");
  CHECK(live(Stage::Projections, s, 0) == "Row 'the': q = [1, 0], k = [0, 1], v = [1, 0, 1, 0].");
  CHECK(live(Stage::Scores, s, 0) == "Row 'the' scores each key: 'the' 0, 'cat' 1, 'sat' 1.");
  CHECK(live(Stage::Scale, s, 0) == "Row 'the': scores 0, 1, 1 → no scaling → 0, 1, 1.");
  CHECK(live(Stage::Mask, s, 0) == "Row 'the': nothing hidden → 0, 1, 1.");
  CHECK(live(Stage::Softmax, s, 0) == lesson_walk("practice-qkv", "softmax"));
  CHECK(live(Stage::Blend, s, 0) == lesson_walk("practice-qkv", "blend"));
  CHECK(live(Stage::Output, s, 0) == lesson_walk("practice-qkv", "output"));
  // Row 1 'cat': scores [1, 0, 0], A = [0.576117, 0.211942, 0.211942].
  CHECK(live(Stage::Softmax, s, 1) ==
        "Row 'cat': e^(score − 1) = 1, 0.37, 0.37; ÷ their sum 1.74 → weights 0.576, 0.212, 0.212 (sum 1).");
  CHECK(live(Stage::Output, s, 9).empty());  // no such row
  CHECK(live(Stage::Output, s, -1).empty());
}

TEST_CASE("walk: the scale step follows the scale mode") {
  scene::Scene s = must_preset("practice-qkv");
  s.scale.mode = attn::ScaleMode::SqrtDk;  // d_k = 2: ÷ 1.414, 1/√2 = 0.7071
  CHECK(live(Stage::Scale, s, 0) == "Row 'the': scores 0, 1, 1 → ÷ √2 = 1.414 → 0, 0.71, 0.71.");
  CHECK(ui::walk::stage_symbol(Stage::Scale, s) == "÷ √d_k");
  CHECK(ui::walk::step_text(Stage::Scale, s).title == "Scale: ÷ √d_k");
  s.scale = {attn::ScaleMode::Temperature, 0.5};
  CHECK(live(Stage::Scale, s, 2) == "Row 'sat': scores 1, 1, 1 → ÷ T = 0.5 → 2, 2, 2.");
  CHECK(ui::walk::stage_symbol(Stage::Scale, s) == "÷ T");
  s.scale.mode = attn::ScaleMode::None;
  CHECK(ui::walk::step_text(Stage::Scale, s).title == "Scale: none here");
}

TEST_CASE("walk: causal-5 row 2 'sat' (lesson 4) hides 'on' and 'mats'") {
  const scene::Scene s = must_preset("causal-5");
  // q_2 = [1, 1]; keys [1,0] [1,1] [0,1] [.5,.5] [1,−1] → scores 1, 2, 1, 1, 0; ÷ √2.
  CHECK(live(Stage::Scale, s, 2) ==
        "Row 'sat': scores 1, 2, 1, 1, 0 → ÷ √2 = 1.414 → 0.71, 1.41, 0.71, 0.71, 0.");
  CHECK(live(Stage::Mask, s, 2) == "Row 'sat': 'on' and 'mats' hidden → 0.71, 1.41, 0.71, −∞, −∞.");
  CHECK(live(Stage::Mask, s, 0) == "Row 'the': 'cat', 'sat', 'on' and 'mats' hidden → 0.71, −∞, −∞, −∞, −∞.");
  // The blend lists only the visible keys.
  const std::string blend = live(Stage::Blend, s, 1);
  CHECK(blend.rfind("Row 'cat': y = ", 0) == 0);
  CHECK(std::count(blend.begin(), blend.end(), '[') == 2);
  CHECK(ui::walk::step_text(Stage::Mask, s).title == "Mask: + M");
}

TEST_CASE("walk: soft dictionary (lesson 2) never reads as an exact lookup") {
  const scene::Scene s = must_preset("soft-dictionary");
  CHECK(live(Stage::Softmax, s, 0) == lesson_walk("soft-dictionary", "softmax"));
  CHECK(live(Stage::Blend, s, 0) == lesson_walk("soft-dictionary", "blend"));
  CHECK(live(Stage::Output, s, 0) == lesson_walk("soft-dictionary", "output"));
}

TEST_CASE("walk: a fully masked row, long rows and empty labels") {
  scene::Scene s = must_preset("causal-5");
  s.mask = attn::MaskMatrix::Ones(5, 5);
  s.mask.row(0).setZero();  // row 0 sees nothing (causal AND custom)
  CHECK(live(Stage::Mask, s, 0) ==
        "Row 'the': every key is hidden, so this row gets no weights and a zero output.");
  CHECK(live(Stage::Softmax, s, 0) ==
        "Row 'the' sees no key: softmax has nothing to share, every weight is 0.");
  CHECK(live(Stage::Blend, s, 0) == "Row 'the' has no weights, so its output is all zeros.");
  CHECK(live(Stage::Output, s, 0) == "Row 'the': y = [0, 0, 0] (no key was visible).");
  CHECK(ui::walk::step_text(Stage::Mask, s).body.find("custom mask") == std::string::npos);  // causal wins

  // 10 tokens: rows print 5 entries and "… (5 more)"; the blend 4 terms and "… (6 more)".
  scene::Scene big;
  big.mode = scene::Mode::Direct;
  for (int i = 0; i < 10; ++i) big.tokens.push_back(i == 3 ? "" : "t" + std::to_string(i));
  big.Q = attn::Matrix::Zero(10, 2);
  big.K = attn::Matrix::Zero(10, 2);
  big.V = attn::Matrix::Ones(10, 2);
  big.scale.mode = attn::ScaleMode::None;
  REQUIRE(scene::validate(big).empty());
  CHECK(live(Stage::Scale, big, 0) ==
        "Row 't0': scores 0, 0, 0, 0, 0, … (5 more) → no scaling → 0, 0, 0, 0, 0, … (5 more).");
  CHECK(live(Stage::Scores, big, 3) ==
        "Row 3 scores each key: 't0' 0, 't1' 0, 't2' 0, #3 0, 't4' 0, … (5 more).");
  CHECK(live(Stage::Blend, big, 0) ==
        "Row 't0': y = 0.1 × [1, 1] + 0.1 × [1, 1] + 0.1 × [1, 1] + 0.1 × [1, 1] + … (6 more).");
}

TEST_CASE("short_number: trailing zeros go, the minus sign is real") {
  CHECK(ui::walk::short_number(0.7071067811865475, 2) == "0.71");
  CHECK(ui::walk::short_number(1.0, 3) == "1");
  CHECK(ui::walk::short_number(-0.5, 2) == "−0.5");
  CHECK(ui::walk::short_number(-0.001, 2) == "0");
  CHECK(ui::walk::short_number(-INFINITY, 2) == "−∞");
  CHECK(ui::walk::short_number(12.0, 2) == "12");
}

TEST_CASE("quiz: every question is well formed and its 'show me' opens a real step") {
  const auto& qs = ui::quiz::questions();
  CHECK(qs.size() >= 6);
  std::set<int> answer_positions;
  for (const ui::quiz::Question& q : qs) {
    CAPTURE(q.prompt);
    CHECK(q.choices.size() >= 3);
    CHECK(q.choices.size() <= 4);
    CHECK(q.answer >= 0);
    CHECK(q.answer < int(q.choices.size()));
    answer_positions.insert(q.answer);
    CHECK(!q.explanation.empty());
    CHECK(std::set<std::string>(q.choices.begin(), q.choices.end()).size() == q.choices.size());
    const std::optional<scene::Scene> s = scene::preset(q.show_me.preset);
    REQUIRE(s.has_value());
    CHECK(q.show_me.row < s->n());
    const std::vector<Stage> stages = ui::walk::stages_for(*s);
    CHECK(std::find(stages.begin(), stages.end(), q.show_me.stage) != stages.end());
    CHECK(ui::quiz::feedback(q, q.answer) == "Right!");
    const int wrong = (q.answer + 1) % int(q.choices.size());
    CHECK(ui::quiz::feedback(q, wrong) ==
          "Not quite: the answer is \"" + q.choices[size_t(q.answer)] + "\".");
  }
  CHECK(answer_positions.size() >= 3);  // the right answer is not always in the same place
}

TEST_CASE("quiz: the numbers in the explanations are the scenes' own") {
  const auto& qs = ui::quiz::questions();
  const auto find = [&](const char* words) -> const ui::quiz::Question& {
    for (const ui::quiz::Question& q : qs)
      if (q.prompt.find(words) != std::string::npos) return q;
    FAIL("no question about " << words);
    return qs.front();
  };
  // Fill in Q @ K.T (lesson 1's check question).
  const ui::quiz::Question& fill = find("scores = Q @");
  CHECK(fill.choices[size_t(fill.answer)] == "K.T");
  // Rows sum to 1: practice-qkv row 0 is 0.155 + 0.422 + 0.422 (lesson 1, 3 places).
  const attn::Result p = scene::compute(must_preset("practice-qkv"));
  CHECK(std::abs(p.weights.row(0).sum() - 1.0) < 1e-12);
  const attn::Matrix row0 = lesson_matrix("practice-qkv", "weights_row0_3_places");
  for (int j = 0; j < 3; ++j) CHECK(std::round(p.weights(0, j) * 1000) == std::round(row0(0, j) * 1000));
  CHECK(find("add up to")
            .explanation.find(printed(row0(0, 0), 3) + " + " + printed(row0(0, 1), 3) + " + " +
                              printed(row0(0, 2), 3)) != std::string::npos);
  // Causal: causal-5 row 2 has exactly 0 at columns 3, 4 and its first three sum to 1.
  const ui::quiz::Question& causal = find("causal");
  CHECK(causal.show_me.preset == "causal-5");
  CHECK(causal.show_me.row == 2);
  CHECK(causal.choices[size_t(causal.answer)] == "Tokens 0, 1 and 2");
  const attn::Result c = scene::compute(must_preset("causal-5"));
  CHECK(c.weights(2, 3) == 0.0);
  CHECK(c.weights(2, 4) == 0.0);
  CHECK(std::abs(c.weights.row(2).head(3).sum() - 1.0) < 1e-12);
  // Soft dictionary: weights 0.999955 / 0.000045, output 1.000091, 2.000091 (lesson 2).
  const attn::Result d = scene::compute(must_preset("soft-dictionary"));
  check_close(d.weights, lesson_matrix("soft-dictionary", "weights"), lesson_tolerance());
  check_close(d.output, lesson_matrix("soft-dictionary", "output"), lesson_tolerance());
  const attn::Matrix y = lesson_matrix("soft-dictionary", "output");
  CHECK(find("[10, 0]").explanation.find("[" + printed(y(0, 0), 6) + ", " + printed(y(0, 1), 6) + "]") !=
        std::string::npos);
  // learned-5x8 divides by √8 ≈ 2.83.
  CHECK(std::abs(scene::compute(must_preset("learned-5x8")).divisor - 2.83) < 0.005);
  CHECK(find("√d_k").explanation.find("√8 ≈ 2.83") != std::string::npos);
}

// ---- grid captions: every title, hint and legend label is true of the grid under it ------------

TEST_CASE("grid captions: true for each scale mode and mask (table-driven)") {
  using ui::captions::Grid;
  struct ScaleCase {
    attn::Scale scale;
    const char* symbol;   // what the scaled title must contain ("" = no divisor at all)
    const char* divisor;  // the divisor's value as the hint prints it
  };
  const ScaleCase scales[] = {
      {{attn::ScaleMode::None, 1.0}, "", "÷ 1"},
      {{attn::ScaleMode::SqrtDk, 1.0}, "/ √d_k", "√2 = 1.414"},  // practice-qkv: d_k = 2
      {{attn::ScaleMode::Temperature, 0.5}, "/ T", "T = 0.500"},
  };
  enum class MaskCase { None, Causal, CustomWithEmptyRow };
  for (const ScaleCase& sc : scales) {
    for (MaskCase mc : {MaskCase::None, MaskCase::Causal, MaskCase::CustomWithEmptyRow}) {
      scene::Scene s = must_preset("practice-qkv");
      s.scale = sc.scale;
      s.causal = mc == MaskCase::Causal;
      if (mc == MaskCase::CustomWithEmptyRow) {
        s.mask = attn::MaskMatrix::Ones(3, 3);
        s.mask.row(1).setZero();  // row 'cat' sees nothing
        s.mask(0, 2) = 0;
      }
      REQUIRE(scene::validate(s).empty());
      const attn::Result r = scene::compute(s);
      const bool any_masked = mc != MaskCase::None;
      CAPTURE(sc.symbol);
      CAPTURE(int(mc));

      // Raw QKᵀ: every cell is its dot product, finite, masked or not; no word of −∞ or scaling.
      const ui::captions::Caption raw = ui::captions::grid_caption(Grid::Raw, s, r);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double v = ui::captions::grid_value(Grid::Raw, r, i, j);
          CHECK(std::isfinite(v));
          CHECK(v == r.Q.row(i).dot(r.K.row(j)));
        }
      for (const std::string* text : {&raw.title, &raw.hint, &raw.masked, &raw.tab}) {
        CHECK(text->find("−∞") == std::string::npos);
        CHECK(text->find("√") == std::string::npos);
        CHECK(text->find("/ T") == std::string::npos);
      }
      CHECK(raw.title == "Scores  QKᵀ");
      CHECK((raw.hint.find("hidden later") != std::string::npos) == any_masked);

      // Scaled + masked: scores / s where allowed, −∞ exactly where masked.
      const ui::captions::Caption scaled = ui::captions::grid_caption(Grid::Scaled, s, r);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double v = ui::captions::grid_value(Grid::Scaled, r, i, j);
          if (r.allowed(i, j))
            CHECK(v == doctest::Approx(r.scores(i, j) / r.divisor));
          else
            CHECK(v == -INFINITY);
        }
      CHECK(scaled.title.find(std::string(ui::captions::scaled_term(s)) + " + M") != std::string::npos);
      if (*sc.symbol) {
        CHECK(scaled.title.find(sc.symbol) != std::string::npos);
        CHECK(scaled.title.rfind("Scaled + masked", 0) == 0);
      } else {
        CHECK(scaled.title == "Masked  QKᵀ + M");
      }
      CHECK(scaled.hint.find(sc.divisor) != std::string::npos);
      CHECK((scaled.hint.find("−∞") != std::string::npos) == any_masked);
      CHECK((scaled.hint.find("nothing is hidden") != std::string::npos) == !any_masked);
      CHECK(scaled.masked == "masked: −∞");

      // Weights: in [0, 1]; rows sum to 1, or 0 for a row with every key hidden (and the hint
      // says so exactly when there is one).
      const ui::captions::Caption weights = ui::captions::grid_caption(Grid::Weights, s, r);
      CHECK(weights.title == "Weights  A = softmax(" + ui::captions::scaled_term(s) + " + M)");
      CHECK(weights.hint.find("in [0, 1]") != std::string::npos);
      for (int i = 0; i < 3; ++i) {
        double sum = 0;
        for (int j = 0; j < 3; ++j) {
          const double w = ui::captions::grid_value(Grid::Weights, r, i, j);
          CHECK(w >= 0.0);
          CHECK(w <= 1.0);
          if (!r.allowed(i, j)) CHECK(w == 0.0);
          sum += w;
        }
        const bool empty_row = !r.allowed.row(i).any();
        CHECK(sum == doctest::Approx(empty_row ? 0.0 : 1.0));
      }
      const bool has_empty_row = mc == MaskCase::CustomWithEmptyRow;
      CHECK((weights.hint.find("all 0") != std::string::npos) == has_empty_row);
      CHECK((weights.hint.find(sc.divisor) != std::string::npos) == (sc.scale.mode != attn::ScaleMode::None));
      CHECK((weights.hint.find("no scaling") != std::string::npos) ==
            (sc.scale.mode == attn::ScaleMode::None));
      CHECK(weights.masked == "masked: 0");
    }
  }
}

TEST_CASE("walk: the mask step with ALiBi shows QKᵀ / s + B, and names a window with its sinks") {
  scene::Scene s = must_preset("causal-5");
  s.alibi = true;  // one head: m = 2^(−8·1/1) = 1/256 (Press et al. 2022), B(2, j) = −(2 − j)/256
  // Row 'sat': scaled 0.7071, 1.4142, 0.7071 plus −2/256, −1/256, 0 → 0.6993, 1.4103, 0.7071.
  CHECK(live(Stage::Mask, s, 2) == "Row 'sat': 'on' and 'mats' hidden → 0.7, 1.41, 0.71, −∞, −∞.");
  const std::string body = ui::walk::step_text(Stage::Mask, s).body;
  CHECK(body.find("QKᵀ / s + B") != std::string::npos);

  scene::Scene w = must_preset("causal-5");
  w.window = 2;
  w.sinks = 1;
  const std::string wbody = ui::walk::step_text(Stage::Mask, w).body;
  CHECK(wbody.find("w = 2") != std::string::npos);
  CHECK(wbody.find("first 1 token") != std::string::npos);
  // Row 'on' (3) sees the sink 'the' (0) and 'sat', 'on' (window 2); 'cat' (1) is hidden by the window.
  CHECK(live(Stage::Mask, w, 3).rfind("Row 'on': 'cat' and 'mats' hidden", 0) == 0);
}

#if AL_ALL_MODES
TEST_CASE("walk: the softmax step of a variant scene says what its weights are") {
  const std::string base =
      R"({"version": 2, "tokens": ["a", "b"], "Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 0], [0, 1]])";
  const scene::ParseResult plain = scene::parse_scene(base + "}");
  const scene::ParseResult capped = scene::parse_scene(base + R"(, "softcap": 2, "sink_logit": 0})");
  REQUIRE(plain.ok());
  REQUIRE(capped.ok());
  const ui::walk::StepText a = ui::walk::step_text(Stage::Softmax, *plain.scene);
  const ui::walk::StepText b = ui::walk::step_text(Stage::Softmax, *capped.scene);
  CHECK(a.title == b.title);
  CHECK(b.body.rfind(a.body, 0) == 0);  // the plain step's words, then the variants'
  CHECK(b.body.find("2.00·tanh(s/2.00)") != std::string::npos);
  CHECK(b.body.find("weights sum to less than 1") != std::string::npos);
  CHECK(a.body.find("tanh") == std::string::npos);
}

// The Weights grid's title says the formula its cells follow: "softmax(scaled + M)" is wrong for
// linear attention (no softmax) and hides a step for differential attention and a softcap.
TEST_CASE("grid captions: the Weights title of linear, differential and softcapped scenes") {
  using ui::captions::Grid;
  const std::string base =
      R"({"version": 2, "tokens": ["a", "b"], "Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 0], [0, 1]])";
  auto title = [&](const std::string& keys) {
    const scene::ParseResult parsed = scene::parse_scene(base + keys + "}");
    REQUIRE_MESSAGE(parsed.ok(), parsed.error);
    const scene::Scene& s = *parsed.scene;
    return ui::captions::grid_caption(Grid::Weights, s, scene::compute(s)).title;
  };
  CHECK(title("") == "Weights  A = softmax(QKᵀ / √d_k + M)");
  CHECK(title(R"(, "linear": "elu1")") == "Weights  A = φ(Q)φ(K)ᵀ ⊙ M, rows normalised");
  CHECK(title(R"(, "differential": {"lambda": 0.5})") == "Weights  A = A₁ − λ A₂");
  CHECK(title(R"(, "softcap": 2)") == "Weights  A = softmax(c·tanh(QKᵀ / √d_k / c) + M)");
  CHECK(title(R"(, "sink_logit": 0)") == title(""));  // the sink is a column of its own, not a new formula
}
#endif
