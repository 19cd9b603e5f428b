// share.test.mjs — sharing (README, "Sharing") in the browser: the whole scene in a link, demos, hide=/view=, files,
// images, bad links, and the static builds (dist/ under a sub-path with a strict CSP; the
// single-file page opened from disk).
//
// The dist/ tests read AL_DIST_DIR (default <repo>/dist, made by scripts/dist; scripts/test runs
// it before this suite).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { lessons } from "./lib/lessons.mjs";
import { REPO_ROOT, openApp, assertClean, describeProblems, getState, setState, widgetRect, waitForState, clickWidget, dragWidget, animationFrames, parkMouse, screenshot, STEP_TIMEOUT_MS, appOpener, refuseClipboard, waitReady } from "./lib/harness.mjs";

const DEMO_DIR = path.join(REPO_ROOT, "web", "demos");
const DEMO_INDEX = JSON.parse(readFileSync(path.join(DEMO_DIR, "index.json"), "utf8"));
const demoScene = (name) => JSON.parse(readFileSync(path.join(DEMO_DIR, `${name}.json`), "utf8"));
const DEFAULT_TOKENS = ["the", "cat", "sat"]; // practice-qkv, the app's first scene (LESSONS.md §1)
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

const open = appOpener();

// ---- helpers ------------------------------------------------------------------------------------

/** base64url of UTF-8 text (what the page's link codec expects). */
const b64url = (text) => Buffer.from(text, "utf8").toString("base64url");
const sceneLink = (scene) => "s=" + b64url(typeof scene === "string" ? scene : JSON.stringify(scene));

/** A small deterministic PRNG (mulberry32), so a failing scene can be reproduced from its seed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random valid scene with full-precision doubles over many magnitudes. */
function randomScene(seed) {
  const rand = prng(seed);
  const int = (k) => Math.floor(rand() * k);
  const n = 1 + int(6);
  const dk = 1 + int(5);
  const dv = 1 + int(5);
  // Mantissa from the PRNG, exponent 10^-6 … 10^4, either sign: every bit of the double matters.
  const num = () => (rand() * 2 - 1) * 10 ** (int(11) - 6);
  const matrix = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, num));
  const labels = ["the", "cat", "√x", "tök", "Σ", "q_1", "dog", "😀"];
  const scales = ["none", "sqrt_dk", 0.05 + rand() * 19.95];
  const scene = {
    version: 1,
    tokens: Array.from({ length: n }, (_, i) => labels[int(labels.length)] + i),
    Q: matrix(n, dk),
    K: matrix(n, dk),
    V: matrix(n, dv),
    scale: scales[int(scales.length)],
    causal: rand() < 0.5,
  };
  if (rand() < 0.5) scene.mask = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j || rand() < 0.7 ? 1 : 0)));
  return scene;
}

/** Every number of `a` is the same double as in `b` (Object.is), same shapes. */
function assertSameNumbers(actual, expected, where) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => assertSameNumbers(actual[i], e, `${where}[${i}]`));
  } else if (typeof expected === "number") {
    assert.ok(Object.is(actual, expected), `${where}: ${actual} is not bit-for-bit ${expected}`);
  } else {
    assert.deepEqual(actual, expected, where);
  }
}

const lastError = (page) => page.evaluate(() => window.attentionLab.lastError());
const link = (page) => page.evaluate(() => window.attentionLab.link());
const hash = (page) => page.evaluate(() => location.hash);
const bannerText = (page) =>
  page.evaluate(() => {
    const b = document.getElementById("share-banner");
    return b && !b.classList.contains("hidden") && b.getBoundingClientRect().height > 0 ? b.textContent : null;
  });

/** Wait until the page's lastError() is set; returns it. */
async function waitForError(page, message) {
  await page.waitForFunction(() => window.attentionLab.lastError() !== null, null, { timeout: STEP_TIMEOUT_MS }).catch(() => {});
  const error = await lastError(page);
  assert.ok(error, `${message}: lastError() stayed null`);
  return error;
}

/** Wait until location.hash satisfies `probe`. */
async function waitForHash(page, probe, message) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const h = await hash(page);
    if (probe(h)) return h;
    assert.ok(Date.now() < deadline, `${message} (hash now ${h.slice(0, 120)})`);
    await page.waitForTimeout(50);
  }
}

