#!/usr/bin/env bash
# tests/desktop/run.sh [APP [SANITIZED_APP]] — the desktop app (GLFW + OpenGL 3.3) under a virtual
# X display.
#
#   APP              the built binary (default: build/native/src/app/attention-lab); builds nothing
#   SANITIZED_APP    optional: the app built with AddressSanitizer + UBSan (the native-debug preset,
#                    build/native-debug/src/app/attention-lab) for check 7
#   AL_CLI           attention-lab-cli, for the presets' scene JSON (default: next to APP's src/)
#   AL_DESKTOP_OUT   screenshots, rects and logs (default: build/desktop)
#
# Starts its own Xvfb (a free display picked by Xvfb itself via -displayfd; killed on exit) with a
# screen larger than the windows, and parks the pointer in its far corner so that it hovers nothing
# (the windows open at the top-left). Then:
#   1. soft-dictionary, causal-5, practice-qkv at --size 1280x800 --frames 5: exit 0, no GL/GLFW
#      error on stderr, and check_frame.py compares the PNG with NumPy + the colormap references
#   2. HiDPI: Xft.dpi 192 (content scale 2) → a 2560x1600 framebuffer, cells at the same colours
#   3. command-line errors exit 2 naming the problem; an unwritable --screenshot exits 1
#   4. a bad scene file: with --frames exit 2 naming the field; interactively the error banner shows
#   5. idle: CPU use of the running app over 5 s while nothing happens
#   1b. the Gallery: --gallery lists web/demos/index.json's demos; --demo NAME screenshots checked
#      like the presets, the Example picker naming the demo; 6b: Gallery… and a demo by mouse
#   6. keyboard and mouse (xdotool): Ctrl+S saves through the path dialog, Ctrl+O opens (a bad file
#      shows its error and keeps the scene), the Export PNG button writes the screen, Export… →
#      Save as NumPy… writes attention-lab-cli --export numpy's script; dropping a
#      file on the window (xdnd_drop.py) opens it, a bad one shows the error banner
#   7. with SANITIZED_APP: three presets under ASan + UBSan exit 0 with no sanitizer report, and no
#      leak whose stack passes through this repository (Mesa and X11 leak a few hundred bytes of
#      their own at exit, with stacks outside it: those are counted, not failed)
#   8. multi-head: three-heads in the Heads mode (--mode heads): every head's weights grid and the
#      average, cell by cell against NumPy (check_heads.py); an unknown --mode exits 2
#   9. the FlashAttention and Decode modes: --mode at 1280x720 and 390x844 with their controls on
#      screen; flash/next and decode/next clicked in a live window change the tiles and the cache
#  10. the Train mode (--mode train, check_train.py): a fresh run draws its widgets; a model trained by
#      attention-lab-cli --train previous-token opens in it with the sub-diagonal, cell by cell
# Prints "ok - …" / "not ok - …" per check and closes with "N passed, N failed".
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

app="${1:-build/native/src/app/attention-lab}"
sanitized_app="${2:-}"
cli="${AL_CLI:-$(dirname "$app")/../attention-lab-cli}"
out="${AL_DESKTOP_OUT:-build/desktop}"
python=/usr/bin/python3
if [ ! -x "$app" ]; then
  echo "desktop: no app at $app (build it: cmake --preset native && cmake --build --preset native)" >&2
  exit 1
fi
if [ ! -x "$cli" ]; then
  echo "desktop: no attention-lab-cli at $cli (set AL_CLI)" >&2
  exit 1
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() {  # check NAME COMMAND… — pass when the command succeeds
  local name="$1"; shift
  if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# --- the virtual display ----------------------------------------------------------------------
xvfb_pid=""
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  wait 2>/dev/null
}
trap cleanup EXIT

start_xvfb() {  # start_xvfb → sets DISPLAY
  local fdfile="$out/xvfb-display.txt"
  : > "$fdfile"
  Xvfb -displayfd 3 -screen 0 3000x1800x24 -nolisten tcp -noreset 3>"$fdfile" 2>"$out/xvfb.log" &
  xvfb_pid=$!
  for _ in $(seq 1 100); do
    [ -s "$fdfile" ] && break
    sleep 0.1
  done
  if [ ! -s "$fdfile" ]; then
    echo "desktop: Xvfb did not start (see $out/xvfb.log)" >&2
    exit 1
  fi
  export DISPLAY=":$(tr -d '[:space:]' < "$fdfile")"
  echo "desktop: Xvfb on $DISPLAY (pid $xvfb_pid), app $app"
}
start_xvfb
# A fresh display has no X resources: content scale 1 (Xft.dpi unset = 96 dpi).
xprop -root -remove RESOURCE_MANAGER 2>/dev/null
# The pointer starts at the screen centre (1500, 900): outside a 1280x800 window, inside a HiDPI
# 2560x1600 one. Park it in the far corner.
command -v xdotool >/dev/null && xdotool mousemove 2999 1799

no_gl_errors() { ! grep -Eq 'GL error|GLFW error' "$1"; }

