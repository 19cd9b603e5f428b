// a11y-theme.test.mjs — "In the classroom" (README): themes and presenter zoom (a11y-keys.test.mjs:
// the keyboard and the screen reader; a11y-lang.test.mjs: languages).
//
// Contrast is measured on screenshots: the PNG is decoded in the page (createImageBitmap), and a
// text widget's box gives the ink (the pixel farthest in luminance from the box's most common
// colour, its background); WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) ≥ 4.5 is AA.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, widgetRect, getState, waitForState, requireWidget, clickWidget, animationFrames, parkMouse, screenshot, appOpener } from "./lib/a11y.mjs";
import { decodePng } from "./lib/harness.mjs";

const open = appOpener();

const channel = (c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const contrast = (a, b) => {
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

