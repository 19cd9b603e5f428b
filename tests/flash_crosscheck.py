#!/usr/bin/python3
"""attention-lab-cli --online B and --kv-cache against NumPy (float64) on random scenes.

usage: flash_crosscheck.py CLI CASE_DIR [COUNT]

Generates COUNT (default 60) random scenes — both modes, scale none / sqrt_dk / a number, causal on
and off, custom masks (some with a fully masked row), n in 1..14 — and for each one:

--online B (B = 1, a random B, n): the tiled pass written again in NumPy, tile by tile,
    m_new = max(m, max_j s_ij),  α = exp(m − m_new),  ℓ = α ℓ + Σ exp(s_ij − m_new),
    O = α O + Σ exp(s_ij − m_new) v_j,   y = O / ℓ
  every step's skipped / m / l / rescale / O, the output against NumPy's softmax(QKᵀ/s + M) V and
  max_abs_diff_vs_naive, all within 1e-12 relative (O and the output relative to ℓ·max|V| and max|V|:
  an output row is a blend of value rows).
--kv-cache: step t's weights and output against row t of NumPy's causal pass (1e-12), and bit for
  bit against row t of the CLI's own causal full pass; the multiply counts against their formulas.

Also the flags' errors: --online 0 or > n → exit 2 naming --online; --online x → exit 2 (a usage
error, CLI11) naming --online.
Run with Debian's /usr/bin/python3 (python3-numpy); without numpy it prints SKIP and exits 77.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, allowed_of, divisor_of, masked_softmax, projections, report, require, run  # noqa: E402,F401
from scene_gen import random_mask, random_scene, scale_for  # noqa: E402

np = require("numpy")

REL = 1e-12


def flash_scene(rng, index):
    """Scene `index`: n 1…14, d_k 1…8, d_v 1…6; direct and learned in turn; each scale every third
    scene; causal in runs of three; a mask on three scenes in four, every 4th with a fully masked row."""
    n = int(rng.integers(1, 15))
    d_k, d_v, d_model = int(rng.integers(1, 9)), int(rng.integers(1, 7)), int(rng.integers(1, 9))
    mask = random_mask(rng, n, 0.7, fully_masked_row=index % 4 == 0) if index % 4 != 1 else None
    return random_scene(rng, n=n, d_k=d_k, d_v=d_v, projected=index % 2 == 1, d_model=d_model,
                        spread=3.0 if index % 5 == 0 else 1.5,
                        scale=scale_for(index, float(rng.choice([0.05, 0.5, 2.0, 30.0]))),
                        causal=(index // 3) % 2 == 1, mask=mask)


def inputs(s):
    Q, K, V = projections(s)
    n, d_k = Q.shape
    return Q, K, V, (Q @ K.T) / divisor_of(s, d_k), allowed_of(s, n)


def naive(scaled, allowed, V):
    weights = masked_softmax(scaled, allowed)
    return weights, weights @ V


def online_reference(scaled, allowed, V, B):
    """The tiled pass in NumPy: a list of steps (dicts) and the output."""
    n, d_v = V.shape
    m = np.full(n, -np.inf)
    l = np.zeros(n)
    O = np.zeros((n, d_v))
    steps = []
    blocks = (n + B - 1) // B
    for rb in range(blocks):
        r0, r1 = rb * B, min(rb * B + B, n)
        for cb in range(blocks):
            c0, c1 = cb * B, min(cb * B + B, n)
            tile_allowed = allowed[r0:r1, c0:c1]
            rescale = np.ones(r1 - r0)
            if tile_allowed.any():
                for r in range(r0, r1):
                    a = allowed[r, c0:c1]
                    if not a.any():
                        continue
                    s = scaled[r, c0:c1][a]
                    m_new = max(m[r], s.max())
                    alpha = 1.0 if m[r] == -np.inf else np.exp(m[r] - m_new)
                    rescale[r - r0] = alpha
                    p = np.exp(s - m_new)
                    l[r] = alpha * l[r] + p.sum()
                    O[r] = alpha * O[r] + p @ V[c0:c1][a]
                    m[r] = m_new
            steps.append(dict(row_block=rb, col_block=cb, skipped=not tile_allowed.any(), m=m[r0:r1].copy(),
                              l=l[r0:r1].copy(), rescale=rescale, O=O[r0:r1].copy()))
    out = np.where(l[:, None] > 0, O / np.where(l > 0, l, 1.0)[:, None], 0.0)
    return steps, out


def close(got, want, scale):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return f"shape {got.shape}, numpy {want.shape}"
    bound = REL * np.maximum(np.abs(want), scale)
    bad = np.abs(got - want) > bound
    if bad.any():
        i = tuple(int(k) for k in np.argwhere(bad)[0])
        return f"at {i} cli {got[i]!r}, numpy {want[i]!r}"
    return None


def check_online(cli, path, s, B, failures):
    code, out, err = run(cli, ["--compact", "--online", str(B), path])
    where = f"{path} --online {B}"
    if code != 0:
        failures.append(f"{where}: exit {code}: {err[:200]}")
        return 0
    got = json.loads(out)
    Q, K, V, scaled, allowed = inputs(s)
    vmax = float(np.abs(V).max()) if V.size else 0.0
    steps, out_ref = online_reference(scaled, allowed, V, B)
    _, y = naive(scaled, allowed, V)
    if got["block"] != B or len(got["steps"]) != len(steps):
        failures.append(f"{where}: block {got['block']}, {len(got['steps'])} steps, numpy {len(steps)}")
        return 0
    for k, (g, w) in enumerate(zip(got["steps"], steps)):
        at = f"{where} step {k}"
        for key in ("row_block", "col_block", "skipped"):
            if g[key] != w[key]:
                failures.append(f"{at} {key}: cli {g[key]}, numpy {w[key]}")
        m_null = np.array([v is None for v in g["m"]])
        if not np.array_equal(m_null, np.isinf(w["m"])):
            failures.append(f"{at} m: null where cli {g['m']}, numpy {w['m']}")
            continue
        problems = [
            ("m", close([0.0 if v is None else v for v in g["m"]], np.where(np.isinf(w["m"]), 0.0, w["m"]), 1.0)),
            ("l", close(g["l"], w["l"], 0.0)),
            ("rescale", close(g["rescale"], w["rescale"], 0.0)),
            ("O", close(g["O"], w["O"], float(np.max(w["l"], initial=0.0)) * vmax)),
        ]
        failures += [f"{at} {key}: {p}" for key, p in problems if p]
    for key, want in (("output vs tiled numpy", out_ref), ("output vs naive numpy", y)):
        p = close(got["output"], want, vmax)
        if p:
            failures.append(f"{where} {key}: {p}")
    if not 0.0 <= got["max_abs_diff_vs_naive"] <= REL * max(vmax, 1e-300):
        failures.append(f"{where} max_abs_diff_vs_naive {got['max_abs_diff_vs_naive']}")
    skipped = sum(st["skipped"] for st in steps)
    if got["tiles_skipped"] != skipped or got["tiles_computed"] != len(steps) - skipped:
        failures.append(f"{where} tiles_computed/skipped {got['tiles_computed']}/{got['tiles_skipped']}")
    return skipped


def check_kv_cache(cli, path, s, case_dir, index, failures):
    where = f"{path} --kv-cache"
    code, out, err = run(cli, ["--compact", "--kv-cache", path])
    if code != 0:
        failures.append(f"{where}: exit {code}: {err[:200]}")
        return
    got = json.loads(out)
    causal = dict(s, causal=True)
    causal_path = os.path.join(case_dir, f"causal_{index:03d}.json")
    with open(causal_path, "w") as f:
        json.dump(causal, f)
    code, out, err = run(cli, ["--compact", causal_path])
    full = json.loads(out)
    Q, K, V, scaled, allowed = inputs(causal)
    weights, y = naive(scaled, allowed, V)
    vmax = float(np.abs(V).max())
    n, d_k, d_v = Q.shape[0], Q.shape[1], V.shape[1]
    if len(got["steps"]) != n:
        failures.append(f"{where}: {len(got['steps'])} steps, expected {n}")
        return
    for t, step in enumerate(got["steps"]):
        at = f"{where} step {t}"
        if step["t"] != t or step["cache_len"] != t + 1 or len(step["weights"]) != t + 1:
            failures.append(f"{at}: t {step['t']}, cache_len {step['cache_len']}, {len(step['weights'])} weights")
            continue
        for key, want, scale in (("weights", weights[t, : t + 1], 0.0), ("output", y[t], vmax)):
            p = close(step[key], want, scale)
            if p:
                failures.append(f"{at} {key} vs numpy: {p}")
        # Exactly row t of the CLI's causal full pass (the doubles print the same iff they are equal).
        if step["weights"] != full["weights"][t][: t + 1] or step["output"] != full["output"][t]:
            failures.append(f"{at}: not bit for bit row {t} of the causal full pass")
    d_model = len(s["X"][0]) if "X" in s else 0
    with_cache = sum(d_model * (2 * d_k + d_v) + (t + 1) * (d_k + d_v) for t in range(n))
    without = sum((t + 1) * d_model * (2 * d_k + d_v) + (t + 1) ** 2 * (d_k + d_v) for t in range(n))
    if (got["mults_with_cache"], got["mults_without_cache"]) != (with_cache, without):
        failures.append(f"{where} mults {got['mults_with_cache']}/{got['mults_without_cache']}, "
                        f"expected {with_cache}/{without}")


def check_errors(cli, case_dir, failures):
    path = os.path.join(case_dir, "three.json")
    with open(path, "w") as f:
        json.dump({"version": 1, "tokens": ["a", "b", "c"], "Q": [[1], [2], [3]], "K": [[1], [0], [1]],
                   "V": [[1], [2], [3]]}, f)
    for args, want_code, want in ((["--online", "0", path], 2, "--online: block 0 must be between 1 and n = 3"),
                                  (["--online", "4", path], 2, "--online: block 4 must be between 1 and n = 3"),
                                  (["--online", "x", path], 2, "--online: needs a block size"),
                                  (["--online"], 2, "--online: missing value"),
                                  (["--online", "2", "--kv-cache", path], 2, "give --online or --kv-cache")):
        code, out, err = run(cli, args)
        if code != want_code or out or want not in err:
            failures.append(f"{args}: exit {code}, stdout {out[:80]!r}, stderr {err[:120]!r}; want {want_code}, {want}")


def main():
    cli, case_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    os.makedirs(case_dir, exist_ok=True)
    rng = np.random.default_rng(14)
    failures, skipped, masked = [], 0, 0
    for index in range(count):
        s = flash_scene(rng, index)
        path = os.path.join(case_dir, f"scene_{index:03d}.json")
        with open(path, "w") as f:
            json.dump(s, f)
        n = len(s["tokens"])
        for B in sorted({1, int(rng.integers(1, n + 1)), n}):
            skipped += check_online(cli, path, s, B, failures)
        check_kv_cache(cli, path, s, case_dir, index, failures)
        masked += int(sum(not row.any() for row in inputs(s)[4]))
    check_errors(cli, case_dir, failures)
    cases = {"skipped tiles": skipped, "fully masked rows": masked}
    return report(failures, f"{len(failures)} mismatch(es) over {count} scenes",
                  f"ok: {count} random scenes: --online steps and output within {REL:g} of NumPy ({skipped} skipped "
                  f"tiles, {masked} fully masked rows), --kv-cache steps = NumPy and bit for bit the causal full pass",
                  cases)


if __name__ == "__main__":
    sys.exit(main())