# --- 1. presets at 1280x800 -------------------------------------------------------------------
size=1280x800
run_preset() {  # run_preset PRESET SIZE TAG — screenshot + rects + checks
  local preset="$1" sz="$2" tag="$3"
  local base="$out/$tag"
  "$cli" --preset "$preset" > "$base.scene.json" || { not_ok "$tag: attention-lab-cli --preset $preset"; return; }
  timeout 60 "$app" --preset "$preset" --frames 5 --size "$sz" --screenshot "$base.png" --rects "$base.rects.json" \
    > "$base.stdout" 2> "$base.stderr"
  local status=$?
  check "$tag: exits 0 after --frames 5 (status $status)" [ "$status" -eq 0 ]
  check "$tag: no GL or GLFW errors on stderr" no_gl_errors "$base.stderr"
  [ -s "$base.stderr" ] && sed 's/^/    stderr: /' "$base.stderr"
  if [ -f "$base.png" ] && [ -f "$base.rects.json" ]; then
    local line
    while IFS= read -r line; do
      case "$line" in
        "ok - "*) passed=$((passed + 1)); echo "$line" ;;
        "not ok - "*) failed=$((failed + 1)); echo "$line" ;;
        *) echo "    $line" ;;
      esac
    done < <("$python" "$here/check_frame.py" --png "$base.png" --rects "$base.rects.json" \
               --scene "$base.scene.json" --size "$sz" --label "$tag" --lesson "$preset" 2>&1)
  else
    not_ok "$tag: wrote $base.png and $base.rects.json"
  fi
}
for preset in soft-dictionary causal-5 practice-qkv; do
  run_preset "$preset" "$size" "$preset"
done

# --- 1b. Walk through: every step of practice-qkv, and the quiz ------------------------------
# --step N opens the walk as a link's step=N does; --rects also writes getStep()'s fields ("walk")
# and getQuiz()'s ("quiz"). The step text's numbers are lesson 1's (docs/LESSONS.md).
walk_field() {  # walk_field RECTS KEY.PATH — a field of the rects JSON, printed as JSON
  "$python" -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[int(k)] if k.isdigit() else v[k]
print(json.dumps(v, ensure_ascii=False))' "$1" "$2"
}
walk_titles=("The tokens: X" "Three roles: Q, K, V" "Scores: Q Kᵀ" "Scale: none here"
             "Mask: + M (nothing hidden here)" "Softmax: scores → weights" "Blend: weights · V" "The output: Y")
for sz in 1280x720 390x844; do
  for step in 1 2 3 4 5 6 7 8; do
    base="$out/walk-$sz-$step"
    timeout 60 "$app" --preset practice-qkv --step "$step" --frames 5 --size "$sz" --screenshot "$base.png" \
      --rects "$base.rects.json" > "$base.stdout" 2> "$base.stderr"
    status=$?
    if [ "$status" -ne 0 ] || [ ! -f "$base.rects.json" ]; then
      not_ok "walk $sz step $step: exit $status ($(head -c 200 "$base.stderr"))"
      continue
    fi
    title=$(walk_field "$base.rects.json" walk.title)
    index=$(walk_field "$base.rects.json" walk.index)
    check "walk $sz step $step: '${walk_titles[$((step - 1))]}' ($title, index $index)" \
      [ "$title|$index" = "\"${walk_titles[$((step - 1))]}\"|$((step - 1))" ]
    check "walk $sz step $step: the card's Next button and counter were drawn" \
      "$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"]; sys.exit(not ("walk/next" in r and "walk/counter" in r))' "$base.rects.json"
  done
done
check "walk step 6 (softmax): lesson 1's row 0 in the sentence" \
  [ "$(walk_field "$out/walk-1280x720-6.rects.json" walk.numbers)" = "\"Row 'the': e^(score − 1) = 0.37, 1, 1; ÷ their sum 2.37 → weights 0.155, 0.422, 0.422 (sum 1).\"" ]
check "walk step 8 (Y): lesson 1's output row 0" \
  [ "$(walk_field "$out/walk-1280x720-8.rects.json" walk.numbers)" = "\"Row 'the': y = [0.578, 0.845, 0.155, 0.422].\"" ]
# causal-5 is given as Q, K, V: 7 steps; step=8 opens the last one.
timeout 60 "$app" --preset causal-5 --step 8 --frames 5 --size 1280x720 --rects "$out/walk-causal-8.rects.json" \
  > /dev/null 2>&1
check "walk causal-5 --step 8: the last of 7 steps" \
  [ "$(walk_field "$out/walk-causal-8.rects.json" walk.index)/$(walk_field "$out/walk-causal-8.rects.json" walk.count)" = "6/7" ]
timeout 60 "$app" --preset causal-5 --quiz 7 --frames 5 --size 1280x720 --screenshot "$out/quiz-7.png" \
  --rects "$out/quiz-7.rects.json" > /dev/null 2>&1
check "--quiz 7: the quiz is open at the causal question, its choices drawn" \
  "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); q=d["quiz"]
sys.exit(not (q["open"] and q["question"] == 6 and "causal" in q["questions"][6] and "quiz/6/choice/2" in d["rects"]))' \
  "$out/quiz-7.rects.json"
