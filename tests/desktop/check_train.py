#!/usr/bin/python3
"""check_train.py — the desktop app's Train mode (--mode train) under the caller's X display.

    check_train.py --app APP --cli CLI --out DIR

1. A fresh run: `APP --mode train` draws the Train panel's widgets (train/task, train/play,
   train/pause, train/step, …), the loss curve and the predictions, and exits 0.
2. A trained model: `CLI --train previous-token --steps 300 --seed 1` prints the trained scene;
   `APP --mode train SCENE` opens it in the Train mode (the run continues from it). Its weights grid
   must show the sub-diagonal: every cell (rects cell/weights/i/j) is viridis of the weight NumPy
   computes from the scene (Q = X·Wq, K = X·Wk, causal softmax of QKᵀ/√d_k), and each row i ≥ 1
   puts its largest weight on i − 1. The reference, the colormap, the cell sampling and PNG decoding
   are check_frame.py's.
Prints "ok - …" / "not ok - …" lines and "N passed, N failed"; exit 1 on a failure.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_frame import TOLERANCE, VIRIDIS_9, CellColours, Checks, colormap, read_png, reference  # noqa: E402

WIDGETS = ["mode/train", "train/task", "train/play", "train/pause", "train/step", "train/reset", "train/lr",
           "train/seed", "train/heads/1", "train/heads/2", "train/speed", "train/status", "train/curve",
           "train/predictions"]


def run_app(c, app, args, base):
    p = subprocess.run([app, "--mode", "train", "--frames", "5", "--size", "1280x720", "--screenshot",
                        base + ".png", "--rects", base + ".rects.json"] + args, capture_output=True, text=True,
                       timeout=120)
    with open(base + ".log", "w") as f:
        f.write(p.stdout + p.stderr)
    c.check(f"--mode train {' '.join(args)}: exits 0 (log {base}.log)", p.returncode == 0)
    c.check(f"--mode train {' '.join(args)}: no GL or GLFW errors", "GL error" not in p.stderr and "GLFW error" not in p.stderr)
    if p.returncode != 0:
        return None
    with open(base + ".rects.json") as f:
        return json.load(f)["rects"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    c = Checks("train")
    os.makedirs(args.out, exist_ok=True)

    rects = run_app(c, args.app, [], os.path.join(args.out, "train-fresh"))
    if rects is not None:
        missing = [w for w in WIDGETS if w not in rects]
        c.check(f"fresh run: the Train mode's {len(WIDGETS)} widgets were drawn", not missing, f"missing {missing}")

    trained = subprocess.run([args.cli, "--train", "previous-token", "--steps", "300", "--seed", "1", "--compact"],
                             capture_output=True, text=True, timeout=120)
    c.check("attention-lab-cli --train previous-token --steps 300 --seed 1: exits 0", trained.returncode == 0)
    if trained.returncode != 0:
        print(f"{c.passed} passed, {c.failed} failed")
        return 1
    scene = json.loads(trained.stdout)["scene"]
    scene_path = os.path.join(args.out, "train-previous-token.scene.json")
    with open(scene_path, "w") as f:
        json.dump(scene, f)
    base = os.path.join(args.out, "train-previous-token")
    rects = run_app(c, args.app, [scene_path], base)
    if rects is not None:
        img = read_png(base + ".png")
        weights = reference(scene)[1]  # Q = X·Wq, K = X·Wk, causal softmax of QKᵀ/√d_k
        n = weights.shape[0]
        # The causal part (masked cells are hatched), sampled a little nearer the corners than
        # check_frame does: the trained weights print numbers in these small cells.
        cc = CellColours(img, rects, [(i, j) for i in range(n) for j in range(i + 1)],
                         lambda i, j: f"cell/weights/{i}/{j}", lambda i, j: colormap(VIRIDIS_9, weights[i, j]),
                         corners=((0.15, 0.15), (0.85, 0.85)))
        c.check(f"trained previous-token: all {n * (n + 1) // 2} visible weight cells drawn", cc.missing == 0,
                f"{cc.missing} missing")
        c.check(f"trained previous-token: every cell shows viridis(weight) (worst channel difference {cc.worst:.0f})",
                cc.worst <= TOLERANCE)
        c.check("trained previous-token: each row i ≥ 1 attends most to i − 1 (the sub-diagonal)",
                list(weights.argmax(axis=1)[1:]) == list(range(n - 1)))
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
