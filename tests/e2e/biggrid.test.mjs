// biggrid.test.mjs — big scenes read well: at 1024 tokens the Weights grid has more cells
// than pixels, so each pixel shows the largest weight of its cells (a sharp band stays visible) and
// the colour range follows the largest weight in view (auto range). Read off the screen as a student
// sees it: the generated local-window scene's band (weights near the diagonal) against the rest of
// the grid, in the canvas's own pixels; the mean aggregate and the fixed 0 … 1 range dim it. The
// labels are thinned to every 2ᵏ-th token and never overlap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appOpener, waitForState, requireWidget, clickWidget, parkMouse, animationFrames, assertClean, screenshot, decodePng } from "./lib/harness.mjs";

const open = appOpener();
const N = 1024;

/** RGBA pixels of a clip of the page. */
const pixels = async (page, clip) => decodePng(page, await page.screenshot({ clip }));

const luma = (d, k) => 0.2126 * d[k] + 0.7152 * d[k + 1] + 0.0722 * d[k + 2];

/**
 * The band's contrast in the Weights grid: the mean brightness of the pixels on the diagonal (where
 * the local window's weights are) minus the mean of those far from it (|x − y| > a quarter of the
 * grid), in 0 … 255.
 */
async function bandContrast(page, grid) {
  await parkMouse(page);
  await animationFrames(page, 3);
  const image = await pixels(page, grid);
  let band = 0, bandN = 0, far = 0, farN = 0;
  for (let y = 0; y < image.height; ++y) {
    for (let x = 0; x < image.width; ++x) {
      const k = 4 * (y * image.width + x);
      const off = Math.abs(x / image.width - y / image.height);
      if (off < 0.5 / image.width) (band += luma(image.data, k)), ++bandN;
      else if (off > 0.25) (far += luma(image.data, k)), ++farN;
    }
  }
  return band / bandN - far / farN;
}

test("1024 tokens: the local window's band is clear at first sight (largest weight per pixel, auto range); mean and 0 … 1 dim it; labels thin out", async (t) => {
  const app = await open(t, { suffix: "#gen=local,1024,64,64,1", context: { viewport: { width: 1280, height: 720 } } });
  const { page } = app;
  await waitForState(page, (s) => s.scene.tokens.length === N, "the 1024-token scene did not load");
  const first = await requireWidget(page, "cell/weights/0/0");
  const last = await requireWidget(page, `cell/weights/${N - 1}/${N - 1}`);
  // The grid, inset by a pixel so its border is left out.
  const grid = { x: first.x + 1, y: first.y + 1, width: last.x + last.w - first.x - 2, height: last.y + last.h - first.y - 2 };
  assert.ok(grid.width > 100 && grid.width < N, `a grid smaller than its cells (${grid.width} px for ${N} columns)`);
  await screenshot(page, "biggrid-1024-1280x720");
  // The Mask grid, in the short bottom row at 1280×720, shrinks to its room instead of running out
  // of its panel (it ran ~20 px below the window when its cells stopped at 0.1 px: 102 px for 1024).
  const maskLast = await requireWidget(page, `cell/mask/${N - 1}/${N - 1}`);
  const maskFirst = await requireWidget(page, "cell/mask/0/0");
  assert.ok(maskLast.y + maskLast.h <= 720 - 8, `the Mask grid ends at y = ${(maskLast.y + maskLast.h).toFixed(1)}, below its panel (window 720 px)`);
  assert.ok(maskLast.y + maskLast.h - maskFirst.y >= 20, `the Mask grid is still a picture: ${(maskLast.y + maskLast.h - maskFirst.y).toFixed(1)} px tall`);

  const shown = await bandContrast(page, grid);
  assert.ok(shown > 60, `the band stands out at first sight: contrast ${shown.toFixed(1)} of 255`);

  // pixel = mean: each pixel averages ~5×5 cells, so the one-cell-wide band fades.
  await clickWidget(page, "weights/pixel");
  const mean = await bandContrast(page, grid);
  assert.ok(mean < shown - 20, `the mean aggregate dims the band: ${mean.toFixed(1)} against ${shown.toFixed(1)}`);
  await clickWidget(page, "weights/pixel");
  assert.ok(Math.abs((await bandContrast(page, grid)) - shown) < 2, "back to the largest weight");

  // The fixed 0 … 1 range: the band's weights (about 1/64 each) are nearly black.
  await clickWidget(page, "weights-auto");
  const fixed = await bandContrast(page, grid);
  assert.ok(fixed < shown - 20, `the fixed range dims the band: ${fixed.toFixed(1)} against ${shown.toFixed(1)}`);
  await clickWidget(page, "weights-auto");
  t.diagnostic(`band contrast (0 … 255): largest + auto ${shown.toFixed(1)}, mean ${mean.toFixed(1)}, fixed 0 … 1 ${fixed.toFixed(1)}`);

  // Labels: every 2ᵏ-th token, whole, none overlapping its neighbour.
  const rows = [];
  for (let i = 0; i < N; ++i) {
    const r = await page.evaluate((id) => window.attentionLab.widgetRect(id), `label/weights/row/${i}`);
    if (r) rows.push({ i, ...r });
  }
  assert.ok(rows.length >= 4 && rows.length <= 64, `${rows.length} row labels drawn`);
  const step = rows[1].i - rows[0].i;
  assert.ok(step > 1 && (step & (step - 1)) === 0, `every ${step}-th token (a power of two)`);
  t.diagnostic(`${rows.length} row labels, every ${step}-th token`);
  for (let k = 1; k < rows.length; ++k) {
    assert.equal(rows[k].i - rows[k - 1].i, step);
    assert.ok(rows[k].y >= rows[k - 1].y + rows[k - 1].h, `labels ${rows[k - 1].i} and ${rows[k].i} overlap`);
  }
  assertClean(app);
});