expect_walk_error() {  # expect_walk_error ARGS… — exit 2 naming the flag
  timeout 60 "$app" "$@" > "$out/walk-error.log" 2>&1
  local status=$?
  local named=no
  grep -q -- "$1: expected a whole number" "$out/walk-error.log" && named=yes
  check "$* exits 2 naming the flag (exit $status)" [ "$status/$named" = "2/yes" ]
}
expect_walk_error --step 9
expect_walk_error --step 0
expect_walk_error --quiz 99
# --- 1b. the Gallery: the web's demos, bundled -------------------------------------------------
# --gallery opens it: every demo of web/demos/index.json is listed (the visible ones have rects).
# --demo NAME loads one as a click in the gallery does: its screenshot is checked like the presets
# (against web/demos/NAME.json), and the Example picker names it (rects' "example").
demo_title() { "$python" -c 'import json,sys; print(next(d["title"] for d in json.load(open(sys.argv[1])) if d["name"]==sys.argv[2]))' web/demos/index.json "$1"; }
gbase="$out/gallery"
timeout 60 "$app" --gallery --frames 5 --size "$size" --screenshot "$gbase.png" --rects "$gbase.rects.json" \
  > "$gbase.stdout" 2> "$gbase.stderr"
gstatus=$?
check "gallery: --gallery exits 0 (status $gstatus) and writes its rects" test "$gstatus" -eq 0 -a -s "$gbase.rects.json"
check "gallery: no GL or GLFW errors" no_gl_errors "$gbase.stderr"
listed=$("$python" -c '
import json, sys
rects = json.load(open(sys.argv[1]))["rects"]
names = [d["name"] for d in json.load(open(sys.argv[2]))]
shown = [n for n in names if "gallery/" + n in rects]
# The list starts at the top: the shown demos are the first ones of the index, in order.
print(len(shown) if shown == names[:len(shown)] else -1)' "$gbase.rects.json" web/demos/index.json)
check "gallery: the open gallery lists the index's demos from the top ($listed rows visible)" [ "$listed" -ge 4 ]
run_demo() {  # run_demo NAME — --demo NAME: screenshot checked against the demo's scene
  local name="$1" base="$out/demo-$1"
  timeout 60 "$app" --demo "$name" --frames 5 --size "$size" --screenshot "$base.png" --rects "$base.rects.json" \
    > "$base.stdout" 2> "$base.stderr"
  local status=$?
  check "demo $name: exits 0 after --frames 5 (status $status)" [ "$status" -eq 0 ]
  check "demo $name: no GL or GLFW errors on stderr" no_gl_errors "$base.stderr"
  local want got
  want=$(demo_title "$name")
  got=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["example"])' "$base.rects.json")
  check "demo $name: the Example picker names it (\"$got\")" [ "$got" = "$want" ]
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) passed=$((passed + 1)); echo "$line" ;;
      "not ok - "*) failed=$((failed + 1)); echo "$line" ;;
      *) echo "    $line" ;;
    esac
  done < <("$python" "$here/check_frame.py" --png "$base.png" --rects "$base.rects.json" \
             --scene "web/demos/$name.json" --size "$size" --label "demo $name" 2>&1)
}
for demo in two-keys-tie sqrt-dk-saturation; do
  run_demo "$demo"
done
expect_status_early() {  # an unknown demo: exit 2 naming the known ones
  timeout 60 "$app" --demo nope --frames 2 --size 640x480 > "$out/demo-nope.log" 2>&1
  local status=$?
  [ "$status" -eq 2 ] && grep -q "no demo named 'nope' (demos: practice-qkv" "$out/demo-nope.log"
}
check "--demo nope exits 2 naming the demos" expect_status_early

# --- 1c. learned projections and the Key space mode (tests/desktop/check_keyspace.py) ----------
run_check() {  # run_check TAG WHAT -- APP ARGS… — screenshot + rects, then check_keyspace.py WHAT
  local tag="$1" what="$2"; shift 3
  local base="$out/$tag"
  timeout 60 "$app" "$@" --frames 5 --screenshot "$base.png" --rects "$base.rects.json" > "$base.stdout" 2> "$base.stderr"
  local status=$?
  check "$tag: exits 0 after --frames 5 (status $status)" [ "$status" -eq 0 ]
  check "$tag: no GL or GLFW errors on stderr" no_gl_errors "$base.stderr"
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) passed=$((passed + 1)); echo "$line" ;;
      "not ok - "*) failed=$((failed + 1)); echo "$line" ;;
      *) echo "    $line" ;;
    esac
  done < <("$python" "$here/check_keyspace.py" "$what" --png "$base.png" --rects "$base.rects.json" 2>&1)
}
run_check keyspace-soft-dictionary keyspace -- --preset soft-dictionary --mode keyspace --size "$size"
# Tall enough that the vectors panel shows every token and the three W grids without scrolling.
run_check learned-practice-qkv learned -- --preset practice-qkv --size 1280x1700
expect_mode_error() {
  timeout 60 "$app" --mode nope --frames 1 > "$out/cli-mode.log" 2>&1
  [ $? -eq 2 ] && grep -q 'unknown mode "nope"' "$out/cli-mode.log"
}
check "--mode nope exits 2 naming the known modes" expect_mode_error

