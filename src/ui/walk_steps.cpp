// walk_steps.cpp — see walk_steps.hpp. The sentences retell LESSONS.md's ideas (three roles,
// scores, scaling, the mask, softmax, blending, the soft dictionary) in plain words.
#include "ui/walk_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/number_format.hpp"
#include "ui/scale_texts.hpp"

namespace ui::walk {
namespace {

// Rows longer than this print their first kMaxListed entries and "… (N more)".
constexpr int kMaxListed = 6;
// The blend sentence lists at most this many terms a_ij × v_j, each v_j cut to kMaxBlendDims.
constexpr int kMaxBlendTerms = 4;
constexpr int kMaxBlendDims = 4;

bool has_mask(const scene::Scene& s) {
  return s.causal || s.mask.size() != 0;
}

// "…" when cut.
std::string clip_label(const std::string& label, int max_chars) {
  int chars = 0;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if ((static_cast<unsigned char>(label[i]) & 0xC0) != 0x80 && chars++ == max_chars)
      return label.substr(0, i) + "…";
  }
  return label;
}

std::string quoted_label(const scene::Scene& s, int j) {
  const std::string& label = s.tokens[static_cast<std::size_t>(j)];
  return label.empty() ? "#" + std::to_string(j) : "'" + clip_label(label, 16) + "'";
}

std::string more(int count) {
  return "… (" + std::to_string(count) + " more)";
}

// "a, b, c" of `count` numbers given by `at(j)`, cut after `max_listed`.
template <typename At>
std::string number_list(int count, At at, int max_listed = kMaxListed) {
  std::string out;
  const int shown = count > max_listed ? max_listed - 1 : count;
  for (int j = 0; j < shown; ++j) out += (j ? ", " : "") + at(j);
  if (shown < count) out += ", " + more(count - shown);
  return out;
}

// A matrix row as "[a, b, c]".
std::string vector_text(const attn::Matrix& m, int row, int decimals, int max_listed = kMaxListed) {
  return "[" +
         number_list(
             int(m.cols()), [&](int j) { return short_number(m(row, j), decimals); }, max_listed) +
         "]";
}

// Drops trailing zeros of a fixed-decimal text ("0.500" → "0.5", "1.000" → "1"); scientific and
// integer texts stay as they are.
std::string trim_zeros(std::string text) {
  if (text.find('.') == std::string::npos || text.find('e') != std::string::npos) return text;
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

// A weight in [0, 1]: 3 decimals, but never "0" or "1" for a weight that is only almost 0 or 1
// (the soft dictionary's 0.999955 and 4.5e-5 stay visible).
std::string weight_text(double w) {
  return trim_zeros(format_weight(w, 3));
}

// An output or vector entry: 3 decimals, and more when it is within 0.0005 of an integer without
// being one (the soft dictionary's 1.000091 must not read as an exact 1).
std::string output_text(double y) {
  const double nearest = std::round(y);
  if (y != nearest && std::abs(y - nearest) < 0.0005) return format_distinct(y, nearest, 3, 10);
  return short_number(y, 3);
}

std::string divisor_text(const scene::Scene& s, const attn::Result& r) {
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      return "no scaling";
    case attn::ScaleMode::SqrtDk:
      return "÷ √" + std::to_string(s.d_k() / std::max(1, s.heads)) + " = " + short_number(r.divisor, 3);
    case attn::ScaleMode::Temperature:
      return "÷ T = " + short_number(r.divisor, 3);
  }
  return "";
}

bool allowed_cell(const attn::Result& r, int i, int j) {
  return r.allowed.size() == 0 || r.allowed(i, j) != 0;
}

}  // namespace

std::string short_number(double value, int decimals) {
  return trim_zeros(format_number(value, decimals));
}

std::string row_name(const scene::Scene& scene, int row) {
  const std::string& label = scene.tokens[static_cast<std::size_t>(row)];
  return label.empty() ? "Row " + std::to_string(row) : "Row '" + clip_label(label, 16) + "'";
}

std::vector<Stage> stages_for(const scene::Scene& scene) {
  std::vector<Stage> stages;
  if (scene.mode == scene::Mode::Projected) stages.push_back(Stage::Inputs);
  for (Stage s : {Stage::Projections, Stage::Scores, Stage::Scale, Stage::Mask, Stage::Softmax, Stage::Blend,
                  Stage::Output})
    stages.push_back(s);
  return stages;
}

