// model_export.cpp — the PyTorch script of a model and a text (model_export.hpp).
#include "scene/model_export.hpp"

#include <cstddef>

#include "scene/json_text.hpp"
#include "scene/model_json.hpp"

namespace scene {
namespace {

// The module, the loader and the run: fixed text; the model, tokens and ablation come before it.
constexpr const char* kScriptBody = R"PY(

class Attention(nn.Module):
    """H causal heads reading the same residual stream x [n, D]; W_Q, W_K, W_V [H, D, d_head],
    W_O [H, d_head, D] (TransformerLens's shapes)."""

    def __init__(self, heads, d_model, d_head):
        super().__init__()
        shape_in, shape_out = (heads, d_model, d_head), (heads, d_head, d_model)
        self.W_Q = nn.Parameter(torch.zeros(shape_in, dtype=torch.float64))
        self.W_K = nn.Parameter(torch.zeros(shape_in, dtype=torch.float64))
        self.W_V = nn.Parameter(torch.zeros(shape_in, dtype=torch.float64))
        self.W_O = nn.Parameter(torch.zeros(shape_out, dtype=torch.float64))

    def forward(self, x, ablated):
        n, d_head = x.shape[0], self.W_Q.shape[2]
        q = torch.einsum("nd,hde->hne", x, self.W_Q)
        k = torch.einsum("nd,hde->hne", x, self.W_K)
        v = torch.einsum("nd,hde->hne", x, self.W_V)
        scores = q @ k.transpose(1, 2) / math.sqrt(d_head)  # [H, n, n]
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
        pattern = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
        z = pattern @ v  # [H, n, d_head]
        out = torch.einsum("hne,hed->hnd", z, self.W_O)  # each head's output [H, n, D]
        total = torch.zeros_like(x)
        for h in range(out.shape[0]):
            if h not in ablated:  # an ablated head's output is zeroed
                total = total + out[h]
        return total, pattern


class Block(nn.Module):
    def __init__(self, heads, d_model, d_head):
        super().__init__()
        self.attn = Attention(heads, d_model, d_head)


class Embed(nn.Module):
    def __init__(self, vocab, d_model):
        super().__init__()
        self.W_E = nn.Parameter(torch.zeros(vocab, d_model, dtype=torch.float64))


class PosEmbed(nn.Module):
    def __init__(self, n_ctx, d_model):
        super().__init__()
        self.W_pos = nn.Parameter(torch.zeros(n_ctx, d_model, dtype=torch.float64))


class Unembed(nn.Module):
    def __init__(self, d_model, vocab):
        super().__init__()
        self.W_U = nn.Parameter(torch.zeros(d_model, vocab, dtype=torch.float64))


class AttnOnlyTransformer(nn.Module):
    """x = W_E[t] + W_pos[:n]; per layer x = x + sum_h softmax(causal(q k^T / sqrt(d_head))) v W_O;
    logits = x W_U. No MLP, no LayerNorm, no biases."""

    def __init__(self, vocab, n_ctx, d_model, layers, heads):
        super().__init__()
        d_head = d_model // heads
        self.embed = Embed(vocab, d_model)
        self.pos_embed = PosEmbed(n_ctx, d_model)
        self.blocks = nn.ModuleList([Block(heads, d_model, d_head) for _ in range(layers)])
        self.unembed = Unembed(d_model, vocab)

