#!/usr/bin/python3
"""The scene key "rope" through attention-lab-cli against a NumPy RoPE (float64).

usage: rope_crosscheck.py CLI CASE_DIR [COUNT]

NumPy reference, for a head of size d (even), token i at position p = offset + i, pair c:
    θ = p · base^(−2c/d)
    interleaved: pairs (2c, 2c+1)      half: pairs (c, c + d/2)
    (x, y) → (x cos θ − y sin θ, x sin θ + y cos θ)
applied to Q and K after any projection, then softmax(Q_rope K_ropeᵀ / s + M) V.

Checks, each within 1e-12 (relative to the largest entry of the matrix compared):
  * COUNT random scenes (both modes, both layouts, bases 10 … 1e6, offsets, masks, causal):
    Q_rope, K_rope, scores, weights, output; --online B and --kv-cache agree with the pass;
    every third scene has 2 or 3 heads: Q_rope, K_rope turned per head and each head's scores;
  * Toeplitz: all queries equal and all keys equal → scores(i, j) depends only on i − j;
  * offset invariance: the same scene with "offset" 0 and 1 … 50 gives the same scores;
  * bad rope keys exit 2 naming "rope".
Run with Debian's /usr/bin/python3 (python3-numpy); without numpy it prints SKIP and exits 77.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, allowed_of, close, divisor_of, masked_softmax, projections, report, require, run  # noqa: E402,F401
from scene_gen import random_mask, random_scene, scale_for  # noqa: E402

np = require("numpy")

REL = 1e-12


def rope_numpy(M, base, layout, offset, heads=1):
    n, d = M.shape
    dh = d // heads
    out = M.copy()
    for h in range(heads):
        block = M[:, h * dh:(h + 1) * dh]
        pairs = dh // 2
        c = np.arange(pairs)
        theta = (offset + np.arange(n))[:, None] * base ** (-2.0 * c / dh)[None, :]  # n × pairs
        if layout == "interleaved":
            a, b = 2 * c, 2 * c + 1
        else:
            a, b = c, c + pairs
        x, y = block[:, a], block[:, b]
        res = block.copy()
        res[:, a] = x * np.cos(theta) - y * np.sin(theta)
        res[:, b] = x * np.sin(theta) + y * np.cos(theta)
        out[:, h * dh:(h + 1) * dh] = res
    return out


def reference(s):
    Q, K, V = projections(s)
    r = s["rope"]
    h = s.get("heads", 1)
    Qr = rope_numpy(Q, r.get("base", 10000.0), r.get("layout", "interleaved"), r.get("offset", 0), h)
    Kr = rope_numpy(K, r.get("base", 10000.0), r.get("layout", "interleaved"), r.get("offset", 0), h)
    n, d_k = Q.shape
    if h > 1:  # per head: scores of its own columns (the softmax side is the heads cross-check's)
        dh = d_k // h
        return dict(Q_rope=Qr, K_rope=Kr, head_scores=[Qr[:, t * dh:(t + 1) * dh] @ Kr[:, t * dh:(t + 1) * dh].T
                                                       for t in range(h)])
    divisor = divisor_of(s, d_k)
    scores = Qr @ Kr.T
    allowed = allowed_of(s, n)
    weights = masked_softmax(scores / divisor, allowed)
    return dict(Q_rope=Qr, K_rope=Kr, scores=scores, weights=weights, output=weights @ V)


def run_compact(cli, args):
    return run(cli, ["--compact"] + args)


def write(case_dir, name, s):
    path = os.path.join(case_dir, name + ".json")
    with open(path, "w") as f:
        json.dump(s, f)
    return path


def rope_scene(rng, index):
    """Scene `index`: n 1…12, each head's d_k even; every third scene 2 or 3 heads; direct and learned
    in turn; each scale every third scene; a mask every 5th; bases 10 … 1e6, the layout left out
    (the default) every third scene, an offset every 4th."""
    n = int(rng.integers(1, 13))
    heads = 1 if index % 3 else int(rng.choice([2, 3]))  # every third scene multi-head (each head even)
    d_k, d_v = 2 * heads * int(rng.integers(1, 4)), heads * int(rng.integers(1, 4))
    rope = {"base": float(rng.choice([10.0, 100.0, 10000.0, 1e6]))}
    if index % 3 != 2:
        rope["layout"] = "interleaved" if index % 2 == 0 else "half"
    if index % 4 == 3:
        rope["offset"] = int(rng.integers(1, 100))
    return random_scene(rng, n=n, d_k=d_k, d_v=d_v, projected=index % 2 == 1, d_model=int(rng.integers(1, 7)),
                        version=2, heads=heads, scale=scale_for(index, 0.5), causal=index % 4 == 1,
                        mask=random_mask(rng, n, 0.7) if index % 5 == 0 else None, rope=rope)


def main():
    cli, case_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    os.makedirs(case_dir, exist_ok=True)
    rng = np.random.default_rng(2021)
    failures, multi_head = [], 0

    # --- random scenes against NumPy; the tiled pass and the decode see the turned Q and K too
    for index in range(count):
        s = rope_scene(rng, index)
        path = write(case_dir, f"scene_{index:03d}", s)
        code, out, err = run_compact(cli, [path])
        if code != 0:
            failures.append(f"{path}: exit {code}: {err[:200]}")
            continue
        got, want = json.loads(out), reference(s)
        if "head_scores" in want:
            multi_head += 1
            checks = [("Q_rope", got["Q_rope"], want["Q_rope"]), ("K_rope", got["K_rope"], want["K_rope"])]
            checks += [(f"head {t} scores", got["heads"][t]["scores"], w) for t, w in enumerate(want["head_scores"])]
            for key, g, w in checks:
                p = close(g, w)
                if p:
                    failures.append(f"{path} {key}: {p}")
            continue  # --online and --kv-cache run one head
        for key in ("Q_rope", "K_rope", "scores", "weights", "output"):
            p = close(got[key], want[key])
            if p:
                failures.append(f"{path} {key}: {p}")
        n = len(s["tokens"])
        code, out, err = run_compact(cli, ["--online", str(int(rng.integers(1, n + 1))), path])
        if code != 0 or close(json.loads(out)["output"], want["output"]):
            failures.append(f"{path} --online: exit {code} {err[:100]} or output differs")
        causal = dict(s, causal=True)
        cpath = write(case_dir, f"causal_{index:03d}", causal)
        code, out, err = run_compact(cli, ["--kv-cache", cpath])
        want_causal = reference(causal)
        if code != 0:
            failures.append(f"{cpath} --kv-cache: exit {code} {err[:100]}")
        else:
            for t, step in enumerate(json.loads(out)["steps"]):
                p = close(step["output"], want_causal["output"][t])
                if p:
                    failures.append(f"{cpath} --kv-cache step {t}: {p}")

    # --- Toeplitz: equal queries, equal keys → scores constant along each diagonal
    for layout in ("interleaved", "half"):
        q, k = rng.uniform(-1, 1, 8).tolist(), rng.uniform(-1, 1, 8).tolist()
        n = 10
        s = {"version": 2, "tokens": ["x"] * n, "Q": [q] * n, "K": [k] * n, "V": [[1.0]] * n, "scale": "none",
             "rope": {"base": 10.0, "layout": layout}}
        code, out, err = run_compact(cli, [write(case_dir, f"toeplitz_{layout}", s)])
        S = np.array(json.loads(out)["scores"])
        scale = np.abs(S).max()
        for delta in range(-(n - 1), n):
            diag = np.diagonal(S, offset=delta)
            if diag.max() - diag.min() > REL * scale:
                failures.append(f"toeplitz {layout}: diagonal {delta} varies by {diag.max() - diag.min():.3g}")
        if np.ptp(S) < 1e-3:
            failures.append(f"toeplitz {layout}: scores are constant: RoPE did nothing")

    # --- offset invariance: shifting every position changes no score
    base = rope_scene(np.random.default_rng(7), 4)  # one head
    base["rope"] = {"base": 10000.0, "layout": "half"}
    code, out, err = run_compact(cli, [write(case_dir, "offset_0", base)])
    S0 = np.array(json.loads(out)["scores"])
    for offset in (1, 7, 50):
        shifted = dict(base, rope={"base": 10000.0, "layout": "half", "offset": offset})
        code, out, err = run_compact(cli, [write(case_dir, f"offset_{offset}", shifted)])
        got = json.loads(out)
        p = close(got["scores"], S0)
        if p:
            failures.append(f"offset {offset}: scores changed: {p}")
        if np.allclose(got["Q_rope"], json.loads(run_compact(cli, [os.path.join(case_dir, "offset_0.json")])[1])["Q_rope"]):
            failures.append(f"offset {offset}: Q_rope did not change (the offset was ignored)")

    # --- bad rope keys: exit 2, nothing on stdout, stderr names rope
    good = {"version": 2, "tokens": ["a", "b"], "Q": [[1, 2], [3, 4]], "K": [[5, 6], [7, 8]], "V": [[1], [2]]}
    bad = [
        (dict(good, rope={"base": 1}), "rope: base must be above 1"),
        (dict(good, rope={"base": "big"}), "rope: base must be a number"),
        (dict(good, rope={"layout": "rotate"}), "rope: layout must be \"interleaved\" or \"half\""),
        (dict(good, rope={"offset": -1}), "rope: offset must be a whole number"),
        (dict(good, rope={"offset": 1.5}), "rope: offset must be a whole number"),
        (dict(good, rope={"theta": 1}), "rope: unknown key \"theta\""),
        (dict(good, rope=True), "rope: expected an object"),
        (dict(good, Q=[[1], [2]], K=[[1], [2]], rope={}), "rope: each head's size must be even"),
        (dict(good, version=1, rope={}), "rope: needs \"version\": 2"),
    ]
    for index, (s, want) in enumerate(bad):
        code, out, err = run_compact(cli, [write(case_dir, f"bad_{index}", s)])
        if code != 2 or out or f"attention-lab-cli: {want}" not in err:
            failures.append(f"bad rope {s.get('rope')}: exit {code}, stdout {out[:60]!r}, stderr {err[:160]!r}; want {want}")

    return report(failures, f"{len(failures)} problem(s)",
                  f"ok: {count} random RoPE scenes within {REL:g} of NumPy (both layouts, both modes, offsets, "
                  f"{multi_head} multi-head turned per head; --online and --kv-cache too), Toeplitz scores, offset "
                  f"invariance, {len(bad)} bad rope keys", cases={"multi-head scenes": multi_head})


if __name__ == "__main__":
    sys.exit(main())
