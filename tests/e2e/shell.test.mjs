// shell.test.mjs — the page shell and input paths beyond app.test.mjs's numbered tests: keyboard entry
// into a slider, hover tooltips, a lost-and-restored WebGL context, and the message shown when
// WebGL2 is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, describeProblems, setState, getState, frameStats, waitForState, requireWidget, animationFrames, parkMouse, screenshot, READY_TIMEOUT_MS, appOpener, loadScene, ctrlClickWidget, typeIntoField } from "./lib/harness.mjs";
import { attend, maxAbsDiff } from "./lib/reference.mjs";
import { presetScene } from "./lib/presets.mjs";

const open = appOpener();

test("after ready nothing covers the canvas (the loading overlay is gone)", async (t) => {
  const app = await open(t);
  const { page } = app;
  const covering = await page.evaluate(() =>
    [
      [0.5, 0.5],
      [0.1, 0.1],
      [0.9, 0.9],
    ].map(([fx, fy]) => document.elementFromPoint(innerWidth * fx, innerHeight * fy)?.tagName ?? null),
  );
  assert.deepEqual(covering, ["CANVAS", "CANVAS", "CANVAS"], "elements at the centre and corners of the window");
  assertClean(app);
});

test("keyboard entry: Ctrl+click on Q/0/0, type 0.25, Enter sets exactly that value", async (t) => {
  const app = await open(t);
  const { page } = app;
  await loadScene(page, presetScene("soft-dictionary"));
  await ctrlClickWidget(page, "Q/0/0");
  // ImGui selects the slider's text on entering text mode; clear it explicitly anyway.
  await typeIntoField(page, "0.25");
  const after = await waitForState(page, (s) => s.scene.Q[0][0] === 0.25, "typing 0.25 into Q/0/0 did not set it");
  assert.ok(maxAbsDiff(after.result.weights, attend(after.scene).weights) <= 1e-5, "weights match the JS reference");
  assertClean(app);
});

test("hover: tooltips on a weight cell and a score cell (screenshots for review)", async (t) => {
  const app = await open(t);
  const { page } = app;
  await loadScene(page, { ...presetScene("practice-qkv"), causal: false });
  for (const id of ["cell/weights/0/1", "cell/scores/2/0"]) {
    const { cx, cy } = await requireWidget(page, id);
    const before = await frameStats(page);
    await page.mouse.move(cx - 3, cy);
    await animationFrames(page, 2);
    await page.mouse.move(cx, cy);
    await animationFrames(page, 6);
    const after = await frameStats(page);
    assert.ok(after.frames > before.frames, `hovering ${id} drew no frame`);
    assert.equal(after.recomputes, before.recomputes, `hovering ${id} recomputed`);
    const file = await screenshot(page, `hover-${id.replaceAll("/", "-")}`);
    t.diagnostic(file);
  }
  assertClean(app);
});

test("a lost WebGL context is restored and the page draws the same picture again", async (t) => {
  const app = await open(t);
  const { page } = app;
  await loadScene(page, presetScene("causal-5"));
  await parkMouse(page);
  await animationFrames(page, 6);
  const before = await page.screenshot();

  const lost = await page.evaluate(async () => {
    const canvas = document.querySelector("canvas");
    const gl = canvas.getContext("webgl2");  // the app's own context (same type → same object)
    const ext = gl && gl.getExtension("WEBGL_lose_context");
    if (!ext) return "no WEBGL_lose_context";
    ext.loseContext();
    await new Promise((r) => setTimeout(r, 300));
    const wasLost = gl.isContextLost();
    ext.restoreContext();
    return wasLost ? "ok" : "context was not lost";
  });
  assert.equal(lost, "ok");
  // Give the app time to rebuild its GL objects and redraw; nudge it with a mouse move.
  const deadline = Date.now() + 15_000;
  let after;
  for (;;) {
    await page.mouse.move(10, 10);
    await animationFrames(page, 2);
    await parkMouse(page);
    await animationFrames(page, 6);
    after = await page.screenshot();
    if (after.equals(before) || Date.now() > deadline) break;
    await page.waitForTimeout(500);
  }
  await screenshot(page, "after-context-restore");
  assert.ok(after.equals(before), "the picture after the context came back differs from before (see build/e2e/after-context-restore.png)");
  // Still alive: an edit goes through.
  const state = await getState(page);
  assert.deepEqual(await setState(page, { ...state.scene, causal: false }), { ok: true });
  await waitForState(page, (s) => s.scene.causal === false, "setState after the restore did not apply");
  assert.deepEqual(app.pageErrors, [], describeProblems(app));
});

test("without WebGL2 the page says so instead of staying blank", async (t) => {
  const app = await open(t, { waitReady: false, initScript: () => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return type === "webgl2" ? null : original.call(this, type, ...rest);
    };
  } });
  const { page } = app;
  const outcome = await page.evaluate(
    (ms) =>
      Promise.race([
        window.attentionLab.ready.then(
          () => "resolved",
          (e) => `rejected: ${e.message}`,
        ),
        new Promise((r) => setTimeout(() => r("pending"), ms)),
      ]),
    Math.min(READY_TIMEOUT_MS, 15_000),
  );
  assert.match(outcome, /^rejected: .*WebGL ?2/i, "ready rejects naming WebGL2");
  const visibleText = await page.evaluate(() => document.body.innerText);
  assert.match(visibleText, /WebGL ?2/i, "the page shows a message naming WebGL2");
  await screenshot(page, "no-webgl2");
  assert.deepEqual(app.pageErrors, [], describeProblems(app));
  assert.deepEqual(app.externalRequests, [], "no request leaves the origin");
});