/** Does the page's scene hold every field of demo `name`? (Its canonical JSON may add defaults.) */
function showsDemo(scene, name) {
  const expected = demoScene(name);
  return Object.keys(expected).every((key) => JSON.stringify(scene[key]) === JSON.stringify(expected[key]));
}

/** Demo scenes match field by field, every number bit-for-bit. */
function assertShowsDemo(scene, name) {
  const expected = demoScene(name);
  for (const key of Object.keys(expected)) assertSameNumbers(scene[key], expected[key], `demo ${name}: ${key}`);
}

// ---- links --------------------------------------------------------------------------------------

test("link round trip: a random scene set in one page opens bit-for-bit in a fresh page", async (t) => {
  const first = await open(t);
  for (const seed of [1, 2, 3, 0x5eed]) {
    const scene = randomScene(seed);
    assert.deepEqual(await setState(first.page, scene), { ok: true }, `seed ${seed}: setState`);
    const before = (await getState(first.page)).scene;
    for (const key of ["Q", "K", "V", "tokens", "scale", "causal"]) assertSameNumbers(before[key], scene[key], `seed ${seed}: ${key}`);
    const url = await link(first.page);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/#s=[A-Za-z0-9_-]+$/, `seed ${seed}: link()`);

    // A fresh context: nothing shared with the first page but the URL.
    const second = await openApp(open.browser(), { url });
    try {
      const after = (await getState(second.page)).scene;
      assertSameNumbers(after, before, `seed ${seed}: scene after opening the link`);
      const result = (await getState(second.page)).result;
      const result0 = (await getState(first.page)).result;
      assertSameNumbers(result.weights, result0.weights, `seed ${seed}: weights`);
      assert.equal(await lastError(second.page), null, `seed ${seed}: lastError`);
      assertClean(second);
    } finally {
      await second.close();
    }
  }
  assertClean(first);
});

test("the address bar follows edits with replaceState (no history entries), and Back restores", async (t) => {
  const app = await open(t);
  const { page } = app;
  assert.equal(await hash(page), "", "a fresh page keeps the bare address until something changes");
  const historyLength = await page.evaluate(() => history.length);

  // Ten quick edits: one address update after they stop, no new history entries.
  for (let seed = 10; seed < 20; seed++) await setState(page, randomScene(seed));
  const last = (await getState(page)).scene;
  // On a busy machine one update may land between two edits (300 ms apart); the last one wins.
  const want = await link(page);
  const h = await waitForHash(page, (x) => `${app.url}${x}` === want, "the address bar did not come to hold link()");
  assert.ok(h.startsWith("#s="), h);
  assert.equal(await page.evaluate(() => history.length), historyLength, "edits must not add history entries");

  // A slider drag follows too.
  await dragWidget(page, "Q/0/0", 40);
  const dragged = (await getState(page)).scene;
  assert.notEqual(dragged.Q[0][0], last.Q[0][0], "the drag changed Q[0][0]");
  await waitForHash(page, (x) => x !== h, "the hash did not follow the drag");
  assert.equal(`${app.url}${await hash(page)}`, await link(page));

  // A gallery-style navigation adds one entry; Back returns to the edited scene, exactly.
  await page.evaluate(() => (location.hash = "demo=two-keys-tie"));
  await waitForState(page, (s) => s.scene.tokens.join() === "cat,dog,pet", "#demo=two-keys-tie did not load");
  assert.equal(await page.evaluate(() => history.length), historyLength + 1);
  await page.goBack();
  const back = await waitForState(page, (s) => s.scene.tokens.join() === dragged.tokens.join(), "Back did not restore the scene");
  assertSameNumbers(back.scene, dragged, "scene after Back");

  // A link set while an edit's update of the address is due (the page busy for longer than the
  // 300 ms delay, then the hash set in the same task, so the update's timer runs before hashchange):
  // the link is opened, not written over with the edited scene (CI once saw this in the single file).
  await setState(page, randomScene(21));
  await page.evaluate(() => {
    const t0 = performance.now();
    while (performance.now() - t0 < 600) {} // busy: the follow timer comes due
    location.hash = "demo=two-keys-tie";
  });
  await waitForState(page, (s) => s.scene.tokens.join() === "cat,dog,pet", "#demo=two-keys-tie set while an address update was due did not load");
  assert.equal(await hash(page), "#demo=two-keys-tie", "the link stays in the address bar");
  assertClean(app);
});

