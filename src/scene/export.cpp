// export.cpp — a scene as NumPy / PyTorch scripts, LaTeX matrices and SVG figures (export.hpp).
//
// [SECTION] index
//   1. Text helpers: round-trip numbers, Python / XML / LaTeX escaping
//   2. Names: kinds, stages, the formula of the scene's scaling
//   3. Scripts: NumPy, and the parts PyTorch shares (one head written out; several heads as a loop)
//   4. PyTorch script: the same, or nn.MultiheadAttention when the scene fits it
//   5. LaTeX bmatrix
//   6. SVG heatmap (vector cells for n ≤ 64, one embedded PNG beyond)
//   7. export_scene
#include "scene/export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "scene/colormap.hpp"

// PNG encoding for the big-matrix SVG: stb_image_write (Debian's libstb-dev), private to this file
// (STATIC) so it never clashes with the app's own copy in app/screenshot.cpp.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace scene {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] 1. Text helpers
// ---------------------------------------------------------------------------------------------

// The shortest decimal that reads back as the same double ("0.1", "1.0", "1e-05"): nlohmann's
// printer, the one scene_to_json uses. Valid Python, NumPy and PyTorch literal syntax.
std::string exact(double x) {
  return nlohmann::json(x).dump();
}

// x with `digits` decimals; never "-0.000".
std::string fixed(double x, int digits, const char* minus = "-") {
  char buffer[400];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, std::abs(x));
  const bool all_zero = std::string(buffer).find_first_not_of("0.") == std::string::npos;
  return (x < 0 && !all_zero ? std::string(minus) : std::string()) + buffer;
}

// A Python string literal in double quotes. Non-ASCII UTF-8 stays as it is (Python 3 source is
// UTF-8); quotes, backslashes and control characters are escaped.
std::string py_string(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// Text for an XML attribute or element.
std::string xml_text(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += (c < 0x20 || c == 0x7f) ? ' ' : ch;  // XML 1.0 has no control characters
    }
  }
  return out;
}

// A token label on one comment line: line breaks and control characters become spaces.
std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
  return out;
}

// Number of code points of UTF-8 text (for width estimates).
int utf8_length(const std::string& s) {
  int count = 0;
  for (const char ch : s) count += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return count;
}

// At most `max_chars` code points, with "…" when cut.
std::string clip_label(const std::string& s, int max_chars) {
  if (utf8_length(s) <= max_chars) return s;
  std::string out;
  int count = 0;
  for (const char ch : s) {
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80 && ++count > max_chars - 1) break;
    out += ch;
  }
  return out + "…";
}

std::string join_labels(const std::vector<std::string>& tokens, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? separator : "") + one_line(tokens[i]);
  return out;
}

// A matrix as a Python list of rows, one row per line:
//   [
//       [1.0, 0.0],
//       [0.5, 2.0],
//   ]
std::string py_rows(const attn::Matrix& m) {
  std::string out = "[\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out += "    [";
    for (Eigen::Index j = 0; j < m.cols(); ++j) out += (j ? ", " : "") + exact(m(i, j));
    out += "],\n";
  }
  return out + "]";
}

std::string py_mask_rows(const attn::MaskMatrix& m) {
  std::string out = "[\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out += "    [";
    for (Eigen::Index j = 0; j < m.cols(); ++j) out += std::string(j ? ", " : "") + (m(i, j) ? "1" : "0");
    out += "],\n";
  }
  return out + "]";
}

// tokens = ["the", "cat", ...], wrapped before 100 columns.
std::string py_tokens(const std::vector<std::string>& tokens) {
  std::string out = "tokens = [";
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string item = py_string(tokens[i]) + (i + 1 < tokens.size() ? ", " : "");
    if (out.size() - line_start + item.size() > 99 && i > 0) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += "\n";
      line_start = out.size();
      out += "    ";
    }
    out += item;
  }
  return out + "]\n";
}

