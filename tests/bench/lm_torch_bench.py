#!/usr/bin/python3
"""The peer of tests/bench/lm_bench.cpp: the same GPT model's forward pass in PyTorch CPU float64.

usage: lm_torch_bench.py MODEL.json BENCH.json [REPEATS]
MODEL.json is `attention-lab-cli --model-json MODEL` (the weights as the app reads them), BENCH.json a
line lm_bench printed (its "tokens" and "loss"). Heads are stacked into one tensor per layer (einsum),
the usual way to write it; torch.set_num_threads(1) unless TORCH_THREADS says otherwise (the native
run is single-threaded too). Prints {"forward_ms" (median), "loss", "loss_matches" (within 1e-9 of
lm_bench's), "threads", "torch"}.
"""
import json
import math
import os
import sys
import time

import torch

F = torch.nn.functional


def build(m):
    t = lambda a: torch.tensor(a, dtype=torch.float64)
    layers = []
    for layer in m["layers"]:
        heads = layer["heads"]
        L = {k: t([h[k] for h in heads]) for k in ("W_Q", "W_K", "W_V", "W_O")}
        for k in ("b_Q", "b_K", "b_V"):
            L[k] = t([h[k] for h in heads]) if k in heads[0] else None
        L["b_O"] = t(layer["b_O"]) if "b_O" in layer else None
        L["ln1"] = (t(layer["ln1"]["w"]), t(layer["ln1"]["b"])) if "ln1" in layer else None
        L["ln2"] = (t(layer["ln2"]["w"]), t(layer["ln2"]["b"])) if "ln2" in layer else None
        L["mlp"] = {k: t(v) for k, v in layer["mlp"].items()} if "mlp" in layer else None
        layers.append(L)
    top = {"W_E": t(m["W_E"]), "W_pos": t(m["W_pos"]), "W_U": t(m["W_U"]),
           "b_U": t(m["b_U"]) if "b_U" in m else None,
           "ln_final": (t(m["ln_final"]["w"]), t(m["ln_final"]["b"])) if "ln_final" in m else None}
    return top, layers


def norm(x, p):
    return x if p is None else F.layer_norm(x, (x.shape[-1],), p[0], p[1], eps=1e-5)


def forward(top, layers, tokens):
    n = tokens.shape[0]
    x = top["W_E"][tokens] + top["W_pos"][:n]
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    for L in layers:
        a = norm(x, L["ln1"])
        q = torch.einsum("nd,hde->hne", a, L["W_Q"])
        k = torch.einsum("nd,hde->hne", a, L["W_K"])
        v = torch.einsum("nd,hde->hne", a, L["W_V"])
        if L["b_Q"] is not None:
            q, k, v = q + L["b_Q"][:, None], k + L["b_K"][:, None], v + L["b_V"][:, None]
        scores = (q @ k.transpose(1, 2) / math.sqrt(q.shape[2])).masked_fill(~causal, float("-inf"))
        x = x + torch.einsum("hne,hed->nd", torch.softmax(scores, -1) @ v, L["W_O"])
        if L["b_O"] is not None:
            x = x + L["b_O"]
        if L["mlp"] is not None:
            p = L["mlp"]
            pre = norm(x, L["ln2"]) @ p["W_in"] + p.get("b_in", 0.0)
            x = x + F.gelu(pre, approximate="tanh") @ p["W_out"] + p.get("b_out", 0.0)
    logits = norm(x, top["ln_final"]) @ top["W_U"]
    return logits + top["b_U"] if top["b_U"] is not None else logits


def main():
    threads = int(os.environ.get("TORCH_THREADS", "1"))
    torch.set_num_threads(threads)
    model = json.load(open(sys.argv[1]))
    bench = json.loads(open(sys.argv[2]).read().splitlines()[0])
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    top, layers = build(model)
    tokens = torch.tensor(bench["tokens"])
    times = []
    with torch.no_grad():
        for _ in range(repeats):
            t0 = time.perf_counter()
            logits = forward(top, layers, tokens)
            times.append((time.perf_counter() - t0) * 1000)
        loss = F.cross_entropy(logits[:-1], tokens[1:]).item()
    times.sort()
    print(json.dumps({"forward_ms": times[len(times) // 2], "loss": loss,
                      "loss_matches": abs(loss - bench["loss"]) <= 1e-9 * max(1.0, abs(loss)),
                      "threads": threads, "torch": torch.__version__}))


if __name__ == "__main__":
    main()
