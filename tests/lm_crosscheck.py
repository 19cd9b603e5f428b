#!/usr/bin/python3
"""attention-lab-cli --lm-eval / --grad / --export pytorch on GPT models against PyTorch autograd (float64).

usage: lm_crosscheck.py CLI CASE_DIR

60 random models with GPT-2's pre-LayerNorm block, each part optional (core/model.hpp): L = 1, 2, 3 layers
x H = 1, 2, 3, 4 heads (every pair five times), d_head 1 to 5, vocab 2 to 28 letter symbols, n_ctx 4 to 24,
texts of 1 to n_ctx tokens. Biases (b_Q, b_K, b_V per head, b_O per layer, b_U, the MLP's b_in, b_out: each
key kept or left out at random), ln1, ln_final, the MLP (d_mlp 1 to 4 D) and ln2 (only with an MLP) are
toggled independently; case 0 has none of them (the attention-only model) and case 1 all of them. LayerNorm
gains are uniform in 1 +- 0.5, biases in +-0.5; every fourth case has one or two heads ablated.

The reference is written here from the formulas of core/model.hpp with leaf tensors in TransformerLens's
names, and LayerNorm and GELU are torch's own (torch.nn.functional.layer_norm with eps = 1e-5,
torch.nn.functional.gelu with approximate="tanh"):
  x = W_E[tokens] + W_pos[:n]; per layer: a = LN1(x); per head q, k, v = a W_Q + b_Q, a W_K + b_K, a W_V + b_V,
  A = softmax(causal(q k^T / sqrt(d_head))), z = A v, result = z W_O (ablated: 0);
  resid_mid = ((x + result_0) + result_1) + ... + b_O;  with an MLP
  resid_post = resid_mid + GELU(LN2(resid_mid) W_in + b_in) W_out + b_out;
  logits = LNf(x) W_U + b_U;  L = mean_i cross_entropy(logits_i, t_{i+1}), i = 0 .. n-2 (n = 1: L = 0)
and backward() gives every gradient. --lm-eval --stages must agree on every stage (TransformerLens's hook
names; the scores on j <= i, and exactly 0 above the diagonal), the logits, loss, per-token losses, the
weights and the top 10 (ids and p); --grad on the loss and every gradient, under the model's own keys and
nothing else (an ablated head's weights: exactly 0). Tolerance, as model_crosscheck.py's:
|ours - torch| <= 1e-10 (|torch| + 1e-3 max|torch|) per array; for a gradient, plus 1e-12 x the model's
largest gradient entry: what float64 leaves of a gradient that cancels to about 0 (dL/db_K is exactly 0;
behind a LayerNorm over D = 1 or 2, x-hat is 0 or about +-1 whatever x, and torch's own D = 1 gradients
are rounding noise up to ~1e-13 of the largest where the exact value is 0). Without it, some 300 of the
~300,000 numbers would fail on noise alone; the summary line counts the entries that needed it.

--eval ... --export pytorch: for every fifth model, the PyTorch script the CLI writes is run (in this
process: torch is imported once); its logits must equal --lm-eval's within 1e-12 relative and its loss
within 1e-12.

--override L.H.x=FILE --lens: 16 models with every part, a random head's q, k or v replaced by random
numbers, or its mask (.mask: random 0/1 cells ANDed with the causal mask, a row sometimes fully masked:
weights 0 there); the logits and the logit lens (LNf(resid_post_l) W_U + b_U after each layer: the top
token and its p) against the reference given the same numbers.

Bad input: a handful of broken GPT models and texts, each refused by --lm-eval with exit 2 and the field
named first on stderr.

Exit 0 on success, 1 on a mismatch, 77 (ctest SKIP) when torch is missing.
"""
import contextlib
import copy
import io
import json
import math
import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import cli_and_case_dir, require, run, run_json  # noqa: E402

np = require("numpy")
torch = require("torch")
F = torch.nn.functional

