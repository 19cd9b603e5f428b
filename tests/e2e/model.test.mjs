// model.test.mjs — the Model mode in the browser, one launch: the mode loads web/models/fortunes.alm on
// first use (never in the first load); a typed text's tokens, logits, losses, top 10, head roles and
// logit lens equal attention-lab-cli --lm-eval's bit for bit (the same core; native and wasm give the
// same bits, tests/lm_test.cpp); ablating a head (zero, then mean) gives --lm-eval --ablate's numbers;
// Step draws --lm-generate's tokens; a head opens in Explore as its real q, k, v, and dragging a v cell
// changes the model's prediction in the panel to what --lm-eval --override gives for the same numbers,
// and so does a click on a mask cell (--override L.H.mask=FILE); the link reopens all of it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { appOpener, getState, clickWidget, requireWidget, animationFrames, dragWidgetTo, REPO_ROOT } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();
const MODEL = path.join(REPO_ROOT, "web/models/fortunes.alm");
const cli = (...args) => JSON.parse(execFileSync(findCli(), ["--compact", ...args], { encoding: "utf8", maxBuffer: 1 << 28 }));
const getModel = (page, full = false) => page.evaluate((f) => window.attentionLab.getModel(f), full);

async function waitForModel(page, probe, message, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const m = await getModel(page);
    if (m && probe(m)) return m;
    if (Date.now() > deadline) {
      assert.fail(`${message} (waited ${timeout} ms; getModel() = ${JSON.stringify(m && { ...m, lens: undefined })})`);
    }
    await animationFrames(page, 1);
  }
}

const TEXT = "The cat sat on the mat. The cat";
const sameTop = (page, ref, what) => {
  assert.deepEqual(page.map((t) => t.token), ref.map((t) => t.token), `${what}: top ids`);
  assert.deepEqual(page.map((t) => t.p), ref.map((t) => t.p), `${what}: top p`);
};