    def forward(self, tokens, ablated=()):
        x = self.embed.W_E[tokens] + self.pos_embed.W_pos[: tokens.shape[0]]
        patterns = []
        for layer, block in enumerate(self.blocks):
            out, pattern = block.attn(x, {h for (l, h) in ablated if l == layer})
            x = x + out
            patterns.append(pattern)
        return x @ self.unembed.W_U, patterns


def load(model):
    """The module with the weights of an Attention Lab model (its JSON as a dict)."""
    layers = model["layers"]
    t = lambda rows: torch.tensor(rows, dtype=torch.float64)
    net = AttnOnlyTransformer(len(model["vocab"]), model["n_ctx"], model["d_model"], len(layers),
                              len(layers[0]["heads"]))
    state = {"embed.W_E": t(model["W_E"]), "pos_embed.W_pos": t(model["W_pos"]), "unembed.W_U": t(model["W_U"])}
    for l, layer in enumerate(layers):
        for name in ("W_Q", "W_K", "W_V", "W_O"):
            state[f"blocks.{l}.attn.{name}"] = torch.stack([t(head[name]) for head in layer["heads"]])
    net.load_state_dict(state)
    return net


if __name__ == "__main__":
    net = load(MODEL)
    tokens = torch.tensor(TOKENS)
    with torch.no_grad():
        logits, patterns = net(tokens, ABLATED)
        n = len(TOKENS)
        loss = torch.nn.functional.cross_entropy(logits[:-1], tokens[1:]).item() if n > 1 else 0.0
    print(json.dumps({"tokens": [MODEL["vocab"][t] for t in TOKENS], "logits": logits.tolist(), "loss": loss}))
)PY";

// The GPT model (LayerNorm, MLP, biases; core/model.hpp): a module of its own, so that the
// attention-only script above stays as it was.
constexpr const char* kGptScriptBody = R"PY(

F = nn.functional


def vec(model, key, n):
    """A bias or LayerNorm vector of the JSON, or None when the model has none."""
    return torch.tensor(model[key], dtype=torch.float64) if key in model else None


class GptBlock(nn.Module):
    """GPT-2's pre-LayerNorm block (each part optional, as in the model's JSON):
    a = LN1(x); per head q, k, v = a W_Q + b_Q, a W_K + b_K, a W_V + b_V;
    A = softmax(causal(q k^T / sqrt(d_head))); resid_mid = x + sum_h (A v) W_O + b_O;
    resid_post = resid_mid + GELU_tanh(LN2(resid_mid) W_in + b_in) W_out + b_out."""

    def __init__(self, layer, d_model):
        super().__init__()
        t = lambda rows: nn.Parameter(torch.tensor(rows, dtype=torch.float64))
        heads = layer["heads"]
        self.W_Q = t([h["W_Q"] for h in heads])
        self.W_K = t([h["W_K"] for h in heads])
        self.W_V = t([h["W_V"] for h in heads])
        self.W_O = t([h["W_O"] for h in heads])
        d_head = self.W_Q.shape[2]
        zeros = [[0.0] * d_head for _ in heads]
        self.b_Q = t([h.get("b_Q", z) for h, z in zip(heads, zeros)])
        self.b_K = t([h.get("b_K", z) for h, z in zip(heads, zeros)])
        self.b_V = t([h.get("b_V", z) for h, z in zip(heads, zeros)])
        self.b_O = t(layer.get("b_O", [0.0] * d_model))
        self.ln1 = layer.get("ln1")
        self.ln2 = layer.get("ln2")
        self.mlp = {k: t(v) for k, v in layer["mlp"].items()} if "mlp" in layer else None

    @staticmethod
    def norm(x, p):
        if p is None:
            return x
        w, b = (torch.tensor(p[k], dtype=torch.float64) for k in ("w", "b"))
        return F.layer_norm(x, (x.shape[-1],), w, b, eps=1e-5)

    def forward(self, x, ablated):
        n, d_head = x.shape[0], self.W_Q.shape[2]
        a = self.norm(x, self.ln1)
        q = torch.einsum("nd,hde->hne", a, self.W_Q) + self.b_Q[:, None, :]
        k = torch.einsum("nd,hde->hne", a, self.W_K) + self.b_K[:, None, :]
        v = torch.einsum("nd,hde->hne", a, self.W_V) + self.b_V[:, None, :]
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
        pattern = torch.softmax((q @ k.transpose(1, 2) / math.sqrt(d_head)).masked_fill(~causal, float("-inf")), -1)
        out = torch.einsum("hne,hed->hnd", pattern @ v, self.W_O)
        for h in range(out.shape[0]):
            if h not in ablated:  # an ablated head's output is zeroed
                x = x + out[h]
        x = x + self.b_O
        if self.mlp is not None:
            pre = self.norm(x, self.ln2) @ self.mlp["W_in"] + self.mlp.get("b_in", 0.0)
            x = x + F.gelu(pre, approximate="tanh") @ self.mlp["W_out"] + self.mlp.get("b_out", 0.0)
        return x, pattern


class GptTransformer(nn.Module):
    def __init__(self, model):
        super().__init__()
        t = lambda rows: nn.Parameter(torch.tensor(rows, dtype=torch.float64))
        self.W_E, self.W_pos, self.W_U = t(model["W_E"]), t(model["W_pos"]), t(model["W_U"])
        self.b_U = vec(model, "b_U", None)
        self.ln_final = model.get("ln_final")
        self.blocks = nn.ModuleList([GptBlock(layer, model["d_model"]) for layer in model["layers"]])