std::string dims(long long rows, long long cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 2. Names
// ---------------------------------------------------------------------------------------------

struct StageName {
  ExportStage stage;
  const char* name;
};
constexpr StageName kStages[] = {
    {ExportStage::Weights, "weights"},
    {ExportStage::Scores, "scores"},
    {ExportStage::Scaled, "scaled"},
    {ExportStage::Q, "Q"},
    {ExportStage::K, "K"},
    {ExportStage::V, "V"},
    {ExportStage::Output, "output"},
};

// "√d_k = √2", "1 (no scaling)", "T = 0.5" — the divisor s of the scene, for comments and titles.
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

// The stage's formula in plain Unicode (SVG titles).
std::string stage_formula_plain(const Scene& s, ExportStage stage);
// With RoPE the scores use the turned Q and K, while the Q and K stages show them unturned.
std::string heads_note(const Scene& s, ExportStage stage) {
  if (s.heads > 1 && stage == ExportStage::Weights) return " (mean of " + std::to_string(s.heads) + " heads)";
  if (s.heads > 1 && (stage == ExportStage::Scores || stage == ExportStage::Scaled))
    return " (head 1 of " + std::to_string(s.heads) + ")";
  if (s.Wo.size() && stage == ExportStage::Output) return " · Wo";
  return {};
}

std::string stage_formula(const Scene& s, ExportStage stage) {
  const std::string f = stage_formula_plain(s, stage) + heads_note(s, stage);
  if (!s.rope_on) return f;
  if (stage == ExportStage::Q || stage == ExportStage::K) return f + " (before RoPE)";
  if (stage == ExportStage::Scores || stage == ExportStage::Scaled || stage == ExportStage::Weights)
    return f + " (Q, K turned by RoPE)";
  return f;
}

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
std::string stage_formula_tex_plain(const Scene& s, ExportStage stage);
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

// The stages a figure or matrix shows: the full Q, K, V (before any RoPE), the weights (with heads,
// their mean, as the CLI's "weights"), the final output (after any Wo); scores and scaled of head 0.
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

// Column labels: the keys' tokens for n×n stages, dimensions 1…d otherwise.
std::vector<std::string> column_labels(const Scene& s, ExportStage stage, Eigen::Index cols) {
  if (square_stage(stage)) return s.tokens;
  std::vector<std::string> labels;
  for (Eigen::Index j = 0; j < cols; ++j) labels.push_back(std::to_string(j + 1));
  return labels;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 3. Scripts
// ---------------------------------------------------------------------------------------------

// Lines shared by both scripts: what the scene is.
std::string script_summary(const Scene& s) {
  std::string text = std::to_string(s.n()) + (s.n() == 1 ? " token" : " tokens") +
                     ", d_k = " + std::to_string(s.d_k()) + ", d_v = " + std::to_string(s.d_v());
  if (s.mode == Mode::Projected)
    text += ", d_model = " + std::to_string(s.X.cols()) + " (projected: Q = X Wq, …)";
  if (s.heads > 1) text += ", " + std::to_string(s.heads) + " heads";
  if (s.Wo.size()) text += ", output map Wo (d_out = " + std::to_string(s.Wo.cols()) + ")";
  text += ".\nScaling: " + scale_words(s) + ". Causal mask: " + (s.causal ? "on" : "off") +
          ". Custom mask: " + (s.mask.size() ? "yes" : "no") + ".";
  if (s.rope_on)
    text += "\nRoPE: base " + exact(s.rope.base) + ", " +
            (s.rope.layout == attn::RopeLayout::Half ? "half" : "interleaved") +
            " layout, token 0 at position " + std::to_string(s.rope.offset) + ".";
  return text;
}

// The two scripts differ in a handful of spellings; everything else is one text.
struct Lang {
  bool torch = false;
  std::string matrix(const attn::Matrix& m) const {
    return torch ? "torch.tensor(" + py_rows(m) + ", dtype=torch.float64)"
                 : "np.array(" + py_rows(m) + ", dtype=np.float64)";
  }
  const char* cat() const { return torch ? "torch.cat" : "np.concatenate"; }
  const char* axis1() const { return torch ? "dim=1" : "axis=1"; }
  const char* sqrt() const { return torch ? "math.sqrt" : "np.sqrt"; }
};

// The header, imports, tokens and the input matrices (the Vectors panel), up to d_k.
std::string script_inputs(const Scene& s, const Lang& L) {
  std::string py;
  const char* what = L.torch ? "PyTorch" : "NumPy";
  py += "#!/usr/bin/env python3\n";
  py += std::string("\"\"\"An Attention Lab scene in ") + what +
        ": Y = softmax(Q Kᵀ / s + M) V, step by step.\n\n";
  py += script_summary(s) + "\n\n";
  py += std::string("Run it to print the weights and the output, or import / exec it: `weights` (n×n") +
        (s.heads > 1 ? ", the mean over heads" : "") + ") and\n`output` (n×" +
        (s.Wo.size() ? "d_out" : "d_v") + ") are " + (L.torch ? "torch.float64 tensors" : "float64 arrays") +
        " equal to what the app shows. Every number below\nreads back as exactly the app's double. "
        "Exported by Attention Lab (attention-lab-cli --export " +
        (L.torch ? "pytorch" : "numpy") + ").\n\"\"\"\n";
  if (L.torch)
    py += "import math\n\nimport torch\nfrom torch import nn\n\n";
  else
    py += s.rope_on ? "import math\n\nimport numpy as np\n\n" : "import numpy as np\n\n";
  py += "# Row i of every matrix below belongs to token i.\n";
  py += py_tokens(s.tokens);
  py += "n = len(tokens)\n\n";

  py += "# --- Inputs (the Vectors panel): one row per token\n";
  if (s.mode == Mode::Direct) {
    py += "# Q: what each token looks for (n×d_k = " + dims(s.Q.rows(), s.Q.cols()) + ")\n";
    py += "Q = " + L.matrix(s.Q) + "\n";
    py += "# K: what each token offers to be found by (n×d_k = " + dims(s.K.rows(), s.K.cols()) + ")\n";
    py += "K = " + L.matrix(s.K) + "\n";
    py += "# V: what each token gives when found (n×d_v = " + dims(s.V.rows(), s.V.cols()) + ")\n";
    py += "V = " + L.matrix(s.V) + "\n";
  } else {
    py += "# X: the tokens' input vectors (n×d_model = " + dims(s.X.rows(), s.X.cols()) + ")\n";
    py += "X = " + L.matrix(s.X) + "\n";
    py += "# Learned projections: Wq, Wk (d_model×d_k = " + dims(s.Wq.rows(), s.Wq.cols()) +
          "), Wv (d_model×d_v = " + dims(s.Wv.rows(), s.Wv.cols()) + ")\n";
    py += "Wq = " + L.matrix(s.Wq) + "\n";
    py += "Wk = " + L.matrix(s.Wk) + "\n";
    py += "Wv = " + L.matrix(s.Wv) + "\n";
  }
  if (s.Wo.size()) {
    py += "# Wo: the output map, applied to the concatenated head outputs (d_v×d_out = " +
          dims(s.Wo.rows(), s.Wo.cols()) + ")\n";
    py += "Wo = " + L.matrix(s.Wo) + "\n";
  }
  py += "\n";
  return py;
}

// Q, K, V from X in projected mode: plain products (NumPy) or bias-free nn.Linear layers (PyTorch).
std::string script_projections(const Scene& s, const Lang& L) {
  if (s.mode != Mode::Projected) return {};
  std::string py;
  if (!L.torch) {
    py += "# Three linear maps of the same tokens: what each looks for, offers, and gives.\n";
    py += "Q = X @ Wq  # n×d_k\n";
    py += "K = X @ Wk  # n×d_k\n";
    py += "V = X @ Wv  # n×d_v\n\n";
    return py;
  }
  const std::string d_model = std::to_string(s.X.cols());
  py += "# Three learned linear maps without bias. nn.Linear keeps its weight as out×in and computes\n";
  py += "# x Wᵀ, so it holds the transpose of the scene's d_model×d_out matrix.\n";
  for (const auto& [name, m] : {std::pair{"q", &s.Wq}, {"k", &s.Wk}, {"v", &s.Wv}})
    py += std::string(name) + "_proj = nn.Linear(" + d_model + ", " + std::to_string(m->cols()) +
          ", bias=False, dtype=torch.float64)\n";
  py += "with torch.no_grad():\n";
  py += "    q_proj.weight.copy_(Wq.T)\n";
  py += "    k_proj.weight.copy_(Wk.T)\n";
  py += "    v_proj.weight.copy_(Wv.T)\n\n";
  py += "Q = q_proj(X)  # n×d_k, = X @ Wq\n";
  py += "K = k_proj(X)  # n×d_k\n";
  py += "V = v_proj(X)  # n×d_v\n\n";
  return py;
}

// The RoPE step (core/rope.hpp): a function, then Q and K turned (each head's columns on their own).
// The angles and their cos/sin come from Python's math module — the C library's pow, cos and sin,
// as the app uses — so the turned vectors match the app's to the last bit or so.
std::string rope_step(const Scene& s, const Lang& L) {
  const bool half = s.rope.layout == attn::RopeLayout::Half;
  std::string py;
  py += "# --- RoPE: turn each query and key by its position, so q_i · k_j depends on i − j only\n";
  py += "rope_base, rope_offset = " + exact(s.rope.base) + ", " + std::to_string(s.rope.offset) + "\n\n\n";
  py += "def rope(M):\n";
  py += "    \"\"\"Row i sits at position p = rope_offset + i; its coordinate pair c turns by the angle\n";
  py += "    θ = p · rope_base^(−2c/d). Pairs (" +
        std::string(half ? "c, c + d/2): the \"half\" layout (GPT-NeoX, Hugging Face Llama)"
                         : "2c, 2c+1): the \"interleaved\" layout (RoFormer)") +
        ".\"\"\"\n";
  py += "    n_rows, d = M.shape\n";
  py += "    pairs = d // 2\n";
  if (!L.torch) {
    py += "    out = M.copy()\n";
    py += "    for i in range(n_rows):\n";
    py += "        p = float(rope_offset + i)\n";
    py += "        for c in range(pairs):\n";
    py += "            theta = p * math.pow(rope_base, -2.0 * c / d)\n";
    py += std::string("            a, b = ") + (half ? "c, c + pairs" : "2 * c, 2 * c + 1") + "\n";
    py += "            x, y = M[i, a], M[i, b]\n";
    py += "            out[i, a] = x * math.cos(theta) - y * math.sin(theta)\n";
    py += "            out[i, b] = x * math.sin(theta) + y * math.cos(theta)\n";
    py += "    return out\n\n\n";
  } else {
    py += "    theta = [[float(rope_offset + i) * math.pow(rope_base, -2.0 * c / d) for c in range(pairs)]\n";
    py += "             for i in range(n_rows)]  # n×d/2 angles\n";
    py += "    cos = torch.tensor([[math.cos(t) for t in row] for row in theta], dtype=torch.float64)\n";
    py += "    sin = torch.tensor([[math.sin(t) for t in row] for row in theta], dtype=torch.float64)\n";
    py += std::string("    a = ") + (half ? "torch.arange(pairs)" : "torch.arange(pairs) * 2") +
          "  # first coordinate of each pair\n";
    py += std::string("    b = ") + (half ? "a + pairs" : "a + 1") + "  # second coordinate\n";
    py += "    x, y = M[:, a], M[:, b]\n";
    py += "    out = M.clone()\n";
    py += "    out[:, a] = x * cos - y * sin\n";
    py += "    out[:, b] = x * sin + y * cos\n";
    py += "    return out\n\n\n";
  }
  if (s.heads == 1) {
    py += "Q_rope = rope(Q)  # n×d_k: the scores below use the turned queries and keys\n";
    py += "K_rope = rope(K)\n\n";
  } else {
    py += "# Each head's columns turn on their own, as a head of size d_k/h.\n";
    py += std::string("Q_rope = ") + L.cat() +
          "([rope(Q[:, t * d_head:(t + 1) * d_head]) for t in range(h)], " + L.axis1() + ")\n";
    py += std::string("K_rope = ") + L.cat() +
          "([rope(K[:, t * d_head:(t + 1) * d_head]) for t in range(h)], " + L.axis1() + ")\n\n";
  }
  return py;
}

// (2) the divisor s; per head √(d_k/h) with heads.
std::string scale_step(const Scene& s, const Lang& L) {
  std::string py = "# --- (2) Scaling: divide by s so softmax does not saturate\n";
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      py += "s = 1.0  # scale \"none\": the raw scores go into softmax\n";
      break;
    case attn::ScaleMode::SqrtDk:
      if (s.heads > 1)
        py += std::string("s = ") + L.sqrt() +
              "(d_head)  # √(d_k/h): each head divides by its own key size, as nn.MultiheadAttention\n";
      else
        py += std::string("s = ") + L.sqrt() + "(d_k)  # √d_k, as in \"Attention Is All You Need\"\n";
      break;
    case attn::ScaleMode::Temperature:
      py += "s = " + exact(s.scale.temperature) + "  # the temperature T: small = sharp, large = flat\n";
      break;
  }
  return py;
}

// (3) the allowed-mask, shared by every head.
std::string mask_step(const Scene& s, const Lang& L) {
  std::string py = "# --- (3) Mask M: allowed[i, j] is True when query i may attend to key j\n";
  py +=
      L.torch ? "allowed = torch.ones(n, n, dtype=torch.bool)\n" : "allowed = np.ones((n, n), dtype=bool)\n";
  if (s.causal)
    py += L.torch
              ? "allowed &= torch.tril(torch.ones(n, n, dtype=torch.bool))  # causal: token i sees tokens "
                "0..i\n"
              : "allowed &= np.tril(np.ones((n, n), dtype=bool))  # causal: token i sees tokens 0..i only\n";
  else
    py += "# (causal: off, so every token may see every token)\n";
  if (s.mask.size()) {
    py += std::string("mask = ") + (L.torch ? "torch.tensor(" : "np.array(") + py_mask_rows(s.mask) +
          ")  # the custom mask: 1 = may attend\n";
    py += "allowed &= mask == 1  # ANDed with the causal mask\n";
  } else {
    py += "# (no custom mask)\n";
  }
  return py + "\n";
}

// (4) row-softmax over the allowed cells, with the app's rule for fully masked rows. `indent` is
// prepended to every line; `scaled`/`weights` name the variables.
std::string softmax_lines(const Lang& L, const std::string& indent, const std::string& scaled,
                          const std::string& weights) {
  std::string py;
  if (!L.torch) {
    py += indent + weights + " = np.zeros((n, n))\n";
    py += indent + "for i in range(n):\n";
    py += indent + "    if not allowed[i].any():\n";
    py += indent + "        # Every key is masked for query i. Plain softmax of a row of −∞ is 0/0 = NaN;\n";
    py += indent + "        # Attention Lab gives such a row zero weights, so its output row is zero too.\n";
    py += indent + "        continue\n";
    py += indent + "    row = np.where(allowed[i], " + scaled + "[i], -np.inf)  # scaled + M\n";
    py += indent +
          "    e = np.exp(row - row.max())  # minus the row max: every exp(·) ≤ 1; masked: exp(−∞) = 0\n";
    py += indent + "    " + weights + "[i] = e / e.sum()  # the row sums to 1\n";
  } else {
    py += indent + weights + " = torch.softmax(" + scaled +
          ".masked_fill(~allowed, float(\"-inf\")), dim=-1)\n";
    py +=
        indent + "# A query whose every key is masked has a row of −∞, and softmax gives 0/0 = NaN there.\n";
    py += indent + "# Attention Lab gives such a row zero weights, so its output row is zero too:\n";
    py += indent + weights + " = torch.where(allowed.any(dim=-1, keepdim=True), " + weights +
          ", torch.zeros_like(" + weights + "))\n";
  }
  return py;
}

std::string script_footer(const Lang& L) {
  std::string py = "if __name__ == \"__main__\":\n";
  if (L.torch) {
    py += "    torch.set_printoptions(precision=4, sci_mode=False, linewidth=120)\n";
  } else {
    py += "    np.set_printoptions(precision=4, suppress=True, linewidth=120)\n";
  }
  py += "    print(\"tokens:\", tokens)\n";
  py += "    print(\"weights (rows: queries, columns: keys):\")\n";
  py += std::string("    print(weights") + (L.torch ? ".detach()" : "") + ")\n";
  py += "    print(\"output:\")\n";
  py += std::string("    print(output") + (L.torch ? ".detach()" : "") + ")\n";
  return py;
}

// One head (the lessons): every stage written out at the top level, as the panels show them.
std::string single_head_script(const Scene& s, const Lang& L) {
  std::string py = script_inputs(s, L) + script_projections(s, L);
  py += "d_k = Q.shape[1]\n\n";
  if (s.rope_on) py += rope_step(s, L);
  py += "# --- (1) Scores QKᵀ: scores[i, j] = q_i · k_j, every query against every key (n×n)\n";
  py += s.rope_on ? "scores = Q_rope @ K_rope.T\n\n" : "scores = Q @ K.T\n\n";
  py += scale_step(s, L);
  py += "scaled = scores / s\n\n";
  py += mask_step(s, L);
  py += "# --- (4) Weights: softmax of each row of scaled + M, where M is 0 (allowed) or −∞ (masked)\n";
  py += softmax_lines(L, "", "scaled", "weights") + "\n";
  if (s.Wo.size() == 0) {
    py += "# --- (5) Output: output[i] = Σ_j weights[i, j] v_j, a blend of the value rows (n×d_v)\n";
    py += "output = weights @ V\n\n";
  } else {
    py +=
        "# --- (5) Attention output: concat[i] = Σ_j weights[i, j] v_j, a blend of the value rows (n×d_v)\n";
    py += "concat = weights @ V\n\n";
    py += "# --- (6) Output map: output = concat Wo (n×d_out)\n";
    py += "output = concat @ Wo\n\n";
  }
  return py + script_footer(L);
}

// Several heads, written out: head t attends over its own columns, the outputs are concatenated.
std::string multi_head_script(const Scene& s, const Lang& L, const std::string& why_not_mha = {}) {
  std::string py = script_inputs(s, L) + script_projections(s, L);
  py += "d_k, d_v = Q.shape[1], V.shape[1]\n";
  py += "h = " + std::to_string(s.heads) +
        "  # heads: head t uses columns [t·d_k/h, (t+1)·d_k/h) of Q and K, [t·d_v/h, …) of V\n";
  py += "d_head, dv_head = d_k // h, d_v // h\n\n";
  if (!why_not_mha.empty()) py += "# (Not nn.MultiheadAttention: " + why_not_mha + ")\n\n";
  if (s.rope_on) py += rope_step(s, L);
  py += scale_step(s, L) + "\n";
  py += mask_step(s, L);
  py += "\ndef softmax_rows(scaled):\n";
  py +=
      "    \"\"\"(4) Softmax of each row of scaled + M, where M is 0 (allowed) or −∞ (masked). n×n.\"\"\"\n";
  py += softmax_lines(L, "    ", "scaled", "weights");
  py += "    return weights\n\n\n";
  const char* q = s.rope_on ? "Q_rope" : "Q";
  const char* k = s.rope_on ? "K_rope" : "K";
  py += "head_scores, head_weights, head_outputs = [], [], []\n";
  py += "for t in range(h):\n";
  py += "    cols = slice(t * d_head, (t + 1) * d_head)  # head t's query and key columns\n";
  py += "    vcols = slice(t * dv_head, (t + 1) * dv_head)  # its value columns\n";
  py += std::string("    scores_t = ") + q + "[:, cols] @ " + k + "[:, cols].T  # (1) n×n\n";
  py += "    weights_t = softmax_rows(scores_t / s)  # (2) scaled, (4) weights: n×n\n";
  py += "    head_scores.append(scores_t)\n";
  py += "    head_weights.append(weights_t)\n";
  py += "    head_outputs.append(weights_t @ V[:, vcols])  # (5) Y_t = A_t V_t: n×d_v/h\n\n";
  py += "# --- Concatenate the heads' outputs: [Y_0 | … | Y_{h−1}] (n×d_v)\n";
  py += std::string("concat = ") + L.cat() + "(head_outputs, " + L.axis1() + ")\n";
  py += s.Wo.size() ? "output = concat @ Wo  # the output map (n×d_out)\n"
                    : "output = concat  # (no output map Wo)\n";
  py += "# The mean of the heads' weights (n×n): what nn.MultiheadAttention returns by default.\n";
  py += "weights = sum(head_weights) / h\n\n";
  return py + script_footer(L);
}

// Why nn.MultiheadAttention cannot express a multi-head scene (empty when it can): its queries,
// keys and values all have embed_dim E columns, its projections map E → E, and it has no RoPE slot.
std::string mha_misfit(const Scene& s) {
  const int d_k = s.d_k(), d_v = s.d_v();
  if (d_k != d_v)
    return "it needs d_k = d_v, here " + std::to_string(d_k) + " and " + std::to_string(d_v) + ".";
  if (s.Wo.size() && s.Wo.cols() != d_v)
    return "its out_proj is E×E, here Wo is " + dims(s.Wo.rows(), s.Wo.cols()) + ".";
  if (s.mode == Mode::Projected && s.X.cols() != d_k)
    return "its input has E = d_k columns, here d_model = " + std::to_string(s.X.cols()) + ".";
  if (s.mode == Mode::Projected && s.rope_on)
    return "RoPE turns Q and K between its projection and attention.";
  return {};
}

// Several heads as torch.nn.MultiheadAttention with every weight set from the scene.
std::string mha_script(const Scene& s) {
  const Lang L{true};
  std::string py = script_inputs(s, L);
  const bool direct = s.mode == Mode::Direct;
  py += "d_k, d_v = " + std::to_string(s.d_k()) + ", " + std::to_string(s.d_v()) + "\n";
  py += "h = " + std::to_string(s.heads) +
        "  # heads: head t uses columns [t·d_k/h, (t+1)·d_k/h) of Q, K and V\n";
  py += "d_head = d_k // h\n";
  py += "E = d_k  # nn.MultiheadAttention's embed_dim: queries, keys and values all have E columns\n\n";
  if (direct) {
    if (s.rope_on) py += rope_step(s, L);
  }
  py += scale_step(s, L);
  if (s.scale.mode != attn::ScaleMode::SqrtDk) {
    py += "# nn.MultiheadAttention always divides by √(E/h); to divide by s instead, its query map is\n";
    py += "# multiplied by √(E/h) / s.\n";
    py += "q_factor = math.sqrt(d_head) / s\n";
  }
  py += "\n" + mask_step(s, L);
  py += "# --- (1)–(5) per head, concat and output map, in one module\n";
  py += "mha = nn.MultiheadAttention(E, h, bias=False, batch_first=True, dtype=torch.float64)\n";
  py += "with torch.no_grad():\n";
  py += "    # in_proj_weight stacks the query, key and value maps as out×in: [Wqᵀ; Wkᵀ; Wvᵀ] (3E×E).\n";
  const std::string factor = s.scale.mode != attn::ScaleMode::SqrtDk ? " * q_factor" : "";
  if (direct) {
    py += "    # The scene gives Q, K, V directly, so each map is the identity.\n";
    py += "    eye = torch.eye(E, dtype=torch.float64)\n";
    py += "    mha.in_proj_weight.copy_(torch.cat([eye" + factor + ", eye, eye]))\n";
  } else {
    py += "    mha.in_proj_weight.copy_(torch.cat([Wq.T" + factor + ", Wk.T, Wv.T]))\n";
  }
  if (s.Wo.size())
    py += "    mha.out_proj.weight.copy_(Wo.T)  # out_proj computes concat · weightᵀ = concat Wo\n";
  else
    py += "    mha.out_proj.weight.copy_(torch.eye(E, dtype=torch.float64))  # no output map in the scene\n";
  py += "\n";
  std::string q = "X", k = "X", v = "X";
  if (direct) {
    q = s.rope_on ? "Q_rope" : "Q";
    k = s.rope_on ? "K_rope" : "K";
    v = "V";
  }
  py += "# Batch of one; attn_mask is True where attention is NOT allowed.\n";
  py += "out, mean_weights = mha(" + q + "[None], " + k + "[None], " + v +
        "[None], attn_mask=~allowed, need_weights=True,\n"
        "                        average_attn_weights=True)\n";
  py += "output, weights = out[0], mean_weights[0]  # n×d_out and the mean of the heads' weights, n×n\n";
  py += "# A query whose every key is masked gets NaN from softmax (0/0) in every head. Attention Lab\n";
  py += "# gives such a row zero weights and so a zero output:\n";
  py += "row_ok = allowed.any(dim=-1, keepdim=True)\n";
  py += "weights = torch.where(row_ok, weights, torch.zeros_like(weights))\n";
  py += "output = torch.where(row_ok, output, torch.zeros_like(output))\n\n";
  return py + script_footer(L);
}

std::string export_numpy_text(const Scene& s) {
  const Lang L{false};
  return s.heads > 1 ? multi_head_script(s, L) : single_head_script(s, L);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 4. PyTorch script
// ---------------------------------------------------------------------------------------------

std::string export_pytorch_text(const Scene& s) {
  const Lang L{true};
  if (s.heads == 1) return single_head_script(s, L);
  const std::string misfit = mha_misfit(s);
  return misfit.empty() ? mha_script(s) : multi_head_script(s, L, misfit);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 5. LaTeX bmatrix
// ---------------------------------------------------------------------------------------------

std::string export_latex_text(const Scene& s, ExportStage stage, int digits) {
  const attn::Result r = figure_stages(s);
  const attn::Matrix& m = stage_matrix(r, stage);
  const bool square = square_stage(stage);
  std::string tex;
  tex += "% Attention Lab: " + stage_formula_tex(s, stage) + ", " + std::to_string(m.rows()) + " x " +
         std::to_string(m.cols()) + ", " + std::to_string(digits) + " decimals\n";
  tex += "% rows (queries): " + join_labels(s.tokens, ", ") + "\n";
  if (square)
    tex += "% columns (keys): " + join_labels(s.tokens, ", ") + "\n";
  else
    tex += "% columns: dimensions 1.." + std::to_string(m.cols()) + "\n";
  tex += "% needs \\usepackage{amsmath}\n";
  if (m.cols() > 10)  // amsmath's matrices take 10 columns unless told otherwise
    tex += "\\setcounter{MaxMatrixCols}{" + std::to_string(m.cols()) + "}\n";
  tex += "\\begin{bmatrix}\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (j) tex += " & ";
      if (stage == ExportStage::Scaled && !r.allowed(i, j))
        tex += "-\\infty";
      else
        tex += fixed(m(i, j), digits);
    }
    tex += i + 1 < m.rows() ? " \\\\\n" : "\n";
  }
  tex += "\\end{bmatrix}\n";
  return tex;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 6. SVG heatmap
// ---------------------------------------------------------------------------------------------

// Beyond this many rows or columns the cells are one embedded PNG (a pixel per cell) instead of
// one <rect> each: 1024×1024 rects would be tens of megabytes.
constexpr Eigen::Index kMaxVectorCells = 64;

// Figure colours: a white page (for papers and slides) and the app's own hatch for masked cells
// (ui/theme.hpp palette::kGap behind palette::kHatch stripes).
constexpr const char* kInk = "#1E222A";
constexpr const char* kInkDim = "#5A6270";
constexpr const char* kHatchBack = "#1E222A";
constexpr const char* kHatchStripe = "#5C6474";
constexpr unsigned char kHatchFlat[3] = {0x5C, 0x64, 0x74};  // masked cells inside the PNG

std::string hex_color(const std::uint8_t* c) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02X%02X%02X", c[0], c[1], c[2]);
  return buffer;
}

// Dark or light text on a cell, whichever contrasts more (WCAG luminance; as ui::contrasting_text).
const char* text_on(const std::uint8_t* c) {
  auto linear = [](std::uint8_t channel) {
    const double v = channel / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const double luminance = 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  return luminance > 0.18 ? "#14161C" : "#FAFAFC";
}

std::string svg_number(double x) {  // coordinates: at most 2 decimals, no trailing zeros
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", x);
  std::string s = buffer;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string base64(const std::vector<unsigned char>& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned v = unsigned(bytes[i]) << 16 | (i + 1 < bytes.size() ? unsigned(bytes[i + 1]) << 8 : 0u) |
                       (i + 2 < bytes.size() ? unsigned(bytes[i + 2]) : 0u);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

struct Heat {
  const attn::Matrix* values = nullptr;
  const attn::MaskMatrix* allowed = nullptr;  // n×n stages: hatched where 0; null for n×d stages
  Colormap colormap = Colormap::Viridis;
  float lo = 0, hi = 1;
  bool masked(Eigen::Index i, Eigen::Index j) const { return allowed && !(*allowed)(i, j); }
  // The cell's table entry, computed as heatmap.frag does (float t, ⌊255 t + ½⌋).
  const std::uint8_t* color(Eigen::Index i, Eigen::Index j) const {
    const float span = std::max(hi - lo, 1e-12f);
    return colormap_entry(colormap, (float((*values)(i, j)) - lo) / span);
  }
};

// What the app's heatmaps do: weights in viridis over [0, 1]; signed stages diverging and
// symmetric around 0 over the visible (allowed) cells (heatmap_panel.cpp's heatmap_data).
Heat heat_of(const attn::Result& r, ExportStage stage) {
  Heat h;
  h.values = &stage_matrix(r, stage);
  if (square_stage(stage)) h.allowed = &r.allowed;
  if (stage == ExportStage::Weights) return h;
  h.colormap = Colormap::Diverging;
  double largest = 0;
  for (Eigen::Index i = 0; i < h.values->rows(); ++i)
    for (Eigen::Index j = 0; j < h.values->cols(); ++j)
      if (!h.masked(i, j)) largest = std::max(largest, std::abs((*h.values)(i, j)));
  const float span = float(largest > 1e-9 ? largest : 1.0);
  h.lo = -span;
  h.hi = span;
  return h;
}

// Decimals of the numbers inside cells: `digits` or fewer until "−x.yyy" fits; −1 = none fit.
int cell_decimals(const attn::Matrix& m, double cell, double char_w, int digits) {
  double largest = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) largest = std::max(largest, std::abs(m(i, j)));
  const int int_digits = largest < 1 ? 1 : int(std::floor(std::log10(largest))) + 1;
  for (int d = digits; d >= std::min(digits, 1); --d) {
    const int chars = 1 + int_digits + (d ? 1 + d : 0);  // sign, integer part, point, decimals
    if (chars * char_w + 6 <= cell) return d;
  }
  return -1;
}

std::string export_svg_text(const Scene& s, ExportStage stage, int digits) {
  const attn::Result r = figure_stages(s);
  const Heat heat = heat_of(r, stage);
  const attn::Matrix& m = *heat.values;
  const Eigen::Index rows = m.rows(), cols = m.cols();
  const bool as_image = std::max(rows, cols) > kMaxVectorCells;
  const std::vector<std::string> col_labels = column_labels(s, stage, cols);

  // --- geometry (user units = CSS pixels) ---
  constexpr double kPad = 16, kFont = 12, kSmall = 10, kCharW = 0.62 * kFont, kMaxLabelChars = 14;
  const double cell = std::min(56.0, 480.0 / double(std::max(rows, cols)));
  const double grid_w = cell * double(cols), grid_h = cell * double(rows);
  // Show every k-th label when cells are smaller than the text.
  const Eigen::Index row_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(13.0 / cell)));
  Eigen::Index col_step = row_step;
  auto longest = [&](const std::vector<std::string>& labels) {
    int chars = 1;
    for (const std::string& label : labels)
      chars = std::max(chars, utf8_length(clip_label(label, int(kMaxLabelChars))));
    return chars;
  };
  const double row_label_w = longest(s.tokens) * kCharW + 8;
  const int col_chars = longest(col_labels);
  const bool col_upright = col_chars * kCharW + 4 <= cell * double(col_step);
  // Slanted labels need about a line height / sin(slant) between neighbours.
  if (!col_upright) col_step = std::max<Eigen::Index>(1, Eigen::Index(std::ceil(17.0 / cell)));
  constexpr double kSlant = 55.0,
                   kPi = 3.14159265358979323846;  // degrees: long key labels are drawn rising to the right
  const double col_label_h =
      col_upright ? kFont + 6 : col_chars * kCharW * std::sin(kSlant * kPi / 180.0) + kFont + 4;
  const double title_h = 2 * kFont + 14;
  const double grid_x = kPad + row_label_w;
  const double grid_y = kPad + title_h + col_label_h;
  const double bar_w = std::max(grid_w, 160.0), bar_h = 10;
  const double bar_y = grid_y + grid_h + 14;
  bool any_masked = false;
  for (Eigen::Index i = 0; i < rows && heat.allowed; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) any_masked = any_masked || heat.masked(i, j);
  const double swatch_w = any_masked ? 130 : 0;
  const std::string title = stage_formula(s, stage);
  const std::string subtitle =
      std::to_string(rows) + " × " + std::to_string(cols) +
      (square_stage(stage) ? " · rows: queries · columns: keys" : " · rows: tokens · columns: dimensions") +
      (stage == ExportStage::Weights || stage == ExportStage::Scaled ? " · " + scale_words(s) : "");
  const double width = std::max({grid_x + std::max(bar_w, grid_w) + swatch_w + kPad,
                                 kPad + utf8_length(title) * 0.62 * 14 + kPad,
                                 kPad + utf8_length(subtitle) * 0.62 * kSmall + kPad});
  const double height = bar_y + bar_h + kSmall + 8 + kPad;

  std::string svg;
  svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  // (An XML comment may not contain "--", so no command-line flags here.)
  svg += "<!-- Attention Lab: " + xml_text(title) + ", stage " + export_stage_name(stage) + " -->\n";
  svg +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
      "version=\"1.1\" width=\"" +
      svg_number(width) + "\" height=\"" + svg_number(height) + "\" viewBox=\"0 0 " + svg_number(width) +
      " " + svg_number(height) +
      "\" font-family=\"Inter, 'DejaVu Sans', Helvetica, Arial, sans-serif\" font-size=\"" +
      svg_number(kFont) + "\">\n";
  svg +=
      "<defs>\n<pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" +
      std::string(kHatchBack) + "\"/><rect width=\"2\" height=\"6\" fill=\"" + kHatchStripe +
      "\"/></pattern>\n</defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14) + "\" font-size=\"14\" fill=\"" +
         kInk + "\" font-weight=\"bold\">" + xml_text(title) + "</text>\n";
  svg += "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kPad + 14 + kSmall + 8) +
         "\" font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" + xml_text(subtitle) +
         "</text>\n";

  // --- labels: queries (tokens) on the left, keys or dimensions on top ---
  svg += "<g fill=\"" + std::string(kInk) + "\">\n";
  for (Eigen::Index i = 0; i < rows; i += row_step) {
    svg += "<text class=\"row-label\" x=\"" + svg_number(grid_x - 6) + "\" y=\"" +
           svg_number(grid_y + (double(i) + 0.5) * cell) +
           "\" text-anchor=\"end\" dominant-baseline=\"central\">" +
           xml_text(clip_label(s.tokens[std::size_t(i)], int(kMaxLabelChars))) + "</text>\n";
  }
  for (Eigen::Index j = 0; j < cols; j += col_step) {
    const double x = grid_x + (double(j) + 0.5) * cell, y = grid_y - 6;
    const std::string label = xml_text(clip_label(col_labels[std::size_t(j)], int(kMaxLabelChars)));
    if (col_upright)
      svg += "<text class=\"col-label\" x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) +
             "\" text-anchor=\"middle\">" + label + "</text>\n";
    else
      svg += "<text class=\"col-label\" transform=\"translate(" + svg_number(x) + "," + svg_number(y) +
             ") rotate(-" + svg_number(kSlant) + ")\">" + label + "</text>\n";
  }
  svg += "</g>\n";

  // --- cells ---
  if (!as_image) {
    const int decimals = cell_decimals(m, cell, 0.62 * 11, digits);
    const double gap = cell >= 8 ? 1 : 0;
    svg += "<g class=\"cells\">\n";
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index j = 0; j < cols; ++j) {
        const double x = grid_x + double(j) * cell, y = grid_y + double(i) * cell;
        const bool hidden = heat.masked(i, j);
        const std::uint8_t* c = heat.color(i, j);
        const std::string where =
            square_stage(stage)
                ? one_line(s.tokens[std::size_t(i)]) + " → " + one_line(s.tokens[std::size_t(j)])
                : one_line(s.tokens[std::size_t(i)]) + ", " + std::to_string(j + 1);
        svg += "<rect class=\"" + std::string(hidden ? "cell masked" : "cell") + "\" data-row=\"" +
               std::to_string(i) + "\" data-col=\"" + std::to_string(j) + "\" x=\"" +
               svg_number(x + gap / 2) + "\" y=\"" + svg_number(y + gap / 2) + "\" width=\"" +
               svg_number(cell - gap) + "\" height=\"" + svg_number(cell - gap) + "\" fill=\"" +
               (hidden ? std::string("url(#hatch)") : hex_color(c)) + "\"><title>" + xml_text(where) + ": " +
               (hidden ? std::string(stage == ExportStage::Weights ? "masked (0)" : "masked (−∞)")
                       : fixed(m(i, j), 6, "−")) +
               "</title></rect>\n";
        if (!hidden && decimals >= 0)
          svg += "<text x=\"" + svg_number(x + cell / 2) + "\" y=\"" + svg_number(y + cell / 2) +
                 "\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"" +
                 text_on(c) + "\">" + fixed(m(i, j), decimals, "−") + "</text>\n";
      }
    }
    svg += "</g>\n";
  } else {
    // One pixel per cell, scaled up without smoothing; masked cells in the hatch colour (flat).
    std::vector<unsigned char> pixels(std::size_t(rows * cols) * 3);
    for (Eigen::Index i = 0; i < rows; ++i) {
      for (Eigen::Index j = 0; j < cols; ++j) {
        unsigned char* p = &pixels[std::size_t(i * cols + j) * 3];
        const std::uint8_t* c = heat.masked(i, j) ? kHatchFlat : heat.color(i, j);
        std::copy(c, c + 3, p);
      }
    }
    std::vector<unsigned char> png;
    stbi_write_png_to_func(append_bytes, &png, int(cols), int(rows), 3, pixels.data(), int(cols) * 3);
    svg += "<image class=\"cells-image\" x=\"" + svg_number(grid_x) + "\" y=\"" + svg_number(grid_y) +
           "\" width=\"" + svg_number(grid_w) + "\" height=\"" + svg_number(grid_h) +
           "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
           "style=\"image-rendering:pixelated\" "
           "xlink:href=\"data:image/png;base64," +
           base64(png) + "\"/>\n";
  }

  // --- colour bar: 64 steps through the same table, lo / middle / hi below ---
  svg += "<g class=\"colorbar\" shape-rendering=\"crispEdges\">\n";
  for (int k = 0; k < 64; ++k) {
    const float v = heat.lo + (heat.hi - heat.lo) * float(k) / 63.0f;
    const std::uint8_t* c =
        colormap_entry(heat.colormap, (v - heat.lo) / std::max(heat.hi - heat.lo, 1e-12f));
    svg += "<rect x=\"" + svg_number(grid_x + bar_w * k / 64.0) + "\" y=\"" + svg_number(bar_y) +
           "\" width=\"" + svg_number(bar_w / 64.0 + 0.3) + "\" height=\"" + svg_number(bar_h) +
           "\" fill=\"" + hex_color(c) + "\"/>\n";
  }
  const bool weights = stage == ExportStage::Weights;
  const std::string lo = weights ? "0" : fixed(heat.lo, 2, "−"), hi = weights ? "1" : fixed(heat.hi, 2, "−");
  const std::string mid = weights ? "0.5" : "0";
  const double label_y = bar_y + bar_h + kSmall + 2;
  svg += "<g font-size=\"" + svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">";
  svg += "<text x=\"" + svg_number(grid_x) + "\" y=\"" + svg_number(label_y) + "\">" + lo + "</text>";
  svg += "<text x=\"" + svg_number(grid_x + bar_w / 2) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"middle\">" + mid + "</text>";
  svg += "<text x=\"" + svg_number(grid_x + bar_w) + "\" y=\"" + svg_number(label_y) +
         "\" text-anchor=\"end\">" + hi + "</text></g>\n";
  if (any_masked) {
    const double sx = grid_x + bar_w + 14;
    // The embedded image cannot hatch a pixel: its masked cells are the stripes' colour, flat.
    svg += "<rect x=\"" + svg_number(sx) + "\" y=\"" + svg_number(bar_y - 2) +
           "\" width=\"14\" height=\"14\" fill=\"" +
           (as_image ? hex_color(kHatchFlat) : std::string("url(#hatch)")) + "\"/>";
    svg += "<text x=\"" + svg_number(sx + 19) + "\" y=\"" + svg_number(bar_y + 9) + "\" font-size=\"" +
           svg_number(kSmall) + "\" fill=\"" + kInkDim + "\">" +
           (weights                        ? "masked: 0"
            : stage == ExportStage::Scores ? "masked (−∞ after scaling)"
                                           : "masked: −∞") +
           "</text>\n";
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] 7. Public functions
// ---------------------------------------------------------------------------------------------

