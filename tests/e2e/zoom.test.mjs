// zoom.test.mjs — zoom and pan on the Scores and Weights grids (ui/widgets/grid_view.hpp): the wheel zooms
// about the pointer, a drag pans, a double-click (or the zoom badge) fits the whole grid; cell rects,
// hover and the derivation tooltip follow the view; both grids share it.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  animationFrames,
  appOpener,
  assertClean,
  clickWidget,
  getState,
  parkMouse,
  requireWidget,
  screenshot,
  waitForState,
  widgetRect,
  PHONE,
} from "./lib/harness.mjs";

const open = appOpener();
const VIEWPORT = { viewport: { width: 1280, height: 720 } };

/** Wheel notches over (x, y): negative deltaY zooms in (one notch = 100 px = one GLFW step). */
async function wheel(page, x, y, notches) {
  await page.mouse.move(x, y);
  await animationFrames(page, 2);
  for (let k = 0; k < Math.abs(notches); k++) {
    await page.mouse.wheel(0, notches > 0 ? -100 : 100);
    await animationFrames(page, 2);
  }
}

test("zoom: the wheel zooms both grids about the pointer; cells, hover and tooltip follow", async (t) => {
  const { page, ...app } = await open(t, { suffix: "#gen=local,64,16,16,1", context: VIEWPORT });
  await waitForState(page, (s) => s.scene.tokens.length === 64, "the #gen= scene did not load");
  const before = await requireWidget(page, "cell/weights/40/20");
  const scoresBefore = await requireWidget(page, "cell/scores/40/20");
  assert.deepEqual((await getState(page)).ui.gridView, { zoom: 1, row0: 0, col0: 0, span: 64 });
  await requireWidget(page, "weights/zoom"); // the badge hints that 64 tokens zoom

  // Six notches up over cell (40, 20) of the weights: zoom 1.25⁶ ≈ 3.81 about that point.
  await wheel(page, before.cx, before.cy, 6);
  const state = await waitForState(page, (s) => s.ui.gridView.zoom > 3.8, "the wheel did not zoom");
  const view = state.ui.gridView;
  assert.ok(Math.abs(view.zoom - 1.25 ** 6) < 1e-3, `zoom ${view.zoom}`);
  assert.ok(Math.abs(view.span - 64 / 1.25 ** 6) < 1e-3, `span ${view.span}`);
  const after = await requireWidget(page, "cell/weights/40/20");
  assert.ok(Math.abs(after.w / before.w - view.zoom) < 0.02 * view.zoom, `cell ${before.w} → ${after.w} px`);
  // The cell under the pointer is still under it.
  assert.ok(after.x <= before.cx && before.cx < after.x + after.w && after.y <= before.cy && before.cy < after.y + after.h,
    `cell (40, 20) moved from under the pointer: ${JSON.stringify(after)}`);
  // The Scores grid shares the view: its cell grew alike; far cells left both views.
  const scoresAfter = await requireWidget(page, "cell/scores/40/20");
  assert.ok(Math.abs(scoresAfter.w / scoresBefore.w - view.zoom) < 0.02 * view.zoom);
  assert.equal(await widgetRect(page, "cell/weights/0/0"), null, "cell (0, 0) is out of view");
  assert.equal(await widgetRect(page, "cell/scores/63/63"), null, "cell (63, 63) is out of view");

  // Hover a zoomed cell near the diagonal: the derivation is that cell's, ending in the core's weight.
  const cell = await requireWidget(page, "cell/weights/31/30");
  await page.mouse.move(cell.cx, cell.cy);
  const hovered = await waitForState(page, (s) => s.ui.tooltip.startsWith("a[31][30]"), "hover at zoom: tooltip");
  const w = hovered.result.weights[31][30];
  assert.ok(w > 1e-3, `a[31][30] = ${w}`);
  const derived = hovered.ui.tooltip.match(/exp\(s − max\) \/ Σ = .* = ([0-9.]+)\n/);
  assert.ok(derived, `no softmax line in the tooltip: ${hovered.ui.tooltip}`);
  assert.ok(Math.abs(Number(derived[1]) - w) <= 5e-7, `the tooltip derives ${derived[1]}, the core ${w}`);
  await screenshot(page, "zoom-local-64");

  // Drag to pan: 3 cells to the left moves the view 3 columns right.
  const col0 = (await getState(page)).ui.gridView.col0;
  const step = after.w;
  await page.mouse.move(cell.cx, cell.cy);
  await page.mouse.down();
  for (let k = 1; k <= 6; k++) {
    await page.mouse.move(cell.cx - (3 * step * k) / 6, cell.cy);
    await animationFrames(page, 1);
  }
  await page.mouse.up();
  const panned = await waitForState(page, (s) => s.ui.gridView.col0 > col0 + 2.5, "the drag did not pan");
  assert.ok(Math.abs(panned.ui.gridView.col0 - (col0 + 3)) < 0.25, `col0 ${col0} → ${panned.ui.gridView.col0}`);
  assert.equal(panned.ui.gridView.zoom, view.zoom, "panning keeps the zoom");

  // A double-click fits the whole grid: two clicks a frame apart (ImGui counts a press per frame),
  // well within its 0.30 s double-click time.
  await page.mouse.move(cell.cx, cell.cy);
  await animationFrames(page, 1);
  await page.mouse.down();
  await page.mouse.up();
  await animationFrames(page, 1);
  await page.mouse.down();
  await page.mouse.up();
  await waitForState(page, (s) => s.ui.gridView.zoom === 1 && s.ui.gridView.col0 === 0, "the double-click did not fit");

  // The badge fits the whole grid too; zoomed in again first.
  const target = await requireWidget(page, "cell/weights/31/30");
  await wheel(page, target.cx, target.cy, 2);
  await waitForState(page, (s) => s.ui.gridView.zoom > 1.5, "the wheel did not zoom again");
  await parkMouse(page);
  await clickWidget(page, "weights/zoom");
  await waitForState(page, (s) => s.ui.gridView.zoom === 1 && s.ui.gridView.col0 === 0, "the badge did not fit");
  assert.ok(await widgetRect(page, "cell/weights/0/0"));
  assertClean({ page, ...app });
});

