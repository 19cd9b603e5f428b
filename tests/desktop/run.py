#!/usr/bin/python3
"""tests/desktop/run.py [APP [SANITIZED_APP]] — the desktop app (GLFW + OpenGL 3.3) under a virtual
X display.

  APP              the built binary (default: build/native/src/app/attention-lab); builds nothing
  SANITIZED_APP    optional: the app built with AddressSanitizer + UBSan (the native-debug preset,
                   build/native-debug/src/app/attention-lab) for the sanitizer case
  AL_CLI           attention-lab-cli, for the presets' scene JSON (default: next to APP's src/)
  AL_DESKTOP_OUT   screenshots, rects and logs (default: build/desktop)
  --case NAME      run only the cases whose name contains NAME (repeatable)

Starts its own Xvfb (a free display picked by Xvfb itself via -displayfd; stopped on exit) with a
screen larger than the windows, and parks the pointer in its far corner so that it hovers nothing
(the windows open at the top-left). The cases are independent: each starts the app it needs and
makes its own inputs, so one failing (or an exception in it) does not change the others. Nothing
waits a fixed time for the app: every wait polls for what it expects (a file, a window title,
pixels of the error colour) up to a deadline.

  presets      soft-dictionary, causal-5, practice-qkv at --size 1280x800 --frames 5: exit 0, no
               GL/GLFW error on stderr, and check_frame.py compares the PNG with NumPy + colormaps
  hidpi        Xft.dpi 192 (content scale 2) → a 2560x1600 framebuffer, cells at the same colours
  cli-errors   command-line errors exit 2 naming the problem; an unwritable --screenshot exits 1
  bad-file     a bad scene file: with --frames exit 2 naming the field; interactively the error
               banner shows, the app keeps running, and it is idle (CPU over 5 s without input)
  keyboard     Ctrl+S saves through the path dialog, Ctrl+O opens (a bad file shows its error and
               keeps the scene), saving into a missing folder shows the error
  instant-keys the keyboard-a11y path as one burst of zero-delay taps (Tab, →, Enter, Backspace, a
               typed 0.25, ↓, Space) never waited for: each press counts once (the key queue)
  export-png   the Export PNG button (where --rects says it is) writes the screen
  drop         dropping a file on the window (xdnd_drop.py) opens it; a bad one shows the banner
  walk         Walk through: --step 1…8 of practice-qkv at 1280x720 and 390x844 (the step's title
               and index in --rects' "walk", the card's Next and counter drawn; lesson 1's numbers in
               steps 6 and 8), causal-5's 7-step walk clamps --step 8, --quiz 7 opens the causal
               question; --step 9, --step 0, --quiz 99 exit 2 naming the flag
  gallery      --gallery lists web/demos/index.json's demos from the top; --demo NAME screenshots
               checked like the presets (against web/demos/NAME.json), the Example picker naming the
               demo; --demo nope exits 2 naming the demos
  gallery-mouse  Gallery… then a click on a demo (xdotool) loads it (saved = the demo's file)
  keyspace     the Key space mode and a learned scene's W grids (check_keyspace.py); an unknown
               --mode exits 2 naming the known modes
  export-menu  Export… → Save as NumPy… writes attention-lab-cli --export numpy of the scene shown
  heads        three-heads in the Heads mode (--mode heads): every head's weights grid and the
               average, cell by cell against NumPy (check_heads.py); an unknown --mode exits 2
  modes        FlashAttention and Decode: --mode at 1280x720 and 390x844 with every control of the
               mode inside the window; in a live window flash/next computes tile (0, 0) (its cell
               brightens, a later tile stays dimmed) and decode/next ×3 grows the cache by three rows
  zoom         a generated 64-token scene: six wheel notches over the weights grid zoom it about the
               pointer (the colour under it kept, the grid changed), a double-click fits it again
  train        the Train mode (check_train.py): --mode train draws its widgets; a model trained by
               attention-lab-cli --train previous-token opens in it, its weights grid cell by cell
               against NumPy with the sub-diagonal
  circuits     the Circuits mode: --circuits induction,2,2,32,1,0.01,1000 rebuilds the model of the
               recipe (its scores and weights equal attention-lab-cli --train's, bit for bit); the
               induction head's pattern on the screen puts each row's brightest cell where the CLI's
               --eval of that model puts its largest weight (the token after the earlier copy)
  model        the Model mode: --model-text at 1280x800 and 390x844 draws every widget of the mode;
               its tokens, top 10, losses and head roles equal attention-lab-cli --lm-eval's of
               web/models/fortunes.alm bit for bit; --model-state (a link's lm=) with a mean-ablated
               head and an opened head reopens both (--lm-eval --ablate L.H:mean); a damaged model
               file is named in the reply and the app still exits 0
  sanitizer    with SANITIZED_APP: three presets under ASan + UBSan exit 0 with no sanitizer
               report, and no leak whose stack passes through this repository (Mesa and X11 leak
               a few hundred bytes of their own at exit, outside it: those are counted, not failed)

Prints "ok - …" / "not ok - …" per check and closes with "N passed, N failed".
"""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_frame import RDBU_9_REVERSED, TOLERANCE, VIRIDIS_9, colormap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
SIZE = "1280x800"
FAR_CORNER = ("2999", "1799")  # the pointer's parking place on the 3000x1800 screen
with open(os.path.join(ROOT, "tests", "fixtures", "lessons.json"), encoding="utf-8") as _f:
    LESSONS = json.load(_f)  # docs/LESSONS.md's numbers, shared with the C++ and browser tests

passed = 0
failed = 0


def ok(name):
    global passed
    passed += 1
    print(f"ok - {name}", flush=True)


def not_ok(name):
    global failed
    failed += 1
    print(f"not ok - {name}", flush=True)


def check(name, condition):
    (ok if condition else not_ok)(name)
    return condition


def wait_until(predicate, timeout=10.0, interval=0.1):
    """Poll `predicate` until it returns a truthy value (returned) or `timeout` seconds pass (its
    last value is returned)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def no_gl_errors(text):
    return not re.search(r"GL error|GLFW error", text)


def relay(p):
    """Count the "ok - …" / "not ok - …" lines of a checker program's output; print the rest."""
    for line in (p.stdout + p.stderr).splitlines():
        if line.startswith("ok - "):
            ok(line[5:])
        elif line.startswith("not ok - "):
            not_ok(line[9:])
        else:
            print(f"    {line}")


def rect_center(rects, rid):
    r = rects[rid]
    return int(r["x"] + r["w"] / 2), int(r["y"] + r["h"] / 2)


def click(x, y, hold=0.15):
    """Press and release at (x, y) in different frames (ImGui reads the mouse once per frame)."""
    run(["xdotool", "mousemove", str(x), str(y), "mousedown", "1"])
    time.sleep(hold)
    run(["xdotool", "mouseup", "1"])


# --- the X display ----------------------------------------------------------------------------
class Xvfb:
    def __init__(self, out):
        read_fd, write_fd = os.pipe()
        self.log = open(os.path.join(out, "xvfb.log"), "w")
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "3000x1800x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,), stdout=self.log, stderr=self.log)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            number = f.readline().strip()  # Xvfb writes the display number once it is ready
        if not number:
            raise SystemExit(f"desktop: Xvfb did not start (see {out}/xvfb.log)")
        os.environ["DISPLAY"] = ":" + number

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.log.close()


def set_dpi(dpi):
    """Xft.dpi of the display (None: removed, i.e. 96 dpi, content scale 1)."""
    if dpi is None:
        return run(["xprop", "-root", "-remove", "RESOURCE_MANAGER"]).returncode == 0
    return run(["xprop", "-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER",
                f"Xft.dpi:\t{dpi}"]).returncode == 0


def park_pointer():
    run(["xdotool", "mousemove", *FAR_CORNER])


def read_rgb(path):
    w, h = map(int, run(["identify", "-format", "%w %h", path]).stdout.split())
    data = subprocess.run(["convert", path, "rgb:-"], capture_output=True, check=True).stdout
    return np.frombuffer(data, np.uint8).reshape(h, w, 3).astype(float)


