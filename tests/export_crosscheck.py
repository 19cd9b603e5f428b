#!/usr/bin/python3
"""The exports of attention-lab-cli --export KIND, checked against the CLI's own numbers.

usage: export_crosscheck.py numpy|pytorch|latex|svg CLI CASE_DIR

Scenes: the CLI's presets, the bundled demos (web/demos/*.json) and 40 random scenes that cover
causal on/off, custom masks (every 4th with a fully masked row), each scale (none, sqrt_dk, a
temperature), direct and projected mode, RoPE (version 2; both layouts, offsets up to 5000), 2 or 3
heads and an output map Wo (version 2; half of them shaped for nn.MultiheadAttention), a sliding
window (some with a sink), ALiBi and shared K/V (kv_heads 1 of 2 heads) (version 2), n = 1, and
token labels that need escaping.

  numpy    each exported script runs with /usr/bin/python3 (a subprocess, as a user would run it;
           it must print and exit 0), then is exec'd: `weights` and `output` (float64 arrays) equal
           the CLI's "weights"/"output" to max |diff| ≤ 1e-12, the inputs are the scene's doubles bit
           for bit, fully masked rows are exactly 0, no NaN anywhere.
  pytorch  the same with python3-torch (torch.float64 tensors; nn.Linear layers in projected mode);
           exit 77 (ctest SKIP, loudly) when torch is missing.
  latex    every stage of a set of scenes: one balanced bmatrix, n (or n) rows of the right number
           of entries, each the CLI's number to --digits decimals, −∞ exactly at the masked cells
           of "scaled", MaxMatrixCols raised beyond 10 columns.
  svg      every stage: parses as XML (xml.etree), one <rect class="cell"> per matrix cell, each
           filled with the colormap colour of its value (the colormaps rebuilt from their published
           anchors in tests/desktop/check_frame.py, not from the app's table), masked cells hatched;
           n > 64 as one embedded PNG of cols×rows pixels. Then headless Chromium renders SVGs and
           the pixel at each cell's centre (above its number, when it has one) must be that colour
           (all figures on one page, one Chromium launch)
           (±4 per channel).
Prints "N passed, N failed".
"""
import base64
import json
import math
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "desktop")]
from check_frame import RDBU_9_REVERSED, TOLERANCE, VIRIDIS_9, colormap, read_png  # noqa: E402
from scene_gen import random_mask, random_scene, scale_for  # noqa: E402

SKIP = 77
PYTHON = "/usr/bin/python3"
TOL = 1e-12
STAGES = ["weights", "scores", "scaled", "Q", "K", "V", "output"]


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"not ok - {name}" + (f": {detail}" if detail else ""))
        return ok


def run_cli(cli, args, stdin_text):
    p = subprocess.run([cli, *args], input=stdin_text.encode(), capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.decode()}")
    return p.stdout.decode()


# --- scenes ---------------------------------------------------------------------------------------
# Token labels a script or a figure must escape (quotes, backslash, newline, tab, non-ASCII, XML).
ODD_LABELS = ['say "hi"', "back\\slash", "new\nline", "naïve→", "<&>", "tab\tx", "'q'", "--x"]