std::optional<ExportKind> parse_export_kind(std::string_view name) {
  if (name == "numpy") return ExportKind::NumPy;
  if (name == "pytorch") return ExportKind::PyTorch;
  if (name == "latex") return ExportKind::LaTeX;
  if (name == "svg") return ExportKind::Svg;
  return std::nullopt;
}

std::optional<ExportStage> parse_export_stage(std::string_view name) {
  for (const StageName& s : kStages)
    if (name == s.name) return s.stage;
  return std::nullopt;
}

const char* export_stage_name(ExportStage stage) {
  for (const StageName& s : kStages)
    if (s.stage == stage) return s.name;
  return "weights";
}

const char* export_kind_name(ExportKind kind) {
  switch (kind) {
    case ExportKind::NumPy:
      return "numpy";
    case ExportKind::PyTorch:
      return "pytorch";
    case ExportKind::LaTeX:
      return "latex";
    case ExportKind::Svg:
      return "svg";
  }
  return "numpy";
}

const char* export_extension(ExportKind kind) {
  switch (kind) {
    case ExportKind::NumPy:
    case ExportKind::PyTorch:
      return ".py";
    case ExportKind::LaTeX:
      return ".tex";
    case ExportKind::Svg:
      return ".svg";
  }
  return ".txt";
}

