// app.test.mjs — the browser app's seven numbered tests (tests/e2e/README.md), in headless Chromium against the built site.
//
// Every numeric check compares the page's result with reference.mjs (plain-JS attention, float64)
// or with the worked examples of LESSONS.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { statSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { assertClean, describeProblems, getState, setState, frameStats, waitForState, clickWidget, dragWidget, requireWidget, parkMouse, animationFrames, screenshot, appOpener, loadScene } from "./lib/harness.mjs";
import { lessons } from "./lib/lessons.mjs";
import { attend, maxAbsDiff } from "./lib/reference.mjs";
import { presetScene, unmaskedPreset } from "./lib/presets.mjs";

const open = appOpener();

/** Every stage of the page's result vs the JS reference for the page's own scene. */
function assertMatchesReference(state, tolerance = 1e-5) {
  const ref = attend(state.scene);
  for (const key of ["Q", "K", "V", "scores", "weights", "output"]) {
    const diff = maxAbsDiff(state.result[key], ref[key], `result.${key}`);
    assert.ok(diff <= tolerance, `result.${key} differs from the JS reference by ${diff} (> ${tolerance})`);
  }
  assert.deepEqual(state.result.masked_rows, ref.masked_rows, "result.masked_rows");
  return ref;
}

const rowSum = (row) => row.reduce((a, b) => a + b, 0);

// 1 ---------------------------------------------------------------------------------------------
test("1. the page loads, ready resolves, no console errors, no request leaves the origin", async (t) => {
  const app = await open(t);
  const { page, server } = app;
  // A few frames of normal life after ready, so late errors are caught too.
  await animationFrames(page, 10);
  assertClean(app);

  const state = await getState(page);
  assert.equal(state.scene.version, 1, "getState().scene.version");
  assert.ok(state.scene.tokens.length >= 1, "the start scene has tokens");
  assertMatchesReference(state);

  // What the server saw: the page, its script and its wasm, nothing failed.
  const paths = server.requests.map((r) => `${r.status} ${r.path}`);
  const fetched = (suffix) => server.requests.some((r) => r.status === 200 && new URL(r.path, server.origin).pathname.endsWith(suffix));
  assert.ok(fetched("/"), `index page not fetched: ${paths.join(", ")}`);
  assert.ok(fetched(".js"), `no script fetched: ${paths.join(", ")}`);
  assert.ok(fetched(".wasm"), `no wasm fetched: ${paths.join(", ")}`);
  const bad = server.requests.filter((r) => r.status >= 400);
  assert.deepEqual(bad, [], `requests that failed on the server: ${JSON.stringify(bad)}`);
  assert.deepEqual(app.externalRequests, [], "requests to other origins");
  assert.ok((await page.title()).trim().length > 0, "the page has a title");
  t.diagnostic(`requests: ${paths.join(", ")}`);
  // The download a visitor pays, raw and gzip -9: every file the page fetched.
  let raw = 0;
  let gzipped = 0;
  for (const r of server.requests.filter((x) => x.status === 200)) {
    let rel = decodeURIComponent(new URL(r.path, server.origin).pathname.slice(server.base.length));
    if (rel === "" || rel.endsWith("/")) rel += "index.html";
    const data = readFileSync(path.join(server.root, rel));
    raw += data.length;
    gzipped += gzipSync(data, { level: 9 }).length;
  }
  t.diagnostic(`page download: ${(raw / 1024).toFixed(1)} KiB, gzip -9 ${(gzipped / 1024).toFixed(1)} KiB`);
});