test("#demo=NAME opens every bundled demo, by link and by hashchange", async (t) => {
  // One fresh load …
  const app = await open(t, { suffix: "#demo=causal-5" });
  assertShowsDemo((await getState(app.page)).scene, "causal-5");
  assert.equal(await hash(app.page), "#demo=causal-5", "an unedited demo keeps its short link");
  // … and every demo of the index through hashchange.
  assert.ok(DEMO_INDEX.length >= 8, "index.json lists the 4 lesson examples and at least 4 more");
  // The first demo with a variant key (sink_logit, softcap, …) reloads the page into the build with
  // every mode, at the same address; from there the hashchanges load in place again.
  const VARIANT_KEYS = ["sources", "X_src", "sink_logit", "softcap", "qk_norm", "topk", "indexer", "topk_block", "differential", "gate", "Wg", "linear", "mla"];
  let fullBuild = false;
  for (const { name } of DEMO_INDEX) {
    const reloads = !fullBuild && Object.keys(demoScene(name)).some((key) => VARIANT_KEYS.includes(key));
    const loaded = reloads ? app.page.waitForEvent("load", { timeout: 30_000 }) : null;
    await app.page.evaluate((n) => (location.hash = "demo=" + n), name);
    if (reloads) {
      await loaded;
      await waitReady(app.page);
      assert.equal(await app.page.evaluate(() => typeof window.Module._al_export_text), "function",
                   `#demo=${name} opened the build with every mode`);
      fullBuild = true;
    }
    const state = await waitForState(app.page, (s) => showsDemo(s.scene, name), `#demo=${name} did not load`);
    assertShowsDemo(state.scene, name);
    assert.equal(await lastError(app.page), null, `#demo=${name}: lastError`);
  }
  assertClean(app);
});

test("mode=: getState().ui.mode follows the link; the default mode is never written into links", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&mode=explore" });
  const state = await getState(app.page);
  assertShowsDemo(state.scene, "causal-5");
  assert.equal(state.ui.mode, "explore", "getState().ui.mode");
  assert.equal(await lastError(app.page), null, "mode=explore: lastError");
  const link = await app.page.evaluate(() => window.attentionLab.link());
  assert.ok(link.includes("#s=") && !link.includes("mode="), `link() of the default mode has no mode=: ${link}`);
  assertClean(app);
});

test("hide= and view= cut the screen down for embedding", async (t) => {
  const hidden = await open(t, { suffix: "#demo=causal-5&hide=controls,mask,formula" });
  await animationFrames(hidden.page, 3);
  assert.equal(await widgetRect(hidden.page, "tokens"), null, "hide=controls: no controls");
  assert.equal(await widgetRect(hidden.page, "cell/mask/0/0"), null, "hide=mask: no mask grid");
  assert.ok(await widgetRect(hidden.page, "Q/0/0"), "vectors are shown");
  assert.ok(await widgetRect(hidden.page, "cell/weights/4/4"), "weights are shown");
  assert.match(await link(hidden.page), /&hide=controls,mask,formula$/, "link() keeps hide=");
  await screenshot(hidden.page, "share-hide-controls-mask-formula");
  assertClean(hidden);

  const full = await open(t, { suffix: "#demo=causal-5&view=weights" });
  await animationFrames(full.page, 3);
  for (const id of ["tokens", "Q/0/0", "cell/scores/0/0", "cell/mask/0/0"]) {
    assert.equal(await widgetRect(full.page, id), null, `view=weights: ${id} must not be drawn`);
  }
  const cell = await widgetRect(full.page, "cell/weights/0/0");
  assert.ok(cell, "view=weights draws the weights");
  assert.match(await link(full.page), /&view=weights$/);
  await screenshot(full.page, "share-view-weights");
  // Larger than in the full screen (same window, same demo, all panels).
  await full.page.evaluate(() => (location.hash = "demo=causal-5"));
  await full.page.waitForFunction(() => window.attentionLab.widgetRect("tokens") !== null, null, { timeout: STEP_TIMEOUT_MS });
  await animationFrames(full.page, 3);
  const normal = await widgetRect(full.page, "cell/weights/0/0");
  assert.ok(cell.w > 1.2 * normal.w, `view=weights cells (${cell.w} px) are not larger than in the full screen (${normal.w} px)`);
  assertClean(full);

  // An embed smaller than the wide layout (an iframe of 600×400): the one panel still fits.
  const small = await open(t, { suffix: "#demo=causal-5&view=weights", context: { viewport: { width: 600, height: 400 } } });
  await animationFrames(small.page, 3);
  const last = await widgetRect(small.page, "cell/weights/4/4");
  assert.ok(last, "view=weights in a 600×400 frame draws the weights");
  assert.ok(last.y + last.h <= 400 && last.x + last.w <= 600, `the last cell ${JSON.stringify(last)} is outside the 600×400 frame`);
  await screenshot(small.page, "share-view-weights-600x400");
  assertClean(small);
});