# --- 2. HiDPI: content scale 2 from Xft.dpi ---------------------------------------------------
# GLFW reads the X resource Xft.dpi as the monitor's content scale (192 / 96 = 2); with
# GLFW_SCALE_TO_MONITOR the 1280x800 logical window becomes a 2560x1600 framebuffer.
if xprop -root -f RESOURCE_MANAGER 8s -set RESOURCE_MANAGER "Xft.dpi:	192" 2>/dev/null; then
  run_preset causal-5 "$size" "causal-5-hidpi"
  if [ -f "$out/causal-5-hidpi.rects.json" ]; then
    scale=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["ui_scale"])' "$out/causal-5-hidpi.rects.json")
    check "causal-5-hidpi: fonts and sizes use content scale 2 (ui_scale $scale)" [ "$scale" = 2 ]
  fi
  xprop -root -remove RESOURCE_MANAGER
else
  not_ok "HiDPI: xprop could not set Xft.dpi"
fi

# --- 3. command-line errors -------------------------------------------------------------------
expect_status() {  # expect_status STATUS PATTERN NAME -- ARGS… — exit status and a stderr/stdout line
  local want="$1" pattern="$2" name="$3"; shift 4
  local log="$out/cli-$(echo "$name" | tr -c 'A-Za-z0-9' '_').log"
  timeout 60 "$app" "$@" > "$log" 2>&1
  local status=$?
  if [ "$status" -eq "$want" ] && grep -Eq -- "$pattern" "$log"; then
    ok "$name (exit $status)"
  else
    not_ok "$name: exit $status, want $want and /$pattern/; output: $(head -c 300 "$log")"
  fi
}
expect_status 0 '--screenshot OUT.png' "--help prints the flags" -- --help
expect_status 2 'unknown option' "an unknown flag exits 2" -- --bogus
expect_status 2 '--size: expected WxH' "--size 5x5 exits 2" -- --size 5x5
expect_status 2 '--size: expected WxH' "--size 1280 exits 2" -- --size 1280
expect_status 2 '--frames: expected a whole number' "--frames 0 exits 2" -- --frames 0
expect_status 2 '--frames: missing value' "--frames without a value exits 2" -- --frames
expect_status 2 'unknown name "nope"' "--preset nope exits 2" -- --preset nope
expect_status 1 'cannot write the PNG' "an unwritable --screenshot exits 1" -- \
  --frames 2 --size 640x480 --screenshot "$out/no-such-folder/x.png"

# --- 4. a bad scene file ----------------------------------------------------------------------
bad="$out/bad-scene.json"
cat > "$bad" <<'EOF'
{"version": 1, "tokens": ["a", "b", "c"],
 "Q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]],
 "K": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1]],
 "V": [[1], [2], [3]]}
EOF
expect_status 2 'K: row 2 has 3 entries, expected 4' "a bad scene file with --frames exits 2 naming the field" -- \
  --frames 2 "$bad"
expect_status 2 'cannot open the file' "a missing scene file with --frames exits 2" -- --frames 2 "$out/missing.json"

# Interactively the app starts with the default example and shows the error in red in the top bar.
window_png() {  # window_png OUT.png W H — the real window from the X server (xwd), cropped
  xwd -root -silent | convert xwd:- -crop "$2x$3+0+0" +repage "$1"
}
error_pixels() {  # error_pixels PNG [BEFORE.png] — pixels of the error text colour, kError (235, 100, 95)
  # at any anti-aliasing strength (its hue: G/R and B/R near 0.42), in the top 60 rows; with
  # BEFORE.png, anywhere but only where the image changed (text that newly appeared).
  "$python" - "$@" <<'EOF'
import subprocess, sys
import numpy as np
def read(path):
    w, h = map(int, subprocess.check_output(["identify", "-format", "%w %h", path], text=True).split())
    return np.frombuffer(subprocess.check_output(["convert", path, "rgb:-"]), np.uint8).reshape(h, w, 3).astype(float)
img = read(sys.argv[1])
r, g, b = img[..., 0], img[..., 1], img[..., 2]
gr, br = g / np.maximum(r, 1), b / np.maximum(r, 1)
hue = (r > 110) & (gr > 0.3) & (gr < 0.56) & (br > 0.3) & (br < 0.56)
if len(sys.argv) > 2:
    hue &= np.abs(img - read(sys.argv[2])).max(axis=2) > 40
else:
    hue[60:] = False
print(int(hue.sum()))
EOF
}
"$app" --size 1280x800 "$bad" > "$out/interactive-bad.log" 2>&1 &
app_pid=$!
sleep 3
window_png "$out/interactive-bad-scene.png" 1280 800
reds=$(error_pixels "$out/interactive-bad-scene.png")
check "a bad scene file interactively: still running with the default example" kill -0 "$app_pid"
check "a bad scene file interactively: error banner drawn ($reds error-coloured pixels in the top bar)" [ "$reds" -gt 100 ]
check "a bad scene file interactively: stderr names the field" grep -q 'K: row 2 has 3 entries' "$out/interactive-bad.log"