// 2 ---------------------------------------------------------------------------------------------
test("2. dragging the Q/0/0 slider changes scene.Q[0][0]; weights match a JS recomputation to 1e-5", async (t) => {
  const app = await open(t);
  const { page } = app;
  const scene = presetScene("soft-dictionary");
  assert.ok(scene.Q, "soft-dictionary is a direct-mode scene (Q, K, V)");
  const before = await loadScene(page, scene);

  // LESSONS.md example 2: K = [[10,0],[0,10]], V = [[1,2],[3,4]], q = [1,0], unscaled → weights
  // ≈ [1, 0], output ≈ [1, 2] (numbers: tests/fixtures/lessons.json).
  const lesson = lessons["soft-dictionary"];
  assert.deepEqual(before.scene.Q, lesson.Q, "soft-dictionary Q (LESSONS.md)");
  assert.ok(maxAbsDiff(before.result.weights, lesson.weights) <= lessons.tolerance, `weights = ${before.result.weights}`);
  assert.ok(maxAbsDiff(before.result.output, lesson.output) <= lessons.tolerance, `output = ${before.result.output}`);

  // Drag from the centre to the left third of the slider: ImGui sets the value from the position.
  const rect = await requireWidget(page, "Q/0/0");
  await dragWidget(page, "Q/0/0", -rect.w / 3, 12);
  const after = await waitForState(page, (s) => s.scene.Q[0][0] !== before.scene.Q[0][0], "dragging Q/0/0 did not change scene.Q[0][0]");
  const q00 = after.scene.Q[0][0];
  t.diagnostic(`Q[0][0]: ${before.scene.Q[0][0]} → ${q00}`);
  assert.ok(Number.isFinite(q00), `scene.Q[0][0] = ${q00}`);
  assert.ok(q00 < before.scene.Q[0][0], "a drag to the left lowers the value");
  // Only that component moved.
  assert.deepEqual(after.scene.K, before.scene.K, "K unchanged");
  assert.deepEqual(after.scene.V, before.scene.V, "V unchanged");
  assert.deepEqual(after.scene.Q.slice(1), before.scene.Q.slice(1), "other queries unchanged");
  assert.equal(after.result.Q[0][0], q00, "result.Q follows the scene");

  const ref = assertMatchesReference(after, 1e-5);
  const diff = maxAbsDiff(after.result.weights, ref.weights, "weights");
  t.diagnostic(`max |weights − reference| = ${diff}`);
  // The lesson's soft dictionary: a weaker match with key 0 slides the output toward V[1] = [3, 4].
  assert.ok(after.result.weights[0][0] < before.result.weights[0][0], "weight on key 0 drops");
  assert.ok(after.result.output[0][0] > before.result.output[0][0], "output moves toward [3, 4]");
  assertClean(app);
});

// 3 ---------------------------------------------------------------------------------------------
test("3. clicking causal zeroes every weight above the diagonal; rows still sum to 1", async (t) => {
  const app = await open(t);
  const { page } = app;
  const before = await loadScene(page, unmaskedPreset("causal-5"));
  const n = before.scene.tokens.length;
  assert.ok(n >= 3, "causal-5 has at least 3 tokens");
  // Without the mask the future is visible: the test can only pass through the click.
  assert.ok(before.result.weights[0].slice(1).some((w) => w > 0), "row 0 attends to later tokens before the click");

  await clickWidget(page, "causal");
  const after = await waitForState(page, (s) => s.scene.causal === true, "clicking causal did not set scene.causal");
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      assert.equal(after.result.weights[i][j], 0, `weights[${i}][${j}] above the diagonal is exactly 0`);
      assert.equal(after.result.scaled[i][j], null, `scaled[${i}][${j}] is masked (null)`);
    }
    assert.ok(Math.abs(rowSum(after.result.weights[i]) - 1) <= 1e-9, `row ${i} sums to ${rowSum(after.result.weights[i])}`);
  }
  // LESSONS.md example 4: row 2 attends only to tokens 0, 1, 2.
  assert.ok(Math.abs(after.result.weights[2][0] + after.result.weights[2][1] + after.result.weights[2][2] - 1) <= 1e-9);
  assertMatchesReference(after);

  // A second click turns it off again.
  await clickWidget(page, "causal");
  const off = await waitForState(page, (s) => s.scene.causal === false, "a second click did not clear causal");
  assert.ok(maxAbsDiff(off.result.weights, before.result.weights) === 0, "weights are back to the unmasked ones");
  assertClean(app);
});