// ---- bad links ----------------------------------------------------------------------------------

const validScene = demoScene("two-keys-tie");
const BAD_LINKS = [
  { name: "bad base64", fragment: "s=eyJ2ZXJza!!W9uIjox", expect: /link: bad base64 at character 10 of s=: '!'/ },
  { name: "truncated base64", fragment: sceneLink(validScene).slice(0, 4 * 20 + 1 + 2), expect: /link: s= base64 is truncated: 81 characters/ },
  { name: "truncated JSON", fragment: sceneLink(JSON.stringify(validScene).slice(0, 60)), expect: /^scene: / },
  { name: "wrong version", fragment: sceneLink({ ...validScene, version: 3 }), expect: /version/ },
  {
    name: "wrong shapes",
    fragment: sceneLink({ ...validScene, K: [[2, 0], [0, 2, 7], [0, 0]] }),
    expect: /K: row 1 has 3 entries/,
  },
  { name: "NaN", fragment: sceneLink(JSON.stringify(validScene).replace('"Q":[[1,0]', '"Q":[[NaN,0]')), expect: /^scene: / },
  {
    name: "a non-finite number",
    fragment: sceneLink(JSON.stringify({ ...validScene, Q: [[1, 0], [0, 1], [1, 1]] }).replace("[[1,0]", "[[1e999,0]")),
    expect: /Q.*not a finite number/,
  },
  {
    name: "n = 5000",
    fragment: sceneLink({
      version: 1,
      tokens: Array.from({ length: 5000 }, (_, i) => `t${i}`),
      Q: Array.from({ length: 5000 }, () => [0]),
      K: Array.from({ length: 5000 }, () => [0]),
      V: Array.from({ length: 5000 }, () => [0]),
    }),
    expect: /link: fragment is \d+ bytes, limit is 32768/,
  },
  { name: "a 64 KB fragment", fragment: "s=" + "A".repeat(65536), expect: /link: fragment is 65538 bytes, limit is 32768/ },
  { name: "unknown demo", fragment: "demo=no-such-demo", expect: /no demo named 'no-such-demo' \(demos: practice-qkv/ },
  { name: "unknown panel in hide=", fragment: "demo=causal-5&hide=controls,sidebar", expect: /unknown panel 'sidebar' in hide=/ },
  { name: "unknown mode", fragment: "demo=causal-5&mode=nope", expect: /unknown mode 'nope' in mode= \(modes: explore, walk, heads/ },
];

test("bad links at start: the default example, a banner naming the problem, lastError()", async (t) => {
  for (const bad of BAD_LINKS) {
    const app = await openApp(open.browser(), { suffix: "#" + bad.fragment });
    try {
      const error = await waitForError(app.page, bad.name);
      assert.match(error, bad.expect, `${bad.name}: lastError()`);
      assert.ok((await bannerText(app.page))?.includes(error), `${bad.name}: the banner shows the error`);
      const state = await getState(app.page);
      assert.deepEqual(state.scene.tokens, DEFAULT_TOKENS, `${bad.name}: the default example is shown`);
      assert.ok(state.result.weights.flat().every(Number.isFinite), `${bad.name}: finite weights`);
      if (bad.name === "unknown demo") await screenshot(app.page, "share-banner-unknown-demo");
      // Dismissible; the page still responds (a setState after the bad link works).
      await app.page.click("#share-banner .share-close");
      assert.equal(await bannerText(app.page), null, `${bad.name}: the banner was dismissed`);
      assert.deepEqual(await setState(app.page, validScene), { ok: true }, `${bad.name}: page alive`);
      assert.deepEqual(app.pageErrors, [], `${bad.name}: page errors`);
      assert.deepEqual(app.externalRequests, [], `${bad.name}: external requests`);
    } finally {
      await app.close();
    }
  }
});

test("bad links on hashchange keep the current scene and panels", async (t) => {
  const app = await open(t, { suffix: "#demo=low-temperature" });
  const before = (await getState(app.page)).scene;
  for (const bad of BAD_LINKS) {
    await app.page.evaluate(() => window.attentionLab.ready); // alive
    await app.page.evaluate((f) => (location.hash = f), bad.fragment);
    await app.page.waitForFunction((re) => new RegExp(re).test(window.attentionLab.lastError() ?? ""), bad.expect.source, {
      timeout: STEP_TIMEOUT_MS,
    });
    assert.ok(await bannerText(app.page), `${bad.name}: banner`);
    assertSameNumbers((await getState(app.page)).scene, before, `${bad.name}: the scene was kept`);
    assert.ok(await widgetRect(app.page, "tokens"), `${bad.name}: the panels were kept`);
  }
  // A good link afterwards loads and clears the error.
  await app.page.evaluate(() => (location.hash = "demo=attend-to-self"));
  await waitForState(app.page, (s) => s.scene.tokens.join() === demoScene("attend-to-self").tokens.join(), "good link after bad ones");
  assert.equal(await lastError(app.page), null);
  assert.equal(await bannerText(app.page), null);
  assert.deepEqual(app.pageErrors, []);
});

// ---- buttons: gallery, copy link, export/import JSON, export PNG ---------------------------------

test("Gallery lists every demo with its description; a click opens it", async (t) => {
  const app = await open(t);
  const { page } = app;
  await clickWidget(page, "share/gallery");
  await parkMouse(page);
  await animationFrames(page, 3);
  await screenshot(page, "share-gallery");
  // Every demo has its row, in the index's order; the list scrolls when it is taller than the
  // window (14 demos at 1280×720), so the wheel over the gallery brings the later rows into view.
  const viewport = page.viewportSize();
  for (const { name } of DEMO_INDEX) {
    let rect = await widgetRect(page, "gallery/" + name);
    for (let notch = 0; !rect && notch < 20; notch++) {
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, 120);
      await animationFrames(page, 2);
      rect = await widgetRect(page, "gallery/" + name);
    }
    assert.ok(rect, `gallery entry ${name}`);
  }
  await page.mouse.wheel(0, -5000); // back to the top, where sqrt-dk-saturation's row is
  await animationFrames(page, 3);
  await clickWidget(page, "gallery/sqrt-dk-saturation");
  const state = await waitForState(page, (s) => s.scene.tokens.length === demoScene("sqrt-dk-saturation").tokens.length, "the gallery click did not load the demo");
  assertShowsDemo(state.scene, "sqrt-dk-saturation");
  assert.equal(await hash(page), "#demo=sqrt-dk-saturation");
  assert.equal(await widgetRect(page, "gallery/two-keys-tie"), null, "the gallery closed");
  assertClean(app);
});

test("Copy link writes link() to the clipboard and says so", async (t) => {
  const app = await open(t, { context: { permissions: ["clipboard-read", "clipboard-write"] }, suffix: "#demo=causal-5" });
  const { page } = app;
  await clickWidget(page, "share/copy");
  await page.waitForSelector("#share-toast:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  assert.equal(await page.textContent("#share-toast"), "Link copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await link(page));
  // The copied link opens the same scene elsewhere.
  const other = await openApp(open.browser(), { url: copied });
  try {
    assertSameNumbers((await getState(other.page)).scene, (await getState(page)).scene, "scene from the copied link");
  } finally {
    await other.close();
  }
  assertClean(app);
});

test("Copy link refused by the browser: the link in a selected read-only field", async (t) => {
  const app = await open(t, { initScript: refuseClipboard });
  const { page } = app;
  await clickWidget(page, "share/copy");
  await page.waitForSelector("#share-linkbox:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  const field = await page.evaluate(() => {
    const f = document.getElementById("share-linkfield");
    return { value: f.value, readOnly: f.readOnly, selected: f.selectionEnd - f.selectionStart };
  });
  assert.equal(field.value, await link(page));
  assert.ok(field.readOnly);
  assert.equal(field.selected, field.value.length, "the whole link is selected for Ctrl+C");
  await screenshot(page, "share-copy-fallback");
  assertClean(app);
});

test("Export JSON downloads the scene; Import JSON and drag-and-drop load one, bad files name the field", async (t) => {
  const app = await open(t, { suffix: "#demo=learned-5x8" });
  const { page } = app;
  const shown = (await getState(page)).scene;

  const [download] = await Promise.all([page.waitForEvent("download"), clickWidget(page, "share/export-json")]);
  assert.equal(download.suggestedFilename(), "learned-5x8.json");
  const exported = JSON.parse(readFileSync(await download.path(), "utf8"));
  assertSameNumbers(exported, shown, "exported scene");

  // Import through the file picker.
  const scene = randomScene(77);
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), clickWidget(page, "share/import-json")]);
  await chooser.setFiles({ name: "mine.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(scene)) });
  const imported = await waitForState(page, (s) => s.scene.tokens.join() === scene.tokens.join(), "Import JSON did not load the file");
  assertSameNumbers(imported.scene.Q, scene.Q, "imported Q");
  await animationFrames(page, 3); // the new scene's layout is drawn (widgetRect is per frame)

  // A bad file: banner naming the field, scene kept.
  const [chooser2] = await Promise.all([page.waitForEvent("filechooser"), clickWidget(page, "share/import-json")]);
  const tooMany = { version: 1, tokens: Array.from({ length: 5000 }, (_, i) => `t${i}`), Q: [[0]], K: [[0]], V: [[0]] };
  await chooser2.setFiles({ name: "huge.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(tooMany)) });
  const error = await waitForError(page, "bad file");
  assert.match(error, /^huge\.json: tokens: 5000 tokens, limit is 1024/);
  assertSameNumbers((await getState(page)).scene.Q, scene.Q, "scene kept after a bad file");

  // Drag and drop a .json onto the page.
  const dropped = randomScene(78);
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "dropped.json", { type: "application/json" }));
    const canvas = document.getElementById("canvas");
    for (const type of ["dragenter", "dragover", "drop"]) {
      canvas.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    }
  }, JSON.stringify(dropped));
  const afterDrop = await waitForState(page, (s) => s.scene.tokens.join() === dropped.tokens.join(), "the dropped file did not load");
  assertSameNumbers(afterDrop.scene.V, dropped.V, "dropped V");
  assert.equal(await lastError(page), null, "a good file clears the error");
  assertClean(app);
});

