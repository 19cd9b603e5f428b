#!/usr/bin/python3
"""check_heads.py — a desktop screenshot of a multi-head scene against NumPy.

    check_heads.py --png OUT.png --rects OUT.json --scene SCENE.json

SCENE.json has "heads": h. NumPy recomputes each head's weights (head t: columns
[t·d_k/h, (t+1)·d_k/h) of Q and K, divided by √(d_k/h) under sqrt_dk, masked softmax) and their
average; each cell of the small-multiple grids (rects head/t/weights/i/j, head/average/weights/i/j)
must show the viridis colour of its weight, sampled near two opposite corners of the cell (the
number is centred). The reference, the colormap, the cell sampling and PNG decoding are check_frame.py's.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_frame import TOLERANCE, VIRIDIS_9, CellColours, Checks, colormap, read_png, reference  # noqa: E402


def head_weights(scene):
    """Each head's weights (check_frame's reference on the head's columns of Q and K), then their mean."""
    Q, K = np.array(scene["Q"], float), np.array(scene["K"], float)
    h = scene.get("heads", 1)
    dk = Q.shape[1] // h
    out = [reference({**scene, "Q": Q[:, t * dk:(t + 1) * dk], "K": K[:, t * dk:(t + 1) * dk]})[1] for t in range(h)]
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
    cells = [(i, j) for i in range(n) for j in range(n)]
    for g, weights in enumerate(grids):
        grid = "average" if g == h else str(g)
        cc = CellColours(img, rects, cells, lambda i, j: f"head/{grid}/weights/{i}/{j}",
                         lambda i, j: colormap(VIRIDIS_9, weights[i, j]))
        c.check(f"head {grid}: all {n}×{n} cells drawn", cc.missing == 0, f"{cc.missing} missing")
        c.check(f"head {grid}: every cell shows viridis(weight) (worst channel difference {cc.worst:.0f})",
                cc.worst <= TOLERANCE)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
