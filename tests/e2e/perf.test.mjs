// perf.test.mjs — generated scenes and their #gen= links, the Generate… popup, the weights' log
// colour scale, and the frame statistics the benchmark reads (scripts/bench).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appOpener, assertClean, clickWidget, dragWidgetTo, frameStats, getState, parkMouse, requireWidget, sameNumbers, screenshot, waitForState } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();

// The native CLI's generated scene: the reference the page must reproduce bit for bit.
const generated = (spec) => JSON.parse(execFileSync(findCli(), ["--gen", spec], { encoding: "utf8", maxBuffer: 1 << 26 }));

test("#gen= opens the generated scene bit for bit (as the native build makes it) and links back to it", async (t) => {
  const spec = "block,48,16,8,3";
  const { page, ...app } = await open(t, { suffix: "#gen=" + spec + "&view=weights" });
  const want = generated(spec);
  const state = await waitForState(page, (s) => s.scene.tokens.length === 48, "the #gen= scene did not load");
  assert.ok(sameNumbers(state.scene, want), "the page's generated scene differs from attention-lab-cli --gen");
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.match(link, new RegExp("#gen=" + spec.replaceAll(",", ",") + "&view=weights$"), `link() = ${link}`);
  // Within a segment of 16 the weights are large, across segments small (the block pattern).
  const w = state.result.weights;
  let inside = 0;
  for (let i = 0; i < 48; ++i) for (let j = 0; j < 48; ++j) if (Math.floor(i / 16) === Math.floor(j / 16)) inside += w[i][j];
  assert.ok(inside / 48 > 0.8, `mean weight inside the blocks ${inside / 48}`);
  assertClean({ page, ...app });
});

test("a bad #gen= link names the field and keeps the scene", async (t) => {
  const { page } = await open(t, { suffix: "#gen=local,4096,16,16,1" });
  await page.waitForFunction(() => window.attentionLab.lastError && window.attentionLab.lastError());
  const error = await page.evaluate(() => window.attentionLab.lastError());
  assert.equal(error, "link: gen: n must be an integer 1 … 1024, got '4096'");
  const state = await getState(page);
  assert.ok(state.scene.tokens.length < 100, "the default example stays on screen");
});

