// variants.test.mjs — the attention variants in the page, driven by their widget ids:
// a shared key dragged in a grouped-query scene moves every head of its group (and no other); the
// sliding window and its sinks set from the Mask panel; the Decode mode's cache policy evicts what it
// says. Every number is checked against NumPy (Debian's /usr/bin/python3, the definitions written out
// below from the papers) and against the native CLI (attention-lab-cli --kv-cache --cache …).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { REPO_ROOT, appOpener, assertClean, getState, waitForState, waitReady, clickWidget, dragWidget, ctrlClickWidget, requireWidget, widgetRect, parkMouse, animationFrames, screenshot, loadScene, PHONE, typeIntoField } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();
const demo = (name) => JSON.parse(execFileSync("cat", [path.join(REPO_ROOT, "web", "demos", `${name}.json`)], { encoding: "utf8" }));
const cli = (input, ...args) => JSON.parse(execFileSync(findCli(), ["--compact", ...args, "-"], { input, encoding: "utf8" }));

// NumPy: every head's weights of a direct scene from the definitions —
//   head t uses Q columns t·d … (t+1)·d and K/V group g = t // (h / H_kv) (torch.repeat_interleave);
//   allowed(i, j) = causal (j ≤ i) AND window (0 ≤ i − j < w causal, |i − j| < w else; keys j < s always)
//   scores = Q_t K_gᵀ / s + B (ALiBi: −2^(−8(t+1)/h)·|i − j|), masked −∞, row softmax (an empty row stays 0).
const NUMPY = `
import json, sys
import numpy as np
s = json.load(sys.stdin)
Q, K, V = (np.array(s[k], dtype=np.float64) for k in "QKV")
n, h = Q.shape[0], s.get("heads", 1)
kv = s.get("kv_heads", h)
d = Q.shape[1] // h
scale = s.get("scale", "sqrt_dk")
div = 1.0 if scale == "none" else (np.sqrt(d) if scale == "sqrt_dk" else float(scale))
i, j = np.arange(n)[:, None], np.arange(n)[None, :]
allowed = np.ones((n, n), dtype=bool)
if s.get("causal"): allowed &= j <= i
w, sinks = s.get("window", 0), s.get("sinks", 0)
if w > 0:
    near = ((i - j) >= 0) & ((i - j) < w) if s.get("causal") else np.abs(i - j) < w
    allowed &= near | (j < sinks)
out = []
for t in range(h):
    g = t // (h // kv)
    q, k = Q[:, t*d:(t+1)*d], K[:, g*d:(g+1)*d]
    z = q @ k.T / div
    if s.get("alibi"): z = z - 2.0 ** (-8.0 * (t + 1) / h) * np.abs(i - j)
    z = np.where(allowed, z, -np.inf)
    m = np.max(z, axis=1, keepdims=True)
    e = np.where(allowed, np.exp(z - np.where(np.isfinite(m), m, 0)), 0.0)
    tot = e.sum(axis=1, keepdims=True)
    out.append(np.divide(e, tot, out=np.zeros_like(e), where=tot > 0).tolist())
json.dump(out, sys.stdout)
`;
const numpyWeights = (scene) =>
  JSON.parse(execFileSync("/usr/bin/python3", ["-c", NUMPY], { input: JSON.stringify(scene), encoding: "utf8" }));

/** The page's weights of every head (one head: result.weights). */
const pageWeights = (state) => (state.result.heads ? state.result.heads.map((hd) => hd.weights) : [state.result.weights]);

function assertWeightsClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: heads`);
  actual.forEach((head, t) =>
    head.forEach((row, i) =>
      row.forEach((a, j) => {
        const b = expected[t][i][j];
        assert.ok(Math.abs(a - b) <= 1e-12, `${what}: head ${t} a[${i}][${j}] page ${a}, NumPy ${b}`);
      }),
    ),
  );
}

const maxRowChange = (a, b) => Math.max(...a.flat().map((x, k) => Math.abs(x - b.flat()[k])));

/** Type `value` into the slider `id` (Ctrl+click opens its field). */
async function typeInto(page, id, value) {
  await ctrlClickWidget(page, id);
  await typeIntoField(page, value, 8);
  await animationFrames(page, 3);
}

test("GQA: dragging a shared key moves every head of its group, and only those (NumPy 1e-12)", async (t) => {
  const app = await open(t, { suffix: "#demo=gqa-shares-keys" });
  const { page } = app;
  const before = await waitForState(page, (s) => s.scene.kv_heads === 2 && s.result !== null, "gqa-shares-keys did not load");
  assert.equal(before.scene.heads, 4);
  assertWeightsClose(pageWeights(before), numpyWeights(before.scene), "as loaded");
  // K/1/0: key 1, column 0 — K/V group 0, shared by heads 0 and 1 (4 heads, 2 groups).
  await requireWidget(page, "K/1/0");
  await requireWidget(page, "kv-heads/2");
  await dragWidget(page, "K/1/0", -60, 12);
  const after = await waitForState(page, (s) => s.scene.K[1][0] !== before.scene.K[1][0], "dragging K/1/0 did not change scene.K[1][0]");
  assert.ok(after.scene.K[1][0] < before.scene.K[1][0], "a drag to the left lowers the key");
  // Every other number of the scene is as before.
  after.scene.K.forEach((row, i) => row.forEach((x, c) => (i === 1 && c === 0) || assert.equal(x, before.scene.K[i][c])));
  const w0 = pageWeights(before), w1 = pageWeights(after);
  assertWeightsClose(w1, numpyWeights(after.scene), "after the drag");
  for (const head of [0, 1]) assert.ok(maxRowChange(w1[head], w0[head]) > 1e-3, `head ${head} (group 0) must move`);
  for (const head of [2, 3]) assert.equal(maxRowChange(w1[head], w0[head]), 0, `head ${head} (group 1) must not move`);
  // Multi-query: one K/V group for all four heads; the same drag now moves every head.
  await clickWidget(page, "kv-heads/1");
  const mqa = await waitForState(page, (s) => s.scene.kv_heads === 1, "kv-heads/1 did not make the scene multi-query");
  assert.equal(mqa.scene.K[0].length, 2, "one group of d_head = 2 columns");
  assertWeightsClose(pageWeights(mqa), numpyWeights(mqa.scene), "multi-query (mean-pooled groups)");
  await dragWidget(page, "K/1/0", 50, 12);
  const moved = await waitForState(page, (s) => s.scene.K[1][0] !== mqa.scene.K[1][0], "dragging K/1/0 (MQA) changed nothing");
  for (const head of [0, 1, 2, 3]) assert.ok(maxRowChange(pageWeights(moved)[head], pageWeights(mqa)[head]) > 1e-4, `MQA: head ${head} must move`);
  assertWeightsClose(pageWeights(moved), numpyWeights(moved.scene), "multi-query after the drag");
  await parkMouse(page);
  await screenshot(page, "variants-gqa-explore");
  assertClean(app);
});

test("the sliding window and its sinks toggle from the Mask panel (weights against NumPy)", async (t) => {
  const app = await open(t, { suffix: "#demo=window-with-sinks" });
  const { page } = app;
  let state = await waitForState(page, (s) => s.scene.window === 3 && s.scene.sinks === 1 && s.result !== null, "window-with-sinks did not load");
  assertWeightsClose(pageWeights(state), numpyWeights(state.scene), "w = 3, s = 1");
  await requireWidget(page, "mask/kind");
  // With the sink, the last query still sees token 0; without, it does not.
  const n = state.scene.tokens.length;
  assert.ok(state.result.weights[n - 1][0] > 0.5, `row ${n - 1} attends the sink: ${state.result.weights[n - 1][0]}`);
  await typeInto(page, "sinks", 0);
  state = await waitForState(page, (s) => (s.scene.sinks ?? 0) === 0, "typing 0 in sinks did not drop the sink");
  assert.equal(state.result.weights[n - 1][0], 0, "no sink: token 0 is outside the window of the last row");
  assertWeightsClose(pageWeights(state), numpyWeights(state.scene), "w = 3, s = 0");
  await typeInto(page, "window", 0);
  state = await waitForState(page, (s) => (s.scene.window ?? 0) === 0, "typing 0 in window did not remove the window");
  assert.ok(state.result.weights[n - 1][0] > 0, "no window: every earlier key visible again");
  assertWeightsClose(pageWeights(state), numpyWeights(state.scene), "no window");
  assert.equal(state.scene.version, 1, "no version-2 key left: written as version 1");
  await typeInto(page, "window", 2);
  state = await waitForState(page, (s) => s.scene.window === 2, "typing 2 in window did not set it");
  await typeInto(page, "sinks", 1);
  state = await waitForState(page, (s) => s.scene.sinks === 1, "typing 1 in sinks did not set it");
  assertWeightsClose(pageWeights(state), numpyWeights(state.scene), "w = 2, s = 1");
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const visible = j <= i && (i - j < 2 || j < 1);
      assert.equal(state.result.weights[i][j] > 0, visible, `a[${i}][${j}] with w = 2, s = 1`);
    }
  await parkMouse(page);
  await screenshot(page, "variants-window-sinks");
  assertClean(app);
});

test("Decode: the cache policy evicts what it says (the CLI's --kv-cache --cache)", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&mode=decode", context: { viewport: { width: 1280, height: 800 } } });
  const { page } = app;
  let state = await waitForState(page, (s) => s.ui.mode === "decode" && s.ui.decode !== null, "mode=decode did not open");
  assert.equal(state.ui.decode.policy, "all");
  const text = JSON.stringify(state.scene);
  const n = state.scene.tokens.length;
  await clickWidget(page, "decode/cache/last");
  await typeInto(page, "decode/cache/w", 2);
  state = await waitForState(page, (s) => s.ui.decode.policy === "last" && s.ui.decode.window === 2, "last w = 2 not chosen");
  const last = cli(text, "--kv-cache", "--cache", "last,2");
  for (let t2 = 0; t2 < n; t2++) {
    if (t2 > 0) await clickWidget(page, "decode/next");
    state = await waitForState(page, (s) => s.ui.decode.t === t2, `Next did not reach t = ${t2}`);
    const d = state.ui.decode, step = last.steps[t2];
    // last w = 2: after step t the cache holds t−1 and t; step t evicts t − 2.
    assert.deepEqual(d.kept, t2 === 0 ? [0] : [t2 - 1, t2], `t = ${t2}: kept`);
    assert.deepEqual(d.evicted, t2 >= 2 ? [t2 - 2] : [], `t = ${t2}: evicted`);
    assert.deepEqual(d.kept, step.kept, `t = ${t2}: kept as the CLI`);
    d.weights.forEach((w, j) => {
      assert.ok(Math.abs(w - step.weights[j]) <= 1e-12, `t = ${t2}: weight ${j} page ${w}, CLI ${step.weights[j]}`);
      if (!d.kept.includes(j)) assert.equal(w, 0, `t = ${t2}: evicted position ${j} has no weight`);
    });
    for (let j = 0; j < t2; j++) {
      const rect = await widgetRect(page, `decode/evicted/${j}`);
      assert.equal(rect !== null, !d.kept.includes(j), `t = ${t2}: decode/evicted/${j} drawn exactly when evicted`);
    }
  }
  await screenshot(page, "variants-decode-last-w");
  // s = 1 sink + the last 2: token 0 comes back at the last step.
  await clickWidget(page, "decode/cache/sinks");
  state = await waitForState(page, (s) => s.ui.decode.policy === "sinks", "sinks + last w not chosen");
  assert.equal(state.ui.decode.sinks, 1);
  const sinks = cli(text, "--kv-cache", "--cache", "sinks,1,2");
  const d = state.ui.decode, step = sinks.steps[n - 1];
  assert.equal(d.t, n - 1);
  assert.deepEqual(d.kept, [0, n - 2, n - 1]);
  assert.deepEqual(d.kept, step.kept);
  d.weights.forEach((w, j) => assert.ok(Math.abs(w - step.weights[j]) <= 1e-12, `sinks: weight ${j}`));
  assert.equal(await widgetRect(page, "decode/evicted/0"), null, "the sink is never drawn as evicted");
  await requireWidget(page, "decode/sink-effect");
  await requireWidget(page, "decode/size");
  await requireWidget(page, "decode/kv/per-context");
  await screenshot(page, "variants-decode-sinks");
  assertClean(app);
});

// The KV-cache bill of published shapes, written out from the formula (core/kv_bill.hpp):
//   bytes per context = 2 (K and V) · layers · H_kv · d_head · context · bytes per number
// Llama 2 (Touvron et al. 2023, Table 1 and the model cards): 7B has 32 layers of 32 heads × 128, one
// K/V per head (multi-head), 4096 tokens, fp16 → 2·32·32·128·4096·2 = 2,147,483,648 B = 2 GiB; 70B has 80
// layers of 64 heads × 128 sharing 8 K/V heads (grouped-query) → 2·80·8·128·4096·2 = 1.25 GiB.
const LLAMA2_7B = { layers: 32, heads: 32, "kv-heads": 32, "d-head": 128, context: 4096, bytes: 2 };
const LLAMA2_70B = { layers: 80, heads: 64, "kv-heads": 8, "d-head": 128, context: 4096, bytes: 2 };
const kvPerToken = (m) => 2 * m.layers * m["kv-heads"] * m["d-head"] * m.bytes;
const kvPerContext = (m) => kvPerToken(m) * m.context;
const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

// The calculator's fields and their getState().ui.decode.kv names.
const KV_KEYS = { layers: "layers", context: "context", heads: "heads", "kv-heads": "kv_heads", "d-head": "d_head", bytes: "bytes" };

/**
 * Type `value` into the calculator's field decode/kv/NAME: a click opens it with its text selected
 * (ImGui's InputScalar), so the typed digits replace it; each digit applies at once (a refused one
 * keeps the shape). Waits until the calculator holds the value, unless `refused`.
 */
async function typeKvField(page, name, value, refused = false) {
  await clickWidget(page, `decode/kv/${name}`);
  await page.keyboard.type(String(value), { delay: 30 });
  await animationFrames(page, 2);
  await page.keyboard.press("Enter");
  await animationFrames(page, 3);
  if (!refused) await waitForKv(page, (kv) => kv[KV_KEYS[name]] === value, `decode/kv/${name}: ${value} was not taken`);
}

/** Every field of a shape, H before H_kv (H_kv must divide H: a refused step keeps the shape). */
async function typeKvShape(page, shape) {
  for (const name of ["layers", "context", "heads", "kv-heads", "d-head", "bytes"]) await typeKvField(page, name, shape[name]);
}

/** waitForState on the calculator (getState().ui.decode.kv), its fields named when it fails. */
async function waitForKv(page, probe, message) {
  try {
    return await waitForState(page, (s) => probe(s.ui.decode.kv), message);
  } catch (error) {
    error.message += `; calculator: ${JSON.stringify((await getState(page)).ui.decode.kv)}`;
    throw error;
  }
}

function assertKvBill(kv, shape, what) {
  assert.deepEqual(
    [kv.layers, kv.heads, kv.kv_heads, kv.d_head, kv.context, kv.bytes],
    [shape.layers, shape.heads, shape["kv-heads"], shape["d-head"], shape.context, shape.bytes],
    `${what}: the calculator's shape`,
  );
  assert.equal(kv.tokens_held, shape.context, `${what}: no window, every token held`);
  assert.equal(kv.per_token, kvPerToken(shape), `${what}: bytes per token`);
  assert.equal(kv.per_context, kvPerContext(shape), `${what}: bytes per context`);
  assert.equal(kv.per_context_text, gib(kvPerContext(shape)), `${what}: the bytes shown`);
  assert.equal(kv.error, "", `${what}: no refused edit`);
}

