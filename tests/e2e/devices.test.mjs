// devices.test.mjs — the canvas on other devices: a touch screen (tap, finger drag), a HiDPI
// screen (backing store = CSS size × devicePixelRatio) and window resizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, setState, getState, waitForState, tapWidget, requireWidget, animationFrames, canvasGeometry, screenshot, appOpener, loadScene } from "./lib/harness.mjs";
import { attend, maxAbsDiff } from "./lib/reference.mjs";
import { presetScene, unmaskedPreset } from "./lib/presets.mjs";

const open = appOpener();

/** The backing store must be the CSS box × devicePixelRatio (±1 px for rounding). */
function assertBackingStore(geometry, what) {
  assert.ok(geometry, `${what}: no canvas`);
  const wantW = geometry.cssWidth * geometry.dpr;
  const wantH = geometry.cssHeight * geometry.dpr;
  assert.ok(
    Math.abs(geometry.width - wantW) <= 1 && Math.abs(geometry.height - wantH) <= 1,
    `${what}: backing store ${geometry.width}×${geometry.height}, CSS ${geometry.cssWidth}×${geometry.cssHeight} × dpr ${geometry.dpr} = ${wantW}×${wantH}`,
  );
}

/** Wait (a few seconds at most) until the canvas geometry satisfies `probe`. */
async function waitForCanvas(page, probe, message) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const geometry = await canvasGeometry(page);
    if (geometry && probe(geometry)) return geometry;
    if (Date.now() > deadline) assert.fail(`${message}: ${JSON.stringify(geometry)}`);
    await animationFrames(page, 2);
  }
}

const phone = { viewport: { width: 915, height: 412 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

test("touch: a tap toggles causal", async (t) => {
  const app = await open(t, { context: phone });
  const { page } = app;
  await loadScene(page, unmaskedPreset("practice-qkv"));

  await tapWidget(page, "causal");
  const on = await waitForState(page, (s) => s.scene.causal === true, "a tap on causal did not set it");
  assert.equal(on.result.weights[0][1], 0, "weights[0][1] masked after the tap");
  assert.equal(on.result.weights[0][2], 0, "weights[0][2] masked after the tap");
  await animationFrames(page, 4);
  await tapWidget(page, "causal");
  await waitForState(page, (s) => s.scene.causal === false, "a second tap did not clear causal");
  await screenshot(page, "touch-phone-landscape");
  assertClean(app);
});

test("touch: after a tap no highlight or tooltip stays where the finger was", async (t) => {
  const app = await open(t, { context: phone });
  const { page } = app;
  await loadScene(page, presetScene("causal-5"));
  await animationFrames(page, 6);
  const untouched = await page.screenshot();
  // A weights cell: hovering it outlines the cell, its row and column, and opens the derivation
  // tooltip; a tap edits nothing, so once the finger is lifted the screen must be as before.
  await tapWidget(page, "cell/weights/2/1");
  await animationFrames(page, 8);
  const lifted = await page.screenshot();
  await screenshot(page, "touch-after-tap");
  assert.ok(untouched.equals(lifted), "the screen after a tap differs from before it (hover left behind; see touch-after-tap.png)");
  // The tap itself still reaches ImGui at the finger's position: a tap on causal toggles it.
  await tapWidget(page, "causal");
  await waitForState(page, (s) => s.scene.causal === false, "a tap on causal after the cell tap did not clear it");
  assertClean(app);
});

// At 915×412 landscape the controls panel is capped so that the vectors panel starts on screen.
test("touch: a finger drag moves the Q/0/0 slider", async (t) => {
  const app = await open(t, { context: phone });
  const { page, context } = app;
  const before = await loadScene(page, presetScene("soft-dictionary"));
  const rect = await requireWidget(page, "Q/0/0");

  // playwright has tap() only; a drag is raw touch events through the DevTools protocol.
  const cdp = await context.newCDPSession(page);
  const touch = (type, x, y) =>
    cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
  const dx = -rect.w / 3;
  await touch("touchStart", rect.cx, rect.cy);
  await animationFrames(page, 2);
  for (let i = 1; i <= 12; i++) {
    await touch("touchMove", rect.cx + (dx * i) / 12, rect.cy);
    await animationFrames(page, 1);
  }
  await touch("touchEnd");
  await animationFrames(page, 2);

  const after = await waitForState(page, (s) => s.scene.Q[0][0] < before.scene.Q[0][0], "a finger drag to the left did not lower Q[0][0]");
  assert.ok(maxAbsDiff(after.result.weights, attend(after.scene).weights) <= 1e-5, "weights match the JS reference");
  assertClean(app);
});

test("HiDPI: at devicePixelRatio 2 the backing store is twice the CSS size", async (t) => {
  const app = await open(t, { context: { viewport: { width: 1000, height: 700 }, deviceScaleFactor: 2 } });
  const { page } = app;
  const geometry = await waitForCanvas(page, (g) => g.width === Math.round(g.cssWidth * 2), "backing store is not 2× the CSS width");
  assert.equal(geometry.dpr, 2);
  assertBackingStore(geometry, "dpr 2");
  // The canvas fills the window.
  assert.equal(geometry.cssWidth, 1000, "canvas CSS width = viewport width");
  assert.equal(geometry.cssHeight, 700, "canvas CSS height = viewport height");
  // widgetRect stays in CSS pixels: a widget lies inside the 1000×700 CSS viewport.
  const rect = await requireWidget(page, "causal");
  assert.ok(rect.x + rect.w <= 1000 && rect.y + rect.h <= 700, `widgetRect(causal) = ${JSON.stringify(rect)} is in CSS px`);
  await screenshot(page, "hidpi-start");
  assertClean(app);
});

test("resize: the canvas follows the window and the layout stays on screen", async (t) => {
  const app = await open(t, { context: { viewport: { width: 1280, height: 800 } } });
  const { page } = app;
  assertBackingStore(await canvasGeometry(page), "1280×800");
  const state = await getState(page);

  for (const [width, height] of [
    [900, 600],
    [1440, 900],
    [700, 900],
  ]) {
    await page.setViewportSize({ width, height });
    const geometry = await waitForCanvas(
      page,
      (g) => g.cssWidth === width && g.cssHeight === height && Math.abs(g.width - width * g.dpr) <= 1 && Math.abs(g.height - height * g.dpr) <= 1,
      `canvas did not follow the resize to ${width}×${height}`,
    );
    assertBackingStore(geometry, `${width}×${height}`);
    await animationFrames(page, 4);
    // The controls are laid out again inside the new size.
    const rect = await requireWidget(page, "causal");
    assert.ok(rect.x + rect.w <= width && rect.y + rect.h <= height, `causal at ${JSON.stringify(rect)} outside ${width}×${height}`);
  }
  // A resize is not an edit.
  assert.deepEqual((await getState(page)).scene, state.scene, "resizing changed the scene");
  assertClean(app);
});
