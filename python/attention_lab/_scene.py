"""Scenes from arrays: scene(), scene_from_projections(), load(), and the shape checks.

A scene is the app's JSON contract (docs/SCENE_FORMAT.md) as a Python dict. The checks here repeat
the app's own rules (src/scene/scene.cpp, validate()) with the app's own words, so a bad array fails
at once, in Python, with the message the app would print; result() and validate() then ask the app
itself (attention-lab-cli), which checks every rule, including the ones not repeated here (RoPE's
base, the window's width, …). Only what the app cannot see is worded here: a batch dimension, a
vector where a matrix goes, an array that holds no numbers.
"""
import json
import math
import os

import numpy as np

from ._errors import SceneError
from ._version import SCENE_VERSION, __version__

# The app's limits (src/scene/scene.hpp).
MAX_TOKENS = 1024
MAX_DIM = 256
MAX_HEADS = 16
MAX_ABS_VALUE = 1e15
MAX_TOKEN_BYTES = 64
MIN_TEMPERATURE, MAX_TEMPERATURE = 1e-6, 1e6
SCALE_RULE = 'scale: must be "none", "sqrt_dk" or a number in [1e-06, 1e+06]'

# Every key, in the order the app writes them (src/scene/scene.cpp, kKeys), and the version that
# introduced it.
KEY_VERSIONS = {
    "tokens": 1, "Q": 1, "K": 1, "V": 1, "X": 1, "Wq": 1, "Wk": 1, "Wv": 1, "scale": 1, "causal": 1,
    "mask": 1, "heads": 2, "Wo": 2, "rope": 2, "kv_heads": 2, "window": 2, "sinks": 2, "alibi": 2,
    # The attention variants (src/scene/variant_keys.cpp, kVariantKeyNames): checked by the app.
    "sources": 2, "X_src": 2, "sink_logit": 2, "softcap": 2, "qk_norm": 2, "topk": 2, "indexer": 2,
    "topk_block": 2, "differential": 2, "gate": 2, "Wg": 2, "linear": 2, "mla": 2,
}
MATRIX_KEYS = ("Q", "K", "V", "X", "Wq", "Wk", "Wv", "Wo")


# ---------------------------------------------------------------------------------------------
# Arrays in: NumPy, PyTorch (any float dtype), nested lists
# ---------------------------------------------------------------------------------------------

def _numpy(value):
    """`value` as a NumPy array; a torch tensor is detached and moved to the CPU first, and widened to
    float64 there (float16, bfloat16 and float32 all widen exactly)."""
    if type(value).__module__.startswith("torch"):
        import torch  # only reached when the value is a tensor, so torch is installed
        if value.is_floating_point():
            value = value.detach().to("cpu", torch.float64)
        return value.detach().cpu().numpy()
    return np.asarray(value)


def as_matrix(field, value, batch_axis=0):
    """`value` (an array, a tensor, nested lists) as a float64 n×d matrix, or SceneError naming
    `field`: a batch dimension (which item to pick), a vector, no numbers. `batch_axis` is where a
    batch would sit in a 3-D input (1 for PyTorch's sequence-first layout)."""
    if isinstance(value, list) and value and all(isinstance(r, list) for r in value):
        for i, row in enumerate(value):
            if len(row) != len(value[0]):  # the app's words for a ragged matrix
                raise SceneError(f"{field}: row {i} has {len(row)} entries, expected {len(value[0])} (like row 0)")
    try:
        a = _numpy(value)
    except (TypeError, ValueError) as e:
        raise SceneError(f"{field}: is not an array of numbers ({e})") from None
    if a.ndim == 1 and a.size == 0:
        a = a.reshape(0, 0)  # [] is a matrix of no rows (the token count names the problem)
    if a.ndim == 3:
        pick = f"{field}[0]" if batch_axis == 0 else f"{field}[:, 0]"
        raise SceneError(f"{field}: has a batch dimension (shape {tuple(a.shape)}); a scene is one sequence: "
                         f"pick one item, e.g. {pick}")
    if a.ndim != 2:
        raise SceneError(f"{field}: expected a matrix (2 dimensions), got shape {tuple(a.shape)}")
    if a.dtype.kind not in "fiub":
        raise SceneError(f"{field}: expected real numbers, got dtype {a.dtype}")
    return a.astype(np.float64)


def _matrix_json(m):
    """A float64 matrix as JSON rows: Python floats, whose repr reads back bit for bit."""
    return [[float(x) for x in row] for row in m]


# ---------------------------------------------------------------------------------------------
# The app's rules (validate() in src/scene/scene.cpp, in its order and words)
# ---------------------------------------------------------------------------------------------

