// first-frame.test.mjs — the first frame a visitor sees is the finished screen (the first
// frame): src/app/main.cpp lays the first frame out twice unseen (panels measure in one pass and
// place in the next), and web/share.js installs the demo index and the visitor's language file
// before it (attentionLab._onStarted), so
//   - the first frame's pixels equal the screen once everything has settled (no panel that grows,
//     no Gallery button that appears, no English that turns into German);
//   - a link (demo=, s=, lang=) is applied before that frame when what it needs has arrived;
//   - with nothing arriving late, `ready` resolves right after that first frame,
//     without waiting for more frames (it waited for two more before: ~300 ms in software WebGL).
// The first frame is read from the canvas at boot.js's "attention-lab:first-frame" mark, in the
// same task as its drawing (the drawing buffer is not kept after it is shown).
import { test } from "node:test";
import assert from "node:assert/strict";
import { appOpener, assertClean, PHONE } from "./lib/harness.mjs";

const open = appOpener();

// Runs in the page before its scripts: keeps the first frame's pixels and the frame count when
// `ready` resolves. Compiling starts 400 ms late, so the small files fetched as the page loads
// (the demo index, lang/de.json) have arrived before the app starts, as on any real connection
// where the wasm is the largest download.
function recordFirstFrame() {
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    if (name === "attention-lab:first-frame") window.__firstFrame = document.getElementById("canvas").toDataURL();
    return mark(name, ...rest);
  };
  const compile = WebAssembly.compileStreaming.bind(WebAssembly);
  WebAssembly.compileStreaming = (source) => new Promise((resolve) => setTimeout(resolve, 400)).then(() => compile(source));
  const poll = () => {
    if (window.attentionLab && window.attentionLab.ready) {
      window.attentionLab.ready.then(() => (window.__framesAtReady = window.attentionLab.frameStats().frames));
    } else {
      setTimeout(poll, 0);
    }
  };
  poll();
}

// Pixels of two PNG data URLs that differ, compared in the page (RGB, exact), and where.
async function differingPixels(page, a, b) {
  return page.evaluate(async ([first, later]) => {
    const load = (url) => new Promise((resolve) => { const image = new Image(); image.onload = () => resolve(image); image.src = url; });
    const pixels = (image) => {
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height).data;
    };
    const [imageA, imageB] = [await load(first), await load(later)];
    if (imageA.width !== imageB.width || imageA.height !== imageB.height) return { count: -1, sizes: [imageA.width, imageA.height, imageB.width, imageB.height] };
    const [pa, pb] = [pixels(imageA), pixels(imageB)];
    let count = 0;
    const box = [Infinity, Infinity, -1, -1];
    for (let k = 0; k < pa.length; k += 4) {
      if (pa[k] === pb[k] && pa[k + 1] === pb[k + 1] && pa[k + 2] === pb[k + 2]) continue;
      ++count;
      const x = (k / 4) % imageA.width;
      const y = Math.floor(k / 4 / imageA.width);
      box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
    }
    return { count, box };
  }, [a, b]);
}

// The first frame against the settled screen (a screenshot after the app has stopped drawing).
async function firstFrameIsSettled(page) {
  const first = await page.evaluate(() => window.__firstFrame);
  assert.ok(first && first.startsWith("data:image/png"), "the first frame was read from the canvas");
  await page.waitForTimeout(1500); // the settle frames after start are drawn and the app idles
  const later = "data:image/png;base64," + (await page.screenshot()).toString("base64");
  const diff = await differingPixels(page, first, later);
  assert.equal(diff.count, 0, `the first frame differs from the settled screen in ${diff.count} pixels, box ${JSON.stringify(diff.box ?? diff.sizes)}`);
}

for (const [name, context] of [["1280×800", {}], ["phone 390×844", { context: PHONE }]]) {
  test(`${name}: the first frame is the settled screen, and ready resolves right after it`, async (t) => {
    const app = await open(t, { initScript: recordFirstFrame, ...context });
    const { page } = app;
    assert.equal(await page.evaluate(() => window.__framesAtReady), 1, "ready resolved after the first frame, not after more");
    // The Gallery button (shown once the demo index is installed) is on the first frame.
    await firstFrameIsSettled(page);
    assertClean(app);
  });
}

test("a German visitor's first frame is already German (lang/de.json installed before it)", async (t) => {
  const app = await open(t, { initScript: recordFirstFrame, suffix: "#lang=de" });
  const { page } = app;
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).ui.language, "de");
  await firstFrameIsSettled(page);
  assertClean(app);
});

test("a demo link's first frame already shows the demo (fetched as the page loads, applied before the first frame)", async (t) => {
  const app = await open(t, { initScript: recordFirstFrame, suffix: "#demo=causal-5" });
  const { page } = app;
  assert.equal(await page.evaluate(() => window.__framesAtReady), 1, "ready resolved after the first frame, not after more");
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.scene.tokens.length, 5, "the demo's five tokens");
  assert.equal(state.scene.causal, true, "the demo's causal mask");
  assert.equal(app.server.requests.filter((r) => r.path === "/demos/causal-5.json").length, 1, "the demo fetched once");
  await firstFrameIsSettled(page);
  assertClean(app);
});
