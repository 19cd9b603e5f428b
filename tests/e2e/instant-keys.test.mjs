// instant-keys.test.mjs — no key press is lost : every key here is sent the way on-screen
// keyboards, switch access, remote desktops and test drivers send it, its down and up together
// (`keyboard.press` with no delay, `keyboard.type` with no delay), never held for a frame.
// ImGui 1.86 alone reads keys as a state once per frame and misses such a press; the app's key
// queue (src/app/key_queue.cpp) hands each transition to ImGui in order, one per key per frame.
// The other keyboard tests hold every key for a frame (lib/a11y.mjs key()); this one never does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, openDemo, liveText, appOpener, animationFrames, DESKTOP } from "./lib/a11y.mjs";

const open = appOpener();
const getStep = (page) => page.evaluate(() => window.attentionLab.getStep());

/** Wait (a frame at a time, 5 s at most) for the walk to show step `index`; it must not pass it. */
async function waitStep(page, index, message) {
  const deadline = Date.now() + 5000;
  let step;
  while ((step = await getStep(page)).index < index && Date.now() < deadline) await animationFrames(page, 1);
  await animationFrames(page, 3); // a lost or a doubled press would show by now
  step = await getStep(page);
  assert.equal(step.index, index, `${message}: getStep().index`);
}

/** Instant Tab presses until `id` has the focus; every press must move it by one stop. */
async function instantTabTo(page, id, most = 120) {
  let focus = (await getState(page)).ui.keyboard.focus;
  for (let presses = 1; presses <= most; presses++) {
    const before = focus;
    await page.keyboard.press("Tab");
    focus = (await waitForState(page, (s) => s.ui.keyboard.focus !== before, `instant Tab #${presses} moved the focus`)).ui
      .keyboard.focus;
    if (focus === id) return presses;
  }
  assert.fail(`instant Tab never reached ${id} in ${most} presses`);
}

test("instant keys: → and ← step the walk, Esc leaves it", async (t) => {
  const app = await open(t, { suffix: "#demo=causal-5&mode=walk&step=1", context: { viewport: DESKTOP } });
  const { page } = app;
  await waitForState(page, (s) => s.ui.mode === "walk" && s.scene.tokens.length === 5, "causal-5 in the walk");
  const first = (await getStep(page)).index;
  await page.keyboard.press("ArrowRight");
  await waitStep(page, first + 1, "one instant → is one step");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await waitStep(page, first + 3, "two instant → in a row are two steps (none merged, none lost)");
  await page.keyboard.press("ArrowLeft");
  await waitStep(page, first + 2, "one instant ← is one step back");
  await page.keyboard.press("Escape");
  await waitForState(page, (s) => s.ui.mode === "explore", "an instant Esc left the walk");
  assertClean(app);
});

test("instant keys: Tab, arrows, Enter + a typed number, Space on a mask cell", async (t) => {
  const app = await openDemo(open, t, "#demo=causal-5", DESKTOP, 5);
  const { page } = app;
  // Tab: each instant press moves the focus one stop, to the first query value.
  const presses = await instantTabTo(page, "Q/0/0");
  assert.ok(presses > 3, `Q/0/0 comes after the top bar and the controls (${presses} presses)`);
  assert.equal(await liveText(page), "query 0 component 0: 1.00");
  // Arrows: one instant → is one step of 0.1 (LESSONS.md §4: q_the = [1, 0]).
  await page.keyboard.press("ArrowRight");
  let s = await waitForState(page, (st) => st.scene.Q[0][0] !== 1, "an instant → changed Q[0][0]");
  assert.ok(Math.abs(s.scene.Q[0][0] - 1.1) < 1e-12, `one step of 0.1, got ${s.scene.Q[0][0]}`);
  // Enter opens the focused slider for typing; Backspace, digits and Enter all instant.
  await instantTabTo(page, "K/1/0");
  await page.keyboard.press("Enter");
  for (let i = 0; i < 8; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("0.25");
  await page.keyboard.press("Enter");
  s = await waitForState(page, (st) => st.scene.K[1][0] === 0.25, "K[1][0] typed as 0.25 with instant keys");
  // Space toggles the focused mask cell: row 'cat' may no longer see 'the'.
  await instantTabTo(page, "cell/mask");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.querySelector("#a11y-live").textContent === "mask row cat, column the: may attend", null, {
    timeout: 5000,
  });
  await page.keyboard.press("Space");
  s = await waitForState(page, (st) => Array.isArray(st.scene.mask) && st.scene.mask[1][0] === 0, "an instant Space hid cell (1, 0)");
  assert.deepEqual(s.result.weights[1], [0, 1, 0, 0, 0], "row 'cat' now attends to itself alone");
  assertClean(app);
});