RTOL = 1e-10
# A gradient entry within FLOOR x the model's largest gradient entry is rounding noise (compare_grads).
FLOOR = 1e-12
EXPORT_RTOL = 1e-12
LETTERS = [chr(ord("a") + i) for i in range(26)] + [" ", "."]
PARTS = ("bias", "ln1", "ln_final", "mlp", "ln2")
# The model's keys that are not weights (no gradient).
NOT_WEIGHTS = ("vocab", "n_ctx", "d_model")
HEAD_HOOKS = ("q", "k", "v", "attn_scores", "pattern", "z", "result")


def random_parts(rng, index):
    """Which optional parts case `index` has: none for case 0, all for case 1, else each at random."""
    if index < 2:
        parts = {p: index == 1 for p in PARTS}
    else:
        parts = {p: bool(rng.integers(0, 2)) for p in PARTS}
    parts["ln2"] = parts["ln2"] and parts["mlp"]
    return parts


def random_model(rng, layers, heads, parts, all_biases):
    """A model's JSON (a dict) with the parts asked for; biases each kept with probability 3/4 unless
    `all_biases`."""
    d_head = int(rng.integers(1, 6))
    D = heads * d_head
    V = int(rng.integers(2, 29))
    n_ctx = int(rng.integers(4, 25))
    M = int(rng.integers(1, 4 * D + 1))
    mat = lambda r, c, bound: rng.uniform(-bound, bound, size=(r, c)).tolist()  # noqa: E731
    vec = lambda n, bound=0.5: rng.uniform(-bound, bound, size=n).tolist()  # noqa: E731
    bias = lambda: parts["bias"] and (all_biases or rng.uniform() < 0.75)  # noqa: E731
    norm = lambda: {"w": (1.0 + rng.uniform(-0.5, 0.5, size=D)).tolist(), "b": vec(D)}  # noqa: E731
    b_in, b_out = 2.0 / math.sqrt(D), 2.0 / math.sqrt(d_head)
    m = {"vocab": LETTERS[:V], "n_ctx": n_ctx, "d_model": D, "W_E": mat(V, D, 1.0), "W_pos": mat(n_ctx, D, 1.0),
         "layers": []}
    for _ in range(layers):
        layer = {"heads": []}
        for _ in range(heads):
            head = {"W_Q": mat(D, d_head, b_in), "W_K": mat(D, d_head, b_in), "W_V": mat(D, d_head, b_in),
                    "W_O": mat(d_head, D, b_out)}
            for key in ("b_Q", "b_K", "b_V"):
                if bias():
                    head[key] = vec(d_head)
            layer["heads"].append(head)
        if bias():
            layer["b_O"] = vec(D)
        if parts["ln1"]:
            layer["ln1"] = norm()
        if parts["mlp"]:
            mlp = {"W_in": mat(D, M, 2.0 / math.sqrt(D))}
            if bias():
                mlp["b_in"] = vec(M)
            mlp["W_out"] = mat(M, D, 2.0 / math.sqrt(M))
            if bias():
                mlp["b_out"] = vec(D)
            layer["mlp"] = mlp
            if parts["ln2"]:
                layer["ln2"] = norm()
        m["layers"].append(layer)
    m["W_U"] = mat(D, V, b_in)
    if parts["ln_final"]:
        m["ln_final"] = norm()
    if bias():
        m["b_U"] = vec(V)
    return m


def leaves(tree, make):
    """The model's weights (dicts and lists of dicts kept, every number list a leaf) mapped by `make`."""
    if isinstance(tree, dict):
        return {k: leaves(v, make) for k, v in tree.items() if k not in NOT_WEIGHTS}
    if isinstance(tree, list) and tree and isinstance(tree[0], dict):
        return [leaves(v, make) for v in tree]
    return make(tree)


