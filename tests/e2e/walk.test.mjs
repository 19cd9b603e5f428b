// walk.test.mjs — the guided walk through the pipeline, the quiz, the Scores panel's
// two grids and the weights' reading aids, in headless Chromium against the built site.
//
// Numbers in the step text are checked against getState() (the page's own result) formatted the way
// the sentences print them, and practice-qkv row 0's sentences literally (LESSONS.md example 1:
// tests/fixtures/lessons.json, walk_row0, the same the C++ and desktop tests check).
import { test } from "node:test";
import assert from "node:assert/strict";
import { lessons } from "./lib/lessons.mjs";
import { appOpener, getState, waitForState, clickWidget, dragWidget, requireWidget, widgetRect, parkMouse, animationFrames, screenshot, assertClean } from "./lib/harness.mjs";

const open = appOpener();

const getStep = (page) => page.evaluate(() => window.attentionLab.getStep());
const setStep = (page, i) => page.evaluate((k) => window.attentionLab.setStep(k), i);
const getQuiz = (page) => page.evaluate(() => window.attentionLab.getQuiz());
const lastError = (page) => page.evaluate(() => window.attentionLab.lastError());

/** A number as the walk's sentences print it (ui/walk_steps short_number): fixed decimals,
 *  trailing zeros dropped, a real minus sign, no "−0". */
function short(value, decimals) {
  let text = value.toFixed(decimals);
  if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  if (/^-0$/.test(text)) text = "0";
  return text.replace("-", "−");
}
const list = (row, decimals) => row.map((v) => short(v, decimals)).join(", ");

/** A key pressed and released in different frames (as clickWidget does for the mouse). */
async function pressKey(page, key) {
  await page.keyboard.down(key);
  await animationFrames(page, 2);
  await page.keyboard.up(key);
  await animationFrames(page, 2);
}

async function waitStep(page, probe, message) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const step = await getStep(page);
    if (probe(step)) return step;
    if (Date.now() > deadline) assert.fail(`${message}: getStep() = ${JSON.stringify(step)}`);
    await animationFrames(page, 1);
  }
}

/** The numbers each step's sentence must contain, from the page's own result (row i). */
function expectedNumbers(title, state, i) {
  const r = state.result;
  if (title.startsWith("The tokens")) return [`x = [${list(state.scene.X[i], 3)}]`];
  if (title.startsWith("Three roles"))
    return [`q = [${list(r.Q[i], 3)}]`, `k = [${list(r.K[i], 3)}]`, `v = [${list(r.V[i], 3)}]`];
  if (title.startsWith("Scores"))
    return state.scene.tokens.map((t, j) => `'${t}' ${short(r.scores[i][j], 2)}`);
  if (title.startsWith("Scale"))
    return [`scores ${list(r.scores[i], 2)} →`, `→ ${list(r.scaled[i].map((v, j) => v ?? r.scores[i][j] / r.divisor), 2)}.`];
  if (title.startsWith("Mask"))
    return [`→ ${r.scaled[i].map((v) => (v === null ? "−∞" : short(v, 2))).join(", ")}.`];
  if (title.startsWith("Softmax")) return [`weights ${list(r.weights[i], 3)} (sum 1)`];
  if (title.startsWith("Blend"))
    return r.weights[i].map((w, j) => `${short(w, 3)} × [${list(r.V[j], 2)}]`);
  if (title.startsWith("The output")) return [`y = [${list(r.output[i], 3)}]`];
  assert.fail(`unknown step title ${title}`);
}

async function assertStepNumbers(page, step) {
  const state = await getState(page);
  assert.equal(step.row, 0, "the walk follows row 0");
  for (const part of expectedNumbers(step.title, state, 0)) {
    assert.ok(step.numbers.includes(part), `step ${step.index + 1} "${step.title}": "${step.numbers}" lacks "${part}"`);
  }
}