test("Decode: the KV-cache calculator bills Llama 2 7B and 70B as 2·layers·H_kv·d_head·context·bytes", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&mode=decode", context: { viewport: { width: 1280, height: 800 } } });
  const { page } = app;
  await waitForState(page, (s) => s.ui.decode !== null && s.ui.decode.kv, "mode=decode did not open with the calculator");
  for (const id of ["decode/kv/preset", "decode/kv/per-token", "decode/kv/per-context"]) await requireWidget(page, id);
  // Llama 2 70B typed in (grouped-query: 8 K/V heads for 64 query heads): 1,342,177,280 B.
  await typeKvShape(page, LLAMA2_70B);
  let state = await waitForKv(page, (kv) => kv.layers === 80 && kv.kv_heads === 8, "the 70B shape was not taken");
  assertKvBill(state.ui.decode.kv, LLAMA2_70B, "Llama 2 70B");
  assert.equal(kvPerContext(LLAMA2_70B), 1_342_177_280);
  assert.equal(state.ui.decode.kv.per_context_text, "1.25 GiB");
  assert.equal(state.ui.decode.kv.preset, "llama-2-70b", "a published shape typed in is named");
  await parkMouse(page);
  await screenshot(page, "variants-kv-calculator-70b");
  // Llama 2 7B (one K/V per head, multi-head): exactly 2 GiB.
  await typeKvShape(page, LLAMA2_7B);
  state = await waitForKv(page, (kv) => kv.layers === 32 && kv.kv_heads === 32, "the 7B shape was not taken");
  assertKvBill(state.ui.decode.kv, LLAMA2_7B, "Llama 2 7B");
  assert.equal(kvPerContext(LLAMA2_7B), 2_147_483_648);
  assert.equal(state.ui.decode.kv.per_context_text, "2.00 GiB");
  assert.equal(state.ui.decode.kv.preset, "llama-2-7b");
  // A refused edit (H_kv = 3 does not divide H = 32): a sentence, the shape and its bill kept.
  await typeKvField(page, "kv-heads", 3, true);
  state = await waitForKv(page, (kv) => kv.error !== "", "H_kv = 3 was not refused");
  assert.match(state.ui.decode.kv.error, /H_kv|kv_heads|divide/i);
  assert.equal(state.ui.decode.kv.kv_heads, 32);
  assert.equal(state.ui.decode.kv.per_context, kvPerContext(LLAMA2_7B), "a refused edit keeps the bill");
  // fp32 (4 bytes a number): twice the bytes, and no longer a published shape.
  const fp32 = { ...LLAMA2_7B, bytes: 4 };
  await typeKvField(page, "kv-heads", 32);
  await typeKvField(page, "bytes", 4);
  state = await waitForKv(page, (kv) => kv.bytes === 4, "bytes/number 4 was not taken");
  assertKvBill(state.ui.decode.kv, fp32, "Llama 2 7B in fp32");
  assert.equal(state.ui.decode.kv.per_context_text, "4.00 GiB");
  assert.equal(state.ui.decode.kv.preset, null, "the learner's own shape");
  assertClean(app);
});

