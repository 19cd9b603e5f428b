#!/usr/bin/env python3
"""Lesson 3 against PyTorch itself: the learned-5x8 preset must be PyTorch's seed-0 numbers.

Usage: torch_crosscheck.py ATTENTION_LAB_CLI

Runs the lesson's program with Debian's python3-torch (torch.manual_seed(0); x = torch.rand(1,5,8);
three bias-free nn.Linear(8, 8); scores = q kᵀ / √8; softmax; out = weights v) and compares it with
`attention-lab-cli --preset learned-5x8` piped through `attention-lab-cli -`:
  - x and the three weight matrices: bit for bit (the preset replays PyTorch's generator);
  - q, k, v, scores, weights, output: to 1e-5 relative (PyTorch computes in float32, the core in
    float64 from the same inputs).
Exit 0 on success, 1 on a mismatch, 77 (ctest SKIP) when torch is not installed.
"""
import json
import math
import subprocess
import sys

try:
    import numpy as np
    import torch
except ImportError as e:  # scripts/setup installs python3-torch; this is for other machines
    print(f"SKIP: {e} (install Debian's python3-torch)")
    sys.exit(77)


def lesson3():
    torch.manual_seed(0)
    x = torch.rand(1, 5, 8)
    query = torch.nn.Linear(8, 8, bias=False)
    key = torch.nn.Linear(8, 8, bias=False)
    value = torch.nn.Linear(8, 8, bias=False)
    q, k, v = query(x), key(x), value(x)
    scores = q @ k.transpose(-2, -1) / math.sqrt(8)
    weights = torch.softmax(scores, dim=-1)
    out = weights @ v
    assert tuple(weights.shape) == (1, 5, 5) and tuple(out.shape) == (1, 5, 8)
    t = lambda a: a.detach().numpy()[0] if a.dim() == 3 else a.detach().numpy()
    return {"X": t(x), "Wq": t(query.weight).T, "Wk": t(key.weight).T, "Wv": t(value.weight).T,
            "Q": t(q), "K": t(k), "V": t(v), "scaled": t(scores), "weights": t(weights), "output": t(out)}


def main():
    cli = sys.argv[1]
    scene_text = subprocess.run([cli, "--preset", "learned-5x8"], check=True, capture_output=True).stdout
    scene = json.loads(scene_text)
    result = json.loads(subprocess.run([cli, "-"], input=scene_text, check=True, capture_output=True).stdout)
    ref = lesson3()
    failures = 0
    for name in ("X", "Wq", "Wk", "Wv"):
        ours = np.array(scene[name], dtype=np.float64)
        exact = np.array_equal(ours, ref[name].astype(np.float64))
        print(f"{name:8s} bit-for-bit: {exact}")
        failures += not exact
    for name in ("Q", "K", "V", "scaled", "weights", "output"):
        ours = np.array(result[name], dtype=np.float64)
        theirs = ref[name].astype(np.float64)
        err = np.max(np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-3))
        ok = ours.shape == theirs.shape and err <= 1e-5
        print(f"{name:8s} max relative difference {err:.2e} {'ok' if ok else 'MISMATCH'}")
        failures += not ok
    print(f"torch: weights[0] = {np.round(ref['weights'][0], 6).tolist()}")
    print(f"{10 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
