#!/usr/bin/python3
"""attention-lab-cli --grad against PyTorch autograd (float64).

usage: grad_crosscheck.py CLI CASE_DIR

80 random scenes: projected (X, Wq, Wk, Wv) and direct (Q, K, V), h in {1, 2}, causal on and off,
with and without Wo, scale none / sqrt_dk / a number, some with a custom mask holding a fully masked
row, some with RoPE (both layouts), some with a sliding window (and a sink), ALiBi's bias, or K/V
shared by the two heads (kv_heads 1: head t reads group t // (h / kv_heads)). PyTorch builds the same forward pass from leaf tensors —
Q = X Wq …, head t on its column slices, RoPE per head, S_t = Q_t K_tᵀ / s, masked softmax (a fully
masked row is all zero), Y_t = A_t V_t, concat, · Wo — takes L = ½·Σ(output − target)² and calls
backward(). Every gradient the CLI prints (dX, dWq, dWk, dWv, dWo; dQ, dK, dV for direct scenes) and
the loss must agree within 1e-10 relative: |ours − torch| ≤ 1e-10 · (|torch| + 1e-3 · max|torch|)
(the second term only keeps an entry that cancels to ~0 from demanding digits it does not have).
A fully masked row must give exactly zero gradient to its own X row through Q, and nothing is NaN.

Exit 0 on success, 1 on a mismatch, 77 (ctest SKIP) when torch is missing.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import Tally, cli_and_case_dir, require, run_json  # noqa: E402
from scene_gen import mat, random_mask, random_scene  # noqa: E402

np = require("numpy")
torch = require("torch")

RTOL = 1e-10


def rope_rows(M, base, layout, offset, heads):
    """RoPE of each row (position offset + i), each head's block of d/heads columns on its own."""
    n, d = M.shape
    dh = d // heads
    blocks = []
    for t in range(heads):
        B = M[:, t * dh:(t + 1) * dh]
        cols = [None] * dh
        for c in range(dh // 2):
            theta = torch.tensor([(offset + i) * base ** (-2.0 * c / dh) for i in range(n)], dtype=torch.float64)
            a, b = (2 * c, 2 * c + 1) if layout == "interleaved" else (c, c + dh // 2)
            xa, xb = B[:, a], B[:, b]
            cols[a] = xa * torch.cos(theta) - xb * torch.sin(theta)
            cols[b] = xa * torch.sin(theta) + xb * torch.cos(theta)
        blocks.append(torch.stack(cols, dim=1))
    return torch.cat(blocks, dim=1)


def torch_grads(s, target):
    t64 = lambda m: torch.tensor(m, dtype=torch.float64, requires_grad=True)
    leaves = {}
    projected = "X" in s
    if projected:
        for k in ("X", "Wq", "Wk", "Wv"):
            leaves[k] = t64(s[k])
        Q, K, V = leaves["X"] @ leaves["Wq"], leaves["X"] @ leaves["Wk"], leaves["X"] @ leaves["Wv"]
    else:
        for k in ("Q", "K", "V"):
            leaves[k] = t64(s[k])
        Q, K, V = leaves["Q"], leaves["K"], leaves["V"]
    if "Wo" in s:
        leaves["Wo"] = t64(s["Wo"])
    h = s.get("heads", 1)
    kv = s.get("kv_heads", h)
    n, dk, dv = Q.shape[0], Q.shape[1], V.shape[1]
    if "rope" in s:
        r = s["rope"]
        Q = rope_rows(Q, r["base"], r["layout"], r.get("offset", 0), h)
        K = rope_rows(K, r["base"], r["layout"], r.get("offset", 0), kv)
    allowed = torch.ones(n, n, dtype=torch.bool)
    if s.get("causal"):
        allowed &= torch.tril(torch.ones(n, n, dtype=torch.bool))
    i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]
    if s.get("window", 0) > 0:  # sliding window w, keys j < sinks always visible
        w = s["window"]
        near = (i - j >= 0) & (i - j < w) if s.get("causal") else (i - j).abs() < w
        allowed &= (j < s.get("sinks", 0)) | near
    if "mask" in s:
        allowed &= torch.tensor(s["mask"]) == 1
    row_any = allowed.any(dim=1, keepdim=True).to(torch.float64)
    scale = s.get("scale", "sqrt_dk")
    ys = []
    for t in range(h):
        dkh, dvh, g = dk // h, dv // kv, t // (h // kv)  # head t reads K/V group g
        Qt, Kt, Vt = Q[:, t * dkh:(t + 1) * dkh], K[:, g * dkh:(g + 1) * dkh], V[:, g * dvh:(g + 1) * dvh]
        div = 1.0 if scale == "none" else math.sqrt(dkh) if scale == "sqrt_dk" else float(scale)
        S = (Qt @ Kt.T) / div
        if s.get("alibi"):  # Press et al. 2022: −m_t |i − j|, m_t = 2^(−8(t+1)/h)
            S = S - 2.0 ** (-8.0 * (t + 1) / h) * (i - j).abs().to(torch.float64)
        # masked cells → a huge finite negative (exp gives exactly 0); a fully masked row → all zero
        A = torch.softmax(S.masked_fill(~allowed, -1e300), dim=1) * row_any
        ys.append(A @ Vt)
    out = torch.cat(ys, dim=1)
    if "Wo" in s:
        out = out @ leaves["Wo"]
    loss = 0.5 * ((out - torch.tensor(target, dtype=torch.float64)) ** 2).sum()
    loss.backward()
    return float(loss), {"d" + k: v.grad.numpy() for k, v in leaves.items()}


def grad_scene(rng, index):
    """Scene `index` and its "target" (n×d_out): h 1 and 2 in turn, n 1…7; learned but every 5th
    direct; scale sqrt_dk / none / a number in turn; causal in pairs; W_o in runs of four; every third
    a mask whose last row is fully masked; RoPE every 7th; a window every 9th (a sink on odd ones);
    ALiBi every 11th; K/V shared by both heads (kv_heads 1) on every third two-head scene."""
    h = 1 + index % 2
    n = int(rng.integers(1, 8))
    use_rope = index % 7 == 3
    dkh = 2 * int(rng.integers(1, 3)) if use_rope else int(rng.integers(1, 4))
    dvh = int(rng.integers(1, 4))
    wo_cols = int(rng.integers(1, 5)) if (index // 4) % 2 == 1 else None
    # The last row: the check in main() of a fully masked row's zero dX reads row n − 1.
    mask = random_mask(rng, n, 0.75, fully_masked_row=True, row=n - 1) if index % 3 == 1 else None
    rope = None
    if use_rope:
        rope = {"base": [10000.0, 100.0][index % 2], "layout": ["interleaved", "half"][(index // 7) % 2]}
        if index % 2:
            rope["offset"] = 3
    window = int(rng.integers(1, n + 1)) if index % 9 == 5 else None
    s = random_scene(rng, n=n, d_k=h * dkh, d_v=h * dvh, projected=index % 5 != 4, d_model=int(rng.integers(1, 6)),
                     version=2, heads=h, kv_heads=1 if h == 2 and index % 3 == 0 else None,
                     scale=["sqrt_dk", "none", float(rng.uniform(0.5, 3.0))][index % 3], causal=(index // 2) % 2 == 1,
                     mask=mask, wo_cols=wo_cols, rope=rope, window=window, sinks=1 if window and index % 2 else None,
                     alibi=index % 11 == 2 and not use_rope)
    s["target"] = mat(rng, n, wo_cols or h * dvh)
    return s


def main():
    cli, case_dir = cli_and_case_dir(__doc__)
    rng = np.random.default_rng(16)
    tally, worst, checked = Tally(), 0.0, 0
    counts = {"h1": 0, "h2": 0, "causal": 0, "wo": 0, "masked_row": 0, "rope": 0, "direct": 0}
    for index in range(80):
        s = grad_scene(rng, index)
        path = os.path.join(case_dir, f"grad{index:02d}.json")
        with open(path, "w") as f:
            json.dump(s, f)
        ours = run_json(cli, ["--grad", path])
        target = s.pop("target")
        loss, theirs = torch_grads(s, target)
        counts["h1" if s.get("heads", 1) == 1 else "h2"] += 1
        counts["causal"] += bool(s.get("causal"))
        counts["wo"] += "Wo" in s
        counts["masked_row"] += "mask" in s
        counts["rope"] += "rope" in s
        counts["direct"] += "X" not in s
        expected_keys = ["loss"] + (["dX", "dWq", "dWk", "dWv"] if "X" in s else ["dQ", "dK", "dV"]) + \
            (["dWo"] if "Wo" in s else [])
        if list(ours.keys()) != expected_keys:
            tally.fail(f"{path}: keys {list(ours.keys())}, expected {expected_keys}")
            continue
        pairs = [("loss", np.array([ours["loss"]]), np.array([loss]))]
        pairs += [(k, np.array(ours[k], dtype=np.float64), theirs[k]) for k in expected_keys[1:]]
        for name, a, b in pairs:
            checked += a.size
            if a.shape != b.shape or not np.all(np.isfinite(a)):
                tally.fail(f"{path}: {name} shape {a.shape} vs {b.shape} or not finite")
                continue
            bound = RTOL * (np.abs(b) + 1e-3 * np.abs(b).max(initial=0.0))
            err = np.abs(a - b)
            scale = np.abs(b) + 1e-3 * np.abs(b).max(initial=0.0)
            rel = np.where(scale > 0, err / np.where(scale > 0, scale, 1), err)
            worst = max(worst, float(rel.max(initial=0.0)))
            if not np.all(err <= bound):
                tally.fail(f"{path}: {name} max error {err.max():.3e} (relative {rel.max():.3e})")
        # A fully masked row i of a projected scene sends no gradient into X[i] through its query.
        if "mask" in s and "X" in s and "heads" not in s:
            dq_row = np.array(ours["dX"])[len(s["tokens"]) - 1]
            # X[n−1] also acts as a key/value for other rows, so only check when nobody sees it.
            if all(row[len(s["tokens"]) - 1] == 0 for row in s["mask"]) and np.any(dq_row != 0):
                tally.fail(f"{path}: fully masked, unseen row has a nonzero dX")
    return tally.done(f"--grad vs torch autograd: 80 scenes {counts}, {checked} numbers, worst relative error "
                      f"{worst:.2e} (limit {RTOL:g}); {tally.count} failure(s)")


if __name__ == "__main__":
    sys.exit(main())
