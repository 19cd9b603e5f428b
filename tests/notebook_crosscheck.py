"""notebook_crosscheck.py CLI — the Python package python/attention_lab against PyTorch (float64).

Scenes built by the package from NumPy arrays and from nn.MultiheadAttention (heads 1, 2, 4; with
and without masks and input biases; grouped-query attention through repeat_interleave) are computed
by the project's core (attention-lab-cli, through attention_lab.result) and must equal PyTorch's
attn_output_weights and output within 1e-12. capture() on a 2-layer nn.TransformerEncoder must give
one scene per layer, each matching that layer's own attention weights. Bad input must raise
SceneError with the app's own message (the Python checks say what the CLI says, word for word).
Exit 77 (SKIP) when numpy or torch is missing.
"""
import json
import os
import re
import sys
import unittest
from pathlib import Path

from cli_lib import require

np = require("numpy")
torch = require("torch")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
import attention_lab as al  # noqa: E402  (the package from this checkout)
from attention_lab._cli import run_cli  # noqa: E402

TOL = 1e-12


def torch_mha(E, h, seed, in_bias=False):
    """A float64 nn.MultiheadAttention(E, h) with seed-`seed` weights (batch_first)."""
    torch.manual_seed(seed)
    m = torch.nn.MultiheadAttention(E, h, batch_first=True).double().eval()
    with torch.no_grad():
        if in_bias:
            m.in_proj_bias.normal_()
    return m


def identity_mha(E, h):
    """nn.MultiheadAttention whose projections are the identity: mha(Q, K, V) is plain attention over
    the given Q, K, V with h heads, the reference for a direct scene."""
    m = torch.nn.MultiheadAttention(E, h, batch_first=True).double().eval()
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.cat([torch.eye(E, dtype=torch.float64)] * 3))
        m.in_proj_bias.zero_()
        m.out_proj.weight.copy_(torch.eye(E, dtype=torch.float64))
        m.out_proj.bias.zero_()
    return m


def per_head(r, h):
    """The lab's per-head weights as an h×n×n array (one head: the single-head form)."""
    if h == 1:
        return r["weights"][None]
    return np.stack([head["weights"] for head in r["heads"]])


def random_mask(rng, n):
    """A 0/1 mask (1 = may attend) whose diagonal is allowed (PyTorch gives NaN on a fully masked
    row, the lab zeros; that case is the lab's own contract, not compared here)."""
    m = rng.random((n, n)) < 0.6
    np.fill_diagonal(m, True)
    return m


