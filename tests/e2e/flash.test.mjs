// flash.test.mjs — the FlashAttention and Decode modes in the browser, driven by their
// widgetRect ids, and the RoPE controls. Every number is checked against the native CLI
// (attention-lab-cli --online B / --kv-cache, itself checked against NumPy by tests/flash_crosscheck.py)
// or against RoPE written out in JS below.
import { test } from "node:test";
import { appTest } from "./lib/app_test.mjs";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { REPO_ROOT, appOpener, assertClean, getState, waitForState, clickWidget, dragWidget, requireWidget, parkMouse, animationFrames, screenshot, PHONE } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();
const demoFile = (name) => path.join(REPO_ROOT, "web", "demos", `${name}.json`);
const cli = (...args) => JSON.parse(execFileSync(findCli(), ["--compact", ...args], { encoding: "utf8" }));

/** |a − b| ≤ 1e-12 · max(1, |b|) entry by entry (null = −∞ must match null). */
function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((a, i) => {
    const b = expected[i];
    if (b === null || a === null) return assert.equal(a, b, `${what}[${i}]`);
    assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}[${i}]: page ${a}, CLI ${b}`);
  });
}

/** Every row's m and ℓ after `k` steps, rebuilt from the CLI's steps (each gives its query block's rows). */
function rowsAfter(trace, n, k) {
  const m = new Array(n).fill(null);
  const l = new Array(n).fill(0);
  for (const step of trace.steps.slice(0, k)) {
    step.m.forEach((value, r) => {
      m[step.row_block * trace.block + r] = value;
      l[step.row_block * trace.block + r] = step.l[r];
    });
  }
  return { m, l };
}

appTest("FlashAttention mode: Next/Prev/Start/Play step the tiles; m and ℓ equal the CLI's trace; the end says max |Δ|", (t) => open(t, { suffix: "#demo=causal-5&mode=flash", context: { viewport: { width: 1280, height: 720 } } }), async ({ page }) => {
  let state = await waitForState(page, (s) => s.ui.mode === "flash" && s.ui.flash !== null, "mode=flash did not open");
  assert.equal(state.ui.flash.block, 2, "default block size");
  assert.equal(state.ui.flash.steps, 9, "n = 5, B = 2: 3×3 tiles");
  assert.equal(state.ui.flash.step, 0);
  const n = state.scene.tokens.length;
  const trace = cli("--online", "2", demoFile("causal-5"));
  for (let k = 1; k <= 9; k++) {
    await clickWidget(page, "flash/next");
    state = await waitForState(page, (s) => s.ui.flash.step === k, `Next did not reach step ${k}`);
    const want = rowsAfter(trace, n, k);
    assertClose(state.ui.flash.m, want.m, `step ${k}: m`);
    assertClose(state.ui.flash.l, want.l, `step ${k}: l`);
    if (k === 5) await screenshot(page, "flash-1280x720-step5");
  }
  assert.equal(state.ui.flash.finished, true);
  assert.ok(state.ui.flash.max_abs_diff <= 1e-12, `max |Δ| = ${state.ui.flash.max_abs_diff}`);
  await parkMouse(page);
  await animationFrames(page, 3);
  await screenshot(page, "flash-1280x720-finished");
  // Next is disabled at the end; Prev goes back one tile; Start to the beginning.
  await clickWidget(page, "flash/next");
  assert.equal((await getState(page)).ui.flash.step, 9, "Next after the last tile");
  await clickWidget(page, "flash/prev");
  await waitForState(page, (s) => s.ui.flash.step === 8, "Prev");
  await clickWidget(page, "flash/start");
  await waitForState(page, (s) => s.ui.flash.step === 0 && s.ui.flash.m.every((v) => v === null), "Start");
  // Play steps by itself.
  await clickWidget(page, "flash/play");
  await waitForState(page, (s) => s.ui.flash.step >= 2, "Play did not advance", 15_000);
  await clickWidget(page, "flash/play");  // pause
  // Block size 1 (slider dragged to its left end, staying on the canvas so the release is seen):
  // 25 tiles, and the trace follows the CLI's --online 1.
  const slider = await requireWidget(page, "flash/block");
  await dragWidget(page, "flash/block", -(slider.w / 2 - 2));
  state = await waitForState(page, (s) => s.ui.flash.block === 1 && s.ui.flash.steps === 25, "block 1");
  assert.equal(state.ui.flash.step, 0, "a new block size starts over");
  const trace1 = cli("--online", "1", demoFile("causal-5"));
  for (let k = 1; k <= 3; k++) await clickWidget(page, "flash/next");
  state = await waitForState(page, (s) => s.ui.flash.step === 3, "3 steps at B = 1");
  assertClose(state.ui.flash.l, rowsAfter(trace1, n, 3).l, "B = 1, step 3: l");
  for (const id of ["flash/memory", "flash/rows"]) await requireWidget(page, id);
});

appTest("FlashAttention on a phone (390×844) and view=flash as another spelling of mode=flash", (t) => open(t, { suffix: "#demo=causal-5&view=flash", context: PHONE }), async ({ page }) => {
  await waitForState(page, (s) => s.ui.mode === "flash", "view=flash did not open the mode");
  for (const id of ["flash/block", "flash/start", "flash/prev", "flash/next"]) await requireWidget(page, id);
  for (let k = 1; k <= 4; k++) await clickWidget(page, "flash/next");
  await waitForState(page, (s) => s.ui.flash.step === 4, "4 steps on a phone");
  await parkMouse(page);
  await screenshot(page, "flash-phone-390x844-step4");
});

test("Decode mode: each step is row t of the causal pass; the cache and the multiply counter grow", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&mode=decode", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  let state = await waitForState(page, (s) => s.ui.mode === "decode" && s.ui.decode !== null, "mode=decode did not open");
  assert.equal(state.ui.decode.t, 0);
  const decode = cli("--kv-cache", demoFile("causal-5"));
  let withCache = 0;
  let without = 0;
  for (let t2 = 0; t2 < 5; t2++) {
    if (t2 > 0) await clickWidget(page, "decode/next");
    state = await waitForState(page, (s) => s.ui.decode.t === t2, `Next did not reach t = ${t2}`);
    const step = decode.steps[t2];
    assert.equal(state.ui.decode.cache_len, t2 + 1);
    assertClose(state.ui.decode.weights, step.weights, `t = ${t2}: weights`);
    assertClose(state.ui.decode.output, step.output, `t = ${t2}: output`);
    // The demo is causal: the page's own full pass has the same row t, bit for bit.
    assert.deepEqual(state.ui.decode.weights, state.result.weights[t2].slice(0, t2 + 1), `t = ${t2}: row t of the full pass`);
    assert.deepEqual(state.ui.decode.output, state.result.output[t2], `t = ${t2}: output row t of the full pass`);
    assert.ok(state.ui.decode.mults_without_cache >= state.ui.decode.mults_with_cache);
    withCache = state.ui.decode.mults_with_cache;
    without = state.ui.decode.mults_without_cache;
    await requireWidget(page, "decode/new-row");
    if (t2 === 3) await screenshot(page, "decode-1280x720-t3");
  }
  assert.equal(withCache, decode.mults_with_cache, "multiplies with the cache, all steps");
  assert.equal(without, decode.mults_without_cache, "multiplies without the cache, all steps");
  await clickWidget(page, "decode/start");
  await waitForState(page, (s) => s.ui.decode.t === 0, "Start");
  await requireWidget(page, "decode/mults");
  assertClean(app);

  const phoneApp = await open(t, { suffix: "#demo=causal-5&mode=decode", context: PHONE });
  await waitForState(phoneApp.page, (s) => s.ui.mode === "decode" && s.ui.decode !== null, "decode on a phone");
  for (let k = 0; k < 2; k++) await clickWidget(phoneApp.page, "decode/next");
  await waitForState(phoneApp.page, (s) => s.ui.decode.t === 2, "2 steps on a phone");
  await parkMouse(phoneApp.page);
  await screenshot(phoneApp.page, "decode-phone-390x844-t2");
  assertClean(phoneApp);
});

// RoPE in JS: token i at position offset + i, pair c of a head of size d turns by p · base^(−2c/d).
function rope(M, { base = 10000, layout = "interleaved", offset = 0 }) {
  return M.map((row, i) => {
    const d = row.length;
    const out = row.slice();
    for (let c = 0; c < d / 2; c++) {
      const theta = (offset + i) * Math.pow(base, (-2 * c) / d);
      const [a, b] = layout === "interleaved" ? [2 * c, 2 * c + 1] : [c, c + d / 2];
      out[a] = row[a] * Math.cos(theta) - row[b] * Math.sin(theta);
      out[b] = row[a] * Math.sin(theta) + row[b] * Math.cos(theta);
    }
    return out;
  });
}

appTest("RoPE: the toggle writes the scene key, Q_rope matches RoPE in JS, the offset slider moves no score", (t) => open(t, { suffix: "#demo=rope-relative&hide=vectors", context: { viewport: { width: 1280, height: 720 } } }), async ({ page }) => {
  let state = await waitForState(page, (s) => s.scene.rope !== undefined, "demo rope-relative did not load");
  assert.equal(state.scene.version, 2);
  const want = rope(state.scene.Q, state.scene.rope);
  state.result.Q_rope.forEach((row, i) => assertClose(row, want[i], `Q_rope row ${i}`));
  // Toeplitz: equal tokens, so each score depends on i − j only.
  const S = state.result.scores;
  for (let i = 1; i < S.length; i++)
    for (let j = 1; j < S.length; j++) assert.ok(Math.abs(S[i][j] - S[i - 1][j - 1]) <= 1e-12 * 10, `scores (${i},${j})`);
  await requireWidget(page, "rope/plot");
  await parkMouse(page);
  await screenshot(page, "rope-relative-1280x720");
  // The offset: Q_rope changes, the scores do not.
  await dragWidget(page, "rope/offset", 60);
  const shifted = await waitForState(page, (s) => (s.scene.rope.offset ?? 0) > 0, "the offset slider did not move");
  assert.ok(Math.abs(shifted.result.Q_rope[1][0] - state.result.Q_rope[1][0]) > 1e-6, "Q_rope did not change");
  shifted.result.scores.forEach((row, i) => assertClose(row, S[i], `scores row ${i} after offset ${shifted.scene.rope.offset}`));
  // The toggle: off writes a version-1 scene, on brings the key back.
  await clickWidget(page, "rope/on");
  state = await waitForState(page, (s) => s.scene.rope === undefined, "RoPE did not switch off");
  assert.equal(state.scene.version, 1, "no version-2 key left: version 1");
  assert.equal(state.result.Q_rope, undefined);
  await clickWidget(page, "rope/on");
  state = await waitForState(page, (s) => s.scene.rope !== undefined, "RoPE did not switch on");
  await requireWidget(page, "rope/base");
});

// At 1024 tokens ("hold it under load"): FlashAttention's 512² tiles (B = 2) are each under a
// pixel; drawn one by one with their outlines they were ~3 million vertices a frame (frames of 100–460 ms,
// and over ImGui's 16-bit index range: a broken picture). Merged fills keep a frame in the thousands.
// Decode computes only the shown step: opening it no longer holds four whole decodes (4 × n² numbers,
// ~40 MB of the app's malloc at n = 1024).
const BIG_N = 1024;
const MAX_VERTICES = 60_000;  // measured 7–8k in these modes (the Explore screen: ~18k); before: millions
const MAX_DECODE_HEAP = 4 << 20;  // bytes malloc may grow by when Decode opens; before: +40 MB

// (Opened in Heads, then Explore: the build with every mode, so Decode and Flash open in place.)
appTest("1024 tokens: FlashAttention and Decode draw thousands of vertices a frame; Decode holds one step", (t) => open(t, { suffix: "#gen=local,1024,64,64,1&mode=heads", context: { viewport: { width: 1280, height: 720 } } }), async ({ page }) => {
  await page.waitForFunction((n) => window.attentionLab.getMatrix("Q").rows === n, BIG_N);
  await clickWidget(page, "mode/explore");
  await waitForState(page, (s) => s.ui.mode === "explore", "Explore did not open");
  const stats = async () => {
    await animationFrames(page, 3);
    return page.evaluate(() => window.attentionLab.frameStats());
  };
  const before = await stats();
  assert.ok(before.vertices > 0, `frameStats().vertices = ${before.vertices}`);
  await clickWidget(page, "mode/decode");
  await requireWidget(page, "decode/mults");
  const decode = await stats();
  assert.ok(decode.heapBytes - before.heapBytes < MAX_DECODE_HEAP,
    `opening Decode grew malloc's bytes by ${decode.heapBytes - before.heapBytes}`);
  for (let k = 0; k < 2; k++) await clickWidget(page, "decode/next");
  const decoded = await stats();
  assert.ok(decoded.vertices < MAX_VERTICES, `Decode: ${decoded.vertices} vertices`);
  await clickWidget(page, "mode/flash");
  await requireWidget(page, "flash/memory");
  for (let k = 0; k < 3; k++) {
    const s = await stats();
    assert.ok(s.vertices < MAX_VERTICES, `FlashAttention after ${k} steps: ${s.vertices} vertices`);
    await clickWidget(page, "flash/next");
  }
  await parkMouse(page);
  await screenshot(page, "flash-1024-1280x720");
});
