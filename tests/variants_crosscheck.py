#!/usr/bin/python3
"""The attention variants of attention-lab-cli against NumPy references written from the papers.

usage: variants_crosscheck.py window|sinks|alibi|gqa|torch CLI CASE_DIR [COUNT]

The references below are written from the definitions, not from Attention Lab's code:
  sliding window w (Longformer, Beltagy et al. 2020; Mistral 7B, Jiang et al. 2023):
      key j is visible from query i when 0 ≤ i − j < w (causal) or |i − j| < w (not causal);
  attention sinks s (StreamingLLM, Xiao et al. 2023): keys j < s are visible whatever the window
      (causal and a custom mask still apply);
  ALiBi (Press et al. 2022): head h = 1 … H adds B_h(i, j) = −m_h |i − j|, m_h = 2^(−8h/H), to the
      scaled scores before the mask: softmax(Q Kᵀ / s + B + M) V;
  grouped-query attention (Ainslie et al. 2023; H_kv = 1 is multi-query, Shazeer 2019): K and V hold
      H_kv heads of columns, repeated to H heads by np.repeat (torch.repeat_interleave's order),
      then ordinary multi-head attention.
A query that sees no key gets zero weights and a zero output (Attention Lab's rule; softmax would
give NaN).

Modes (each COUNT random scenes, default 60, every number within 1e-12 relative to the largest
entry of the matrix compared):
  window  windows 1 … n+1, causal and not, masks with fully masked rows; every stage, and for one
          head --online B (tiles the window hides are skipped) and --kv-cache against the pass;
  sinks   windows with s sinks; with a causal scene also --kv-cache --cache sinks,S,W (and last,W
          when s = 0): step t keeps exactly the sinks and the last W positions, reports the evicted
          one, and its weights and output are row t of the windowed full pass (bit for bit) and of
          NumPy (1e-12); and on the Train mode's first-token model (an attention sink it learned)
          evicting token 0 moves > 0.9 of every later row's weight, one sink keeps it (< 1e-3);
  alibi   H ∈ {1, 2, 3, 4, 8}: each head's bias, scores, weights, output, concat, the mean weights;
          --online and --kv-cache for one head;
  gqa     H_kv ∈ {1, 2, H}: every head's stages (head t reads group ⌊t / (H / H_kv)⌋), both modes;
  torch   GQA against PyTorch itself: nn.MultiheadAttention(E, H, bias=False), float64, identity
          projections, given Q and torch.repeat_interleave of the K/V groups (H_kv ∈ {1, 2, H}; for
          H_kv = H that is plain multi-head attention), ± causal: output and averaged weights
          within 1e-12.
Also each mode's bad keys: exit 2 naming the key. Exit 77 (ctest SKIP) when numpy (or torch) is
missing. Run with Debian's /usr/bin/python3.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, close, divisor_of, heads_reference, projections, report, require, run  # noqa: E402,F401

np = require("numpy")

REL = 1e-12


# ---- the references ----------------------------------------------------------------------------

def visible(s, n):
    """n×n bool: causal AND window/sinks AND the custom mask, from the definitions above."""
    causal, w, sinks = s.get("causal", False), s.get("window", 0), s.get("sinks", 0)
    allowed = np.ones((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            if causal and j > i:
                allowed[i, j] = False
            elif w > 0 and j >= sinks:
                allowed[i, j] = (0 <= i - j < w) if causal else abs(i - j) < w
    if "mask" in s:
        allowed &= np.array(s["mask"]) == 1
    return allowed


def alibi_bias(n, head, heads):
    """B_h(i, j) = −m_h |i − j| with m_h = 2^(−8h/H), h = head + 1 (Press et al. 2022, §3)."""
    m = 2.0 ** (-8.0 * (head + 1) / heads)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return -m * np.abs(i - j).astype(np.float64)


def reference(s):
    """Every stage of the scene, per head (a dict)."""
    Q, K, V = projections(s)
    n = Q.shape[0]
    H = s.get("heads", 1)
    H_kv = s.get("kv_heads", H)
    dh, dvh = Q.shape[1] // H, V.shape[1] // H_kv
    # K, V: n × H_kv·d → n × H·d, each group's columns repeated H/H_kv times in place.
    K_rep = np.repeat(K.reshape(n, H_kv, dh), H // H_kv, axis=1).reshape(n, H * dh)
    V_rep = np.repeat(V.reshape(n, H_kv, dvh), H // H_kv, axis=1).reshape(n, H * dvh)
    divisor = divisor_of(s, dh)
    allowed = visible(s, n)
    bias_of = (lambda t: alibi_bias(n, t, H)) if s.get("alibi") else None
    return dict(heads_reference(s, Q, K_rep, V_rep, H, divisor, allowed, bias_of), allowed=allowed.astype(int),
                masked_rows=[i for i in range(n) if not allowed[i].any()])


# ---- random scenes -----------------------------------------------------------------------------

def random_scene(rng, mode, index):
    n = int(rng.integers(1, 14))
    H = 1
    if mode == "alibi":
        H = [1, 2, 3, 4, 8][index % 5]
    elif mode == "gqa":
        H = [2, 4, 6, 8, 3][index % 5]
    elif index % 4 == 3:
        H = 2
    H_kv = H
    if mode == "gqa":
        H_kv = [1, 2, H][index % 3] if H % 2 == 0 else [1, H][index % 2]
    dh, dvh = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    spread = 8.0 if index % 7 == 0 else 2.0
    mat = lambda r, c: rng.uniform(-spread, spread, size=(r, c)).tolist()  # noqa: E731
    s = {"version": 2, "tokens": [f"t{i}" for i in range(n)]}
    if index % 2 and mode != "torch":
        d_model = int(rng.integers(1, 7))
        s.update(X=mat(n, d_model), Wq=mat(d_model, H * dh), Wk=mat(d_model, H_kv * dh), Wv=mat(d_model, H_kv * dvh))
    else:
        s.update(Q=mat(n, H * dh), K=mat(n, H_kv * dh), V=mat(n, H_kv * dvh))
    if H > 1:
        s["heads"] = H
    if mode == "gqa" or index % 9 == 4:
        s["kv_heads"] = H_kv
    s["scale"] = ["none", "sqrt_dk", float(rng.choice([0.3, 1.7, 5.0]))][index % 3]
    s["causal"] = bool(index % 2 == 0) if mode in ("window", "sinks") else bool(index % 4 == 1)
    if mode in ("window", "sinks") or index % 3 == 2:
        s["window"] = int(rng.integers(1, n + 2))
    if mode == "sinks":
        s["sinks"] = int(rng.integers(0, 4)) if index % 5 else 0
        if s["sinks"] == 0:
            del s["sinks"]
    if mode == "alibi" or (mode != "gqa" and index % 5 == 1):
        s["alibi"] = True
    if index % 4 == 2:
        mask = (rng.uniform(size=(n, n)) < 0.7).astype(int)
        if index % 8 == 2:
            mask[int(rng.integers(0, n))] = 0  # a fully masked row
        s["mask"] = mask.tolist()
    if index % 6 == 5:
        s["Wo"] = mat(H * dvh, int(rng.integers(1, 5)))
    return s


def write(case_dir, name, s):
    path = os.path.join(case_dir, name + ".json")
    with open(path, "w") as f:
        json.dump(s, f)
    return path


def cli_json(cli, args, failures, label):
    code, out, err = run(cli, ["--compact"] + args)
    if code != 0:
        failures.append(f"{label}: exit {code}: {err[:200]}")
        return None
    return json.loads(out)


def check_stages(got, want, s, label, failures):
    H = s.get("heads", 1)
    checks = [("weights", got["weights"], want["weights"]), ("output", got["output"], want["output"]),
              ("allowed", got["allowed"], want["allowed"])]
    if got["masked_rows"] != want["masked_rows"]:
        failures.append(f"{label}: masked_rows {got['masked_rows']}, numpy {want['masked_rows']}")
    if H == 1:
        head = want["heads"][0]
        checks += [("scores", got["scores"], head["scores"]), ("scaled", got["scaled"], head["scaled"])]
        if s.get("alibi"):
            checks.append(("bias", got.get("bias"), head["bias"]))
        elif "bias" in got:
            failures.append(f"{label}: a bias without ALiBi")
    else:
        if len(got["heads"]) != H:
            failures.append(f"{label}: {len(got['heads'])} heads, want {H}")
            return
        checks.append(("concat", got["concat"], want["concat"]))
        for t, (g, w) in enumerate(zip(got["heads"], want["heads"])):
            checks += [(f"heads[{t}].{k}", g[k], w[k]) for k in ("scores", "scaled", "weights", "output")]
            if s.get("alibi"):
                checks.append((f"heads[{t}].bias", g.get("bias"), w["bias"]))
    for name, g, w in checks:
        if g is None:
            failures.append(f"{label}: {name} missing")
            continue
        p = close(g, w)
        if p:
            failures.append(f"{label}: {name}: {p}")


def cache_policy_reference(s, t):
    """(kept, evicted) of a cache keeping s sinks and the last w after step t (StreamingLLM / the rolling
    buffer): positions j ≤ t with j < s or t − j < w; the one dropped at step t is t − w (unless a sink)."""
    w, sinks = s["window"], s.get("sinks", 0)
    kept = [j for j in range(t + 1) if j < sinks or t - j < w]
    gone = t - w
    return kept, ([gone] if gone >= sinks and gone >= 0 else [])


def check_single_head_passes(cli, path, s, want, rng, failures, counts, mode):
    """--online B and --kv-cache (with the matching cache policy) against the pass."""
    n = len(s["tokens"])
    block = int(rng.integers(1, n + 1))
    got = cli_json(cli, ["--online", str(block), path], failures, f"{path} --online {block}")
    if got is not None:
        p = close(got["output"], want["output"])
        if p:
            failures.append(f"{path} --online {block}: output: {p}")
        if "window" in s and got["tiles_skipped"] > 0 and "tiles skipped by a window" in counts:
            counts["tiles skipped by a window"] += 1
    causal = dict(s, causal=True)
    cpath = write(os.path.dirname(path), os.path.basename(path)[:-5] + "_causal", causal)
    want_c = reference(causal)
    args = ["--kv-cache"]
    if "window" in s and mode == "sinks":
        args += ["--cache", f"sinks,{s.get('sinks', 0)},{s['window']}" if s.get("sinks") else f"last,{s['window']}"]
    got = cli_json(cli, args + [cpath], failures, f"{cpath} {' '.join(args)}")
    full = cli_json(cli, [cpath], failures, f"{cpath}")
    if got is None or full is None:
        return
    for t, step in enumerate(got["steps"]):
        p = close(step["weights"], want_c["weights"][t][:t + 1]) or close(step["output"], want_c["output"][t])
        if p:
            failures.append(f"{cpath} --kv-cache step {t}: {p}")
        if step["weights"] != full["weights"][t][:t + 1] or step["output"] != full["output"][t]:
            failures.append(f"{cpath} --kv-cache step {t}: not bit for bit row {t} of the full pass")
        if len(args) > 1:
            kept, evicted = cache_policy_reference(s, t)
            if step.get("kept") != kept or step.get("evicted") != evicted or step["cache_len"] != len(kept):
                failures.append(f"{cpath} {args[2]} step {t}: kept {step.get('kept')} evicted {step.get('evicted')}, "
                                f"want {kept} {evicted}")
            counts["evictions"] += len(evicted)


BAD = [
    ({"window": -1}, "window: must be 0 (none) or a width of 1 to 1024 tokens, got -1"),
    ({"window": 2.5}, "window: must be a whole number"),
    ({"sinks": 2}, "sinks: sink tokens stay visible past a sliding window; give \"window\" too"),
    ({"window": 2, "sinks": -1}, "sinks: must be 0 to 1024 tokens, got -1"),
    ({"alibi": 1}, "alibi: must be true or false"),
    ({"alibi": True, "rope": {}}, "alibi: ALiBi replaces position embeddings"),
    ({"heads": 2, "kv_heads": 3}, "kv_heads: must divide heads = 2"),
    ({"kv_heads": 0}, "kv_heads: must be at least 1"),
    ({"heads": 2, "kv_heads": 1}, "K: row 0 has 2 entries, expected 1 (d_k/h × kv_heads = 1 × 1"),
    ({"version": 1, "window": 2}, "window: needs \"version\": 2"),
    ({"version": 1, "kv_heads": 1}, "kv_heads: needs \"version\": 2"),
]


def check_bad(cli, case_dir, failures):
    good = {"version": 2, "tokens": ["a", "b"], "Q": [[1, 2], [3, 4]], "K": [[5, 6], [7, 8]], "V": [[1, 2], [2, 3]]}
    for index, (keys, want) in enumerate(BAD):
        code, out, err = run(cli, [write(case_dir, f"bad_{index}", dict(good, **keys))])
        if code != 2 or out or f"attention-lab-cli: {want}" not in err:
            failures.append(f"bad {keys}: exit {code}, stdout {out[:60]!r}, stderr {err[:200]!r}; want {want}")
    # The flags set the same keys and are validated the same way.
    path = write(case_dir, "flags", good)
    for args, want in ((["--sinks", "1"], "sinks: sink tokens stay visible"), (["--kv-heads", "3"], "kv_heads:")):
        code, out, err = run(cli, args + [path])
        if code != 2 or want not in err:
            failures.append(f"{args}: exit {code}, {err[:160]!r}; want {want}")
    code, out, err = run(cli, ["--compact", "--window", "1", "--alibi", path])
    got = json.loads(out) if code == 0 else {}
    want = reference(dict(good, window=1, alibi=True))
    if code != 0 or close(got.get("weights"), want["weights"]) or close(got.get("bias"), want["heads"][0]["bias"]):
        failures.append(f"--window 1 --alibi: exit {code} or the result is not the scene with those keys")


def check_first_token_sink(cli, case_dir, failures):
    """StreamingLLM's observation on a model that learned an attention sink: the Train mode's
    first-token model (--train first-token, seed 1, 200 steps) puts its weight on token 0. A cache
    keeping only the last 3 keys evicts it and the rows change completely; one sink + the last 3
    keeps them as they were. Returns (weight moved without, with the sink)."""
    code, out, err = run(cli, ["--compact", "--train", "first-token", "--steps", "200", "--seed", "1"], timeout=120)
    if code != 0:
        failures.append(f"--train first-token: exit {code}: {err[:200]}")
        return None
    model = json.loads(out)["scene"]
    model.pop("Wo", None)  # the attention weights do not depend on Wo; --kv-cache runs one head without it
    path = write(case_dir, "first_token_model", model)
    steps = {}
    for policy in ("all", "last,3", "sinks,1,3"):
        got = cli_json(cli, ["--kv-cache", "--cache", policy, path], failures, f"first-token --cache {policy}")
        if got is None:
            return None
        steps[policy] = [np.array(st["weights"]) for st in got["steps"]]
    moved = {p: max(np.abs(a - b).sum() / 2 for a, b in zip(steps[p][3:], steps["all"][3:])) for p in ("last,3", "sinks,1,3")}
    if not (min(np.abs(a - b).sum() / 2 for a, b in zip(steps["last,3"][3:], steps["all"][3:])) > 0.9 and
            moved["sinks,1,3"] < 1e-3):
        failures.append(f"first-token model: weight moved by evicting token 0 {moved['last,3']:.3g} (want > 0.9 at every "
                        f"step), with one sink {moved['sinks,1,3']:.3g} (want < 1e-3)")
    return moved


def main_numpy(mode, cli, case_dir, count):
    rng = np.random.default_rng({"window": 101, "sinks": 202, "alibi": 303, "gqa": 404}[mode])
    failures = []
    counts = {"fully masked rows": 0, "multi-head scenes": 0, "projected scenes": 0}
    if mode == "window":
        counts["tiles skipped by a window"] = 0
    if mode == "sinks":
        counts["evictions"] = 0
        counts["scenes with sinks"] = 0
    if mode == "gqa":
        for kv in ("H_kv = 1", "H_kv = 2", "H_kv = H"):
            counts[kv] = 0
    for index in range(count):
        s = random_scene(rng, mode, index)
        path = write(case_dir, f"{mode}_{index:03d}", s)
        got = cli_json(cli, [path], failures, path)
        if got is None:
            continue
        want = reference(s)
        check_stages(got, want, s, path, failures)
        counts["fully masked rows"] += len(want["masked_rows"])
        counts["multi-head scenes"] += s.get("heads", 1) > 1
        counts["projected scenes"] += "X" in s
        if mode == "sinks":
            counts["scenes with sinks"] += s.get("sinks", 0) > 0
        if mode == "gqa":
            H, kv = s.get("heads", 1), s.get("kv_heads", 1)
            counts["H_kv = 1" if kv == 1 else "H_kv = H" if kv == H else "H_kv = 2"] += 1
        if s.get("heads", 1) == 1 and "Wo" not in s:
            check_single_head_passes(cli, path, s, want, rng, failures, counts, mode)
    check_bad(cli, case_dir, failures)
    sink = ""
    if mode == "sinks":
        moved = check_first_token_sink(cli, case_dir, failures)
        if moved:
            sink = (f"; first-token model: evicting token 0 moves {moved['last,3']:.3f} of a row's weight, "
                    f"one sink keeps it ({moved['sinks,1,3']:.1e})")
    return report(failures, f"{len(failures)} problem(s)",
                  f"ok: {count} random {mode} scenes within {REL:g} of NumPy ({counts}), {len(BAD)} bad keys{sink}",
                  cases=counts)


# ---- PyTorch: nn.MultiheadAttention on repeat_interleave'd K/V ---------------------------------

def main_torch(cli, case_dir, count):
    try:
        import torch
    except ImportError as e:
        print(f"SKIP: {e} (scripts/setup installs Debian's python3-torch)")
        return SKIP
    rng = np.random.default_rng(505)
    failures, counts = [], {"H_kv = 1": 0, "H_kv = 2": 0, "H_kv = H": 0, "causal": 0}
    for index in range(count):
        H = [2, 4, 8][index % 3]
        kv = [1, 2, H][(index // 3) % 3]
        n, dh = int(rng.integers(2, 10)), int(rng.integers(1, 4))
        E = H * dh
        Q, K, V = rng.uniform(-2, 2, (n, E)), rng.uniform(-2, 2, (n, kv * dh)), rng.uniform(-2, 2, (n, kv * dh))
        causal = index % 2 == 1
        s = {"version": 2, "tokens": [f"t{i}" for i in range(n)], "Q": Q.tolist(), "K": K.tolist(), "V": V.tolist(),
             "scale": "sqrt_dk", "causal": causal, "heads": H, "kv_heads": kv}
        got = cli_json(cli, [write(case_dir, f"torch_{index:03d}", s)], failures, f"torch {index}")
        if got is None:
            continue
        mha = torch.nn.MultiheadAttention(E, H, bias=False, batch_first=True, dtype=torch.float64)
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.eye(E, dtype=torch.float64).repeat(3, 1))
            mha.out_proj.weight.copy_(torch.eye(E, dtype=torch.float64))
            t = lambda a: torch.tensor(a, dtype=torch.float64)  # noqa: E731
            # K, V: n × H_kv·d → n × H·d, each group repeated H/H_kv times (GQA's sharing).
            K_rep = torch.repeat_interleave(t(K).view(n, kv, dh), H // kv, dim=1).reshape(n, E)
            V_rep = torch.repeat_interleave(t(V).view(n, kv, dh), H // kv, dim=1).reshape(n, E)
            mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1) if causal else None
            out, weights = mha(t(Q)[None], K_rep[None], V_rep[None], attn_mask=mask, need_weights=True,
                               average_attn_weights=True)
        for name, g, w in (("output", got["output"], out[0].numpy()), ("weights", got["weights"], weights[0].numpy())):
            p = close(g, w)
            if p:
                failures.append(f"torch {index} (H {H}, H_kv {kv}, causal {causal}): {name}: {p}")
        counts["H_kv = 1" if kv == 1 else "H_kv = H" if kv == H else "H_kv = 2"] += 1
        counts["causal"] += causal
    return report(failures, f"{len(failures)} problem(s)",
                  f"ok: {count} GQA scenes equal nn.MultiheadAttention on repeat_interleave'd K/V within {REL:g} "
                  f"({counts})", cases=counts)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("window", "sinks", "alibi", "gqa", "torch"):
        print(__doc__)
        return 2
    mode, cli, case_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    os.makedirs(case_dir, exist_ok=True)
    return main_torch(cli, case_dir, count) if mode == "torch" else main_numpy(mode, cli, case_dir, count)


if __name__ == "__main__":
    sys.exit(main())
