// compact.test.mjs — compact vectors in the browser: vectors with many components (colour strips), the
// Example picker naming a loaded demo, and both at 1280×800 and a phone size.
//
// Scenes are generated here with exact two-decimal numbers (no project code): entry (i, c) of Q, K,
// V is a fixed pattern in [−1, 1], so the slider range is 2 and the widest number "−0.00" needs
// about 40 px — wider than the cells d = 16 or 64 leave in the vectors panel.
import { appTest } from "./lib/app_test.mjs";
import assert from "node:assert/strict";
import { getState, widgetRect, waitForState, loadScene, requireWidget, dragWidget, dragWidgetTo, animationFrames, parkMouse, screenshot, appOpener, ctrlClickWidget, typeIntoField } from "./lib/harness.mjs";

const open = appOpener();

/** n tokens, d_k = d_v = d; entries round(sin(…)·100)/100 ∈ [−1, 1], different per matrix. */
function bigScene(n, d) {
  const m = (phase) =>
    Array.from({ length: n }, (_, i) =>
      Array.from({ length: d }, (_, c) => Math.round(Math.sin(1.3 * i + 0.7 * c + phase) * 100) / 100),
    );
  return {
    version: 1,
    tokens: Array.from({ length: n }, (_, i) => `t${i}`),
    Q: m(0),
    K: m(1),
    V: m(2),
    scale: "sqrt_dk",
  };
}

/**
 * widgetRect(id), scrolling the vectors panel sideways (a horizontal wheel over its first cell) until
 * the cell is drawn: the panel scrolls horizontally when the strip is wider than the panel. Each
 * step must move right (the cells seen so far stay found), so a wheel going the wrong way fails.
 */
async function rectScrolledIntoView(page, id, anchor) {
  let rect = await widgetRect(page, id);
  for (let tries = 0; !rect && tries < 40; tries++) {
    // A sideways wheel / trackpad swipe to the right (deltaX > 0) over the strip.
    await page.mouse.move(anchor.cx, anchor.cy);
    await animationFrames(page, 1);
    await page.mouse.wheel(100, 0);
    await animationFrames(page, 2);
    rect = await widgetRect(page, id);
  }
  return rect;
}

/** Every Q/0/c: drawn (after scrolling into view), ≥ 6 CSS px wide, no number wider than the cell. */
async function checkRow(page, d) {
  await parkMouse(page);
  await animationFrames(page, 2);
  const anchor = await requireWidget(page, "Q/0/0");
  for (let c = 0; c < d; c++) {
    const id = `Q/0/${c}`;
    const rect = await rectScrolledIntoView(page, id, anchor);
    assert.ok(rect, `widgetRect("${id}") is null even after scrolling the vectors panel`);
    assert.ok(rect.w >= 6 - 1e-3, `${id}: ${rect.w} CSS px wide (< 6)`);
    assert.ok(typeof rect.text === "number", `${id}: the layout data gives the width of its text`);
    assert.ok(rect.text <= rect.w, `${id}: its number is ${rect.text} px wide in a ${rect.w} px cell`);
  }
}

/** A real mouse drag upwards on a strip cell: exactly that entry changes, and upwards = larger. */
async function dragUpChangesOnly(page, id, matrix, i, c) {
  const before = (await getState(page)).scene;
  const rect = await requireWidget(page, id);
  await dragWidgetTo(page, id, rect.cx, rect.cy - 30, 10); // 3 px a frame
  const after = await waitForState(page, (s) => s.scene[matrix][i][c] !== before[matrix][i][c], `dragging ${id} up did not change ${matrix}[${i}][${c}]`);
  assert.ok(after.scene[matrix][i][c] > before[matrix][i][c], `${id}: dragging up made it larger`);
  for (const name of ["Q", "K", "V"]) {
    before[name].forEach((row, r) =>
      row.forEach((v, k) => {
        if (name === matrix && r === i && k === c) return;
        assert.equal(after.scene[name][r][k], v, `${name}[${r}][${k}] changed too`);
      }),
    );
  }
  return after;
}