test("Export PNG saves the canvas as drawn", async (t) => {
  const app = await open(t, { suffix: "#demo=soft-dictionary" });
  const { page } = app;
  const [download] = await Promise.all([page.waitForEvent("download"), clickWidget(page, "share/export-png")]);
  assert.equal(download.suggestedFilename(), "soft-dictionary.png");
  const png = readFileSync(await download.path());
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
  const size = await page.evaluate(() => [document.getElementById("canvas").width, document.getElementById("canvas").height]);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], size, "PNG size = canvas backing store");
  // A cleared drawing buffer would be one flat colour (a few hundred bytes of PNG).
  assert.ok(png.length > 30_000, `the PNG is ${png.length} bytes: the canvas was read after it was cleared`);
  assertClean(app);
});

// ---- static builds: dist/ under a sub-path with a strict CSP; the single file from disk ---------

function distDir() {
  const dir = process.env.AL_DIST_DIR ?? path.join(REPO_ROOT, "dist");
  assert.ok(existsSync(path.join(dir, "index.html")), `no dist/ at ${dir}: run scripts/dist (or set AL_DIST_DIR)`);
  return dir;
}

test("dist/ from a sub-path with a strict CSP: loads, demos work, no console error, no other origin", async (t) => {
  const dir = distDir();
  const files = readdirSync(dir);
  for (const f of ["index.html", "attention-lab.js", "attention-lab.wasm", "share.js", "attention-lab.html", "demos"]) {
    assert.ok(files.includes(f), `dist/ has ${f}`);
  }
  const app = await open(t, {
    site: dir,
    base: "/user/repo/",
    headers: { "Content-Security-Policy": CSP },
    suffix: "#demo=causal-5&hide=formula",
    initScript: () => {
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    },
  });
  const { page, server } = app;
  assertShowsDemo((await getState(page)).scene, "causal-5");
  await page.evaluate(() => (location.hash = "demo=two-keys-tie"));
  await waitForState(page, (s) => s.scene.tokens.join() === "cat,dog,pet", "a demo by hashchange under the sub-path");
  await clickWidget(page, "tokens");
  // The first load's exporter (attention-lab-export.js/.wasm, fetched after the first frame) under the CSP too.
  const script = await page.evaluate(async () => {
    await window.attentionLab.exportReady;
    return window.attentionLab.exportText("numpy", "weights");
  });
  assert.match(script, /^import numpy as np$/m, "exportText under the CSP");
  assert.ok(server.requests.some((r) => r.path === "/user/repo/attention-lab-export.wasm" && r.status === 200), "the exporter from dist/");
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "CSP violations");
  // The site has the build with every mode beside the first-load one: their tabs are on the mode bar.
  assert.ok(await widgetRect(page, "mode/circuits"), "dist/: the Circuits tab");
  assertClean(app);
  for (const r of server.requests) {
    assert.ok(r.path.startsWith("/user/repo/"), `request outside the sub-path: ${r.path}`);
    assert.ok(r.status < 400, `${r.path}: HTTP ${r.status}`);
  }
  assert.ok(server.requests.some((r) => r.path === "/user/repo/demos/causal-5.json"), "the demo came from dist/demos/");
  // Spanish and German are data files of dist/lang/, fetched only when wanted.
  assert.ok(!server.requests.some((r) => r.path.includes("/lang/")), "an English visit fetches no language file");
  await page.evaluate(() => (location.hash = "demo=two-keys-tie&lang=de"));
  await waitForState(page, (s) => s.ui.language === "de", "lang=de under the sub-path");
  assert.ok(server.requests.some((r) => r.path === "/user/repo/lang/de.json" && r.status === 200), "German from dist/lang/");
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "CSP violations after the language loaded");
});

