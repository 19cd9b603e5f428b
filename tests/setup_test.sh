#!/usr/bin/env bash
# tests/setup_test.sh — scripts/setup installs exactly what its profile table names, all of it.
#
#   1. For each profile, `scripts/setup --print PROFILE` equals every word of that profile's
#      entry in the table, read here independently of setup's own parsing (a multi-line entry must
#      not be cut at its first line: that bug left Eigen, doctest, NumPy, PyTorch … uninstalled on
#      every fresh machine from 1ec49e3 until it was fixed, while CI machines already had them).
#   2. Combined profiles resolve to the union (`test` = build + web + desktop + test).
#   3. After setup has run, every package `--print test` resolves is installed (nodejs/npm may come
#      from outside Debian: then working `node` and `npm` commands count, as setup accepts them).
#   4. Every command in scripts/ runs scripts/setup before it builds or runs anything.
#   5. After setup has run, the Closure Compiler the wasm link uses (scripts/closure, npm ci'd by
#      `setup web`; its macOS and Windows binaries are optional packages a Linux machine skips) runs
#      and is the version Emscripten 3.1.6 pins.
#
# Prints "N passed, N failed" (scripts/test adds it up) and exits non-zero on any failure.
# --lists-only skips checks 3 and 5 (for a machine without the packages).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
setup="$root/scripts/setup"
passed=0
failed=0
check() {  # check NAME COMMAND… — one named check, reported
  if "${@:2}"; then
    passed=$((passed + 1)); echo "ok     $1"
  else
    failed=$((failed + 1)); echo "FAILED $1"
  fi
}

# The table as written in scripts/setup: `  [name]="words …` up to the closing quote, any lines.
table_entry() {
  awk -v name="$1" '
    !inside && $0 ~ "^[[:space:]]*\\[" name "\\]=\"" { inside = 1; sub("^[^\"]*\"", "") }
    inside {
      line = $0
      if (line ~ /"/) { sub(/".*/, "", line); inside = 2 }
      print line
      if (inside == 2) exit
    }' "$setup" | tr -s ' \t' '\n\n' | sed '/^$/d' | sort -u
}

same_list() {  # same_list PROFILES… — --print output equals the table's words of those profiles
  local expected actual p
  expected="$(for p in "$@"; do table_entry "$p"; done | sort -u)"
  actual="$("$setup" --print "$@")" || return 1
  if [ -z "$expected" ]; then
    echo "  the table has no entry for: $*"
    return 1
  fi
  if [ "$expected" != "$actual" ]; then
    echo "  profiles '$*': the table names $(wc -l <<<"$expected"), setup --print resolves $(wc -l <<<"$actual")"
    diff <(echo "$expected") <(echo "$actual") | sed 's/^/  /'
    return 1
  fi
}

for profile in build web desktop; do
  check "setup --print $profile = its table entry" same_list "$profile"
done
# `test` is every profile: its own list plus build, web and desktop.
check "setup --print test = build + web + desktop + test" same_list build web desktop test
test_alone="$(table_entry test | wc -l)"
check "the test profile's entry spans every line ($test_alone packages > 5)" test "$test_alone" -gt 5

installed() {  # every package `--print test` resolves is installed
  local p missing=()
  for p in $("$setup" --print test); do
    if [[ "$p" == nodejs || "$p" == npm ]] && command -v node >/dev/null && command -v npm >/dev/null; then
      continue
    fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] || { echo "  not installed after setup: ${missing[*]}"; return 1; }
}
# 4. Every command of scripts/ that builds or runs the project installs what it needs first (the
#    same class of bug: a script that works only where an earlier setup left the packages). Not
#    setup itself, its library, check-size (run by dist, after dist's setup), or fresh-check (it
#    runs on the host and installs nothing there by design).
calls_setup() {
  local f name bad=()
  for f in "$root"/scripts/*; do
    name="$(basename "$f")"
    [ -f "$f" ] && [ -x "$f" ] && [[ "$name" != *.* ]] || continue
    case "$name" in setup | check-size | fresh-check) continue ;; esac
    grep -Eq 'scripts/(setup|serve|test)\b' "$f" || bad+=("$name")
  done
  [ "${#bad[@]}" -eq 0 ] || { echo "  scripts that never run scripts/setup: ${bad[*]}"; return 1; }
}
check "every command in scripts/ runs scripts/setup first" calls_setup

closure_runs() {
  local out
  out="$("$root/scripts/closure/node_modules/.bin/google-closure-compiler" --version 2>&1)" ||
    { echo "  scripts/closure: $out"; return 1; }
  grep -q "Version: v20220104" <<<"$out" || { echo "  scripts/closure: $out"; return 1; }
}

if [ "${1:-}" != --lists-only ]; then
  check "every package of the test profile is installed" installed
  check "the Closure Compiler of the wasm link runs (v20220104)" closure_runs
fi

echo "setup: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