test("the three variant demos read at phone size", async (t) => {
  for (const [name, mode] of [["gqa-shares-keys", "heads"], ["window-with-sinks", "explore"], ["alibi-slopes", "explore"]]) {
    const app = await open(t, { suffix: `#demo=${name}&mode=${mode}`, context: PHONE });
    const { page } = app;
    await waitForState(page, (s) => s.result !== null && s.ui.mode === mode, `${name} did not open`);
    await parkMouse(page);
    await screenshot(page, `variants-${name}-phone`);
    const state = await getState(page);
    assert.deepEqual(state.ui.overflow, [], `${name}: texts that did not fit`);
    assertClean(app);
    await page.close();
  }
});

// The attention variants of 2024–26 models (scene keys sink_logit, softcap, qk_norm, topk,
// differential, linear): a link to one of their demos opens the build with every mode (the first
// load does not read those keys); the Variants… popup switches them through the edit path; every
// demo's stages equal attention-lab-cli's (1e-12: the page and the CLI may pick different SIMD exps).
const VARIANT_DEMOS = ["sink-logit", "softcap", "qk-norm", "topk-sparse", "differential", "linear-attention", "cross-attention", "gated-attention", "mla"];
function assertNear(got, want, what) {
  assert.equal(got.length, want.length, `${what}: rows`);
  for (let i = 0; i < want.length; i++)
    for (let j = 0; j < want[i].length; j++)
      assert.ok(Math.abs(got[i][j] - want[i][j]) <= 1e-12, `${what}[${i}][${j}]: page ${got[i][j]} vs CLI ${want[i][j]}`);
}