def export_scene(rng, index):
    """Random scene `index`: n 2…12 (scene 5: n = 1); direct and learned in turn; each scale every
    third scene; RoPE every 5th (both layouts, offsets up to 5000); from scene 6 on 2 or 3 heads, half
    of them shaped for nn.MultiheadAttention (d_k = d_v [= d_model]); W_o on most multi-head scenes
    (and every 9th); a window (some with a sink), ALiBi and kv_heads 1 of 2 heads (multi-query) on
    some; odd labels every 6th; a mask on half, every 4th with a fully masked row."""
    n = 1 if index == 5 else int(rng.integers(2, 13))
    d_k, d_v = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    rope = index % 5 == 2  # rotary position embedding (each head's size even)
    heads = [1, 2, 1, 3, 1, 2][index % 6] if index >= 6 else 1
    if heads > 1:
        d_k = heads * int(rng.integers(1, 4)) * (2 if rope else 1)
        # Every other multi-head scene fits nn.MultiheadAttention (d_k = d_v [= d_model]).
        d_v = d_k if index % 4 < 2 else heads * int(rng.integers(1, 4))
    elif rope:
        d_k = 2 * int(rng.integers(1, 5))
    d_model = d_k if heads > 1 and d_k == d_v and index % 3 else int(rng.integers(1, 9))
    tokens = [ODD_LABELS[i % len(ODD_LABELS)] + str(i) for i in range(n)] if index % 6 == 3 else None
    wo_cols = None
    if (heads > 1 or index % 9 == 4) and index % 3 != 0:  # an output map Wo: d_v×d_out, square half of the time
        wo_cols = d_v if index % 2 else int(rng.integers(1, 7))
    rope_key = None
    if rope:
        rope_key = {"base": float(rng.choice([10000.0, 100.0, 3.5])), "layout": ["interleaved", "half"][index % 2],
                    "offset": int(rng.choice([0, 7, 5000]))}
    # The variants: a sliding window (with a sink), ALiBi, K/V groups (only on scenes that do not fit
    # nn.MultiheadAttention anyway, so the module keeps its share of the PyTorch scripts).
    window = int(rng.integers(1, n + 1)) if index % 7 in (3, 6) else None
    mask = None
    if index % 2 == 0 or index % 7 == 1:
        mask = random_mask(rng, n, 0.7, fully_masked_row=index % 4 == 0)
    return random_scene(rng, n=n, d_k=d_k, d_v=d_v, projected=index % 2 == 1, d_model=d_model,
                        spread=6.0 if index % 5 == 0 else 2.0, version=2 if index % 9 == 4 else 1, tokens=tokens,
                        heads=heads, kv_heads=1 if heads == 2 and index % 4 >= 2 else None,
                        scale=scale_for(index, float(rng.choice([0.05, 0.5, 1.7, 9.0]))), causal=index % 4 in (1, 2),
                        mask=mask, wo_cols=wo_cols, rope=rope_key, window=window,
                        sinks=1 if window and index % 14 == 6 else None,
                        alibi=not rope and (heads == 1 or index % 4 >= 2) and index % 5 in (1, 3))


def all_scenes(cli, count=40):
    scenes = []
    presets = [line.split("\t")[0] for line in run_cli(cli, ["--list-presets"], "").splitlines()]
    for name in presets:
        scenes.append((f"preset {name}", run_cli(cli, ["--preset", name], "")))
    demo_dir = os.path.join(HERE, "..", "web", "demos")
    for name in sorted(os.listdir(demo_dir)):
        if name.endswith(".json") and name != "index.json":
            with open(os.path.join(demo_dir, name), encoding="utf-8") as f:
                scenes.append((f"demo {name}", f.read()))
    rng = np.random.default_rng(20261130)
    for index in range(count):
        scenes.append((f"random {index}", json.dumps(export_scene(rng, index))))
    return scenes


def coverage(scenes):
    """What the scene set covers (asserted, so the test cannot quietly shrink)."""
    kinds = {"causal": 0, "mask": 0, "masked_row": 0, "none": 0, "sqrt_dk": 0, "temperature": 0,
             "projected": 0}
    for _, text in scenes:
        s = json.loads(text)
        kinds["causal"] += bool(s.get("causal"))
        kinds["mask"] += "mask" in s
        kinds["masked_row"] += "mask" in s and any(not any(r) for r in s["mask"])
        scale = s.get("scale", "sqrt_dk")
        kinds["none" if scale == "none" else "sqrt_dk" if scale == "sqrt_dk" else "temperature"] += 1
        kinds["projected"] += "X" in s
        kinds["rope"] = kinds.get("rope", 0) + ("rope" in s)
        kinds["heads"] = kinds.get("heads", 0) + (s.get("heads", 1) > 1)
        kinds["Wo"] = kinds.get("Wo", 0) + ("Wo" in s)
        kinds["window"] = kinds.get("window", 0) + ("window" in s)
        kinds["alibi"] = kinds.get("alibi", 0) + bool(s.get("alibi"))
        kinds["kv_heads"] = kinds.get("kv_heads", 0) + ("kv_heads" in s)
    return kinds


