// a11y.test.mjs — "In the classroom" (README): themes, presenter zoom, the keyboard, the screen
// reader's live region and table, languages.
//
// Contrast is measured on screenshots: the PNG is decoded in the page (createImageBitmap), and a
// text widget's box gives the ink (the pixel farthest in luminance from the box's most common
// colour, its background); WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) ≥ 4.5 is AA.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assertClean,
  widgetRect,
  getState,
  waitForState,
  requireWidget,
  clickWidget,
  animationFrames,
  parkMouse,
  screenshot,
  appOpener,
} from "./lib/harness.mjs";
import { readFileSync } from "node:fs";

const open = appOpener();

/** RGBA pixels of a PNG file, decoded by the page: {width, height, data: number[]} (data row-major). */
async function decodePng(page, file) {
  const base64 = readFileSync(file).toString("base64");
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0);
    const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    return { width: bitmap.width, height: bitmap.height, data: Array.from(data) };
  }, base64);
}

const channel = (c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
export const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
export const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** The background (most common colour) and ink (farthest in luminance) of a box of the image. */
function inkAndBackground(image, rect) {
  const counts = new Map();
  const pixels = [];
  for (let y = Math.ceil(rect.y); y < Math.floor(rect.y + rect.h); y++) {
    for (let x = Math.ceil(rect.x); x < Math.floor(rect.x + rect.w); x++) {
      const i = (y * image.width + x) * 4;
      const rgb = [image.data[i], image.data[i + 1], image.data[i + 2]];
      pixels.push(rgb);
      const key = rgb.join(",");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(",").map(Number);
  const lb = luminance(background);
  let ink = background;
  for (const p of pixels) if (Math.abs(luminance(p) - lb) > Math.abs(luminance(ink) - lb)) ink = p;
  return { background, ink, ratio: contrast(background, ink) };
}

test("theme=light: a light page, text at ≥ 4.5:1 measured on the screenshot, and the link keeps it", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&theme=light", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await waitForState(page, (s) => s.ui.theme === "light" && s.ui.example !== "practice-qkv", "theme=light applied");
  assert.equal((await getState(page)).ui.themeChosen, true);
  await parkMouse(page);
  await animationFrames(page, 4);
  // Text widgets: mode tabs (dim text on the page), the Example picker and a button (text on frames).
  const ids = ["mode/heads", "mode/walk", "view/menu", "quiz/open", "share/copy", "Q/0/0"];
  const rects = {};
  for (const id of ids) rects[id] = await requireWidget(page, id);
  const file = await screenshot(page, "a11y-theme-light");
  const image = await decodePng(page, file);
  const corner = inkAndBackground(image, { x: 1, y: 1, w: 6, h: 6 }).background;
  assert.ok(luminance(corner) > 0.75, `the page's corner is light: rgb(${corner})`);
  for (const id of ids) {
    const r = rects[id];
    const m = inkAndBackground(image, r);
    assert.ok(luminance(m.background) > 0.6, `${id}: background rgb(${m.background}) is light`);
    assert.ok(m.ratio >= 4.5, `${id}: text rgb(${m.ink}) on rgb(${m.background}) is ${m.ratio.toFixed(2)}:1, below 4.5:1`);
  }
  const link = await page.evaluate(() => window.attentionLab.link());
  assert.match(link, /#demo=causal-5&theme=light$|&theme=light$/, `link ${link}`);
  assertClean(app);
});

test("the dark theme (default) and high contrast also measure ≥ 4.5:1; the View menu switches and the address follows", async (t) => {
  const app = await open(t, { context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  const before = await getState(page);
  assert.equal(before.ui.theme, "dark", "the harness's context prefers a dark colour scheme");
  assert.equal(before.ui.themeChosen, false);
  assert.ok(!(await page.evaluate(() => window.attentionLab.link())).includes("theme="), "an unchosen theme is not in the link");
  await clickWidget(page, "view/menu");
  await clickWidget(page, "view/theme/contrast");
  await waitForState(page, (s) => s.ui.theme === "contrast" && s.ui.themeChosen, "View → High contrast");
  await page.waitForFunction(() => location.hash.includes("theme=contrast"), null, { timeout: 5000 });
  await page.keyboard.press("Escape");
  await parkMouse(page);
  await animationFrames(page, 4);
  for (const [name, ids] of [["contrast", ["mode/heads", "share/copy", "X/0/0"]]]) {
    const rects = {};
    for (const id of ids) rects[id] = await requireWidget(page, id);
    const image = await decodePng(page, await screenshot(page, `a11y-theme-${name}`));
    for (const id of ids) {
      const m = inkAndBackground(image, rects[id]);
      assert.ok(m.ratio >= 4.5, `${name} ${id}: ${m.ratio.toFixed(2)}:1`);
    }
  }
  assertClean(app);
});

test("zoom=150 makes widgets 1.5× larger; Ctrl + / Ctrl − / Ctrl 0 step the zoom", async (t) => {
  const viewport = { width: 1280, height: 720 };
  const plain = await open(t, { suffix: "#demo=causal-5", context: { viewport } });
  const ids = ["mode/heads", "view/menu", "quiz/open", "Q/0/0"];
  const base = {};
  for (const id of ids) base[id] = await widgetRect(plain.page, id);
  const app = await open(t, { suffix: "#demo=causal-5&zoom=150", context: { viewport } });
  const { page } = app;
  await waitForState(page, (s) => s.ui.zoom === 150, "zoom=150 applied");
  await animationFrames(page, 4);
  for (const id of ids) {
    const r = await widgetRect(page, id); // Q/0/0 may be below the fold at 150 %: its size still counts
    const ratio = r.h / base[id].h;
    assert.ok(Math.abs(ratio - 1.5) <= 0.08, `${id}: height ${r.h} vs ${base[id].h} at 100 % (×${ratio.toFixed(3)})`);
  }
  const tab = await requireWidget(page, "mode/heads");
  assert.ok(Math.abs(tab.w / base["mode/heads"].w - 1.5) <= 0.1, `mode/heads width ×${(tab.w / base["mode/heads"].w).toFixed(3)}`);
  await screenshot(page, "a11y-zoom-150");

  await page.mouse.move(640, 360);
  await page.keyboard.press("Control+Equal");
  await waitForState(page, (s) => s.ui.zoom === 175, "Ctrl + steps 150 → 175");
  await page.keyboard.press("Control+Minus");
  await page.keyboard.press("Control+Minus");
  await waitForState(page, (s) => s.ui.zoom === 125, "Ctrl − twice: 175 → 125");
  await page.keyboard.press("Control+Digit0");
  await waitForState(page, (s) => s.ui.zoom === 100, "Ctrl 0: back to 100");
  await page.waitForFunction(() => !location.hash.includes("zoom="), null, { timeout: 5000 });
  assertClean(plain);
  assertClean(app);
});

test("bad view keys: zoom=300 and theme=sepia are refused with a message, the page keeps its state", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&zoom=300" });
  const { page } = app;
  const error = await page.evaluate(() => window.attentionLab.lastError());
  assert.equal(error, "link: zoom=300 is not a zoom in percent (75 to 200)");
  assert.equal((await getState(page)).ui.zoom, 100);
  await page.evaluate(() => {
    location.hash = "#demo=causal-5&theme=sepia";
  });
  await page.waitForFunction(() => (window.attentionLab.lastError() || "").includes("sepia"), null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => window.attentionLab.lastError()), "link: unknown theme 'sepia' in theme= (themes: dark, light, contrast)");
  assert.equal((await getState(page)).ui.theme, "dark");
});

// ---- the keyboard and the screen reader ---------------------------------------------------------

/** A key held over two frames (a press and release inside one frame would be missed by ImGui 1.86). */
async function key(page, name) {
  await page.keyboard.down(name);
  await animationFrames(page, 2);
  await page.keyboard.up(name);
  await animationFrames(page, 2);
}

/** Tab until `id` has the keyboard focus (getState().ui.keyboard.focus); returns the presses. */
async function tabTo(page, id, most = 120) {
  for (let presses = 1; presses <= most; presses++) {
    await key(page, "Tab");
    const focus = (await getState(page)).ui.keyboard.focus;
    if (focus === id) return presses;
  }
  assert.fail(`Tab never reached ${id} in ${most} presses`);
}

const liveText = (page) => page.locator("#a11y-live").textContent();

/** The app at 1280×720 on causal-5 (LESSONS.md §4: a direct scene, q_the = [1, 0]). */
async function openCausal(t) {
  const app = await open(t, { suffix: "#demo=causal-5", context: { viewport: { width: 1280, height: 720 } } });
  await waitForState(app.page, (s) => s.scene.tokens.length === 5 && s.scene.causal, "causal-5 loaded");
  await parkMouse(app.page);
  return app;
}

test("keyboard alone: Tab to Q/0/0, arrows step it (Shift a tenth), the live region says it", async (t) => {
  const app = await openCausal(t);
  const { page } = app;
  const before = (await getState(page)).scene.Q[0][0];
  assert.equal(before, 1);
  const presses = await tabTo(page, "Q/0/0");
  assert.ok(presses > 3, `Q/0/0 comes after the top bar and the controls (${presses} Tab presses)`);
  assert.equal(await liveText(page), "query 0 component 0: 1.00");
  await key(page, "ArrowRight");
  let s = await waitForState(page, (st) => st.scene.Q[0][0] !== before, "→ changed Q[0][0]");
  const step = s.scene.Q[0][0] - before;
  assert.ok(Math.abs(step - 0.1) < 1e-12, `one step of a ±1…±10 slider is 0.1, got ${step}`);
  await page.waitForFunction(() => document.querySelector("#a11y-live").textContent === "query 0 component 0: 1.10");
  await page.keyboard.down("Shift");
  await key(page, "ArrowLeft");
  await page.keyboard.up("Shift");
  s = await waitForState(page, (st) => Math.abs(st.scene.Q[0][0] - 1.09) < 1e-12, "Shift+← took a tenth of a step: 1.09");
  await key(page, "PageDown");
  s = await waitForState(page, (st) => Math.abs(st.scene.Q[0][0] - 0.09) < 1e-12, "PageDown took ten steps: 0.09");
  // The result follows: weights of the edited scene, as getState reports them, in the off-screen table.
  assert.ok(s.ui.keyboard.announce.startsWith("query 0 component 0: 0.09"), s.ui.keyboard.announce);
  // Shift+Tab goes back one stop, Tab forward again.
  const back = (await (async () => {
    await page.keyboard.down("Shift");
    await key(page, "Tab");
    await page.keyboard.up("Shift");
    return (await getState(page)).ui.keyboard.focus;
  })());
  assert.notEqual(back, "Q/0/0", "Shift+Tab moved the focus back");
  await key(page, "Tab");
  assert.equal((await getState(page)).ui.keyboard.focus, "Q/0/0");
  await screenshot(page, "a11y-keyboard-focus");
  assertClean(app);
});

test("keyboard alone: Enter types a value into the focused slider", async (t) => {
  const app = await openCausal(t);
  const { page } = app;
  await tabTo(page, "K/1/0");
  await key(page, "Enter");
  for (let i = 0; i < 8; i++) await key(page, "Backspace");
  await page.keyboard.type("0.25", { delay: 40 });
  await animationFrames(page, 2);
  await key(page, "Enter");
  await waitForState(page, (s) => s.scene.K[1][0] === 0.25, "K[1][0] typed as 0.25");
});

test("keyboard alone: the weights grid shows a cell's derivation, the mask grid toggles a cell with Space", async (t) => {
  const app = await openCausal(t);
  const { page } = app;
  await tabTo(page, "cell/weights");
  await key(page, "ArrowDown");
  await key(page, "ArrowDown"); // row 2 'sat', column 0 'the'
  const state = await getState(page);
  const w = state.result.weights[2][0];
  const top = state.result.argmax[2] === 0 ? ", highest in row" : "";
  const said = `weight row sat, column the: ${w.toFixed(3)}${top}`;
  await page.waitForFunction((text) => document.querySelector("#a11y-live").textContent === text, said, { timeout: 5000 });
  const tip = await waitForState(page, (s) => s.ui.tooltip.includes("a[2][0]"), "the derivation tooltip of a[2][0]");
  assert.match(tip.ui.tooltip, /"sat" \(query 2\) attends to "the" \(key 0\)/);
  assert.deepEqual(tip.ui.keyboard.cell, [2, 0]);
  await screenshot(page, "a11y-keyboard-weights-cell");

  await tabTo(page, "cell/mask");
  await key(page, "ArrowDown"); // row 1 'cat', column 0 'the': allowed under the causal mask
  assert.equal(await liveText(page), "mask row cat, column the: may attend");
  await key(page, "Space");
  const s = await waitForState(page, (st) => Array.isArray(st.scene.mask) && st.scene.mask[1][0] === 0, "Space hid cell (1, 0)");
  assert.equal(s.scene.mask[1][1], 1);
  await page.waitForFunction(() => document.querySelector("#a11y-live").textContent === "mask row cat, column the: hidden");
  // Row 'cat' now sees only itself: all its weight on 'cat'.
  assert.deepEqual(s.result.weights[1], [0, 1, 0, 0, 0]);
  // The causal mask's own cells are not the custom mask's to toggle.
  await key(page, "ArrowRight");
  await key(page, "ArrowRight"); // (1, 2): key 2 is in query 1's future
  assert.equal(await liveText(page), "mask row cat, column sat: hidden by the causal mask");
  await key(page, "Space");
  await animationFrames(page, 3);
  assert.equal((await getState(page)).scene.mask[1][2], 1, "a causal cell stays as it was");
  assertClean(app);
});

test("screen reader: the live region and the off-screen tables are in Chromium's accessibility tree", async (t) => {
  const app = await openCausal(t);
  const { page } = app;
  const state = await getState(page);
  const weights = page.getByRole("table", { name: /Attention weights/ });
  await weights.waitFor({ state: "attached", timeout: 5000 });
  // Every weight is a cell, to 3 decimals, under its key's column header.
  await page.waitForFunction(() => document.querySelectorAll("#a11y-weights td").length === 25, null, { timeout: 5000 });
  const cells = await weights.getByRole("cell").allTextContents();
  assert.deepEqual(cells, state.result.weights.flat().map((w) => w.toFixed(3)));
  const headers = await weights.getByRole("columnheader").allTextContents();
  assert.deepEqual(headers.slice(1), state.scene.tokens);
  const output = page.getByRole("table", { name: /Output Y = A V/ });
  assert.deepEqual(await output.getByRole("cell").allTextContents(), state.result.output.flat().map((v) => v.toFixed(3)));
  // After an edit the table follows (debounced).
  await page.evaluate(() => {
    const s = window.attentionLab.getState().scene;
    s.Q[0][0] = 3;
    window.attentionLab.setState(s);
  });
  const edited = await waitForState(page, (s) => s.scene.Q[0][0] === 3, "setState applied");
  await page.waitForFunction(
    (first) => document.querySelector("#a11y-weights td")?.textContent === first,
    edited.result.weights[0][0].toFixed(3),
    { timeout: 5000 },
  );
  // The live region: a polite status the tree exposes with what the keyboard focused.
  await parkMouse(page);
  await tabTo(page, "Q/0/1");
  const live = page.getByRole("status").filter({ hasText: "query 0 component 1: 0.00" }); // q_the = [3, 0] now
  await live.waitFor({ state: "attached", timeout: 5000 });
  assert.equal(await page.locator("#a11y-live").getAttribute("aria-live"), "polite");
  // Chromium's own tree (DevTools protocol), as a screen reader gets it.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  const texts = nodes.map((n) => n.name?.value ?? "").filter(Boolean);
  const roles = new Set(nodes.map((n) => n.role?.value));
  assert.ok(roles.has("status") && roles.has("table") && roles.has("columnheader") && roles.has("rowheader"), [...roles].join(", "));
  assert.ok(texts.some((s) => s.includes("query 0 component 1: 0.00")), "the accessibility tree holds the announcement");
  assert.ok(texts.some((s) => s.includes("Attention weights")), "the accessibility tree holds the weights table");
  assertClean(app);
});