def torch_reference(m, tokens, ablated, override=None, mean_ablated=()):
    """(stages {hook name: array or [head] arrays}, logits, loss, per-token losses, gradient tree).
    `override`: {(layer, head, "q" | "k" | "v"): n x d_head array} replacing that head's q, k or v, or
    {(layer, head, "mask"): n x n of 0/1} ANDed with the causal mask (a fully masked row: weights 0), as
    --override does. `mean_ablated`: the (layer, head) pairs whose result is replaced by its mean over the
    text's positions (--ablate L.H:mean). stages also holds "lens.{l}": LNf(resid_post_l) W_U + b_U."""
    override = override or {}
    P = leaves(m, lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True))
    D = m["d_model"]
    n = len(tokens)
    idx = torch.tensor(tokens)
    causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
    norm = lambda x, p: x if p is None else F.layer_norm(x, (D,), p["w"], p["b"], eps=1e-5)  # noqa: E731
    plus = lambda x, p, key: x + p[key] if key in p else x  # noqa: E731
    stages = {}
    x = P["W_E"][idx] + P["W_pos"][:n]
    for l, layer in enumerate(P["layers"]):
        b = f"blocks.{l}."
        stages[b + "hook_resid_pre"] = x
        a = norm(x, layer.get("ln1"))
        stages[b + "ln1.hook_normalized"] = a
        per_head = {hook: [] for hook in HEAD_HOOKS}
        resid, attn_out = x, None
        for h, w in enumerate(layer["heads"]):
            q, k, v = plus(a @ w["W_Q"], w, "b_Q"), plus(a @ w["W_K"], w, "b_K"), plus(a @ w["W_V"], w, "b_V")
            t64 = lambda arr: torch.tensor(arr, dtype=torch.float64)  # noqa: E731
            q = t64(override[(l, h, "q")]) if (l, h, "q") in override else q
            k = t64(override[(l, h, "k")]) if (l, h, "k") in override else k
            v = t64(override[(l, h, "v")]) if (l, h, "v") in override else v
            S = (q @ k.T) / math.sqrt(q.shape[1])
            allowed = causal
            if (l, h, "mask") in override:
                allowed = causal & (torch.tensor(override[(l, h, "mask")]) != 0)
            # softmax of a row with every cell -inf is NaN in PyTorch; the model gives such a row weights 0
            A = torch.nan_to_num(torch.softmax(S.masked_fill(~allowed, float("-inf")), dim=1), nan=0.0)
            z = A @ v
            result = torch.zeros(n, D, dtype=torch.float64) if (l, h) in ablated else z @ w["W_O"]
            if (l, h) in mean_ablated:
                result = result.mean(dim=0, keepdim=True).expand(n, D)
            for hook, value in zip(HEAD_HOOKS, (q, k, v, S.masked_fill(~causal, 0.0), A, z, result)):
                per_head[hook].append(value)
            if (l, h) not in ablated:
                resid = resid + result
            attn_out = result if attn_out is None else attn_out + result
        resid, attn_out = plus(resid, layer, "b_O"), plus(attn_out, layer, "b_O")
        for hook in HEAD_HOOKS:
            stages[b + "attn.hook_" + hook] = per_head[hook]
        stages[b + "hook_attn_out"] = attn_out
        stages[b + "hook_resid_mid"] = resid
        if "mlp" in layer:
            mlp = layer["mlp"]
            normalized = norm(resid, layer.get("ln2"))
            pre = plus(normalized @ mlp["W_in"], mlp, "b_in")
            post = F.gelu(pre, approximate="tanh")
            out = plus(post @ mlp["W_out"], mlp, "b_out")
            stages.update({b + "ln2.hook_normalized": normalized, b + "mlp.hook_pre": pre,
                           b + "mlp.hook_post": post, b + "hook_mlp_out": out})
            resid = resid + out
        stages[b + "hook_resid_post"] = resid
        x = resid
    final = norm(x, P.get("ln_final"))
    stages["ln_final.hook_normalized"] = final
    for l in range(len(P["layers"])):
        stages[f"lens.{l}"] = plus(norm(stages[f"blocks.{l}.hook_resid_post"], P.get("ln_final")) @ P["W_U"], P, "b_U")
    logits = plus(final @ P["W_U"], P, "b_U")
    if n > 1:
        per_token = F.cross_entropy(logits[:-1], idx[1:], reduction="none")
        loss = per_token.mean()
        loss.backward()
        loss_value, per_token = float(loss), per_token.detach().numpy()
    else:
        loss_value, per_token = 0.0, np.zeros(0)
    grads = leaves(P, lambda t: t.grad.numpy() if t.grad is not None else np.zeros(tuple(t.shape)))
    arrays = {k: [t.detach().numpy() for t in v] if isinstance(v, list) else v.detach().numpy()
              for k, v in stages.items()}
    return arrays, logits.detach().numpy(), loss_value, per_token, grads


