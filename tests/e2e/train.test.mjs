// train.test.mjs — the Train mode in the browser: Play trains (the step grows, the loss falls),
// Pause leaves an ordinary projected version-2 scene whose link round-trips, Step adds one step,
// the task picker starts a new run; screenshots at 1280×720 and phone size. The numbers trained
// here are the core's (checked against PyTorch by tests/grad_crosscheck.py and natively/wasm bit
// for bit by the doctest suite); this file checks the page drives them and shows them.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appOpener,
  assertClean,
  getState,
  waitForState,
  clickWidget,
  dragWidget,
  tapWidget,
  requireWidget,
  parkMouse,
  animationFrames,
  screenshot,
  frameStats,
  PHONE,
} from "./lib/harness.mjs";

const open = appOpener();
const getTraining = (page) => page.evaluate(() => window.attentionLab.getTraining());

async function waitForTraining(page, probe, message, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const t = await getTraining(page);
    if (probe(t)) return t;
    if (Date.now() > deadline) assert.fail(`${message} (waited ${timeout} ms; getTraining() = ${JSON.stringify(t)})`);
    await animationFrames(page, 1);
  }
}

/** Each row's largest weight (first on ties), as numpy.argmax. */
const argmaxRows = (weights) => weights.map((row) => row.indexOf(Math.max(...row)));