# --- numpy / pytorch ------------------------------------------------------------------------------
def compare_script(c, label, ns, result, scene, to_numpy):
    weights, output = to_numpy(ns.get("weights")), to_numpy(ns.get("output"))
    want_w, want_o = np.array(result["weights"]), np.array(result["output"])
    if not c.check(f"{label}: shapes", weights.shape == want_w.shape and output.shape == want_o.shape,
                   f"{weights.shape}, {output.shape} vs {want_w.shape}, {want_o.shape}"):
        return 0.0
    c.check(f"{label}: float64", weights.dtype == np.float64 and output.dtype == np.float64)
    c.check(f"{label}: no NaN", np.isfinite(weights).all() and np.isfinite(output).all())
    diff = max(np.abs(weights - want_w).max(), np.abs(output - want_o).max())
    c.check(f"{label}: weights/output within {TOL}", diff <= TOL, f"max |diff| {diff:.3g}")
    for i in result["masked_rows"]:
        c.check(f"{label}: fully masked row {i} is exactly 0", not weights[i].any() and not output[i].any())
    # The inputs read back bit for bit (== on doubles, not a tolerance).
    for key in ("Q", "K", "V", "X", "Wq", "Wk", "Wv"):
        if key in scene:
            got = to_numpy(ns.get(key))
            c.check(f"{label}: {key} bit for bit", got.shape == np.array(scene[key]).shape and
                    np.array_equal(got, np.array(scene[key], dtype=np.float64)))
    c.check(f"{label}: tokens", ns.get("tokens") == scene["tokens"])
    if "Q_rope" in result:  # RoPE: the turned queries and keys the scores use
        d = max(np.abs(to_numpy(ns["Q_rope"]) - np.array(result["Q_rope"])).max(),
                np.abs(to_numpy(ns["K_rope"]) - np.array(result["K_rope"])).max())
        c.check(f"{label}: Q_rope, K_rope within {TOL}", d <= TOL, f"max |diff| {d:.3g}")
    return diff