def compare(name, ours, theirs, report, floor=0.0, exact_zero=False):
    """|ours - torch| <= RTOL (|torch| + 1e-3 max|torch|) + floor everywhere (model_crosscheck.py's bound,
    and an absolute `floor` for gradients, see compare_grads); `exact_zero`: ours must be exactly 0."""
    try:
        a = np.array(ours, dtype=np.float64)
    except (TypeError, ValueError):
        report["failures"].append(f"{name}: not a numeric array: {str(ours)[:80]}")
        return
    b = np.asarray(theirs, dtype=np.float64)
    if a.shape != b.shape or not np.all(np.isfinite(a)):
        report["failures"].append(f"{name}: shape {a.shape} vs {b.shape} or not finite")
        return
    report["numbers"] += a.size
    if exact_zero:
        if np.any(a != 0):
            report["failures"].append(f"{name}: must be exactly 0, max |x| {np.abs(a).max():.3e}")
        return
    scale = np.abs(b) + 1e-3 * np.abs(b).max(initial=0.0)
    err = np.abs(a - b)
    rel = np.where(scale > 0, err / np.where(scale > 0, scale, 1), err)
    relative_ok = err <= RTOL * scale
    # The worst relative error: of every entry of a stage; of the gradient entries at least 1e-6 of the
    # model's largest gradient (smaller ones are where the rounding noise lives, see compare_grads).
    if floor:
        report["worst_grad"] = max(report["worst_grad"], float(rel[np.abs(b) >= 1e6 * floor].max(initial=0.0)))
    else:
        report["worst"] = max(report["worst"], float(rel.max(initial=0.0)))
    allowance = RTOL * scale + floor
    used = np.where(allowance > 0, err / np.where(allowance > 0, allowance, 1), np.where(err > 0, np.inf, 0.0))
    report["used"] = max(report["used"], float(used.max(initial=0.0)))
    if not np.all(err <= allowance):
        i = tuple(int(k) for k in np.unravel_index(int(np.argmax(rel)), rel.shape)) if rel.size else ()
        report["failures"].append(f"{name}: at {i} ours {a[i]!r}, torch {b[i]!r}; max error {err.max():.3e} "
                                  f"(relative {rel.max():.3e}, max |torch| {np.abs(b).max():.3e}, absolute allowance "
                                  f"{floor:.3e})")
    else:
        report["floor_only"] += int((~relative_ok).sum())


def compare_stages(where, ours, theirs, ablated, report):
    """Every hook of the reference, and no other, in --lm-eval --stages."""
    if not isinstance(ours, dict) or set(ours) != set(theirs):
        got = set(ours) if isinstance(ours, dict) else set()
        report["failures"].append(f"{where} stages: keys differ: missing {sorted(set(theirs) - got)}, "
                                  f"extra {sorted(got - set(theirs))}")
        return
    for hook, want in theirs.items():
        if not isinstance(want, list):
            compare(f"{where} {hook}", ours[hook], want, report)
            continue
        if not isinstance(ours[hook], list) or len(ours[hook]) != len(want):
            report["failures"].append(f"{where} {hook}: not a list of {len(want)} heads")
            continue
        layer = int(hook.split(".")[1])
        for h, (mine, ref) in enumerate(zip(ours[hook], want)):
            name = f"{where} {hook}[{h}]"
            if hook.endswith("hook_attn_scores") or hook.endswith("hook_pattern"):
                # Only j <= i is computed; above the diagonal both are exactly 0 by contract.
                mine = np.array(mine, dtype=np.float64)
                if mine.shape == ref.shape:
                    upper = np.triu(np.ones(ref.shape, dtype=bool), 1)
                    compare(name + " above the diagonal", mine[upper], np.zeros(int(upper.sum())), report,
                            exact_zero=True)
            compare(name, mine, ref, report, exact_zero=hook.endswith("hook_result") and (layer, h) in ablated)