std::string stage_symbol(Stage stage, const scene::Scene& scene) {
  switch (stage) {
    case Stage::Inputs:
      return "X";
    case Stage::Projections:
      return "Q, K, V";
    case Stage::Scores:
      return "QKᵀ";
    case Stage::Scale:
      return scale_texts(scene.scale.mode).divide;
    case Stage::Mask:
      return "+ M";
    case Stage::Softmax:
      return "softmax";
    case Stage::Blend:
      return "· V";
    case Stage::Output:
      return "Y";
  }
  return "";
}

StepText step_text(Stage stage, const scene::Scene& scene) {
  const bool projected = scene.mode == scene::Mode::Projected;
  switch (stage) {
    case Stage::Inputs:
      return {"The tokens: X",
              "Each token starts as a row of numbers, its features: X has one row per token. "
              "Attention lets every token collect information from the other tokens, in a few "
              "steps you can watch one at a time."};
    case Stage::Projections:
      return {"Three roles: Q, K, V",
              std::string("Every token plays three roles. Its query asks \"what am I looking for?\", "
                          "its key answers \"what do I have?\" (the label on a book's spine) and its "
                          "value is \"what do I give if I'm found?\" (the book's contents). ") +
                  (projected ? "Here they are three learned maps of the same row: Q = X W_q, "
                               "K = X W_k, V = X W_v, so what a token looks for can differ from "
                               "what it offers."
                             : "This scene gives Q, K and V directly: drag a slider to change one.")};
    case Stage::Scores:
      return {"Scores: Q Kᵀ",
              "How much token i attends to token j starts as one number, the dot product q_i · k_j: "
              "large when the query and the key point the same way. All pairs at once make the n×n "
              "grid Q Kᵀ. The values take no part in it."};
    case Stage::Scale: {
      const ScaleTexts& t = scale_texts(scene.scale.mode);
      return {t.step_title, t.step_body};
    }
    case Stage::Mask:
      if (!has_mask(scene)) {
        return {"Mask: + M (nothing hidden here)",
                "A mask M can hide pairs: it adds 0 where token i may look at token j and −∞ where "
                "it may not. This scene has no mask, so M is all zeros and every token sees every "
                "token. Tick Causal in Controls to hide the future."};
      }
      return {"Mask: + M",
              std::string("M adds 0 where token i may look at token j and −∞ where it may not, so "
                          "softmax gives those pairs exactly 0 weight. ") +
                  (scene.causal ? "The causal mask lets each token see itself and the tokens "
                                  "before it, never the future, as when a model writes text "
                                  "one token at a time."
                                : "This scene's custom mask says which pairs are hidden; click a "
                                  "cell of the Mask grid to flip it.")};
    case Stage::Softmax:
      return {"Softmax: scores → weights",
              "Softmax turns each row of scores into weights: it takes e to the power of each "
              "score and divides by the row's total. So every weight is between 0 and 1, each "
              "row sums to 1, a larger score gets a larger share, and −∞ gets exactly 0."};
    case Stage::Blend:
      return {"Blend: weights · V",
              "Each token's output is a blend of the value rows, mixed in the proportions of its "
              "weights: y_i = Σ_j a_ij v_j, all rows at once Y = A V. It is a soft dictionary "
              "lookup: a query close to one key gets almost exactly that key's value."};
    case Stage::Output:
      return {"The output: Y",
              "Y has one row per token, as long as a value row. Each token now carries what it "
              "gathered from the tokens it attended to, and a transformer passes Y to its next "
              "layer. Drag any slider to watch every step change, then check yourself."};
  }
  return {};
}