test("Generate… → Generate loads the drafted scene; an edit turns the #gen= link into s=", async (t) => {
  const { page } = await open(t, { context: { viewport: { width: 1280, height: 800 } } });
  await clickWidget(page, "generate");
  await requireWidget(page, "gen/go");
  await clickWidget(page, "gen/go");
  const want = generated("local,256,64,64,1");  // the popup's defaults
  const state = await waitForState(page, (s) => s.scene.tokens.length === 256, "Generate did not load a scene");
  assert.ok(sameNumbers(state.scene, want), "Generate's scene differs from attention-lab-cli --gen local,256,64,64,1");
  assert.match(await page.evaluate(() => window.attentionLab.link()), /#gen=local,256,64,64,1$/);
  await parkMouse(page);
  await screenshot(page, "perf-generated-local-256");
  // Drag q_0[0]: the scene is edited, so its link is no longer the generator's.
  // At d = 64 the vectors panel draws q_0 as a colour strip (compact vectors): its cells are dragged
  // up or down.
  assert.equal((await getState(page)).ui.vectors.Q, "strip");
  const cell = await requireWidget(page, "Q/0/0");
  await dragWidgetTo(page, "Q/0/0", cell.cx, cell.cy - 32, 8); // 4 px a frame
  await waitForState(page, (s) => s.scene.Q[0][0] !== want.Q[0][0], "dragging Q/0/0 changed nothing");
  await page.waitForFunction(() => !/#gen=/.test(window.attentionLab.link() ?? ""), null, { timeout: 10_000 });
  const stats = await frameStats(page);
  for (const key of ["maxFrameMs", "p95FrameMs", "lastRecomputeMs"]) {
    assert.ok(Number.isFinite(stats[key]) && stats[key] >= 0, `frameStats().${key} = ${stats[key]}`);
  }
  assert.ok(stats.maxFrameMs >= stats.p95FrameMs, `max ${stats.maxFrameMs} < p95 ${stats.p95FrameMs}`);
  // recentFrameMs: the window those come from, oldest first (the soak reads it to see every frame).
  const recent = stats.recentFrameMs;
  assert.equal(recent.length, Math.min(stats.frames, 120), `recentFrameMs has ${recent.length} of ${stats.frames} frames`);
  assert.equal(recent.at(-1), stats.lastFrameMs, "recentFrameMs does not end with the last frame");
  assert.equal(Math.max(...recent), stats.maxFrameMs, "recentFrameMs' largest is not maxFrameMs");
  // recentFramePartsMs: the same frames' recompute, UI and render ms (three numbers a frame), which
  // add up to the frame's.
  const flat = stats.recentFramePartsMs;
  assert.equal(flat.length, 3 * recent.length, `recentFramePartsMs has ${flat.length} numbers for ${recent.length} frames`);
  const parts = recent.map((_, k) => flat.slice(3 * k, 3 * k + 3));
  parts.forEach((p, k) => {
    assert.ok(p.length === 3 && p.every((ms) => Number.isFinite(ms) && ms >= 0), `frame ${k}'s parts ${JSON.stringify(p)}`);
    assert.ok(Math.abs(p[0] + p[1] + p[2] - recent[k]) < 0.05, `frame ${k}: parts ${JSON.stringify(p)} do not add up to ${recent[k]} ms`);
  });
  assert.ok(parts.some((p) => p[2] > 0), "no frame spent any time rendering");
});

test("the log colour scale recolours the weights grid, and no number changes", async (t) => {
  const { page } = await open(t, { suffix: "#gen=local,128,32,16,1" });
  await waitForState(page, (s) => s.scene.tokens.length === 128, "the #gen= scene did not load");
  await parkMouse(page);
  const grid = await requireWidget(page, "cell/weights/0/0");
  const before = await getState(page);
  const region = { x: grid.x, y: grid.y, width: grid.w * 128, height: grid.h * 128 };
  const linear = await page.screenshot({ clip: region });
  await clickWidget(page, "weights-log");
  await parkMouse(page);
  const log = await page.screenshot({ clip: region });
  await screenshot(page, "perf-weights-log-128");
  assert.notDeepEqual(log, linear, "the weights grid looks the same with the log scale");
  const after = await getState(page);
  assert.deepEqual(after.result.weights, before.result.weights, "the log scale changed a weight");
});

test("the screen reader's tables hold the first 64 tokens of a 256-token scene (not 65 536 cells)", async (t) => {
  const { page, ...app } = await open(t, { suffix: "#gen=local,256,16,16,1" });
  const state = await waitForState(page, (s) => s.scene.tokens.length === 256, "the #gen= scene did not load");
  await page.waitForFunction(() => document.querySelectorAll("#a11y-weights td").length > 0, null, { timeout: 10_000 });
  const table = await page.evaluate(() => ({
    cells: document.querySelectorAll("#a11y-weights td").length,
    outputCells: document.querySelectorAll("#a11y-output td").length,
    caption: document.querySelector("#a11y-weights caption").textContent,
    first: [...document.querySelectorAll("#a11y-weights tbody tr")].map((tr) => tr.querySelector("td").textContent),
    lastHeader: [...document.querySelectorAll("#a11y-weights thead th")].at(-1).textContent,
  }));
  assert.equal(table.cells, 64 * 64);
  assert.equal(table.outputCells, 64 * 16);
  assert.match(table.caption, /the first 64 of 256 tokens/);
  assert.equal(table.lastHeader, "t63");
  // The numbers are the core's: column 0 of the weights, row by row, to 3 decimals.
  assert.deepEqual(table.first, state.result.weights.slice(0, 64).map((row) => row[0].toFixed(3)));
  assertClean({ page, ...app });
});

test("the app's frames read the canvas's size only after a resize: an edit's frames force no layout", async (t) => {
  // Every getBoundingClientRect of the canvas is counted, with the frames drawn around it. Reading a
  // size makes the browser lay the page out at once when anything in it changed — and the screen
  // reader's tables (~8,000 cells at 64 tokens and up) change after every edit: a 60–130 ms layout
  // inside the app's frame at 1,024 tokens (docs/PERFORMANCE.md, the soak).
  const { page, ...app } = await open(t, {
    suffix: "#gen=local,256,16,16,1",
    initScript: () => {
      const read = HTMLCanvasElement.prototype.getBoundingClientRect;
      window.__canvasReads = 0;
      HTMLCanvasElement.prototype.getBoundingClientRect = function () {
        if (this.id === "canvas") ++window.__canvasReads;
        return read.call(this);
      };
    },
  });
  await waitForState(page, (s) => s.scene.tokens.length === 256, "the #gen= scene did not load");
  await page.waitForFunction(() => document.querySelectorAll("#a11y-weights td").length > 0, null, { timeout: 10_000 });
  // Edits from the page API (no pointer: a mouse move reads the rect itself, to place the cursor).
  const reads = () => page.evaluate(() => window.__canvasReads);
  const before = await reads();
  const frames = (await frameStats(page)).frames;
  for (let k = 0; k < 4; ++k) {
    const first = await page.evaluate((k) => {
      const s = window.attentionLab.getState().scene;
      s.Q[0][0] = 0.25 * (k + 1);
      window.attentionLab.setState(s);
      return window.attentionLab.getMatrix("weights").data[0].toFixed(3);
    }, k);
    // The tables follow (250 ms after the result): their cells are rewritten, and the app draws on.
    await page.waitForFunction((v) => document.querySelector("#a11y-weights td").textContent === v, first, { timeout: 5000 });
  }
  const drawn = (await frameStats(page)).frames - frames;
  assert.ok(drawn >= 4, `the edits drew ${drawn} frames`);
  assert.equal((await reads()) - before, 0, `the canvas's size was read ${(await reads()) - before} times in ${drawn} frames`);
  // A resize is read, and the app follows it: the View menu (at the top bar's right end) moves left
  // by the 280 px the window lost.
  const view = await requireWidget(page, "view/menu");
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.waitForFunction((x) => window.attentionLab.widgetRect("view/menu")?.x < x - 200, view.x, { timeout: 5000 });
  const afterResize = (await reads()) - before;
  assert.ok(afterResize >= 1 && afterResize <= 4, `a resize read the size ${afterResize} times`);
  const moved = await requireWidget(page, "view/menu");
  assert.ok(Math.abs(view.x - moved.x - 280) < 40, `View moved from ${view.x} to ${moved.x} for a 280 px narrower window`);
  assertClean({ page, ...app });
});

test("a frame asks WebGL for no state that waits on the GPU process: scissor box and blending come from the app", async (t) => {
  // getParameter of the scissor box or of a blend factor or equation is not answered by the
  // browser's side of the context: each waits for the GPU process to run every command sent before
  // (the frame's texture uploads). ImGui's backend reads them every frame to restore them;
  // src/app/web_gl_state.cpp answers from what the app set. Counted per parameter over a drag's frames.
  const watched = { 0x0c10: "SCISSOR_BOX", 0x80c8: "BLEND_DST_RGB", 0x80c9: "BLEND_SRC_RGB", 0x80ca: "BLEND_DST_ALPHA",
                    0x80cb: "BLEND_SRC_ALPHA", 0x8009: "BLEND_EQUATION_RGB", 0x883d: "BLEND_EQUATION_ALPHA" };
  const { page, ...app } = await open(t, {
    suffix: "#gen=local,256,16,16,1",
    initScript: () => {
      const get = WebGL2RenderingContext.prototype.getParameter;
      window.__glReads = {};
      WebGL2RenderingContext.prototype.getParameter = function (p) {
        window.__glReads[p] = (window.__glReads[p] ?? 0) + 1;
        return get.call(this, p);
      };
    },
  });
  await waitForState(page, (s) => s.scene.tokens.length === 256, "the #gen= scene did not load");
  const reads = () => page.evaluate(() => ({ ...window.__glReads }));
  const before = await reads();
  const frames = (await frameStats(page)).frames;
  const cell = await requireWidget(page, "K/0/0");
  await dragWidgetTo(page, "K/0/0", cell.cx, cell.cy - 24, 6);
  const drawn = (await frameStats(page)).frames - frames;
  assert.ok(drawn >= 6, `the drag drew ${drawn} frames`);
  const after = await reads();
  for (const [p, name] of Object.entries(watched))
    assert.equal((after[p] ?? 0) - (before[p] ?? 0), 0, `${name} was read ${(after[p] ?? 0) - (before[p] ?? 0)} times in ${drawn} frames`);
  // Read once, before the app had set it (the first frame); the viewport is one the browser caches.
  for (const name of ["SCISSOR_BOX", "BLEND_SRC_RGB"]) {
    const p = Object.entries(watched).find(([, n]) => n === name)[0];
    assert.ok((after[p] ?? 0) <= 1, `${name} was read ${after[p]} times since the page opened`);
  }
  await screenshot(page, "perf-gl-state-drag");  // to look at (the grids' pixels: biggrid.test.mjs)
  assertClean({ page, ...app });
});
