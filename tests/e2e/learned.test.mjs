// learned.test.mjs — learned projections and the key space in the browser, with real mouse drags: editable learned projections
// (X/i/m, Wq/m/c), the exact Make learned / Edit Q, K, V directly conversions, and the Key space
// mode's soft dictionary (LESSONS.md 2: dragging q toward k_1 pulls y_0 onto v_1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, clickWidget, dragWidget, requireWidget, animationFrames, parkMouse, screenshot, appOpener, dragWidgetTo } from "./lib/harness.mjs";
import { matmul } from "./lib/reference.mjs";

const open = appOpener();

/** A real mouse drag in 2-D to (x, y), three frames to settle after the release. */
const dragTo = (page, id, x, y, steps = 12) => dragWidgetTo(page, id, x, y, steps, 3);

/** Vertical drag of a W cell by dy CSS px (up = negative dy = larger value). */
async function dragVertical(page, id, dy, steps = 10) {
  const { cx, cy } = await requireWidget(page, id);
  await dragTo(page, id, cx, cy + dy, steps);
}

function maxDiff(a, b) {
  let worst = 0;
  a.forEach((row, i) => row.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - b[i][j])))));
  return worst;
}

const isProjected = (scene) => Array.isArray(scene.X) && scene.Q === undefined;

