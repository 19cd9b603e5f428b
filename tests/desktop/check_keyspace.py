#!/usr/bin/python3
"""check_keyspace.py — the desktop app's learned projections and Key space pictures.

    check_keyspace.py keyspace --png OUT.png --rects OUT.json      (soft-dictionary, --mode keyspace)
    check_keyspace.py learned  --png OUT.png --rects OUT.json      (practice-qkv, explore)

keyspace: LESSONS.md 2 drawn exactly (d_k = d_v = 2): q_0 = [1,0], q_1 = [0,1], k_0 = [10,0],
  k_1 = [0,10] as widget centres keyspace/q/i, keyspace/k/j on one scale for x and y (10 units
  right = 10 units up), q_0 one tenth of the way to k_0; values v_0 = [1,2], v_1 = [3,4], and
  y_0 = 0.999955·v_0 + 0.000045·v_1 within a pixel of v_0. The point under k_0's centre has the
  key colour, under v_1's the value colour (src/ui/look/theme.hpp kKey, kValue).
learned: practice-qkv's W_q, W_k, W_v (LESSONS.md 1: columns of I4) as Wq/m/c … grids of 4×2, 4×2,
  4×4 equal cells; each cell's corner has the ColorBrewer RdBu (reversed) colour of its value on
  ±w_range = 2 (the slider range of max |W| = 1): 1 → RdBu[6] (244,165,130), 0 → RdBu[4]
  (247,247,247); x_i sliders X/i/m for 3 tokens × 4 features; the make-direct button.
Prints "ok - …" / "not ok - …" per check; exits 1 if any failed.
"""
import argparse
import json
import subprocess
import sys

import numpy as np

failures = 0


def check(name, condition, detail=""):
    global failures
    print(("ok - " if condition else "not ok - ") + name + (f" ({detail})" if detail else ""))
    if not condition:
        failures += 1


def load_png(path):
    size = subprocess.run(["identify", "-format", "%w %h", path], check=True, capture_output=True, text=True).stdout
    w, h = map(int, size.split())
    raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(h, w, 3)


def centre(rects, rid):
    r = rects.get(rid)
    if r is None:
        return None
    return (r["x"] + r["w"] / 2.0, r["y"] + r["h"] / 2.0)


def near(img, x, y, colour, tol=40, radius=2):
    patch = img[int(y) - radius : int(y) + radius + 1, int(x) - radius : int(x) + radius + 1].reshape(-1, 3).astype(int)
    best = np.abs(patch - np.array(colour)).max(axis=1).min()
    return best <= tol, best


def keyspace(img, rects, scale):
    ids = ["keyspace/q/0", "keyspace/q/1", "keyspace/k/0", "keyspace/k/1", "valuespace/v/0", "valuespace/v/1", "valuespace/y/0"]
    c = {i: centre(rects, i) for i in ids}
    for i in ids:
        check(f"keyspace: widget {i} drawn", c[i] is not None)
    if any(v is None for v in c.values()):
        return
    q0, q1, k0, k1 = c["keyspace/q/0"], c["keyspace/q/1"], c["keyspace/k/0"], c["keyspace/k/1"]
    px = 1.5 * scale  # a pixel and a half of rounding
    check("keyspace: q_0 and k_0 on the x axis (same y)", abs(q0[1] - k0[1]) <= px, f"{q0[1]:.1f} vs {k0[1]:.1f}")
    check("keyspace: q_1 and k_1 on the y axis (same x)", abs(q1[0] - k1[0]) <= px, f"{q1[0]:.1f} vs {k1[0]:.1f}")
    unit_x = (k0[0] - q1[0]) / 10.0  # k_0.x − q_1.x = 10 − 0
    unit_y = (q0[1] - k1[1]) / 10.0  # screen y grows down: k_1 is 10 units above q_0
    check("keyspace: one scale for x and y (d_k = 2 drawn exactly)", unit_x > 0 and abs(unit_x - unit_y) <= 0.3 * scale,
          f"{unit_x:.2f} vs {unit_y:.2f} px per unit")
    check("keyspace: q_0 = [1, 0] one unit right of the y axis", abs((q0[0] - q1[0]) - unit_x) <= px,
          f"{q0[0] - q1[0]:.1f} px, unit {unit_x:.1f}")
    ok, d = near(img, k0[0], k0[1], (120, 170, 250))
    check("keyspace: k_0's point has the key colour", ok, f"closest channel difference {d}")
    v0, v1, y0 = c["valuespace/v/0"], c["valuespace/v/1"], c["valuespace/y/0"]
    check("valuespace: v_1 − v_0 = [2, 2] on one scale", abs((v1[0] - v0[0]) - (v0[1] - v1[1])) <= px and v1[0] > v0[0],
          f"dx {v1[0] - v0[0]:.1f}, dy {v0[1] - v1[1]:.1f}")
    check("valuespace: y_0 = 0.999955·v_0 + 0.000045·v_1 sits on v_0", np.hypot(y0[0] - v0[0], y0[1] - v0[1]) <= px,
          f"{np.hypot(y0[0] - v0[0], y0[1] - v0[1]):.2f} px")
    ok, d = near(img, v1[0], v1[1], (60, 200, 150))  # the dark palette's value colour (src/ui/look/palette.hpp)
    check("valuespace: v_1's point has the value colour", ok, f"closest channel difference {d}")


