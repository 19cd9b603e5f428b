#!/usr/bin/python3
"""Multi-head attention of attention-lab-cli against NumPy and against PyTorch itself.

usage: heads_crosscheck.py numpy CLI CASE_DIR     direct-mode multi-head scenes vs NumPy float64
       heads_crosscheck.py torch CLI CASE_DIR     projected scenes vs torch.nn.MultiheadAttention

numpy: 60 random direct scenes (h in 1, 2, 3, 4, 8; scale none / sqrt_dk / a number; causal and
custom masks, some with a fully masked row; with and without Wo). NumPy recomputes every per-head
stage — head t takes columns [t·d/h, (t+1)·d/h) of Q, K and V; scores_t = Q_t K_tᵀ; scaled_t =
scores_t / s with s = √(d_k/h) under sqrt_dk; weights_t = masked row-softmax; Y_t = weights_t V_t —
then concat = [Y_0 | … | Y_{h−1}], weights = mean of the weights_t, output = concat · Wo (or
concat). Every number within 1e-12 (relative, absolute near 0).

torch: random projected scenes with d_model = 8 and h in 1, 2, 4, with and without a causal mask
and Wo, against nn.MultiheadAttention(8, h, bias=False, batch_first=True) in float64 given the same
weights (in_proj_weight = [Wqᵀ; Wkᵀ; Wvᵀ], out_proj.weight = Woᵀ, or the identity without Wo):
output and averaged weights within 1e-5 relative. Then the torch-mha preset: its X, Wq, Wk, Wv, Wo
bit for bit against torch.manual_seed(0); x = torch.rand(1, 5, 8);
nn.MultiheadAttention(8, 2, bias=False, batch_first=True), and its output and weights against that
module (float32) within 1e-5 relative.

Exit 0 on success, 1 on a mismatch, 77 (ctest SKIP) when numpy (or torch, for "torch") is missing.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, allowed_of, divisor_of, heads_reference, require, run  # noqa: E402,F401

np = require("numpy")


def run_cli(cli, args, stdin_text=None):
    proc = subprocess.run([cli] + args, input=None if stdin_text is None else stdin_text.encode(),
                          capture_output=True, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"{cli} {args}: exit {proc.returncode}: {proc.stderr.decode()[:300]}")
    return json.loads(proc.stdout)


def close(ours, theirs, rtol, atol):
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    if ours.shape != theirs.shape:
        return False, float("inf")
    err = np.abs(ours - theirs)
    return bool(np.all(err <= rtol * np.abs(theirs) + atol)), float(err.max(initial=0.0))


# ---- NumPy: direct mode, every per-head stage -------------------------------------------------

def random_direct_scene(rng, index):
    h = [1, 2, 3, 4, 8][index % 5]
    n = int(rng.integers(1, 11))
    dk_head, dv_head = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    spread = 15.0 if index % 7 == 0 else 2.0
    mat = lambda r, c: rng.uniform(-spread, spread, size=(r, c)).tolist()
    s = {"version": 2, "tokens": [f"t{i}" for i in range(n)], "Q": mat(n, h * dk_head), "K": mat(n, h * dk_head),
         "V": mat(n, h * dv_head), "heads": h}
    if h == 1:
        del s["heads"]
    s["scale"] = ["none", "sqrt_dk", float(rng.uniform(0.3, 4.0))][index % 3]
    s["causal"] = index % 4 == 0
    if index % 3 == 1:
        mask = (rng.uniform(size=(n, n)) < 0.7).astype(int)
        if index % 6 == 1:
            mask[0, :] = 0  # a fully masked row
        s["mask"] = mask.tolist()
    if index % 2 == 1:
        s["Wo"] = mat(h * dv_head, int(rng.integers(1, 6)))
    return s


def numpy_heads(s):
    Q, K, V = (np.array(s[k], dtype=np.float64) for k in ("Q", "K", "V"))
    n, h = Q.shape[0], s.get("heads", 1)
    allowed = allowed_of(s, n)
    divisor = divisor_of(s, Q.shape[1] // h)
    return dict(heads_reference(s, Q, K, V, h, divisor, allowed), allowed=allowed.astype(int), divisor=divisor)


def check_numpy(cli, case_dir):
    rng = np.random.default_rng(2026)
    failures, checked = [], 0
    for index in range(60):
        s = random_direct_scene(rng, index)
        path = os.path.join(case_dir, f"heads_{index:02d}.json")
        with open(path, "w") as f:
            json.dump(s, f)
        got, want = run_cli(cli, [path]), numpy_heads(s)
        h = s.get("heads", 1)
        stages = []  # (name, ours, numpy)
        if h == 1:  # the single-head form: top-level scores/scaled, concat only with Wo
            stages += [("scores", got["scores"], want["heads"][0]["scores"])]
            scaled = np.array([[np.nan if v is None else v for v in row] for row in got["scaled"]])
            stages += [("scaled", scaled, want["heads"][0]["scaled"])]
            if "Wo" in s:
                stages += [("concat", got["concat"], want["concat"])]
            else:
                failures += [f"{path}: h = 1 without Wo has a concat key"] if "concat" in got else []
        else:
            if len(got["heads"]) != h or "scores" in got:
                failures.append(f"{path}: want {h} heads and no top-level scores")
                continue
            for t, (g, w) in enumerate(zip(got["heads"], want["heads"])):
                scaled = np.array([[np.nan if v is None else v for v in row] for row in g["scaled"]])
                stages += [(f"heads[{t}].scores", g["scores"], w["scores"]), (f"heads[{t}].scaled", scaled, w["scaled"]),
                           (f"heads[{t}].weights", g["weights"], w["weights"]),
                           (f"heads[{t}].output", g["output"], w["output"])]
            stages += [("concat", got["concat"], want["concat"])]
        stages += [("weights", got["weights"], want["weights"]), ("output", got["output"], want["output"]),
                   ("allowed", got["allowed"], want["allowed"]), ("divisor", got["divisor"], want["divisor"])]
        for name, ours, theirs in stages:
            ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
            same_nan = ours.shape == theirs.shape and np.array_equal(np.isnan(ours), np.isnan(theirs))
            ok, err = close(np.nan_to_num(ours), np.nan_to_num(theirs), 1e-12, 1e-12)
            checked += 1
            if not (ok and same_nan):
                failures.append(f"{path}: {name} differs from NumPy by {err:.3e}")
    for f in failures:
        print("FAIL " + f)
    print(f"numpy: {checked - len(failures)} of {checked} stages within 1e-12 on 60 multi-head scenes")
    return 1 if failures else 0


# ---- PyTorch: nn.MultiheadAttention ------------------------------------------------------------

def check_torch(cli, case_dir):
    try:
        import torch
    except ImportError as e:
        print(f"SKIP: {e} (install Debian's python3-torch)")
        return SKIP
    failures, compared = [], 0

    def mha(E, h, Wq, Wk, Wv, Wo, dtype):
        m = torch.nn.MultiheadAttention(E, h, bias=False, batch_first=True).to(dtype)
        with torch.no_grad():
            m.in_proj_weight.copy_(torch.tensor(np.vstack([Wq.T, Wk.T, Wv.T]), dtype=dtype))
            m.out_proj.weight.copy_(torch.tensor(Wo.T if Wo is not None else np.eye(E), dtype=dtype))
        return m

    def compare(label, got, out, weights):
        nonlocal compared
        for name, ours, theirs in (("output", got["output"], out), ("weights", got["weights"], weights)):
            ok, err = close(ours, theirs, 1e-5, 1e-9)
            compared += 1
            print(f"{'ok  ' if ok else 'FAIL'} {label}: {name} max difference {err:.2e}")
            if not ok:
                failures.append(f"{label}: {name}")

    rng = np.random.default_rng(7)
    E, index = 8, 0
    for h in (1, 2, 4):
        for causal in (False, True):
            for with_wo in (False, True):
                n = int(rng.integers(2, 8))
                X, Wq, Wk, Wv = (rng.uniform(-1, 1, size=shape) for shape in ((n, E), (E, E), (E, E), (E, E)))
                Wo = rng.uniform(-1, 1, size=(E, E)) if with_wo else None
                s = {"version": 2, "tokens": [f"t{i}" for i in range(n)], "X": X.tolist(), "Wq": Wq.tolist(),
                     "Wk": Wk.tolist(), "Wv": Wv.tolist(), "scale": "sqrt_dk", "causal": causal, "heads": h}
                if with_wo:
                    s["Wo"] = Wo.tolist()
                path = os.path.join(case_dir, f"torch_heads_{index:02d}.json")
                index += 1
                with open(path, "w") as f:
                    json.dump(s, f)
                got = run_cli(cli, [path])
                m = mha(E, h, Wq, Wk, Wv, Wo, torch.float64)
                x = torch.tensor(X[None], dtype=torch.float64)
                # attn_mask: True = may NOT attend (the future, when causal).
                mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1) if causal else None
                with torch.no_grad():
                    out, weights = m(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=True)
                compare(f"h={h} causal={causal} Wo={with_wo} n={n}", got, out[0].numpy(), weights[0].numpy())

    # The torch-mha preset: PyTorch's own seed-0 module.
    scene_text = subprocess.run([cli, "--preset", "torch-mha"], check=True, capture_output=True).stdout.decode()
    scene = json.loads(scene_text)
    torch.manual_seed(0)
    x = torch.rand(1, 5, 8)
    m = torch.nn.MultiheadAttention(8, 2, bias=False, batch_first=True)
    W = m.in_proj_weight.detach().numpy().astype(np.float64)
    want = {"X": x[0].numpy().astype(np.float64), "Wq": W[0:8].T, "Wk": W[8:16].T, "Wv": W[16:24].T,
            "Wo": m.out_proj.weight.detach().numpy().astype(np.float64).T}
    for name, theirs in want.items():
        exact = np.array_equal(np.array(scene[name], dtype=np.float64), theirs)
        compared += 1
        print(f"{'ok  ' if exact else 'FAIL'} torch-mha {name} bit for bit: {exact}")
        if not exact:
            failures.append(f"torch-mha {name} is not PyTorch's")
    with torch.no_grad():
        out, weights = m(x, x, x)
    compare("torch-mha (PyTorch float32)", run_cli(cli, ["-"], scene_text), out[0].numpy(), weights[0].numpy())
    print(f"torch: {compared - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("numpy", "torch"):
        print(__doc__)
        return 2
    os.makedirs(sys.argv[3], exist_ok=True)
    return check_numpy(sys.argv[2], sys.argv[3]) if sys.argv[1] == "numpy" else check_torch(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
