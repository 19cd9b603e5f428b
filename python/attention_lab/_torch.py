"""PyTorch in: from_torch(nn.MultiheadAttention, x) and capture(model).

A self-attention call of nn.MultiheadAttention(E, h) is exactly a projected scene with h heads:
Wq, Wk, Wv the transposed blocks of in_proj_weight, Wo = out_proj.weight transposed, the scale
√(E/h) ("sqrt_dk" per head). Its input-projection biases have a place: X gains a last column of
ones and each W a last row holding the bias (X·W + b = [X | 1]·[W; b]), shown in the lab as the
token feature "1". The output bias has none (the scene's output is concat · Wo), so a nonzero one is
refused unless out_bias="drop" (the weights and every stage but the output are unaffected).
"""
import numpy as np

from ._errors import SceneError
from ._scene import scene_from_projections


def _torch():
    try:
        import torch
    except ImportError:  # pragma: no cover - the message is the point
        raise ImportError("attention_lab: from_torch and capture need PyTorch (Debian: python3-torch)") from None
    return torch


def _np(t):
    return t.detach().to("cpu").double().numpy()


def _allowed(attn_mask, key_padding_mask, n):
    """The app's 0/1 mask (1 = may attend) from PyTorch's masks, or None when everything is allowed.
    attn_mask: bool (True = blocked) or float (0 = allowed, -inf = blocked), L×S or one per head;
    key_padding_mask: (S,) or (1, S), True = padding."""
    allowed = np.ones((n, n), dtype=bool)
    if attn_mask is not None:
        m = attn_mask.detach().to("cpu")
        if m.dim() == 3:
            if not bool((m == m[:1]).all()):
                raise SceneError("attn_mask: differs between heads; the scene has one mask for every head")
            m = m[0]
        if tuple(m.shape) != (n, n):
            raise SceneError(f"attn_mask: has shape {tuple(m.shape)}, expected {n}×{n} (n×n, n = {n} tokens)")
        if m.dtype == _torch().bool:
            blocked = m.numpy()
        else:
            a = m.double().numpy()
            if not np.all((a == 0) | np.isneginf(a)):
                raise SceneError("attn_mask: a float mask may only hold 0 (attend) and -inf (blocked); the "
                                 "scene's mask is 0/1 and has no place for other additive values")
            blocked = np.isneginf(a)
        allowed &= ~blocked
    if key_padding_mask is not None:
        p = key_padding_mask.detach().to("cpu")
        if p.dim() == 2:
            if p.shape[0] != 1:
                raise SceneError(f"key_padding_mask: has a batch dimension (shape {tuple(p.shape)}); a scene is "
                                 "one sequence: pick one item, e.g. key_padding_mask[0]")
            p = p[0]
        if tuple(p.shape) != (n,):
            raise SceneError(f"key_padding_mask: has shape {tuple(p.shape)}, expected ({n},) (one per token)")
        if p.dtype == _torch().bool:
            pad = p.numpy()
        else:
            a = p.double().numpy()
            if not np.all((a == 0) | np.isneginf(a)):
                raise SceneError("key_padding_mask: a float mask may only hold 0 (a token) and -inf (padding); the "
                                 "scene's mask is 0/1 and has no place for other additive values")
            pad = np.isneginf(a)
        allowed &= ~pad[None, :]
    return None if allowed.all() else allowed


def _one_sequence(x, batch_first, item, name="x"):
    """x as n×E: a 2-D input as it is, a 3-D one's item `item` (default: a batch of one)."""
    if x.dim() == 2:
        return x
    if x.dim() != 3:
        raise SceneError(f"{name}: expected (n, E) or a batch, got shape {tuple(x.shape)}")
    batch = x.shape[0] if batch_first else x.shape[1]
    if item is None:
        if batch != 1:
            pick = f"{name}[0]" if batch_first else f"{name}[:, 0]"
            raise SceneError(f"{name}: has a batch dimension (shape {tuple(x.shape)}, {batch} sequences); a scene is "
                             f"one sequence: pick one item, e.g. {pick} (capture: item=0)")
        item = 0
    if not 0 <= item < batch:
        raise SceneError(f"item: {item} is not in the batch of {batch}")
    return x[item] if batch_first else x[:, item]