test("Train: Play 2 s → the step grows and the loss falls; Pause → a projected v2 scene whose link round-trips", async (t) => {
  const app = await open(t, { suffix: "#mode=train", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await waitForState(page, (s) => s.ui.mode === "train", "mode=train did not open");
  let training = await waitForTraining(page, (x) => x.task === "previous-token", "no run");
  assert.equal(training.step, 0);
  assert.equal(training.running, false);
  assert.equal(training.loss, null, "no loss before the first step");
  assert.ok(training.accuracy >= 0 && training.accuracy < 0.5, `untrained accuracy ${training.accuracy}`);
  for (const id of ["train/task", "train/play", "train/pause", "train/step", "train/lr", "train/seed",
                    "train/heads/1", "train/speed", "train/curve", "train/predictions", "mode/train"])
    await requireWidget(page, id);

  // Step: exactly one step.
  await clickWidget(page, "train/step");
  training = await waitForTraining(page, (x) => x.step === 1, "Step did not take one step");
  const firstLoss = training.loss;
  assert.ok(firstLoss > 1.5 && firstLoss < 2.5, `first batch loss ${firstLoss} (chance is ln 8 = 2.08)`);

  // Play for 2 s.
  const started = Date.now();
  await clickWidget(page, "train/play");
  training = await waitForTraining(page, (x) => x.running, "Play did not start");
  await page.waitForTimeout(2000);
  training = await getTraining(page);
  assert.ok(training.step > 5, `after 2 s of Play only ${training.step} steps`);
  assert.ok(training.loss < firstLoss, `the loss did not fall: ${firstLoss} → ${training.loss}`);
  const stats = await frameStats(page);
  console.log(`# after 2 s: step ${training.step}, loss ${training.loss.toFixed(4)}, accuracy ${training.accuracy}; ` +
              `frames p95 ${stats.p95FrameMs} ms, max ${stats.maxFrameMs} ms`);

  // Keep playing until the task is learned (95 % on fresh sequences); report steps and wall time.
  training = await waitForTraining(page, (x) => x.accuracy >= 0.95, "previous-token did not reach 95 %", 120_000);
  console.log(`# previous-token ≥ 95 % in the browser: step ${training.step}, ${((Date.now() - started) / 1000).toFixed(1)} s wall ` +
              `(30 steps/s pace, software WebGL)`);

  await clickWidget(page, "train/pause");
  training = await waitForTraining(page, (x) => !x.running, "Pause did not stop");
  const paused = training.step;
  await animationFrames(page, 10);
  assert.equal((await getTraining(page)).step, paused, "no steps after Pause");

  // The scene is the model: projected, causal, Wo 8×8, version 2; its weights show the sub-diagonal.
  const state = await getState(page);
  const s = state.scene;
  assert.equal(s.version, 2);
  assert.equal(s.causal, true);
  assert.equal(s.X.length, 8);
  assert.equal(s.X[0].length, 16);
  assert.equal(s.Wo.length, 8);
  assert.equal(s.Wo[0].length, 8);
  assert.deepEqual(argmaxRows(state.result.weights).slice(1), [0, 1, 2, 3, 4, 5, 6], "each token attends to the one before");

  // The link round-trips: a new page opens the same scene bit for bit, in the Train mode.
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.match(link, /#s=[A-Za-z0-9_-]+&mode=train$/, `link(): ${link}`);
  const again = await open(t, { url: link, context: { viewport: { width: 1280, height: 720 } } });
  const back = await waitForState(again.page, (x) => x.ui.mode === "train", "the link did not open the Train mode");
  assert.deepEqual(back.scene, s, "the linked scene differs");
  assert.deepEqual(back.result.weights, state.result.weights, "the linked scene's weights differ");
  // Training continues from the linked weights: the run adopts them (accuracy already ≥ 95 %).
  const adopted = await waitForTraining(again.page, (x) => x.accuracy !== null, "no accuracy after the link");
  assert.ok(adopted.accuracy >= 0.95, `the linked model's accuracy ${adopted.accuracy}`);
  await parkMouse(page);
  await animationFrames(page, 3);
  await screenshot(page, "train-desktop-1280x720");
  assertClean(app);
  assertClean(again);
});

test("Train: the task picker starts a new run of that task; heads 2 trains too", async (t) => {
  const app = await open(t, { suffix: "#mode=train", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await waitForTraining(page, (x) => x.task === "previous-token", "no run");
  await clickWidget(page, "train/task");
  await clickWidget(page, "train/task/same-token");
  let training = await waitForTraining(page, (x) => x.task === "same-token", "the picker did not switch the task");
  assert.equal(training.step, 0);
  await clickWidget(page, "train/heads/2");
  training = await waitForTraining(page, (x) => x.heads === 2, "heads 2 was not picked");
  await clickWidget(page, "train/play");
  training = await waitForTraining(page, (x) => x.step >= 20, "same-token did not train", 60_000);
  await clickWidget(page, "train/pause");
  const state = await getState(page);
  assert.equal(state.scene.heads, 2);
  assert.equal(state.result.heads.length, 2, "two heads' weights");
  assertClean(app);
});

test("Train at full pace: each frame's training work stays within the 8 ms budget", async (t) => {
  const app = await open(t, { suffix: "#mode=train", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await waitForTraining(page, (x) => x.task === "previous-token", "no run");
  await dragWidget(page, "train/speed", 600); // to the right end: 1000 steps / s
  await clickWidget(page, "train/play");
  await waitForTraining(page, (x) => x.running, "Play did not start");
  const work = [];
  const t0 = Date.now();
  const first = (await getTraining(page)).step;
  while (Date.now() - t0 < 3000) {
    await animationFrames(page, 1);
    work.push((await getTraining(page)).workMs);
  }
  const steps = (await getTraining(page)).step - first;
  await clickWidget(page, "train/pause");
  work.sort((a, b) => a - b);
  const median = work[Math.floor(work.length / 2)], max = work[work.length - 1];
  console.log(`# full pace: ${steps} steps in 3 s (${(steps / 3).toFixed(0)} steps/s); training per frame: median ` +
              `${median.toFixed(2)} ms, max ${max.toFixed(2)} ms over ${work.length} samples`);
  assert.ok(steps > 90, `full pace took only ${steps} steps in 3 s (the 30 steps/s default would take 90)`);
  // The loop starts a step only when its running-average cost still fits in 6 ms; wall-clock time on a
  // loaded machine can stretch a single frame, so the median is what is held to the budget.
  assert.ok(median <= 8, `median training work per frame ${median} ms > 8 ms`);
  assertClean(app);
});

test("Train on a phone: trains and shows every panel in one column", async (t) => {
  const app = await open(t, { suffix: "#mode=train", context: PHONE });
  const { page } = app;
  await waitForTraining(page, (x) => x.task === "previous-token", "no run");
  // A slow phone's CPU: Chromium runs the page 12× slower, so a step and an accuracy measurement no
  // longer fit one frame's budget together (ui/modes/train/train_pacing.hpp); the accuracy must still
  // follow. (Before the pacing fix the accuracy stayed at its step-0 value, 12.7 %, for ever here.)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 12 });
  await tapWidget(page, "train/play");
  await waitForTraining(page, (x) => x.accuracy >= 0.95, "previous-token did not reach 95 % on a phone", 120_000);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await tapWidget(page, "train/pause");
  await waitForTraining(page, (x) => !x.running, "Pause did not stop on a phone");
  await parkMouse(page);
  await animationFrames(page, 3);
  await screenshot(page, "train-phone-390x844");
  await requireWidget(page, "train/status");
  assertClean(app);
});