    def forward(self, tokens, ablated=()):
        x = self.W_E[tokens] + self.W_pos[: tokens.shape[0]]
        patterns = []
        for layer, block in enumerate(self.blocks):
            x, pattern = block(x, {h for (l, h) in ablated if l == layer})
            patterns.append(pattern)
        logits = GptBlock.norm(x, self.ln_final) @ self.W_U
        return (logits + self.b_U if self.b_U is not None else logits), patterns


if __name__ == "__main__":
    net = GptTransformer(MODEL)
    tokens = torch.tensor(TOKENS)
    with torch.no_grad():
        logits, patterns = net(tokens, ABLATED)
        n = len(TOKENS)
        loss = torch.nn.functional.cross_entropy(logits[:-1], tokens[1:]).item() if n > 1 else 0.0
    print(json.dumps({"tokens": [MODEL["vocab"][t] for t in TOKENS], "logits": logits.tolist(), "loss": loss}))
)PY";

}  // namespace

std::string model_pytorch_script(const attn::model::Model& m, const std::vector<int>& tokens,
                                 const attn::model::Ablation& ablation) {
  std::string tokens_text = "[", ablated_text = "[";
  for (std::size_t i = 0; i < tokens.size(); ++i) tokens_text += (i ? ", " : "") + std::to_string(tokens[i]);
  for (int l = 0; l < m.n_layers(); ++l)
    for (int h = 0; h < m.n_heads(); ++h)
      if (ablation.is_off(l, h))
        ablated_text +=
            (ablated_text.size() > 1 ? ", (" : "(") + std::to_string(l) + ", " + std::to_string(h) + ")";
  // The model's JSON as a Python string literal: a JSON string's escapes are Python's too.
  const std::string model_literal = json_text::dump(json_text::ordered_json(model_to_json(m, -1)), -1);
  if (m.is_gpt())
    return "#!/usr/bin/env python3\n"
           "# A GPT model exported by Attention Lab (attention-lab-cli --eval MODEL --text T --export "
           "pytorch):\n"
           "# rebuilds the model in float64 (TransformerLens's weight names: LayerNorm with eps 1e-5, GELU "
           "in\n"
           "# GPT-2's tanh form), runs it on the text and prints {\"tokens\", \"logits\", \"loss\"} as "
           "JSON.\n"
           "# Needs PyTorch.\n"
           "import json\n"
           "import math\n\n"
           "import torch\n"
           "from torch import nn\n\n"
           "MODEL = json.loads(" +
           model_literal + ")\nTOKENS = " + tokens_text +
           "]  # indices into MODEL[\"vocab\"]\nABLATED = " + ablated_text +
           "]  # (layer, head) pairs switched off" + kGptScriptBody;
  return "#!/usr/bin/env python3\n"
         "# An attention-only transformer exported by Attention Lab (attention-lab-cli --eval MODEL --text "
         "T\n"
         "# --export pytorch): rebuilds the model in float64 with TransformerLens's parameter names, runs it "
         "on\n"
         "# the text and prints {\"tokens\", \"logits\", \"loss\"} as JSON. Needs PyTorch.\n"
         "import json\n"
         "import math\n\n"
         "import torch\n"
         "from torch import nn\n\n"
         "MODEL = json.loads(" +
         model_literal +
         ")\n"
         "TOKENS = " +
         tokens_text +
         "]  # indices into MODEL[\"vocab\"]\n"
         "ABLATED = " +
         ablated_text + "]  # (layer, head) pairs switched off" + kScriptBody;
}

}  // namespace scene
