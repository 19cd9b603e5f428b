// export_parts.cpp — see export_parts.hpp.
#include "scene/export_parts.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

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

// The stage's formula in plain Unicode, before the notes.
std::string stage_formula_plain(const Scene& s, ExportStage stage) {
  const std::string divided = s.scale.mode == attn::ScaleMode::None     ? "QKᵀ"
                              : s.scale.mode == attn::ScaleMode::SqrtDk ? "QKᵀ / √d_k"
                                                                        : "QKᵀ / T";
  switch (stage) {
    case ExportStage::Weights:
      return "Weights  A = softmax(" + divided + " + M)";
    case ExportStage::Scores:
      return "Scores  QKᵀ";
    case ExportStage::Scaled:
      return "Scaled  " + divided + " + M";
    case ExportStage::Q:
      return s.mode == Mode::Projected ? "Queries  Q = X·Wq" : "Queries  Q";
    case ExportStage::K:
      return s.mode == Mode::Projected ? "Keys  K = X·Wk" : "Keys  K";
    case ExportStage::V:
      return s.mode == Mode::Projected ? "Values  V = X·Wv" : "Values  V";
    case ExportStage::Output:
      return "Output  Y = A V";
  }
  return {};
}

// The same in LaTeX comment form (ASCII).
std::string stage_formula_tex_plain(const Scene& s, ExportStage stage) {
  const std::string divided = s.scale.mode == attn::ScaleMode::None     ? "Q K^T"
                              : s.scale.mode == attn::ScaleMode::SqrtDk ? "Q K^T / \\sqrt{d_k}"
                                                                        : "Q K^T / T";
  switch (stage) {
    case ExportStage::Weights:
      return "weights A = softmax(" + divided + " + M)";
    case ExportStage::Scores:
      return "scores Q K^T";
    case ExportStage::Scaled:
      return "scaled " + divided + " + M (masked cells -\\infty)";
    case ExportStage::Q:
      return "queries Q";
    case ExportStage::K:
      return "keys K";
    case ExportStage::V:
      return "values V";
    case ExportStage::Output:
      return "output Y = A V";
  }
  return {};
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
  const std::string f = stage_formula_plain(s, stage) + heads_note(s, stage);
  if (!s.rope_on) return f;
  if (stage == ExportStage::Q || stage == ExportStage::K) return f + " (before RoPE)";
  if (stage == ExportStage::Scores || stage == ExportStage::Scaled || stage == ExportStage::Weights)
    return f + " (Q, K turned by RoPE)";
  return f;
}

std::string stage_formula_tex(const Scene& s, ExportStage stage) {
  std::string f = stage_formula_tex_plain(s, stage) + heads_note(s, stage);
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

bool square_stage(ExportStage stage) {
  return stage == ExportStage::Weights || stage == ExportStage::Scores || stage == ExportStage::Scaled;
}

const attn::Matrix& stage_matrix(const attn::Result& r, ExportStage stage) {
  switch (stage) {
    case ExportStage::Weights:
      return r.weights;
    case ExportStage::Scores:
      return r.scores;
    case ExportStage::Scaled:
      return r.scaled;
    case ExportStage::Q:
      return r.Q;
    case ExportStage::K:
      return r.K;
    case ExportStage::V:
      return r.V;
    case ExportStage::Output:
      return r.output;
  }
  return r.weights;
}

}  // namespace scene::export_parts