test("walk: Walk through on practice-qkv, Next through all 8 steps and back, numbers from getState", async (t) => {
  const app = await open(t, { suffix: "#demo=practice-qkv", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  assert.equal((await getStep(page)).index, -1, "no walk before Walk through");
  await clickWidget(page, "walk/start");
  let step = await waitStep(page, (s) => s.index === 0, "Walk through starts at step 1");
  assert.equal(step.count, 8, "a projected scene walks 8 steps");
  assert.equal(step.title, "The tokens: X");
  assert.equal((await getState(page)).ui.mode, "walk");
  assert.match(await page.evaluate(() => window.attentionLab.link()), /mode=walk&step=1\b/, "the link carries the step");

  const titles = [];
  for (let k = 0; k < 8; k++) {
    step = await waitStep(page, (s) => s.index === k, `step ${k + 1}`);
    titles.push(step.title);
    assert.ok(step.text.length > 80, `step ${k + 1} has its sentences`);
    await assertStepNumbers(page, step);
    await requireWidget(page, "walk/counter");
    if (k < 7) await clickWidget(page, "walk/next");
  }
  assert.deepEqual(titles, [
    "The tokens: X",
    "Three roles: Q, K, V",
    "Scores: Q Kᵀ",
    "Scale: none here",
    "Mask: + M (nothing hidden here)",
    "Softmax: scores → weights",
    "Blend: weights · V",
    "The output: Y",
  ]);
  // Lesson 1's numbers, literally.
  step = await getStep(page);
  assert.equal(step.numbers, lessons["practice-qkv"].walk_row0.output);
  for (let k = 6; k >= 0; k--) {
    await clickWidget(page, "walk/prev");
    await waitStep(page, (s) => s.index === k, `back to step ${k + 1}`);
  }
  // Prev at the first step does nothing.
  await clickWidget(page, "walk/prev");
  await animationFrames(page, 3);
  assert.equal((await getStep(page)).index, 0);
  assertClean(app);
});

test("walk: ←/→ step, Esc leaves, a slider drag at the softmax step updates the sentence", async (t) => {
  const app = await open(t, { suffix: "#demo=practice-qkv", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await clickWidget(page, "walk/start");
  await waitStep(page, (s) => s.index === 0, "walk started");
  await parkMouse(page);
  for (let k = 1; k <= 5; k++) {
    await pressKey(page, "ArrowRight");
    await waitStep(page, (s) => s.index === k, `→ to step ${k + 1}`);
  }
  await pressKey(page, "ArrowLeft");
  let step = await waitStep(page, (s) => s.index === 4, "← back to step 5");
  await pressKey(page, "ArrowRight");
  step = await waitStep(page, (s) => s.title.startsWith("Softmax"), "the softmax step");
  assert.equal(step.numbers, lessons["practice-qkv"].walk_row0.softmax);

  // Every control stays live: drag x_0[0] (practice-qkv is learned: its q, k, v are computed from
  // x); the scene stays learned, the walk stays on softmax, and the sentence shows the new weights.
  const before = (await getState(page)).result.weights[0];
  await dragWidget(page, "X/0/0", 60);
  const state = await waitForState(page, (s) => s.result.weights[0][0] !== before[0], "the drag changed row 0");
  step = await waitStep(page, (s) => s.title.startsWith("Softmax") && s.count === 8, "still at softmax, 8 steps");
  assert.equal(step.index, 5, "with X, softmax is step 6 of 8");
  await assertStepNumbers(page, await getStep(page));
  assert.notEqual(step.numbers, lessons["practice-qkv"].walk_row0.softmax,
    `numbers followed the drag: ${step.numbers} (weights ${state.result.weights[0]})`);

  await pressKey(page, "Escape");
  step = await waitStep(page, (s) => s.index === -1, "Esc leaves the walk");
  assert.equal((await getState(page)).ui.mode, "explore");
  assert.equal(await widgetRect(page, "walk/next"), null, "the step card is gone");
  assertClean(app);
});

test("walk: a link with step=4 opens at step 4; setStep; bad step= is refused by name", async (t) => {
  const app = await open(t, { suffix: "#demo=practice-qkv&mode=walk&step=4" });
  const { page } = app;
  let step = await waitStep(page, (s) => s.index === 3, "step=4 opens the 4th step");
  assert.equal(step.title, "Scale: none here");
  await assertStepNumbers(page, step);

  // causal-5 is direct: 7 steps, the 4th is the mask.
  await page.evaluate(() => (location.hash = "#demo=causal-5&step=4"));
  step = await waitStep(page, (s) => s.title === "Mask: + M", "causal-5 step=4 is + M");
  assert.equal(step.count, 7);
  assert.equal(step.numbers, "Row 'the': 'cat', 'sat', 'on' and 'mats' hidden → 0.71, −∞, −∞, −∞, −∞.");

  assert.deepEqual(await setStep(page, 5), { ok: true });
  step = await waitStep(page, (s) => s.index === 5, "setStep(5)");
  assert.equal(step.title, "Blend: weights · V");
  assert.match(await page.evaluate(() => window.attentionLab.link()), /&step=6\b/);
  const bad = await setStep(page, 7);
  assert.equal(bad.ok, false);
  assert.match(bad.error, /^step: /);
  assert.equal((await getStep(page)).index, 5, "a bad setStep keeps the step");
  assert.deepEqual(await setStep(page, -1), { ok: true });
  await waitStep(page, (s) => s.index === -1, "setStep(-1) leaves");

  await page.evaluate(() => (location.hash = "#demo=causal-5&step=0"));
  const deadline = Date.now() + 20_000;
  while (!(await lastError(page)) && Date.now() < deadline) await animationFrames(page, 1);
  const error = await lastError(page);
  assert.match(String(error), /step=0 is not a step of the walk/, `step=0 is refused naming step=: ${error}`);
  assert.equal((await getStep(page)).index, -1, "a refused link keeps the state");
});

test("quiz: every question answered wrong then right shows the right feedback; show me opens the scene", async (t) => {
  const app = await open(t, { suffix: "#demo=practice-qkv", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await clickWidget(page, "quiz/open");
  let quiz = await getQuiz(page);
  assert.equal(quiz.open, true);
  assert.ok(quiz.count >= 6);
  for (let q = 0; q < quiz.count; q++) {
    quiz = await getQuiz(page);
    assert.equal(quiz.question, q);
    const wrong = quiz.answer === 0 ? 1 : 0;
    await clickWidget(page, `quiz/${q}/choice/${wrong}`);
    quiz = await getQuiz(page);
    assert.equal(quiz.picked[q], wrong);
    assert.match(quiz.feedback, /^Not quite: the answer is "/, `question ${q + 1} wrong`);
    assert.ok(quiz.explanation.length > 40);
    await clickWidget(page, `quiz/${q}/choice/${quiz.answer}`);
    quiz = await getQuiz(page);
    assert.equal(quiz.feedback, "Right!", `question ${q + 1} right`);
    if (q + 1 < quiz.count) await clickWidget(page, "quiz/next");
  }
  assert.equal((await getQuiz(page)).right, quiz.count, "every question right in the end");

  // The causal question's "show me": causal-5 at + M with row 2 'sat' followed.
  const causal = (await page.evaluate(() => window.attentionLab.getQuiz().questions)).findIndex((p) => p.includes("causal"));
  assert.ok(causal >= 0);
  await page.evaluate((q) => window.attentionLab.openQuiz(q), causal);
  await clickWidget(page, `quiz/${causal}/showme`);
  const step = await waitStep(page, (s) => s.title === "Mask: + M", "show me opens the mask step");
  assert.equal(step.row, 2);
  assert.equal(step.numbers, "Row 'sat': 'on' and 'mats' hidden → 0.71, 1.41, 0.71, −∞, −∞.");
  const state = await getState(page);
  assert.deepEqual(state.scene.tokens, ["the", "cat", "sat", "on", "mats"]);
  assert.equal((await getQuiz(page)).open, false, "the quiz steps aside");
  await clickWidget(page, "quiz/back");
  assert.equal((await getQuiz(page)).question, causal, "back to the same question");
  assertClean(app);
});

test("quiz: each panel's Check yourself line opens the quiz at its own question", async (t) => {
  const app = await open(t, { suffix: "#demo=practice-qkv", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  // ui/panels/panel_parts.hpp pairs each panel's line with a quiz question (ui/modes/walk/quiz.cpp).
  const lines = [
    ["check/scores", 0, /^Which two things decide how much one token attends/],
    ["check/weights", 1, /^Fill in: scores = Q @ ____/],
    ["check/mask", 6, /^With a causal mask over 5 tokens/],
    ["check/output", 7, /^The query \[1, 0\] meets the keys/],
  ];
  const questions = await page.evaluate(() => window.attentionLab.getQuiz().questions);
  for (const [id, q, text] of lines) {
    assert.equal((await getQuiz(page)).open, false, `${id}: the quiz is closed before the click`);
    await clickWidget(page, id);
    const quiz = await getQuiz(page);
    assert.equal(quiz.open, true, `${id} opens the quiz`);
    assert.equal(quiz.question, q, `${id} opens question ${q + 1}`);
    assert.match(questions[q], text, `${id}: question ${q + 1} is the panel's question`);
    await page.evaluate(() => window.attentionLab.openQuiz(-1));
  }
  assertClean(app);
});

test("walk: screenshots of every step at 1280×720 and on a phone", async (t) => {
  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 720 }],
    ["phone", { width: 390, height: 844 }],
  ]) {
    const app = await open(t, {
      suffix: "#demo=practice-qkv&mode=walk&step=1",
      context: { viewport, deviceScaleFactor: 1, ...(name === "phone" ? { isMobile: true, hasTouch: true } : {}) },
    });
    const { page } = app;
    await waitStep(page, (s) => s.index === 0, "walk at step 1");
    const count = (await getStep(page)).count;
    for (let k = 0; k < count; k++) {
      assert.deepEqual(await setStep(page, k), { ok: true });
      await waitStep(page, (s) => s.index === k, `step ${k + 1}`);
      await requireWidget(page, "walk/next");
      await parkMouse(page);
      await animationFrames(page, 3);
      await screenshot(page, `walk-${name}-${k + 1}`);
    }
    await clickWidget(page, "walk/next");  // the last step's Next opens the quiz
    assert.equal((await getQuiz(page)).open, true, `${name}: Quiz ▶ on the last step opens the quiz`);
    await clickWidget(page, `quiz/0/choice/0`);
    await screenshot(page, `walk-${name}-quiz`);
  }
});
