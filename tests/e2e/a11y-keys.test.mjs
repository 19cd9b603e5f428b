// a11y-keys.test.mjs — "Keyboard and screen readers" (README): Tab and the arrow keys alone change a
// slider and a mask cell (getState), the aria-live region announces the focused item and its value,
// the off-screen tables hold the weights and output (Chromium's accessibility tree).
import { test } from "node:test";
import { appTest } from "./lib/app_test.mjs";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, animationFrames, parkMouse, screenshot, appOpener, key, tabTo, liveText, openDemo, DESKTOP } from "./lib/a11y.mjs";

const open = appOpener();

/** The app at 1280×720 on causal-5 (LESSONS.md §4: a direct scene, q_the = [1, 0]). */
async function openCausal(t) {
  return openDemo(open, t, "#demo=causal-5", DESKTOP, 5);
}

/** Enter opens the focused slider for typing; Backspaces empty it, `value` and Enter set it. */
async function typeWithKeys(page, value) {
  await key(page, "Enter");
  for (let i = 0; i < 8; i++) await key(page, "Backspace");
  await page.keyboard.type(value, { delay: 40 });
  await animationFrames(page, 2);
  await key(page, "Enter");
}

appTest("keyboard alone: Tab to Q/0/0, arrows step it (Shift a tenth), the live region says it", openCausal, async ({ page }) => {
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
});

test("keyboard alone: Enter types a value into the focused slider", async (t) => {
  const app = await openCausal(t);
  const { page } = app;
  await tabTo(page, "K/1/0");
  await typeWithKeys(page, "0.25");
  await waitForState(page, (s) => s.scene.K[1][0] === 0.25, "K[1][0] typed as 0.25");
});

appTest("keyboard alone: Space never clicks a slider; Enter types into one without arrow steps (temperature)", openCausal, async ({ page }) => {
  const scene = (await getState(page)).scene;
  await page.evaluate((s) => window.attentionLab.setState({ ...s, scale: 2 }), scene);
  await waitForState(page, (s) => s.scene.scale === 2, "temperature 2");
  await tabTo(page, "temperature");
  await key(page, "Space"); // a click at its centre would set T to the slider's middle
  await animationFrames(page, 3);
  assert.equal((await getState(page)).scene.scale, 2, "Space left the slider alone");
  await typeWithKeys(page, "0.5");
  await waitForState(page, (s) => s.scene.scale === 0.5, "Enter, 0.5, Enter set T = 0.5");
});

appTest("keyboard alone: the weights grid shows a cell's derivation, the mask grid toggles a cell with Space", openCausal, async ({ page }) => {
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
});

appTest("screen reader: the live region and the off-screen tables are in Chromium's accessibility tree", openCausal, async ({ page }) => {
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
  // After an edit the table follows (debounced), every cell, rewritten in place (the same elements:
  // the tokens did not change).
  await page.evaluate(() => {
    document.querySelector("#a11y-weights").dataset.before = "edit";
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
  assert.deepEqual(await weights.getByRole("cell").allTextContents(), edited.result.weights.flat().map((w) => w.toFixed(3)));
  assert.deepEqual(await output.getByRole("cell").allTextContents(), edited.result.output.flat().map((v) => v.toFixed(3)));
  assert.equal(await page.evaluate(() => document.querySelector("#a11y-weights").dataset.before), "edit");
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
});

// ---- arrows on every kind of value cell, point and grid -----------------------------------------

/** Tab to `id`, press `keys` (each held one frame), and return the state after the last one. */
async function tabAndPress(page, id, keys, back = false) {
  await tabTo(page, id, 250, back);
  for (const name of keys) await key(page, name);
  await animationFrames(page, 2);
  return getState(page);
}

test("keyboard alone: arrows step compact strip cells, learned W cells, W_o cells and key-space points", async (t) => {
  // A 16-dimensional scene at 1280×720: Q, K, V are colour strips (README "Vectors with many components").
  let app = await openDemo(open, t, "#gen=random,4,16,16,1", DESKTOP, 4);
  let s = await getState(app.page);
  assert.equal(s.ui.vectors.Q, "strip", "Q is drawn as a colour strip");
  let before = s.scene.Q[0][3];
  s = await tabAndPress(app.page, "Q/0/3", ["ArrowRight"]);
  // One step of a ±1 range is 0.1, landing on the finest step's grid (0.01): 0.134 → 0.23.
  assert.ok(Math.abs(s.scene.Q[0][3] - Math.round((before + 0.1) * 100) / 100) < 1e-9, `→ on the strip cell Q/0/3: ${before} → ${s.scene.Q[0][3]}`);
  assert.match(await liveText(app.page), /^query 0 component 3: /);
  assertClean(app);

  // A learned scene (LESSONS.md §3, learned-5x8): the cells of W_q.
  app = await openDemo(open, t, "#demo=learned-5x8", DESKTOP, 5);
  before = (await getState(app.page)).scene.Wq[0][0];
  s = await tabAndPress(app.page, "Wq/0/0", ["ArrowUp", "ArrowUp"]);
  assert.ok(s.scene.Wq[0][0] > before, `↑↑ on Wq/0/0: ${before} → ${s.scene.Wq[0][0]}`);
  assert.match(await liveText(app.page), /^W_q row 0 column 0: /);
  assertClean(app);

  // W_o of the multi-head demo torch-mha (Heads mode): W_o[0][1] one step down.
  app = await openDemo(open, t, "#demo=torch-mha&mode=heads", DESKTOP, 5);
  before = (await getState(app.page)).scene.Wo[0][1];
  s = await tabAndPress(app.page, "Wo/0/1", ["ArrowLeft"], true);  // the 8×8 W_o cells come last
  assert.ok(s.scene.Wo[0][1] < before, `← on Wo/0/1: ${before} → ${s.scene.Wo[0][1]}`);
  assert.match(await liveText(app.page), /^W_o row 0 column 1: /);
  assertClean(app);

  // Key space (d_k = 2, the picture is the vectors' own plane): → moves key 1 along its first component.
  app = await openDemo(open, t, "#demo=causal-5&mode=keyspace", DESKTOP, 5);
  const k1 = (await getState(app.page)).scene.K[1];
  s = await tabAndPress(app.page, "keyspace/k/1", ["ArrowRight"]);
  assert.ok(s.scene.K[1][0] > k1[0] && s.scene.K[1][1] === k1[1], `→ on keyspace/k/1: ${k1} → ${s.scene.K[1]}`);
  assert.match(await liveText(app.page), /^key 1 'cat': \(/);
  await screenshot(app.page, "a11y-keys-keyspace");
  assertClean(app);
});

test("keyboard alone: each head's weights grid is a Tab stop; the arrows move over its cells with the derivation", async (t) => {
  const app = await openDemo(open, t, "#demo=three-heads&mode=heads", DESKTOP, 5);
  const s = await tabAndPress(app.page, "cell/head/1", ["ArrowRight", "ArrowDown"]);
  assert.equal(s.ui.keyboard.focus, "cell/head/1");
  assert.deepEqual(s.ui.keyboard.cell, [1, 1]);
  assert.match(await liveText(app.page), /^head 1 weight row cat, column cat: \d/);
  assert.match(s.ui.tooltip, /^head 1: a\[1\]\[1\]: /, "the cell's derivation shows as if hovered");
  await screenshot(app.page, "a11y-keys-heads");
  assertClean(app);
});