test("Variants…: a demo link opens the full build; the popup's switches edit the scene; every variant demo equals the CLI", async (t) => {
  const app = await open(t, { suffix: "#demo=softcap" });
  const { page } = app;
  let s = await waitForState(page, (x) => x.scene.softcap === 2, "#demo=softcap did not open (in the build with every mode)");
  assert.equal(s.scene.version, 2);
  assertNear(s.result.weights, cli(JSON.stringify(s.scene)).weights, "softcap demo weights");
  // The popup: softcap off (the key leaves the scene), the sink logit on (its rows sum to < 1).
  await clickWidget(page, "variants");
  await requireWidget(page, "variants/softcap");
  await requireWidget(page, "variants/softcap/curve");  // c·tanh(s/c) with the scene's scores
  await screenshot(page, "variants-popup");
  await clickWidget(page, "variants/softcap");
  s = await waitForState(page, (x) => x.scene.softcap === undefined, "Softcap did not switch off");
  await clickWidget(page, "variants/sink");
  s = await waitForState(page, (x) => x.scene.sink_logit === 0, "Sink logit did not switch on");
  assertNear(s.result.weights, cli(JSON.stringify(s.scene)).weights, "sink logit 0 weights");
  for (const row of s.result.weights) assert.ok(row.reduce((a, b) => a + b, 0) < 1, "a sink row sums to < 1");
  // Linear attention has no softmax for a sink: its switch is disabled; a click changes nothing.
  await clickWidget(page, "variants/linear");
  await animationFrames(page, 3);
  assert.equal((await getState(page)).scene.linear, undefined, "linear beside a sink logit was refused");
  // The link carries the edit: a fresh page opens the same scene.
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.ok(link, "a link for the edited scene");
  const again = await open(t, { suffix: link.slice(link.indexOf("#")) });
  const back = await waitForState(again.page, (x) => x.scene.sink_logit === 0, "the link did not reopen the sink logit");
  assert.deepEqual(back.scene, s.scene, "the link reopens the scene");
  assertClean(again);
  // Every variant demo: the page's weights and output are the CLI's.
  for (const name of VARIANT_DEMOS) {
    const state = await loadScene(page, demo(name));
    const want = cli(JSON.stringify(state.scene));
    assertNear(state.result.weights, want.weights, `${name} weights`);
    assertNear(state.result.output, want.output, `${name} output`);
  }
  await screenshot(page, "variants-linear-attention");
  assertClean(app);
});