# --- 5. idle CPU ------------------------------------------------------------------------------
# CPU seconds the app used over 5 s of no input (utime + stime from /proc, clock ticks).
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
t0=$(ticks "$app_pid")
sleep 5
t1=$(ticks "$app_pid")
hz=$(getconf CLK_TCK)
idle_cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.2f", 100 * (b - a) / hz / 5 }')
echo "desktop: idle CPU over 5 s: ${idle_cpu}%"
check "idle: under 2% CPU over 5 s without input (${idle_cpu}%)" awk -v c="$idle_cpu" 'BEGIN { exit !(c < 2) }'
kill "$app_pid" 2>/dev/null
wait "$app_pid" 2>/dev/null
app_pid=""

# --- 6. keyboard: Ctrl+S saves, Ctrl+O opens (xdotool) ------------------------------------------
# Quick taps (xdotool sends press and release back to back, within one frame): the app holds such
# a release back for a frame so that ImGui 1.86, which reads key states once per frame, sees them.
press() { xdotool key "$1"; sleep 0.2; }
type_path() { press ctrl+a; xdotool type --delay 20 "$1"; sleep 0.3; }
same_json() { "$python" -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); sys.exit(a!=b)' "$@"; }
if command -v xdotool >/dev/null; then
  saved="$out/saved-scene.json"
  rm -f "$saved"
  "$cli" --preset causal-5 > "$out/causal-5.expected.json"
  "$app" --preset causal-5 --size 1280x800 > "$out/interactive-keys.log" 2>&1 &
  app_pid=$!
  sleep 2
  wid=$(xdotool search --sync --name 'Attention Lab' | head -1)
  xdotool windowfocus --sync "$wid"
  press ctrl+s
  type_path "$saved"
  press Return
  sleep 1
  check "Ctrl+S, a path and Enter write the scene file" [ -s "$saved" ]
  check "the saved file equals the preset's scene JSON v1 (attention-lab-cli --preset causal-5)" \
    same_json "$saved" "$out/causal-5.expected.json"
  check "the saved file is indented" grep -q '^  "tokens"' "$saved"

  # Ctrl+O with the bad file: the dialog stays open with the field's error; the scene stays.
  press ctrl+o
  type_path "$bad"
  window_png "$out/open-dialog-before.png" 1280 800
  press Return
  sleep 0.5
  window_png "$out/open-dialog-error.png" 1280 800
  reds=$(error_pixels "$out/open-dialog-error.png" "$out/open-dialog-before.png")
  check "Ctrl+O with a bad file: the dialog shows the error ($reds new error-coloured pixels)" [ "$reds" -gt 100 ]
  press Escape
  sleep 0.3
  rm -f "$saved"
  press ctrl+s
  type_path "$saved"
  press Return
  sleep 1
  check "after the rejected file the scene is unchanged (saved again = causal-5)" \
    same_json "$saved" "$out/causal-5.expected.json"

  # Saving into a folder that does not exist: the dialog reports it.
  press ctrl+s
  type_path "$out/no-such-folder/x.json"
  window_png "$out/save-dialog-before.png" 1280 800
  press Return
  sleep 0.5
  window_png "$out/save-dialog-error.png" 1280 800
  reds=$(error_pixels "$out/save-dialog-error.png" "$out/save-dialog-before.png")
  check "Ctrl+S to a missing folder: the dialog shows the error ($reds new error-coloured pixels)" [ "$reds" -gt 100 ]
  press Escape

  # Ctrl+O with a good file (the one saved above, then the practice preset's) opens it.
  "$cli" --preset practice-qkv > "$out/practice-qkv.expected.json"
  press ctrl+o
  type_path "$out/practice-qkv.expected.json"
  press Return
  sleep 0.5
  rm -f "$saved"
  press ctrl+s
  type_path "$saved"
  press Return
  sleep 1
  check "Ctrl+O opens a scene file (saved again = practice-qkv)" same_json "$saved" "$out/practice-qkv.expected.json"
  # The Export PNG button (where --rects says it is): the dialog, then the screen as a PNG without
  # the dialog — its heatmaps equal the --screenshot of the scene now shown (practice-qkv, opened
  # above) from part 1.
  exported="$out/exported-screen.png"
  rm -f "$exported"
  read -r bx by < <("$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"]["share/export-png"]; print(int(r["x"]+r["w"]/2), int(r["y"]+r["h"]/2))' "$out/practice-qkv.rects.json")
  xdotool mousemove "$bx" "$by" mousedown 1
  sleep 0.15
  xdotool mouseup 1
  sleep 0.3
  type_path "$exported"
  xdotool mousemove 2999 1799
  press Return
  for _ in $(seq 1 50); do [ -s "$exported" ] && break; sleep 0.1; done  # slow frames on a busy machine
  sleep 0.2
  check "Export PNG writes the screen" [ -s "$exported" ]
  if [ -s "$exported" ]; then
    # The region of both heatmaps' cells (from the --rects of part 1), with their labels around.
    region=$("$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))["rects"]
cells = [v for k, v in r.items() if k.startswith(("cell/scores/", "cell/weights/"))]
x0, y0 = min(c["x"] for c in cells) - 40, min(c["y"] for c in cells) - 20
x1, y1 = max(c["x"] + c["w"] for c in cells) + 10, max(c["y"] + c["h"] for c in cells) + 10
print("%dx%d+%d+%d" % (x1 - x0, y1 - y0, x0, y0))' "$out/practice-qkv.rects.json")
    diff_px=$(compare -metric AE -fuzz 2% -extract "$region" "$exported" "$out/practice-qkv.png" null: 2>&1)
    check "the exported PNG shows the heatmaps of the --screenshot (region $region, differing pixels: $diff_px)" \
      [ "$diff_px" = 0 ]
  fi
  # The Export… menu (where part 1's --rects of practice-qkv says the button is): its first item, "Save as NumPy…", opens
  # the path dialog; the file written is attention-lab-cli --export numpy of the scene on screen
  # (practice-qkv, opened above). ImGui opens the menu at the pointer, its first row just below.
  exported_py="$out/exported-scene.py"
  rm -f "$exported_py"
  read -r mx my < <("$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"]["export/menu"]; print(int(r["x"]+r["w"]/2), int(r["y"]+r["h"]/2))' "$out/practice-qkv.rects.json")
  xdotool mousemove "$mx" "$my" mousedown 1
  sleep 0.15
  xdotool mouseup 1
  sleep 0.4
  window_png "$out/export-menu-desktop.png" 1280 800
  xdotool mousemove $((mx + 30)) $((my + 20)) mousedown 1
  sleep 0.15
  xdotool mouseup 1
  sleep 0.4
  type_path "$exported_py"
  xdotool mousemove 2999 1799
  press Return
  sleep 1
  check "Export… → Save as NumPy… writes the script" [ -s "$exported_py" ]
  check "the saved script is attention-lab-cli --export numpy of the scene shown" \
    cmp -s "$exported_py" <("$cli" --export numpy "$out/practice-qkv.expected.json")
  # Drag and drop (tests/desktop/xdnd_drop.py plays a file manager's side of XDND): a good file
  # opens, a bad one leaves the scene and shows the field's error in the top bar.
  check "dropping a .json file: the window accepts it" "$python" "$here/xdnd_drop.py" "$wid" "$out/causal-5.expected.json"
  sleep 0.5
  title=$(xdotool getwindowname "$wid")
  check "dropping a .json file opens it (title: $title)" [ "$title" = "Attention Lab — causal-5.expected.json" ]
  check "dropping a bad file: the window accepts it" "$python" "$here/xdnd_drop.py" "$wid" "$bad"
  sleep 0.5
  window_png "$out/dropped-bad-scene.png" 1280 800
  reds=$(error_pixels "$out/dropped-bad-scene.png")
  check "dropping a bad file shows the error banner ($reds error-coloured pixels in the top bar)" [ "$reds" -gt 100 ]
  rm -f "$saved"
  press ctrl+s
  type_path "$saved"
  press Return
  sleep 1
  check "after the dropped bad file the dropped good scene stays (saved = causal-5)" \
    same_json "$saved" "$out/causal-5.expected.json"
  check "the app is still running" kill -0 "$app_pid"
  check "no GL or GLFW errors while interacting" no_gl_errors "$out/interactive-keys.log"
  kill "$app_pid" 2>/dev/null
  wait "$app_pid" 2>/dev/null
  app_pid=""
else
  not_ok "xdotool missing (scripts/setup installs it)"
fi

# --- 6b. the Gallery by mouse (xdotool): Gallery…, then a demo ---------------------------------
if command -v xdotool >/dev/null; then
  "$app" --size 1280x800 > "$out/interactive-gallery.log" 2>&1 &
  app_pid=$!
  sleep 2
  wid=$(xdotool search --sync --name 'Attention Lab' | head -1)
  xdotool windowfocus --sync "$wid"
  click_rect() {  # click_rect RECTS.json ID
    local x y
    read -r x y < <("$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"][sys.argv[2]]; print(int(r["x"]+r["w"]/2), int(r["y"]+r["h"]/2))' "$1" "$2")
    xdotool mousemove "$x" "$y" mousedown 1
    sleep 0.15
    xdotool mouseup 1
    sleep 0.5
  }
  click_rect "$out/practice-qkv.rects.json" share/gallery
  window_png "$out/gallery-open.png" 1280 800
  click_rect "$gbase.rects.json" gallery/two-keys-tie
  xdotool mousemove 2999 1799
  sleep 0.5
  window_png "$out/gallery-two-keys-tie.png" 1280 800
  saved="$out/gallery-saved.json"
  rm -f "$saved"
  press ctrl+s
  type_path "$saved"
  press Return
  sleep 1
  check "Gallery… then a click on 'Two keys tie' loads the demo (saved = web/demos/two-keys-tie.json)" \
    same_json "$saved" web/demos/two-keys-tie.json
  check "no GL or GLFW errors in the gallery session" no_gl_errors "$out/interactive-gallery.log"
  kill "$app_pid" 2>/dev/null
  wait "$app_pid" 2>/dev/null
  app_pid=""
fi

# --- 7. the sanitizer build -------------------------------------------------------------------
# Leaks do not change the exit status (LSAN exitcode=0): they are judged by where they come from.
# A finding in our code (src/) or in the ImGui we compile (third_party/) has this repository's
# paths in its stack, symbolized from the debug build. A minimal GLFW + GL 3.3 program leaks the
# same way here (Mesa, X11): those stacks lie outside the repository.
sanitizer_findings() {  # sanitizer_findings LOG → prints the problems; empty when clean
  "$python" - "$1" "$root" <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
root = sys.argv[2].rstrip("/") + "/"
for line in text.splitlines():
    if "runtime error:" in line or "ERROR: AddressSanitizer" in line:
        print(line.strip())
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
        print(block.splitlines()[0] + " through this repository: " + " | ".join(ours)[:400])
EOF
}
if [ -n "$sanitized_app" ]; then
  if [ ! -x "$sanitized_app" ]; then
    not_ok "sanitized app: no binary at $sanitized_app"
  else
    for preset in causal-5 soft-dictionary learned-5x8; do
      log="$out/sanitized-$preset.log"
      rm -f "$out/sanitized-$preset.png"
      ASAN_OPTIONS="detect_leaks=1" LSAN_OPTIONS="exitcode=0" UBSAN_OPTIONS="print_stacktrace=1" \
        timeout 300 "$sanitized_app" --preset "$preset" --frames 5 --size 1280x800 \
        --screenshot "$out/sanitized-$preset.png" > "$log" 2>&1
      status=$?
      check "sanitized app, $preset: exits 0 after --frames 5 (status $status; log $log)" [ "$status" -eq 0 ]
      findings=$(sanitizer_findings "$log")
      if [ -z "$findings" ]; then
        ok "sanitized app, $preset: no sanitizer report from our code"
      else
        not_ok "sanitized app, $preset: sanitizer findings:"
        echo "$findings" | sed 's/^/    /'
      fi
      leaked=$(grep -o 'SUMMARY: AddressSanitizer: [0-9]* byte(s) leaked in [0-9]* allocation(s)' "$log")
      [ -n "$leaked" ] && echo "    leaked outside this repository (system GL/X11 libraries): ${leaked#SUMMARY: AddressSanitizer: }"
      check "sanitized app, $preset: wrote the screenshot" [ -s "$out/sanitized-$preset.png" ]
    done
  fi
fi

# --- 8. multi-head: the Heads mode of three-heads, every head's grid against NumPy ---------------
"$cli" --preset three-heads > "$out/three-heads.scene.json"
timeout 60 "$app" --preset three-heads --mode heads --frames 5 --size 1280x720 \
  --screenshot "$out/three-heads-heads.png" --rects "$out/three-heads-heads.rects.json" > "$out/three-heads.log" 2>&1
check "three-heads --mode heads: exits 0 (log $out/three-heads.log)" [ $? -eq 0 ]
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) not_ok "${line#not ok - }" ;;
  esac
