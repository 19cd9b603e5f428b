// languages.test.mjs — Spanish and German as data (src/ui/text/i18n.hpp, web/share.js):
// they are not in the wasm but in lang/es.json and lang/de.json, which the page fetches when it
// needs one — an English first load fetches neither; a link's lang= or the browser's language
// fetches its file as the page loads, and the words are on screen when attentionLab.ready
// resolves; the View menu fetches another once; a file that is missing or from another build
// leaves the words as they were and says why. The texts of the modes only the build with every
// mode has are a second file per language, lang/de-full.json: that build fetches it with the
// first, the first load never does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertClean, getState, waitForState, clickWidget, appOpener, language, DESKTOP } from "./lib/a11y.mjs";
import { siteDir } from "./lib/harness.mjs";

const open = appOpener();
const context = { viewport: DESKTOP };
// Every language file asked for (lang/de.json, and lang/de-full.json, the build with every mode's part).
const languageRequests = (app) => app.server.requests.filter((r) => /\/lang\/[\w-]+\.json$/.test(r.path)).map((r) => r.path);

test("an English first load fetches no language file; lang=de fetches lang/de.json as the page loads; the View menu fetches Spanish once", async (t) => {
  const en = await open(t, { context });
  assert.equal(await language(en.page), "en");
  assert.deepEqual(languageRequests(en), [], "English needs no language file");
  assertClean(en);

  const app = await open(t, { suffix: "#demo=causal-5&lang=de", context });
  const { page } = app;
  // No waiting: German is on screen once `ready` has resolved.
  assert.equal(await language(page), "de");
  const state = await getState(page);
  assert.equal(state.ui.language, "de");
  assert.deepEqual(state.scene.tokens.length, 5);
  assert.deepEqual(languageRequests(app), ["/lang/de.json"]);
  // Fetched as the page loads (share.js reads the link), not after the first frame asked for it:
  // the page starts it before the link's demo and before the wasm has even arrived. The order is
  // read from the page's own resource timing (when each fetch began): the server's log gives the
  // order requests arrived over parallel connections, which a busy machine can shuffle.
  const started = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType("resource").map((e) => [new URL(e.name).pathname, { start: e.startTime, end: e.responseEnd }])));
  const lang = started["/lang/de.json"], demo = started["/demos/causal-5.json"], wasm = started["/attention-lab.wasm"];
  assert.ok(lang && demo && wasm, `resource timing: ${JSON.stringify(started)}`);
  assert.ok(lang.start <= demo.start, `lang/de.json began at ${lang.start} ms, the demo at ${demo.start} ms`);
  assert.ok(lang.start < wasm.end, `lang/de.json began at ${lang.start} ms, after the wasm arrived at ${wasm.end} ms`);

  await clickWidget(page, "view/menu");
  await clickWidget(page, "view/lang/es");
  await waitForState(page, (s) => s.ui.language === "es", "View → Español");
  await clickWidget(page, "view/lang/de");
  await waitForState(page, (s) => s.ui.language === "de", "View → Deutsch");
  await clickWidget(page, "view/lang/es");
  await waitForState(page, (s) => s.ui.language === "es", "View → Español again");
  assert.deepEqual(languageRequests(app), ["/lang/de.json", "/lang/es.json"], "each file once");
  assert.equal(await page.evaluate(() => window.attentionLab.lastError()), null);
  assertClean(app);
});

test("a language file that is missing or from another build: the words stay English, the banner says why, nothing is lost", async (t) => {
  // A copy of the site whose German file is gone and whose Spanish file has three texts.
  const site = mkdtempSync(path.join(os.tmpdir(), "al-lang-"));
  t.after(() => rmSync(site, { recursive: true, force: true }));
  cpSync(siteDir(), site, { recursive: true });
  rmSync(path.join(site, "lang", "de.json"));
  writeFileSync(path.join(site, "lang", "es.json"), JSON.stringify({ language: "es", texts: ["a", "b", "c"] }));

  const missing = await open(t, { site, suffix: "#demo=causal-5&lang=de", context });
  assert.equal(await language(missing.page), "en", "the words stay English");
  assert.equal(await missing.page.evaluate(() => window.attentionLab.lastError()), "lang/de.json: HTTP 404");
  assert.ok(await missing.page.locator("#share-banner:not(.hidden)").isVisible(), "the banner says why");
  const state = await getState(missing.page);
  assert.equal(state.scene.tokens.length, 5, "the link's demo still loaded");
  assert.equal(state.ui.language, "en");
  assert.deepEqual(missing.pageErrors, []);

  const stale = await open(t, { site, suffix: "#demo=causal-5&lang=es", context });
  const error = await stale.page.evaluate(() => window.attentionLab.lastError());
  assert.match(error, /^lang\/es\.json: 3 texts, this build has \d+ \(a file from another version of the app\)$/);
  assert.equal(await language(stale.page), "en");
  assert.equal((await getState(stale.page)).scene.tokens.length, 5);
  assert.deepEqual(stale.pageErrors, []);
  assert.deepEqual(stale.consoleErrors, []);
});

// The Circuits panel's label column is as wide as its widest label in the language on screen
// (Task, Learning rate, Seed, Layers, Heads, d_model, Pace: keys of the full build's part but Heads),
// so the learning-rate slider's left edge moves with the words of lang/de-full.json.
async function circuitsSliderX(page) {
  await page.waitForFunction(() => window.attentionLab.widgetRect("circuits/lr"), null, { timeout: 20000 });
  return page.evaluate(() => window.attentionLab.widgetRect("circuits/lr").x);
}

test("the build with every mode fetches lang/de-full.json with lang/de.json and shows its words; without it the words stay English", async (t) => {
  const viewport = { width: 1280, height: 800 };
  const en = await open(t, { suffix: "#mode=circuits", context: { viewport } });
  const englishX = await circuitsSliderX(en.page);
  assert.deepEqual(languageRequests(en), [], "English needs no language file");

  const app = await open(t, { suffix: "#mode=circuits&lang=de", context: { viewport } });
  assert.equal(await language(app.page), "de");
  assert.deepEqual(languageRequests(app).sort(), ["/lang/de-full.json", "/lang/de.json"]);
  const germanX = await circuitsSliderX(app.page);
  assert.notEqual(germanX, englishX, "the Circuits panel's labels are German (lang/de-full.json installed)");
  assert.equal(await app.page.evaluate(() => window.attentionLab.lastError()), null);
  assertClean(app);

  // A copy of the site without the German second file: the build with every mode shows no half
  // German screen, it stays English and says why.
  const site = mkdtempSync(path.join(os.tmpdir(), "al-lang-full-"));
  t.after(() => rmSync(site, { recursive: true, force: true }));
  cpSync(siteDir(), site, { recursive: true });
  rmSync(path.join(site, "lang", "de-full.json"));
  const missing = await open(t, { site, suffix: "#mode=circuits&lang=de", context: { viewport } });
  assert.equal(await missing.page.evaluate(() => window.attentionLab.lastError()), "lang/de-full.json: HTTP 404");
  assert.equal(await language(missing.page), "en", "the words stay English");
  assert.equal(await circuitsSliderX(missing.page), englishX);
  assert.deepEqual(missing.pageErrors, []);
});
