// export_parts.cpp — see export_parts.hpp.
#include "scene/export_parts.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/lookup.hpp"

namespace scene::export_parts {
namespace {

// What a multi-head scene or an output map adds to a stage's formula.
std::string heads_note(const Scene& s, ExportStage stage) {
  if (s.heads > 1 && stage == ExportStage::Weights) return " (mean of " + std::to_string(s.heads) + " heads)";
  if (s.heads > 1 && (stage == ExportStage::Scores || stage == ExportStage::Scaled))
    return " (head 1 of " + std::to_string(s.heads) + ")";
  if (s.Wo.size() && stage == ExportStage::Output) return " · Wo";
  return {};
}

// Each stage's formula before the notes, in plain Unicode and in LaTeX comment form (ASCII); "{}"
// stands for the scaled scores (QKᵀ / √d_k, …), and `projected` follows Q, K, V's plain form in a
// projected scene.
struct StageFormula {
  const char* plain;
  const char* projected;
  const char* tex;
};
constexpr attn::Row<ExportStage, StageFormula> kFormulas[] = {
    {ExportStage::Weights, {"Weights  A = softmax({} + M)", "", "weights A = softmax({} + M)"}},
    {ExportStage::Scores, {"Scores  QKᵀ", "", "scores Q K^T"}},
    {ExportStage::Scaled, {"Scaled  {} + M", "", "scaled {} + M (masked cells -\\infty)"}},
    {ExportStage::Q, {"Queries  Q", " = X·Wq", "queries Q"}},
    {ExportStage::K, {"Keys  K", " = X·Wk", "keys K"}},
    {ExportStage::V, {"Values  V", " = X·Wv", "values V"}},
    {ExportStage::Output, {"Output  Y = A V", "", "output Y = A V"}},
};

// The scores as the scale divides them, in each form.
std::string divided(const Scene& s, bool tex) {
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      return tex ? "Q K^T" : "QKᵀ";
    case attn::ScaleMode::SqrtDk:
      return tex ? "Q K^T / \\sqrt{d_k}" : "QKᵀ / √d_k";
    case attn::ScaleMode::Temperature:
      break;
  }
  return tex ? "Q K^T / T" : "QKᵀ / T";
}

// The stage's formula (`tex`: the LaTeX comment form), before the notes.
std::string stage_formula_plain(const Scene& s, ExportStage stage, bool tex) {
  const StageFormula f = attn::lookup(kFormulas, stage, StageFormula{"", "", ""});
  std::string out = tex ? f.tex : f.plain;
  const std::size_t at = out.find("{}");
  if (at != std::string::npos) out.replace(at, 2, divided(s, tex));
  if (!tex && s.mode == Mode::Projected) out += f.projected;
  return out;
}

}  // namespace

std::string exact(double x) {
  return nlohmann::ordered_json(x).dump();
}

std::string fixed(double x, int digits, const char* minus) {
  char buffer[400];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, std::abs(x));
  const bool all_zero = std::string(buffer).find_first_not_of("0.") == std::string::npos;
  return (x < 0 && !all_zero ? std::string(minus) : std::string()) + buffer;
}

std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
  return out;
}

std::string join_labels(const std::vector<std::string>& tokens, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? separator : "") + one_line(tokens[i]);
  return out;
}

std::string scale_words(const Scene& s) {
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      return "s = 1 (scale \"none\": scores are not scaled)";
    case attn::ScaleMode::SqrtDk:
      return "s = √d_k = √" + std::to_string(s.d_k());
    case attn::ScaleMode::Temperature:
      return "s = the temperature T = " + exact(s.scale.temperature);
  }
  return {};
}

// With RoPE the scores use the turned Q and K, while the Q and K stages show them unturned.
std::string stage_formula(const Scene& s, ExportStage stage) {
  const std::string f = stage_formula_plain(s, stage, false) + heads_note(s, stage);
  if (!s.rope_on) return f;
  if (stage == ExportStage::Q || stage == ExportStage::K) return f + " (before RoPE)";
  if (stage == ExportStage::Scores || stage == ExportStage::Scaled || stage == ExportStage::Weights)
    return f + " (Q, K turned by RoPE)";
  return f;
}

std::string stage_formula_tex(const Scene& s, ExportStage stage) {
  std::string f = stage_formula_plain(s, stage, true) + heads_note(s, stage);
  const std::size_t dot = f.find(" · Wo");
  if (dot != std::string::npos) f.replace(dot, std::string(" · Wo").size(), " W_o");
  if (!s.rope_on) return f;
  if (stage == ExportStage::Q || stage == ExportStage::K) return f + " (before RoPE)";
  if (stage == ExportStage::Scores || stage == ExportStage::Scaled || stage == ExportStage::Weights)
    return f + " (Q, K turned by RoPE)";
  return f;
}

attn::Result figure_stages(const Scene& s) {
  attn::HeadsResult all = compute_heads(s);
  attn::Result r = std::move(all.heads.front());
  r.Q = std::move(all.Q);
  r.K = std::move(all.K);
  r.V = std::move(all.V);
  r.weights = std::move(all.weights_mean);
  r.output = std::move(all.output);
  return r;
}

// The result's matrix each stage shows.
constexpr attn::Row<ExportStage, attn::Matrix attn::Result::*> kStageMatrices[] = {
    {ExportStage::Weights, &attn::Result::weights},
    {ExportStage::Scores, &attn::Result::scores},
    {ExportStage::Scaled, &attn::Result::scaled},
    {ExportStage::Q, &attn::Result::Q},
    {ExportStage::K, &attn::Result::K},
    {ExportStage::V, &attn::Result::V},
    {ExportStage::Output, &attn::Result::output},
};

bool square_stage(ExportStage stage) {
  return stage == ExportStage::Weights || stage == ExportStage::Scores || stage == ExportStage::Scaled;
}

const attn::Matrix& stage_matrix(const attn::Result& r, ExportStage stage) {
  return r.*attn::lookup(kStageMatrices, stage, &attn::Result::weights);
}

}  // namespace scene::export_parts
