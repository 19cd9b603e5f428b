// walk_steps.cpp — see walk_steps.hpp. The sentences retell LESSONS.md's ideas (three roles,
// scores, scaling, the mask, softmax, blending, the soft dictionary) in plain words.
#include "ui/modes/walk/walk_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/lookup.hpp"
#include "scene/variant_keys.hpp"
#include "ui/text/i18n.hpp"
#include "ui/text/number_format.hpp"
#include "ui/text/scale_texts.hpp"
#if AL_ALL_MODES
#include "ui/text/grid_captions.hpp"  // variant_weights_hint
#endif

namespace ui::walk {
namespace {

// Rows longer than this print their first kMaxListed entries and "… (N more)".
constexpr int kMaxListed = 6;
// The blend sentence lists at most this many terms a_ij × v_j, each v_j cut to kMaxBlendDims.
constexpr int kMaxBlendTerms = 4;
constexpr int kMaxBlendDims = 4;

// Each stage's symbol in the stepper; Scale's depends on the scene (stage_symbol).
constexpr attn::Row<Stage, const char*> kStageSymbols[] = {
    {Stage::Inputs, "X"}, {Stage::Projections, "Q, K, V"}, {Stage::Scores, "QKᵀ"},
    {Stage::Mask, "+ M"}, {Stage::Softmax, "softmax"},     {Stage::Blend, "· V"},
    {Stage::Output, "Y"},
};

bool has_mask(const scene::Scene& s) {
  return s.causal || s.mask.size() != 0 || s.window > 0;
}

// What softmax sees before the mask: QKᵀ / s, plus ALiBi's B when the scene has it (Result::logits).
double pre_softmax(const attn::Result& r, int i, int j) {
  return r.logits.size() != 0 ? r.logits(i, j) : r.scaled(i, j);
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
  const std::string& label = scene::key_labels(s)[static_cast<std::size_t>(j)];  // key j: a token or a source
  return label.empty() ? "#" + std::to_string(j) : "'" + clip_label(label, 16) + "'";
}

std::string more(int count) {
  return fill(tr(Text::LiveMore), {std::to_string(count)});
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
      return tr(Text::LiveNoScaling);
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
  return label.empty() ? fill(tr(Text::LiveRowNumber), {std::to_string(row)})
                       : fill(tr(Text::LiveRow), {clip_label(label, 16)});
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
  if (stage == Stage::Scale) return scale_texts(scene.scale.mode).divide;
  return attn::lookup(kStageSymbols, stage, "");
}

// Two parts of a step's text joined by a space.
static std::string join(Text first, Text second) {
  return std::string(tr(first)) + " " + tr(second);
}

StepText step_text(Stage stage, const scene::Scene& scene) {
  const bool projected = scene.mode == scene::Mode::Projected;
  switch (stage) {
    case Stage::Inputs:
      return {tr(Text::WalkInputsTitle), tr(Text::WalkInputsBody)};
    case Stage::Projections:
      return {tr(Text::WalkRolesTitle),
              join(Text::WalkRolesBody, projected ? Text::WalkRolesLearned : Text::WalkRolesDirect)};
    case Stage::Scores:
      return {tr(Text::WalkScoresTitle), tr(Text::WalkScoresBody)};
    case Stage::Scale: {
      const ScaleTexts& t = scale_texts(scene.scale.mode);
      return {tr(t.step_title), tr(t.step_body)};
    }
    case Stage::Mask:
      if (!has_mask(scene)) return {tr(Text::WalkNoMaskTitle), tr(Text::WalkNoMaskBody)};
      {
        std::string body = scene.causal             ? join(Text::WalkMaskBody, Text::WalkMaskCausal)
                           : scene.mask.size() != 0 ? join(Text::WalkMaskBody, Text::WalkMaskCustom)
                                                    : std::string(tr(Text::WalkMaskBody));
        if (scene.window > 0)  // the sliding window and its sinks
          body += " " +
                  fill(tr(Text::WalkMaskWindow), {std::to_string(scene.window), std::to_string(scene.sinks)});
        if (scene.alibi) body += std::string(" ") + tr(Text::WalkMaskAlibi);
        return {tr(Text::WalkMaskTitle), body};
      }
    case Stage::Softmax:
#if AL_ALL_MODES
      // A variant scene's weights are not (only) a row softmax: the step says what they are.
      if (std::string variants = captions::variant_weights_hint(scene); !variants.empty())
        return {tr(Text::WalkSoftmaxTitle), std::string(tr(Text::WalkSoftmaxBody)) + " " + variants};
#endif
      return {tr(Text::WalkSoftmaxTitle), tr(Text::WalkSoftmaxBody)};
    case Stage::Blend:
      return {tr(Text::WalkBlendTitle), tr(Text::WalkBlendBody)};
    case Stage::Output:
      return {tr(Text::WalkOutputTitle), tr(Text::WalkOutputBody)};
  }
  return {};
}

std::string live_numbers(Stage stage, const scene::Scene& scene, const attn::Result& r, int row) {
  // Row i of n queries over m keys (m = n but for cross-attention, whose keys are the sources).
  const int rows = int(r.weights.rows()), n = int(r.weights.cols());
  if (row < 0 || row >= rows || row >= scene.n() || r.scores.rows() != rows) return "";
  const int i = row;
  const std::string who = row_name(scene, i);
  bool any_allowed = false;
  for (int j = 0; j < n; ++j) any_allowed = any_allowed || allowed_cell(r, i, j);

  switch (stage) {
    case Stage::Inputs:
      if (scene.X.rows() <= i) return "";
      return who + ": x = " + vector_text(scene.X, i, 3) + ".";
    case Stage::Projections:
      if (scene::is_cross_attention(scene))  // its k and v are the sources', not this query's
        return who + ": q = " + vector_text(r.Q, i, 3, 4) + ".";
      return who + ": q = " + vector_text(r.Q, i, 3, 4) + ", k = " + vector_text(r.K, i, 3, 4) +
             ", v = " + vector_text(r.V, i, 3, 4) + ".";
    case Stage::Scores:
      return fill(tr(Text::LiveScoresEach), {who, number_list(n, [&](int j) {
                                               return quoted_label(scene, j) + " " +
                                                      short_number(r.scores(i, j), 2);
                                             })});
    case Stage::Scale: {
      const auto raw = [&](int j) { return short_number(r.scores(i, j), 2); };
      const auto scaled = [&](int j) { return short_number(r.scaled(i, j), 2); };
      return fill(tr(Text::LiveScale),
                  {who, number_list(n, raw), divisor_text(scene, r), number_list(n, scaled)});
    }
    case Stage::Mask: {
      if (!any_allowed) return fill(tr(Text::LiveMaskAllHidden), {who});
      std::vector<int> hidden;
      for (int j = 0; j < n; ++j)
        if (!allowed_cell(r, i, j)) hidden.push_back(j);
      const auto plus_m = [&](int j) {
        return allowed_cell(r, i, j) ? short_number(pre_softmax(r, i, j), 2) : std::string("−∞");
      };
      std::string what;
      if (hidden.empty()) {
        what = tr(Text::LiveNothingHidden);
      } else {
        const std::string and_ = std::string(" ") + tr(Text::LiveAnd) + " ";
        const int listed = std::min<int>(int(hidden.size()), 4);
        for (int k = 0; k < listed; ++k)
          what += (k == 0 ? "" : k + 1 == int(hidden.size()) ? and_ : ", ") + quoted_label(scene, hidden[k]);
        if (listed < int(hidden.size()))
          what += " " + fill(tr(Text::LiveAndMore), {std::to_string(hidden.size() - listed)});
        what = fill(tr(Text::LiveHidden), {what});
      }
      return fill(tr(Text::LiveMask), {who, what, number_list(n, plus_m)});
    }
    case Stage::Softmax: {
      if (!any_allowed) return fill(tr(Text::LiveSoftmaxNone), {who});
      // Shown as the lesson computes it: subtract the row's largest score (softmax is unchanged by
      // a shift, and e^x cannot overflow), exponentiate, divide by the sum.
      double top = -INFINITY;
      for (int j = 0; j < n; ++j)
        if (allowed_cell(r, i, j)) top = std::max(top, pre_softmax(r, i, j));
      std::vector<double> e(static_cast<std::size_t>(n), 0.0);
      double sum = 0;
      for (int j = 0; j < n; ++j)
        if (allowed_cell(r, i, j))
          sum += e[static_cast<std::size_t>(j)] = std::exp(pre_softmax(r, i, j) - top);
      const auto e_text = [&](int j) { return trim_zeros(format_weight(e[static_cast<std::size_t>(j)], 2)); };
      const auto w_text = [&](int j) { return weight_text(r.weights(i, j)); };
      const std::string shift =
          top == 0 ? std::string(tr(Text::LiveExpScore))
                   : fill(tr(Text::LiveExpShifted),
                          {std::string(top > 0 ? "− " : "+ ") + short_number(std::abs(top), 2)});
      return fill(tr(Text::LiveSoftmax),
                  {who, shift, number_list(n, e_text),
                   trim_zeros(format_distinct(sum, std::round(sum), 2, 10)), number_list(n, w_text)});
    }
    case Stage::Blend: {
      if (!any_allowed) return fill(tr(Text::LiveBlendNone), {who});
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
      return who + ": y = " + y + (any_allowed ? "." : " (" + std::string(tr(Text::LiveNoKeyVisible)) + ").");
    }
  }
  return "";
}

}  // namespace ui::walk