std::string live_numbers(Stage stage, const scene::Scene& scene, const attn::Result& r, int row) {
  const int n = int(r.weights.rows());
  if (row < 0 || row >= n || row >= scene.n() || r.scores.rows() != n) return "";
  const int i = row;
  const std::string who = row_name(scene, i);
  bool any_allowed = false;
  for (int j = 0; j < n; ++j) any_allowed = any_allowed || allowed_cell(r, i, j);

  switch (stage) {
    case Stage::Inputs:
      if (scene.X.rows() <= i) return "";
      return who + ": x = " + vector_text(scene.X, i, 3) + ".";
    case Stage::Projections:
      return who + ": q = " + vector_text(r.Q, i, 3, 4) + ", k = " + vector_text(r.K, i, 3, 4) +
             ", v = " + vector_text(r.V, i, 3, 4) + ".";
    case Stage::Scores:
      return who + " scores each key: " +
             number_list(
                 n, [&](int j) { return quoted_label(scene, j) + " " + short_number(r.scores(i, j), 2); }) +
             ".";
    case Stage::Scale: {
      const auto raw = [&](int j) { return short_number(r.scores(i, j), 2); };
      const auto scaled = [&](int j) { return short_number(r.scaled(i, j), 2); };
      return who + ": scores " + number_list(n, raw) + " → " + divisor_text(scene, r) + " → " +
             number_list(n, scaled) + ".";
    }
    case Stage::Mask: {
      if (!any_allowed) return who + ": every key is hidden, so this row gets no weights and a zero output.";
      std::vector<int> hidden;
      for (int j = 0; j < n; ++j)
        if (!allowed_cell(r, i, j)) hidden.push_back(j);
      const auto plus_m = [&](int j) {
        return allowed_cell(r, i, j) ? short_number(r.scaled(i, j), 2) : std::string("−∞");
      };
      std::string what;
      if (hidden.empty()) {
        what = "nothing hidden";
      } else {
        const int listed = std::min<int>(int(hidden.size()), 4);
        for (int k = 0; k < listed; ++k)
          what += (k == 0                        ? ""
                   : k + 1 == int(hidden.size()) ? " and "
                                                 : ", ") +
                  quoted_label(scene, hidden[k]);
        if (listed < int(hidden.size())) what += " and " + std::to_string(hidden.size() - listed) + " more";
        what += " hidden";
      }
      return who + ": " + what + " → " + number_list(n, plus_m) + ".";
    }
    case Stage::Softmax: {
      if (!any_allowed) return who + " sees no key: softmax has nothing to share, every weight is 0.";
      // Shown as the lesson computes it: subtract the row's largest score (softmax is unchanged by
      // a shift, and e^x cannot overflow), exponentiate, divide by the sum.
      double top = -INFINITY;
      for (int j = 0; j < n; ++j)
        if (allowed_cell(r, i, j)) top = std::max(top, r.scaled(i, j));
      std::vector<double> e(static_cast<std::size_t>(n), 0.0);
      double sum = 0;
      for (int j = 0; j < n; ++j)
        if (allowed_cell(r, i, j)) sum += e[static_cast<std::size_t>(j)] = std::exp(r.scaled(i, j) - top);
      const auto e_text = [&](int j) { return trim_zeros(format_weight(e[static_cast<std::size_t>(j)], 2)); };
      const auto w_text = [&](int j) { return weight_text(r.weights(i, j)); };
      const std::string shift =
          top == 0 ? "e^score"
                   : "e^(score " + std::string(top > 0 ? "− " : "+ ") + short_number(std::abs(top), 2) + ")";
      return who + ": " + shift + " = " + number_list(n, e_text) + "; ÷ their sum " +
             trim_zeros(format_distinct(sum, std::round(sum), 2, 10)) + " → weights " +
             number_list(n, w_text) + " (sum 1).";
    }
    case Stage::Blend: {
      if (!any_allowed) return who + " has no weights, so its output is all zeros.";
      std::string terms;
      int listed = 0, total = 0;
      for (int j = 0; j < n; ++j) {
        if (!allowed_cell(r, i, j)) continue;
        ++total;
        if (listed == kMaxBlendTerms) continue;
        terms += (listed++ ? " + " : "") + weight_text(r.weights(i, j)) + " × " +
                 vector_text(r.V, j, 2, kMaxBlendDims);
      }
      if (total > listed) terms += " + " + more(total - listed);
      return who + ": y = " + terms + ".";
    }
    case Stage::Output: {
      std::string y =
          "[" +
          number_list(
              int(r.output.cols()), [&](int j) { return output_text(r.output(i, j)); }, kMaxListed) +
          "]";
      return who + ": y = " + y + (any_allowed ? "." : " (no key was visible).");
    }
  }
  return "";
}

}  // namespace ui::walk
