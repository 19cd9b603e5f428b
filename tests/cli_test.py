#!/usr/bin/python3
"""CLI contract: attention-lab-cli over a folder of scene files.

usage: cli_test.py CLI CASE_DIR

Writes bad scene files (wrong shapes, both modes, NaN, Inf as string, n = 1025, bad scale, bad
mask, wrong JSON types, truncated JSON, a 10 MB file, ...) into CASE_DIR and runs the CLI on each:
every bad file must exit 2 with nothing on stdout and a stderr message that names the field; every
good file (the presets, stdin, '-') must exit 0 with valid JSON on stdout and nothing on stderr.
The options (CLI11): --flag=VALUE prints what --flag VALUE does, --help lists them, a usage error
(unknown flag, bad or missing value, two FILEs) exits 2 naming the flag, nothing on stdout.
Standard library only.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import run  # noqa: E402


def scene(**fields):
    base = {"version": 1, "tokens": ["a", "b"], "Q": [[1, 2], [3, 4]], "K": [[5, 6], [7, 8]], "V": [[1], [2]]}
    for key, value in fields.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return json.dumps(base)


def equals_form(args):
    """["--online", "2", "--alibi"] → ["--online=2", "--alibi"]."""
    out, i = [], 0
    while i < len(args):
        if i + 1 < len(args) and not args[i + 1].startswith("--"):
            out.append(args[i] + "=" + args[i + 1])
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out


def ones(rows, cols):
    return [[1] * cols for _ in range(rows)]


# (file name, file text, text that must appear at the start of the stderr message after "attention-lab-cli: ")
BAD = [
    ("k_row_too_long", scene(K=[[5, 6], [7, 8, 9]]), "K: row 1 has 3 entries, expected 2"),
    ("k_wrong_dk", scene(K=[[5], [7]]), "K: row 0 has 1 entries, expected 2"),
    ("v_rows", scene(V=[[1]]), "V: has 1 rows, expected 2"),
    ("both_modes", scene(X=[[1], [2]]), "scene: give either Q/K/V or X/Wq/Wk/Wv, not both"),
    ("no_mode", scene(Q=None, K=None, V=None), "scene: no vectors"),
    ("nan_literal", scene().replace("[3, 4]", "[3, NaN]"), "json: parse error at byte"),
    ("nan_string", scene(Q=[[1, 2], [3, "NaN"]]), "Q: row 1, entry 1 is not a finite number"),
    ("inf_string", scene(V=[[1], ["Inf"]]), "V: row 1, entry 0 is not a finite number"),
    ("overflow_1e400", scene().replace("[7, 8]", "[7, 1e400]"), "K: row 1, entry 1 is not a finite number"),
    ("n_1025", json.dumps({"version": 1, "tokens": ["t"] * 1025, "Q": ones(1025, 1), "K": ones(1025, 1),
                           "V": ones(1025, 1)}), "tokens: 1025 tokens, limit is 1024"),
    ("d_257", scene(Q=ones(2, 257), K=ones(2, 257)), "Q: row 0 has 257 entries, limit is 256"),
    ("scale_negative", scene(scale=-2), "scale: must be"),
    ("scale_zero", scene(scale=0), "scale: must be"),
    ("scale_unknown", scene(scale="sqrtdk"), "scale: must be"),
    ("mask_two", scene(mask=[[1, 0], [2, 1]]), "mask: row 1, entry 0 must be 0 or 1"),
    ("mask_size", scene(mask=[[1]]), "mask: has 1 rows, expected 2"),
    ("causal_string", scene(causal="true"), "causal: must be true or false"),
    ("q_string", scene(Q="[[1,2],[3,4]]"), "Q: expected an array of rows"),
    ("row_number", scene(Q=[[1, 2], 3]), "Q: row 1 is not an array"),
    ("token_number", scene(tokens=["a", 2]), "tokens: entry 1 is not a string"),
    ("token_65_bytes", scene(tokens=["a", "x" * 65]), "tokens: entry 1 is 65 bytes, limit is 64"),
    ("truncated", scene()[:40], "json: parse error at byte 41"),
    ("empty", "", "input: empty"),
    ("version_3", scene(version=3), "version: expected 1 or 2, got 3"),
    ("version_missing", scene(version=None), "version: missing"),
    ("unknown_key", scene(Wx=[[1]]), "Wx: unknown key"),
    ("wo_in_version_1", scene(Wo=[[1]]), 'Wo: needs "version": 2 (this scene says 1)'),
    ("heads_not_dividing", scene(version=2, heads=3), "heads: 3 does not divide d_k = 2 and d_v = 1"),
    ("not_object", "[1, 2]", "scene: expected a JSON object"),
    # 10 MB of valid-looking JSON: refused by size before parsing; the CLI reads only 8 MiB + 1 bytes.
    ("ten_mb", '{"version":1,"tokens":["a"],"pad":"' + "x" * (10 << 20) + '"}', "input: 8388609 bytes is larger"),
]



def main():
    cli, case_dir = sys.argv[1], sys.argv[2]
    os.makedirs(case_dir, exist_ok=True)
    failures = []

    def expect_bad(label, args, want, stdin_text=None):
        code, out, err = run(cli, args, stdin_text)
        prefix = "attention-lab-cli: "
        ok = code == 2 and out == "" and err.startswith(prefix + want)
        print(("ok   " if ok else "FAIL ") + f"{label}: exit {code}, stderr: {err.strip()[:160]}")
        if not ok:
            failures.append(f"{label}: want exit 2, empty stdout, stderr starting {want!r}; "
                            f"got exit {code}, stdout {out[:80]!r}, stderr {err[:200]!r}")

    def expect_good(label, args, stdin_text=None):
        code, out, err = run(cli, args, stdin_text)
        try:
            result = json.loads(out)
            # One head: every stage at the top level. Several: per-head stages under "heads" and
            # their concatenation; "weights" is their mean (README, the command-line tool).
            common = ("Q", "K", "V", "divisor", "allowed", "weights", "output", "masked_rows", "entropy", "argmax")
            per_stage = ("heads", "concat") if "heads" in result else ("scores", "scaled")
            keys_ok = all(k in result for k in common + per_stage)
            if "heads" in result:
                keys_ok = keys_ok and "scores" not in result and all(
                    sorted(h) == ["output", "scaled", "scores", "weights"] for h in result["heads"])
        except ValueError:
            keys_ok = False
        ok = code == 0 and err == "" and keys_ok
        print(("ok   " if ok else "FAIL ") + f"{label}: exit {code}")
        if not ok:
            failures.append(f"{label}: want exit 0 and result JSON; got exit {code}, stderr {err[:200]!r}")
        return result if ok else None

    assert len(BAD) >= 20
    for name, text, want in BAD:
        path = os.path.join(case_dir, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        expect_bad(name, [path], want)
    expect_bad("missing file", [os.path.join(case_dir, "does-not-exist.json")], "input: cannot open")
    expect_bad("directory", [case_dir], "input: cannot read")
    expect_bad("stdin bad", [], "K: row 1 has 3 entries", stdin_text=BAD[0][1])
    expect_bad("unknown preset", ["--preset", "nope"], 'preset: unknown name "nope"')

    # Good files: every preset, written by the CLI itself, read back from a file, from '-' and stdin.
    code, listing, _ = run(cli, ["--list-presets"])
    names = [line.split("\t")[0] for line in listing.splitlines()]
    if code != 0 or names != ["practice-qkv", "soft-dictionary", "causal-5", "learned-5x8", "three-heads",
                              "torch-mha"]:
        failures.append(f"--list-presets: exit {code}, names {names}")
    for name in names:
        code, text, _ = run(cli, ["--preset", name])
        path = os.path.join(case_dir, "good_" + name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        from_file = expect_good(f"preset {name} (file)", [path])
        from_dash = expect_good(f"preset {name} (-)", ["-"], stdin_text=text)
        from_stdin = expect_good(f"preset {name} (stdin, --compact)", ["--compact"], stdin_text=text)
        if from_file is not None and not (from_file == from_dash == from_stdin):
            failures.append(f"preset {name}: file, '-' and stdin give different results")
    # Lesson 1's weights, through the CLI (docs/LESSONS.md; numbers: tests/fixtures/lessons.json).
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "lessons.json")) as f:
        lessons = json.load(f)
    code, text, _ = run(cli, ["--preset", "practice-qkv"])
    weights = json.loads(run(cli, [], stdin_text=text)[1])["weights"]
    want = lessons["practice-qkv"]["weights"]
    if max(abs(a - b) for got_row, want_row in zip(weights, want) for a, b in zip(got_row, want_row)) > lessons[
            "tolerance"] or len(weights) != len(want):
        failures.append(f"practice-qkv weights {weights}, want {want}")

    code, out, _ = run(cli, ["--help"])
    if code != 0 or "usage: attention-lab-cli" not in out:
        failures.append("--help")
    # The options are CLI11's (as the desktop app's): --flag=VALUE reads as --flag VALUE, every flag
    # is in --help, and a usage error exits 2 naming the flag, nothing on stdout.
    causal = os.path.join(case_dir, "good_causal-5.json")
    for spaced in (["--online", "2"], ["--kv-cache", "--cache", "sinks,1,2"], ["--window", "2", "--alibi"],
                   ["--export", "latex", "--stage", "scores", "--digits", "2"], ["--kv-heads", "1", "--sinks", "0"]):
        joined = equals_form(spaced)
        got = [run(cli, args + [causal]) for args in (spaced, joined)]
        if got[0][0] != 0 or got[0] != got[1]:
            failures.append(f"{spaced} and {joined}: exit {got[0][0]}/{got[1][0]} or different output")
        for flag in spaced:
            if flag.startswith("--") and flag not in out:
                failures.append(f"--help does not list {flag}")
    for args, want in ((["--nope", causal], "attention-lab-cli: --nope: unknown option"),
                       (["--window=x", causal], "attention-lab-cli: --window: needs a whole number"),
                       (["--online"], "attention-lab-cli: --online: missing value"),
                       ([causal, causal], "attention-lab-cli: give one FILE only")):
        code, text, err = run(cli, args)
        if code != 2 or text or not err.startswith(want):
            failures.append(f"{args}: exit {code}, stderr {err[:120]!r}; want exit 2 and {want!r}")

    if failures:
        print("\n".join(["", f"{len(failures)} failure(s):"] + failures))
        return 1
    print(f"\nall {len(BAD) + 4} bad inputs rejected with exit 2; {len(names)} presets computed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