// 4 ---------------------------------------------------------------------------------------------
test("4. clicking cell/mask/2/1 hides that cell and row 2 renormalizes", async (t) => {
  const app = await open(t);
  const { page } = app;
  const before = await loadScene(page, unmaskedPreset("practice-qkv"));
  // LESSONS.md example 1: row 2 of A is [1/3, 1/3, 1/3].
  assert.ok(maxAbsDiff([before.result.weights[2]], [[1 / 3, 1 / 3, 1 / 3]]) < 1e-6, `weights[2] = ${before.result.weights[2]}`);

  await clickWidget(page, "cell/mask/2/1");
  const after = await waitForState(
    page,
    (s) => Array.isArray(s.scene.mask) && s.scene.mask[2]?.[1] === 0,
    "clicking cell/mask/2/1 did not set scene.mask[2][1] = 0",
  );
  const n = after.scene.tokens.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== 2 || j !== 1) assert.equal(after.scene.mask[i][j], 1, `mask[${i}][${j}] still allowed`);
    }
  }
  assert.equal(after.result.weights[2][1], 0, "weights[2][1] is exactly 0");
  assert.equal(after.result.scaled[2][1], null, "scaled[2][1] is masked (null)");
  assert.ok(Math.abs(rowSum(after.result.weights[2]) - 1) <= 1e-9, `row 2 sums to ${rowSum(after.result.weights[2])}`);
  // Row 2 had equal scores: the two remaining cells share the weight, 1/2 each.
  assert.ok(maxAbsDiff([after.result.weights[2]], [[0.5, 0, 0.5]]) < 1e-12, `weights[2] = ${after.result.weights[2]}`);
  for (let i = 0; i < n; i++) {
    if (i !== 2) assert.deepEqual(after.result.weights[i], before.result.weights[i], `row ${i} unchanged`);
  }
  assertMatchesReference(after);

  // Clicking again restores the cell.
  await clickWidget(page, "cell/mask/2/1");
  const restored = await waitForState(page, (s) => s.result.weights[2][1] > 0, "a second click did not restore cell (2, 1)");
  assert.ok(maxAbsDiff(restored.result.weights, before.result.weights) < 1e-15, "weights back to the unmasked ones");
  assertClean(app);
});

// 5 ---------------------------------------------------------------------------------------------
test("5. setState with a bad scene returns {ok:false, error} naming the field; state unchanged", async (t) => {
  const app = await open(t);
  const { page } = app;
  const good = presetScene("soft-dictionary");
  const before = await loadScene(page, good);

  const bad = [
    [{ ...good, K: [[10], [0, 10]] }, /\bK\b/, "K row 0 too short"],
    [{ ...good, Q: [[1, 0]] }, /\b(Q|tokens)\b/, "Q has fewer rows than tokens"],
    [{ ...good, version: 3 }, /version/, "unknown version"],
    [{ ...good, scale: "cubic" }, /scale/, "unknown scale"],
    [{ ...good, scale: -1 }, /scale/, "negative temperature"],
    [{ ...good, causal: "yes" }, /causal/, "causal not a boolean"],
    [{ ...good, mask: [[1, 2], [1, 1]] }, /mask/, "mask entry not 0/1"],
    [{ ...good, mask: [[1, 1]] }, /mask/, "mask of the wrong shape"],
    [{ ...good, V: [[1, Number.NaN], [3, 4]] }, /\bV\b/, "NaN in V"],
    [{ ...good, tokens: "ab" }, /tokens/, "tokens not an array"],
  ];
  for (const [scene, field, what] of bad) {
    const reply = await setState(page, scene);
    assert.equal(reply?.ok, false, `${what}: setState must refuse, got ${JSON.stringify(reply)}`);
    assert.equal(typeof reply.error, "string", `${what}: error is a string`);
    assert.match(reply.error, field, `${what}: the error names the field`);
    t.diagnostic(`${what}: ${reply.error}`);
    await animationFrames(page, 2);
    assert.deepEqual(await getState(page), before, `${what}: getState() changed after a refused setState`);
  }
  for (const junk of [null, 42, "not a scene", []]) {
    const reply = await setState(page, junk);
    assert.equal(reply?.ok, false, `setState(${JSON.stringify(junk)}) must refuse, got ${JSON.stringify(reply)}`);
    assert.ok(typeof reply.error === "string" && reply.error.length > 0, "with an error text");
    assert.deepEqual(await getState(page), before, `getState() changed after setState(${JSON.stringify(junk)})`);
  }
  assert.deepEqual(app.pageErrors, [], describeProblems(app));
});

