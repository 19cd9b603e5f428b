// heads.test.mjs — multi-head attention in the page: a 2-head scene through setState,
// focusing head 1 (head/1/focus) and the derivation tooltip of one of its weights, the heads control,
// links carrying heads and Wo (exact round trip), and the Heads mode at 1280×720 and phone size.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, requireWidget, clickWidget, openModeTab, animationFrames, parkMouse, screenshot, appOpener, loadScene, sameNumbers } from "./lib/harness.mjs";
import { presetScene } from "./lib/presets.mjs";

const open = appOpener();

// d_k = 4 and d_v = 2 split into 2 heads: head 0 takes columns 0–1 of Q and K (column 0 of V),
// head 1 columns 2–3 (column 1 of V). Positive numbers, so the tooltip's text has no minus signs.
const TWO_HEADS = {
  version: 2,
  tokens: ["a", "b", "c"],
  Q: [[1, 0, 0.5, 2], [0, 1, 1, 0.25], [1, 1, 2, 1]],
  K: [[1, 0.5, 1, 0], [0, 1, 0.5, 1], [1, 1, 0, 2]],
  V: [[1, 3], [2, 5], [4, 7]],
  scale: "sqrt_dk",
  heads: 2,
};

// The stages of head t of a direct scene, in plain JS: scores = Q_t K_tᵀ, divisor √(d_k/h), softmax.
function headStages(scene, t) {
  const h = scene.heads, dk = scene.Q[0].length / h;
  const cols = (row) => row.slice(t * dk, (t + 1) * dk);
  const scores = scene.Q.map((q) => scene.K.map((k) => cols(q).reduce((s, x, c) => s + x * cols(k)[c], 0)));
  const divisor = Math.sqrt(dk);
  const weights = scores.map((row) => {
    const scaled = row.map((s) => s / divisor);
    const max = Math.max(...scaled);
    const e = scaled.map((s) => Math.exp(s - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  return { scores, divisor, weights };
}

test("2 heads: click head/1/focus, hover a cell of head 1 → the tooltip derives head 1's numbers", async (t) => {
  const app = await open(t);
  const { page } = app;
  const state = await loadScene(page, TWO_HEADS);
  assert.equal(state.ui.focusHead, 0, "a freshly loaded scene focuses head 0");
  assert.equal(state.result.heads.length, 2, "getState().result.heads");
  assert.equal(state.result.scores, undefined, "no top-level scores for h > 1");

  await clickWidget(page, "head/1/focus");
  await waitForState(page, (s) => s.ui.focusHead === 1, "clicking head/1/focus did not focus head 1");

  const head1 = headStages(TWO_HEADS, 1);
  const [i, j] = [2, 0];
  const { cx, cy } = await requireWidget(page, `head/1/weights/${i}/${j}`);
  await page.mouse.move(cx - 2, cy);
  await animationFrames(page, 2);
  await page.mouse.move(cx, cy);
  const hovered = await waitForState(page, (s) => s.ui.tooltip.startsWith(`head 1: a[${i}][${j}]`),
    "hovering head/1/weights/2/0 shows no head-1 tooltip");
  const tip = hovered.ui.tooltip;
  t.diagnostic(tip);
  // q_2 · k_0 over head 1's columns (2, 3): 2·1 + 1·0 = 2; ÷ √(d_k/h) = √2; softmax over row 2.
  assert.equal(head1.scores[i][j], 2);
  assert.ok(tip.includes("2.00·1.00 + 1.00·0.00 = 2.000"), `the dot product of head 1's columns in: ${tip}`);
  assert.ok(tip.includes("÷ √(d_k/h) = √2 = ÷ 1.414"), `the divisor √(d_k/h) in: ${tip}`);
  assert.ok(tip.includes(`= ${head1.weights[i][j].toFixed(6)}`), `head 1's weight ${head1.weights[i][j]} in: ${tip}`);
  // The same number as the app's own head-1 stage (and not head 0's).
  assert.ok(Math.abs(hovered.result.heads[1].weights[i][j] - head1.weights[i][j]) <= 1e-12);
  const head0 = headStages(TWO_HEADS, 0);
  assert.ok(!tip.includes(`= ${head0.weights[i][j].toFixed(6)}`), "the tooltip must not show head 0's weight");

  // The Scores panel now describes head 1 too: its cell tooltip derives q · k over head 1's columns.
  const cell = await requireWidget(page, `cell/scores/${i}/${j}`);
  await page.mouse.move(cell.cx, cell.cy);
  const scored = await waitForState(page, (s) => s.ui.tooltip.startsWith(`head 1: QKᵀ[${i}][${j}]`),
    "hovering cell/scores/2/0 shows no head-1 score tooltip");
  assert.ok(scored.ui.tooltip.includes("Σ = 2.000"), scored.ui.tooltip);
  await screenshot(page, "heads-two-focus-1");
  assertClean(app);
});

test("the heads control splits a scene; links carry heads and Wo exactly", async (t) => {
  const app = await open(t);
  const { page } = app;
  const single = { ...TWO_HEADS, version: 1 };
  delete single.heads;
  await loadScene(page, single);
  // The heads control is in the Heads mode (Explore shows it once a scene has several heads), which
  // the first load leaves out: its tab reloads into the build with every mode, with this scene.
  await openModeTab(page, "heads");
  await clickWidget(page, "heads/2");
  const split = await waitForState(page, (s) => s.scene.heads === 2, "clicking heads/2 did not split into 2 heads");
  assert.equal(split.scene.version, 2, "a scene with heads is written as version 2");

  // Wo with awkward doubles: the link must bring every bit back.
  const withWo = { ...TWO_HEADS, Wo: [[0.1, -1 / 3, 1e-300], [2 ** -30, 12345.678901234567, -0]] };
  await loadScene(page, withWo);
  await parkMouse(page);
  await animationFrames(page, 3);
  const url = await page.evaluate(() => window.attentionLab.link());
  assert.match(url, /#s=[A-Za-z0-9_-]+&mode=heads$/, "link() carries the scene and the Heads mode");
  const copy = await open(t, { suffix: url.slice(url.indexOf("#")) });
  const back = await waitForState(copy.page, (s) => s.scene.heads === 2, "the link did not open the 2-head scene");
  assert.ok(sameNumbers(back.scene, withWo), `round trip: ${JSON.stringify(back.scene.Wo)}`);
  assert.equal(back.ui.mode, "heads", "the link opens in the Heads mode");
  // W_o's cells are on screen (Output panel) with their ids.
  await requireWidget(copy.page, "Wo/0/0");
  assertClean(app);
  assertClean(copy);
});

test("Heads mode: three-heads at 1280×720 and on a phone", async (t) => {
  for (const [name, viewport] of [
    ["wide", { width: 1280, height: 720 }],
    ["phone", { width: 390, height: 844 }],
  ]) {
    const app = await open(t, { suffix: "#demo=three-heads&mode=heads", context: { viewport } });
    const { page } = app;
    const state = await waitForState(page, (s) => s.scene.heads === 3 && s.ui.mode === "heads",
      "#demo=three-heads&mode=heads did not open in the Heads mode");
    assert.ok(sameNumbers(state.scene, presetScene("three-heads")), "the demo is the preset");
    // Three different patterns: head 0 the previous token, head 1 itself, head 2 the first token.
    const argmax = (row) => row.indexOf(Math.max(...row));
    const h = state.result.heads.map((head) => head.weights.map(argmax));
    assert.deepEqual(h, [[0, 0, 1, 2, 3], [0, 1, 2, 3, 4], [0, 0, 0, 0, 0]], "each head's argmax per row");
    for (const id of ["heads", "head/0/focus", "head/2/focus"]) await requireWidget(page, id);
    if (name === "wide") await requireWidget(page, "head/2/weights/4/0");
    await parkMouse(page);
    await animationFrames(page, 4);
    t.diagnostic(await screenshot(page, `heads-mode-three-heads-${name}`));
    assertClean(app);
  }
});