def compare_grads(where, ours, theirs, ablated, floor, report, path=""):
    """The gradient tree --grad printed against the reference's: the same keys and nesting, every array.
    `floor` is FLOOR x the model's largest gradient entry, an absolute allowance: an entry that small is
    what cancellation leaves, rounding noise in any float64 computation. dL/db_K is exactly 0 (softmax
    ignores a shift of a row's scores, and q_i . b_K shifts row i) and both sides hold only the rounding of
    sum_j dL/dk_j; through a LayerNorm over D = 1 or 2, x-hat is 0 or about +-1 whatever x, so the
    gradients behind it are tiny differences of O(1) terms."""
    if isinstance(theirs, dict):
        if not isinstance(ours, dict) or set(ours) != set(theirs):
            got = sorted(ours) if isinstance(ours, dict) else ours
            report["failures"].append(f"{where} --grad {path or 'top'}: keys {got}, the model has {sorted(theirs)}")
            return
        for key, value in theirs.items():
            compare_grads(where, ours[key], value, ablated, floor, report, f"{path}.{key}" if path else key)
    elif isinstance(theirs, list):
        if not isinstance(ours, list) or len(ours) != len(theirs):
            report["failures"].append(f"{where} --grad {path}: not a list of {len(theirs)}")
            return
        for i, (mine, ref) in enumerate(zip(ours, theirs)):
            compare_grads(where, mine, ref, ablated, floor, report, f"{path}[{i}]")
    else:
        parts = path.replace("]", "").replace("[", ".").split(".")
        head = (int(parts[1]), int(parts[3])) if parts[0] == "layers" and len(parts) > 3 and parts[2] == "heads" \
            else None
        # An ablated head's output is the constant 0: none of its weights has any gradient.
        compare(f"{where} d{path}", ours, theirs, report, floor, exact_zero=head in ablated)


def largest(tree):
    """The largest |entry| of a tree of arrays."""
    if isinstance(tree, dict):
        return max((largest(v) for v in tree.values()), default=0.0)
    if isinstance(tree, list):
        return max((largest(v) for v in tree), default=0.0)
    return float(np.abs(tree).max(initial=0.0))


def compare_top(where, top, logits, report):
    """The top 10 after the last position: ids in order of p (near-ties may swap), each p right."""
    row = logits[-1]
    p = np.exp(row - row.max())
    p /= p.sum()
    k = min(10, len(p))
    if not isinstance(top, list) or len(top) != k:
        report["failures"].append(f"{where} top: not a list of {k}")
        return
    ids = [t.get("token") for t in top]
    if sorted(ids) != sorted(set(ids)) or not all(isinstance(i, int) and 0 <= i < len(p) for i in ids):
        report["failures"].append(f"{where} top: ids {ids}")
        return
    compare(f"{where} top p", [t["p"] for t in top], p[ids], report)
    order = np.argsort(-p, kind="stable")
    for r in range(k):
        if ids[r] != order[r] and abs(p[ids[r]] - p[order[r]]) > 1e-12 * p[order[r]]:
            report["failures"].append(f"{where} top[{r}]: token {ids[r]} (p {p[ids[r]]:.17g}), torch's rank {r} is "
                                      f"{order[r]} (p {p[order[r]]:.17g})")
            return
    if any(t.get("piece") != LETTERS[t["token"]] for t in top):
        report["failures"].append(f"{where} top: pieces {[t.get('piece') for t in top]}")


