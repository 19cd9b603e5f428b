#!/usr/bin/python3
"""attention-lab-cli --grad / --eval MODEL --text T against PyTorch autograd (float64).

usage: model_crosscheck.py CLI CASE_DIR

60 random attention-only transformers: L = 1, 2, 3 layers x H = 1, 2, 3, 4 heads (every pair several
times), d_model = H x d_head with d_head 1 to 5, vocab 2 to 28 symbols, n_ctx 4 to 24, texts of 1 to
n_ctx tokens, weights uniform in [-1.5, 1.5]; every fourth case with one or two heads ablated.
PyTorch builds the model from the JSON as leaf tensors with TransformerLens's names and conventions:
  x = W_E[tokens] + W_pos[:n];  per layer, per head: q, k, v = x W_Q, x W_K, x W_V,
  A = softmax(causal(q k^T / sqrt(d_head))),  x <- x + sum_h (A v) W_O  (ablated heads add nothing);
  logits = x W_U;  L = mean_i cross_entropy(logits_i, t_{i+1}) over i = 0 .. n-2
and calls backward(). Every gradient (W_E, W_pos, each head's W_Q, W_K, W_V, W_O, W_U) and the loss of
--grad, and the logits, loss and every head's weights of --eval must agree within 1e-10 relative:
|ours - torch| <= 1e-10 (|torch| + 1e-3 max|torch|) (the second term keeps an entry that cancels to
~0 from demanding digits it does not have). Prints the worst relative error.

--eval ... --export pytorch: for every fifth model, the PyTorch script the CLI writes (TransformerLens's
parameter names) is run with this Python; its logits must equal --eval's within 1e-12 relative and its
loss within 1e-12.

Exit 0 on success, 1 on a mismatch, 77 (ctest SKIP) when torch is missing.
"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import cli_and_case_dir, require, run_json  # noqa: E402

np = require("numpy")
torch = require("torch")

RTOL = 1e-10
LETTERS = [chr(ord("a") + i) for i in range(26)] + [" ", "."]


def random_model(rng, layers, heads):
    d_head = int(rng.integers(1, 6))
    D = heads * d_head
    V = int(rng.integers(2, 29))
    n_ctx = int(rng.integers(4, 25))
    mat = lambda r, c, bound: rng.uniform(-bound, bound, size=(r, c)).tolist()
    b_in, b_out = 2.0 / math.sqrt(D), 2.0 / math.sqrt(d_head)
    return {
        "vocab": LETTERS[:V], "n_ctx": n_ctx, "d_model": D,
        "W_E": mat(V, D, 1.0), "W_pos": mat(n_ctx, D, 1.0),
        "layers": [{"heads": [{"W_Q": mat(D, d_head, b_in), "W_K": mat(D, d_head, b_in), "W_V": mat(D, d_head, b_in),
                               "W_O": mat(d_head, D, b_out)} for _ in range(heads)]} for _ in range(layers)],
        "W_U": mat(D, V, b_in),
    }


def torch_pass(m, tokens, ablated):
    t64 = lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True)
    W_E, W_pos, W_U = t64(m["W_E"]), t64(m["W_pos"]), t64(m["W_U"])
    heads = [[{k: t64(h[k]) for k in ("W_Q", "W_K", "W_V", "W_O")} for h in layer["heads"]] for layer in m["layers"]]
    n = len(tokens)
    idx = torch.tensor(tokens)
    x = W_E[idx] + W_pos[:n]
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    weights = []
    for l, layer in enumerate(heads):
        outs, ws = [], []
        for h, w in enumerate(layer):
            q, k, v = x @ w["W_Q"], x @ w["W_K"], x @ w["W_V"]
            S = (q @ k.T) / math.sqrt(q.shape[1])
            A = torch.softmax(S.masked_fill(~causal, float("-inf")), dim=1)
            ws.append(A.detach().numpy())
            if (l, h) not in ablated:
                outs.append((A @ v) @ w["W_O"])
        weights.append(ws)
        for o in outs:
            x = x + o
    logits = x @ W_U
    if n > 1:
        loss = torch.nn.functional.cross_entropy(logits[:-1], idx[1:], reduction="mean")
        loss.backward()
        loss_value = float(loss)
    else:
        loss_value = 0.0
    grad = lambda t: t.grad.numpy() if t.grad is not None else np.zeros(tuple(t.shape))
    grads = {"W_E": grad(W_E), "W_pos": grad(W_pos), "W_U": grad(W_U),
             "layers": [[{k: grad(w[k]) for k in w} for w in layer] for layer in heads]}
    return loss_value, logits.detach().numpy(), weights, grads


def compare(name, ours, theirs, report):
    a = np.array(ours, dtype=np.float64)
    b = np.asarray(theirs, dtype=np.float64)
    if a.shape != b.shape or not np.all(np.isfinite(a)):
        report["failures"].append(f"{name}: shape {a.shape} vs {b.shape} or not finite")
        return
    scale = np.abs(b) + 1e-3 * np.abs(b).max(initial=0.0)
    err = np.abs(a - b)
    rel = np.where(scale > 0, err / np.where(scale > 0, scale, 1), err)
    report["worst"] = max(report["worst"], float(rel.max(initial=0.0)))
    report["numbers"] += a.size
    if not np.all(err <= RTOL * scale):
        report["failures"].append(f"{name}: max error {err.max():.3e} (relative {rel.max():.3e})")


def main():
    cli, case_dir = cli_and_case_dir(__doc__)
    rng = np.random.default_rng(23)
    report = {"worst": 0.0, "numbers": 0, "failures": [], "exports": 0, "export_worst": 0.0}
    shapes = set()
    for index in range(60):
        layers, heads = 1 + index % 3, 1 + (index // 3) % 4
        m = random_model(rng, layers, heads)
        shapes.add((layers, heads))
        path = os.path.join(case_dir, f"model{index:02d}.json")
        with open(path, "w") as f:
            json.dump(m, f)
        n = int(rng.integers(1, m["n_ctx"] + 1)) if index % 10 else m["n_ctx"]
        tokens = [int(t) for t in rng.integers(0, len(m["vocab"]), size=n)]
        text = "".join(m["vocab"][t] for t in tokens)
        ablated = set()
        if index % 4 == 3:
            ablated.add((int(rng.integers(0, layers)), int(rng.integers(0, heads))))
            if layers * heads > 2:
                ablated.add((layers - 1, heads - 1))
        flags = sum((["--ablate", f"{l}.{h}"] for l, h in sorted(ablated)), [])
        ours_grad = run_json(cli, ["--grad", path, "--text", text, "--compact"] + flags, timeout=120)
        ours_eval = run_json(cli, ["--eval", path, "--text", text, "--compact"] + flags, timeout=120)
        loss, logits, weights, grads = torch_pass(m, tokens, ablated)
        if index % 5 == 0:
            script = subprocess.run([cli, "--eval", path, "--text", text, "--export", "pytorch"] + flags,
                                    capture_output=True, timeout=120)
            script_path = os.path.join(case_dir, f"model{index:02d}.py")
            with open(script_path, "wb") as f:
                f.write(script.stdout)
            ran = subprocess.run([sys.executable, script_path], capture_output=True, timeout=120)
            if script.returncode != 0 or ran.returncode != 0:
                report["failures"].append(f"case {index}: --export pytorch: exit {script.returncode} / "
                                          f"{ran.returncode} {ran.stderr.decode()[-300:]}")
            else:
                exported = json.loads(ran.stdout)
                a, b = np.array(exported["logits"]), np.array(ours_eval["logits"])
                rel = np.abs(a - b).max() / max(np.abs(b).max(), 1e-300)
                report["export_worst"] = max(report["export_worst"], float(rel))
                report["exports"] += 1
                if rel > 1e-12 or abs(exported["loss"] - ours_eval["loss"]) > 1e-12 * max(1.0, abs(ours_eval["loss"])) \
                        or exported["tokens"] != ours_eval["tokens"]:
                    report["failures"].append(f"case {index}: exported script's logits differ by {rel:.2e} relative")
        where = f"case {index} (L={layers} H={heads} D={m['d_model']} V={len(m['vocab'])} n={n} ablated={sorted(ablated)})"
        if list(ours_grad) != ["loss", "W_E", "W_pos", "layers", "W_U"]:
            report["failures"].append(f"{where}: --grad keys {list(ours_grad)}")
            continue
        if ours_eval["tokens"] != [m["vocab"][t] for t in tokens]:
            report["failures"].append(f"{where}: --eval tokens {ours_eval['tokens']}")
        compare(f"{where} --grad loss", [ours_grad["loss"]], [loss], report)
        compare(f"{where} --eval loss", [ours_eval["loss"]], [loss], report)
        compare(f"{where} logits", ours_eval["logits"], logits, report)
        for key in ("W_E", "W_pos", "W_U"):
            compare(f"{where} d{key}", ours_grad[key], grads[key], report)
        for l in range(layers):
            for h in range(heads):
                compare(f"{where} weights[{l}][{h}]", ours_eval["weights"][l][h], weights[l][h], report)
                for key in ("W_Q", "W_K", "W_V", "W_O"):
                    compare(f"{where} layers[{l}].heads[{h}].d{key}", ours_grad["layers"][l]["heads"][h][key],
                            grads["layers"][l][h][key], report)
    for failure in report["failures"][:20]:
        print("FAIL " + failure)
    print(f"--grad/--eval vs torch autograd: 60 models, (L, H) pairs {sorted(shapes)}, {report['numbers']} "
          f"numbers, worst relative error {report['worst']:.2e} (limit {RTOL:g}); "
          f"{len(report['failures'])} failure(s)")
    print(f"--export pytorch: {report['exports']} scripts, worst relative difference of their logits to --eval "
          f"{report['export_worst']:.2e} (limit 1e-12)")
    return 1 if report["failures"] or len(shapes) != 12 else 0


if __name__ == "__main__":
    sys.exit(main())