std::string export_numpy(const Scene& s) {
  return export_numpy_text(s);
}
std::string export_pytorch(const Scene& s) {
  return export_pytorch_text(s);
}
std::string export_latex(const Scene& s, ExportStage stage, int digits) {
  return export_latex_text(s, stage, std::clamp(digits, 0, kMaxExportDigits));
}
std::string export_svg(const Scene& s, ExportStage stage, int digits) {
  return export_svg_text(s, stage, std::clamp(digits, 0, kMaxExportDigits));
}

ExportResult export_scene(const Scene& s, std::string_view kind, std::string_view stage, int digits) {
  ExportResult out;
  const std::optional<ExportKind> k = parse_export_kind(kind);
  if (!k) {
    out.error =
        "export: unknown kind \"" + std::string(kind.substr(0, 40)) + "\" (numpy, pytorch, latex, svg)";
    return out;
  }
  const std::optional<ExportStage> st = parse_export_stage(stage);
  if (!st) {
    out.error = "stage: unknown stage \"" + std::string(stage.substr(0, 40)) +
                "\" (weights, scores, scaled, Q, K, V, output)";
    return out;
  }
  if (digits < 0 || digits > kMaxExportDigits) {
    out.error =
        "digits: must be 0 to " + std::to_string(kMaxExportDigits) + ", got " + std::to_string(digits);
    return out;
  }
  const std::string invalid = validate(s);
  if (!invalid.empty()) {
    out.error = invalid;
    return out;
  }
  switch (*k) {
    case ExportKind::NumPy:
      out.text = export_numpy(s);
      break;
    case ExportKind::PyTorch:
      out.text = export_pytorch(s);
      break;
    case ExportKind::LaTeX:
      out.text = export_latex(s, *st, digits);
      break;
    case ExportKind::Svg:
      out.text = export_svg(s, *st, digits);
      break;
  }
  return out;
}

}  // namespace scene