RDBU_9_REVERSED = [0x2166AC, 0x4393C3, 0x92C5DE, 0xD1E5F0, 0xF7F7F7, 0xFDDBC7, 0xF4A582, 0xD6604D, 0xB2182B]


def rdbu(t):
    # The app's table: 256 entries interpolated between the 9 samples, index ⌊t·255 + ½⌋.
    i = int(np.floor(min(max(t, 0.0), 1.0) * 255 + 0.5)) / 255.0 * 8
    lo = min(int(np.floor(i)), 7)
    f = i - lo
    a = np.array([(RDBU_9_REVERSED[lo] >> s) & 255 for s in (16, 8, 0)], float)
    b = np.array([(RDBU_9_REVERSED[lo + 1] >> s) & 255 for s in (16, 8, 0)], float)
    return tuple(np.round(a + f * (b - a)).astype(int))


def learned(img, rects, scale):
    # LESSONS.md 1: W_q = I4[:, 0:2], W_k = I4[:, 1:3], W_v = I4.
    I4 = np.eye(4)
    maps = {"Wq": I4[:, 0:2], "Wk": I4[:, 1:3], "Wv": I4}
    w_range = 2.0
    for name, W in maps.items():
        rows, cols = W.shape
        present = all(f"{name}/{m}/{c}" in rects for m in range(rows) for c in range(cols))
        check(f"learned: {name} drawn as a {rows}×{cols} grid of widgets", present)
        if not present:
            continue
        r00 = rects[f"{name}/0/0"]
        pitch_x = rects[f"{name}/0/1"]["x"] - r00["x"] if cols > 1 else r00["w"]
        pitch_y = rects[f"{name}/1/0"]["y"] - r00["y"]
        check(f"learned: {name} cells are square and evenly spaced", abs(pitch_x - pitch_y) <= 1.01 * scale,
              f"{pitch_x:.1f} × {pitch_y:.1f} px")
        bad = []
        for m in range(rows):
            for c in range(cols):
                r = rects[f"{name}/{m}/{c}"]
                want = rdbu(0.5 + 0.5 * W[m, c] / w_range)
                got = img[int(r["y"] + 3 * scale), int(r["x"] + 3 * scale)].astype(int)
                if np.abs(got - np.array(want)).max() > 6:
                    bad.append(f"{name}[{m}][{c}]={W[m, c]:g}: got {tuple(got)}, want {want}")
        check(f"learned: {name} cells show RdBu colours of their values", not bad, "; ".join(bad[:3]))
    xs = all(f"X/{i}/{m}" in rects for i in range(3) for m in range(4))
    check("learned: x_i sliders X/i/m for 3 tokens × 4 features", xs)
    check("learned: the make-direct button is drawn", "make-direct" in rects)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["keyspace", "learned"])
    parser.add_argument("--png", required=True)
    parser.add_argument("--rects", required=True)
    args = parser.parse_args()
    img = load_png(args.png)
    doc = json.load(open(args.rects))
    rects = doc["rects"]
    scale = float(doc.get("ui_scale", 1))
    (keyspace if args.what == "keyspace" else learned)(img, rects, scale)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