test("the single-file build opened from disk (file://) renders the default example and its demos", async (t) => {
  const file = path.join(distDir(), "attention-lab.html");
  assert.ok(existsSync(file), "dist/attention-lab.html");
  const app = await open(t, { url: pathToFileURL(file).href });
  const { page } = app;
  const state = await getState(page);
  assert.deepEqual(state.scene.tokens, DEFAULT_TOKENS);
  // The single file carries the build with every mode (scripts/single-file.mjs; it has no second
  // build to load): every tab is there, and the Heads tab switches in place, with no reload.
  assert.ok(await widgetRect(page, "mode/circuits"), "the single file's Circuits tab");
  await clickWidget(page, "mode/heads");
  await waitForState(page, (s) => s.ui.mode === "heads", "the single file's Heads tab");
  assert.equal(await page.evaluate(() => typeof window.Module._al_export_text), "function", "the build with every mode");
  await clickWidget(page, "mode/explore");
  await waitForState(page, (s) => s.ui.mode === "explore", "back to Explore");
  // LESSONS.md §1: the first weight row of practice-qkv is [0.155 0.422 0.422].
  assert.deepEqual(state.result.weights[0].map((w) => Number(w.toFixed(3))), lessons["practice-qkv"].weights_row0_3_places);
  await page.evaluate(() => (location.hash = "demo=attend-to-self"));
  const demo = await waitForState(page, (s) => s.scene.tokens.join() === demoScene("attend-to-self").tokens.join(), "embedded demo");
  assertShowsDemo(demo.scene, "attend-to-self");
  assert.match(await link(page), /^file:\/\/.*attention-lab\.html#s=/);
  // The languages are in the page too (file:// cannot fetch lang/*.json).
  await page.evaluate(() => (location.hash = "demo=attend-to-self&lang=es"));
  await waitForState(page, (s) => s.ui.language === "es", "Spanish from the page itself");
  await screenshot(page, "share-single-file");
  assert.deepEqual(app.failedRequests, [], describeProblems(app));
  assertClean(app);
});