test("learned-5x8: dragging X/0/0 moves token 0's q, k, v together, = x_0·W to 1e-12, scene stays learned", async (t) => {
  const app = await open(t, { suffix: "#demo=learned-5x8", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  const before = await getState(page);
  assert.ok(isProjected(before.scene), "learned-5x8 opens as a learned scene");
  await dragWidget(page, "X/0/0", 60);
  const after = await waitForState(page, (s) => s.scene.X?.[0][0] !== before.scene.X[0][0], "dragging X/0/0 changes scene.X[0][0]");
  assert.ok(isProjected(after.scene), "the scene stays learned (X, Wq, Wk, Wv; no Q)");
  assert.ok(after.scene.X[0][0] > before.scene.X[0][0], `X[0][0] grew: ${before.scene.X[0][0]} → ${after.scene.X[0][0]}`);
  for (const [key, w] of [["Q", "Wq"], ["K", "Wk"], ["V", "Wv"]]) {
    const want = matmul([after.scene.X[0]], after.scene[w])[0];
    assert.ok(maxDiff([after.result[key][0]], [want]) <= 1e-12, `${key} row 0 = x_0·${w} (to 1e-12)`);
    assert.ok(maxDiff([after.result[key][0]], [before.result[key][0]]) > 1e-6, `${key} row 0 changed`);
    // Other tokens keep their vectors: only x_0 moved.
    assert.deepEqual(after.result[key].slice(1), before.result[key].slice(1), `${key} rows 1… unchanged`);
  }
  assertClean(app);
});

test("learned-5x8: dragging Wq/0/0 up changes every query and no key or value", async (t) => {
  // Tall enough that the vectors panel shows the maps below the five tokens without scrolling.
  const app = await open(t, { suffix: "#demo=learned-5x8", context: { viewport: { width: 1280, height: 1700 } } });
  const { page } = app;
  const before = await getState(page);
  await dragVertical(page, "Wq/0/0", -40);
  const after = await waitForState(page, (s) => s.scene.Wq?.[0][0] !== before.scene.Wq[0][0], "dragging Wq/0/0 changes scene.Wq[0][0]");
  assert.ok(isProjected(after.scene), "the scene stays learned");
  assert.ok(after.scene.Wq[0][0] > before.scene.Wq[0][0], `dragging up raises W_q[0][0]: ${before.scene.Wq[0][0]} → ${after.scene.Wq[0][0]}`);
  for (let i = 0; i < 5; i++) {
    assert.notEqual(after.result.Q[i][0], before.result.Q[i][0], `q_${i}[0] changed (x_${i}[0] ≠ 0)`);
    const want = matmul([after.scene.X[i]], after.scene.Wq)[0];
    assert.ok(maxDiff([after.result.Q[i]], [want]) <= 1e-12, `q_${i} = x_${i}·W_q`);
  }
  assert.deepEqual(after.result.K, before.result.K, "keys unchanged");
  assert.deepEqual(after.result.V, before.result.V, "values unchanged");
  assertClean(app);
});

test("make-learned then make-direct: every stage the same, the scene back to its Q, K, V", async (t) => {
  const app = await open(t, { suffix: "#demo=soft-dictionary", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  const direct = await getState(page);
  await clickWidget(page, "make-learned");
  const learned = await waitForState(page, (s) => isProjected(s.scene), "Make learned gives a learned scene");
  // LESSONS.md 2: X = [Q | K | V] = [[1,0,10,0,1,2],[0,1,0,10,3,4]].
  assert.deepEqual(learned.scene.X, [[1, 0, 10, 0, 1, 2], [0, 1, 0, 10, 3, 4]]);
  assert.deepEqual(learned.result, direct.result, "every stage identical after Make learned");
  await clickWidget(page, "make-direct");
  const back = await waitForState(page, (s) => !isProjected(s.scene), "Edit Q, K, V directly gives a direct scene");
  assert.deepEqual(back.scene, direct.scene, "the same scene as before");
  assert.deepEqual(back.result, direct.result, "every stage identical after Edit Q, K, V directly");
  assertClean(app);
});

test("soft dictionary, Key space: dragging q_0 toward k_1 moves the weight to k_1 and y_0 onto v_1", async (t) => {
  const app = await open(t, { suffix: "#demo=soft-dictionary&mode=keyspace", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  const before = await getState(page);
  assert.ok(before.result.weights[0][0] > 0.99, "q = [1, 0] first finds k_0 (LESSONS.md 2: 0.999955)");
  const k1 = await requireWidget(page, "keyspace/k/1");
  const q0 = await requireWidget(page, "keyspace/q/0");
  const y0 = await requireWidget(page, "valuespace/y/0");
  const v1 = await requireWidget(page, "valuespace/v/1");
  const distance = (a, b) => Math.hypot(a.cx - b.cx, a.cy - b.cy);
  const yToV1 = distance(y0, v1);
  await screenshot(page, "keyspace-soft-dictionary-before");
  // Halfway from the tip to k_1.
  await dragTo(page, "keyspace/q/0", q0.cx + 0.5 * (k1.cx - q0.cx), q0.cy + 0.5 * (k1.cy - q0.cy));
  const after = await waitForState(page, (s) => s.result.weights[0][1] > s.result.weights[0][0], "weight (0,1) becomes the larger one");
  assert.notDeepEqual(after.scene.Q[0], before.scene.Q[0], "the drag edited q_0");
  assert.ok(after.scene.Q[0][1] > 1, `q_0 now points toward k_1 = [0, 10]: ${after.scene.Q[0]}`);
  const y0After = await requireWidget(page, "valuespace/y/0");
  assert.ok(distance(y0After, v1) < 0.2 * yToV1, `y_0 slid onto v_1: ${distance(y0After, v1).toFixed(1)} px from it (was ${yToV1.toFixed(1)})`);
  // The numbers agree: y_0 ≈ v_1 = [3, 4].
  assert.ok(Math.abs(after.result.output[0][0] - 3) < 0.01 && Math.abs(after.result.output[0][1] - 4) < 0.01, `y_0 = ${after.result.output[0]}`);
  await parkMouse(page);
  await animationFrames(page, 3);
  await screenshot(page, "keyspace-soft-dictionary-after");
  assertClean(app);
});

test("Key space: dragging keyspace/k/1 and valuespace/v/0 edits K and V; learned scenes are read-only there", async (t) => {
  const app = await open(t, { suffix: "#demo=soft-dictionary&mode=keyspace", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  const before = await getState(page);
  const k1 = await requireWidget(page, "keyspace/k/1");
  await dragTo(page, "keyspace/k/1", k1.cx - 60, k1.cy + 40);
  const moved = await waitForState(page, (s) => s.scene.K[1][0] !== before.scene.K[1][0], "dragging k_1 edits K[1]");
  assert.ok(moved.scene.K[1][0] < 0 && moved.scene.K[1][1] < 10, `k_1 moved left and down: ${moved.scene.K[1]}`);
  const v0 = await requireWidget(page, "valuespace/v/0");
  await dragTo(page, "valuespace/v/0", v0.cx + 30, v0.cy);
  await waitForState(page, (s) => s.scene.V[0][0] > before.scene.V[0][0], "dragging v_0 right raises V[0][0]");
  // A learned scene: the points do not move (the hint says where to edit, with the make-direct button).
  const app2 = await open(t, { suffix: "#demo=learned-5x8&mode=keyspace", context: { viewport: { width: 1280, height: 720 } } });
  const s0 = await getState(app2.page);
  const q = await requireWidget(app2.page, "keyspace/q/0");
  await dragTo(app2.page, "keyspace/q/0", q.cx + 50, q.cy - 50);
  const s1 = await getState(app2.page);
  assert.deepEqual(s1.scene, s0.scene, "dragging in a learned scene's key space changes nothing");
  await requireWidget(app2.page, "make-direct");
  assertClean(app);
  assertClean(app2);
});