class DirectScenes(unittest.TestCase):
    def test_random_arrays_match_mha(self):
        rng = np.random.default_rng(40)
        for case in range(24):
            h = (1, 2, 4)[case % 3]
            n, E = int(rng.integers(2, 9)), h * int(rng.integers(1, 4))
            Q, K, V = (rng.normal(size=(n, E)) * 2 for _ in range(3))
            causal = case % 2 == 1
            mask = random_mask(rng, n) if case % 4 >= 2 else None
            s = al.scene(Q, K, V, heads=h, causal=causal, mask=mask)
            r = al.result(s)
            blocked = np.zeros((n, n), dtype=bool)
            if causal:
                blocked |= np.triu(np.ones((n, n), dtype=bool), 1)
            if mask is not None:
                blocked |= ~mask
            t = [torch.from_numpy(a)[None] for a in (Q, K, V)]
            out, w = identity_mha(E, h)(*t, attn_mask=torch.from_numpy(blocked), average_attn_weights=False)
            with self.subTest(case=case, h=h, causal=causal, mask=mask is not None):
                np.testing.assert_allclose(per_head(r, h), w[0].detach().numpy(), rtol=0, atol=TOL)
                np.testing.assert_allclose(r["output"], out[0].detach().numpy(), rtol=0, atol=TOL)

    def test_float32_and_torch_inputs_widen_exactly(self):
        rng = np.random.default_rng(1)
        q32 = rng.normal(size=(4, 2)).astype(np.float32)
        s = al.scene(torch.from_numpy(q32), q32, q32)
        self.assertEqual(s["Q"], q32.astype(np.float64).tolist())
        self.assertEqual(s["version"], al.SCENE_VERSION)

    def test_gqa_matches_mha_on_repeat_interleaved_kv(self):
        rng = np.random.default_rng(7)
        for h, kv in ((4, 2), (4, 1), (2, 1), (4, 4)):
            n, dh = 6, 3
            Q = rng.normal(size=(n, h * dh))
            Kg, Vg = rng.normal(size=(n, kv * dh)), rng.normal(size=(n, kv * dh))
            r = al.result(al.scene(Q, Kg, Vg, heads=h, kv_heads=kv, causal=True))
            # Head t reads K/V group t // (h / kv): the order of repeat_interleave over the groups.
            full = [torch.from_numpy(g).reshape(n, kv, dh).repeat_interleave(h // kv, dim=1).reshape(n, h * dh)
                    for g in (Kg, Vg)]
            out, w = identity_mha(h * dh, h)(torch.from_numpy(Q)[None], full[0][None], full[1][None],
                                             attn_mask=torch.ones(n, n, dtype=torch.bool).triu(1),
                                             average_attn_weights=False)
            with self.subTest(h=h, kv=kv):
                np.testing.assert_allclose(per_head(r, h), w[0].detach().numpy(), rtol=0, atol=TOL)
                np.testing.assert_allclose(r["output"], out[0].detach().numpy(), rtol=0, atol=TOL)


class Variants(unittest.TestCase):
    def test_variant_keys_reach_the_core(self):
        rng = np.random.default_rng(11)
        n = 6
        Q, K, V = (rng.normal(size=(n, 4)) for _ in range(3))
        r = al.result(al.scene(Q, K, V, causal=True, window=2, sinks=1))
        # SCENE_FORMAT.md: key j is visible from query i when j < sinks or 0 <= i - j < window.
        i, j = np.indices((n, n))
        np.testing.assert_array_equal(r["allowed"], (j <= i) & ((j < 1) | (i - j < 2)))
        self.assertIn("Q_rope", al.result(al.scene(Q, K, V, rope=True)))
        self.assertEqual(al.result(al.scene(Q, K, V, alibi=True))["bias"].shape, (n, n))

    def test_rules_only_the_app_checks_come_from_the_app(self):
        q = np.ones((3, 3))
        with self.assertRaises(al.SceneError) as got:
            al.scene(q, q, q, rope=True)
        self.assertEqual(str(got.exception), "rope: each head's size must be even to form pairs (d_k = 3)")
        with self.assertRaisesRegex(al.SceneError, r"^sinks: sink tokens stay visible past a sliding window"):
            al.scene(q, q, q, sinks=1)


class FromTorch(unittest.TestCase):
    def check_module(self, m, x, h, **masks):
        s = al.from_torch(m, x, **masks)
        r = al.result(s)
        tm = {k: (v[None] if k == "key_padding_mask" else v) for k, v in masks.items()}
        out, w = m(x[None], x[None], x[None], average_attn_weights=False, **tm)
        np.testing.assert_allclose(per_head(r, h), w[0].detach().numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(r["output"], out[0].detach().numpy(), rtol=0, atol=TOL)
        # The averaged weights, as PyTorch's default need_weights gives them.
        _, w_mean = m(x[None], x[None], x[None], **tm)
        np.testing.assert_allclose(r["weights"], w_mean[0].detach().numpy(), rtol=0, atol=TOL)
        return s

    def test_heads_masks_and_input_biases(self):
        n, E = 6, 8
        causal_float = torch.full((n, n), float("-inf"), dtype=torch.float64).triu(1)
        bool_mask = torch.from_numpy(~random_mask(np.random.default_rng(3), n))
        padding = torch.tensor([False] * (n - 2) + [True] * 2)
        for h in (1, 2, 4):
            for in_bias in (False, True):
                for name, masks in (("none", {}), ("causal float", {"attn_mask": causal_float}),
                                    ("bool", {"attn_mask": bool_mask}), ("padding", {"key_padding_mask": padding})):
                    m = torch_mha(E, h, seed=h, in_bias=in_bias)
                    torch.manual_seed(100 + h)
                    x = torch.randn(n, E, dtype=torch.float64)
                    with self.subTest(h=h, in_bias=in_bias, mask=name):
                        s = self.check_module(m, x, h, **masks)
                        self.assertEqual(s.get("heads", 1), h)
                        self.assertEqual(len(s["X"][0]), E + 1 if in_bias else E)  # the ones column
                        self.assertEqual(s["causal"], name == "causal float")

    def test_output_bias_is_refused_or_dropped(self):
        m = torch_mha(8, 2, seed=5)
        with torch.no_grad():
            m.out_proj.bias.normal_()
        x = torch.randn(5, 8, dtype=torch.float64)
        with self.assertRaisesRegex(al.SceneError, r"^out_proj\.bias: is not zero, and the scene has no output bias"):
            al.from_torch(m, x)
        r = al.result(al.from_torch(m, x, out_bias="drop"))
        out, w = m(x[None], x[None], x[None])
        np.testing.assert_allclose(r["weights"], w[0].detach().numpy(), rtol=0, atol=TOL)
        np.testing.assert_allclose(r["output"] + m.out_proj.bias.detach().numpy(), out[0].detach().numpy(),
                                   rtol=0, atol=TOL)

    def test_float32_module(self):
        torch.manual_seed(0)
        m = torch.nn.MultiheadAttention(4, 2, batch_first=True).eval()  # float32, as models are
        x = torch.randn(1, 3, 4)
        r = al.result(al.from_torch(m, x))
        # The lab computes in float64 from the float32 numbers: PyTorch's float64 run of the same module.
        out, w = m.double()(x.double(), x.double(), x.double())
        np.testing.assert_allclose(r["weights"], w[0].detach().numpy(), rtol=0, atol=TOL)


class Capture(unittest.TestCase):
    def encoder(self, out_bias=False):
        torch.manual_seed(0)
        layer = torch.nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.0, batch_first=True)
        enc = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).double().eval()
        with torch.no_grad():
            for lay in enc.layers:
                lay.self_attn.in_proj_bias.normal_()
                if out_bias:
                    lay.self_attn.out_proj.bias.normal_()
        return enc

    def layer_weights(self, enc, x, mask):
        """Each layer's own attention weights (per head), computed on that layer's input."""
        ws, h = [], x
        for lay in enc.layers:
            _, w = lay.self_attn(h, h, h, attn_mask=mask, average_attn_weights=False)
            ws.append(w[0].detach().numpy())
            h = lay(h, src_mask=mask)
        return ws

    def test_two_layer_encoder_one_scene_per_layer(self):
        enc = self.encoder()
        n = 7
        torch.manual_seed(1)
        x = torch.randn(1, n, 16, dtype=torch.float64)
        causal = torch.full((n, n), float("-inf"), dtype=torch.float64).triu(1)
        for mask in (None, causal):
            for grad in (True, False):  # no_grad + eval is where PyTorch's fused path would skip the module
                with torch.set_grad_enabled(grad), al.capture(enc, tokens=list("abcdefg")) as scenes:
                    y = enc(x, mask=mask)
                with self.subTest(mask=mask is not None, grad=grad):
                    self.assertEqual(len(scenes), 2, scenes.skipped)
                    self.assertEqual(scenes.names, ["layers.0.self_attn", "layers.1.self_attn"])
                    self.assertEqual(y.requires_grad, grad)
                    for s, w in zip(scenes, self.layer_weights(enc, x, mask)):
                        self.assertEqual(s["tokens"], list("abcdefg"))
                        self.assertEqual(s["causal"], mask is not None)
                        np.testing.assert_allclose(per_head(al.result(s), 4), w, rtol=0, atol=TOL)
        # The model is itself again: no recording after the block.
        self.assertNotIn("forward", enc.__dict__)
        self.assertNotIn("forward", enc.layers[0].self_attn.__dict__)

    def test_batches_items_and_output_bias(self):
        enc = self.encoder(out_bias=True)
        x = torch.randn(3, 5, 16, dtype=torch.float64)
        with al.capture(enc) as scenes:
            enc(x)
        self.assertEqual(len(scenes), 0)
        self.assertEqual(len(scenes.skipped), 2)
        self.assertRegex(scenes.skipped[0][1], r"^x: has a batch dimension .* pick one item, e\.g\. x\[0\] \(capture: item=0\)")
        with al.capture(enc, item=2, out_bias="drop") as scenes:
            enc(x)
        self.assertEqual(len(scenes), 2, scenes.skipped)
        _, w = enc.layers[0].self_attn(x[2:3], x[2:3], x[2:3], average_attn_weights=False)
        np.testing.assert_allclose(per_head(al.result(scenes[0]), 4), w[0].detach().numpy(), rtol=0, atol=TOL)

    def test_cross_attention_is_skipped_with_its_reason(self):
        torch.manual_seed(0)
        dec = torch.nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True).double().eval()
        tgt, memory = torch.randn(1, 4, 8, dtype=torch.float64), torch.randn(1, 5, 8, dtype=torch.float64)
        with al.capture(dec) as scenes:
            dec(tgt, memory)
        self.assertEqual(scenes.names, ["self_attn"])
        self.assertEqual([name for name, _ in scenes.skipped], ["multihead_attn"])
        self.assertIn("cross-attention", scenes.skipped[0][1])
        _, w = dec.self_attn(tgt, tgt, tgt, average_attn_weights=False)
        np.testing.assert_allclose(per_head(al.result(scenes[0]), 2), w[0].detach().numpy(), rtol=0, atol=TOL)

    def test_an_error_inside_the_block_leaves_the_model_unpatched(self):
        enc = self.encoder()
        with self.assertRaises((AssertionError, RuntimeError)):  # PyTorch 1.13 asserts the width
            with al.capture(enc):
                enc(torch.randn(1, 4, 15, dtype=torch.float64))  # wrong width: PyTorch's own error
        self.assertNotIn("forward", enc.layers[1].self_attn.__dict__)


