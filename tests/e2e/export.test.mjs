// export.test.mjs — the Export menu: each item gives exactly attentionLab.exportText's
// text, which is exactly `attention-lab-cli --export KIND --stage STAGE` of the same scene.
//
// Copies go to the clipboard (permissions granted) or, when the browser refuses, into the same
// fallback box as Copy link (a multi-line field, selected); the SVG item downloads a file.
import { test } from "node:test";
import { appTest } from "./lib/app_test.mjs";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { animationFrames, appOpener, assertClean, clickWidget, getState, loadScene, parkMouse, refuseClipboard, requireWidget, screenshot, siteDir, STEP_TIMEOUT_MS, waitForState, widgetRect } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();

/** The CLI's export of a scene (the scene's JSON text on stdin). */
function cliExport(scene, kind, stage = "weights") {
  return execFileSync(findCli(), ["--export", kind, "--stage", stage, "-"], {
    input: JSON.stringify(scene),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
}

// exportReady first: the first-load build loads its exporter after the first frame.
const exportText = (page, kind, stage) =>
  page.evaluate(async ([k, s]) => {
    await window.attentionLab.exportReady;
    return window.attentionLab.exportText(k, s);
  }, [kind, stage]);
/** exportText's Error message, or null when it returned (no waiting for exportReady). */
const exportError = (page, kind, stage) =>
  page.evaluate(([k, s]) => {
    try {
      window.attentionLab.exportText(k, s);
      return null;
    } catch (e) {
      return e.message;
    }
  }, [kind, stage]);

/** Open the Export… menu and click one of its items. */
async function chooseFromMenu(page, item) {
  await clickWidget(page, "export/menu");
  await requireWidget(page, item);
  await clickWidget(page, item);
}

async function clipboardAfter(page, action) {
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await action();
  await page.waitForSelector("#share-toast:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(() => navigator.clipboard.readText());
}

test("Export menu: NumPy, PyTorch and LaTeX copies equal exportText and the CLI", async (t) => {
  const app = await open(t, {
    context: { permissions: ["clipboard-read", "clipboard-write"] },
    suffix: "#demo=causal-5",
  });
  const { page } = app;
  const scene = (await getState(page)).scene;
  for (const [item, kind] of [
    ["export/numpy", "numpy"],
    ["export/pytorch", "pytorch"],
    ["export/latex", "latex"],
  ]) {
    const copied = await clipboardAfter(page, () => chooseFromMenu(page, item));
    const api = await exportText(page, kind, "weights");
    assert.equal(copied, api, `${item}: the clipboard holds exportText("${kind}", "weights")`);
    assert.equal(api, cliExport(scene, kind), `exportText("${kind}") equals attention-lab-cli --export ${kind}`);
  }
  assert.match(await page.textContent("#share-toast"), /LaTeX matrix \(weights\) copied/);
  // The menu once more, open, for the screenshot (looked at: items, stage picker, labels).
  await clickWidget(page, "export/menu");
  await requireWidget(page, "export/svg");
  await screenshot(page, "export-menu");
  assertClean(app);
});

appTest("Export menu: the stage picker chooses the LaTeX/SVG stage; SVG downloads the CLI's figure", (t) => open(t, { suffix: "#demo=learned-5x8" }), async ({ page }) => {
  const scene = (await getState(page)).scene;
  // Pick "scores" in the stage combo (its list opens below it; the second entry). Move, press and
  // release in frames of their own, as clickWidget does: a press and release in one frame, on the
  // frame the list appeared, once went unseen on a slow machine, and the list left open then took
  // the SVG item's click (it covers that item).
  await clickWidget(page, "export/menu");
  assert.equal((await getState(page)).ui.exportStage, "weights", "the stage starts at the weights");
  // On a loaded machine the list's opening frame can be missed (the press then lands on the menu):
  // the pick is tried again, up to three times, while the menu is open; the stage must be the scores.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await widgetRect(page, "export/stage"))) await clickWidget(page, "export/menu");
    const combo = await requireWidget(page, "export/stage");
    await clickWidget(page, "export/stage");
    await animationFrames(page, 2);
    await page.mouse.move(combo.cx, combo.y + combo.h * 2.5);
    await animationFrames(page, 2);
    await page.mouse.down();
    await animationFrames(page, 2);
    await page.mouse.up();
    await parkMouse(page);
    await animationFrames(page, 4);
    if ((await getState(page)).ui.exportStage === "scores") break;
  }
  await waitForState(page, (s) => s.ui.exportStage === "scores", "the stage combo's second entry chose the scores");
  await animationFrames(page, 2);
  await requireWidget(page, "export/svg");
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: STEP_TIMEOUT_MS }),
    clickWidget(page, "export/svg"),
  ]);
  assert.match(download.suggestedFilename(), /-scores\.svg$/);
  const svg = readFileSync(await download.path(), "utf8");
  assert.equal(svg, await exportText(page, "svg", "scores"), "the downloaded SVG is exportText('svg', 'scores')");
  assert.equal(svg, cliExport(scene, "svg", "scores"), "… and attention-lab-cli --export svg --stage scores");
  assert.match(svg, /<title>we → we: /, "cells carry their tokens");
  assert.equal(await widgetRect(page, "export/svg"), null, "the menu closes after a choice");
});

