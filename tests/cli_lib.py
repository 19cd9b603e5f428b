"""cli_lib.py — what the Python tests share: their optional modules (a loud SKIP, exit 77, when one
is missing: ctest's SKIP_RETURN_CODE, which scripts/test counts as skipped, never as passed) and
running attention-lab-cli."""
import importlib
import json
import os
import subprocess
import sys

SKIP = 77
PACKAGES = {"numpy": "python3-numpy", "torch": "python3-torch"}


def require(module):
    """The module, or print SKIP and exit 77 (run with Debian's /usr/bin/python3)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"SKIP: {module} is not installed for {sys.executable} "
              f"(scripts/setup installs {PACKAGES.get(module, module)})")
        sys.exit(SKIP)


def cli_and_case_dir(doc):
    """(cli, case_dir) from the command line `SCRIPT CLI CASE_DIR`, the case folder made; other
    arguments print `doc` (the script's usage) and exit 2."""
    if len(sys.argv) != 3:
        print(doc)
        sys.exit(2)
    os.makedirs(sys.argv[2], exist_ok=True)
    return sys.argv[1], sys.argv[2]


def run(cli, args, stdin_text=None, timeout=60):
    """(exit status, stdout, stderr) of `cli args…`, fed `stdin_text` when given."""
    proc = subprocess.run([cli] + list(args), input=None if stdin_text is None else stdin_text.encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def refusal(cli, args, expected, stdin_text=None, timeout=300):
    """None when `cli args…` (fed `stdin_text`) refuses as the CLI must refuse bad input or a usage error:
    exit 2, nothing on stdout, stderr starting "attention-lab-cli: " + expected; else what it did."""
    code, out, err = run(cli, args, stdin_text, timeout)
    if code == 2 and not out and err.startswith("attention-lab-cli: " + expected):
        return None
    return f"exit {code}, stderr {err.strip()!r}, expected {expected!r}"


def with_bad_values(base, table):
    """(base + [flag, value], expected) for every bad value of every flag of `table`:
    {flag: [(value, the error it must give), …]}."""
    return [(base + [flag, value], expected) for flag, values in table.items() for value, expected in values]


def check_refusals(cli, cases, fail):
    """refusal() of each (args, expected) in `cases`; `fail` gets each problem, named by the arguments."""
    for args, expected in cases:
        problem = refusal(cli, args, expected)
        if problem:
            fail(f"{' '.join(args)}: {problem}")


def run_json(cli, args, timeout=60):
    """The JSON `cli args…` prints; a RuntimeError naming the arguments when it exits non-zero."""
    code, out, err = run(cli, args, timeout=timeout)
    if code != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {code}: {err[:300]}")
    return json.loads(out)


def close(got, want, rel=1e-12):
    """None, or what differs beyond rel × max |want| (NaN marks a masked cell: null in the CLI's
    "scaled"; the cells masked must be the same)."""
    np = require("numpy")
    got = np.array([[np.nan if v is None else v for v in row] for row in got], dtype=np.float64) \
        if isinstance(got, list) and got and isinstance(got[0], list) else np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return f"shape {got.shape}, numpy {want.shape}"
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return "masked cells differ"
    g, w = np.nan_to_num(got), np.nan_to_num(want)
    scale = max(float(np.abs(w).max()) if w.size else 0.0, 1e-300)
    diff = np.abs(g - w)
    if (diff > rel * scale).any():
        i = tuple(int(k) for k in np.argwhere(diff > rel * scale)[0])
        return f"at {i} cli {g[i]!r}, numpy {w[i]!r} (max |diff| {diff.max():.3g}, scale {scale:.3g})"
    return None


def projections(s):
    """Q, K, V of a scene (its JSON as a dict) in float64: given directly, or X·W_q, X·W_k, X·W_v."""
    np = require("numpy")
    A = lambda key: np.array(s[key], dtype=np.float64)  # noqa: E731
    if "X" in s:
        X = A("X")
        return X @ A("Wq"), X @ A("Wk"), X @ A("Wv")
    return A("Q"), A("K"), A("V")


def divisor_of(s, d_k):
    """The scene's score divisor: 1 ("none"), √d_k ("sqrt_dk", the default) or the temperature."""
    scale = s.get("scale", "sqrt_dk")
    return 1.0 if scale == "none" else float(require("numpy").sqrt(d_k)) if scale == "sqrt_dk" else float(scale)


def allowed_of(s, n):
    """The n×n bool matrix of what each query may see: all, AND lower-triangular with "causal", AND
    the scene's 0/1 "mask"."""
    np = require("numpy")
    allowed = np.ones((n, n), dtype=bool)
    if s.get("causal", False):
        allowed &= np.tril(np.ones((n, n), dtype=bool))
    if "mask" in s:
        allowed &= np.array(s["mask"]) == 1
    return allowed


def masked_softmax(logits, allowed):
    """Each row's softmax over its allowed cells (n×n bool), zero elsewhere; a row that sees no key gets
    zeros (Attention Lab's rule: softmax would give NaN)."""
    np = require("numpy")
    weights = np.zeros_like(logits)
    for i in range(logits.shape[0]):
        if allowed[i].any():
            row = np.where(allowed[i], logits[i], -np.inf)
            e = np.exp(row - row.max())
            weights[i] = e / e.sum()
    return weights


def heads_reference(s, Q, K, V, heads, divisor, allowed, bias_of=None):
    """Multi-head attention written from its definition, head by head. Head t takes its own d_k / H
    columns of Q and K and d_v / H of V (K, V already repeated to H heads for grouped-query attention):
    weights_t = softmax(Q_t K_tᵀ / divisor + bias_of(t) + M), output_t = weights_t V_t. The outputs side
    by side (concat) are mapped by the scene's W_o when it has one. A dict: heads (each: scores, scaled
    with NaN where masked, bias, weights, output), concat, weights (the heads' mean), output."""
    np = require("numpy")
    n, dk, dv = Q.shape[0], Q.shape[1] // heads, V.shape[1] // heads
    per_head = []
    for t in range(heads):
        q, k, v = Q[:, t * dk:(t + 1) * dk], K[:, t * dk:(t + 1) * dk], V[:, t * dv:(t + 1) * dv]
        scores = q @ k.T
        scaled = scores / divisor
        bias = bias_of(t) if bias_of else np.zeros((n, n))
        weights = masked_softmax(scaled + bias, allowed)
        per_head.append(dict(scores=scores, scaled=np.where(allowed, scaled, np.nan), bias=bias, weights=weights,
                             output=weights @ v))
    concat = np.hstack([h["output"] for h in per_head])
    output = concat @ np.array(s["Wo"], dtype=np.float64) if "Wo" in s else concat
    return dict(heads=per_head, concat=concat, weights=sum(h["weights"] for h in per_head) / heads, output=output)


def report(failures, fail_summary, ok_message, cases=None):
    """The exit status of a check: fail_report(failures, fail_summary), or print `ok_message`, 0.
    `cases` maps each case the random generator must produce ("fully masked rows") to how many were
    checked: a zero is a failure too."""
    failures = failures + [f"the generator must cover {what}: none was generated"
                           for what, count in (cases or {}).items() if count == 0]
    if failures:
        return fail_report(failures, fail_summary)
    print(ok_message)
    return 0


def fail_report(failures, summary):
    """Print the first 40 failures and "FAIL: <summary>"; the exit status 1."""
    print("\n".join(failures[:40]))
    print(f"FAIL: {summary}")
    return 1


class Tally:
    """The failures of a check that prints each one as it finds it: fail(message) prints `prefix` +
    message and counts it; done(summary) prints the summary line and returns the exit status (1
    after any failure, else 0)."""

    def __init__(self, prefix="FAIL "):
        self.prefix, self.count = prefix, 0

    def fail(self, message):
        print(self.prefix + message)
        self.count += 1

    def done(self, summary):
        print(summary)
        return 1 if self.count else 0
