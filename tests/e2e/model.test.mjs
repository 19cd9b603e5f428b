// model.test.mjs — the Model mode in the browser, one launch: the mode loads web/models/fortunes.alm on
// first use (never in the first load); a typed text's tokens, logits, losses, top 10, head roles and
// logit lens equal attention-lab-cli --lm-eval's bit for bit (the same core; native and wasm give the
// same bits, tests/lm_test.cpp); ablating a head (zero, then mean) gives --lm-eval --ablate's numbers;
// Step draws --lm-generate's tokens; a head opens in Explore as its real q, k, v, and dragging a q cell
// changes the model's prediction in the panel to what --lm-eval --override gives for the same numbers;
// the link reopens all of it.
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

  // Step twice: --lm-generate's tokens and probabilities with the same settings and seed.
  await clickWidget(page, "model/step");
  await clickWidget(page, "model/step");
  m = await waitForModel(page, (x) => x.generated.length === 2, "Step did not draw two tokens");
  const s = m.sampling;
  const gen = cli("--lm-generate", MODEL, "--prompt", TEXT, "--tokens", "2", "--seed", s.seed, "--temperature",
                  String(s.temperature), "--top-k", String(s.top_k), "--top-p", String(s.top_p));
  assert.deepEqual(m.generated.map((g) => g.token), gen.tokens);
  assert.deepEqual(m.generated.map((g) => g.p), gen.p);
  const afterSteps = await page.evaluate(() => window.attentionLab.link());
  assert.match(afterSteps, /#lm=[A-Za-z0-9_-]+&mode=model$/);

  // Open head 1.2 in Explore: its real q, k, v; the panel's prediction is the model's.
  await clickWidget(page, "model/open/1/2");
  m = await waitForModel(page, (x) => x.openedHead && x.openedHead.layer === 1 && x.openedHead.head === 2,
                         "the head did not open");
  const state = await getState(page);
  assert.equal(state.ui.mode, "explore");
  const stages = cli("--lm-eval", MODEL, "--text", TEXT + m.generated.map((g) => g.piece).join(""), "--stages");
  // (The generated pieces re-encode to the same ids here; the check below says so.)
  assert.deepEqual(stages.tokens, m.tokens);
  assert.deepEqual(state.result.Q, stages.stages["blocks.1.attn.hook_q"][2]);
  assert.deepEqual(state.result.weights, stages.stages["blocks.1.attn.hook_pattern"][2]);
  sameTop(m.openedHead.top, m.top, "the opened head's prediction before a drag");

  // Drag a query cell of the last token: the prediction moves in the panel to what the CLI gives with
  // the same q.
  const n = m.tokens.length;
  const cell = await requireWidget(page, `Q/${n - 1}/0`);
  await dragWidgetTo(page, `Q/${n - 1}/0`, cell.cx + 60, cell.cy - 60);
  m = await waitForModel(page, (x) => x.openedHead.edited, "the drag did not edit the head's q");
  const edited = await getState(page);
  const dir = mkdtempSync(path.join(os.tmpdir(), "model-e2e-"));
  writeFileSync(path.join(dir, "q.json"), JSON.stringify(edited.scene.Q));
  const over = cli("--lm-eval", MODEL, "--text", TEXT + m.generated.map((g) => g.piece).join(""), "--override",
                   `1.2.q=${path.join(dir, "q.json")}`);
  sameTop(m.openedHead.top, over.top, "the prediction after the drag");
  assert.notDeepEqual(m.openedHead.top.map((x) => x.p), m.top.map((x) => x.p), "the drag did not move the prediction");
  await clickWidget(page, "model/reset");
  m = await waitForModel(page, (x) => !x.openedHead.edited, "Reset did not restore the model's numbers");
  sameTop(m.openedHead.top, m.top, "the prediction after Reset");

  // The link holds the text, the generated tokens and the opened head; a new page reopens them.
  const link = await page.evaluate(() => window.attentionLab.link());
  const again = await open(t, { url: link, context: { viewport: { width: 1280, height: 800 } } });
  const reopened = await waitForModel(again.page, (x) => x.loaded && x.openedHead, "the link did not reopen the head", 60_000);
  assert.deepEqual(reopened.tokens, m.tokens);
  assert.deepEqual(reopened.generated, m.generated);
  assert.equal(reopened.openedHead.layer, 1);
  assert.equal(reopened.openedHead.head, 2);
  const frames = await page.evaluate(() => window.attentionLab.frameStats());
  console.log(`# Model mode: ${m.tokens.length} tokens; frameStats ${JSON.stringify(frames).slice(0, 300)}`);
});