def test_scripts(kind, cli, case_dir):
    c = Checks()
    to_numpy = lambda a: np.asarray(a)
    if kind == "pytorch":
        try:
            import torch  # noqa: F401
        except ImportError as e:
            print(f"SKIP: {e} (scripts/setup installs Debian's python3-torch)")
            sys.exit(SKIP)
        to_numpy = lambda a: a.detach().numpy()
    scenes = all_scenes(cli)
    cover = coverage(scenes)
    print(f"{len(scenes)} scenes: {cover}")
    c.check("≥ 30 random scenes", sum(label.startswith("random") for label, _ in scenes) >= 30)
    c.check("every kind of scene is covered", all(v >= 3 for v in cover.values()), str(cover))
    worst, mha_used = 0.0, 0
    for index, (label, text) in enumerate(scenes):
        scene = json.loads(text)
        result = json.loads(run_cli(cli, ["-"], text))
        script = run_cli(cli, ["--export", kind, "-"], text)
        path = os.path.join(case_dir, f"{kind}_{index:03d}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        # As a user runs it: a script that prints and exits 0. PyTorch imports take seconds each,
        # so every scene runs in-process (exec) and the presets and a few others also as a script.
        if kind == "numpy" or label.startswith("preset") or index % 10 == 0:
            p = subprocess.run([PYTHON, path], capture_output=True, text=True)
            c.check(f"{label}: {kind} script runs", p.returncode == 0 and "weights" in p.stdout, p.stderr[-800:])
            c.check(f"{label}: {kind} prints no nan", "nan" not in p.stdout.lower())
        ns = {"__name__": "exported"}
        exec(compile(script, path, "exec"), ns)
        worst = max(worst, compare_script(c, f"{label} ({kind})", ns, result, scene, to_numpy))
        if kind == "pytorch" and scene.get("heads", 1) > 1:
            d_k = len(result["Q"][0])
            fits = (d_k == len(result["V"][0]) and ("Wo" not in scene or len(scene["Wo"][0]) == d_k) and
                    ("X" not in scene or (len(scene["X"][0]) == d_k and "rope" not in scene)) and
                    scene.get("kv_heads", scene["heads"]) == scene["heads"] and not scene.get("alibi"))
            c.check(f"{label}: nn.MultiheadAttention exactly when the scene fits it",
                    ("nn.MultiheadAttention(" in script) == fits)
            mha_used = mha_used + 1 if fits else mha_used
        elif kind == "pytorch" and "X" in scene:
            c.check(f"{label}: nn.Linear(bias=False) layers",
                    "nn.Linear(" in script and "bias=False" in script and ns["q_proj"].bias is None)
    print(f"{kind}: max |exported − cli| over weights and output: {worst:.3g}")
    if kind == "pytorch":
        c.check("≥ 4 scenes through nn.MultiheadAttention", mha_used >= 4, str(mha_used))
    return c


def stage_values(result, stage):
    """The CLI's numbers of a stage: with several heads, scores and scaled are head 0's."""
    if stage in ("scores", "scaled") and "heads" in result:
        return result["heads"][0][stage]
    return result[stage]


# --- latex ----------------------------------------------------------------------------------------
def test_cli_errors(c, cli):
    """Usage errors and a bad scene exit 2 naming the flag or the field, nothing on stdout."""
    good = run_cli(cli, ["--preset", "causal-5"], "")
    for args, code, words in ((["--export", "matlab", "-"], 2, "--export: unknown kind matlab"),
                              (["--export", "latex", "--stage", "softmax", "-"], 2, "--stage: unknown stage softmax"),
                              (["--export", "latex", "--digits", "16", "-"], 2, "--digits: expected 0 to 15"),
                              (["--export", "latex", "--digits", "2x", "-"], 2, "--digits"),
                              (["-", "--export"], 2, "--export: missing value")):
        p = subprocess.run([cli, *args], input=good.encode(), capture_output=True)
        c.check(f"cli {' '.join(args)}: exit {code}", p.returncode == code and words in p.stderr.decode()
                and not p.stdout, f"exit {p.returncode}, {p.stderr.decode()!r}")
    bad = json.loads(good)
    bad["K"][2] = [1.0, 2.0, 3.0]
    p = subprocess.run([cli, "--export", "numpy", "-"], input=json.dumps(bad).encode(), capture_output=True)
    c.check("cli --export numpy, bad scene: exit 2 naming the field, no script",
            p.returncode == 2 and "K: row 2" in p.stderr.decode() and not p.stdout, p.stderr.decode())


def test_latex(cli, case_dir):
    c = Checks()
    test_cli_errors(c, cli)
    scenes = all_scenes(cli, count=12)
    wide = {"version": 1, "tokens": [f"w{i}" for i in range(13)], "Q": np.eye(13, 3).tolist(),
            "K": np.eye(13, 3).tolist(), "V": np.ones((13, 12)).tolist(), "causal": True}
    scenes.append(("13 tokens", json.dumps(wide)))
    for label, text in scenes:
        result = json.loads(run_cli(cli, ["-"], text))
        for stage in STAGES:
            for digits in (3, 1, 6):
                args = ["--export", "latex", "--stage", stage] + ([] if digits == 3 else ["--digits", str(digits)])
                tex = run_cli(cli, args + ["-"], text)
                name = f"{label} latex {stage} digits {digits}"
                want = stage_values(result, stage)
                rows, cols = len(want), len(want[0])
                c.check(f"{name}: one balanced bmatrix", tex.count("\\begin{bmatrix}") == 1 and
                        tex.count("\\end{bmatrix}") == 1 and tex.index("\\begin") < tex.index("\\end"))
                c.check(f"{name}: amsmath column limit", ("\\setcounter{MaxMatrixCols}{%d}" % cols in tex) == (cols > 10))
                body = tex[tex.index("\\begin{bmatrix}") + 15: tex.index("\\end{bmatrix}")].strip()
                lines = [line.strip() for line in body.split("\\\\")]
                if not c.check(f"{name}: {rows} rows", len(lines) == rows, f"{len(lines)}"):
                    continue
                ok_entries = True
                for i, line in enumerate(lines):
                    entries = [e.strip() for e in line.split("&")]
                    if len(entries) != cols:
                        ok_entries = False
                        break
                    for j, e in enumerate(entries):
                        if want[i][j] is None:  # "scaled" masks with null
                            ok_entries &= e == "-\\infty"
                        else:
                            ok_entries &= bool(re.fullmatch(r"-?\d+" + (r"\.\d{%d}" % digits if digits else ""), e))
                            ok_entries &= abs(float(e) - want[i][j]) <= 0.5 * 10 ** -digits * (1 + 1e-9) + 1e-12
                c.check(f"{name}: {cols} entries per row, the CLI's numbers to {digits} decimals", ok_entries)
                # Cross-attention's K and V have a row per source token; every other matrix a row per query.
                heading = ("% rows (source tokens):" if "sources" in json.loads(text) and stage in ("K", "V")
                           else "% rows (queries):")
                labels = [line for line in tex.splitlines() if line.startswith(heading)]
                c.check(f"{name}: token labels in a comment", len(labels) == 1)
    return c


# --- svg ------------------------------------------------------------------------------------------
SVG = "{http://www.w3.org/2000/svg}"


def expected_colors(result, stage):
    """(rows×cols×3 colours, rows×cols masked) the app would draw: heatmap.frag's float32 t."""
    values = np.array([[np.nan if v is None else v for v in row] for row in stage_values(result, stage)],
                      dtype=np.float64)
    rows, cols = values.shape
    masked = np.zeros((rows, cols), dtype=bool)
    if stage in ("weights", "scores", "scaled"):
        masked = np.array(result["allowed"]) == 0
    if stage == "weights":
        anchors, lo, hi = VIRIDIS_9, np.float32(0), np.float32(1)
    else:
        visible = np.abs(values[~masked]) if (~masked).any() else np.array([0.0])
        largest = float(visible.max())
        span = np.float32(largest if largest > 1e-9 else 1.0)
        anchors, lo, hi = RDBU_9_REVERSED, -span, span
    colors = np.zeros((rows, cols, 3))
    for i in range(rows):
        for j in range(cols):
            if not masked[i, j]:
                t = (np.float32(values[i, j]) - lo) / max(np.float32(hi - lo), np.float32(1e-12))
                t = min(max(t, np.float32(0)), np.float32(1))
                index = int(t * np.float32(255) + np.float32(0.5))  # ⌊255 t + ½⌋ in float, as the shader
                colors[i, j] = colormap(anchors, index / 255.0)
    return colors, masked


def hex_rgb(fill):
    return np.array([int(fill[k: k + 2], 16) for k in (1, 3, 5)], dtype=float)


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def check_svg(c, name, svg_text, result, stage):
    """XML checks; returns [(x, y, colour)] of cell centres for the Chromium check."""
    try:
        root = ET.fromstring(svg_text.encode())
    except ET.ParseError as e:
        c.check(f"{name}: parses as XML", False, str(e))
        return []
    c.check(f"{name}: an <svg> root with a size", root.tag == SVG + "svg" and float(root.get("width")) > 0)
    colors, masked = expected_colors(result, stage)
    rows, cols = masked.shape
    cells = [e for e in root.iter(SVG + "rect") if "cell" in (e.get("class") or "").split()]
    centres = []
    if max(rows, cols) > 64:
        images = [e for e in root.iter(SVG + "image") if e.get("class") == "cells-image"]
        if not c.check(f"{name}: one embedded image (n > 64)", len(images) == 1 and not cells):
            return []
        href = images[0].get("{http://www.w3.org/1999/xlink}href")
        png = base64.b64decode(href.split(",", 1)[1])
        c.check(f"{name}: image is {cols}×{rows} pixels", png_size(png) == (cols, rows))
        x0, y0 = float(images[0].get("x")), float(images[0].get("y"))
        cw, ch = float(images[0].get("width")) / cols, float(images[0].get("height")) / rows
        for i in range(0, rows, 7):
            for j in range(0, cols, 5):
                if not masked[i, j]:
                    centres.append((x0 + (j + 0.5) * cw, y0 + (i + 0.5) * ch, colors[i, j]))
        return centres
    if not c.check(f"{name}: {rows}×{cols} cells", len(cells) == rows * cols, f"{len(cells)}"):
        return []
    seen, bad = set(), []
    for e in cells:
        i, j = int(e.get("data-row")), int(e.get("data-col"))
        seen.add((i, j))
        fill = e.get("fill")
        if masked[i, j]:
            if fill != "url(#hatch)":
                bad.append(f"({i},{j}) masked but {fill}")
            continue
        got = hex_rgb(fill)
        if not np.array_equal(got, colors[i, j]):
            bad.append(f"({i},{j}) {fill} vs {colors[i, j]}")
        x, y, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
        # The number sits at the centre: sample the centre column, a sixth of the way down.
        centres.append((x + w / 2, y + h / 6 if h >= 24 else y + h / 2, colors[i, j]))
    c.check(f"{name}: every cell once", len(seen) == rows * cols)
    c.check(f"{name}: cells in the app's colours, masked hatched", not bad, "; ".join(bad[:4]))
    return centres


def chromium_screenshot(page_path, png_path, width, height):
    cmd = [os.environ.get("AL_CHROMIUM", "/usr/bin/chromium"), "--headless", "--no-sandbox", "--disable-gpu",
           "--hide-scrollbars", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run", "--force-device-scale-factor=1",
           f"--window-size={width},{height}", f"--screenshot={png_path}", "file://" + page_path]
    subprocess.run(cmd, capture_output=True, timeout=300)
    return os.path.exists(png_path)


def render_all(renders, case_dir):
    """One Chromium launch for every figure (a launch costs ~2 s): the SVG files as <img>s at their own
    size, stacked at whole-pixel offsets so each lands on the same pixel grid as it would alone.
    Returns (image, [top offset per figure]), or (None, []) when Chromium wrote no PNG."""
    tops, y, width, imgs = [], 0, 0, []
    for _, path, root, _ in renders:
        tops.append(y)
        imgs.append(f'<img src="{os.path.basename(path)}" style="position:absolute;left:0;top:{y}px">')
        y += math.ceil(float(root.get("height"))) + 8
        width = max(width, math.ceil(float(root.get("width"))))
    page = os.path.join(case_dir, "svg_all.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write('<!doctype html><html><body style="margin:0;background:#fff">' + "".join(imgs) + "</body></html>")
    png = os.path.join(case_dir, "svg_all.png")
    if os.path.exists(png):
        os.remove(png)
    if not chromium_screenshot(page, png, width, y):
        return None, []
    return read_png(png), tops


def test_svg(cli, case_dir):
    c = Checks()
    scenes = all_scenes(cli, count=12)
    big = {"version": 1, "tokens": [f"b{i}" for i in range(80)],
           "Q": np.sin(np.arange(80 * 4).reshape(80, 4)).tolist(), "K": np.cos(np.arange(80 * 4).reshape(80, 4)).tolist(),
           "V": np.ones((80, 2)).tolist(), "causal": True}
    scenes.append(("80 tokens", json.dumps(big)))
    renders = []
    for index, (label, text) in enumerate(scenes):
        result = json.loads(run_cli(cli, ["-"], text))
        for stage in STAGES:
            svg = run_cli(cli, ["--export", "svg", "--stage", stage, "-"], text)
            name = f"{label} svg {stage}"
            centres = check_svg(c, name, svg, result, stage)
            # Chromium: the presets' weights and scores, a masked random scene, the big one.
            if centres and (label.startswith("preset") and stage in ("weights", "scores") or
                            (label in ("random 0", "random 4") and stage in ("scaled", "output")) or
                            (label == "80 tokens" and stage == "weights")):
                path = os.path.join(case_dir, f"svg_{index:03d}_{stage}.svg")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(svg)
                renders.append((name, path, ET.fromstring(svg.encode()), centres))
    c.check("Chromium renders ≥ 10 figures", len(renders) >= 10, str(len(renders)))
    img, tops = render_all(renders, case_dir)
    if not c.check("Chromium screenshot of every figure", img is not None):
        return c
    for (name, path, root, centres), top in zip(renders, tops):
        bad = []
        for x, y, want in centres:
            got = img[int(y) + top, int(x)]
            if np.abs(got - want).max() > TOLERANCE:
                bad.append(f"({x:.0f},{y:.0f}) {got} vs {want}")
        c.check(f"{name}: rendered cell centres in the app's colours ({len(centres)} cells)", not bad,
                "; ".join(bad[:4]))
    return c


def main():
    kind, cli, case_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(case_dir, exist_ok=True)
    if kind in ("numpy", "pytorch"):
        c = test_scripts(kind, cli, case_dir)
    elif kind == "latex":
        c = test_latex(cli, case_dir)
    elif kind == "svg":
        c = test_svg(cli, case_dir)
    else:
        sys.exit(f"unknown kind {kind}")
    print(f"{c.passed} passed, {c.failed} failed")
    sys.exit(1 if c.failed else 0)


if __name__ == "__main__":
    main()