// Cross-attention (the demo translating "le chat dort"): 4 queries over 3 sources. The grids are 4×3 with
// the sources as their columns, the numbers the CLI's, and the screen reader's weights table heads its
// columns with the sources.
test("cross-attention: the demo's 4×3 grids take their columns from the sources; weights equal the CLI; the a11y table follows", async (t) => {
  // The first load refuses "sources" by name and reloads into the build with every mode.
  const app = await open(t);
  const { page } = app;
  const loaded = page.waitForEvent("load", { timeout: 30_000 });
  await page.evaluate(() => (location.hash = "demo=cross-attention"));
  await loaded;
  await waitReady(page);
  const s = await waitForState(page, (x) => Array.isArray(x.scene.sources), "#demo=cross-attention did not open");
  assert.deepEqual(s.scene.sources, ["le", "chat", "dort"]);
  assert.equal(s.result.weights.length, 4);
  assert.equal(s.result.weights[0].length, 3);
  const want = cli(JSON.stringify(s.scene));
  assertNear(s.result.weights, want.weights, "cross-attention weights");
  assertNear(s.result.output, want.output, "cross-attention output");
  await requireWidget(page, "label/weights/col/2");
  assert.equal(await widgetRect(page, "label/weights/col/3"), null, "no fourth key column");
  const weights = page.getByRole("table", { name: /Attention weights/ });
  await page.waitForFunction(() => document.querySelectorAll("#a11y-weights td").length === 12, null, { timeout: 5000 });
  assert.deepEqual((await weights.getByRole("columnheader").allTextContents()).slice(1), ["le", "chat", "dort"]);
  assert.deepEqual(await weights.getByRole("cell").allTextContents(), s.result.weights.flat().map((w) => w.toFixed(3)));
  await screenshot(page, "cross-attention");
  // FlashAttention follows one sequence: it says so and offers the modes that show the scene.
  await clickWidget(page, "mode/flash");
  await requireWidget(page, "cross/explore");
  await clickWidget(page, "cross/explore");
  await waitForState(page, (x) => x.ui.mode === "explore", "the note's Explore button did not switch");
  assertClean(app);
});
// The popup's gate, sink per head and QK-norm readout, as tests/ui_frame_test.cpp checks them on
// the native frames: the gate's cells edit G through the edit path (the link carries it), the gated
// output is the CLI's; one sink z per head; the "none" column with a sink; QK-norm's readout.
test("Variants…: the gate's grid edits G; a sink z per head; the none column; QK-norm's readout", async (t) => {
  const app = await open(t, { suffix: "#demo=gated-attention" });
  const { page } = app;
  let s = await waitForState(page, (x) => Array.isArray(x.scene.gate), "#demo=gated-attention did not open");
  assert.deepEqual(s.scene.gate, demo("gated-attention").gate);
  assertNear(s.result.output, cli(JSON.stringify(s.scene)).output, "gated output");
  await clickWidget(page, "variants");
  await requireWidget(page, "variants/gate/grid");
  await requireWidget(page, "variants/gate/headwise");
  await screenshot(page, "variants-gate");
  // 'cat' column 0 lets 0.88 through: a click shuts it (G = −4).
  await clickWidget(page, "variants/gate/1/0");
  s = await waitForState(page, (x) => x.scene.gate[1][0] === -4, "the gate's cell did not shut");
  assertNear(s.result.output, cli(JSON.stringify(s.scene)).output, "gated output after the click");
  const link = await page.evaluate(() => window.attentionLab.link());
  const again = await open(t, { suffix: link.slice(link.indexOf("#")) });
  const back = await waitForState(again.page, (x) => Array.isArray(x.scene.gate) && x.scene.gate[1][0] === -4, "the link did not carry the gate");
  assert.deepEqual(back.scene.gate, s.scene.gate);
  assertClean(again);
  // Gate off; a sink on: one head, so the Weights grid has its none column.
  await clickWidget(page, "variants/gate");
  s = await waitForState(page, (x) => x.scene.gate === undefined, "the gate did not switch off");
  await clickWidget(page, "variants/sink");
  s = await waitForState(page, (x) => x.scene.sink_logit === 0, "Sink logit did not switch on");
  await requireWidget(page, "weights/none");
  // QK-norm on: its readout under the switch.
  await clickWidget(page, "variants/qk_norm");
  s = await waitForState(page, (x) => x.scene.qk_norm !== undefined, "QK-norm did not switch on");
  await requireWidget(page, "variants/qk_norm/compare");
  // Two heads: "same for all heads", unticked, gives one z per head.
  const two = { version: 2, tokens: ["a", "b", "c"], Q: [[1, 0, 2, 0], [0, 1, 0, 2], [1, 1, -1, 0]],
    K: [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 1, 1]], V: [[1, 0], [0, 1], [1, 1]], heads: 2, sink_logit: 0.5 };
  await loadScene(page, two);
  await animationFrames(page, 3);
  if (!(await widgetRect(page, "variants/sink/all"))) await clickWidget(page, "variants");  // the popup, if it closed
  await clickWidget(page, "variants/sink/all");
  s = await waitForState(page, (x) => Array.isArray(x.scene.sink_logit) && x.scene.sink_logit.length === 2, "no z per head");
  assert.deepEqual(s.scene.sink_logit, [0.5, 0.5]);
  assertNear(s.result.heads[0].weights, cli(JSON.stringify(s.scene)).heads[0].weights, "per-head sink weights");
  assertClean(app);
});

