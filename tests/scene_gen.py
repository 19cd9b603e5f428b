"""scene_gen.py — the random scenes the Python cross-checks share: one generator of scene JSON dicts
(n tokens; Q, K, V given directly or learned as X·W_q, X·W_k, X·W_v; heads and K/V groups, a scale,
causal, a 0/1 mask, W_o, RoPE, a sliding window, sinks, ALiBi) and its small helpers. Each script
keeps its own choices (how n and the sizes are drawn, which feature goes on which scene index) in a
short function of its own that calls random_scene(); only the drawing and the keys' shapes live here,
so every script writes the same keys the same way. Plain Python on a numpy Generator (rng): no import
of numpy itself."""

# Keys of scene version 2: a scene holding any of them must say "version": 2 (the CLI refuses it
# otherwise), so random_scene() raises the version itself rather than each caller remembering to.
VERSION_2_KEYS = ("heads", "kv_heads", "Wo", "rope", "window", "sinks", "alibi")


def mat(rng, rows, cols, spread=2.0):
    """A rows×cols matrix (lists) of uniform(−spread, spread) doubles."""
    return rng.uniform(-spread, spread, size=(rows, cols)).tolist()


def labels(n):
    """The plain token labels t0 … t(n−1)."""
    return [f"t{i}" for i in range(n)]


def random_mask(rng, n, p_keep=0.7, fully_masked_row=False, row=None, cols=None):
    """An n×cols (default n×n) 0/1 mask (lists), each cell 1 with probability p_keep; with
    fully_masked_row, row `row` (a random one when None) all 0: a query that sees no key, the case
    softmax alone would turn into NaN."""
    mask = (rng.uniform(size=(n, cols or n)) < p_keep).astype(int)
    if fully_masked_row:
        mask[int(rng.integers(0, n)) if row is None else row] = 0
    return mask.tolist()


def scale_for(index, temperature):
    """Scene `index`'s "scale": "none", "sqrt_dk" and the number `temperature` in turn (index % 3), so
    every third scene has each."""
    return ["none", "sqrt_dk", temperature][index % 3]


def random_scene(rng, *, n, d_k, d_v, projected, d_model=None, spread=2.0, version=1, tokens=None,
                 heads=1, kv_heads=None, scale=None, causal=False, mask=None, wo_cols=None, rope=None,
                 window=None, sinks=None, alibi=False):
    """A scene (its JSON as a dict) of n tokens, every matrix uniform(−spread, spread).

    projected: X (n×d_model) and W_q, W_k, W_v, else Q, K, V given directly. d_k, d_v are the widths
    of all `heads` heads together (each a multiple of heads); with kv_heads, K and V hold only
    kv_heads of those heads' columns (grouped-query attention; the key is written, even = heads).
    wo_cols: an output map W_o of d_v×wo_cols. tokens: the labels (default t0 …). The other keys go in
    as given, None (or False, or heads 1) leaving a key out; "causal" is always written. The version
    is raised to 2 when a key needs it."""
    assert d_k % heads == 0 and d_v % heads == 0, "each head's size must be whole"
    assert not projected or d_model, "a projected scene needs d_model"
    groups = heads if kv_heads is None else kv_heads
    d_kv, d_vv = d_k // heads * groups, d_v // heads * groups  # K's and V's widths: the groups' columns
    s = {"version": version, "tokens": labels(n) if tokens is None else tokens}
    if projected:
        s.update(X=mat(rng, n, d_model, spread), Wq=mat(rng, d_model, d_k, spread),
                 Wk=mat(rng, d_model, d_kv, spread), Wv=mat(rng, d_model, d_vv, spread))
    else:
        s.update(Q=mat(rng, n, d_k, spread), K=mat(rng, n, d_kv, spread), V=mat(rng, n, d_vv, spread))
    if wo_cols:
        s["Wo"] = mat(rng, d_v, wo_cols, spread)
    optional = {"heads": heads if heads > 1 else None, "kv_heads": kv_heads, "scale": scale, "mask": mask,
                "rope": rope, "window": window, "sinks": sinks, "alibi": True if alibi else None}
    s.update({key: value for key, value in optional.items() if value is not None})
    s["causal"] = bool(causal)
    if any(key in s for key in VERSION_2_KEYS):
        s["version"] = max(s["version"], 2)
    return s