appTest("d_k = 16, 4 tokens at 1280×800: colour strips, every Q/0/c reachable, a drag changes exactly Q[0][15]", open, async ({ page }) => {
  await loadScene(page, bigScene(4, 16));
  const state = await getState(page);
  assert.deepEqual(state.ui.vectors, { Q: "strip", K: "strip", V: "strip" }, "16 components do not fit as sliders");
  await checkRow(page, 16);
  await screenshot(page, "compact-d16-1280x800");
  await dragUpChangesOnly(page, "Q/0/15", "Q", 0, 15);
  // Ctrl+click on a strip cell opens a field (type/K/1/3) next to it: typing sets exactly that value.
  await ctrlClickWidget(page, "K/1/3");
  const field = await requireWidget(page, "type/K/1/3");
  assert.ok(field.w >= 60, `the typing field is ${field.w} px wide`);
  await typeIntoField(page, "-0.375");
  const typed = await waitForState(page, (s) => s.scene.K[1][3] === -0.375, "typing -0.375 into K/1/3 did not set it");
  assert.equal(await widgetRect(page, "type/K/1/3"), null, "the field closes after Enter");
  assert.ok(typed.ui.edited, "getState().ui.edited after an edit");
  // The zoomed token shows every number, each within its cell.
  const zoom = await requireWidget(page, "zoom/0");
  await page.mouse.move(zoom.cx, zoom.cy);
  await page.mouse.down();
  await animationFrames(page, 2);
  await page.mouse.up();
  await animationFrames(page, 2);
  await parkMouse(page);
  await animationFrames(page, 2);
  for (let c = 0; c < 16; c++) {
    assert.ok(await widgetRect(page, `Q/0/${c}`), `Q/0/${c} (the strip) while token 0 is zoomed`);
    const r = await widgetRect(page, `zoom/Q/0/${c}`);
    assert.ok(r, `zoom/Q/0/${c}: the zoomed view's cell`);
    assert.ok(r.text > 0 && r.text <= r.w, `zoom/Q/0/${c}: ${r.text} px of text in a ${r.w} px cell`);
  }
  const numbered = await requireWidget(page, "zoom/close");
  assert.ok(numbered.w > 0);
  await screenshot(page, "compact-d16-zoomed-1280x800");
});

appTest("d = 64, 64 tokens at 1280×800: every Q/0/c drawn ≥ 6 px, a drag changes exactly Q[0][15]", open, async ({ page }) => {
  await loadScene(page, bigScene(64, 64));
  assert.equal((await getState(page)).ui.vectors.Q, "strip");
  await checkRow(page, 64);
  await screenshot(page, "compact-d64-1280x800");
  await dragUpChangesOnly(page, "Q/0/15", "Q", 0, 15);
});

appTest("d = 64 on a phone (390×844): the strip scrolls sideways to reach Q/0/63", (t) => open(t, { context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 } }), async ({ page }) => {
  await loadScene(page, bigScene(8, 64));
  assert.equal((await getState(page)).ui.vectors.Q, "strip");
  await checkRow(page, 64);
  await screenshot(page, "compact-d64-phone");
});

appTest("#demo=two-keys-tie: the Example picker names the demo (getState().ui.example), · edited after a change", (t) => open(t, { suffix: "#demo=two-keys-tie" }), async ({ page }) => {
  const state = await getState(page);
  assert.equal(state.scene.tokens.join(), "cat,dog,pet");
  assert.equal(state.ui.example, "Two keys tie", "getState().ui.example");
  assert.equal(state.ui.edited, false, "getState().ui.edited right after loading");
  assert.equal(state.ui.mode, "explore", "getState().ui keeps mode");
  await screenshot(page, "picker-two-keys-tie");
  await dragWidget(page, "Q/0/0", 40);
  const edited = await waitForState(page, (s) => s.ui.edited, "a drag did not mark the scene edited");
  assert.equal(edited.ui.example, "Two keys tie", "still the demo's name after an edit");
  // Another link's scene: the demo's name goes.
  await page.evaluate(() => (location.hash = "demo=causal-5"));
  const causal = await waitForState(page, (s) => s.ui.example !== "Two keys tie", "#demo=causal-5 did not load");
  assert.equal(causal.ui.example, "Lesson 4 · Do not read the future");
  assert.equal(causal.ui.edited, false);
});
