#!/usr/bin/python3
"""check_heads.py — a desktop screenshot of a multi-head scene against NumPy.

    check_heads.py --png OUT.png --rects OUT.json --scene SCENE.json

SCENE.json has "heads": h. NumPy recomputes each head's weights (head t: columns
[t·d_k/h, (t+1)·d_k/h) of Q and K, divided by √(d_k/h) under sqrt_dk, masked softmax) and their
average; each cell of the small-multiple grids (rects head/t/weights/i/j, head/average/weights/i/j)
must show the viridis colour of its weight, sampled near two opposite corners of the cell (the
number is centred). The colormap and PNG decoding are check_frame.py's.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_frame import TOLERANCE, VIRIDIS_9, Checks, colormap, patch, read_png  # noqa: E402


def head_weights(scene):
    Q, K = np.array(scene["Q"], float), np.array(scene["K"], float)
    n, h = Q.shape[0], scene.get("heads", 1)
    dk = Q.shape[1] // h
    scale = scene.get("scale", "sqrt_dk")
    s = 1.0 if scale == "none" else np.sqrt(dk) if scale == "sqrt_dk" else float(scale)
    allowed = np.ones((n, n), bool)
    if scene.get("causal"):
        allowed &= np.tril(np.ones((n, n), bool))
    out = []
    for t in range(h):
        z = np.where(allowed, Q[:, t * dk:(t + 1) * dk] @ K[:, t * dk:(t + 1) * dk].T / s, -np.inf)
        w = np.exp(z - z.max(axis=1, keepdims=True))
        out.append(w / w.sum(axis=1, keepdims=True))
    return out + [sum(out) / h]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--png", required=True)
    ap.add_argument("--rects", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--label", default="heads")
    args = ap.parse_args()
    c = Checks(args.label)
    with open(args.scene) as f:
        scene = json.load(f)
    with open(args.rects) as f:
        rects = json.load(f)["rects"]
    img = read_png(args.png)
    grids = head_weights(scene)
    h, n = len(grids) - 1, len(scene["tokens"])
    for name in ["heads"] + [f"head/{t}/focus" for t in range(h)]:
        c.check(f"widget {name} was drawn", name in rects)
    for g, weights in enumerate(grids):
        grid = "average" if g == h else str(g)
        worst, missing = 0.0, 0
        for i in range(n):
            for j in range(n):
                r = rects.get(f"head/{grid}/weights/{i}/{j}")
                if r is None:
                    missing += 1
                    continue
                want = colormap(VIRIDIS_9, weights[i, j])
                for fx, fy in ((0.2, 0.2), (0.8, 0.8)):
                    got = patch(img, r["x"] + fx * r["w"], r["y"] + fy * r["h"])
                    worst = max(worst, float(np.abs(got - want).max()))
        c.check(f"head {grid}: all {n}×{n} cells drawn", missing == 0, f"{missing} missing")
        c.check(f"head {grid}: every cell shows viridis(weight) (worst channel difference {worst:.0f})",
                worst <= TOLERANCE)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