// 6 ---------------------------------------------------------------------------------------------
test("6. idle: after 2 s without input, frames and recomputes do not grow", async (t) => {
  const app = await open(t);
  const { page } = app;
  const start = await frameStats(page);
  for (const key of ["frames", "lastFrameMs", "avgFrameMs", "recomputes"]) {
    assert.ok(Number.isFinite(start[key]) && start[key] >= 0, `frameStats().${key} = ${start[key]}`);
  }
  assert.ok(start.frames >= 1, "ready resolves after the first frame");

  // The counters are live: a new scene is computed once more and drawn.
  const scene = presetScene("practice-qkv");
  await loadScene(page, { ...scene, causal: !scene.causal });
  await animationFrames(page, 3);
  const afterSet = await frameStats(page);
  assert.ok(afterSet.recomputes > start.recomputes, `recomputes ${start.recomputes} → ${afterSet.recomputes} after setState`);
  assert.ok(afterSet.frames > start.frames, `frames ${start.frames} → ${afterSet.frames} after setState`);

  // Input wakes it: moving the mouse across the canvas draws frames.
  await parkMouse(page);
  await page.waitForTimeout(800);
  const beforeMove = await frameStats(page);
  for (let i = 0; i < 5; i++) {
    await page.mouse.move(300 + 40 * i, 300 + 20 * i);
    await animationFrames(page, 1);
  }
  const afterMove = await frameStats(page);
  assert.ok(afterMove.frames > beforeMove.frames, `mouse moves drew no frame (${beforeMove.frames} → ${afterMove.frames})`);
  assert.equal(afterMove.recomputes, beforeMove.recomputes, "hovering recomputes nothing");

  // Now nothing happens: let the last input settle, then sample twice 2 s apart.
  await parkMouse(page);
  await page.waitForTimeout(1000);
  const a = await frameStats(page);
  await page.waitForTimeout(2000);
  const b = await frameStats(page);
  t.diagnostic(`idle: frames ${a.frames} → ${b.frames}, recomputes ${a.recomputes} → ${b.recomputes}, avgFrameMs ${b.avgFrameMs}`);
  assert.equal(b.frames, a.frames, "frames grew while idle");
  assert.equal(b.recomputes, a.recomputes, "recomputes grew while idle");
  assertClean(app);
});

// 7 ---------------------------------------------------------------------------------------------
test("7. screenshots of the lesson presets are saved under build/e2e", async (t) => {
  const app = await open(t);
  const { page } = app;
  const shots = [];
  for (const name of ["soft-dictionary", "practice-qkv", "causal-5", "learned-5x8"]) {
    await loadScene(page, presetScene(name));
    await parkMouse(page);
    await animationFrames(page, 4);
    const file = await screenshot(page, name);
    const size = statSync(file).size;
    t.diagnostic(`${file} (${size} bytes)`);
    shots.push({ name, file, bytes: readFileSync(file) });
  }
  // A blank or unchanged canvas compresses to a few KB; a drawn UI with text does not.
  for (const shot of shots) assert.ok(shot.bytes.length > 20_000, `${shot.file} looks blank (${shot.bytes.length} bytes)`);
  for (let i = 1; i < shots.length; i++) {
    assert.ok(!shots[i].bytes.equals(shots[0].bytes), `${shots[i].name} looks the same as ${shots[0].name}`);
  }
  assertClean(app);
});