done < <("$python" "$here/check_heads.py" --png "$out/three-heads-heads.png" \
  --rects "$out/three-heads-heads.rects.json" --scene "$out/three-heads.scene.json" --label "three-heads (Heads mode)")
check "--mode nope: exits 2" bash -c '"$1" --mode nope --frames 1 > /dev/null 2>&1; [ $? -eq 2 ]' _ "$app"

# --- 10. the Train mode: a fresh run, and a trained previous-token model cell by cell -----------
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) not_ok "${line#not ok - }" ;;
  esac
done < <("$python" "$here/check_train.py" --app "$app" --cli "$cli" --out "$out" 2>&1)

# --- 9. the FlashAttention and Decode modes --------------------------------------------------
# --mode opens each at 1280x720 and at phone size with every control of the mode on screen; then, in
# a live window, a click on flash/next (where --rects says it is) computes the first tile (a tile not
# computed yet is dimmed, so its cell brightens while later tiles stay dim), and decode/next grows
# the cache by a row per click.
rect_center() {  # rect_center RECTS.json ID → "x y" (framebuffer pixels)
  "$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"][sys.argv[2]]; print(int(r["x"]+r["w"]/2), int(r["y"]+r["h"]/2))' "$1" "$2"
}
region_mean() {  # region_mean PNG RECTS.json ID → mean brightness inside that widget's rectangle
  "$python" - "$@" <<'EOF'
import json, subprocess, sys
import numpy as np
png, rects, rid = sys.argv[1:4]
w, h = map(int, subprocess.check_output(["identify", "-format", "%w %h", png], text=True).split())
img = np.frombuffer(subprocess.check_output(["convert", png, "rgb:-"]), np.uint8).reshape(h, w, 3).astype(float)
r = json.load(open(rects))["rects"][rid]
x0, y0 = int(r["x"]) + 3, int(r["y"]) + 3
print("%.1f" % img[y0:int(r["y"] + r["h"]) - 3, x0:int(r["x"] + r["w"]) - 3].mean())
EOF
}
for mode in flash decode; do
  for sz in 1280x720 390x844; do
    base="$out/mode-$mode-$sz"
    timeout 60 "$app" --preset causal-5 --mode "$mode" --frames 5 --size "$sz" --screenshot "$base.png" \
      --rects "$base.rects.json" > "$base.stdout" 2> "$base.stderr"
    status=$?
    check "--mode $mode at $sz: exits 0 (status $status)" [ "$status" -eq 0 ]
    check "--mode $mode at $sz: no GL error" no_gl_errors "$base.stderr"
    missing=$("$python" - "$base.rects.json" "$mode" "${sz%x*}" "${sz#*x}" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
rects, mode, scale = data["rects"], sys.argv[2], data["ui_scale"]
W, H = int(sys.argv[3]) * scale, int(sys.argv[4]) * scale
ids = {"flash": ["flash/block", "flash/start", "flash/prev", "flash/next", "flash/play", "cell/scores/4/0"],
       "decode": ["decode/start", "decode/prev", "decode/next", "decode/play", "decode/mults", "decode/new-row"]}[mode]
ids.append("mode/" + mode)
inside = lambda r: 0 <= r["x"] + r["w"] / 2 < W and 0 <= r["y"] + r["h"] / 2 < H
print(" ".join(i for i in ids if i not in rects or not inside(rects[i])))
EOF
)
    check "--mode $mode at $sz: every control drawn inside the window${missing:+ (missing: $missing)}" [ -z "$missing" ]
  done