test("zoom: 1024 tokens zoom down to two cells across, hover exact there; the badge fits", async (t) => {
  const { page, ...app } = await open(t, { suffix: "#gen=local,1024,16,16,1&view=weights", context: VIEWPORT });
  await waitForState(page, (s) => s.scene.tokens.length === 1024, "the #gen= scene did not load", 60_000);
  const grid = await requireWidget(page, "cell/weights/512/512");
  await wheel(page, grid.cx, grid.cy, 40); // 1.25⁴⁰ ≈ 7500 > 512: stops at 1024 / 2
  const state = await waitForState(page, (s) => s.ui.gridView.zoom === 512, "zoom did not stop at n / 2", 60_000);
  assert.equal(state.ui.gridView.span, 2);
  const big = await requireWidget(page, "cell/weights/512/512");
  assert.ok(big.w > 100, `a single cell fills half the grid: ${big.w} px`);
  // The derivation of the cell under the pointer, at the largest zoom.
  // (getState of 1024 tokens is a large reply: let the frames run first, and allow it time.)
  await page.mouse.move(big.cx, big.cy);
  await animationFrames(page, 3);
  await waitForState(page, (s) => s.ui.tooltip.startsWith("a[512][512]"), "hover at zoom 512", 60_000);
  await screenshot(page, "zoom-local-1024-max");
  await parkMouse(page);
  await clickWidget(page, "weights/zoom");
  await animationFrames(page, 3);
  await waitForState(page, (s) => s.ui.gridView.zoom === 1, "the badge did not fit the grid", 60_000);
  assertClean({ page, ...app });
});

test("wheel: one notch down over a panel scrolls it down by one step (not 100, not upwards)", async (t) => {
  const { page, ...app } = await open(t, { suffix: "#gen=local,64,16,16,1", context: { viewport: { width: 1280, height: 1000 } } });
  await waitForState(page, (s) => s.scene.tokens.length === 64, "the #gen= scene did not load");
  const first = await requireWidget(page, "Q/2/0");
  await page.mouse.move(first.cx, first.cy);
  await animationFrames(page, 2);
  await page.mouse.wheel(0, 100);
  let moved = first;
  for (let k = 0; k < 20 && moved && moved.y === first.y; k++) {
    await animationFrames(page, 1);
    moved = await widgetRect(page, "Q/2/0");
  }
  // ImGui scrolls a window by 5 lines per wheel step (at most 2/3 of its height).
  assert.ok(moved, "Q/2/0 went out of view: the panel scrolled far more than one step");
  const dy = first.y - moved.y;
  assert.ok(dy > 20 && dy < 200, `one notch scrolled ${dy} px`);
  assertClean({ page, ...app });
});