def screen_rgb(width=1280, height=800, window=None):
    """The window's pixels (the top-left width×height of the X screen, or of the X window `window`,
    whose dump is smaller than the whole screen's) as a float (h, w, 3) array,
    read straight from xwd's dump: one process per look instead of four (xwd, convert to PNG,
    identify, convert to RGB), which is what the cases that wait on every key spend their time on.
    XWD: a header of 25 big-endian CARD32 (header_size first), the window name, ncolors 12-byte
    colormap entries, then the ZPixmap rows (bytes_per_line each)."""
    xwd = subprocess.run(["xwd", "-silent", *(["-id", window] if window else ["-root"])],
                         capture_output=True, check=True).stdout
    h = np.frombuffer(xwd, ">u4", 25)
    header_size, byte_order, bpp = int(h[0]), int(h[7]), int(h[11])
    bytes_per_line, masks, ncolors = int(h[12]), (int(h[14]), int(h[15]), int(h[16])), int(h[19])
    # Xvfb's root is TrueColor with 32 bits per pixel; while a GL window is open xwd may dump it as
    # 24 bits per pixel (DirectColor): the same bytes B G R, packed tighter.
    if bpp not in (24, 32) or masks != (0xFF0000, 0xFF00, 0xFF) or byte_order != 0:
        raise RuntimeError(f"xwd: {bpp} bits per pixel, masks {masks}, byte order {byte_order}: not 8-bit BGR")
    start = header_size + 12 * ncolors
    rows = np.frombuffer(xwd, np.uint8, bytes_per_line * height, start).reshape(height, bytes_per_line)
    step = bpp // 8
    px = rows[:, :width * step].reshape(height, width, step)
    rgb = px[..., [2, 1, 0]]
    return rgb.astype(float)


def window_png(path, width=1280, height=800):
    """The real window from the X server (xwd), cropped to the window at the top-left."""
    xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, check=True).stdout
    subprocess.run(["convert", "xwd:-", "-crop", f"{width}x{height}+0+0", "+repage", path], input=xwd, check=True)
    return path


def error_pixels(path, before=None):
    """Pixels of the error text colour, palette::error() (235, 100, 95), at any anti-aliasing strength
    (its hue: G/R and B/R near 0.42): in the top 60 rows, or with `before`, anywhere the image
    changed (text that newly appeared)."""
    img = read_rgb(path)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    gr, br = g / np.maximum(r, 1), b / np.maximum(r, 1)
    hue = (r > 110) & (gr > 0.3) & (gr < 0.56) & (br > 0.3) & (br < 0.56)
    if before is not None:
        hue &= np.abs(img - read_rgb(before)).max(axis=2) > 40
    else:
        hue[60:] = False
    return int(hue.sum())


def check_keyboard_edits(label, scene, to_q, to_mask):
    """What the keyboard cases do on causal-5 (LESSONS.md §4: q_the = [1, 0]), read from the scene
    they saved: Q[0][0] one step up (1.1) and mask cell (1, 0) hidden. False when nothing was saved."""
    check(f"{label}: the scene was saved", scene is not None)
    if not scene:
        return False
    check(f"{label}: Tab ×{to_q} and → made Q[0][0] 1.1 ({scene['Q'][0][0]})", scene["Q"][0][0] == 1.1)
    mask = scene.get("mask")
    check(f"{label}: Tab ×{to_mask}, ↓ and Space hid mask cell (1, 0) ({mask and mask[1]})",
          bool(mask) and mask[1][0] == 0 and mask[1][1] == 1)
    return True


def same_json(a, b):
    try:
        with open(a) as fa, open(b) as fb:
            return json.load(fa) == json.load(fb)
    except (OSError, ValueError):
        return False