def cli_message(s):
    """What attention-lab-cli says about scene dict `s` (bypassing the package's checks)."""
    try:
        run_cli(json.dumps(s), ["--compact"])
    except al.SceneError as e:
        return str(e)
    return None


class BadInput(unittest.TestCase):
    def base(self):
        rng = np.random.default_rng(2)
        return {"version": 2, "tokens": ["a", "b", "c"], "Q": rng.normal(size=(3, 4)).tolist(),
                "K": rng.normal(size=(3, 4)).tolist(), "V": rng.normal(size=(3, 4)).tolist(),
                "scale": "sqrt_dk", "causal": False}

    def test_python_checks_speak_the_apps_words(self):
        cases = {
            "K rows": {"K": [[1.0] * 4] * 2},
            "K columns": {"K": [[1.0] * 3] * 3},
            "ragged V": {"V": [[1.0] * 4, [1.0] * 4, [1.0] * 3]},
            "heads": {"heads": 3},
            "too many heads": {"heads": 32},
            "kv_heads": {"heads": 4, "kv_heads": 3},
            "mask shape": {"mask": [[1, 1], [1, 1]]},
            "mask value": {"mask": [[1, 0, 1], [1, 1, 2], [1, 1, 1]]},
            "big number": {"Q": [[1.0] * 4, [1.0, 2e15, 1.0, 1.0], [1.0] * 4]},
            "scale": {"scale": "sqrt"},
            "scale 0": {"scale": 0},
            "Wo rows": {"Wo": [[1.0]] * 3},
            "version 1 key": {"version": 1, "heads": 2},
            "unknown key": {"Wz": [[1.0]]},
            "no tokens": {"tokens": [], "Q": [], "K": [], "V": []},
        }
        for name, change in cases.items():
            s = {**self.base(), **change}
            with self.subTest(name):
                expected = cli_message(s)
                self.assertIsNotNone(expected, "the CLI must refuse this scene")
                with self.assertRaises(al.SceneError) as got:
                    al.load(s)
                self.assertEqual(str(got.exception), expected)

    def test_bad_arrays(self):
        q = np.zeros((3, 4))
        for value, message in ((np.nan, "Q: row 1, entry 2 is not a finite number"),
                               (np.inf, "Q: row 1, entry 2 is not a finite number")):
            bad = q.copy()
            bad[1, 2] = value
            with self.subTest(value=value), self.assertRaises(al.SceneError) as got:
                al.scene(bad, q, q)
            self.assertEqual(str(got.exception), message)
        with self.assertRaises(al.SceneError) as got:
            al.scene(np.zeros((2, 3, 4)), q, q)
        self.assertEqual(str(got.exception), "Q: has a batch dimension (shape (2, 3, 4)); a scene is one sequence: "
                                             "pick one item, e.g. Q[0]")
        with self.assertRaisesRegex(al.SceneError, r"^K: expected a matrix \(2 dimensions\), got shape \(4,\)$"):
            al.scene(q, np.zeros(4), q)
        with self.assertRaisesRegex(al.SceneError, r"^Wk: row 0 has 3 entries, expected 4 \(d_k, from Wq\)$"):
            al.scene_from_projections(np.zeros((3, 5)), np.zeros((5, 4)), np.zeros((5, 3)), np.zeros((5, 4)))
        with self.assertRaisesRegex(al.SceneError, r"^mask: row 0, entry 1 must be 0 or 1$"):
            al.scene(q, q, q, mask=[[1, 5, 1], [1, 1, 1], [1, 1, 1]])

    def test_modules_and_batches(self):
        with self.assertRaisesRegex(al.SceneError, r"^from_torch: expected a torch\.nn\.MultiheadAttention, got Linear"):
            al.from_torch(torch.nn.Linear(4, 4), torch.zeros(3, 4))
        m = torch_mha(8, 2, seed=0)
        with self.assertRaisesRegex(al.SceneError, r"^x: has a batch dimension \(shape \(2, 3, 8\), 2 sequences\).*x\[0\]"):
            al.from_torch(m, torch.zeros(2, 3, 8, dtype=torch.float64))
        seq_first = torch.nn.MultiheadAttention(8, 2).double()
        with self.assertRaisesRegex(al.SceneError, r"pick one item, e\.g\. x\[:, 0\]"):
            al.from_torch(seq_first, torch.zeros(3, 2, 8, dtype=torch.float64))
        with self.assertRaisesRegex(al.SceneError, r"^attn_mask: a float mask may only hold 0"):
            al.from_torch(m, torch.zeros(3, 8, dtype=torch.float64), attn_mask=torch.ones(3, 3))
        with self.assertRaisesRegex(al.SceneError, r"^key_padding_mask: a float mask may only hold 0"):
            al.from_torch(m, torch.zeros(3, 8, dtype=torch.float64), key_padding_mask=torch.tensor([0.0, 0.5, 0.0]))
        with self.assertRaisesRegex(al.SceneError, r"^attn_mask: has shape \(2, 2\), expected 3×3"):
            al.from_torch(m, torch.zeros(3, 8, dtype=torch.float64), attn_mask=torch.zeros(2, 2, dtype=torch.bool))
        with self.assertRaisesRegex(al.SceneError, r"^capture: expected a torch\.nn\.Module, got list"):
            al.capture([])

    def test_a_list_of_scenes_is_not_a_scene(self):
        s = al.scene(np.eye(2), np.eye(2), np.eye(2))
        for call in (al.result, al.load, al.link):
            with self.subTest(call.__name__), self.assertRaisesRegex(
                    al.SceneError, r"^scene: expected one scene .* got a list of 2 .*pick one, e\.g\. scenes\[0\]\)$"):
                call([s, s])

    def test_newer_scene_names_both_versions(self):
        s = {**self.base(), "version": al.SCENE_VERSION + 1}
        with self.assertRaises(al.SceneError) as got:
            al.load(s)
        self.assertEqual(str(got.exception), f"version: this scene is version {al.SCENE_VERSION + 1}, newer than "
                                             f"attention_lab {al.__version__} and the app it ships read (scene "
                                             f"version {al.SCENE_VERSION}); update the package")
        with self.assertRaises(al.SceneError):
            al.result(s)

    def test_load_round_trips_an_app_scene(self):
        import subprocess
        preset = json.loads(subprocess.run([al.find_cli(), "--preset", "torch-mha"], check=True,
                                           stdout=subprocess.PIPE).stdout)
        loaded = al.load(preset)
        self.assertEqual(loaded["X"].dtype, np.float64)
        self.assertEqual(loaded["X"].tolist(), preset["X"])
        np.testing.assert_array_equal(al.result(loaded)["output"], al.result(preset)["output"])