test("Model: loads on first use; the text, ablations, generation and an opened head equal the CLI's", async (t) => {
  const app = await open(t, { suffix: "#mode=model", context: { viewport: { width: 1280, height: 800 } } });
  const { page } = app;
  const served = () => app.server.requests.map((r) => r.path);
  let m = await waitForModel(page, (x) => x.loaded, "the model did not load", 60_000);
  assert.ok(served().some((p) => p.endsWith("models/fortunes.alm")), "the page did not fetch models/fortunes.alm");
  for (const id of ["mode/model", "model/text", "model/generate", "model/step", "model/temperature", "model/top_k",
                    "model/top_p", "model/seed", "model/prediction", "model/lens", "model/head/0/0", "model/head/1/3",
                    "model/ablate/0/0", "model/ablate/1/3", "model/open/0/0", "model/open/1/3"])
    await requireWidget(page, id);

  // Type a text (the default is replaced).
  await clickWidget(page, "model/text");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(TEXT, { delay: 15 });
  m = await waitForModel(page, (x) => x.text === TEXT, "the typed text did not arrive");
  const full = await getModel(page, true);
  const ref = cli("--lm-eval", MODEL, "--text", TEXT, "--lens", "--roles");
  assert.deepEqual(full.tokens, ref.tokens);
  assert.deepEqual(full.pieces, ref.pieces);
  assert.deepEqual(full.logits, ref.logits, "the page's logits differ from --lm-eval's");
  assert.deepEqual(full.weights, ref.weights, "the page's patterns differ from --lm-eval's");
  assert.equal(full.loss, ref.loss);
  assert.deepEqual(full.perTokenLoss, ref.per_token_loss);
  sameTop(full.top, ref.top, "top 10");
  assert.deepEqual(full.heads.map((h) => [h.layer, h.head, h.role, h.previous_token, h.first_token, h.self, h.entropy, h.prefix_matching]),
                   ref.roles.map((h) => [h.layer, h.head, h.role, h.previous_token, h.first_token, h.self, h.entropy, h.prefix_matching]));
  assert.deepEqual(full.lens, ref.lens, "the logit lens differs from --lm-eval --lens");
  // A screen reader reads the top 10 and every head's role as tables (web/a11y.js).
  await page.waitForFunction((n) => document.querySelectorAll("#a11y-model-top tbody tr").length === 10 &&
                                    document.querySelectorAll("#a11y-model-heads tbody tr").length === n,
                              full.heads.length, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.querySelector("#a11y-model-top tbody td").textContent),
               JSON.stringify(full.top[0].piece));

  // Ablate head 0.1: zero, then mean, then back on.
  await clickWidget(page, "model/ablate/0/1");
  m = await waitForModel(page, (x) => x.ablated.length === 1, "the head was not ablated");
  assert.deepEqual(m.ablated, ["0.1"]);
  const zero = cli("--lm-eval", MODEL, "--text", TEXT, "--ablate", "0.1");
  assert.deepEqual(m.perTokenLoss, zero.per_token_loss);
  sameTop(m.top, zero.top, "top 10 with 0.1 zero-ablated");
  await clickWidget(page, "model/ablate/0/1");
  m = await waitForModel(page, (x) => x.ablated[0] === "0.1:mean", "the head was not mean-ablated");
  const mean = cli("--lm-eval", MODEL, "--text", TEXT, "--ablate", "0.1:mean");
  assert.deepEqual(m.perTokenLoss, mean.per_token_loss);
  sameTop(m.top, mean.top, "top 10 with 0.1 mean-ablated");
  await clickWidget(page, "model/ablate/0/1");
  m = await waitForModel(page, (x) => x.ablated.length === 0, "the head did not come back on");
  assert.equal(m.loss, ref.loss);

  // Open head 1.2 in Explore: its real q, k, v; the panel's prediction is the model's.
  await clickWidget(page, "model/open/1/2");
  m = await waitForModel(page, (x) => x.openedHead && x.openedHead.layer === 1 && x.openedHead.head === 2,
                         "the head did not open");
  const state = await getState(page);
  assert.equal(state.ui.mode, "explore");
  const stages = cli("--lm-eval", MODEL, "--text", TEXT, "--stages");
  assert.deepEqual(state.scene.Q, stages.stages["blocks.1.attn.hook_q"][2], "the scene's Q is not the head's q");
  assert.deepEqual(state.scene.K, stages.stages["blocks.1.attn.hook_k"][2], "the scene's K is not the head's k");
  assert.deepEqual(state.scene.V, stages.stages["blocks.1.attn.hook_v"][2], "the scene's V is not the head's v");
  // Explore's own softmax of those numbers is the model's pattern (to rounding: another kernel).
  const pattern = stages.stages["blocks.1.attn.hook_pattern"][2];
  state.result.weights.forEach((row, i) => row.forEach((w, j) =>
    assert.ok(Math.abs(w - pattern[i][j]) <= 1e-12, `weights[${i}][${j}] ${w} vs the model's ${pattern[i][j]}`)));
  sameTop(m.openedHead.top, m.top, "the opened head's prediction before a drag");

  // Drag the first token's first value number (every later row reads it): the prediction in the panel
  // moves to what the CLI gives with the same v.
  const cell = await requireWidget(page, "V/0/0");
  await dragWidgetTo(page, "V/0/0", cell.cx + 40, cell.cy - 40);
  m = await waitForModel(page, (x) => x.openedHead.edited, "the drag did not edit the head's v");
  const edited = await getState(page);
  const dir = mkdtempSync(path.join(os.tmpdir(), "model-e2e-"));
  writeFileSync(path.join(dir, "v.json"), JSON.stringify(edited.scene.V));
  const over = cli("--lm-eval", MODEL, "--text", TEXT, "--override", `1.2.v=${path.join(dir, "v.json")}`);
  sameTop(m.openedHead.top, over.top, "the prediction after the drag");
  assert.notDeepEqual(m.openedHead.top.map((x) => x.p), m.top.map((x) => x.p), "the drag did not move the prediction");
  await clickWidget(page, "model/reset");
  m = await waitForModel(page, (x) => !x.openedHead.edited, "Reset did not restore the model's numbers");
  sameTop(m.openedHead.top, m.top, "the prediction after Reset");

  // A click on a mask cell hides key 0 from the last query: the prediction is the CLI's with that mask
  // (--override 1.2.mask=FILE, the head's softmax over the keys left).
  const n = m.tokens.length;
  await clickWidget(page, `cell/mask/${n - 1}/0`);
  m = await waitForModel(page, (x) => x.openedHead.edited, "the mask click did not edit the head");
  const allowed = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === n - 1 && j === 0 ? 0 : 1)));
  writeFileSync(path.join(dir, "mask.json"), JSON.stringify(allowed));
  const masked = cli("--lm-eval", MODEL, "--text", TEXT, "--override", `1.2.mask=${path.join(dir, "mask.json")}`);
  sameTop(m.openedHead.top, masked.top, "the prediction after the mask click");
  assert.notDeepEqual(m.openedHead.top.map((x) => x.p), m.top.map((x) => x.p), "the mask click did not move the prediction");
  await clickWidget(page, "model/reset");
  m = await waitForModel(page, (x) => !x.openedHead.edited, "Reset did not clear the mask");
  await clickWidget(page, "model/back");
  m = await waitForModel(page, (x) => x.openedHead === null, "Back did not return to the mode");

  // Step twice: --lm-generate's tokens and probabilities with the same settings and seed.
  await clickWidget(page, "model/step");
  await clickWidget(page, "model/step");
  m = await waitForModel(page, (x) => x.generated.length === 2, "Step did not draw two tokens");
  const s = m.sampling;
  const gen = cli("--lm-generate", MODEL, "--prompt", TEXT, "--tokens", "2", "--seed", s.seed, "--temperature",
                  String(s.temperature), "--top-k", String(s.top_k), "--top-p", String(s.top_p));
  assert.deepEqual(m.generated.map((g) => g.token), gen.tokens);
  assert.deepEqual(m.generated.map((g) => g.p), gen.p);

  // The link holds the text, the generated tokens, an ablation and the opened head; a new page reopens them.
  await clickWidget(page, "model/ablate/1/0");
  await clickWidget(page, "model/step");
  await clickWidget(page, "model/open/0/3");
  m = await waitForModel(page, (x) => x.openedHead && x.openedHead.head === 3 && x.generated.length === 1,
                         "the head did not open after a Step");
  const last = m.tokens.length - 1;
  await clickWidget(page, `cell/mask/${last}/1`);
  m = await waitForModel(page, (x) => x.openedHead.edited, "the mask click did not edit head 0.3");
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.match(link, /#lm=[A-Za-z0-9_-]+&mode=model$/);
  const again = await open(t, { url: link, context: { viewport: { width: 1280, height: 800 } } });
  const reopened = await waitForModel(again.page, (x) => x.loaded && x.openedHead, "the link did not reopen the head", 60_000);
  assert.deepEqual(reopened.tokens, m.tokens);
  assert.deepEqual(reopened.generated, m.generated);
  assert.deepEqual(reopened.ablated, ["1.0"]);
  assert.equal(reopened.openedHead.layer, 0);
  assert.equal(reopened.openedHead.head, 3);
  sameTop(reopened.openedHead.top, m.openedHead.top, "the reopened head's prediction (its mask cell hidden)");
  assert.equal((await getState(again.page)).scene.mask[last][1], 0, "the link did not carry the hidden mask cell");
  const frames = await page.evaluate(() => window.attentionLab.frameStats());
  console.log(`# Model mode: ${m.tokens.length} tokens; frameStats ${JSON.stringify(frames).slice(0, 300)}`);
});