def json_file(path):
    """The parsed file, or None while it is missing, empty or being written."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Desktop:
    def __init__(self, app, sanitized_app, cli, out):
        self.app, self.sanitized_app, self.cli, self.out = app, sanitized_app, cli, out

    def path(self, name):
        return os.path.join(self.out, name)

    def preset_json(self, preset):
        path = self.path(f"{preset}.expected.json")
        with open(path, "w") as f:
            subprocess.run([self.cli, "--preset", preset], stdout=f, check=True)
        return path

    # --- a running app, driven by xdotool ---------------------------------------------------
    class Window:
        def __init__(self, desktop, args, log_name):
            self.desktop = desktop
            self.log_path = desktop.path(log_name)
            self.log = open(self.log_path, "w")
            self.proc = subprocess.Popen([desktop.app, "--size", SIZE, *args], stdout=self.log, stderr=subprocess.STDOUT)
            found = run(["xdotool", "search", "--sync", "--name", "Attention Lab"], timeout=60).stdout.split()
            self.wid = found[0] if found else None
            if self.wid:
                run(["xdotool", "windowfocus", "--sync", self.wid])
            # Drawn: the window shows more than its clear colour.
            wait_until(lambda: screen_rgb().std() > 5, timeout=30)

        def screen(self):
            return screen_rgb(window=self.wid)

        def changed_since(self, before, timeout=5):
            """Poll until the window differs from `before` (an earlier screen()): the app has drawn
            what the last input did."""
            return wait_until(lambda: np.abs(self.screen() - before).max() > 40, timeout=timeout)

        def press(self, keys, expect_change=True):
            # Quick taps (press and release back to back, within one frame): the app's key queue
            # (src/app/key_queue.cpp) hands ImGui 1.86, which reads keys once per frame, each of them.
            before = self.screen() if expect_change else None
            run(["xdotool", "key", keys])
            if expect_change:
                self.changed_since(before)

        def type_path(self, path):
            self.press("ctrl+a", expect_change=False)
            before = self.screen()
            run(["xdotool", "type", "--delay", "20", path])
            self.changed_since(before)  # the field shows the path

        def title(self):
            return run(["xdotool", "getwindowname", self.wid]).stdout.strip()

        def running(self):
            return self.proc.poll() is None

        def output(self):
            self.log.flush()
            with open(self.log_path, errors="replace") as f:
                return f.read()

        def click_widget(self, rects, widget, settle):
            """Click `widget` (its rectangle in `rects`, from --rects), wait until the window shows it, move
            the pointer away and wait `settle` seconds (the button's hover colour fades; Play plays):
            (the screen before, the screen after)."""
            before = self.screen()
            click(*rect_center(rects, widget), hold=0.4)
            self.changed_since(before)
            park_pointer()
            time.sleep(settle)
            return before, self.screen()

        # `with self.Window(…) as win:` closes the window however the case ends.
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

        def close(self):
            if self.proc.poll() is None:
                self.proc.terminate()
            self.proc.wait()
            self.log.close()

    def save_through_dialog(self, win, target):
        """Ctrl+S, type `target`, Enter; the parsed saved file, or None (polled for 10 s)."""
        if os.path.exists(target):
            os.remove(target)
        win.press("ctrl+s")  # the path dialog opens
        win.type_path(target)
        win.press("Return", expect_change=False)
        return wait_until(lambda: json_file(target), timeout=10)

    def wait_for_error(self, win, name, before=None, timeout=10):
        """Poll screenshots until more than 100 error-coloured pixels show (top bar, or anywhere new
        compared with `before`); returns the last count."""
        shot = self.path(name)
        counts = []

        def enough():
            counts.append(error_pixels(window_png(shot), before))
            return counts[-1] > 100

        wait_until(enough, timeout=timeout)
        return counts[-1]

    def shoot(self, tag, *args, size=SIZE, frames="5"):
        """The app with `args` for --frames 5: screenshot and rects under `tag`. Returns (the process,
        its base path, the parsed rects or None); exit status and GL errors are checked."""
        base = self.path(tag)
        for suffix in (".png", ".rects.json"):
            if os.path.exists(base + suffix):
                os.remove(base + suffix)
        p = run([self.app, *args, "--frames", frames, "--size", size, "--screenshot", base + ".png",
                 "--rects", base + ".rects.json"], timeout=60)
        with open(base + ".stderr", "w") as f:
            f.write(p.stdout + p.stderr)
        check(f"{tag}: exits 0 after --frames {frames} (status {p.returncode})", p.returncode == 0)
        check(f"{tag}: no GL or GLFW errors on stderr", no_gl_errors(p.stderr))
        return p, base, json_file(base + ".rects.json")

    # --- the cases --------------------------------------------------------------------------
    def run_preset(self, preset, tag):
        """--frames 5: screenshot and rects, then check_frame.py's checks. Returns the rects file."""
        base = self.path(tag)
        scene = self.preset_json(preset)
        shutil.copy(scene, base + ".scene.json")
        for suffix in (".png", ".rects.json"):
            if os.path.exists(base + suffix):
                os.remove(base + suffix)
        p = run([self.app, "--preset", preset, "--frames", "5", "--size", SIZE, "--screenshot", base + ".png",
                 "--rects", base + ".rects.json"], timeout=60)
        with open(base + ".stderr", "w") as f:
            f.write(p.stderr)
        check(f"{tag}: exits 0 after --frames 5 (status {p.returncode})", p.returncode == 0)
        check(f"{tag}: no GL or GLFW errors on stderr", no_gl_errors(p.stderr))
        for line in p.stderr.splitlines():
            print(f"    stderr: {line}")
        if not (os.path.exists(base + ".png") and os.path.exists(base + ".rects.json")):
            not_ok(f"{tag}: wrote {base}.png and {base}.rects.json")
            return None
        relay(run([PYTHON, os.path.join(HERE, "check_frame.py"), "--png", base + ".png", "--rects",
                   base + ".rects.json", "--scene", base + ".scene.json", "--size", SIZE, "--label", tag,
                   "--lesson", preset]))
        return base + ".rects.json"

    def case_presets(self):
        for preset in ("soft-dictionary", "causal-5", "practice-qkv"):
            self.run_preset(preset, preset)

    def case_hidpi(self):
        # GLFW reads the X resource Xft.dpi as the monitor's content scale (192 / 96 = 2); with
        # GLFW_SCALE_TO_MONITOR the 1280x800 logical window becomes a 2560x1600 framebuffer.
        if not set_dpi(192):
            not_ok("HiDPI: xprop could not set Xft.dpi")
            return
        try:
            rects = self.run_preset("causal-5", "causal-5-hidpi")
            if rects:
                scale = json_file(rects)["ui_scale"]
                check(f"causal-5-hidpi: fonts and sizes use content scale 2 (ui_scale {scale})", scale == 2)
        finally:
            set_dpi(None)

    def expect_status(self, want, pattern, name, *args):
        p = run([self.app, *args], timeout=60)
        text = p.stdout + p.stderr
        if p.returncode == want and re.search(pattern, text):
            ok(f"{name} (exit {p.returncode})")
        else:
            not_ok(f"{name}: exit {p.returncode}, want {want} and /{pattern}/; output: {text[:300]}")

    def case_cli_errors(self):
        self.expect_status(0, r"--screenshot OUT\.png", "--help prints the flags", "--help")
        self.expect_status(2, "unknown option", "an unknown flag exits 2", "--bogus")
        self.expect_status(2, "--size: expected WxH", "--size 5x5 exits 2", "--size", "5x5")
        self.expect_status(2, "--size: expected WxH", "--size 1280 exits 2", "--size", "1280")
        self.expect_status(2, "--frames: expected a whole number", "--frames 0 exits 2", "--frames", "0")
        self.expect_status(2, "--frames: missing value", "--frames without a value exits 2", "--frames")
        self.expect_status(2, 'unknown name "nope"', "--preset nope exits 2", "--preset", "nope")
        self.expect_status(2, 'unknown name "nope"', "--preset=nope exits 2 (--flag=VALUE)", "--preset=nope")
        self.expect_status(2, "--zoom: expected a whole percentage from 75 to 200", "--zoom=300 exits 2", "--zoom=300")
        self.expect_status(2, "only one scene file", "two scene files exit 2", "a.json", "b.json")
        self.expect_status(1, "cannot write the PNG", "an unwritable --screenshot exits 1", "--frames", "2", "--size",
                           "640x480", "--screenshot", self.path("no-such-folder/x.png"))

    def bad_scene(self):
        path = self.path("bad-scene.json")
        with open(path, "w") as f:
            f.write('{"version": 1, "tokens": ["a", "b", "c"],\n'
                    ' "Q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]],\n'
                    ' "K": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1]],\n'
                    ' "V": [[1], [2], [3]]}\n')
        return path

    def case_bad_file(self):
        bad = self.bad_scene()
        self.expect_status(2, "K: row 2 has 3 entries, expected 4",
                           "a bad scene file with --frames exits 2 naming the field", "--frames", "2", bad)
        self.expect_status(2, "cannot open the file", "a missing scene file with --frames exits 2", "--frames", "2",
                           self.path("missing.json"))
        # Interactively the app starts with the default example and shows the error in red in the top bar.
        with self.Window(self, [bad], "interactive-bad.log") as win:
            reds = self.wait_for_error(win, "interactive-bad-scene.png")
            check("a bad scene file interactively: still running with the default example", win.running())
            check(f"a bad scene file interactively: error banner drawn ({reds} error-coloured pixels in the top bar)",
                  reds > 100)
            check("a bad scene file interactively: stderr names the field",
                  wait_until(lambda: "K: row 2 has 3 entries" in win.output(), timeout=5))
            # Idle: CPU seconds over 5 s of no input (utime + stime from /proc, clock ticks).
            def ticks():
                with open(f"/proc/{win.proc.pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return int(fields[11]) + int(fields[12])
            t0 = ticks()
            time.sleep(5)
            idle = 100.0 * (ticks() - t0) / os.sysconf("SC_CLK_TCK") / 5
            print(f"desktop: idle CPU over 5 s: {idle:.2f}%")
            check(f"idle: under 2% CPU over 5 s without input ({idle:.2f}%)", idle < 2)

    def case_keyboard(self):
        expected = self.preset_json("causal-5")
        practice = self.preset_json("practice-qkv")
        bad = self.bad_scene()
        saved = self.path("saved-scene.json")
        with self.Window(self, ["--preset", "causal-5"], "interactive-keys.log") as win:
            check("Ctrl+S, a path and Enter write the scene file", self.save_through_dialog(win, saved) is not None)
            check("the saved file equals the preset's scene JSON v1 (attention-lab-cli --preset causal-5)",
                  same_json(saved, expected))
            with open(saved) as f:
                check("the saved file is indented", any(line.startswith('  "tokens"') for line in f))

            # Ctrl+O with the bad file: the dialog stays open with the field's error; the scene stays.
            win.press("ctrl+o")
            win.type_path(bad)
            before = window_png(self.path("open-dialog-before.png"))
            win.press("Return", expect_change=False)
            reds = self.wait_for_error(win, "open-dialog-error.png", before)
            check(f"Ctrl+O with a bad file: the dialog shows the error ({reds} new error-coloured pixels)", reds > 100)
            win.press("Escape")  # the dialog closes
            check("after the rejected file the scene is unchanged (saved again = causal-5)",
                  self.save_through_dialog(win, saved) is not None and same_json(saved, expected))

            # Saving into a folder that does not exist: the dialog reports it.
            win.press("ctrl+s")
            win.type_path(self.path("no-such-folder/x.json"))
            before = window_png(self.path("save-dialog-before.png"))
            win.press("Return", expect_change=False)
            reds = self.wait_for_error(win, "save-dialog-error.png", before)
            check(f"Ctrl+S to a missing folder: the dialog shows the error ({reds} new error-coloured pixels)",
                  reds > 100)
            win.press("Escape")

            # Ctrl+O with a good file opens it.
            win.press("ctrl+o")
            win.type_path(practice)
            win.press("Return", expect_change=False)
            wait_until(lambda: win.title().endswith("practice-qkv.expected.json"), timeout=10)
            check("Ctrl+O opens a scene file (saved again = practice-qkv)",
                  self.save_through_dialog(win, saved) is not None and same_json(saved, practice))
            check("the app is still running (keyboard)", win.running())
            check("no GL or GLFW errors while using the keyboard", no_gl_errors(win.output()))

    def case_theme(self):
        # --theme light: a light window whose text reads at ≥ 4.5:1 (WCAG AA) where --rects says the
        # mode tabs and buttons are; --zoom 150 draws them 1.5× as large; a bad theme exits 2.
        _, base, rects = self.shoot("theme-light", "--preset", "practice-qkv", "--theme", "light")
        img = read_rgb(base + ".png")

        def lum(rgb):
            c = np.asarray(rgb, dtype=float) / 255.0
            c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
            return 0.2126 * c[..., 0] + 0.7152 * c[..., 1] + 0.0722 * c[..., 2]

        check(f"--theme light: the window's corner is light (luminance {lum(img[2, 2]):.2f})", lum(img[2, 2]) > 0.75)
        for rid in ("mode/heads", "mode/walk", "view/menu", "share/gallery", "X/0/0"):
            r = rects["rects"].get(rid) if rects else None
            if not r:
                not_ok(f"--theme light: {rid} drawn")
                continue
            box = img[int(r["y"]) + 1:int(r["y"] + r["h"]) - 1, int(r["x"]) + 1:int(r["x"] + r["w"]) - 1].reshape(-1, 3)
            colours, counts = np.unique(box, axis=0, return_counts=True)
            bg = colours[counts.argmax()]
            lb, lums = lum(bg), lum(box)
            ink = box[np.abs(lums - lb).argmax()]
            hi, lo = max(lb, lum(ink)), min(lb, lum(ink))
            ratio = (hi + 0.05) / (lo + 0.05)
            check(f"--theme light: {rid}'s text {tuple(ink)} on {tuple(bg)} reads at {ratio:.2f}:1 (≥ 4.5)",
                  ratio >= 4.5 and lb > 0.6)
        _, _, plain = self.shoot("zoom-100", "--preset", "practice-qkv")
        _, _, zoomed = self.shoot("zoom-150", "--preset", "practice-qkv", "--zoom", "150")
        for rid in ("mode/heads", "view/menu"):
            a, b = (plain or {}).get("rects", {}).get(rid), (zoomed or {}).get("rects", {}).get(rid)
            ratio = b["h"] / a["h"] if a and b else 0
            check(f"--zoom 150: {rid} is 1.5× as tall ({ratio:.3f})", abs(ratio - 1.5) <= 0.08)
        self.expect_status(2, "--theme: unknown theme", "--theme sepia exits 2 naming the flag", "--theme", "sepia")
        self.expect_status(2, "--zoom: expected a whole percentage", "--zoom 300 exits 2", "--zoom", "300")

    def case_keyboard_a11y(self):
        # Tab and the arrow keys alone (xdotool): Q/0/0 steps by 0.1, a mask cell toggles with Space,
        # then Ctrl+S saves what the keyboard did. The Tab counts come from --rects' keyboard order
        # of the same screen.
        _, _, rects = self.shoot("keyboard-order", "--preset", "causal-5")
        order = (rects or {}).get("keyboard", {}).get("order", [])
        if "Q/0/0" not in order or "cell/mask" not in order:
            not_ok(f"--rects lists the Tab order with Q/0/0 and cell/mask ({len(order)} stops)")
            return
        to_q = order.index("Q/0/0") + 1
        to_mask = order.index("cell/mask") - order.index("Q/0/0")
        saved = self.path("keyboard-a11y.json")
        win = self.Window(self, ["--preset", "causal-5"], "interactive-a11y.log")

        def tap(key, times=1):
            # One key at a time, each waiting until the window shows it (the ring moved, a number
            # changed): on a busy machine two quick taps could otherwise land in one frame.
            for _ in range(times):
                win.press(key)

        try:
            tap("Tab", to_q)
            tap("Right")   # q_the[0]: 1 → 1.1
            tap("Tab", to_mask)
            tap("Down")    # row 'cat', column 'the'
            tap("space")   # hide it
            window_png(self.path("keyboard-a11y.png"))
            scene = self.save_through_dialog(win, saved)
            check_keyboard_edits("keyboard alone", scene, to_q, to_mask)
            check("no GL or GLFW errors while driving by keyboard", no_gl_errors(win.output()))
        finally:
            win.close()

    def case_instant_keys(self):
        # No key press lost : the same keyboard path as keyboard-a11y, but every key a
        # zero-delay tap (down and up back to back, several keys inside one frame), never waited for: Tab ×N, →, Tab, Enter, Backspace ×8, "0.25", Enter, Tab ×M,
        # ↓, Space. ImGui 1.86 alone would drop most of them; the app's key queue delivers each
        # transition in order. Then Ctrl+S saves what the keyboard did.
        _, _, rects = self.shoot("instant-order", "--preset", "causal-5")
        order = (rects or {}).get("keyboard", {}).get("order", [])
        if not all(stop in order for stop in ("Q/0/0", "K/1/0", "cell/mask")):
            not_ok(f"--rects lists the Tab order with Q/0/0, K/1/0 and cell/mask ({len(order)} stops)")
            return
        to_q = order.index("Q/0/0") + 1
        to_k = order.index("K/1/0") - order.index("Q/0/0")
        to_mask = order.index("cell/mask") - order.index("K/1/0")
        keys = (["Tab"] * to_q + ["Right"] + ["Tab"] * to_k + ["Return"] + ["BackSpace"] * 8 +
                ["0", "period", "2", "5", "Return"] + ["Tab"] * to_mask + ["Down", "space"])
        # Each key's down and up back to back (zero delay), 30 ms to the next key: GLFW's X11 code
        # takes a release followed within 20 ms by a press of the same key for the X server's
        # autorepeat and reports one held key, so same-key presses closer than that are one press
        # before they reach the app. 30 ms is within one frame of this app on Xvfb's software GL.
        burst = []
        for k in keys:
            burst += ["keydown", "--delay", "0", k, "keyup", "--delay", "0", k, "sleep", "0.03"]
        saved = self.path("instant-keys.json")
        with self.Window(self, ["--preset", "causal-5"], "interactive-instant.log") as win:
            before = win.screen()
            run(["xdotool", *burst])
            win.changed_since(before)
            # Ctrl+S and the path queue up behind the burst: the save shows what all of it did.
            scene = self.save_through_dialog(win, saved)
            if check_keyboard_edits(f"instant keys ({len(keys)} in one burst)", scene, to_q, to_mask):
                check(f"instant keys: Tab ×{to_k}, Enter, Backspace ×8, 0.25, Enter typed K[1][0] ({scene['K'][1][0]})",
                      scene["K"][1][0] == 0.25)
            check("no GL or GLFW errors during the burst", no_gl_errors(win.output()))

    def case_export_png(self):
        # The button where --rects says it is; the PNG written shows the heatmaps of the
        # --screenshot of the same scene.
        base = self.path("export-reference")
        p = run([self.app, "--preset", "practice-qkv", "--frames", "5", "--size", SIZE, "--screenshot", base + ".png",
                 "--rects", base + ".rects.json"], timeout=60)
        if not check(f"export-png: the reference --screenshot and --rects (status {p.returncode})", p.returncode == 0):
            return
        rects_path = base + ".rects.json"
        rects = json_file(rects_path)["rects"]
        button = rects["share/export-png"]
        exported = self.path("exported-screen.png")
        if os.path.exists(exported):
            os.remove(exported)
        with self.Window(self, ["--preset", "practice-qkv"], "interactive-export.log") as win:
            bx, by = int(button["x"] + button["w"] / 2), int(button["y"] + button["h"] / 2)
            before = win.screen()
            run(["xdotool", "mousemove", str(bx), str(by), "mousedown", "1"])
            time.sleep(0.15)  # a press ImGui sees in one frame and its release in a later one
            run(["xdotool", "mouseup", "1"])
            win.changed_since(before)  # the path dialog
            win.type_path(exported)
            park_pointer()
            win.press("Return", expect_change=False)
            check("Export PNG writes the screen",
                  wait_until(lambda: os.path.exists(exported) and os.path.getsize(exported) > 0 and
                             run(["identify", exported]).returncode == 0, timeout=10))
            if os.path.exists(exported):
                cells = [v for k, v in rects.items() if k.startswith(("cell/scores/", "cell/weights/"))]
                x0, y0 = min(c["x"] for c in cells) - 40, min(c["y"] for c in cells) - 20
                x1 = max(c["x"] + c["w"] for c in cells) + 10
                y1 = max(c["y"] + c["h"] for c in cells) + 10
                region = "%dx%d+%d+%d" % (x1 - x0, y1 - y0, x0, y0)
                diff = run(["compare", "-metric", "AE", "-fuzz", "2%", "-extract", region, exported,
                            rects_path.replace(".rects.json", ".png"), "null:"]).stderr.strip()
                check(f"the exported PNG shows the heatmaps of the --screenshot (region {region}, differing pixels: "
                      f"{diff})", diff == "0")
            check("no GL or GLFW errors while exporting", no_gl_errors(win.output()))

    def case_drop(self):
        # Drag and drop (xdnd_drop.py plays a file manager's side of XDND): a good file opens, a bad
        # one leaves the scene and shows the field's error in the top bar.
        expected = self.preset_json("causal-5")
        bad = self.bad_scene()
        saved = self.path("saved-after-drop.json")
        with self.Window(self, ["--preset", "practice-qkv"], "interactive-drop.log") as win:
            drop = os.path.join(HERE, "xdnd_drop.py")
            check("dropping a .json file: the window accepts it", run([PYTHON, drop, win.wid, expected]).returncode == 0)
            want = "Attention Lab — causal-5.expected.json"
            title = wait_until(lambda: win.title() == want and want, timeout=10) or win.title()
            check(f"dropping a .json file opens it (title: {title})", title == want)
            check("dropping a bad file: the window accepts it", run([PYTHON, drop, win.wid, bad]).returncode == 0)
            reds = self.wait_for_error(win, "dropped-bad-scene.png")
            check(f"dropping a bad file shows the error banner ({reds} error-coloured pixels in the top bar)",
                  reds > 100)
            check("after the dropped bad file the dropped good scene stays (saved = causal-5)",
                  self.save_through_dialog(win, saved) is not None and same_json(saved, expected))
            check("the app is still running", win.running())
            check("no GL or GLFW errors while interacting", no_gl_errors(win.output()))

    def case_walk(self):
        # --step N opens the walk as a link's step=N does; --rects also writes getStep()'s fields
        # ("walk") and getQuiz()'s ("quiz"). The step text's numbers are lesson 1's (docs/LESSONS.md).
        titles = ["The tokens: X", "Three roles: Q, K, V", "Scores: Q Kᵀ", "Scale: none here",
                  "Mask: + M (nothing hidden here)", "Softmax: scores → weights", "Blend: weights · V", "The output: Y"]
        walks = {}
        for size in ("1280x720", "390x844"):
            for step in range(1, 9):
                tag = f"walk-{size}-{step}"
                _, _, data = self.shoot(tag, "--preset", "practice-qkv", "--step", str(step), size=size)
                if not data:
                    not_ok(f"walk {size} step {step}: no rects written")
                    continue
                walks[tag] = data["walk"]
                title, index = data["walk"]["title"], data["walk"]["index"]
                check(f"walk {size} step {step}: '{titles[step - 1]}' ({title}, index {index})",
                      title == titles[step - 1] and index == step - 1)
                check(f"walk {size} step {step}: the card's Next button and counter were drawn",
                      "walk/next" in data["rects"] and "walk/counter" in data["rects"])
        # The sentences of tests/fixtures/lessons.json (walk_row0), as the C++ and browser tests check them.
        lesson = LESSONS["practice-qkv"]["walk_row0"]
        check("walk step 6 (softmax): lesson 1's row 0 in the sentence",
              walks.get("walk-1280x720-6", {}).get("numbers") == lesson["softmax"])
        check("walk step 8 (Y): lesson 1's output row 0", walks.get("walk-1280x720-8", {}).get("numbers") == lesson["output"])
        # causal-5 is given as Q, K, V: 7 steps; step=8 opens the last one.
        _, _, data = self.shoot("walk-causal-8", "--preset", "causal-5", "--step", "8", size="1280x720")
        walk = (data or {}).get("walk", {})
        check(f"walk causal-5 --step 8: the last of 7 steps ({walk.get('index')}/{walk.get('count')})",
              (walk.get("index"), walk.get("count")) == (6, 7))
        _, _, data = self.shoot("quiz-7", "--preset", "causal-5", "--quiz", "7", size="1280x720")
        q = (data or {}).get("quiz", {})
        check("--quiz 7: the quiz is open at the causal question, its choices drawn",
              bool(data) and q.get("open") is True and q.get("question") == 6 and "causal" in q["questions"][6] and
              "quiz/6/choice/2" in data["rects"])
        for flag, value in (("--step", "9"), ("--step", "0"), ("--quiz", "99")):
            self.expect_status(2, f"{flag}: expected a whole number", f"{flag} {value} exits 2 naming the flag", flag,
                               value)

    def demos(self):
        with open(os.path.join(ROOT, "web/demos/index.json")) as f:
            return json.load(f)

    def case_gallery(self):
        # --gallery opens it: every demo of web/demos/index.json is listed (the visible ones have rects).
        _, _, data = self.shoot("gallery", "--gallery")
        names = [d["name"] for d in self.demos()]
        rects = (data or {}).get("rects", {})
        shown = [n for n in names if "gallery/" + n in rects]
        # The list starts at the top: the shown demos are the first ones of the index, in order.
        check(f"gallery: the open gallery lists the index's demos from the top ({len(shown)} rows visible)",
              len(shown) >= 4 and shown == names[:len(shown)])
        # --demo NAME loads one as a click in the gallery does: checked like the presets (against
        # web/demos/NAME.json), and the Example picker names it (rects' "example").
        for name in ("two-keys-tie", "sqrt-dk-saturation"):
            tag = f"demo-{name}"
            _, base, data = self.shoot(tag, "--demo", name)
            want = next(d["title"] for d in self.demos() if d["name"] == name)
            got = (data or {}).get("example")
            check(f"demo {name}: the Example picker names it ({got!r})", got == want)
            if data:
                relay(run([PYTHON, os.path.join(HERE, "check_frame.py"), "--png", base + ".png", "--rects",
                           base + ".rects.json", "--scene", f"web/demos/{name}.json", "--size", SIZE, "--label",
                           f"demo {name}"]))
        self.expect_status(2, r"no demo named 'nope' \(demos: practice-qkv", "--demo nope exits 2 naming the demos",
                           "--demo", "nope", "--frames", "2", "--size", "640x480")

    def case_gallery_mouse(self):
        # Gallery… (where --rects of the default scene says it is), then a demo (where --gallery's
        # rects put it): the demo is loaded, as Ctrl+S's file shows.
        _, _, start = self.shoot("gallery-start", "--preset", "practice-qkv")
        _, _, gallery = self.shoot("gallery-list", "--gallery")
        if not (start and gallery):
            return
        saved = self.path("gallery-saved.json")
        with self.Window(self, [], "interactive-gallery.log") as win:
            before = win.screen()
            click(*rect_center(start["rects"], "share/gallery"))
            win.changed_since(before)
            window_png(self.path("gallery-open.png"))
            before = win.screen()
            click(*rect_center(gallery["rects"], "gallery/two-keys-tie"))
            win.changed_since(before)  # the gallery closes (ImGui reads the pointer's position per frame:
            park_pointer()             # it moves away only once the click has been drawn)
            window_png(self.path("gallery-two-keys-tie.png"))
            check("Gallery… then a click on 'Two keys tie' loads the demo (saved = web/demos/two-keys-tie.json)",
                  self.save_through_dialog(win, saved) is not None and
                  same_json(saved, os.path.join(ROOT, "web/demos/two-keys-tie.json")))
            check("no GL or GLFW errors in the gallery session", no_gl_errors(win.output()))

    def case_keyspace(self):
        runs = [("keyspace-soft-dictionary", "keyspace", ["--preset", "soft-dictionary", "--mode", "keyspace"], SIZE),
                # Tall enough that the vectors panel shows every token and the three W grids without scrolling.
                ("learned-practice-qkv", "learned", ["--preset", "practice-qkv"], "1280x1700")]
        for tag, what, args, size in runs:
            _, base, data = self.shoot(tag, *args, size=size)
            if data:
                relay(run([PYTHON, os.path.join(HERE, "check_keyspace.py"), what, "--png", base + ".png", "--rects",
                           base + ".rects.json"]))
        self.expect_status(2, 'unknown mode "nope"', "--mode nope exits 2 naming the known modes", "--mode", "nope",
                           "--frames", "1")

    def case_export_menu(self):
        # The Export… menu (where --rects of practice-qkv says the button is): its first item, "Save as
        # NumPy…", opens the path dialog; the file written is attention-lab-cli --export numpy of the
        # scene on screen. ImGui opens the menu at the pointer, its first row just below.
        scene = self.preset_json("practice-qkv")
        _, _, data = self.shoot("export-menu-reference", "--preset", "practice-qkv")
        if not data:
            return
        exported = self.path("exported-scene.py")
        if os.path.exists(exported):
            os.remove(exported)
        with self.Window(self, ["--preset", "practice-qkv"], "interactive-export-menu.log") as win:
            mx, my = rect_center(data["rects"], "export/menu")
            before = win.screen()
            click(mx, my)
            win.changed_since(before)  # the menu
            window_png(self.path("export-menu-desktop.png"))
            before = win.screen()
            click(mx + 30, my + 20)
            win.changed_since(before)  # the path dialog
            win.type_path(exported)
            park_pointer()
            win.press("Return", expect_change=False)
            check("Export… → Save as NumPy… writes the script",
                  wait_until(lambda: os.path.exists(exported) and os.path.getsize(exported) > 0, timeout=10))
            want = run([self.cli, "--export", "numpy", scene]).stdout
            got = open(exported).read() if os.path.exists(exported) else None
            check("the saved script is attention-lab-cli --export numpy of the scene shown", got == want)
            check("no GL or GLFW errors in the export menu session", no_gl_errors(win.output()))

    def case_modes(self):
        ids = {"flash": ["flash/block", "flash/start", "flash/prev", "flash/next", "flash/play", "cell/scores/4/0"],
               "decode": ["decode/start", "decode/prev", "decode/next", "decode/play", "decode/mults", "decode/new-row"]}
        shots = {}
        for mode in ("flash", "decode"):
            for size in ("1280x720", "390x844"):
                _, _, data = self.shoot(f"mode-{mode}-{size}", "--preset", "causal-5", "--mode", mode, size=size)
                shots[(mode, size)] = data
                if not data:
                    continue
                rects, scale = data["rects"], data["ui_scale"]
                W, H = (int(v) * scale for v in size.split("x"))
                inside = lambda r: 0 <= r["x"] + r["w"] / 2 < W and 0 <= r["y"] + r["h"] / 2 < H
                missing = [i for i in ids[mode] + ["mode/" + mode] if i not in rects or not inside(rects[i])]
                check(f"--mode {mode} at {size}: every control drawn inside the window"
                      f"{' (missing: ' + ' '.join(missing) + ')' if missing else ''}", not missing)

        def region_mean(img, r):
            x0, y0 = int(r["x"]) + 3, int(r["y"]) + 3
            return img[y0:int(r["y"] + r["h"]) - 3, x0:int(r["x"] + r["w"]) - 3].mean()

        # In a live window a click on flash/next computes the first tile: a tile not computed yet is
        # dimmed, so its cell brightens while later tiles stay dim.
        flash = shots.get(("flash", "1280x720"))
        if flash:
            with self.Window(self, ["--preset", "causal-5", "--mode", "flash"], "mode-flash-live.log") as win:
                rects = flash["rects"]
                before, after = win.click_widget(rects, "flash/next", settle=0.5)
                a, b = region_mean(before, rects["cell/scores/0/0"]), region_mean(after, rects["cell/scores/0/0"])
                check(f"flash/next in the live window: tile (0, 0) is computed, its cell brightens ({a:.1f} → {b:.1f})",
                      b > a + 20)
                a, b = region_mean(before, rects["cell/scores/4/0"]), region_mean(after, rects["cell/scores/4/0"])
                check(f"flash/next in the live window: tile (2, 0) is not computed yet, still dimmed ({a:.1f} → {b:.1f})",
                      abs(b - a) < 3)
        # decode/next grows the cache by a row per click: the band below cache row 0 is empty at
        # t = 0 and holds three rows of numbers at t = 3.
        decode = shots.get(("decode", "1280x720"))
        if decode:
            with self.Window(self, ["--preset", "causal-5", "--mode", "decode"], "mode-decode-live.log") as win:
                rects = decode["rects"]
                before = win.screen()
                for _ in range(3):
                    shown = win.screen()
                    click(*rect_center(rects, "decode/next"), hold=0.4)
                    win.changed_since(shown)
                    time.sleep(0.3)
                park_pointer()
                time.sleep(1)
                after = win.screen()
                r = rects["decode/new-row"]
                y0, y1, x0, x1 = int(r["y"] + r["h"]) + 2, int(r["y"] + 4 * r["h"]), int(r["x"]), int(r["x"] + r["w"])
                grown = int((np.abs(before[y0:y1, x0:x1] - after[y0:y1, x0:x1]).max(axis=2) > 60).sum())
                check(f"decode/next ×3 in the live window: the cache grows by three rows ({grown} pixels changed "
                      "below row 0)", grown > 500)

    def case_variants(self):
        """The variants' demos: their controls drawn inside the window at 1280x800 and on a
        phone; in a live window, kv-heads/1 makes the GQA demo multi-query (its two group frames merge
        into one) and the cache policy's "last w" evicts rows of the Decode mode's cache."""
        cases = [("gqa-shares-keys", "heads", ["kv-heads/1", "kv-heads/2", "kv-heads/4", "heads/group/0", "heads/group/1"]),
                 ("window-with-sinks", "explore", ["mask/kind", "window", "sinks", "alibi"]),
                 ("alibi-slopes", "explore", ["alibi", "bias", "window", "sinks"]),
                 ("window-with-sinks", "decode", ["decode/cache/all", "decode/cache/last", "decode/cache/sinks",
                                                  "decode/cache/w", "decode/cache/s", "decode/size", "decode/kv-head/0"])]
        shots = {}
        for demo, mode, ids in cases:
            for size in ("1280x800", "390x844"):
                _, _, data = self.shoot(f"variants-{demo}-{mode}-{size}", "--demo", demo, "--mode", mode, size=size)
                shots[(demo, mode, size)] = data
                if not data:
                    continue
                rects, scale = data["rects"], data["ui_scale"]
                W, H = (int(v) * scale for v in size.split("x"))
                inside = lambda r: 0 <= r["x"] + r["w"] / 2 < W and 0 <= r["y"] + r["h"] / 2 < H
                # A phone's single column scrolls: only the wide window must show them all at once.
                if size != "1280x800":
                    continue
                missing = [i for i in ids if i not in rects or not inside(rects[i])]
                check(f"--demo {demo} --mode {mode} at {size}: the variant controls drawn"
                      f"{' (missing: ' + ' '.join(missing) + ')' if missing else ''}", not missing)
        gqa = shots.get(("gqa-shares-keys", "heads", "1280x800"))
        if gqa and "kv-heads/1" in gqa["rects"]:
            with self.Window(self, ["--demo", "gqa-shares-keys", "--mode", "heads"],
                              "variants-gqa-live.log") as win:
                rects = gqa["rects"]
                before, after = win.click_widget(rects, "kv-heads/1", settle=0.5)
                # Group 1's label ("K/V group 1: heads 2–3") is gone: one group holds all four heads,
                # labelled once at its left.
                g1 = rects["heads/group/1"]
                x0, x1 = int(g1["x"]) + 2, int(g1["x"] + 0.8 * g1["w"])
                y0, y1 = int(g1["y"]) + 2, int(g1["y"]) + 20
                changed = int((np.abs(before[y0:y1, x0:x1] - after[y0:y1, x0:x1]).max(axis=2) > 60).sum())
                check(f"kv-heads/1 in the live window: group 1's label is gone, one group of four heads ({changed} "
                      "pixels changed)", changed > 30)

        # Differential attention (web/demos/differential.json; docs/SCENE_FORMAT.md): its weights
        # A₁ − 0.8·A₂ can be negative, so the weights grid turns two-sided — the scores' diverging
        # colours over [−1, 1], 0 white: each cell's colour that of its weight there (the colormap
        # rebuilt from its anchors in check_frame.py). The CLI gives the weights.
        _, base, data = self.shoot("variants-differential", "--demo", "differential")
        if data:
            with open(os.path.join(ROOT, "web", "demos", "differential.json")) as f:
                weights = json.loads(run([self.cli, "--compact", "-"], input=f.read()).stdout)["weights"]
            img = read_rgb(base + ".png")
            bad = []
            for i, row in enumerate(weights):
                for j in range(i + 1):  # causal: the allowed cells
                    r = data["rects"].get(f"cell/weights/{i}/{j}")
                    if not r:
                        bad.append(f"no rect for cell ({i}, {j})")
                        continue
                    got = img[int(r["y"] + r["h"] / 6), int(r["x"] + r["w"] / 2)]  # above the number
                    want = colormap(RDBU_9_REVERSED, (row[j] + 1.0) / 2.0)
                    if np.abs(got - want).max() > TOLERANCE:
                        bad.append(f"({i}, {j}) w = {row[j]:.3f}: {got} vs {want}")
            check("--demo differential: the weights in two-sided diverging colours (negative blue, 0 white)"
                  f"{': ' + '; '.join(bad[:3]) if bad else ''}", not bad)
            check("--demo differential: the Variants… button is in the Controls", "variants" in data["rects"])

        # A sink logit (web/demos/sink-logit.json, one head): the Weights grid's "none" column right of
        # its last column, as tall as the grid, each row's cell in the weights' colours (viridis over
        # [0, 1]) of that row's sink share, 1 − Σ_j a_ij from the CLI's weights.
        _, base, data = self.shoot("variants-sink-none", "--demo", "sink-logit")
        if data:
            rects = data["rects"]
            none, last = rects.get("weights/none"), rects.get("cell/weights/0/4")
            placed = bool(none and last and none["x"] >= last["x"] + last["w"] and
                          abs(none["h"] - 5 * last["h"]) <= 0.1 * none["h"])
            check("--demo sink-logit: the weights' none column right of the grid, as tall as it", placed)
            if placed:
                with open(os.path.join(ROOT, "web", "demos", "sink-logit.json")) as f:
                    weights = json.loads(run([self.cli, "--compact", "-"], input=f.read()).stdout)["weights"]
                img = read_rgb(base + ".png")
                bad = []
                for i, row in enumerate(weights):
                    share = 1.0 - sum(row)
                    y = int(none["y"] + none["h"] * (i + 0.5) / len(weights) - 0.35 * last["h"])  # above the number
                    got = img[y, int(none["x"] + none["w"] / 2)]
                    want = colormap(VIRIDIS_9, share)
                    if np.abs(got - want).max() > TOLERANCE:
                        bad.append(f"row {i} share {share:.3f}: {got} vs {want}")
                check("--demo sink-logit: each none cell in the colour of its row's sink share"
                      f"{': ' + '; '.join(bad[:3]) if bad else ''}", not bad)

    def case_heads(self):
        scene = self.preset_json("three-heads")
        base = self.path("three-heads-heads")
        p = run([self.app, "--preset", "three-heads", "--mode", "heads", "--frames", "5", "--size", "1280x720",
                 "--screenshot", base + ".png", "--rects", base + ".rects.json"], timeout=60)
        with open(self.path("three-heads.log"), "w") as f:
            f.write(p.stdout + p.stderr)
        check(f"three-heads --mode heads: exits 0 (log {self.path('three-heads.log')})", p.returncode == 0)
        relay(run([PYTHON, os.path.join(HERE, "check_heads.py"), "--png", base + ".png", "--rects",
                   base + ".rects.json", "--scene", scene, "--label", "three-heads (Heads mode)"]))
        check("--mode nope: exits 2", run([self.app, "--mode", "nope", "--frames", "1"], timeout=60).returncode == 2)

    def case_train(self):
        relay(run([PYTHON, os.path.join(HERE, "check_train.py"), "--app", self.app, "--cli", self.cli, "--out",
                   self.out], timeout=600))
        # Play in a live window: the untrained weights are spread over each row; after a few seconds
        # of training (30 steps/s) each row i ≥ 1 is bright at key i − 1 (previous-token's sub-diagonal).
        _, _, data = self.shoot("train-live-layout", "--mode", "train")
        if not data:
            return
        rects = data["rects"]
        cell = lambda img, i, j: img[int(rects[f"cell/weights/{i}/{j}"]["y"]) + 3:
                                     int(rects[f"cell/weights/{i}/{j}"]["y"] + rects[f"cell/weights/{i}/{j}"]["h"]) - 3,
                                     int(rects[f"cell/weights/{i}/{j}"]["x"]) + 3:
                                     int(rects[f"cell/weights/{i}/{j}"]["x"] + rects[f"cell/weights/{i}/{j}"]["w"]) - 3].mean()
        with self.Window(self, ["--mode", "train"], "train-live.log") as win:
            before, after = win.click_widget(rects, "train/play", settle=5)
            sub = [cell(after, i, i - 1) for i in range(2, 8)]
            diag = [cell(after, i, i) for i in range(2, 8)]
            sub_before = [cell(before, i, i - 1) for i in range(2, 8)]
            check(f"Play in the live window: the sub-diagonal forms (rows 2–7 at key i − 1: mean brightness "
                  f"{np.mean(sub_before):.0f} → {np.mean(sub):.0f}; the diagonal {np.mean(diag):.0f})",
                  min(sub) > max(diag) + 40 and np.mean(sub) > np.mean(sub_before) + 40)
            click(*rect_center(rects, "train/pause"), hold=0.4)
            time.sleep(1)
            still = win.screen()
            time.sleep(1.5)
            check("Pause in the live window: the weights stop changing",
                  max(abs(cell(still, i, i - 1) - cell(win.screen(), i, i - 1)) for i in range(1, 8)) < 2)
            check("the live window is still running", win.running())

    def case_circuits(self):
        recipe, steps = "induction,2,2,32,1,0.01,1000", 1000
        _, base, data = self.shoot("circuits-1000", "--circuits", recipe, size="1280x720")
        if not data:
            return
        c, rects = data["circuits"], data["rects"]
        for wid in ["mode/circuits", "circuits/play", "circuits/pause", "circuits/step", "circuits/reset",
                    "circuits/text", "circuits/curve", "circuits/composition", "circuits/predictions",
                    "circuits/head/0/0", "circuits/head/1/1", "circuits/ablate/1/1", "circuits/guide/1"]:
            check(f"circuits: {wid} is drawn inside the window", wid in rects and rects[wid]["x"] >= 0 and
                  rects[wid]["x"] + rects[wid]["w"] <= data["framebuffer"]["w"])
        trained = json.loads(run([self.cli, "--compact", "--train", "induction", "--steps", str(steps), "--seed", "1",
                                  "--layers", "2", "--heads", "2", "--d-model", "32"], timeout=300).stdout)
        check(f"circuits: --circuits {recipe} rebuilt {steps} steps ({c['step']}), formed at the CLI's step "
              f"{trained['formed_at']} ({c['formedAt']})", c["step"] == steps and c["formedAt"] == trained["formed_at"])
        same = all(h["prefixMatching"] == ref["prefix_matching"][-1] and h["previousToken"] == ref["previous_token"][-1]
                   for h, ref in zip(c["heads"], trained["heads"]))
        check("circuits: every head's prefix-matching and previous-token score equal the CLI's --train, bit for bit",
              same and len(c["heads"]) == 4)
        induction = max((h for h in c["heads"] if h["layer"] == 1), key=lambda h: h["prefixMatching"])
        check(f"circuits: L1 H{induction['head']} is labelled induction ({induction['role']!r})",
              induction["prefixMatching"] >= 0.5 and induction["role"] == "induction")
        # The pattern on screen against the CLI's --eval of the same model on the same text.
        model = self.path("circuits-1000.model.json")
        with open(model, "w") as f:
            json.dump(trained["model"], f)
        ref = json.loads(run([self.cli, "--compact", "--eval", model, "--text", c["text"]]).stdout)
        check("circuits: the predictions equal the CLI's --eval", [p["predicted"] for p in c["predictions"]] ==
              ref["predicted"])
        weights = np.array(ref["weights"][1][induction["head"]])
        # The text's period k (the app's default, "abcdefghij abcdefghij", repeats every 11 symbols).
        n = len(weights)
        k = next(p for p in range(1, n) if c["text"][p:] == c["text"][:n - p])
        img = read_rgb(base + ".png")
        r = rects[f"circuits/head/1/{induction['head']}"]
        cell = r["w"] / n

        def brightness(i, j):
            y, x = int(r["y"] + (i + 0.5) * cell), int(r["x"] + (j + 0.5) * cell)
            return img[y - 1:y + 2, x - 1:x + 2].mean()

        rows = range(k + 1, n)
        screen = [max(range(i + 1), key=lambda j: brightness(i, j)) for i in rows]
        cli = [int(np.argmax(weights[i])) for i in rows]
        check(f"circuits: the induction head's brightest cell per row of the repeat is the CLI's largest weight "
              f"(screen {screen}, CLI {cli}; the token after the earlier copy: {[i - k + 1 for i in rows]})",
              screen == cli and sum(j == i - k + 1 for i, j in zip(rows, cli)) >= len(cli) - 1)
        check("--circuits nope: exits 2", run([self.app, "--circuits", "nope", "--frames", "1"], timeout=60).returncode == 2)

    def case_model(self):
        text = "The cat sat on the mat. The cat"
        model = os.path.join(ROOT, "web", "models", "fortunes.alm")
        ref = json.loads(run([self.cli, "--compact", "--lm-eval", model, "--text", text, "--roles"], timeout=120).stdout)
        for tag, size in (("model-wide", "1280x800"), ("model-phone", "390x844")):
            _, _, data = self.shoot(tag, "--model-text", text, size=size)
            if not data:
                return
            m, rects = data["model"], data["rects"]
            check(f"{tag}: the model loaded ({m['load']}, {m['error']})", m["loaded"])
            ids = ["mode/model", "model/text", "model/generate", "model/step", "model/temperature", "model/top_k",
                   "model/top_p", "model/seed", "model/prediction", "model/head/0/0", "model/head/1/3",
                   "model/ablate/0/0"]
            if size == "1280x800":  # the phone's column scrolls: these are further down
                ids += ["model/lens", "model/open/1/3"]
            for wid in ids:
                check(f"{tag}: {wid} is drawn inside the window", wid in rects and rects[wid]["x"] >= 0 and
                      rects[wid]["x"] + rects[wid]["w"] <= data["framebuffer"]["w"] + 1)
            check(f"{tag}: tokens, losses and top 10 equal --lm-eval's bit for bit",
                  m["tokens"] == ref["tokens"] and m["perTokenLoss"] == ref["per_token_loss"] and
                  m["loss"] == ref["loss"] and [(t["token"], t["p"]) for t in m["top"]] ==
                  [(t["token"], t["p"]) for t in ref["top"]])
            check(f"{tag}: each head's role is --lm-eval --roles'",
                  [(h["layer"], h["head"], h["role"], h["entropy"]) for h in m["heads"]] ==
                  [(h["layer"], h["head"], h["role"], h["entropy"]) for h in ref["roles"]])
        # A link's state: head 0.2 mean-ablated, head 1.1 open in Explore.
        state = base64.urlsafe_b64encode(json.dumps(
            {"text": text, "ablate": ["0.2:mean"], "open": "1.1"}).encode()).decode().rstrip("=")
        _, _, data = self.shoot("model-state", "--model-state", state, size="1280x800")
        if data:
            m = data["model"]
            mean = json.loads(run([self.cli, "--compact", "--lm-eval", model, "--text", text, "--ablate", "0.2:mean"],
                                  timeout=120).stdout)
            check("model-state: the mean-ablated head's losses equal --lm-eval --ablate 0.2:mean",
                  m["ablated"] == ["0.2:mean"] and m["perTokenLoss"] == mean["per_token_loss"])
            opened = m["openedHead"] or {}
            check(f"model-state: head 1.1 is open in Explore with the model's prediction ({opened})",
                  opened.get("layer") == 1 and opened.get("head") == 1 and not opened.get("edited") and
                  [t["p"] for t in opened.get("top", [])] == [t["p"] for t in mean["top"]] and
                  "model/back" in data["rects"])
        bad = self.path("damaged.alm")
        with open(model, "rb") as f, open(bad, "wb") as g:
            g.write(f.read()[:1000])
        _, _, data = self.shoot("model-damaged", "--model", bad, "--model-text", text, size="1280x800")
        if data:
            m = data["model"]
            check(f"model-damaged: the reply says the file is damaged ({m['error']})",
                  not m["loaded"] and m["load"] == "failed" and (m["error"] or "").startswith("model file"))
        check("--model-state nope: exits 2", run([self.app, "--model-state", "nope!", "--frames", "1"],
                                                 timeout=60).returncode == 2)

    def case_zoom(self):
        # The wheel over the weights grid of a generated 64-token scene zooms both grids about the
        # pointer: the colour under it is kept, the (colourful) scores grid changes; a double-click
        # fits the whole grid again. Screens compared with the pointer parked (no hover, no tooltip).
        scene = self.path("local-64.json")
        with open(scene, "w") as f:
            f.write(run([self.cli, "--gen", "local,64,16,16,1"]).stdout)
        _, _, data = self.shoot("zoom-local-64", scene)
        if not data:
            return
        rects = data["rects"]

        def region(grid):
            cells = [rects[f"cell/{grid}/{i}/{j}"] for i in (0, 63) for j in (0, 63)]
            return (int(min(c["y"] for c in cells)), int(max(c["y"] + c["h"] for c in cells)),
                    int(min(c["x"] for c in cells)), int(max(c["x"] + c["w"] for c in cells)))

        sy0, sy1, sx0, sx1 = region("scores")
        scores = lambda img: img[sy0:sy1, sx0:sx1]
        area = (sy1 - sy0) * (sx1 - sx0)
        px, py = rect_center(rects, "cell/weights/40/20")
        with self.Window(self, [scene], "zoom-live.log") as win:
            park_pointer()
            time.sleep(0.5)
            before = win.screen()
            run(["xdotool", "mousemove", str(px), str(py)])
            win.changed_since(before)  # hovered: the cell's tooltip
            for _ in range(6):  # six notches up (button 4): zoom 1.25⁶ ≈ 3.8
                shown = win.screen()
                run(["xdotool", "click", "4"])
                win.changed_since(shown)
            shown = win.screen()
            park_pointer()
            win.changed_since(shown)  # the tooltip goes
            time.sleep(0.3)
            zoomed = win.screen()
            window_png(self.path("zoom-live-zoomed.png"))
            changed = int((np.abs(scores(zoomed) - scores(before)).max(axis=2) > 40).sum())
            check(f"zoom: six wheel notches over the weights grid zoom the scores grid too ({changed} of {area} "
                  "pixels changed)", changed > 0.3 * area)
            under = np.abs(zoomed[py - 1:py + 1, px - 1:px + 1] - before[py - 1:py + 1, px - 1:px + 1]).max()
            check(f"zoom: about the pointer (the middle of cell (40, 20) keeps its colour, max channel change "
                  f"{under:.0f})", under < 12)
            run(["xdotool", "mousemove", str(px), str(py)])
            for _ in range(2):  # a double-click (within ImGui's 0.3 s), each press and release a few frames long
                click(px, py, hold=0.05)
                time.sleep(0.05)
            park_pointer()
            # The click also gives cell (40, 20) the keyboard focus, whose derivation shows beside it
            # (over the lower rows): compare the top half of the scores grid.
            top = lambda img: scores(img)[: (sy1 - sy0) // 2]
            half = area // 2
            wait_until(lambda: (np.abs(top(win.screen()) - top(before)).max(axis=2) > 40).mean() < 0.02, timeout=5)
            back = win.screen()
            window_png(self.path("zoom-live-fit.png"))
            differ = int((np.abs(top(back) - top(before)).max(axis=2) > 40).sum())
            check(f"zoom: a double-click shows the whole grid again ({differ} of {half} pixels of its top half differ "
                  "from before)", differ < 0.02 * half)

    def case_sanitizer(self):
        # Leaks do not change the exit status (LSAN exitcode=0): they are judged by where they come
        # from. A finding in our code (src/) or in the ImGui we compile (third_party/) has this
        # repository's paths in its stack, symbolized from the debug build. A minimal GLFW + GL 3.3
        # program leaks the same way here (Mesa, X11): those stacks lie outside the repository.
        if not self.sanitized_app:
            return
        if not os.access(self.sanitized_app, os.X_OK):
            not_ok(f"sanitized app: no binary at {self.sanitized_app}")
            return
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", LSAN_OPTIONS="exitcode=0",
                   UBSAN_OPTIONS="print_stacktrace=1")
        for preset in ("causal-5", "soft-dictionary", "learned-5x8"):
            log, png = self.path(f"sanitized-{preset}.log"), self.path(f"sanitized-{preset}.png")
            if os.path.exists(png):
                os.remove(png)
            p = run([self.sanitized_app, "--preset", preset, "--frames", "5", "--size", SIZE, "--screenshot", png],
                    env=env, timeout=300)
            text = p.stdout + p.stderr
            with open(log, "w") as f:
                f.write(text)
            check(f"sanitized app, {preset}: exits 0 after --frames 5 (status {p.returncode}; log {log})",
                  p.returncode == 0)
            findings = sanitizer_findings(text, ROOT)
            if check(f"sanitized app, {preset}: no sanitizer report from our code", not findings) is False:
                for line in findings:
                    print(f"    {line}")
            leaked = re.search(r"SUMMARY: AddressSanitizer: ([0-9]+ byte\(s\) leaked in [0-9]+ allocation\(s\))", text)
            if leaked:
                print(f"    leaked outside this repository (system GL/X11 libraries): {leaked.group(1)}")
            check(f"sanitized app, {preset}: wrote the screenshot", os.path.exists(png) and os.path.getsize(png) > 0)


def sanitizer_findings(text, root):
    root = root.rstrip("/") + "/"
    found = [line.strip() for line in text.splitlines() if "runtime error:" in line or "ERROR: AddressSanitizer" in line]
    # LeakSanitizer: one block per leak, "Direct/Indirect leak of N byte(s) …" then its "#k" frames.
    for block in re.split(r"\n(?=(?:Direct|Indirect) leak of )", text):
        block = block.strip("\n")
        if not re.match(r"(?:Direct|Indirect) leak of ", block):
            continue
        # A frame is ours when it is symbolized to a source file of this repository. A bare
        # "(…/build/…/attention-lab+0x2d8e)" frame has no source: the debug build symbolizes all of
        # our code, so such a frame is a PLT stub or a mis-unwound library frame (seen once for a
        # 56-byte calloc leak under heavy load; not reproduced).
        ours = [l.strip() for l in block.splitlines()
                if re.match(r"\s*#\d+ ", l) and root in l and not re.search(r"\+0x[0-9a-f]+\)\s*$", l)]
        if ours:
            found.append(block.splitlines()[0] + " through this repository: " + " | ".join(ours)[:400])
    return found


CASES = ["presets", "walk", "gallery", "keyspace", "hidpi", "cli-errors", "bad-file", "keyboard", "export-png",
         "export-menu", "drop", "gallery-mouse", "heads", "variants", "modes", "zoom", "train", "theme", "keyboard-a11y", "instant-keys",
         "circuits", "model", "sanitizer"]


def main():
    args = sys.argv[1:]
    only = []
    while "--case" in args:
        i = args.index("--case")
        only.append(args[i + 1])
        del args[i:i + 2]
    os.chdir(ROOT)
    app = args[0] if args else "build/native/src/app/attention-lab"
    sanitized_app = args[1] if len(args) > 1 else ""
    cli = os.environ.get("AL_CLI") or os.path.join(os.path.dirname(app), "..", "attention-lab-cli")
    out = os.environ.get("AL_DESKTOP_OUT", "build/desktop")
    if not os.access(app, os.X_OK):
        print(f"desktop: no app at {app} (build it: cmake --preset native && cmake --build --preset native)",
              file=sys.stderr)
        return 1
    if not os.access(cli, os.X_OK):
        print(f"desktop: no attention-lab-cli at {cli} (set AL_CLI)", file=sys.stderr)
        return 1
    for tool in ("Xvfb", "xdotool", "xprop", "xwd", "convert"):
        if not shutil.which(tool):
            print(f"desktop: {tool} is missing (scripts/setup test installs it)", file=sys.stderr)
            return 1
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    desktop = Desktop(os.path.abspath(app), os.path.abspath(sanitized_app) if sanitized_app else "",
                      os.path.abspath(cli), out)

    # A terminated run (timeout, Ctrl+C) still stops its Xvfb and app windows (the finally blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    xvfb = Xvfb(out)
    print(f"desktop: Xvfb on {os.environ['DISPLAY']}, app {app}")
    try:
        set_dpi(None)  # a fresh display has no X resources: content scale 1 (96 dpi)
        for name in CASES:
            if only and not any(o in name for o in only):
                continue
            print(f"# {name}", flush=True)
            park_pointer()  # outside every window: nothing is hovered
            try:
                getattr(desktop, "case_" + name.replace("-", "_"))()
            except Exception as e:  # a broken case is a failure, and the other cases still run
                not_ok(f"{name}: {type(e).__name__}: {e}")
    finally:
        xvfb.stop()
    print()
    print(f"desktop: screenshots and logs in {out}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