class VersionsAndLinks(unittest.TestCase):
    def test_versions_travel_together(self):
        header = (ROOT / "src/scene/scene.hpp").read_text()
        self.assertEqual(int(re.search(r"constexpr int kSceneVersion = (\d+);", header).group(1)), al.SCENE_VERSION)
        cmake = (ROOT / "CMakeLists.txt").read_text()
        self.assertEqual(re.search(r"project\(attention_lab VERSION ([0-9.]+)", cmake).group(1), al.__version__)
        pyproject = (ROOT / "python/pyproject.toml").read_text()
        self.assertEqual(re.search(r'^version = "([0-9.]+)"', pyproject, re.M).group(1), al.__version__)

    def test_a_shipped_build_of_another_scene_version_is_refused(self):
        import tempfile
        from unittest import mock
        from attention_lab import _show
        with tempfile.TemporaryDirectory() as web:
            Path(web, "attention-lab.html").write_text("<html><head></head><body><script></script></body></html>")
            Path(web, "build.json").write_text(json.dumps({"scene_version": al.SCENE_VERSION + 1}))
            with mock.patch.object(_show, "_WEB", Path(web)), mock.patch.dict(os.environ, {"ATTENTION_LAB_HTML": ""}):
                with self.assertRaises(al.SceneError) as got:
                    al.html(al.scene(np.eye(2), np.eye(2), np.eye(2)))
        self.assertEqual(str(got.exception), f"version: the lab shipped in this package reads scene version "
                                             f"{al.SCENE_VERSION + 1}, but attention_lab {al.__version__} writes "
                                             f"scene version {al.SCENE_VERSION}; rebuild the package "
                                             "(scripts/notebook-web)")

    def test_link_holds_the_scene(self):
        import base64
        s = al.scene(np.eye(3), np.eye(3), np.eye(3), causal=True)
        url = al.link(s, base="https://example.invalid/lab/", mode="heads")
        base, fragment = url.split("#")
        self.assertEqual(base, "https://example.invalid/lab/")
        value, mode = fragment.split("&")
        self.assertEqual(mode, "mode=heads")
        text = base64.urlsafe_b64decode(value[2:] + "=" * (-len(value[2:]) % 4)).decode()
        self.assertEqual(json.loads(text), s)
        big = al.scene(np.ones((200, 16)) / 3, np.ones((200, 16)) / 3, np.ones((200, 16)) / 3, validate=False)
        with self.assertRaisesRegex(al.SceneError, r"^link: the scene needs \d+ bytes of link, more than the 32768"):
            al.link(big)
        with self.assertRaisesRegex(al.SceneError, r"^mode: unknown mode 'sideways'"):
            al.link(s, mode="sideways")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        os.environ["ATTENTION_LAB_CLI"] = sys.argv.pop(1)
    unittest.main(verbosity=1)
