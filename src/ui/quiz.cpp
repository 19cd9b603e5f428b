// quiz.cpp — see quiz.hpp. Questions 1–3 and 7–8 are LESSONS.md's own check questions and
// examples (the "match" question as one choice of three pairings); 4–6 ask about its other ideas.
// Every number in an explanation is a lesson's (tests/walk_test.cpp recomputes them).
#include "ui/quiz.hpp"

namespace ui::quiz {

const std::vector<Question>& questions() {
  using walk::Stage;
  static const std::vector<Question> kQuestions = {
      {"Which two things decide how much one token attends to another?",
       {"Its value and the other token's value", "Its query and the other token's key",
        "Its key and the other token's value", "Where the two tokens stand in the sentence"},
       1,
       "The score is q_i · k_j: token i's query against token j's key. The values are only carried "
       "along afterwards; they never enter the score.",
       {"practice-qkv", 0, Stage::Scores}},
      {"Fill in: scores = Q @ ____",
       {"K", "V", "K.T", "Q.T"},
       2,
       "Q and K are both n×d_k, so Q @ K.T is n×n: entry (i, j) is q_i · k_j, one score for every "
       "query–key pair. The values V are not part of the scores.",
       {"practice-qkv", 0, Stage::Scores}},
      {"Match the roles: which line is right?",
       {"Query: what do I have? · Key: what am I looking for? · Value: what do I give?",
        "Query: what am I looking for? · Key: what do I have? · Value: what do I give?",
        "Query: what am I looking for? · Key: what do I give? · Value: what do I have?"},
       1,
       "The query asks; the key is the label on a book's spine that queries are matched against; "
       "the value is the book's contents, handed over in proportion to the match.",
       {"practice-qkv", 0, Stage::Projections}},
      {"What are W_q, W_k and W_v?",
       {"The attention weights, one per pair of tokens", "Masks that hide future tokens",
        "Always the identity matrix", "Learned maps that make Q, K and V from the same X"},
       3,
       "Q = X W_q, K = X W_k, V = X W_v: three linear maps learned in training, so what a token "
       "looks for can differ from what it offers. learned-5x8 shows PyTorch's starting weights.",
       {"learned-5x8", 0, Stage::Projections}},
      {"After softmax, what does each row of the weights add up to?",
       {"1", "0", "n, the number of tokens", "It depends on the scores"},
       0,
       "Softmax divides each e^score by the row's total, so every weight lies between 0 and 1 and "
       "each row sums to exactly 1: practice-qkv's first row is 0.155 + 0.422 + 0.422.",
       {"practice-qkv", 0, Stage::Softmax}},
      {"Why are the scores divided by √d_k?",
       {"Dot products grow with d_k; dividing keeps softmax from saturating",
        "So that each row of weights sums to 1", "To hide the future tokens",
        "To turn the scores into whole numbers"},
       0,
       "Longer vectors give larger dot products, and softmax of large scores puts nearly all the "
       "weight on one key. Dividing by √d_k keeps the scores' spread similar for any d_k. (Rows sum "
       "to 1 because of softmax, with or without scaling.) learned-5x8 divides by √8 ≈ 2.83.",
       {"learned-5x8", 0, Stage::Scale}},
      {"With a causal mask over 5 tokens, which tokens does token 2 attend to?",
       {"Only token 2", "All five tokens", "Tokens 0, 1 and 2", "Tokens 3 and 4"},
       2,
       "The causal mask is lower-triangular: row i may see columns 0..i, never the future. Row 2's "
       "weights are exactly 0 at columns 3 and 4, and its first three sum to 1.",
       {"causal-5", 2, Stage::Mask}},
      {"The query [1, 0] meets the keys [10, 0] and [0, 10], whose values are [1, 2] and [3, 4] "
       "(no scaling). What comes out?",
       {"Exactly [1, 2]: the other value is ignored", "[2, 3], the average of the values", "[3, 4]",
        "Almost exactly [1, 2]"},
       3,
       "The scores are 10 and 0, so the weights are 0.999955 and 0.000045, and the output "
       "[1.000091, 2.000091] is almost the first value. Attention is a soft dictionary: unlike a "
       "real one, it never matches all-or-nothing.",
       {"soft-dictionary", 0, Stage::Blend}},
  };
  return kQuestions;
}

std::string feedback(const Question& q, int choice) {
  if (choice == q.answer) return "Right!";
  return "Not quite: the answer is \"" + q.choices[static_cast<std::size_t>(q.answer)] + "\".";
}

}  // namespace ui::quiz
