#!/usr/bin/python3
"""The attention variants of attention-lab-cli against NumPy references written from the papers.

usage: variants_crosscheck.py window|sinks|alibi|gqa|torch|modern|mla CLI CASE_DIR [COUNT]

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
  modern  the variants of 2024–26 models, each COUNT scenes in this one process (see "the variants of
          2024–26 models" below): sink logit, softcap, QK-norm, top-k (indexer, blocks), differential,
          gated and linear attention, on scenes with heads, GQA, causal, windows, masks, ALiBi, RoPE;
          every stage each adds, and the combinations that are refused.
  mla     multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1, the scene key "mla"),
          written from the paper's equations (9)–(19) below: COUNT random learned scenes (heads 1–4,
          d_rope 0–4, with and without RoPE, causal, masks, windows, W_o, each scale): the latent
          c_kv, k_rope, each head's scores, weights and output, the concat and output, the absorbed
          form (scores, weights, output) and the cache per token; the absorbed form equal to the
          naive one; the NumPy and PyTorch exports exec'd against the CLI; the same pass in PyTorch
          (float64) when it is installed; bad inputs refused, naming the key.
Also each mode's bad keys: exit 2 naming the key. Exit 77 (ctest SKIP) when numpy (or torch) is
missing. Run with Debian's /usr/bin/python3.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import SKIP, close, divisor_of, heads_reference, projections, report, require, run  # noqa: E402,F401
from rope_crosscheck import rope_numpy  # noqa: E402
from scene_gen import mat, random_mask, random_scene, scale_for  # noqa: E402

np = require("numpy")

REL = 1e-12


# ---- the references ----------------------------------------------------------------------------


def compare_stages(label, checks, failures):
    """Each (name, CLI's stage, reference) within REL, or a failure naming it ("missing" when absent)."""
    for name, g, w in checks:
        if g is None:
            failures.append(f"{label}: {name} missing")
            continue
        p = close(g, w)
        if p:
            failures.append(f"{label}: {name}: {p}")

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

def variants_scene(rng, mode, index, even_heads=False):
    """Scene `index` of `mode`: n 1…13; H by the mode (alibi 1, 2, 3, 4, 8; gqa 2, 4, 6, 8, 3 with
    H_kv 1, 2 or H; else 2 every 4th); direct and learned in turn (torch: direct); each scale every
    third scene; a window on every window/sinks scene and every third other, sinks 0…3 on sinks
    scenes; ALiBi on alibi scenes and every 5th other (not gqa); a mask every 4th, every 8th with a
    fully masked row; W_o every 6th; every 7th scene large. even_heads: each head's d_k even (RoPE's
    pairs, the two maps of differential attention)."""
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
    if even_heads:
        dh = 2 * int(rng.integers(1, 3)) * (2 if index % 3 == 0 else 1)  # pairs for RoPE, halves for two maps
    window = int(rng.integers(1, n + 2)) if mode in ("window", "sinks") or index % 3 == 2 else None
    sinks = (int(rng.integers(0, 4)) if index % 5 else 0) if mode == "sinks" else 0
    mask = random_mask(rng, n, 0.7, fully_masked_row=index % 8 == 2) if index % 4 == 2 else None
    return random_scene(rng, n=n, d_k=H * dh, d_v=H * dvh, projected=index % 2 == 1 and mode != "torch",
                        d_model=int(rng.integers(1, 7)), spread=8.0 if index % 7 == 0 else 2.0, version=2, heads=H,
                        kv_heads=H_kv if mode == "gqa" or index % 9 == 4 else None,
                        scale=scale_for(index, float(rng.choice([0.3, 1.7, 5.0]))),
                        causal=index % 2 == 0 if mode in ("window", "sinks") else index % 4 == 1, mask=mask,
                        wo_cols=int(rng.integers(1, 5)) if index % 6 == 5 else None, window=window,
                        sinks=sinks or None, alibi=mode == "alibi" or (mode != "gqa" and index % 5 == 1))


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
    compare_stages(label, checks, failures)


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
        s = variants_scene(rng, mode, index)
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


# ---- the variants of 2024–26 models (mode "modern": all of them in this one process) --------------
# References written from the papers' equations, not from Attention Lab's code (core/variants.hpp):
#   sink logit z (gpt-oss; z = 0: Miller 2023's softmax-off-by-one): a_ij = e^{x_ij} / (e^z + Σ_j' e^{x_ij'});
#   softcap c (Gemma 2): the scaled scores become c·tanh(s/c), before the bias and the mask;
#   QK-norm (OLMo 2, Qwen3): q ← q / √(mean(q²) + ε) · gain_q, k likewise, before RoPE;
#   top-k (DeepSeek Sparse Attention; MoBA): each query keeps the k allowed keys of highest scaled score (or
#       indexer score), ties to the lower index; with blocks of b, a block scores the mean over its allowed keys;
#   differential (Ye et al. 2024): (softmax(Q₁K₁ᵀ/√d + M) − λ softmax(Q₂K₂ᵀ/√d + M)) V, optionally each
#       output row RMS-normalised (ε = 1e-5) times (1 − λ_init);
#   gated (Qiu et al. 2025): concat ⊙ σ(G) before W_o, G n × concat (element-wise) or n × h (head-wise);
#   linear (Katharopoulos et al. 2020): φ = elu + 1, A_ij = φ(q_i)·φ(k_j) / Σ_j' over the allowed keys.
#   cross-attention ("sources"): the keys and values come from m source tokens (K, V m rows, or X_src projected
#       by Wk, Wv); scores, weights n×m, output n×d_v; only a custom n×m mask hides keys.
MODERN = ("sink", "softcap", "qk_norm", "topk", "cross", "differential", "gate", "linear")


def elu1(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def rms(x, eps, gain=None):
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps) * (1.0 if gain is None else np.asarray(gain, float))


def keep_topk(score, allowed, k, block):
    n, m = allowed.shape
    b = block or 1
    kept = np.zeros((n, m), dtype=bool)
    for i in range(n):
        candidates = []
        for blk in range((m + b - 1) // b):
            cols = [j for j in range(blk * b, min(m, (blk + 1) * b)) if allowed[i, j]]
            if cols:
                candidates.append((-(np.mean(score[i, cols]) if block else score[i, cols[0]]), blk))
        for _, blk in sorted(candidates)[:k]:  # highest score first, then the lower index
            kept[i, blk * b:(blk + 1) * b] = allowed[i, blk * b:(blk + 1) * b]
    return kept


def sink_softmax(x, kept, z):
    """Softmax of each row over its kept cells and, when z is not None, one more logit z whose share returns
    nothing (gpt-oss's sinks: the logits with the sink appended, softmax, the sink's column dropped)."""
    n, m = x.shape
    weights, sink = np.zeros((n, m)), np.zeros(n)
    for i in range(n):
        logits = x[i][kept[i]]
        if z is not None:
            logits = np.append(logits, z)
        if logits.size == 0:
            continue
        e = np.exp(logits - logits.max())
        p = e / e.sum()
        if z is not None:
            sink[i], p = p[-1], p[:-1]
        weights[i][kept[i]] = p
    return weights, sink


def map_reference(s, q, k, head, allowed, bias):
    st = {}
    if "qk_norm" in s:
        qn = s["qk_norm"]
        q, k = rms(q, qn.get("eps", 1e-6), qn.get("gain_q")), rms(k, qn.get("eps", 1e-6), qn.get("gain_k"))
        st.update(Q_norm=q, K_norm=k)
    if "rope" in s:
        r = s["rope"]
        q, k = (rope_numpy(m, r.get("base", 10000.0), r.get("layout", "interleaved"), r.get("offset", 0)) for m in (q, k))
    if s.get("linear"):
        pq, pk = elu1(q), elu1(k)
        scores = pq @ pk.T
        a = np.where(allowed, scores, 0.0)
        sums = a.sum(axis=1, keepdims=True)
        return dict(st, phi_q=pq, phi_k=pk, scores=scores, scaled=np.where(allowed, scores, np.nan), scaled_raw=scores,
                    weights=np.divide(a, sums, out=np.zeros_like(a), where=sums > 0))
    scores = q @ k.T
    scaled = scores / divisor_of(s, q.shape[1])
    x = scaled
    if "softcap" in s:
        x = st["capped"] = s["softcap"] * np.tanh(scaled / s["softcap"])
    if bias is not None:
        x = x + bias
    kept = allowed
    if "topk" in s:
        chooser = np.array(s["indexer"], float) if "indexer" in s else scaled
        kept = st["selected"] = keep_topk(chooser, allowed, s["topk"], s.get("topk_block", 0))
    z = s.get("sink_logit")
    z = None if z is None else z if not isinstance(z, list) else z[0] if len(z) == 1 else z[head]
    weights, sink = sink_softmax(x, kept, z)
    if z is not None:
        st["sink_weight"] = sink
    return dict(st, scores=scores, scaled=np.where(allowed, scaled, np.nan), scaled_raw=scaled, weights=weights)


def head_reference(s, q, k, v, head, allowed, bias):
    if "differential" not in s:
        st = map_reference(s, q, k, head, allowed, bias)
        return dict(st, output=st["weights"] @ v)
    diff = s["differential"]
    d = q.shape[1] // 2
    m1 = map_reference(s, q[:, :d], k[:, :d], head, allowed, bias)
    m2 = map_reference(s, q[:, d:], k[:, d:], head, allowed, bias)
    weights = m1["weights"] - diff["lambda"] * m2["weights"]
    out = weights @ v
    st = dict(m1, weights=weights, weights_1=m1["weights"], map_2=m2)
    if diff.get("norm"):
        st["diff_output"] = out
        out = (1.0 - diff.get("lambda_init", 0.8)) * rms(out, 1e-5)
    return dict(st, output=out)


def modern_reference(s):
    Q, K, V = projections(s)
    if "X_src" in s:
        X_src = np.array(s["X_src"], float)
        K, V = X_src @ np.array(s["Wk"], float), X_src @ np.array(s["Wv"], float)
    n, m = Q.shape[0], K.shape[0]
    H = s.get("heads", 1)
    H_kv = s.get("kv_heads", H)
    dh, dvh = Q.shape[1] // H, V.shape[1] // H_kv
    if "sources" in s:
        allowed = np.ones((n, m), dtype=bool) & (np.array(s["mask"]) == 1 if "mask" in s else True)
    else:
        allowed = visible(s, n)
    heads = []
    for t in range(H):
        g = t // (H // H_kv)
        bias = alibi_bias(n, t, H) if s.get("alibi") else None
        heads.append(head_reference(s, Q[:, t * dh:(t + 1) * dh], K[:, g * dh:(g + 1) * dh], V[:, g * dvh:(g + 1) * dvh],
                                    t, allowed, bias))
    concat = np.hstack([h["output"] for h in heads])
    out = dict(heads=heads, concat=concat, weights=sum(h["weights"] for h in heads) / H, allowed=allowed.astype(int),
               masked_rows=[i for i in range(n) if not allowed[i].any()])
    gated = concat
    if "gate" in s or "Wg" in s:
        G = np.array(s["gate"], float) if "gate" in s else np.array(s["X"], float) @ np.array(s["Wg"], float)
        sig = 1.0 / (1.0 + np.exp(-G))
        gated = concat * (sig if G.shape[1] == concat.shape[1] else np.repeat(sig, dvh, axis=1))
        out.update(gate_sigmoid=sig, gated=gated)
    out["output"] = gated @ np.array(s["Wo"], float) if "Wo" in s else gated
    return out


def add_variant(rng, s, variant, index):
    """The variant's keys on a random scene (heads, GQA, causal, windows, masks, ALiBi, RoPE from the generator)."""
    n, H = len(s["tokens"]), s.get("heads", 1)
    if variant == "sink":
        s["sink_logit"] = 0.0 if index % 5 == 0 else (
            float(rng.uniform(-3, 3)) if index % 2 else [float(z) for z in rng.uniform(-3, 3, H)])
    elif variant == "softcap":
        s["softcap"] = float(rng.choice([0.5, 2.0, 10.0, 50.0]))
    elif variant == "qk_norm":
        dh = (len(s["Q"][0]) if "Q" in s else len(s["Wq"][0])) // H
        s["qk_norm"] = {"eps": float(rng.choice([1e-6, 1e-2, 0.5]))}
        if index % 2:
            s["qk_norm"].update(gain_q=rng.uniform(-2, 2, dh).tolist(), gain_k=rng.uniform(-2, 2, dh).tolist())
    elif variant == "topk":
        if index % 3 == 1:
            s["topk_block"] = int(rng.integers(1, n + 1))
            s["topk"] = int(rng.integers(1, (n + s["topk_block"] - 1) // s["topk_block"] + 1))
        else:
            s["topk"] = int(rng.integers(1, n + 1))
        if index % 4 == 2:
            s["indexer"] = rng.uniform(-3, 3, (n, n)).tolist()
    elif variant == "differential":
        s["differential"] = {"lambda": float(rng.uniform(0, 1))}
        if index % 3 == 0:
            s["differential"].update(norm=True, lambda_init=float(rng.uniform(0.1, 0.8)))
    elif variant == "gate":
        dv = len(s["V"][0]) if "V" in s else len(s["Wv"][0])
        cols = [dv // s.get("kv_heads", H) * H, H][index % 2]
        if "X" in s:
            s["Wg"] = rng.uniform(-2, 2, (len(s["X"][0]), cols)).tolist()
        else:
            s["gate"] = rng.uniform(-4, 4, (n, cols)).tolist()
    elif variant == "linear":
        s.pop("alibi", None)
        s.pop("rope", None)
        s["linear"] = "elu1"
    elif variant == "cross":
        # Another sequence of m tokens gives the keys and values; nothing positional applies.
        m = int(rng.integers(1, 12))
        for key in ("causal", "window", "sinks", "alibi", "rope", "mask"):
            s.pop(key, None)
        s["sources"] = [f"s{j}" for j in range(m)]
        if "X" in s:
            s["X_src"] = mat(rng, m, len(s["X"][0]))
        else:
            s["K"], s["V"] = mat(rng, m, len(s["K"][0])), mat(rng, m, len(s["V"][0]))
        if index % 3 == 2:
            s["mask"] = random_mask(rng, n, 0.7, fully_masked_row=True, cols=m)  # a query that sees no source
        if index % 4 == 1:
            s["topk"] = int(rng.integers(1, m + 1))
        if index % 5 == 3:
            s["sink_logit"] = 0.0
    if index % 7 == 6 and variant in ("sink", "softcap", "topk"):
        # Three at once: a capped, QK-normed softmax with a sink over the top-k keys.
        s.setdefault("softcap", 5.0)
        s.setdefault("sink_logit", 0.5)
        s.setdefault("qk_norm", {"eps": 1e-6})
    return s


def modern_scene(rng, variant, index):
    base = ("window", "alibi", "gqa", "sinks")[index % 4]
    rope = index % 5 == 2 and base != "alibi"
    s = variants_scene(rng, base, index, even_heads=variant == "differential" or rope)
    s.pop("alibi", None) if rope else None
    dh = (len(s["Q"][0]) if "Q" in s else len(s["Wq"][0])) // s.get("heads", 1)
    if rope and (variant != "differential" or (dh // 2) % 2 == 0):
        s["rope"] = {"base": float(rng.choice([10000.0, 50.0])), "layout": ["interleaved", "half"][index % 2],
                     "offset": int(rng.integers(0, 5))}
    return add_variant(rng, s, variant, index)


def check_modern(got, want, s, label, failures):
    H = s.get("heads", 1)
    checks = [("weights", got.get("weights"), want["weights"]), ("output", got.get("output"), want["output"]),
              ("concat", got.get("concat"), want["concat"]), ("allowed", got.get("allowed"), want["allowed"])]
    if got.get("masked_rows") != want["masked_rows"]:
        failures.append(f"{label}: masked_rows {got.get('masked_rows')}, numpy {want['masked_rows']}")
    for key in ("gate_sigmoid", "gated"):
        if key in want:
            checks.append((key, got.get(key), want[key]))
    heads = [got] if H == 1 else got.get("heads", [])
    if len(heads) != H:
        failures.append(f"{label}: {len(heads)} heads, want {H}")
        return
    for t, (g, w) in enumerate(zip(heads, want["heads"])):
        where = "" if H == 1 else f"heads[{t}]."
        keys = ["scores", "scaled", "weights"] + [k for k in ("Q_norm", "K_norm", "capped", "selected", "sink_weight",
                                                               "phi_q", "phi_k", "weights_1", "diff_output") if k in w]
        if H > 1:
            keys.append("output")
        for key in keys:
            checks.append((where + key, g.get(key), w[key].astype(int) if key == "selected" else w[key]))
        if "map_2" in w:
            for key in ("scores", "weights") + tuple(k for k in ("Q_norm", "K_norm", "capped", "selected", "sink_weight")
                                                    if k in w["map_2"]):
                want2 = w["map_2"][key]
                checks.append((where + "map_2." + key, (g.get("map_2") or {}).get(key),
                               want2.astype(int) if key == "selected" else want2))
            checks.append((where + "map_2.scaled", (g.get("map_2") or {}).get("scaled"), w["map_2"]["scaled_raw"]))
    compare_stages(label, checks, failures)


GOOD = {"version": 2, "tokens": ["a", "b"], "Q": [[1, 2], [3, 4]], "K": [[5, 6], [7, 8]], "V": [[1, 2], [2, 3]]}
MODERN_BAD = [
    ({"version": 1, "sink_logit": 0}, "sink_logit: needs \"version\": 2"),
    ({"sink_logit": "x"}, "sink_logit: expected an array of numbers"),
    ({"heads": 2, "sink_logit": [1, 2, 3]}, "sink_logit: give one number, or one per head (heads = 2), got 3"),
    ({"version": 1, "softcap": 5}, "softcap: needs \"version\": 2"),
    ({"softcap": 0}, "softcap: c must be above 0"),
    ({"softcap": -1}, "softcap: c must be above 0"),
    ({"version": 1, "qk_norm": {}}, "qk_norm: needs \"version\": 2"),
    ({"qk_norm": {"eps": 0}}, "qk_norm: eps must be above 0"),
    ({"qk_norm": {"gain_q": [1]}}, "qk_norm: gain_q: has 1 entries, expected 2"),
    ({"qk_norm": {"bias": 1}}, "qk_norm: unknown key \"bias\""),
    ({"version": 1, "topk": 1}, "topk: needs \"version\": 2"),
    ({"topk": 3}, "topk: k = 3 must be 1 to the 2 keys"),
    ({"topk": 0}, "topk: must be at least 1"),
    ({"topk": 1.5}, "topk: must be a whole number"),
    ({"indexer": [[1, 2], [3, 4]]}, "indexer: chooses the keys top-k keeps; give \"topk\" too"),
    ({"topk": 1, "indexer": [[1, 2]]}, "indexer: must be n×m = 2×2"),
    ({"topk": 2, "topk_block": 2}, "topk: k = 2 must be 1 to the 1 blocks of 2 keys"),
    ({"version": 1, "differential": {"lambda": 0.5}}, "differential: needs \"version\": 2"),
    ({"differential": {}}, "differential: lambda missing"),
    ({"differential": {"lambda": 0.5}, "heads": 2}, "differential: each head's d_k/h = 1 must be even"),
    ({"differential": {"lambda": 99}}, "differential: lambda must be a number from -10 to 10"),
    ({"version": 1, "gate": [[0, 0], [0, 0]]}, "gate: needs \"version\": 2"),
    ({"gate": [[0, 0, 0], [0, 0, 0]]}, "gate: has 3 columns, expected 2 (element-wise, one per concat column) or 1"),
    ({"gate": [[0, 0]]}, "gate: has 1 rows, expected 2 (one per token)"),
    ({"Wg": [[0, 0], [0, 0]]}, "Wg: a direct scene (Q, K, V) gives its gate logits as \"gate\""),
    ({"version": 1, "linear": "elu1"}, "linear: needs \"version\": 2"),
    ({"version": 1, "sources": ["x"]}, "sources: needs \"version\": 2"),
    ({"sources": ["x", "y", "z"]}, "K: has 2 rows, expected 3 (one per source token)"),
    ({"sources": ["x", "y"], "causal": True}, "causal: cross-attention (\"sources\") has no causal mask"),
    ({"sources": ["x", "y"], "window": 1}, "window: a sliding window is about positions in one sequence"),
    ({"sources": []}, "sources: need at least 1 source token"),
    ({"sources": ["x", "y"], "X_src": [[1, 2]]}, "X_src: a direct scene gives the sources' K and V"),
    ({"X_src": [[1, 2]]}, "X_src: the source tokens' vectors need \"sources\""),
    ({"linear": "relu"}, "linear: must be \"elu1\""),
    ({"linear": "elu1", "softcap": 2}, "linear: phi(q)·phi(k) weights have no softmax and no logits, so they do not "
                                       "combine with \"softcap\""),
    ({"linear": "elu1", "alibi": True}, "linear: phi(q)·phi(k) weights have no softmax"),
]


def check_exports(cli, path, s, got, failures, counts):
    """--export numpy / pytorch compute the variant (exec'd here) and match the CLI within 1e-12;
    --export latex writes the variant's formula."""
    for kind in ("numpy", "pytorch"):
        if kind == "pytorch":
            try:
                import torch  # noqa: F401
            except ImportError:
                continue
        code, script, err = run(cli, ["--export", kind, path])
        if code != 0:
            failures.append(f"{path} --export {kind}: exit {code}: {err[:200]}")
            continue
        ns = {"__name__": "exported"}
        try:
            exec(compile(script, f"{path}.{kind}.py", "exec"), ns)
        except Exception as e:  # noqa: BLE001 — any error is the script's failure
            failures.append(f"{path} --export {kind}: the script fails: {type(e).__name__}: {e}")
            continue
        for name in ("weights", "output"):
            value = ns[name]
            value = value.detach().numpy() if hasattr(value, "detach") else value
            p = close(got[name], value)
            if p:
                failures.append(f"{path} --export {kind}: {name}: {p}")
        counts["NumPy exports" if kind == "numpy" else "PyTorch exports"] += 1
    code, tex, err = run(cli, ["--export", "latex", path])
    words = {"sink_logit": "softmax}_{+z}", "softcap": "\\tanh", "qk_norm": "\\hat{Q}", "topk": "M_{\\text{top-}",
             "differential": "\\lambda", "gate": "\\sigma(", "Wg": "\\sigma(X W_g)", "linear": "\\phi", "mla": "c = X W_{DKV}"}
    missing = [key for key, word in words.items() if key in s and word not in tex]
    if code != 0 or "% the variant pass: $" not in tex or missing:
        failures.append(f"{path} --export latex: exit {code}, the formula lacks {missing}: {tex[:300]!r}")
    else:
        counts["LaTeX formulas"] += 1


def main_modern(cli, case_dir, count):
    rng = np.random.default_rng(606)
    failures = []
    counts = {"fully masked rows": 0, "multi-head scenes": 0, "GQA scenes": 0, "projected scenes": 0,
              "causal scenes": 0, "windowed scenes": 0, "ALiBi scenes": 0, "RoPE scenes": 0, "combined scenes": 0,
              "negative weights": 0, "rows summing below 1": 0, "NumPy exports": 0, "PyTorch exports": 0,
              "LaTeX formulas": 0}
    for variant in MODERN:
        for index in range(count):
            s = modern_scene(rng, variant, index)
            path = write(case_dir, f"{variant}_{index:03d}", s)
            got = cli_json(cli, [path], failures, path)
            if got is None:
                continue
            want = modern_reference(s)
            check_modern(got, want, s, path, failures)
            if index < 6:
                check_exports(cli, path, s, got, failures, counts)
            counts["fully masked rows"] += len(want["masked_rows"])
            counts["multi-head scenes"] += s.get("heads", 1) > 1
            counts["GQA scenes"] += s.get("kv_heads", s.get("heads", 1)) != s.get("heads", 1)
            counts["projected scenes"] += "X" in s
            counts["causal scenes"] += bool(s.get("causal"))
            counts["windowed scenes"] += "window" in s
            counts["ALiBi scenes"] += bool(s.get("alibi"))
            counts["RoPE scenes"] += "rope" in s
            counts["combined scenes"] += sum(k in s for k in ("sink_logit", "softcap", "qk_norm", "topk")) >= 3
            counts["negative weights"] += bool((want["weights"] < 0).any())
            counts["rows summing below 1"] += bool("sink_logit" in s and (want["weights"].sum(axis=1) < 1 - 1e-9).any())
    for index, (keys, expected) in enumerate(MODERN_BAD):
        code, out, err = run(cli, [write(case_dir, f"bad_{index}", dict(GOOD, **keys))])
        if code != 2 or out or f"attention-lab-cli: {expected}" not in err:
            failures.append(f"bad {keys}: exit {code}, stdout {out[:60]!r}, stderr {err[:200]!r}; want {expected}")
    # The step-by-step passes and the gradients are plain softmax attention's: refused, naming the keys.
    path = write(case_dir, "flags", dict(GOOD, softcap=2.0, topk=1))
    for args, expected in ((["--online", "1"], "--online: runs plain softmax attention step by step; this scene "
                                               "uses a variant key (softcap, topk)"),
                           (["--kv-cache"], "--kv-cache: runs plain softmax attention"),
                           (["--export", "svg"], None)):
        code, out, err = run(cli, args + [path])
        if expected and (code != 2 or f"attention-lab-cli: {expected}" not in err):
            failures.append(f"{args}: exit {code}, {err[:200]!r}; want {expected}")
        if not expected and (code != 0 or "<svg" not in out):
            failures.append(f"{args} on a variant scene: exit {code}, {err[:200]!r}")
    # The SVG figure of a cross-attention scene: 3 queries × 2 sources, the sources heading the columns.
    cross = write(case_dir, "cross_svg", dict(GOOD, tokens=["a", "b", "c"], Q=[[1, 2], [3, 4], [0, 1]],
                                              sources=["x", "y"]))
    code, out, err = run(cli, ["--export", "svg", "--stage", "weights", cross])
    cells = re.findall(r'<rect class="cell[^"]*" data-row="(\d+)" data-col="(\d+)"', out)
    cols = re.findall(r'class="col-label"[^>]*>([^<]*)</text>', out)
    if code != 0 or len(cells) != 6 or max(int(c) for _, c in cells) != 1 or cols != ["x", "y"]:
        failures.append(f"--export svg of a cross-attention scene: exit {code}, {len(cells)} cells, "
                        f"columns {cols}, {err[:200]!r}")
    return report(failures, f"{len(failures)} problem(s)",
                  f"ok: {count} random scenes of each of {', '.join(MODERN)} within {REL:g} of NumPy ({counts}), "
                  f"{len(MODERN_BAD)} bad keys", cases=counts)


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


# ---- multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1) ------------------------------
#
# The paper's equations, per token row (Attention Lab's rows are tokens, so x W where the paper writes
# W x):  c^KV = x W^DKV (9);  k^C_t = c^KV W^UK_t (10);  v^C_t = c^KV W^UV_t (11);
# k^R = RoPE(x W^KR) (17), one for every head;  [q^C_t | q^R_t] = x W^Q_t (the paper's low-rank query
# is one matrix here), q^R_t turned by RoPE (15);  k_t = [k^C_t | k^R] (16);
# o_t = Σ_j softmax_j(q_t k_jᵀ / √(d_h + d_h^R)) v^C_j (18), the mask applied as everywhere else.
# Absorbed (§2.1.2): W^UK folds into the query, q^C_t k^C_tᵀ = (q^C_t W^UK_tᵀ) c^KVᵀ, and W^UV into the
# output, Σ_j a_j v^C_j = (Σ_j a_j c^KV_j) W^UV_t. The cache keeps c^KV and k^R: d_c + d_rope per token.

def mla_softmax(x, allowed):
    """Row softmax over the allowed cells; a row with none is all zero."""
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        if allowed[i].any():
            row = x[i][allowed[i]]
            e = np.exp(row - row.max())
            out[i][allowed[i]] = e / e.sum()
    return out


def mla_reference(s):
    A = lambda a: np.array(a, dtype=np.float64)  # noqa: E731
    X, Wq, m = A(s["X"]), A(s["Wq"]), s["mla"]
    W_dkv, W_uk, W_uv = A(m["W_dkv"]), A(m["W_uk"]), A(m["W_uv"])
    n, H = X.shape[0], s.get("heads", 1)
    d_nope, d_vh = W_uk.shape[1] // H, W_uv.shape[1] // H
    W_kr = A(m["W_kr"]) if "W_kr" in m else np.zeros((X.shape[1], 0))
    d_rope = W_kr.shape[1]
    dq = d_nope + d_rope
    r = s.get("rope")
    turn = (lambda M: rope_numpy(M, r.get("base", 10000.0), r.get("layout", "interleaved"), r.get("offset", 0))) \
        if r is not None and d_rope else (lambda M: M)
    c = X @ W_dkv                                   # (9)
    k_r = turn(X @ W_kr)                            # (17)
    Q = X @ Wq
    allowed = visible(s, n)
    divisor = divisor_of(s, dq)
    heads, Ks, Vs, Ys = [], [], [], []
    absorbed_out = []
    for t in range(H):
        q_c, q_r = Q[:, t * dq:t * dq + d_nope], turn(Q[:, t * dq + d_nope:(t + 1) * dq])
        W_uk_t, W_uv_t = W_uk[:, t * d_nope:(t + 1) * d_nope], W_uv[:, t * d_vh:(t + 1) * d_vh]
        k_c, v_c = c @ W_uk_t, c @ W_uv_t           # (10), (11)
        scores = q_c @ k_c.T + q_r @ k_r.T          # q_t k_tᵀ with k_t = [k^C_t | k^R] (16)
        weights = mla_softmax(scores / divisor, allowed)
        Y = weights @ v_c                           # (18)
        a_scores = (q_c @ W_uk_t.T) @ c.T + q_r @ k_r.T
        a_weights = mla_softmax(a_scores / divisor, allowed)
        absorbed_out.append((a_weights @ c) @ W_uv_t)
        heads.append(dict(scores=scores, weights=weights, output=Y, absorbed_scores=a_scores,
                          absorbed_weights=a_weights))
        Ks.append(np.hstack([k_c, X @ W_kr]))       # the key the heads grid shows (before RoPE)
        Vs.append(v_c)
        Ys.append(Y)
    concat = np.hstack(Ys)
    output = concat @ A(s["Wo"]) if "Wo" in s else concat
    return dict(c_kv=c, k_rope=k_r, heads=heads, concat=concat, output=output, K=np.hstack(Ks), V=np.hstack(Vs),
                absorbed_output=np.hstack(absorbed_out), divisor=divisor, cache=W_dkv.shape[1] + d_rope,
                cache_mha=H * (dq + d_vh), weights_mean=sum(h["weights"] for h in heads) / H,
                masked_rows=[i for i in range(n) if not allowed[i].any()])


def mla_scene(rng, index):
    """Scene `index`: n 1…9; heads 1, 2, 3, 4 in turn; d_model 1…6, d_c 1…4, d_nope and d_v 1…3; RoPE on
    odd scenes (d_rope 2 or 4, each layout, offsets), d_rope 0…3 without; causal every 3rd, a mask every
    4th (every 8th with a fully masked row), a window every 5th, W_o every 6th, each scale every 3rd,
    every 7th scene large."""
    n, H = int(rng.integers(1, 10)), [1, 2, 3, 4][index % 4]
    d_model, d_c = int(rng.integers(1, 7)), int(rng.integers(1, 5))
    d_nope, d_vh = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    rope_on = index % 2 == 1
    d_rope = 2 * int(rng.integers(1, 3)) if rope_on else [0, 1, 2, 3][(index // 2) % 4]
    spread = 8.0 if index % 7 == 0 else 2.0
    mla = {"W_dkv": mat(rng, d_model, d_c, spread), "W_uk": mat(rng, d_c, H * d_nope, spread),
           "W_uv": mat(rng, d_c, H * d_vh, spread)}
    if d_rope:
        mla["W_kr"] = mat(rng, d_model, d_rope, spread)
    s = {"version": 2, "tokens": [f"t{i}" for i in range(n)], "X": mat(rng, n, d_model, spread),
         "Wq": mat(rng, d_model, H * (d_nope + d_rope), spread), "heads": H, "mla": mla,
         "scale": scale_for(index, float(rng.choice([0.3, 1.7, 5.0]))), "causal": index % 3 == 0}
    if H == 1:
        del s["heads"]
    if rope_on:
        s["rope"] = {"base": float(rng.choice([100.0, 10000.0])), "layout": ["interleaved", "half"][(index // 2) % 2]}
        if index % 5 == 3:
            s["rope"]["offset"] = int(rng.integers(1, 50))
    if index % 4 == 2:
        s["mask"] = random_mask(rng, n, 0.7, fully_masked_row=index % 8 == 2)
    if index % 5 == 4:
        s["window"] = int(rng.integers(1, n + 2))
    if index % 6 == 5:
        s["Wo"] = mat(rng, H * d_vh, int(rng.integers(1, 5)), spread)
    return s


def check_mla(got, want, s, label, failures):
    H = s.get("heads", 1)
    one = H == 1
    checks = [("c_kv", got.get("c_kv"), want["c_kv"]), ("output", got.get("output"), want["output"]),
              ("concat", got.get("concat"), want["concat"]), ("K", got.get("K"), want["K"]),
              ("V", got.get("V"), want["V"]), ("absorbed_output", got.get("absorbed_output"), want["absorbed_output"]),
              ("absorbed_output = concat", got.get("absorbed_output"), want["concat"])]
    if want["k_rope"].shape[1]:
        checks.append(("k_rope", got.get("k_rope"), want["k_rope"]))
    elif "k_rope" in got:
        failures.append(f"{label}: k_rope without W_kr")
    if not one:
        checks.append(("weights (mean)", got.get("weights"), want["weights_mean"]))
    heads = [got] if one else got.get("heads", [])
    if len(heads) != H:
        failures.append(f"{label}: {len(heads)} heads, want {H}")
        return
    for t, (g, w) in enumerate(zip(heads, want["heads"])):
        for key in ("scores", "weights", "absorbed_scores", "absorbed_weights"):
            checks.append((f"heads[{t}].{key}", g.get(key), w[key]))
        checks.append((f"heads[{t}].absorbed_weights = weights", g.get("absorbed_weights"), w["weights"]))
        if not one or "Wo" not in s:
            checks.append((f"heads[{t}].output", g.get("output") if not one else got.get("concat"), w["output"]))
    compare_stages(label, checks, failures)
    if got.get("divisor") != want["divisor"] and abs(got.get("divisor", 0) - want["divisor"]) > 1e-15:
        failures.append(f"{label}: divisor {got.get('divisor')}, numpy {want['divisor']}")
    if got.get("masked_rows") != want["masked_rows"]:
        failures.append(f"{label}: masked_rows {got.get('masked_rows')}, numpy {want['masked_rows']}")
    if got.get("cache_per_token") != want["cache"] or got.get("cache_per_token_mha") != want["cache_mha"]:
        failures.append(f"{label}: cache {got.get('cache_per_token')} / {got.get('cache_per_token_mha')}, "
                        f"want {want['cache']} / {want['cache_mha']}")


def mla_torch(s):
    """The same equations in PyTorch (float64): the weights and output of every head."""
    import torch
    T = lambda a: torch.tensor(a, dtype=torch.float64)  # noqa: E731
    X, Wq, m = T(s["X"]), T(s["Wq"]), s["mla"]
    H = s.get("heads", 1)
    W_dkv, W_uk, W_uv = T(m["W_dkv"]), T(m["W_uk"]), T(m["W_uv"])
    d_nope, d_vh = W_uk.shape[1] // H, W_uv.shape[1] // H
    W_kr = T(m["W_kr"]) if "W_kr" in m else torch.zeros((X.shape[1], 0), dtype=torch.float64)
    d_rope = W_kr.shape[1]
    dq = d_nope + d_rope
    r = s.get("rope")

    def turn(M):
        if r is None or not d_rope:
            return M
        return torch.from_numpy(rope_numpy(M.numpy(), r.get("base", 10000.0), r.get("layout", "interleaved"),
                                           r.get("offset", 0)))
    n = X.shape[0]
    allowed = torch.from_numpy(visible(s, n))
    c, k_r, Q = X @ W_dkv, turn(X @ W_kr), X @ Wq
    ys = []
    for t in range(H):
        q = torch.cat([Q[:, t * dq:t * dq + d_nope], turn(Q[:, t * dq + d_nope:(t + 1) * dq])], dim=1)
        k = torch.cat([c @ W_uk[:, t * d_nope:(t + 1) * d_nope], k_r], dim=1)
        v = c @ W_uv[:, t * d_vh:(t + 1) * d_vh]
        logits = (q @ k.T / divisor_of(s, dq)).masked_fill(~allowed, float("-inf"))
        weights = torch.nan_to_num(torch.softmax(logits, dim=1), nan=0.0)  # a fully masked row: zeros
        y = weights @ v
        ys.append(y)
    concat = torch.cat(ys, dim=1)
    return (concat @ T(s["Wo"]) if "Wo" in s else concat).numpy()


MLA_GOOD = {"version": 2, "tokens": ["a", "b", "c"], "X": [[1, 0], [0, 1], [1, 1]], "Wq": [[1, 0, 0.5], [0, 1, -1]],
            "mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]], "W_uv": [[1, -1]], "W_kr": [[1, 0], [0, 1]]}}
MLA_BAD = [
    ({"Wk": [[1]]}, "mla: a latent-attention scene takes its keys and values from W_dkv, W_uk, W_uv (and W_kr); "
                    "leave out \"Wk\" and \"Wv\""),
    ({"mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2], [1]], "W_uv": [[1, -1]]}}, "mla: W_uk has 2 rows, W_dkv gives d_c = 1"),
    ({"mla": {"W_dkv": [[1], [0.5], [1]], "W_uk": [[2]], "W_uv": [[1]]}}, "mla: W_dkv has 3 rows, X gives d_model = 2"),
    ({"Wq": [[1, 0], [0, 1]]}, "mla: Wq has 2 columns, expected h·(d_nope + d_rope) = 1·(1 + 2) = 3"),
    ({"mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]], "W_uv": [[1]], "W_kr": [[1e16, 0], [0, 1]]}},
     "mla: W_kr: row 0, entry 0 must be a finite number of magnitude at most 1e15"),
    ({"mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]]}}, "mla: W_uv missing"),
    ({"mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]], "W_uv": [[1]], "W_q": [[1]]}}, "mla: unknown key \"W_q\""),
    ({"mla": [[1]]}, "mla: expected an object"),
    ({"Wq": [[1, 0, 0.5, 1], [0, 1, -1, 1]], "rope": {},
      "mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]], "W_uv": [[1]], "W_kr": [[1, 0, 1], [0, 1, 1]]}},
     "mla: W_kr has 3 columns; with \"rope\" d_rope must be even to form pairs"),
    ({"Wq": [[1], [0]], "rope": {}, "mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2]], "W_uv": [[1]]}},
     "mla: with \"rope\", RoPE turns the decoupled parts q_R and k_R"),
    ({"softcap": 2}, "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass (masks, window, scale, rope, heads and "
                     "Wo only), so it does not combine with \"softcap\""),
    ({"differential": {"lambda": 0.5}}, "so it does not combine with \"differential\""),
    ({"linear": "elu1"}, "so it does not combine with \"linear\""),
    ({"alibi": True}, "so it does not combine with \"alibi\""),
    ({"sink_logit": 0}, "so it does not combine with \"sink_logit\""),
    ({"topk": 1}, "so it does not combine with \"topk\""),
    ({"qk_norm": {}}, "so it does not combine with \"qk_norm\""),
    ({"Wg": [[1, 1], [1, 1]]}, "so it does not combine with \"gate\""),
    ({"sources": ["x"], "X_src": [[1, 1]]}, "so it does not combine with \"sources\""),
    ({"heads": 2, "kv_heads": 1, "Wq": [[1, 0, 0.5, 1, 1, 1], [0, 1, -1, 1, 1, 1]],
      "mla": {"W_dkv": [[1], [0.5]], "W_uk": [[2, 1]], "W_uv": [[1, 1]], "W_kr": [[1, 0], [0, 1]]}},
     "so it does not combine with \"kv_heads\""),
    ({"version": 1}, "mla: needs \"version\": 2 (this scene says 1)"),
]


def main_mla(cli, case_dir, count):
    rng = np.random.default_rng(2405)
    failures = []
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError:
        have_torch = False
    counts = {"multi-head scenes": 0, "RoPE scenes": 0, "scenes without W_kr": 0, "causal scenes": 0,
              "masked scenes": 0, "fully masked rows": 0, "windowed scenes": 0, "W_o scenes": 0, "NumPy exports": 0,
              "LaTeX formulas": 0}
    if have_torch:
        counts.update({"PyTorch passes": 0, "PyTorch exports": 0})
    for index in range(count):
        s = mla_scene(rng, index)
        path = write(case_dir, f"mla_{index:03d}", s)
        got = cli_json(cli, [path], failures, path)
        if got is None:
            continue
        want = mla_reference(s)
        check_mla(got, want, s, path, failures)
        for t, head in enumerate(want["heads"]):  # the absorbed form is the naive one (NumPy alone)
            p = close(head["absorbed_weights"], head["weights"]) or close(head["absorbed_scores"], head["scores"])
            if p:
                failures.append(f"{path}: numpy's absorbed form, head {t}: {p}")
        if have_torch:
            p = close(got["output"], mla_torch(s))
            if p:
                failures.append(f"{path}: PyTorch's pass: output: {p}")
            counts["PyTorch passes"] += 1
        if index < 8:
            check_exports(cli, path, s, got, failures, counts)
        counts["multi-head scenes"] += s.get("heads", 1) > 1
        counts["RoPE scenes"] += "rope" in s
        counts["scenes without W_kr"] += "W_kr" not in s["mla"]
        counts["causal scenes"] += bool(s["causal"])
        counts["masked scenes"] += "mask" in s
        counts["fully masked rows"] += len(want["masked_rows"])
        counts["windowed scenes"] += "window" in s
        counts["W_o scenes"] += "Wo" in s
    combine = "mla: latent attention (W_dkv, W_uk, W_uv) is its own pass (masks, window, scale, rope, heads and Wo only), "
    for index, (keys, expected) in enumerate(MLA_BAD):
        code, out, err = run(cli, [write(case_dir, f"mla_bad_{index}", dict(MLA_GOOD, **keys))])
        if expected.startswith("so it does not combine"):
            expected = combine + expected
        if code != 2 or out or f"attention-lab-cli: {expected}" not in err:
            failures.append(f"bad {keys}: exit {code}, stdout {out[:60]!r}, stderr {err[:200]!r}; want {expected}")
    code, out, err = run(cli, [write(case_dir, "mla_good", MLA_GOOD)])
    if code != 0:
        failures.append(f"the good mla scene: exit {code}, {err[:200]!r}")
    path = write(case_dir, "mla_flags", MLA_GOOD)
    code, out, err = run(cli, ["--kv-cache", path])
    if code != 2 or "this scene uses a variant key (mla)" not in err:
        failures.append(f"--kv-cache on an mla scene: exit {code}, {err[:200]!r}")
    return report(failures, f"{len(failures)} problem(s)",
                  f"ok: {count} random MLA scenes within {REL:g} of the paper's equations in NumPy"
                  f"{' and PyTorch' if have_torch else ' (PyTorch not installed)'} ({counts}), "
                  f"{len(MLA_BAD)} bad inputs", cases=counts)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("window", "sinks", "alibi", "gqa", "torch", "modern", "mla"):
        print(__doc__)
        return 2
    mode, cli, case_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    os.makedirs(case_dir, exist_ok=True)
    if mode == "modern":
        return main_modern(cli, case_dir, count)
    if mode == "mla":
        return main_mla(cli, case_dir, count)
    return main_torch(cli, case_dir, count) if mode == "torch" else main_numpy(mode, cli, case_dir, count)


if __name__ == "__main__":
    sys.exit(main())