def _check_shape(field, m, rows, why_rows, cols=-1, why_cols=""):
    if m.shape[0] != rows:
        raise SceneError(f"{field}: has {m.shape[0]} rows, expected {rows}{why_rows}")
    if cols >= 0 and m.shape[1] != cols:
        raise SceneError(f"{field}: row 0 has {m.shape[1]} entries, expected {cols}{why_cols}")
    if m.shape[1] < 1:
        raise SceneError(f"{field}: row 0 is empty (need at least 1 entry)")
    if cols < 0 and m.shape[1] > MAX_DIM:
        raise SceneError(f"{field}: row 0 has {m.shape[1]} entries, limit is {MAX_DIM}")


def _check_matrix(field, m, rows, why_rows, cols=-1, why_cols=""):
    _check_shape(field, m, rows, why_rows, cols, why_cols)
    bad = ~np.isfinite(m) | (np.abs(np.nan_to_num(m, nan=0.0, posinf=np.inf)) > MAX_ABS_VALUE)
    if bad.any():
        i, j = (int(t) for t in np.argwhere(bad)[0])
        what = "is not a finite number" if not np.isfinite(m[i, j]) else "has magnitude above the limit of 1e15"
        raise SceneError(f"{field}: row {i}, entry {j} {what}")


def _whole(field, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SceneError(f"{field}: must be a whole number, got {value!r}")
    return int(value)


def check(s):
    """SceneError with the app's message when the scene dict `s` breaks one of the app's rules checked
    here (shapes, finite numbers, heads, the mask, the scale; version and keys); else None."""
    if not isinstance(s, dict):
        raise SceneError(f"scene: expected a JSON object, got {type(s).__name__}")
    version = s.get("version")
    if version is None:
        raise SceneError("version: missing (expected 1 or 2)")
    if isinstance(version, (int, float)) and not isinstance(version, bool) and version == int(version) \
            and version > SCENE_VERSION:
        raise SceneError(f"version: this scene is version {int(version)}, newer than attention_lab {__version__} "
                         f"and the app it ships read (scene version {SCENE_VERSION}); update the package")
    if version not in (1, 2) or isinstance(version, bool):
        raise SceneError(f"version: expected 1 or 2, got {json.dumps(version)}")
    for key in s:
        if key == "version":
            continue
        if key not in KEY_VERSIONS:
            raise SceneError(f"{key}: unknown key (expected version, " + ", ".join(KEY_VERSIONS) + ")")
        if KEY_VERSIONS[key] > version:
            raise SceneError(f'{key}: needs "version": {KEY_VERSIONS[key]} (this scene says {version})')
    if "mla" in s:
        # Multi-head latent attention derives Wk and Wv from its own weights: the app checks the whole
        # scene (src/scene/variant_keys.cpp, validate_mla) and names what is wrong.
        return None
    direct = "Q" in s
    m = {k: as_matrix(k, s[k]) for k in MATRIX_KEYS if k in s}
    tokens = s.get("tokens")
    if not isinstance(tokens, list):
        raise SceneError("tokens: expected an array of strings")
    n = len(tokens)
    if n < 1:
        raise SceneError("tokens: need at least 1 token")
    if n > MAX_TOKENS:
        raise SceneError(f"tokens: {n} tokens, limit is {MAX_TOKENS}")
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            raise SceneError(f"tokens: entry {i} is not a string")
        if len(t.encode("utf-8")) > MAX_TOKEN_BYTES:
            raise SceneError(f"tokens: entry {i} is {len(t.encode('utf-8'))} bytes, limit is {MAX_TOKEN_BYTES}")
    heads = _whole("heads", s.get("heads", 1))
    kv = _whole("kv_heads", s.get("kv_heads", heads))
    if "kv_heads" in s and (kv < 1 or heads < 1 or kv > heads or heads % kv != 0):
        raise SceneError(f"kv_heads: must divide heads = {heads} (1 = multi-query, {heads} = one K/V per head), "
                         f"got {kv}")
    needed = ("Q", "K", "V") if direct else ("X", "Wq", "Wk", "Wv")
    for key in needed:
        if key not in m:
            raise SceneError(f"{key}: missing (a {'direct' if direct else 'projected'} scene has "
                             + ", ".join(needed) + ")")
    d_q = m["Q"].shape[1] if direct else m["Wq"].shape[1]
    grouped = kv != heads and heads >= 1 and d_q % heads == 0
    d_key = d_q // heads * kv if grouped else d_q
    key_why = f" (d_k/h × kv_heads = {d_q // heads} × {kv}: one key per K/V group)" if grouped else ""
    per_token = " (one per token)"
    if direct:
        _check_matrix("Q", m["Q"], n, per_token)
        _check_matrix("K", m["K"], n, per_token, d_key, key_why or " (d_k, from Q)")
        _check_matrix("V", m["V"], n, per_token)
    else:
        _check_matrix("X", m["X"], n, per_token)
        per_dim = " (d_model, the columns of X)"
        d_model = m["X"].shape[1]
        _check_matrix("Wq", m["Wq"], d_model, per_dim)
        _check_matrix("Wk", m["Wk"], d_model, per_dim, d_key, key_why or " (d_k, from Wq)")
        _check_matrix("Wv", m["Wv"], d_model, per_dim)
    scale = s.get("scale", "sqrt_dk")
    if isinstance(scale, str):
        if scale not in ("none", "sqrt_dk"):
            raise SceneError(f'{SCALE_RULE} (got "{scale}")')
    elif isinstance(scale, bool) or not isinstance(scale, (int, float)) or \
            not MIN_TEMPERATURE <= scale <= MAX_TEMPERATURE:
        raise SceneError(f"{SCALE_RULE} (got {json.dumps(float(scale) if isinstance(scale, int) and not isinstance(scale, bool) else scale)})")
    if "mask" in s:
        mask = np.asarray(s["mask"])
        rule = f" (n×n of 0/1, n = {n} tokens)"
        if mask.ndim != 2:
            raise SceneError(f"mask: expected an n×n matrix of 0/1{rule}, got shape {tuple(mask.shape)}")
        _check_shape("mask", mask, n, rule, n, rule)
        bad = ~np.isin(mask, (0, 1))
        if bad.any():
            i, j = (int(t) for t in np.argwhere(bad)[0])
            raise SceneError(f"mask: row {i}, entry {j} must be 0 or 1")
    d_k = d_q
    d_v = m["V"].shape[1] if direct else m["Wv"].shape[1]
    if heads < 1 or heads > MAX_HEADS:
        raise SceneError(f"heads: must be 1 to {MAX_HEADS}, got {heads}")
    if kv == heads and (d_k % heads or d_v % heads):
        raise SceneError(f"heads: {heads} does not divide d_k = {d_k} and d_v = {d_v} "
                         "(each head takes d_k/h and d_v/h columns)")
    if kv != heads and d_k % heads:
        raise SceneError(f"heads: {heads} does not divide d_k = {d_k} (each head takes d_k/h query columns)")
    if kv != heads and d_v % kv:
        raise SceneError(f"kv_heads: {kv} does not divide d_v = {d_v} (each K/V group takes d_v/kv_heads "
                         "value columns)")
    if "Wo" in m:
        concat = heads * d_v // kv if kv != heads else d_v
        why = (" (h·d_v/kv_heads, the concat's columns)" if kv != heads
               else " (d_v, the columns of V)" if direct else " (d_v, the columns of Wv)")
        _check_matrix("Wo", m["Wo"], concat, why)


# ---------------------------------------------------------------------------------------------
# Building scenes
# ---------------------------------------------------------------------------------------------

def _scale_json(scale):
    if scale in ("sqrt", "sqrt_dk"):
        return "sqrt_dk"
    if scale is None or scale == "none":
        return "none"
    if isinstance(scale, str) or isinstance(scale, bool):
        raise SceneError(f'{SCALE_RULE} (got "{scale}"; "sqrt" is accepted for "sqrt_dk")')
    return float(scale)


def _mask_json(mask, n):
    """A mask (1/True = may attend, the app's convention) as rows of 0/1 ints."""
    a = _numpy(mask)
    if a.ndim == 3:
        raise SceneError(f"mask: has a batch dimension (shape {tuple(a.shape)}); a scene is one sequence: "
                         "pick one item, e.g. mask[0]")
    rule = f" (n×n of 0/1, n = {n} tokens)"
    if a.ndim != 2:
        raise SceneError(f"mask: expected an n×n matrix of 0/1{rule}, got shape {tuple(a.shape)}")
    if a.dtype == bool:
        return a.astype(int).tolist()
    bad = ~np.isin(a, (0, 1))
    if bad.any():
        i, j = (int(t) for t in np.argwhere(bad)[0])
        raise SceneError(f"mask: row {i}, entry {j} must be 0 or 1")
    return a.astype(int).tolist()


def _finish(s, n, tokens, causal, scale, heads, kv_heads, mask, w_o, window, sinks, alibi, rope, validate):
    """The options, in the app's key order, then the checks (the app's own when `validate`)."""
    if tokens is None:
        tokens = [f"t{i}" for i in range(n)]
    s["tokens"] = [str(t) for t in tokens]
    # tokens first after version, as the app writes it
    ordered = {"version": SCENE_VERSION, "tokens": s.pop("tokens")}
    ordered.update(s)
    s = ordered
    s["scale"] = _scale_json(scale)
    s["causal"] = bool(causal)
    if mask is not None:
        s["mask"] = _mask_json(mask, n)
    if heads is not None and int(heads) != 1:
        s["heads"] = _whole("heads", heads)
    if w_o is not None:
        s["Wo"] = _matrix_json(as_matrix("Wo", w_o))
    if rope is not None:
        s["rope"] = {"base": 10000.0, "layout": "interleaved"} if rope is True else dict(rope)
    if kv_heads is not None:
        s["kv_heads"] = _whole("kv_heads", kv_heads)
    if window:
        s["window"] = _whole("window", window)
    if sinks:
        s["sinks"] = _whole("sinks", sinks)
    if alibi:
        s["alibi"] = True
    check(s)
    if validate:
        from ._cli import validate as cli_validate
        cli_validate(s, required=False)
    return s


def scene(q, k, v, *, tokens=None, causal=False, scale="sqrt", heads=None, kv_heads=None, mask=None,
          w_o=None, window=None, sinks=None, alibi=False, rope=None, validate=True):
    """A direct scene (version 2) from Q (n×d_k), K (n×d_k, or n×(d_k/h·kv_heads) with kv_heads) and
    V (n×d_v): NumPy arrays, torch tensors of any float dtype, or nested lists.

    tokens: n labels (default t0, t1, …). causal: token i sees 0…i only. scale: "sqrt" (÷ √(d_k/h)),
    "none" or a temperature. heads / kv_heads: multi-head and grouped-query attention (head t uses
    columns [t·d_k/h, (t+1)·d_k/h)). mask: n×n, 1/True = may attend (PyTorch's boolean attn_mask is
    the opposite). w_o: the output map (concat · W_o). window, sinks, alibi, rope: the variants of
    docs/SCENE_FORMAT.md. validate: also ask attention-lab-cli, when it can be found, to read the
    scene (every rule of the app). A bad input raises SceneError with the app's message."""
    Q, K, V = as_matrix("Q", q), as_matrix("K", k), as_matrix("V", v)
    s = {"Q": _matrix_json(Q), "K": _matrix_json(K), "V": _matrix_json(V)}
    return _finish(s, Q.shape[0], tokens, causal, scale, heads, kv_heads, mask, w_o, window, sinks, alibi, rope,
                   validate)


def scene_from_projections(x, w_q, w_k, w_v, w_o=None, *, tokens=None, causal=False, scale="sqrt", heads=None,
                           kv_heads=None, mask=None, window=None, sinks=None, alibi=False, rope=None,
                           validate=True):
    """A projected ("learned") scene: Q = X·W_q, K = X·W_k, V = X·W_v with X n×d_model and each W
    d_model×d (the x·W convention; nn.Linear's weight is W transposed). The options as scene()."""
    X = as_matrix("X", x)
    s = {"X": _matrix_json(X), "Wq": _matrix_json(as_matrix("Wq", w_q)), "Wk": _matrix_json(as_matrix("Wk", w_k)),
         "Wv": _matrix_json(as_matrix("Wv", w_v))}
    return _finish(s, X.shape[0], tokens, causal, scale, heads, kv_heads, mask, w_o, window, sinks, alibi, rope,
                   validate)


def load(path_or_dict):
    """A scene exported by the app (a file path, JSON text or a dict) as a dict whose matrices are
    float64 NumPy arrays (Q, K, V or X, Wq, Wk, Wv; Wo) and whose mask is a bool array (True = may
    attend); the other keys as they are. A scene newer than this package reads is refused, naming
    both versions."""
    if isinstance(path_or_dict, dict):
        s = dict(path_or_dict)
    elif isinstance(path_or_dict, (list, tuple)):
        raise SceneError(f"scene: expected one scene (a dict, JSON text or a file), got a {type(path_or_dict).__name__} "
                         f"of {len(path_or_dict)} (capture gives a list of scenes: pick one, e.g. scenes[0])")
    else:
        text = str(path_or_dict)
        if not text.lstrip().startswith("{"):
            with open(os.fspath(path_or_dict), encoding="utf-8") as f:
                text = f.read()
        try:
            s = json.loads(text)
        except json.JSONDecodeError as e:
            raise SceneError(f"input: not JSON ({e})") from None
    check(s)
    out = {}
    for key, value in s.items():
        if key in MATRIX_KEYS:
            out[key] = as_matrix(key, value)
        elif key == "mask":
            out[key] = np.asarray(value, dtype=np.int64) == 1
        else:
            out[key] = value
    return out


def scene_json(s):
    """A scene dict (matrices may be NumPy arrays, as load() gives them) as compact JSON text."""
    def plain(value):
        if isinstance(value, np.ndarray):
            return value.astype(int).tolist() if value.dtype == bool else value.tolist()
        if isinstance(value, (np.floating,)):
            return float(value)
        if isinstance(value, (np.integer,)):
            return int(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise SceneError(f"scene: {value} is not a finite number")
        return value
    return json.dumps({k: plain(v) for k, v in s.items()}, separators=(",", ":"), allow_nan=False,
                      ensure_ascii=False)