done
if command -v xdotool >/dev/null; then
  click_id() {  # click_id RECTS.json ID — press and release in different frames
    read -r cx cy < <(rect_center "$1" "$2")
    xdotool mousemove "$cx" "$cy"; sleep 0.5; xdotool mousedown 1; sleep 0.4; xdotool mouseup 1; sleep 0.8
  }
  rects="$out/mode-flash-1280x720.rects.json"
  "$app" --preset causal-5 --mode flash --size 1280x720 > "$out/mode-flash-live.log" 2>&1 &
  app_pid=$!
  xdotool search --sync --name 'Attention Lab' > /dev/null
  sleep 3
  window_png "$out/mode-flash-live-before.png" 1280 720
  click_id "$rects" flash/next
  xdotool mousemove 2999 1799; sleep 1
  window_png "$out/mode-flash-live-step1.png" 1280 720
  before=$(region_mean "$out/mode-flash-live-before.png" "$rects" cell/scores/0/0)
  after=$(region_mean "$out/mode-flash-live-step1.png" "$rects" cell/scores/0/0)
  check "flash/next in the live window: tile (0, 0) is computed, its cell brightens ($before → $after)" \
    awk -v a="$before" -v b="$after" 'BEGIN { exit !(b > a + 20) }'
  first=$(region_mean "$out/mode-flash-live-before.png" "$rects" cell/scores/4/0)
  still=$(region_mean "$out/mode-flash-live-step1.png" "$rects" cell/scores/4/0)
  check "flash/next in the live window: tile (2, 0) is not computed yet, still dimmed ($first → $still)" \
    awk -v a="$first" -v b="$still" 'BEGIN { exit !(b < a + 3 && b > a - 3) }'
  kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""

  rects="$out/mode-decode-1280x720.rects.json"
  "$app" --preset causal-5 --mode decode --size 1280x720 > "$out/mode-decode-live.log" 2>&1 &
  app_pid=$!
  xdotool search --sync --name 'Attention Lab' > /dev/null
  sleep 3
  window_png "$out/mode-decode-live-before.png" 1280 720
  for _ in 1 2 3; do click_id "$rects" decode/next; done
  xdotool mousemove 2999 1799; sleep 1
  window_png "$out/mode-decode-live-t3.png" 1280 720
  # The band below cache row 0: empty at t = 0, three rows of numbers at t = 3.
  grown=$("$python" - "$out/mode-decode-live-before.png" "$out/mode-decode-live-t3.png" "$rects" <<'EOF'
import json, subprocess, sys
import numpy as np
def read(path):
    w, h = map(int, subprocess.check_output(["identify", "-format", "%w %h", path], text=True).split())
    return np.frombuffer(subprocess.check_output(["convert", path, "rgb:-"]), np.uint8).reshape(h, w, 3).astype(int)
a, b = read(sys.argv[1]), read(sys.argv[2])
r = json.load(open(sys.argv[3]))["rects"]["decode/new-row"]
y0, y1, x0, x1 = int(r["y"] + r["h"]) + 2, int(r["y"] + 4 * r["h"]), int(r["x"]), int(r["x"] + r["w"])
print(int((np.abs(a[y0:y1, x0:x1] - b[y0:y1, x0:x1]).max(axis=2) > 60).sum()))
EOF
)
  check "decode/next ×3 in the live window: the cache grows by three rows ($grown pixels changed below row 0)" \
    [ "$grown" -gt 500 ]
  kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
else
  not_ok "xdotool missing (scripts/setup installs it)"
fi

echo
echo "desktop: screenshots and logs in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