/** Two touch points through CDP (Playwright's touchscreen has one finger): from `a0`,`b0` to `a1`,`b1`. */
async function pinch(page, cdp, [a0, b0], [a1, b1], steps = 8) {
  const points = (a, b) => [{ x: a[0], y: a[1], id: 0 }, { x: b[0], y: b[1], id: 1 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [points(a0, b0)[0]] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: points(a0, b0) });
  await animationFrames(page, 2);
  for (let k = 1; k <= steps; k++) {
    const lerp = (p, q) => [p[0] + ((q[0] - p[0]) * k) / steps, p[1] + ((q[1] - p[1]) * k) / steps];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: points(lerp(a0, a1), lerp(b0, b1)) });
    await animationFrames(page, 1);
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await animationFrames(page, 2);
}

test("zoom: a two-finger pinch on a grid zooms it about the fingers; elsewhere it is not the grid's", async (t) => {
  const { page, ...app } = await open(t, { suffix: "#gen=local,64,16,16,1&view=weights", context: PHONE });
  await waitForState(page, (s) => s.scene.tokens.length === 64, "the #gen= scene did not load");
  const cdp = await page.context().newCDPSession(page);
  const cell = await requireWidget(page, "cell/weights/40/20");
  // Fingers 40 px apart about cell (40, 20), spread to 120 px: ×3 (log 3 / log 1.25 ≈ 4.9 notches).
  const [x, y] = [cell.cx, cell.cy];
  await pinch(page, cdp, [[x - 20, y], [x + 20, y]], [[x - 60, y], [x + 60, y]]);
  const state = await waitForState(page, (s) => s.ui.gridView.zoom > 2.5, "the pinch did not zoom the grid");
  assert.ok(Math.abs(state.ui.gridView.zoom - 3) < 0.15, `pinch ×3 gave zoom ${state.ui.gridView.zoom}`);
  const after = await requireWidget(page, "cell/weights/40/20");
  assert.ok(after.x <= x && x < after.x + after.w && after.y <= y && y < after.y + after.h,
    `cell (40, 20) left the fingers' midpoint: ${JSON.stringify(after)} vs (${x}, ${y})`);
  assert.equal((await getState(page)).ui.tooltip, "", "no tooltip stays after the fingers lift");
  await screenshot(page, "zoom-pinch-phone");
  // Pinching back in zooms out to the whole grid.
  await pinch(page, cdp, [[x - 60, y], [x + 60, y]], [[x - 10, y], [x + 10, y]]);
  await waitForState(page, (s) => s.ui.gridView.zoom === 1, "pinching in did not fit the grid");
  assertClean({ page, ...app });
});

test("zoom: in the one-column layout the wheel over a grid zooms it and scrolls nothing else", async (t) => {
  // 600×800: one column of panels that scrolls as a whole; the wheel over a grid is the grid's zoom
  // only (ImGui scrolls the hovered panel, which has nothing to scroll, and not the column).
  const { page, ...app } = await open(t, { suffix: "#gen=local,64,16,16,1&hide=controls,vectors", context: { viewport: { width: 600, height: 800 } } });
  await waitForState(page, (s) => s.scene.tokens.length === 64, "the #gen= scene did not load");
  const cell = await requireWidget(page, "cell/weights/20/20");
  // A control on the page (not on a grid, not on the fixed top bar): it moves when the page scrolls.
  const fixed = await requireWidget(page, "scores/tab/raw");
  await wheel(page, cell.cx, cell.cy, 3);
  await waitForState(page, (s) => s.ui.gridView.zoom > 1.9, "the wheel did not zoom");
  await animationFrames(page, 3);
  const after = await requireWidget(page, "scores/tab/raw");
  assert.equal(after.y, fixed.y, `the screen scrolled by ${fixed.y - after.y} px under the zoom`);
  // Away from the grids the wheel still scrolls the screen.
  await wheel(page, fixed.cx, fixed.cy, -1);
  let moved = after;
  for (let k = 0; k < 20 && moved && moved.y === after.y; k++) {
    await animationFrames(page, 1);
    moved = await widgetRect(page, "scores/tab/raw");
  }
  assert.ok(!moved || moved.y < after.y, "the wheel over the controls no longer scrolls the screen");
  assertClean({ page, ...app });
});