appTest("exportText: bad kind or stage throw an Error naming the field; the clipboard fallback box", (t) => open(t, { initScript: refuseClipboard }), async ({ page }) => {
  await page.evaluate(() => window.attentionLab.exportReady);
  const error = (kind, stage) => exportError(page, kind, stage);
  assert.match(await error("matlab", "weights"), /^export: unknown kind "matlab"/);
  assert.match(await error("latex", "softmax"), /^stage: unknown stage "softmax"/);
  await chooseFromMenu(page, "export/numpy");
  await page.waitForSelector("#share-linkbox:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  const field = await page.evaluate(() => {
    const f = document.getElementById("share-textfield");
    return { value: f.value, readOnly: f.readOnly, selected: f.selectionEnd - f.selectionStart };
  });
  assert.equal(field.value, await exportText(page, "numpy", "weights"), "the whole script, newlines kept");
  assert.ok(field.readOnly);
  assert.equal(field.selected, field.value.length, "selected for Ctrl+C");
  await animationFrames(page, 4);
  await screenshot(page, "export-copy-fallback");
});

// ---- the first load's exporter (attention-lab-export.js/.wasm, src/app/web_exporter.cpp) ----------

// The scene keys of the attention variants (src/scene/variant_keys.hpp kVariantKeyNames).
const VARIANT_KEYS = ["sources", "X_src", "sink_logit", "softcap", "qk_norm", "topk", "indexer", "topk_block", "differential", "gate", "Wg", "linear", "mla"];
const EXPORTS = [["numpy", "weights"], ["pytorch", "weights"], ["latex", "weights"], ["latex", "output"], ["svg", "weights"], ["svg", "scores"]];
const exporterServed = (app) => app.server.requests.filter((r) => /attention-lab-export\.(js|wasm)$/.test(r.path)).length;

