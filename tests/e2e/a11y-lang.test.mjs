// a11y-lang.test.mjs — "In the classroom" (README): the screen's words in English, Spanish and German.
// lang=es / lang=de switch them (getLanguage(), the tabs' widths change with their words), the
// browser's language is the default, the View menu picks one, and at 1280×720 no translated text
// overflows its place (getState().ui.overflow: row labels wider than their column, a panel's text
// past its right edge, a mode bar wider than the screen). Screenshots: build/e2e/a11y-lang-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, requireWidget, clickWidget, animationFrames, parkMouse, screenshot, appOpener } from "./lib/harness.mjs";

const open = appOpener();
const viewport = { width: 1280, height: 720 };
const language = (page) => page.evaluate(() => window.attentionLab.getLanguage());

test("lang=es and lang=de switch the words; nothing overflows at 1280×720; English is the default", async (t) => {
  const en = await open(t, { context: { viewport } });
  assert.equal(await language(en.page), "en", "navigator.language en-US → English");
  const widths = { en: (await requireWidget(en.page, "mode/walk")).w };
  assert.deepEqual((await getState(en.page)).ui.overflow, [], "English fits");
  for (const lang of ["es", "de"]) {
    const app = await open(t, { suffix: `#demo=causal-5&lang=${lang}`, context: { viewport } });
    const { page } = app;
    await waitForState(page, (s) => s.ui.language === lang && s.scene.tokens.length === 5, `lang=${lang} applied`);
    assert.equal(await language(page), lang);
    await parkMouse(page);
    await animationFrames(page, 4);
    const state = await getState(page);
    assert.deepEqual(state.ui.overflow, [], `${lang}: texts that do not fit their place`);
    widths[lang] = (await requireWidget(page, "mode/walk")).w;
    // Every control is still where a click finds it, inside the 1280×720 screen.
    for (const id of ["mode/explore", "mode/decode", "view/menu", "quiz/open", "preset", "causal", "reset", "share/copy", "export/menu"]) {
      await requireWidget(page, id);
    }
    await screenshot(page, `a11y-lang-${lang}`);
    assert.match(await page.evaluate(() => window.attentionLab.link()), new RegExp(`&lang=${lang}$`));
    assertClean(app);
  }
  // "Walk through" → "Paso a paso" (narrower), "Schritt für Schritt" (wider): the words changed.
  assert.ok(widths.es < widths.en && widths.de > widths.en, `mode/walk widths ${JSON.stringify(widths)}`);
  assertClean(en);
});

test("the browser's language is the default; the View menu picks another; lang=fr is refused", async (t) => {
  const app = await open(t, { context: { viewport, locale: "de-DE" } });
  const { page } = app;
  assert.equal(await language(page), "de", "navigator.language de-DE → German");
  assert.ok(!(await page.evaluate(() => window.attentionLab.link())).includes("lang="), "an unchosen language stays out of the link");
  await clickWidget(page, "view/menu");
  await clickWidget(page, "view/lang/es");
  await waitForState(page, (s) => s.ui.language === "es", "View → Español");
  await page.waitForFunction(() => location.hash.includes("lang=es"), null, { timeout: 5000 });
  await page.keyboard.press("Escape");
  await page.evaluate(() => {
    location.hash = "#demo=causal-5&lang=fr";
  });
  await page.waitForFunction(() => (window.attentionLab.lastError() || "").includes("lang="), null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => window.attentionLab.lastError()), "link: unknown language 'fr' in lang= (languages: en, es, de)");
  assert.equal(await language(page), "es", "a refused link changes nothing");
});