def check_export(cli, case_dir, index, path, text, flags, ours_eval, report):
    """--eval --export pytorch's script, run in this process, against --lm-eval's logits and loss."""
    code, script, err = run(cli, ["--eval", path, "--text", text, "--export", "pytorch"] + flags, timeout=120)
    if code != 0:
        report["failures"].append(f"case {index}: --export pytorch: exit {code}: {err[:300]}")
        return
    script_path = os.path.join(case_dir, f"model{index:02d}.py")
    with open(script_path, "w") as f:
        f.write(script)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            runpy.run_path(script_path, run_name="__main__")
        exported = json.loads(printed.getvalue())
    except Exception as e:  # noqa: BLE001 - any failure of the script is the finding
        report["failures"].append(f"case {index}: the exported script failed: {type(e).__name__}: {e}")
        return
    a, b = np.array(exported["logits"]), np.array(ours_eval["logits"])
    rel = np.abs(a - b).max() / max(np.abs(b).max(), 1e-300) if a.shape == b.shape else math.inf
    report["export_worst"] = max(report["export_worst"], float(rel))
    report["exports"] += 1
    if rel > EXPORT_RTOL or abs(exported["loss"] - ours_eval["loss"]) > EXPORT_RTOL * max(1.0, abs(ours_eval["loss"])) \
            or exported["tokens"] != ours_eval["pieces"]:
        report["failures"].append(f"case {index}: the exported script's logits differ by {rel:.2e} relative "
                                  f"(loss {exported['loss']!r} vs {ours_eval['loss']!r})")


