// circuits.test.mjs — the Circuits mode in the browser: Play trains the 2-layer attention-only model
// until a layer-1 head's prefix-matching score passes 0.5 (an induction head); on a typed repeated
// text that head attends from each symbol of the second copy to the symbol after its earlier
// occurrence and the predictions on the repeat are right; ablating it raises the repeat's loss;
// clicking it opens its numbers in Explore (and back); the link holds the recipe and rebuilds the
// model bit for bit. Every number is compared with attention-lab-cli's (--eval / --train of the same
// model: the core is checked against PyTorch autograd by tests/model_crosscheck.py, and native and
// wasm runs are bit-identical, scripts/bench-circuits).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  appOpener,
  assertClean,
  getState,
  setState,
  waitForState,
  waitReady,
  clickWidget,
  tapWidget,
  requireWidget,
  openModeTab,
  parkMouse,
  animationFrames,
  screenshot,
  PHONE,
} from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();

/** Is the Circuits mode in this web build? (The site's first load leaves it out and loads
 *  attention-lab-full.wasm for a link to it: built beside the site unless
 *  -DAL_MODES_ON_DEMAND=OFF; the top CMakeLists.txt says why.) */
async function inThisBuild(t, page) {
  const has = await page.evaluate(() => window.attentionLab.getState().ui.mode === "circuits");
  if (!has) t.skip("this web build has no Circuits mode (configured with -DAL_MODES_ON_DEMAND=OFF)");
  return has;
}
/** The wasm files the page's server sent, in order. */
// The builds of the app a page fetched (the first-load build's exporter, fetched after its first
// frame, aside: export.test.mjs).
const wasmServed = (app) => app.server.requests.filter((r) => r.path.endsWith(".wasm")).map((r) => r.path.replace(/^.*\//, ""))
  .filter((name) => name !== "attention-lab-export.wasm");
const getCircuits = (page) => page.evaluate(() => window.attentionLab.getCircuits());
const cli = (...args) => JSON.parse(execFileSync(findCli(), ["--compact", ...args], { encoding: "utf8", maxBuffer: 1 << 28 }));

async function waitForCircuits(page, probe, message, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const c = await getCircuits(page);
    if (probe(c)) return c;
    if (Date.now() > deadline) {
      const { predictions, ...rest } = c;
      assert.fail(`${message} (waited ${timeout} ms; getCircuits() = ${JSON.stringify(rest)})`);
    }
    await animationFrames(page, 1);
  }
}

/** The model on screen, evaluated by the CLI on `text` (with `ablate` heads off, "L.H"). */
function cliEval(page, modelJson, text, ablate = []) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "circuits-e2e-"));
  const file = path.join(dir, "model.json");
  writeFileSync(file, modelJson);
  return cli("--eval", file, "--text", text, ...ablate.flatMap((a) => ["--ablate", a]));
}

