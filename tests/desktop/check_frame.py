#!/usr/bin/python3
"""check_frame.py — check one desktop-app screenshot against the scene it shows.

    check_frame.py --png OUT.png --rects OUT.json --scene SCENE.json --size WxH [--lesson NAME]

SCENE.json is the preset's scene JSON v1 (from attention-lab-cli --preset NAME). The expected
weights and scores are recomputed here with NumPy (softmax(QKᵀ/s + M), no project code), and each
heatmap cell of the PNG must show the colormap colour of its value:

  weights  viridis, t = a_ij. Reference: matplotlib's viridis table (matplotlib/_cm_listed.py,
           _viridis_data); the app interpolates its 9 evenly spaced samples (R viridisLite::viridis(9),
           the same table), as src/ui/look/colormap.cpp does. Endpoints: viridis(0) = (68, 1, 84),
           viridis(1) = (253, 231, 37) — matplotlib's first and last entries × 255, rounded.
  scores   ColorBrewer RdBu (9 classes) reversed, symmetric around 0 over the visible cells.
  masked   cells hidden by the causal mask are hatched: only the stripe colour and the gap colour
           (src/ui/look/theme.hpp kHatch / kGap), never a colormap colour.

Pixels are sampled in 3×3 patches near two opposite corners of each cell (the number is centred).
The PNG is decoded with ImageMagick (`convert PNG rgb:-`) into a NumPy array.
Prints one "ok - …" / "not ok - …" line per check and exits 1 if any failed.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

# --- colormaps -------------------------------------------------------------------------------
# matplotlib viridis sampled at 9 evenly spaced points (viridisLite::viridis(9)).
VIRIDIS_9 = [0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21908C, 0x27AD81, 0x5DC863, 0xAADC32, 0xFDE725]
# matplotlib's _viridis_data[0] and [255].
MPL_VIRIDIS_FIRST = (0.267004, 0.004874, 0.329415)
MPL_VIRIDIS_LAST = (0.993248, 0.906157, 0.143936)
# ColorBrewer RdBu, 9 classes, reversed: negative = blue, 0 = near white, positive = red.
RDBU_9_REVERSED = [0x2166AC, 0x4393C3, 0x92C5DE, 0xD1E5F0, 0xF7F7F7, 0xFDDBC7, 0xF4A582, 0xD6604D, 0xB2182B]
HATCH = (92, 100, 116)  # masked-cell stripes
GAP = (30, 34, 42)  # between cells and behind the stripes

TOLERANCE = 4  # per channel, 8-bit: rasterizer and rounding slack, far below colormap steps


def rgb(h):
    return np.array([(h >> 16) & 255, (h >> 8) & 255, h & 255], dtype=float)


def colormap(anchors, t):
    """The 8-bit colour of t ∈ [0, 1]: 256-entry table (linear between anchors), index ⌊255 t + ½⌋."""
    t = min(max(float(t), 0.0), 1.0)
    index = int(t * 255.0 + 0.5)
    x = index / 255.0 * (len(anchors) - 1)
    k = min(int(x), len(anchors) - 2)
    f = x - k
    a, b = rgb(anchors[k]), rgb(anchors[k + 1])
    return np.floor(a + (b - a) * f + 0.5)


# --- reference attention (NumPy) ---------------------------------------------------------------
def reference(scene):
    """(scores QKᵀ, weights A, allowed) for scene JSON v1."""
    if "Q" in scene:
        Q, K = np.array(scene["Q"], float), np.array(scene["K"], float)
    else:
        X = np.array(scene["X"], float)
        Q, K = X @ np.array(scene["Wq"], float), X @ np.array(scene["Wk"], float)
    n, d_k = Q.shape
    scale = scene.get("scale", "sqrt_dk")
    s = 1.0 if scale == "none" else np.sqrt(d_k) if scale == "sqrt_dk" else float(scale)
    scores = Q @ K.T
    allowed = np.ones((n, n), bool)
    if scene.get("causal"):
        allowed &= np.tril(np.ones((n, n), bool))
    if "mask" in scene:
        allowed &= np.array(scene["mask"]) != 0
    z = np.where(allowed, scores / s, -np.inf)
    weights = np.zeros((n, n))
    for i in range(n):
        if allowed[i].any():
            e = np.exp(z[i] - z[i][allowed[i]].max())
            weights[i] = e / e.sum()
    return scores, weights, allowed


# --- image ------------------------------------------------------------------------------------
def read_png(path):
    w, h = map(int, subprocess.check_output(["identify", "-format", "%w %h", path], text=True).split())
    raw = subprocess.check_output(["convert", path, "-depth", "8", "rgb:-"])
    return np.frombuffer(raw, np.uint8).reshape(h, w, 3).astype(float)


def patch(img, x, y):
    """Median colour of the 3×3 patch centred on pixel (x, y)."""
    x, y = int(round(x)), int(round(y))
    return np.median(img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3), axis=0)


class CellColours:
    """The heatmap cells `cells` ((i, j) pairs) of a screenshot against the colours they should show.

    Each cell's rect is rects[name(i, j)]; its colour is sampled in 3×3 patches near two opposite
    corners, at the fractions `corners` of the cell (clear of the centred number), and compared with
    want(i, j), channel by channel. Holds `worst` (the largest channel difference seen), `missing`
    (how many cells have no rect) and `bad` (a text for each sample more than TOLERANCE off)."""

    def __init__(self, img, rects, cells, name, want, corners=((0.2, 0.2), (0.8, 0.8))):
        self.worst, self.missing, self.bad = 0.0, 0, []
        for i, j in cells:
            r = rects.get(name(i, j))
            if r is None:
                self.missing += 1
                continue
            colour = want(i, j)
            for fx, fy in corners:
                got = patch(img, r["x"] + fx * r["w"], r["y"] + fy * r["h"])
                diff = float(np.abs(got - colour).max())
                self.worst = max(self.worst, diff)
                if diff > TOLERANCE:
                    self.bad.append(f"({i},{j}) at {fx},{fy}: got {got.astype(int).tolist()}, "
                                    f"want {colour.astype(int).tolist()}")


class Checks:
    def __init__(self, label):
        self.label, self.passed, self.failed = label, 0, 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok - {self.label}: {name}")
        else:
            self.failed += 1
            print(f"not ok - {self.label}: {name}" + (f": {detail}" if detail else ""))
        return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--png", required=True)
    ap.add_argument("--rects", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--size", required=True, help="requested window size WxH (logical pixels)")
    ap.add_argument("--label", default="frame")
    ap.add_argument("--lesson", default="", help="also compare the reference with LESSONS.md numbers")
    args = ap.parse_args()
    c = Checks(args.label)

    # The references themselves: the colormap endpoints are matplotlib's, the lesson numbers hold.
    c.check("viridis(0), viridis(1) are matplotlib's first/last entries",
            np.array_equal(colormap(VIRIDIS_9, 0), np.round(np.array(MPL_VIRIDIS_FIRST) * 255))
            and np.array_equal(colormap(VIRIDIS_9, 1), np.round(np.array(MPL_VIRIDIS_LAST) * 255)))
    with open(args.scene) as f:
        scene = json.load(f)
    scores, weights, allowed = reference(scene)
    n = len(scene["tokens"])
    # docs/LESSONS.md's weights (tests/fixtures/lessons.json).
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "lessons.json")) as f:
        lessons = json.load(f)
    if "weights" in lessons.get(args.lesson or "", {}):
        c.check("NumPy reference matches LESSONS.md's weights",
                np.allclose(weights, lessons[args.lesson]["weights"], atol=1e-6), f"{weights}")
    if args.lesson == "causal-5":
        c.check("NumPy reference: row 2 has zeros at columns 3, 4 and sums to 1",
                weights[2, 3] == 0 and weights[2, 4] == 0 and abs(weights[2, :3].sum() - 1) < 1e-12)

    img = read_png(args.png)
    with open(args.rects) as f:
        rects_doc = json.load(f)
    rects, fb = rects_doc["rects"], rects_doc["framebuffer"]
    scale = float(rects_doc.get("ui_scale", 1))
    want_w, want_h = (int(v) for v in args.size.lower().split("x"))
    h, w = img.shape[:2]
    c.check(f"PNG is {want_w}x{want_h} × content scale {scale:g}",
            (w, h) == (round(want_w * scale), round(want_h * scale)), f"got {w}x{h}")
    c.check("rects' framebuffer size equals the PNG's", (fb["w"], fb["h"]) == (w, h), f"{fb} vs {w}x{h}")
    colours = len(np.unique(img.reshape(-1, 3), axis=0))
    c.check("not blank (≥ 500 distinct colours)", colours >= 500, f"{colours} colours")

    for grid in ("scores", "weights", "mask"):
        missing = [f"{i}/{j}" for i in range(n) for j in range(n) if f"cell/{grid}/{i}/{j}" not in rects]
        c.check(f"all {n}x{n} cell/{grid}/i/j rects present", not missing, f"missing {missing[:5]}")
    ids = ["preset", "causal", "scale", "tokens", "Q/0/0", "K/0/0", "V/0/0"]
    if "X" in scene:  # a learned scene shows x_i's sliders (q, k, v are computed) and the conversion button
        ids = ["preset", "causal", "scale", "tokens", "dmodel", "X/0/0", "make-direct"]
    c.check("widget rects present: " + ", ".join(ids), all(i in rects for i in ids),
            f"missing {[i for i in ids if i not in rects]}")

    span = np.abs(scores[allowed]).max() if allowed.any() else 1.0
    span = span if span > 1e-9 else 1.0

    def cell_colour_errors(grid, expected_of):
        # The visible cells (masked ones are hatched, checked below); a missing rect was checked above.
        cells = [(i, j) for i in range(n) for j in range(n) if allowed[i, j]]
        return CellColours(img, rects, cells, lambda i, j: f"cell/{grid}/{i}/{j}", expected_of).bad

    bad = cell_colour_errors("weights", lambda i, j: colormap(VIRIDIS_9, weights[i, j]))
    c.check("weight cells show viridis(a_ij)", not bad, "; ".join(bad[:4]))
    bad = cell_colour_errors("scores", lambda i, j: colormap(RDBU_9_REVERSED, (scores[i, j] + span) / (2 * span)))
    c.check("score cells show RdBu((s + m) / 2m), m = max|s|", not bad, "; ".join(bad[:4]))
    if args.lesson == "soft-dictionary":
        r = rects["cell/weights/0/0"]
        got = patch(img, r["x"] + 0.2 * r["w"], r["y"] + 0.2 * r["h"])
        a = lessons["soft-dictionary"]["weights"][0]
        c.check(f"a_00 ≈ {a[0]:.6f} is viridis(1) ≈ (253,231,37)", np.abs(got - [253, 231, 37]).max() <= TOLERANCE,
                f"{got.tolist()}")
        r = rects["cell/weights/0/1"]
        got = patch(img, r["x"] + 0.2 * r["w"], r["y"] + 0.2 * r["h"])
        c.check(f"a_01 ≈ {a[1]:.6f} is viridis(0) ≈ (68,1,84)", np.abs(got - [68, 1, 84]).max() <= TOLERANCE,
                f"{got.tolist()}")

    # Masked cells: in a band clear of the centred number, every pixel is a stripe or the gap
    # colour, and both occur (stripes, not a flat fill).
    masked = [(i, j) for i in range(n) for j in range(n) if not allowed[i, j]]
    # The mask panel hatches only what the causal mask hides; a cell hidden by the custom mask alone
    # shows the mask's own "0" there (a flat cell, checked below to carry no stripes).
    causal = bool(scene.get("causal"))
    causal_masked = [(i, j) for i, j in masked if causal and j > i]
    custom_only = [(i, j) for i, j in masked if not (causal and j > i)]
    if masked:
        for grid in ("weights", "scores", "mask"):
            cells = causal_masked if grid == "mask" else masked
            if not cells:
                continue
            bad = []
            for i, j in cells:
                r = rects[f"cell/{grid}/{i}/{j}"]
                x0, x1 = int(r["x"] + 0.15 * r["w"]), int(r["x"] + 0.85 * r["w"])
                y0, y1 = int(r["y"] + 0.06 * r["h"]), int(r["y"] + 0.22 * r["h"])  # above the number, even in 20 px cells
                px = img[y0:y1, x0:x1].reshape(-1, 3)
                near_hatch = np.abs(px - HATCH).max(axis=1) <= 8
                near_gap = np.abs(px - GAP).max(axis=1) <= 8
                share = (near_hatch | near_gap).mean()
                if share < 0.97 or near_hatch.mean() < 0.1 or near_gap.mean() < 0.1:
                    bad.append(f"({i},{j}): {share:.0%} hatch/gap, {near_hatch.mean():.0%} stripes")
            c.check(f"{len(cells)} masked {grid} cells are hatched", not bad, "; ".join(bad[:4]))
    if custom_only:
        bad = []
        for i, j in custom_only:
            r = rects[f"cell/mask/{i}/{j}"]
            px = img[int(r["y"] + 0.12 * r["h"]):int(r["y"] + 0.3 * r["h"]),
                     int(r["x"] + 0.15 * r["w"]):int(r["x"] + 0.85 * r["w"])].reshape(-1, 3)
            stripes = (np.abs(px - HATCH).max(axis=1) <= 8).mean()
            if stripes >= 0.1:
                bad.append(f"({i},{j}): {stripes:.0%} stripes")
        c.check(f"{len(custom_only)} cells hidden by the custom mask alone are flat in the mask grid", not bad,
                "; ".join(bad[:4]))

    print(f"# {args.label}: {c.passed} ok, {c.failed} not ok")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
