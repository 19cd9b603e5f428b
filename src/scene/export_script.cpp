// export_script.cpp — the NumPy and PyTorch scripts (export.hpp): the scene's numbers (they read
// back bit for bit), every stage step by step as the panels show it, module-level `weights` and
// `output`; several heads as a loop, or nn.MultiheadAttention when the scene fits it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "scene/export.hpp"
#include "scene/export_parts.hpp"
#if AL_ALL_MODES
#include "scene/variant_keys.hpp"
#endif

namespace scene {
namespace {

using namespace export_parts;

// ---------------------------------------------------------------------------------------------
// [SECTION] 1. Python text
// ---------------------------------------------------------------------------------------------

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
// [SECTION] 2. The scripts' parts (one head written out; several heads as a loop)
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
  if (s.kv() != s.heads)
    text += "\nGrouped-query attention: " + std::to_string(s.kv()) + " K/V group" + (s.kv() == 1 ? "" : "s") +
            " shared by " + std::to_string(s.heads) + " heads" + (s.kv() == 1 ? " (multi-query)." : ".");
  if (s.window > 0)
    text += "\nSliding window: " + std::to_string(s.window) + (s.causal ? " (looking back only)" : "") +
            (s.sinks > 0 ? ", " + std::to_string(s.sinks) + " sink token" + (s.sinks == 1 ? "" : "s") : "") +
            ".";
  if (s.alibi)
    text += "\nALiBi: each head adds −m·|i − j| to its scaled scores, m = 2^(−8h/H) for head h = 1 … H.";
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
  py += std::string("\"\"\"An Attention Lab scene in ") + what + ": Y = softmax(Q Kᵀ / s + " +
        (s.alibi ? "B + " : "") + "M) V, step by step.\n\n";
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
  return py +
         "with torch.no_grad():\n"
         "    q_proj.weight.copy_(Wq.T)\n"
         "    k_proj.weight.copy_(Wk.T)\n"
         "    v_proj.weight.copy_(Wv.T)\n\n"
         "Q = q_proj(X)  # n×d_k, = X @ Wq\n"
         "K = k_proj(X)  # n×d_k\n"
         "V = v_proj(X)  # n×d_v\n\n";
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
    py += std::string("K_rope = ") + L.cat() + "([rope(K[:, t * d_head:(t + 1) * d_head]) for t in range(" +
          (s.kv() == s.heads ? "h" : "kv_heads") + ")], " + L.axis1() + ")\n\n";
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
  if (s.window > 0) {
    const char* abs = L.torch ? "torch.abs" : "np.abs";
    py += "window, sinks = " + std::to_string(s.window) + ", " + std::to_string(s.sinks) +
          "  # sliding window w; keys j < sinks stay visible whatever the window\n";
    py +=
        s.causal
            ? "allowed &= (j < sinks) | ((i - j >= 0) & (i - j < window))  # 0 ≤ i − j < w: looks back only\n"
            : std::string("allowed &= (j < sinks) | (") + abs + "(i - j) < window)  # |i − j| < w\n";
  }
  if (s.mask.size()) {
    py += std::string("mask = ") + (L.torch ? "torch.tensor(" : "np.array(") + py_mask_rows(s.mask) +
          ")  # the custom mask: 1 = may attend\n";
    py += "allowed &= mask == 1  # ANDed with the causal mask\n";
  } else {
    py += "# (no custom mask)\n";
  }
  return py + "\n";
}

// i, j: the query and key positions as a column and a row (the window and ALiBi use them).
std::string positions_step(const Scene& s, const Lang& L) {
  if (s.window == 0 && !s.alibi) return {};
  return L.torch ? "i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]  # query, key positions\n\n"
                 : "i, j = np.arange(n)[:, None], np.arange(n)[None, :]  # query, key positions\n\n";
}

// ALiBi (Press et al. 2022): the bias of head t (0-based) of h.
std::string alibi_step(const Scene& s, const Lang& L) {
  if (!s.alibi) return {};
  std::string py =
      "# --- ALiBi: head t adds B_t(i, j) = −m_t·|i − j| to its scaled scores, with the slopes\n";
  py += "# m_t = 2^(−8(t+1)/h): a geometric sequence (Press et al. 2022, \"Train Short, Test Long\")\n";
  py += "def alibi_bias(t, h):\n";
  py += "    m = 2.0 ** (-8.0 * (t + 1) / h)\n";
  py += std::string("    return -m * ") + (L.torch ? "torch.abs(i - j).to(torch.float64)" : "np.abs(i - j)") +
        "  # n×n\n\n\n";
  return py;
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
  py += positions_step(s, L);
  py += mask_step(s, L);
  if (s.alibi) {
    py += alibi_step(s, L);
    py += "bias = alibi_bias(0, 1)  # one head: m = 2^−8\n";
    py += "logits = scaled + bias  # scaled + B\n\n";
    py += "# --- (4) Weights: softmax of each row of scaled + B + M, where M is 0 (allowed) or −∞ (masked)\n";
    py += softmax_lines(L, "", "logits", "weights") + "\n";
  } else {
    py += "# --- (4) Weights: softmax of each row of scaled + M, where M is 0 (allowed) or −∞ (masked)\n";
    py += softmax_lines(L, "", "scaled", "weights") + "\n";
  }
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
  if (s.kv() == s.heads) {
    py += "h = " + std::to_string(s.heads) +
          "  # heads: head t uses columns [t·d_k/h, (t+1)·d_k/h) of Q and K, [t·d_v/h, …) of V\n";
    py += "kv_heads = h  # one K/V per head\n";
  } else {
    py += "h = " + std::to_string(s.heads) + "  # heads: head t uses columns [t·d_k/h, (t+1)·d_k/h) of Q\n";
    py += "kv_heads = " + std::to_string(s.kv()) +
          "  # grouped-query attention: K and V hold kv_heads groups, head t reads group t // (h // "
          "kv_heads)\n";
  }
  py += "d_head, dv_head = d_k // h, d_v // kv_heads\n\n";
  if (!why_not_mha.empty()) py += "# (Not nn.MultiheadAttention: " + why_not_mha + ")\n\n";
  if (s.rope_on) py += rope_step(s, L);
  py += scale_step(s, L) + "\n";
  py += positions_step(s, L);
  py += mask_step(s, L);
  py += alibi_step(s, L);
  py += "\ndef softmax_rows(scaled):\n";
  py +=
      "    \"\"\"(4) Softmax of each row of scaled + M, where M is 0 (allowed) or −∞ (masked). n×n.\"\"\"\n";
  py += softmax_lines(L, "    ", "scaled", "weights");
  py += "    return weights\n\n\n";
  const char* q = s.rope_on ? "Q_rope" : "Q";
  const char* k = s.rope_on ? "K_rope" : "K";
  py += "head_scores, head_weights, head_outputs = [], [], []\n";
  py += "for t in range(h):\n";
  py += "    cols = slice(t * d_head, (t + 1) * d_head)  # head t's query columns\n";
  if (s.kv() == s.heads) {
    py += "    kcols, vcols = cols, slice(t * dv_head, (t + 1) * dv_head)  # its key and value columns\n";
  } else {
    py += "    g = t // (h // kv_heads)  # the K/V group head t shares (torch.repeat_interleave's order)\n";
    py += "    kcols, vcols = slice(g * d_head, (g + 1) * d_head), slice(g * dv_head, (g + 1) * dv_head)\n";
  }
  py += std::string("    scores_t = ") + q + "[:, cols] @ " + k + "[:, kcols].T  # (1) n×n\n";
  py += s.alibi
            ? "    weights_t = softmax_rows(scores_t / s + alibi_bias(t, h))  # (2) scaled + B, (4) weights\n"
            : "    weights_t = softmax_rows(scores_t / s)  # (2) scaled, (4) weights: n×n\n";
  py += "    head_scores.append(scores_t)\n";
  py += "    head_weights.append(weights_t)\n";
  py += "    head_outputs.append(weights_t @ V[:, vcols])  # (5) Y_t = A_t V_t: n×dv_head\n\n";
  py += std::string("# --- Concatenate the heads' outputs: [Y_0 | … | Y_{h−1}] (n×") +
        (s.kv() == s.heads ? "d_v" : "h·dv_head") + ")\n";
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
  if (s.kv() != s.heads)
    return "its heads each have their own K and V; here " + std::to_string(s.heads) + " heads share " +
           std::to_string(s.kv()) + " K/V group" + (s.kv() == 1 ? "" : "s") + ".";
  if (s.alibi) return "ALiBi adds a different bias to each head's scores.";
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
  py += "\n" + positions_step(s, L) + mask_step(s, L);
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
  py +=
      "output, weights = out[0], mean_weights[0]  # n×d_out and the mean of the heads' weights, n×n\n"
      "# A query whose every key is masked gets NaN from softmax (0/0) in every head. Attention Lab\n"
      "# gives such a row zero weights and so a zero output:\n"
      "row_ok = allowed.any(dim=-1, keepdim=True)\n"
      "weights = torch.where(row_ok, weights, torch.zeros_like(weights))\n"
      "output = torch.where(row_ok, output, torch.zeros_like(output))\n\n";
  return py + script_footer(L);
}

#if AL_ALL_MODES
// A scene with variant keys (scene/variant_keys.hpp; the web's first load has none): every head
// through one_map, written from the papers' equations as core/variants.hpp states them.
std::string py_list(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + exact(v[i]);
  return out + "]";
}

// The inputs, the sources (cross-attention), the sizes, RoPE, the scale and the mask.
std::string variant_setup(const Scene& s, const Lang& L) {
  const attn::Variants& v = s.variants->core;
  const bool t = L.torch;
  const std::string np = t ? "torch" : "np";
  std::string py = script_inputs(s, L);
  py += "# The variants of this scene (Attention Lab's scene keys):";
  if (!v.sink_logit.empty()) py += " sink_logit";
  if (v.softcap > 0.0) py += " softcap";
  if (v.qk_norm) py += " qk_norm";
  if (v.topk) py += " topk";
  if (v.differential) py += " differential";
  if (v.gate.size() || s.variants->Wg.size()) py += " gate";
  if (v.linear) py += " linear";
  py += "\n";
  if (!t && !s.rope_on) py += "import math  # noqa: E402  (the NumPy header imports it only for RoPE)\n";
  py += script_projections(s, L);
  const bool cross = is_cross_attention(s);
  if (cross) {
    py += "# --- Cross-attention: the keys and values come from another sequence, its m source tokens\n";
    std::string sources = py_tokens(s.variants->sources);
    sources.replace(sources.find("tokens = "), 9, "sources = ");
    py += sources;
    if (s.mode == Mode::Projected) {
      py += "X_src = " + L.matrix(s.variants->X_src) + "  # the source tokens' vectors (m×d_model)\n";
      py += t ? "K = k_proj(X_src)  # m×d_k\nV = v_proj(X_src)  # m×d_v\n"
              : "K = X_src @ Wk  # m×d_k\nV = X_src @ Wv  # m×d_v\n";
    }
    py += "\n";
  }
  py += "m = K.shape[0]  # keys: " +
        std::string(cross ? "the source tokens" : "the tokens themselves (m = n)") + "\n";
  py += "d_k, d_v = Q.shape[1], V.shape[1]\n";
  py += "h, kv_heads = " + std::to_string(s.heads) + ", " + std::to_string(s.kv()) +
        "  # heads; K/V groups (head t reads group t // (h // kv_heads))\n";
  py += "d_head, dv_head = d_k // h, d_v // kv_heads\n";
  py +=
      v.differential
          ? "d_map = d_head // 2  # differential: each head's first half makes map 1, its second half map 2\n"
          : "d_map = d_head  # the size of the vectors each map compares\n";
  py += "\n";
  if (s.rope_on) {
    std::string rope = rope_step(s, L);
    rope = rope.substr(0, rope.rfind("    return out\n\n\n") + 17);  // the function only
    py += rope + "# (each map's queries and keys turn on their own, after any QK-norm)\n\n";
  }
  if (v.linear) {
    py += "s = 1.0  # linear attention has no scale\n";
  } else {
    switch (s.scale.mode) {
      case attn::ScaleMode::None:
        py += "s = 1.0  # scale \"none\"\n";
        break;
      case attn::ScaleMode::SqrtDk:
        py += "s = math.sqrt(d_map)  # √d of the vectors compared\n";
        break;
      case attn::ScaleMode::Temperature:
        py += "s = " + exact(s.scale.temperature) + "  # the temperature\n";
        break;
    }
  }
  if (cross) {
    py +=
        "\n# --- Mask: query i may attend to source j unless the custom mask says 0 (no causal mask across\n";
    py += "# two sequences)\n";
    py += t ? "allowed = torch.ones(n, m, dtype=torch.bool)\n" : "allowed = np.ones((n, m), dtype=bool)\n";
    if (s.mask.size())
      py += std::string("allowed &= ") + (t ? "torch.tensor(" : "np.array(") + py_mask_rows(s.mask) +
            ") == 1\n";
    py += "\n";
  } else {
    py += "\n" + positions_step(s, L) + mask_step(s, L) + alibi_step(s, L);
  }
  return py;
}

// The helper functions the maps use: RMSNorm, φ, top-k selection, the softmax with a sink.
std::string variant_helpers(const Scene& s, const Lang& L) {
  const attn::Variants& v = s.variants->core;
  const bool t = L.torch;
  const std::string np = t ? "torch" : "np";
  const std::string vec = t ? "torch.tensor(" : "np.array(";
  const std::string f64 = t ? ", dtype=torch.float64)" : ", dtype=np.float64)";
  std::string py;
  if (v.qk_norm) {
    py += "# --- QK-norm (OLMo 2, Gemma 3, Qwen3): RMSNorm of each query and key row before the scores\n";
    py += "qk_eps = " + exact(v.qk_eps) + "\n";
    py += "gain_q = " + (v.gain_q.empty() ? std::string("1.0") : vec + py_list(v.gain_q) + f64) + "\n";
    py += "gain_k = " + (v.gain_k.empty() ? std::string("1.0") : vec + py_list(v.gain_k) + f64) + "\n\n";
  }
  if (v.qk_norm || v.diff_norm) {
    py += "\ndef rms(x, eps, gain=1.0):\n";
    py += "    \"\"\"x / √(mean(x²) + eps) · gain, row by row (RMSNorm).\"\"\"\n";
    py += std::string("    return x / ") + np + ".sqrt((x * x).mean(" +
          (t ? "dim=1, keepdim=True" : "axis=1, keepdims=True") + ") + eps) * gain\n\n\n";
  }
  if (v.linear) {
    py += "\ndef elu1(x):\n";
    py +=
        "    \"\"\"phi(x) = elu(x) + 1 (Katharopoulos et al. 2020): x + 1 above 0, exp(x) below; always > "
        "0.\"\"\"\n";
    py += std::string("    return ") + np + ".where(x > 0, x + 1.0, " +
          (t ? "torch.exp(torch.clamp(x, max=0.0))" : "np.exp(np.minimum(x, 0.0))") + ")\n\n\n";
  }
  if (v.softcap > 0.0)
    py += "softcap = " + exact(v.softcap) +
          "  # Gemma 2: the scaled scores become c·tanh(s/c) before the mask\n";
  if (!v.sink_logit.empty())
    py += "sinks_logit = " + py_list(v.sink_logit) +
          "  # gpt-oss: one more logit per row (per head) that takes weight and returns nothing\n";
  if (v.topk) {
    py += "topk, topk_block = " + std::to_string(v.topk) + ", " + std::to_string(v.topk_block) +
          "  # keep the k best keys (blocks of topk_block keys when > 0)\n";
    if (v.indexer.size())
      py += "indexer = " + L.matrix(v.indexer) + "  # chooses the keys instead of the scores\n";
    py += "\n\ndef topk_keep(score):\n";
    py +=
        "    \"\"\"Each query keeps its k allowed keys of highest score (ties: the lower index); with "
        "blocks,\n";
    py += "    a block scores the mean over its allowed keys and the k best blocks are kept.\"\"\"\n";
    py += std::string("    keep = ") +
          (t ? "torch.zeros(n, m, dtype=torch.bool)" : "np.zeros((n, m), dtype=bool)") + "\n";
    py += "    b = topk_block or 1\n";
    py += "    for i in range(n):\n";
    py += "        candidates = []\n";
    py += "        for blk in range((m + b - 1) // b):\n";
    py += "            cols = [j for j in range(blk * b, min(m, (blk + 1) * b)) if allowed[i, j]]\n";
    py += "            if cols:\n";
    py += "                total = 0.0\n";
    py += "                for j in cols:\n";
    py += "                    total += float(score[i, j])\n";
    py += "                candidates.append((-(total / len(cols) if topk_block else total), blk))\n";
    py += "        for _, blk in sorted(candidates)[:topk]:\n";
    py += "            for j in range(blk * b, min(m, (blk + 1) * b)):\n";
    py += "                keep[i, j] = bool(allowed[i, j])\n";
    py += "    return keep\n\n";
  }
  if (!v.linear) {
    py += "\ndef softmax_rows(x, keep, sink):\n";
    py +=
        "    \"\"\"Softmax of each row over its kept keys and, when sink is not None, one more logit whose\n";
    py +=
        "    share returns nothing: rows then sum to less than 1. A row with nothing to attend to is "
        "0.\"\"\"\n";
    py += std::string("    weights = ") +
          (t ? "torch.zeros(n, m, dtype=torch.float64)" : "np.zeros((n, m))") + "\n";
    py += "    for i in range(n):\n";
    py += "        row = x[i][keep[i]]\n";
    py += "        if sink is not None:\n";
    py += std::string("            row = ") +
          (t ? "torch.cat([row, torch.tensor([sink], dtype=torch.float64)])" : "np.append(row, sink)") + "\n";
    py += "        if row.shape[0] == 0:\n";
    py += "            continue\n";
    py += std::string("        e = ") + np + ".exp(row - row.max())\n";
    py += "        p = e / e.sum()\n";
    py += "        weights[i][keep[i]] = p[:p.shape[0] - 1] if sink is not None else p\n";
    py += "    return weights\n\n";
  }
  return py;
}

// one_map, the heads loop (differential: two maps), the gate, W_o.
std::string variant_heads(const Scene& s, const Lang& L) {
  const attn::Variants& v = s.variants->core;
  const bool t = L.torch;
  const std::string np = t ? "torch" : "np";
  std::string py;
  py += "\ndef one_map(q, k, t):\n";
  py += "    \"\"\"The weights of head t from its query rows q and key rows k.\"\"\"\n";
  if (v.qk_norm) py += "    q, k = rms(q, qk_eps, gain_q), rms(k, qk_eps, gain_k)\n";
  if (s.rope_on) py += "    q, k = rope(q), rope(k)\n";
  if (v.linear) {
    py += "    scores = elu1(q) @ elu1(k).T  # phi(q_i)·phi(k_j), no softmax and no scale\n";
    py += std::string("    a = ") + np + ".where(allowed, scores, " +
          (t ? "torch.zeros_like(scores)" : "0.0") + ")\n";
    py += std::string("    sums = a.sum(") + (t ? "dim=1, keepdim=True" : "axis=1, keepdims=True") + ")\n";
    py += std::string("    return ") + np + ".where(sums > 0, a / " + np + ".where(sums > 0, sums, " +
          (t ? "torch.ones_like(sums)" : "1.0") + "), " + (t ? "torch.zeros_like(a)" : "0.0") + ")\n\n\n";
  } else {
    py += "    scaled = (q @ k.T) / s\n";
    py += v.softcap > 0.0 ? std::string("    x = softcap * ") + np + ".tanh(scaled / softcap)\n"
                          : "    x = scaled\n";
    if (s.alibi) py += "    x = x + alibi_bias(t, h)\n";
    if (v.topk)
      py += v.indexer.size() ? "    keep = topk_keep(indexer)\n" : "    keep = topk_keep(scaled)\n";
    else
      py += "    keep = allowed\n";
    py += v.sink_logit.empty()
              ? "    return softmax_rows(x, keep, None)\n\n\n"
              : "    return softmax_rows(x, keep, sinks_logit[0 if len(sinks_logit) == 1 else t])\n\n\n";
  }
  if (v.differential) {
    py += "lam = " + exact(v.lambda) + "  # differential attention: A₁ − lambda A₂ (Ye et al. 2024)\n";
    if (v.diff_norm)
      py += "lambda_init = " + exact(v.lambda_init) + "  # each output row: (1 − lambda_init)·RMSNorm\n";
  }
  py += "head_weights, head_outputs = [], []\n";
  py += "for t in range(h):\n";
  py += "    g = t // (h // kv_heads)\n";
  py += "    q, k = Q[:, t * d_head:(t + 1) * d_head], K[:, g * d_head:(g + 1) * d_head]\n";
  py += v.differential ? "    weights_t = one_map(q[:, :d_map], k[:, :d_map], t) - lam * one_map(q[:, "
                         "d_map:], k[:, d_map:], t)\n"
                       : "    weights_t = one_map(q, k, t)\n";
  py += "    y = weights_t @ V[:, g * dv_head:(g + 1) * dv_head]\n";
  if (v.diff_norm) py += "    y = (1.0 - lambda_init) * rms(y, 1e-5)\n";
  py += "    head_weights.append(weights_t)\n";
  py += "    head_outputs.append(y)\n\n";
  py += std::string("concat = ") + L.cat() + "(head_outputs, " + L.axis1() + ")\n";
  std::string mapped = "concat";
  if (v.gate.size() || s.variants->Wg.size()) {
    py += "# --- Gated attention (Qiu et al. 2025): concat * sigmoid(G) before Wo\n";
    py += v.gate.size() ? "G = " + L.matrix(v.gate) + "\n"
                        : "Wg = " + L.matrix(s.variants->Wg) + "\nG = X @ Wg\n";
    py += std::string("sig = 1.0 / (1.0 + ") + np + ".exp(-G))\n";
    py += std::string(
              "if sig.shape[1] != concat.shape[1]:  # head-wise: one gate per head, over its columns\n") +
          "    sig = " +
          (t ? "torch.repeat_interleave(sig, dv_head, dim=1)" : "np.repeat(sig, dv_head, axis=1)") + "\n";
    py += "gated = concat * sig\n";
    mapped = "gated";
  }
  py += s.Wo.size() ? "output = " + mapped + " @ Wo\n" : "output = " + mapped + "\n";
  py += "weights = sum(head_weights) / h  # the mean over heads\n\n";
  return py + script_footer(L);
}

// Multi-head latent attention (the "mla" key; DeepSeek-V2, arXiv 2405.04434 §2.1), written from the
// paper's equations: the latent c = X W_dkv, head t's keys c W_uk,t and values c W_uv,t, the shared
// RoPE key k_R = RoPE(X W_kr), scores q_nope k_tᵀ + q_R k_Rᵀ; then the absorbed form (W_uk folded into
// the query) and the cache per token. The scene's Wk and Wv are derived, so the script never uses them.
std::string mla_script(const Scene& s, const Lang& L) {
  const MlaKeys& k = s.variants->mla;
  const bool t = L.torch;
  std::string py = "#!/usr/bin/env python3\n";
  py += std::string("\"\"\"An Attention Lab scene in ") + (t ? "PyTorch" : "NumPy") +
        ": multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1), step by step.\n\n";
  py += script_summary(s) + "\n";
  py +=
      "Head t: Y_t = softmax((q_nope k_tᵀ + q_R k_Rᵀ) / s + M) v_t with k_t = c W_uk,t, v_t = c W_uv,t and "
      "the\n";
  py += "latent c = X W_dkv; the cache keeps c and k_R only (d_c + d_rope numbers per token and layer).\n\n";
  py += std::string("Run it to print the weights and the output, or import / exec it: `weights` (n×n") +
        (s.heads > 1 ? ", the mean over heads" : "") + ") and\n`output` (n×" +
        (s.Wo.size() ? "d_out" : "d_v") + ") are " + (t ? "torch.float64 tensors" : "float64 arrays") +
        " equal to what the app shows. Exported by Attention Lab\n(attention-lab-cli --export " +
        (t ? "pytorch" : "numpy") + ").\n\"\"\"\n";
  py += t ? "import math\n\nimport torch\n\n" : "import math\n\nimport numpy as np\n\n";
  py += "# Row i of every matrix below belongs to token i.\n" + py_tokens(s.tokens) + "n = len(tokens)\n\n";
  py += "# --- Inputs: X (n×d_model) and the query map Wq (d_model × h·(d_nope + d_rope)): each head's\n";
  py += "# query is [q_nope | q_R], its content part and its decoupled RoPE part\n";
  py += "X = " + L.matrix(s.X) + "\n";
  py += "Wq = " + L.matrix(s.Wq) + "\n";
  py += "# --- Latent attention's weights\n";
  py += "W_dkv = " + L.matrix(k.W_dkv) + "  # d_model×d_c: down to the latent\n";
  py += "W_uk = " + L.matrix(k.W_uk) + "  # d_c × h·d_nope: the heads' keys, up from the latent\n";
  py += "W_uv = " + L.matrix(k.W_uv) + "  # d_c × h·d_v: the heads' values, up from the latent\n";
  py += "W_kr = " +
        (k.W_kr.size() ? L.matrix(k.W_kr)
                       : std::string(t ? "torch.zeros((" : "np.zeros((") + std::to_string(s.X.cols()) +
                             ", 0)" + (t ? ", dtype=torch.float64)" : ")")) +
        "  # d_model×d_rope: the decoupled RoPE key, shared by every head\n";
  if (s.Wo.size()) py += "Wo = " + L.matrix(s.Wo) + "  # the output map of the concatenated heads\n";
  py += "h = " + std::to_string(s.heads) + "\n";
  py +=
      "d_c, d_nope, d_rope, dv_head = W_dkv.shape[1], W_uk.shape[1] // h, W_kr.shape[1], W_uv.shape[1] // "
      "h\n";
  py += "d_qh = d_nope + d_rope  # each head's query and key size\n\n";
  if (s.rope_on) {
    std::string rope = rope_step(s, L);
    py += rope.substr(0, rope.rfind("    return out\n\n\n") + 17);  // the function only
  }
  py += "c_kv = X @ W_dkv  # n×d_c: the latent, what the cache keeps (with k_rope)\n";
  py += std::string("k_rope = ") + (s.rope_on ? "rope(X @ W_kr)" : "X @ W_kr") + "  # n×d_rope\n";
  py += "Q = X @ Wq  # n × h·d_qh\n";
  switch (s.scale.mode) {
    case attn::ScaleMode::None:
      py += "s = 1.0  # scale \"none\"\n";
      break;
    case attn::ScaleMode::SqrtDk:
      py += "s = math.sqrt(d_qh)  # √(d_nope + d_rope), the size of the query and key each head compares\n";
      break;
    case attn::ScaleMode::Temperature:
      py += "s = " + exact(s.scale.temperature) + "  # the temperature\n";
      break;
  }
  py += "\n" + positions_step(s, L) + mask_step(s, L);
  py += "head_weights, head_outputs, absorbed_gap = [], [], 0.0\n";
  if (s.rope_on) py += "q_turned, k_turned = [], []  # each head's [q_nope | RoPE(q_R)] and [k_t | k_R]\n";
  py += "for t in range(h):\n";
  py += "    q_nope, q_r = Q[:, t * d_qh:t * d_qh + d_nope], Q[:, t * d_qh + d_nope:(t + 1) * d_qh]\n";
  if (s.rope_on) py += "    q_r = rope(q_r)\n";
  py += "    W_uk_t, W_uv_t = W_uk[:, t * d_nope:(t + 1) * d_nope], W_uv[:, t * dv_head:(t + 1) * dv_head]\n";
  py += "    k_t, v_t = c_kv @ W_uk_t, c_kv @ W_uv_t  # the head's keys and values, up from the latent\n";
  py += "    scores = q_nope @ k_t.T + q_r @ k_rope.T  # = [q_nope | q_R] · [k_t | k_R]\n";
  py += "    scaled = scores / s\n";
  py += softmax_lines(L, "    ", "scaled", "weights_t");
  py += "    head_weights.append(weights_t)\n";
  py += "    head_outputs.append(weights_t @ v_t)\n";
  if (s.rope_on) {
    py += std::string("    q_turned.append(") + L.cat() + "([q_nope, q_r], " + L.axis1() + "))\n";
    py += std::string("    k_turned.append(") + L.cat() + "([k_t, k_rope], " + L.axis1() + "))\n";
  }
  py += "    # The absorbed form: W_uk folded into the query reads the latent itself, the same scores\n";
  py += "    absorbed = (q_nope @ W_uk_t.T) @ c_kv.T + q_r @ k_rope.T\n";
  py += std::string("    absorbed_gap = max(absorbed_gap, float(") +
        (t ? "(absorbed - scores).abs().max()" : "np.abs(absorbed - scores).max()") + "))\n\n";
  py += std::string("concat = ") + L.cat() + "(head_outputs, " + L.axis1() + ")\n";
  if (s.rope_on)
    py += std::string("Q_rope, K_rope = ") + L.cat() + "(q_turned, " + L.axis1() + "), " + L.cat() +
          "(k_turned, " + L.axis1() + ")  # what the scores used\n";
  py += s.Wo.size() ? "output = concat @ Wo\n" : "output = concat\n";
  py += "weights = sum(head_weights) / h  # the mean over heads\n";
  py +=
      "cache_per_token = d_c + d_rope  # against h·(d_qh + dv_head) for the same heads' keys and values\n\n";
  return py + script_footer(L);
}

std::string variant_script(const Scene& s, const Lang& L) {
  if (is_mla(s)) return mla_script(s, L);
  return variant_setup(s, L) + variant_helpers(s, L) + variant_heads(s, L);
}
#endif

}  // namespace

std::string export_numpy(const Scene& s) {
  const Lang L{false};
#if AL_ALL_MODES
  if (s.variants) return variant_script(s, L);
#endif
  return s.heads > 1 ? multi_head_script(s, L) : single_head_script(s, L);
}

std::string export_pytorch(const Scene& s) {
  const Lang L{true};
#if AL_ALL_MODES
  if (s.variants) return variant_script(s, L);
#endif
  if (s.heads == 1) return single_head_script(s, L);
  const std::string misfit = mha_misfit(s);
  return misfit.empty() ? mha_script(s) : multi_head_script(s, L, misfit);
}

}  // namespace scene