def from_torch(module, x, *, attn_mask=None, key_padding_mask=None, tokens=None, out_bias="refuse", item=None,
               validate=True):
    """The scene of `module` (an nn.MultiheadAttention) attending over `x` (n×E, or a batch of one in
    the module's layout) to itself: X = x, its projections and heads, the mask from attn_mask /
    key_padding_mask (PyTorch's convention: True = blocked). The lab's weights are then the module's
    attn_output_weights (average_attn_weights=False per head) and its output the module's output."""
    torch = _torch()
    if not isinstance(module, torch.nn.MultiheadAttention):
        raise SceneError(f"from_torch: expected a torch.nn.MultiheadAttention, got {type(module).__name__} "
                         "(for a model that contains one, use attention_lab.capture(model))")
    if not module._qkv_same_embed_dim:
        raise SceneError("from_torch: this nn.MultiheadAttention has kdim/vdim different from embed_dim, so its "
                         "keys and values come from another sequence; a scene's tokens attend to themselves")
    if module.bias_k is not None or module.add_zero_attn:
        raise SceneError("from_torch: add_bias_kv / add_zero_attn add a key the sequence does not have; the scene "
                         "has one key per token")
    if out_bias not in ("refuse", "drop"):
        raise SceneError(f'out_bias: must be "refuse" or "drop", got {out_bias!r}')
    X = _np(_one_sequence(torch.as_tensor(x), module.batch_first, item))
    n, E = X.shape
    if E != module.embed_dim:
        raise SceneError(f"x: has {E} columns, expected embed_dim = {module.embed_dim}")
    W = _np(module.in_proj_weight)
    Wq, Wk, Wv = W[:E].T, W[E:2 * E].T, W[2 * E:].T
    b = None if module.in_proj_bias is None else _np(module.in_proj_bias)
    if b is not None and np.any(b != 0):
        X = np.hstack([X, np.ones((n, 1))])
        Wq, Wk, Wv = (np.vstack([w, bias[None, :]]) for w, bias in ((Wq, b[:E]), (Wk, b[E:2 * E]), (Wv, b[2 * E:])))
    ob = module.out_proj.bias
    if ob is not None and bool((ob != 0).any()) and out_bias == "refuse":
        raise SceneError("out_proj.bias: is not zero, and the scene has no output bias (its output is concat · Wo); "
                         "pass out_bias=\"drop\" to leave it out (weights and every other stage are unaffected; "
                         "the lab's output is then the module's minus this bias)")
    mask = _allowed(attn_mask, key_padding_mask, n)
    causal = mask is not None and np.array_equal(mask, np.tril(np.ones((n, n), dtype=bool)))
    return scene_from_projections(X, Wq, Wk, Wv, _np(module.out_proj.weight).T, tokens=tokens, causal=causal,
                                  heads=module.num_heads, mask=None if causal or mask is None else mask,
                                  validate=validate)


def _detached(out):
    """The model's output as the caller's no_grad mode would have given it: tensors detached."""
    torch = _torch()
    if isinstance(out, torch.Tensor):
        return out.detach()
    if isinstance(out, (tuple, list)):
        return type(out)(_detached(o) for o in out)
    return out


class Capture(list):
    """The scenes of every recorded nn.MultiheadAttention call, in call order (a list), with
    `names` (each call's module, e.g. "layers.1.self_attn") and `skipped` ((name, reason) of calls
    that have no scene, e.g. cross-attention)."""

    def __init__(self):
        super().__init__()
        self.names = []
        self.skipped = []


class capture:
    """with attention_lab.capture(model, tokens=None, item=None, out_bias="refuse") as scenes: model(x)

    Records every nn.MultiheadAttention call inside `model` (nn.TransformerEncoder, your own
    module, …) as a scene per call, in order. A batch must hold one sequence, or pick one with item=.
    While recording, the model runs its ordinary (slow) path: PyTorch's fused fast path for
    transformer layers in eval mode skips the attention module entirely, so grad mode is kept on
    for the call."""

    def __init__(self, model, *, tokens=None, item=None, out_bias="refuse"):
        torch = _torch()
        if not isinstance(model, torch.nn.Module):
            raise SceneError(f"capture: expected a torch.nn.Module, got {type(model).__name__}")
        self.model, self.tokens, self.item, self.out_bias = model, tokens, item, out_bias
        self.scenes = Capture()
        self._patched = []

    def _record(self, name, module, original):
        def forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, *args, **kwargs):
            if module.training and module.dropout > 0:
                self.scenes.skipped.append((name, "training with dropout: the weights are random; call "
                                                  "model.eval() first"))
            elif not (query is key and key is value):
                self.scenes.skipped.append((name, "query, key and value differ (cross-attention); a scene's "
                                                  "tokens attend to themselves"))
            else:
                try:
                    self.scenes.append(from_torch(module, query, attn_mask=attn_mask, key_padding_mask=(
                        None if key_padding_mask is None else
                        key_padding_mask[self.item or 0:(self.item or 0) + 1]), tokens=self.tokens,
                        out_bias=self.out_bias, item=self.item, validate=False))
                    self.scenes.names.append(name)
                except SceneError as e:
                    self.scenes.skipped.append((name, str(e)))
            return original(query, key, value, key_padding_mask, need_weights, attn_mask, *args, **kwargs)
        return forward

    def __enter__(self):
        torch = _torch()
        for name, module in self.model.named_modules():
            if isinstance(module, torch.nn.MultiheadAttention):
                original = module.forward
                module.forward = self._record(name or type(module).__name__, module, original)
                self._patched.append(module)
        model_forward = self.model.forward

        def forward_with_grad_mode(*args, **kwargs):
            grad_was_on = torch.is_grad_enabled()
            with torch.enable_grad():
                out = model_forward(*args, **kwargs)
            return out if grad_was_on else _detached(out)
        self.model.forward = forward_with_grad_mode
        self._patched.append(self.model)
        return self.scenes

    def __exit__(self, *exc):
        for module in self._patched:
            module.__dict__.pop("forward", None)  # the instance's wrapper; the class's forward shows again
        self._patched = []
        return False