test("the first load exports with attention-lab-export.wasm, fetched after the first frame: until it is in, exportText says so and the menu waits; then every demo's every export is the CLI's, as in the build with every mode", async (t) => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const app = await open(t, {
    context: { permissions: ["clipboard-read", "clipboard-write"] },
    suffix: "#demo=causal-5",
    routes: [["**/attention-lab-export.wasm", async (route) => {
      await held;
      await route.fallback();
    }]],
  });
  const { page } = app;
  assert.equal(await page.evaluate(() => typeof window.Module._al_export_text), "undefined",
               "the first-load build has no exporter inside");
  // Asked for after the first frame was drawn, not before.
  const timing = await page.evaluate(() => {
    const script = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/attention-lab-export.js"));
    return { script: script ? script.startTime : null, firstFrame: performance.getEntriesByName("attention-lab:first-frame")[0].startTime };
  });
  assert.ok(timing.script !== null && timing.script >= timing.firstFrame,
            `attention-lab-export.js asked for at ${timing.script} ms, the first frame drawn at ${timing.firstFrame} ms`);
  // Held back: exportText says what is missing, and the Export menu waits for it.
  assert.match(await exportError(page, "numpy", "weights"), /^exportText: the exporter \(attention-lab-export\.wasm\) is still loading/);
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await chooseFromMenu(page, "export/numpy");
  await animationFrames(page, 4);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "", "nothing copied while the exporter loads");
  release();
  await page.waitForSelector("#share-toast:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  const scene = (await getState(page)).scene;
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), cliExport(scene, "numpy"), "the menu's copy, once it came");
  // Every demo, every kind: the CLI's text, byte for byte.
  // The gallery's two lists: what the first load opens, and the scenes of the build with every mode.
  const list = (file) => JSON.parse(readFileSync(path.join(siteDir(), "demos", file), "utf8")).map((d) => d.name);
  const demos = [...list("index.json"), ...list("index-full.json")];
  assert.ok(demos.length >= 10, `demos/index.json and index-full.json list ${demos.length} demos`);
  let compared = 0;
  const variantDemos = [];  // demos with a variant key: the first load refuses them (the full build has them)
  for (const name of demos) {
    const demo = JSON.parse(readFileSync(path.join(siteDir(), "demos", name + ".json"), "utf8"));
    if (Object.keys(demo).some((key) => VARIANT_KEYS.includes(key))) {
      const reply = await page.evaluate((d) => window.attentionLab.setState(d), demo);
      assert.match(reply.error ?? "", /^(sources|X_src|sink_logit|softcap|qk_norm|topk|indexer|topk_block|differential|gate|Wg|linear|mla): unknown key/,
                   `${name}: the first load refuses its variant key by name`);
      variantDemos.push([name, demo]);
      continue;
    }
    const shown = (await loadScene(page, demo)).scene;
    for (const [kind, stage] of EXPORTS) {
      assert.equal(await exportText(page, kind, stage), cliExport(shown, kind, stage), `${name}: ${kind} ${stage}`);
      compared += 1;
    }
  }
  t.diagnostic(`${compared} exports of ${demos.length} demos equal attention-lab-cli --export`);
  assert.equal(exporterServed(app), 2, "the exporter's .js and .wasm, once each");
  assertClean(app);

  // The build with every mode exports from inside: no exporter fetched, the same text.
  const full = await open(t, { suffix: "#demo=learned-5x8&mode=heads" });
  await waitForState(full.page, (s) => s.ui.mode === "heads", "the build with every mode did not open");
  assert.equal(await full.page.evaluate(() => typeof window.Module._al_export_text), "function");
  const learned = (await getState(full.page)).scene;
  for (const [kind, stage] of EXPORTS)
    assert.equal(await exportText(full.page, kind, stage), cliExport(learned, kind, stage), `full build: ${kind} ${stage}`);
  // The variant demos, every kind, in the build that reads them.
  assert.ok(variantDemos.length >= 6, `${variantDemos.length} demos with variant keys`);
  for (const [name, demo] of variantDemos) {
    const shown = (await loadScene(full.page, demo)).scene;
    for (const [kind, stage] of EXPORTS)
      assert.equal(await exportText(full.page, kind, stage), cliExport(shown, kind, stage), `full build, ${name}: ${kind} ${stage}`);
  }
  assert.equal(exporterServed(full), 0, "the build with every mode fetched no exporter");
  assertClean(full);
});

test("an exporter that cannot be loaded: exportText and the menu say so, the app goes on", async (t) => {
  const app = await open(t, { routes: [["**/attention-lab-export.wasm", (route) => route.abort("failed")]] });
  const { page } = app;
  const rejected = await page.evaluate(() => window.attentionLab.exportReady.then(() => null, (e) => e.message));
  assert.match(rejected, /^exportText: the exporter could not be loaded/);
  assert.match(await exportError(page, "numpy", "weights"), /^exportText: the exporter could not be loaded/);
  await chooseFromMenu(page, "export/pytorch");
  await page.waitForSelector("#share-banner:not(.hidden)", { timeout: STEP_TIMEOUT_MS });
  assert.match(await page.textContent("#share-banner"), /Export pytorch: exportText: the exporter could not be loaded/);
  // Everything else works: a drag of the causal toggle recomputes, as ever.
  await clickWidget(page, "causal");
  await waitForState(page, (s) => s.scene.causal === true, "the causal toggle after the failed exporter");
  assert.deepEqual(app.pageErrors, [], "no uncaught error");
});
