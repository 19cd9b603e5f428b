#!/usr/bin/python3
"""Every stage of attention-lab-cli against NumPy (float64) on random scenes.

usage: numpy_crosscheck.py CLI CASE_DIR [COUNT]

Generates COUNT (default 80, at least 50) random scenes — both modes, scale none / sqrt_dk / a
number, causal on and off, random custom masks (some with a fully masked row), n in 1..16, each d in
1..12 — writes them to CASE_DIR, runs the CLI on each, and recomputes in NumPy:

    Q = X Wq, K = X Wk, V = X Wv            (projected mode; given directly otherwise)
    scores = Q Kᵀ, scaled = scores / s      (s = 1, √d_k or the number)
    allowed = tril(1) if causal, AND mask
    weights = row-softmax over allowed cells (0 elsewhere; a row with none: all 0, reported)
    output = weights V
    entropy = −Σ a log₂ a per row (bits; 0 for a fully masked row)
    argmax = numpy.argmax of each row's allowed weights (the first maximum; −1 if fully masked)

Every 5th scene repeats token 0 in token 1 (its key, or its X row), so rows hold exact ties and
argmax must pick the first of them. It compares with |cli − numpy| ≤ 1e-5·|numpy| + 1e-9 (relative, absolute near 0).
Run with Debian's /usr/bin/python3 (python3-numpy); without numpy it prints SKIP and exits 77.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, allowed_of, divisor_of, masked_softmax, projections, report, require, run  # noqa: E402,F401
from scene_gen import random_mask, random_scene, scale_for  # noqa: E402

np = require("numpy")

RTOL, ATOL = 1e-5, 1e-9


def numpy_scene(rng, index):
    """Scene `index`: n 1…16, each d 1…12; direct and learned in turn; each scale every third scene
    (half of the sqrt_dk ones leave the key out: it is the default); a mask every 4th, every 8th with
    a fully masked row; key 1 = key 0 every 5th (exact ties)."""
    n = int(rng.integers(1, 17))
    d_k, d_v, d_model = (int(d) for d in rng.integers(1, 13, size=3))
    projected = index % 2 == 1
    temperature = float(rng.choice([1e-3, 0.25, 1.0, 2.5, 17.0])) * float(rng.uniform(0.5, 2.0))
    scale = scale_for(index, temperature)
    if scale == "sqrt_dk" and index % 2 == 0:
        scale = None
    mask = random_mask(rng, n, 0.7, fully_masked_row=index % 8 == 0) if index % 4 == 0 else None
    # Mostly O(1) values; every 7th scene is larger so softmax saturates.
    s = random_scene(rng, n=n, d_k=d_k, d_v=d_v, projected=projected, d_model=d_model,
                     spread=20.0 if index % 7 == 0 else 2.0, scale=scale, causal=bool(rng.integers(0, 2)), mask=mask)
    if index % 5 == 0 and n >= 2:
        # Exact ties: token 1's key equals token 0's (bit for bit), so every row scores them alike.
        key = "X" if projected else "K"
        s[key][1] = list(s[key][0])
    return s


def reference(s):
    Q, K, V = projections(s)
    n, d_k = Q.shape
    divisor = divisor_of(s, d_k)
    scores = Q @ K.T
    scaled = scores / divisor
    allowed = allowed_of(s, n)
    weights = masked_softmax(scaled, allowed)
    masked_rows = [i for i in range(n) if not allowed[i].any()]
    entropy = np.zeros(n)
    argmax = np.full(n, -1)
    for i in range(n):
        if i in masked_rows:
            continue
        a = weights[i][weights[i] > 0]
        entropy[i] = max(0.0, float(-(a * np.log2(a)).sum()))
        argmax[i] = int(np.argmax(np.where(allowed[i], weights[i], -np.inf)))
    return dict(Q=Q, K=K, V=V, scores=scores, divisor=divisor, scaled=scaled, allowed=allowed,
                weights=weights, output=weights @ V, masked_rows=masked_rows, entropy=entropy,
                argmax=argmax)


def compare(name, got, want, failures):
    got = np.array(got, dtype=np.float64)
    if got.shape != want.shape:
        failures.append(f"{name}: shape {got.shape}, numpy {want.shape}")
        return 0.0
    diff = np.abs(got - want)
    bad = diff > RTOL * np.abs(want) + ATOL
    if bad.any():
        i = tuple(int(k) for k in np.argwhere(bad)[0])
        failures.append(f"{name}: at {i} cli {got[i]!r}, numpy {want[i]!r}, max |diff| {diff.max():.3g}")
    return float(diff.max()) if diff.size else 0.0


def main():
    cli, case_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    assert count >= 50
    os.makedirs(case_dir, exist_ok=True)
    rng = np.random.default_rng(20240601)
    failures, max_rel, checked_masked, checked_ties = [], 0.0, 0, 0
    for index in range(count):
        s = numpy_scene(rng, index)
        path = os.path.join(case_dir, f"scene_{index:03d}.json")
        with open(path, "w") as f:
            json.dump(s, f)
        proc = subprocess.run([cli, "--compact", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        where = f"scene {index} ({path})"
        if proc.returncode != 0:
            failures.append(f"{where}: exit {proc.returncode}: {proc.stderr.decode()[:200]}")
            continue
        got = json.loads(proc.stdout)
        want = reference(s)
        case_failures = []
        for key in ("Q", "K", "V", "scores", "weights", "output"):
            compare(f"{where} {key}", got[key], want[key], case_failures)
            w = want[key]
            if w.size:
                rel = np.abs(np.array(got[key]) - w) / np.maximum(np.abs(w), 1e-300)
                rel = rel[np.abs(w) > 1e-6]
                max_rel = max(max_rel, float(rel.max()) if rel.size else 0.0)
        compare(f"{where} divisor", [got["divisor"]], np.array([want["divisor"]]), case_failures)
        # scaled: null exactly where masked, the NumPy value elsewhere.
        scaled = got["scaled"]
        null_at = np.array([[v is None for v in row] for row in scaled])
        if not np.array_equal(null_at, ~want["allowed"]):
            case_failures.append(f"{where} scaled: null cells differ from the masked cells")
        else:
            filled = np.array([[0.0 if v is None else v for v in row] for row in scaled])
            compare(f"{where} scaled", np.where(want["allowed"], filled, 0.0),
                    np.where(want["allowed"], want["scaled"], 0.0), case_failures)
        if not np.array_equal(np.array(got["allowed"]) == 1, want["allowed"]):
            case_failures.append(f"{where} allowed differs")
        if got["masked_rows"] != want["masked_rows"]:
            case_failures.append(f"{where} masked_rows {got['masked_rows']}, numpy {want['masked_rows']}")
        checked_masked += len(want["masked_rows"])
        # Reading aids: entropy in bits, argmax the first maximum (exact ties every 5th scene).
        compare(f"{where} entropy", got["entropy"], want["entropy"], case_failures)
        if got["argmax"] != want["argmax"].tolist():
            case_failures.append(f"{where} argmax {got['argmax']}, numpy {want['argmax'].tolist()}")
        n = len(s["tokens"])
        if index % 5 == 0 and n >= 2:
            tied_rows = [i for i in range(n) if want["allowed"][i, 0] and want["allowed"][i, 1]
                         and want["weights"][i, 0] == want["weights"][i].max()]
            checked_ties += len(tied_rows)
        # Masked weights are exactly 0, never merely small.
        if np.any(np.array(got["weights"])[~want["allowed"]] != 0.0):
            case_failures.append(f"{where} a masked weight is not exactly 0")
        failures += case_failures
    return report(failures, f"{len(failures)} mismatch(es) against NumPy over {count} scenes",
                  f"ok: {count} random scenes, every stage within {RTOL:g} relative of NumPy float64 (max relative "
                  f"difference {max_rel:.3g}; {checked_masked} fully masked rows; {checked_ties} tied largest weights)",
                  cases={"fully masked rows": checked_masked, "ties for a row's largest weight": checked_ties})


if __name__ == "__main__":
    sys.exit(main())