// The probe= part of a link, decoded (null when the link has none).
const probeOf = (link) => {
  const m = /[#&]probe=([^&]*)/.exec(link);
  return m ? JSON.parse(Buffer.from(m[1], "base64url").toString("utf8")) : null;
};

const close = (a, b, tol, what) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs the CLI's ${b}`);

// A repeated text of 11 symbols (k = 11: the trained sequences repeat 8 to 16 random symbols).
const HALF = "qjxwvkzmbpf";
const TEXT = HALF + HALF;
const K = HALF.length;
const repeatLoss = (c) => {
  // Mean −log p(next) over the second copy's predictions (positions K … 2K − 2).
  let sum = 0;
  for (let i = K; i <= 2 * K - 2; i++) sum -= Math.log(c.predictions[i].pNext);
  return sum / (K - 1);
};

test("Circuits: Play forms an induction head; it attends after the earlier copy, ablating it hurts, its numbers open, the link rebuilds it", async (t) => {
  const app = await open(t, { suffix: "#mode=circuits", context: { viewport: { width: 1280, height: 800 } } });
  const { page } = app;
  await animationFrames(page, 3);
  if (!(await inThisBuild(t, page))) return;
  let c = await waitForCircuits(page, (x) => x.heads.length === 4, "no run");
  assert.equal(c.step, 0);
  assert.equal(c.running, false);
  assert.equal(c.recipe, "induction,2,2,32,1,0.01,0");
  for (const id of ["mode/circuits", "circuits/play", "circuits/pause", "circuits/step", "circuits/reset", "circuits/text",
                    "circuits/curve", "circuits/composition", "circuits/head/0/0", "circuits/head/1/1",
                    "circuits/ablate/0/0", "circuits/ablate/1/1", "circuits/predictions", "circuits/guide/1"])
    await requireWidget(page, id);

  // Step: one step, the same numbers as the CLI's first step (bit for bit: the same core, native and wasm).
  await clickWidget(page, "circuits/step");
  c = await waitForCircuits(page, (x) => x.step === 1, "Step did not take one step");
  const one = cli("--train", "induction", "--steps", "1", "--seed", "1", "--layers", "2", "--heads", "2", "--d-model", "32");
  assert.equal(c.batchLoss, one.loss[0], "step 1's batch loss differs from the CLI's");
  for (const h of one.heads)
    assert.equal(c.heads.find((x) => x.layer === h.layer && x.head === h.head).prefixMatching, h.prefix_matching[0]);

  // Play until a layer-1 head's prefix-matching score passes 0.5; count the page's frames meanwhile.
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (ts) => {
      window.__frames.push(ts);
      if (window.__frames.length < 100000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await clickWidget(page, "circuits/play");
  c = await waitForCircuits(page, (x) => x.heads.some((h) => h.layer === 1 && h.prefixMatching > 0.5),
                            "no layer-1 head reached prefix-matching 0.5", 180_000);
  const seconds = (Date.now() - started) / 1000;
  const frames = await page.evaluate(() => window.__frames.slice());
  // Frames per second over each whole second of the run, and the longest gap between two frames.
  const perSecond = [];
  for (let s = frames[0]; s + 1000 <= frames[frames.length - 1]; s += 1000)
    perSecond.push(frames.filter((f) => f >= s && f < s + 1000).length);
  const longest = Math.max(...frames.slice(1).map((f, i) => f - frames[i]));
  console.log(`# induction head (prefix-matching > 0.5) at step ${c.step} after ${seconds.toFixed(1)} s of Play; ` +
              `frames per second min ${Math.min(...perSecond)}, mean ${(frames.length / seconds).toFixed(1)}; ` +
              `longest frame ${longest.toFixed(1)} ms`);
  assert.equal(c.heads.find((h) => h.layer === 1 && h.prefixMatching > 0.5).role, "induction");
  // The circuit sharpens for a while after it forms (seed 1 on the CLI: at step 450 half of a repeat's
  // predictions are right, from step 1000 all of them): play on to step 1000.
  c = await waitForCircuits(page, (x) => x.step >= 1000, "Play did not reach step 1000", 180_000);
  await clickWidget(page, "circuits/pause");
  c = await waitForCircuits(page, (x) => !x.running, "Pause did not stop");
  const steps = c.step;
  const formed = c.heads.filter((h) => h.layer === 1).sort((a, b) => b.prefixMatching - a.prefixMatching)[0];
  assert.ok(formed.prefixMatching > 0.5);
  assert.equal(formed.role, "induction");
  // Its partner in layer 0 looks one symbol back more than an untrained head does (0.10).
  const previous = c.heads.filter((h) => h.layer === 0).sort((a, b) => b.previousToken - a.previousToken)[0];
  assert.ok(previous.previousToken > 0.3, `layer 0's best previous-token score ${previous.previousToken}`);
  assert.equal(previous.role, "previous token");

  // Play trained the core's model: the page's weights are the CLI's --train of the same recipe at the
  // step Pause landed on, bit for bit, and the link holds that recipe.
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.match(link, new RegExp(`#circuits=induction,2,2,32,1,0\\.01,${steps}&mode=circuits$`), `link(): ${link}`);
  const paused = await page.evaluate(() => window.attentionLab.circuitsExport("json"));
  const trained = cli("--train", "induction", "--steps", String(steps), "--seed", "1", "--layers", "2", "--heads", "2", "--d-model", "32");
  assert.deepEqual(JSON.parse(paused), trained.model, "the page's model differs from the CLI's --train");

  // The rest is checked on the model a link rebuilds at a fixed step, 1000, bit for bit: where Pause
  // lands past 1000 depends on the frame rate, and the circuit still shifts there (on the CLI, row 21
  // below attends elsewhere at step 1050 and right again at 1100), so a check of wherever Pause
  // landed failed on a slow machine.
  const STEPS = 1000;
  const again = await open(t, { url: link.replace(/,\d+&mode=circuits$/, `,${STEPS}&mode=circuits`),
                                context: { viewport: { width: 1280, height: 800 } } });
  const page2 = again.page;
  const rebuilt = await waitForCircuits(page2, (x) => x.step === STEPS && !x.rebuilding,
                                        `the link did not rebuild ${STEPS} steps`, 300_000);
  const modelJson = await page2.evaluate(() => window.attentionLab.circuitsExport("json"));
  const atFixed = cli("--train", "induction", "--steps", String(STEPS), "--seed", "1", "--layers", "2", "--heads", "2", "--d-model", "32");
  assert.deepEqual(JSON.parse(modelJson), atFixed.model, "the rebuilt model's weights differ from the CLI's --train");
  for (const h of atFixed.heads)
    assert.equal(rebuilt.heads.find((x) => x.layer === h.layer && x.head === h.head).prefixMatching, h.prefix_matching[STEPS - 1]);
  const induction = rebuilt.heads.filter((h) => h.layer === 1).sort((a, b) => b.prefixMatching - a.prefixMatching)[0];
  assert.ok(induction.prefixMatching > 0.5);
  assert.equal(induction.role, "induction");

  // Type a repeated text.
  await clickWidget(page2, "circuits/text");
  await page2.keyboard.press("Control+A");
  await page2.keyboard.press("Backspace");
  await page2.keyboard.type(TEXT, { delay: 20 });
  c = await waitForCircuits(page2, (x) => x.text === TEXT, `the typed text did not arrive`);
  const ref = cliEval(page2, modelJson, TEXT);
  // The predictions are the CLI's, and right on the repeat (after its first symbol).
  assert.deepEqual(c.predictions.map((p) => p.predicted), ref.predicted);
  c.predictions.forEach((p, i) => close(p.p, ref.p_predicted[i], 1e-12, `p at ${i}`));
  for (let i = K; i <= 2 * K - 2; i++)
    assert.equal(c.predictions[i].predicted, TEXT[i + 1], `position ${i} of the repeat predicts '${c.predictions[i].predicted}', not '${TEXT[i + 1]}'`);
  close(c.textLoss, ref.loss, 1e-12, "the text's loss");

  // Ablate the induction head: the repeat's loss rises (as the CLI's --ablate says).
  const before = repeatLoss(c);
  const id = `${induction.layer}/${induction.head}`;
  await clickWidget(page2, `circuits/ablate/${id}`);
  c = await waitForCircuits(page2, (x) => x.heads.find((h) => h.layer === 1 && h.head === induction.head).ablated,
                            "the ablate toggle did not switch the head off");
  const after = repeatLoss(c);
  const ablated = cliEval(page2, modelJson, TEXT, [`${induction.layer}.${induction.head}`]);
  close(c.textLoss, ablated.loss, 1e-12, "the text's loss with the head ablated");
  console.log(`# the repeat's loss: ${before.toFixed(4)} → ${after.toFixed(4)} with L${induction.layer} H${induction.head} ablated`);
  assert.ok(after > 2 * before + 0.5, `ablating the induction head: the repeat's loss ${before} → ${after}`);
  // The link carries the typed text and the ablated head beside the recipe.
  const probed = await page2.evaluate(() => window.attentionLab.link());
  assert.deepEqual(probeOf(probed), { text: TEXT, ablate: [`${induction.layer}.${induction.head}`] }, `link(): ${probed}`);
  await clickWidget(page2, `circuits/ablate/${id}`);
  c = await waitForCircuits(page2, (x) => !x.heads.some((h) => h.ablated), "the toggle did not switch the head back on");
  close(repeatLoss(c), before, 0, "the repeat's loss with the head back on");

  await parkMouse(page2);
  await screenshot(page2, "circuits-desktop-1280x800");

  // Click the head: Explore shows its numbers on the text (the CLI's weights), and back.
  await clickWidget(page2, `circuits/head/${id}`);
  let state = await waitForState(page2, (s) => s.ui.mode === "explore", "a click on the head did not open Explore");
  assert.deepEqual((await getCircuits(page2)).openedHead, [induction.layer, induction.head]);
  assert.deepEqual(state.scene.tokens, [...TEXT]);
  const weights = state.result.weights;
  const cliWeights = ref.weights[induction.layer][induction.head];
  weights.forEach((row, i) => row.forEach((w, j) => close(w, cliWeights[i][j], 1e-9, `weights[${i}][${j}]`)));
  // From each symbol of the second copy the head's largest weight is on the symbol after its earlier
  // copy. (Not checked at the repeat's first symbol, i = K: the key it needs, at position 1, was
  // written by the layer-0 head from only two positions, and that head's pattern is weakest there.)
  for (let i = K + 1; i < 2 * K; i++) {
    const j = weights[i].indexOf(Math.max(...weights[i]));
    assert.equal(j, i - K + 1, `row ${i} ('${TEXT[i]}') attends most to ${j}, not ${i - K + 1}`);
  }
  await requireWidget(page2, "circuits/back");
  await screenshot(page2, "circuits-opened-head");
  // Its link reopens the same head on the same text: the model rebuilt, then probed, the weights
  // the same bits.
  const headLink = await page2.evaluate(() => window.attentionLab.link());
  assert.deepEqual(probeOf(headLink), { text: TEXT, open: `${induction.layer}.${induction.head}` }, `link(): ${headLink}`);
  const third = await open(t, { url: headLink, context: { viewport: { width: 1280, height: 800 } } });
  const reopened = await waitForState(third.page, (s) => s.ui.mode === "explore", "the head's link did not open the head", 300_000);
  assert.deepEqual((await getCircuits(third.page)).openedHead, [induction.layer, induction.head]);
  assert.deepEqual(reopened.scene.tokens, [...TEXT]);
  assert.deepEqual(reopened.result.weights, weights, "the reopened head's weights differ");
  assertClean(third);
  await third.close();
  await clickWidget(page2, "circuits/back");
  await waitForState(page2, (s) => s.ui.mode === "circuits", "Back did not return to Circuits");

  // The guide: step 4 points at the induction head; its words are the language table's.
  await clickWidget(page2, "circuits/guide/4");
  await waitForCircuits(page2, (x) => x.guideStep === 3, "the guide's step 4 did not open");
  await requireWidget(page2, "circuits/guide/text");
  await clickWidget(page2, "circuits/guide/next");
  await waitForCircuits(page2, (x) => x.guideStep === 4, "▶ did not go to step 5");
  await parkMouse(page2);
  await screenshot(page2, "circuits-guide-1280x800");

  assertClean(app);
  assertClean(again);
});

test("Circuits: a bad text is refused with its reason and the last good one kept (phone, German)", async (t) => {
  const app = await open(t, { suffix: "#mode=circuits&lang=de", context: PHONE });
  const { page } = app;
  await animationFrames(page, 3);
  if (!(await inThisBuild(t, page))) return;
  const first = await waitForCircuits(page, (x) => x.heads.length === 4, "no run");
  await tapWidget(page, "circuits/text");
  await page.keyboard.type("!", { delay: 20 });
  const refused = await waitForCircuits(page, (x) => x.textError !== "", "a '!' was not refused");
  assert.match(refused.textError, /not in the vocabulary/);
  assert.equal(refused.text, first.text, "the refused text replaced the good one");
  assert.ok(refused.predictions.every((p) => Number.isFinite(p.p)));
  await page.keyboard.press("Backspace");
  await waitForCircuits(page, (x) => x.textError === "", "the error stayed after Backspace");
  const overflow = (await getState(page)).ui.overflow;
  assert.deepEqual(overflow, [], `texts that did not fit: ${overflow}`);
  await screenshot(page, "circuits-phone-de");
  assertClean(app);
});

const ALL_MODES = ["explore", "walk", "heads", "keyspace", "flash", "decode", "train", "circuits", "model"];
const FIRST_LOAD_MODES = ["explore", "walk"];
const rectOf = ({ x, y, w, h }) => ({ x, y, w, h });

test("modes load on first use: the first load holds Explore and Walk; the other tabs and links open the build with every mode, the scene kept", async (t) => {
  const app = await open(t, { suffix: "#demo=learned-5x8" });
  const { page } = app;
  const before = await getState(page);
  assert.equal(before.ui.mode, "explore");
  assert.deepEqual(wasmServed(app), ["attention-lab.wasm"], "the first load fetched only the first-load build");
  assert.equal(await page.evaluate(() => typeof window.Module._al_export_text), "undefined",
               "the first-load build is not the one with every mode");
  assert.equal(await page.evaluate(() => window.attentionLab.getCircuits()), null,
               "the first-load build has no Circuits code");
  assert.equal(await page.evaluate(() => window.attentionLab._callJson("al_mode_call", "circuits", "get", "").error),
               "circuits: no call 'get' in this build");
  assert.equal(before.ui.flash, null);
  // Its mode bar has every tab, where the build with every mode draws them.
  const firstLoadTabs = {};
  for (const m of ALL_MODES) firstLoadTabs[m] = rectOf(await requireWidget(page, "mode/" + m));
  // Walk is in the first load: its tab and the way back switch modes without loading anything.
  await clickWidget(page, "mode/walk");
  await waitForState(page, (s) => s.ui.mode === "walk" && s.ui.step === 0, "the Walk tab did not start the walk");
  await clickWidget(page, "mode/explore");
  await waitForState(page, (s) => s.ui.mode === "explore", "Explore did not open");
  assert.deepEqual(wasmServed(app), ["attention-lab.wasm"], "Walk and back loaded no other build");
  // A tab of another mode reloads the page into the build with every mode, in that mode.
  const heads = await openModeTab(page, "heads");
  assert.deepEqual(wasmServed(app), ["attention-lab.wasm", "attention-lab-full.wasm"]);
  assert.deepEqual(heads.scene, before.scene, "the scene changed on the way to the other build");
  assert.deepEqual(heads.result.weights, before.result.weights);
  for (const m of ALL_MODES)
    assert.deepEqual(rectOf(await requireWidget(page, "mode/" + m)), firstLoadTabs[m], `mode/${m}: the same tab in both builds`);
  // There every tab just switches (no reload), the Circuits one included.
  await clickWidget(page, "mode/circuits");
  const c = await waitForCircuits(page, (x) => x.heads.length === 4, "no run in the loaded build");
  assert.equal(c.recipe, "induction,2,2,32,1,0.01,0");
  await clickWidget(page, "mode/explore");
  const after = await waitForState(page, (s) => s.ui.mode === "explore", "Explore did not open");
  assert.deepEqual(after.scene, before.scene, "the scene changed on the way");
  assert.deepEqual(after.result.weights, before.result.weights);
  assert.deepEqual(wasmServed(app), ["attention-lab.wasm", "attention-lab-full.wasm"], "one reload in all");

  // A link names the build it needs: Explore's and Walk's the first load, every other mode's (and
  // view=flash|decode, another spelling of those modes) the build with every mode, nothing else.
  for (const [fragment, mode] of [...ALL_MODES.map((m) => [`demo=causal-5&mode=${m}`, m]),
                                   ["demo=causal-5&mode=walk&step=2", "walk"], ["demo=causal-5&view=flash", "flash"],
                                   ["demo=causal-5&view=weights", "explore"]]) {
    const linked = await open(t, { suffix: "#" + fragment });
    const state = await waitForState(linked.page, (s) => s.ui.mode === mode, `#${fragment} did not open ${mode}`);
    if (mode !== "train")  // (Train shows its own task's model instead)
      assert.deepEqual(state.scene.tokens, ["the", "cat", "sat", "on", "mats"], `#${fragment}: web/demos/causal-5.json`);
    const want = FIRST_LOAD_MODES.includes(mode) ? "attention-lab.wasm" : "attention-lab-full.wasm";
    assert.deepEqual(wasmServed(linked), [want], `#${fragment}`);
    assertClean(linked);
  }
  assertClean(app);
  // A scene too large for a link goes along too (as JSON, through the tab's sessionStorage).
  const big = await open(t, { suffix: "#gen=local,256,64,64,1" });
  const scene = (await getState(big.page)).scene;
  scene.Q[0][0] = 0.5;  // edited: no longer the five numbers of a gen= link
  assert.equal((await setState(big.page, scene)).ok, true);
  assert.equal(await big.page.evaluate(() => window.attentionLab.link()), null, "this scene is too large for a link");
  const bigBefore = await getState(big.page);
  await openModeTab(big.page, "circuits");
  await clickWidget(big.page, "mode/explore");
  const bigAfter = await waitForState(big.page, (s) => s.ui.mode === "explore", "Explore did not open");
  assert.deepEqual(bigAfter.scene, bigBefore.scene, "the large scene did not come along");
  assert.equal(await big.page.evaluate(() => sessionStorage.length), 0, "the carried scene is taken once");

  // A link to the mode pasted into the first-load build's page loads it too (hashchange → reload).
  const plain = await open(t, { suffix: "#demo=causal-5" });
  await Promise.all([plain.page.waitForEvent("load", { timeout: 30_000 }),
                     plain.page.evaluate(() => { location.hash = "circuits=induction,2,2,32,3,0.01,5&mode=circuits"; })]);
  await waitReady(plain.page);
  const rebuilt = await waitForCircuits(plain.page, (x) => x.step === 5 && !x.rebuilding, "the pasted link did not rebuild 5 steps", 60_000);
  assert.equal(rebuilt.recipe, "induction,2,2,32,3,0.01,5");
  assertClean(app);
  assertClean(big);
  assertClean(plain);
});