def check_case(cli, case_dir, index, rng, report, coverage):
    layers, heads = 1 + index % 3, 1 + (index // 3) % 4
    parts = random_parts(rng, index)
    m = random_model(rng, layers, heads, parts, all_biases=index == 1)
    coverage["shapes"].add((layers, heads))
    coverage["parts"].add(tuple(parts[p] for p in PARTS))
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
    where = (f"case {index} (L={layers} H={heads} D={m['d_model']} V={len(m['vocab'])} n={n} "
             f"parts={[p for p in PARTS if parts[p]]} ablated={sorted(ablated)})")
    try:
        ours = run_json(cli, ["--lm-eval", path, "--text", text, "--stages", "--compact"] + flags, timeout=120)
        ours_grad = run_json(cli, ["--grad", path, "--text", text, "--compact"] + flags, timeout=120)
    except (RuntimeError, ValueError) as e:
        report["failures"].append(f"{where}: {e}")
        return
    stages, logits, loss, per_token, grads = torch_reference(m, tokens, ablated)
    if index % 5 == 0:
        check_export(cli, case_dir, index, path, text, flags, ours, report)
    if ours.get("tokens") != tokens or ours.get("pieces") != [m["vocab"][t] for t in tokens]:
        report["failures"].append(f"{where}: tokens {ours.get('tokens')} pieces {ours.get('pieces')}")
        return
    if ours.get("ablated") != [f"{l}.{h}" for l, h in sorted(ablated)]:
        report["failures"].append(f"{where}: ablated {ours.get('ablated')}")
    compare(f"{where} --lm-eval loss", [ours["loss"]], [loss], report)
    compare(f"{where} --grad loss", [ours_grad.get("loss")], [loss], report)
    compare(f"{where} per_token_loss", ours["per_token_loss"], per_token, report)
    compare(f"{where} logits", ours["logits"], logits, report)
    for l in range(layers):
        for h in range(heads):
            hook = f"blocks.{l}.attn.hook_pattern"
            compare(f"{where} weights[{l}][{h}]", ours["weights"][l][h], stages[hook][h], report)
    compare_top(where, ours["top"], logits, report)
    compare_stages(where, ours.get("stages"), {k: v for k, v in stages.items() if not k.startswith("lens.")},
                   ablated, report)
    compare_grads(where, {k: v for k, v in ours_grad.items() if k != "loss"}, grads, ablated,
                  FLOOR * largest(grads), report)


def check_override(cli, case_dir, index, rng, report):
    """--override L.H.x=FILE --lens: a random head's q, k or v replaced by random numbers; the logits and the
    logit lens's top token after each layer against the reference given the same numbers. Every second case
    also mean-ablates a random head (--ablate L.H:mean)."""
    layers, heads = 1 + index % 3, 1 + (index // 3) % 4
    m = random_model(rng, layers, heads, {p: True for p in PARTS}, all_biases=True)
    path = os.path.join(case_dir, f"override{index:02d}.json")
    with open(path, "w") as f:
        json.dump(m, f)
    n = int(rng.integers(2, m["n_ctx"] + 1))
    tokens = [int(t) for t in rng.integers(0, len(m["vocab"]), size=n)]
    l, h, which = int(rng.integers(0, layers)), int(rng.integers(0, heads)), ("q", "k", "v", "mask")[index % 4]
    d_head = len(m["layers"][0]["heads"][0]["W_Q"][0])
    if which == "mask":
        mask = (rng.random((n, n)) > 0.3).astype(int)
        if index % 8 == 3:
            mask[n - 1, :] = 0  # a row with no key left: its weights and z are 0
        values = mask.tolist()
    else:
        values = rng.uniform(-2, 2, size=(n, d_head)).tolist()
    values_path = os.path.join(case_dir, f"override{index:02d}_{which}.json")
    with open(values_path, "w") as f:
        json.dump(values, f)
    mean = {(int(rng.integers(0, layers)), int(rng.integers(0, heads)))} if index % 2 == 0 else set()
    mean_flags = sum((["--ablate", f"{ml}.{mh}:mean"] for ml, mh in sorted(mean)), [])
    where = f"override case {index} ({l}.{h}.{which}, L={layers} H={heads} n={n}, mean-ablated {sorted(mean)})"
    try:
        ours = run_json(cli, ["--lm-eval", path, "--text", "".join(m["vocab"][t] for t in tokens), "--override",
                              f"{l}.{h}.{which}={values_path}", "--lens", "--compact"] + mean_flags, timeout=120)
    except (RuntimeError, ValueError) as e:
        report["failures"].append(f"{where}: {e}")
        return
    stages, logits, _, _, _ = torch_reference(m, tokens, set(), {(l, h, which): values}, mean)
    compare(f"{where} logits", ours["logits"], logits, report)
    if ours.get("ablated") != [f"{ml}.{mh}:mean" for ml, mh in sorted(mean)]:
        report["failures"].append(f"{where}: ablated {ours.get('ablated')}")
    report["mean_ablated"] = report.get("mean_ablated", 0) + len(mean)
    for layer in range(layers):
        lens = stages[f"lens.{layer}"]
        probs = np.exp(lens - lens.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        for i, top in enumerate(ours["lens"][layer]):
            best = int(np.argmax(probs[i]))
            if top["token"] != best and probs[i][top["token"]] < probs[i][best] * (1 - 1e-9):
                report["failures"].append(f"{where}: lens[{layer}][{i}] = {top['token']}, torch's argmax {best}")
            compare(f"{where} lens[{layer}][{i}].p", [top["p"]], [probs[i][top["token"]]], report)
    report["overrides"] = report.get("overrides", 0) + 1


def bad_input_cases(case_dir):
    """(file name, model dict, text, the field stderr must start with, a phrase it must contain)."""
    rng = np.random.default_rng(5)
    base = random_model(rng, 2, 2, {p: True for p in PARTS}, all_biases=True)
    D, M = base["d_model"], len(base["layers"][0]["mlp"]["W_in"][0])
    text = "".join(base["vocab"][i % len(base["vocab"])] for i in range(3))
    cases = []

    def case(name, change, expected, phrase, text=text):
        m = copy.deepcopy(base)
        change(m)
        cases.append((name, m, text, expected, phrase))

    case("unknown_key", lambda m: m["layers"][0].update(foo=1), "layers[0].foo", "unknown key")
    case("w_in_rows", lambda m: m["layers"][1]["mlp"]["W_in"].pop(), "layers[1].mlp.W_in", "")
    case("ln1_no_b", lambda m: m["layers"][0]["ln1"].pop("b"), "layers[0].ln1", "")
    case("large", lambda m: m["layers"][0]["mlp"]["W_out"][0].__setitem__(0, 1e5), "layers[0].mlp.W_out", "1e4")
    case("d_mlp", lambda m: [row.extend([0.0] * (4 * D + 1 - M)) for row in m["layers"][0]["mlp"]["W_in"]],
         "layers[0].mlp.W_in", "d_mlp")
    case("ln2_no_mlp", lambda m: m["layers"][1].pop("mlp"), "layers[1].ln2", "mlp")
    case("long_text", lambda m: None, "text", "n_ctx",
         text="".join(base["vocab"][0] for _ in range(base["n_ctx"] + 1)))
    return cases


def check_bad_input(cli, case_dir, report):
    for name, m, text, expected, phrase in bad_input_cases(case_dir):
        path = os.path.join(case_dir, f"bad_{name}.json")
        with open(path, "w") as f:
            json.dump(m, f)
        code, out, err = run(cli, ["--lm-eval", path, "--text", text, "--compact"], timeout=60)
        if code != 2 or out or not err.startswith("attention-lab-cli: " + expected) or phrase not in err:
            report["failures"].append(f"bad input {name}: exit {code}, stderr {err.strip()[:200]!r}, expected "
                                      f"exit 2 and {expected!r} first (with {phrase!r})")
        report["refused"] += 1


def main():
    cli, case_dir = cli_and_case_dir(__doc__)
    torch.set_num_threads(1)  # tiny tensors: threads only cost time on a shared machine
    rng = np.random.default_rng(37)
    report = {"worst": 0.0, "numbers": 0, "failures": [], "exports": 0, "export_worst": 0.0, "refused": 0,
              "floor_only": 0, "used": 0.0, "worst_grad": 0.0}
    coverage = {"shapes": set(), "parts": set()}
    for index in range(60):
        check_case(cli, case_dir, index, rng, report, coverage)
    for index in range(16):
        check_override(cli, case_dir, index, rng, report)
    check_bad_input(cli, case_dir, report)
    combos = coverage["parts"]
    for i, part in enumerate(PARTS):
        if not any(c[i] for c in combos) or not any(not c[i] for c in combos):
            report["failures"].append(f"the generator must make models with and without {part}")
    if len(coverage["shapes"]) != 12:
        report["failures"].append(f"the generator made only the (L, H) pairs {sorted(coverage['shapes'])}")
    for failure in report["failures"][:30]:
        print("FAIL " + failure)
    print(f"--lm-eval --stages / --grad vs torch autograd: 60 GPT models, (L, H) pairs {len(coverage['shapes'])}, "
          f"{len(combos)} combinations of {'/'.join(PARTS)}, {report['numbers']} numbers, worst relative error "
          f"{report['worst']:.2e} of the forward values, {report['worst_grad']:.2e} of the gradients over 1e-6 of "
          f"the largest (limit {RTOL:g}); {report['floor_only']} gradient entries only within the absolute "
          f"allowance of {FLOOR:g} x the largest gradient; the worst error is {report['used']:.2g} of its allowance")
    print(f"--export pytorch: {report['exports']} scripts, worst relative difference of their logits to --lm-eval "
          f"{report['export_worst']:.2e} (limit {EXPORT_RTOL:g}); bad input: {report['refused']} files refused")
    print(f"--override L.H.q|k|v|mask=FILE --lens: {report.get('overrides', 0)} models, logits and the lens's top token after "
          f"each layer against the reference given the same numbers; {report.get('mean_ablated', 0)} of them with a "
          f"mean-ablated head (--ablate L.H:mean)")
    print(f"{len(report['failures'])} failure(s)")
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
