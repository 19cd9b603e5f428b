// a11y.mjs — what the a11y-*.test.mjs files share: the harness calls they use, the keyboard (a key
// held for one frame, Tab until a widget has the focus), the live region's text, the language shown,
// and the app opened on a demo at a viewport once the demo is on screen.
import assert from "node:assert/strict";
import { animationFrames, getState, parkMouse, waitForState } from "./harness.mjs";

export {
  assertClean,
  getState,
  waitForState,
  widgetRect,
  requireWidget,
  clickWidget,
  animationFrames,
  parkMouse,
  screenshot,
  appOpener,
} from "./harness.mjs";

export const DESKTOP = { width: 1280, height: 720 };
export const PHONE = { width: 390, height: 844 };

/**
 * A key held for one frame: a press and release inside one frame would be missed by ImGui 1.86, and
 * one held much longer auto-repeats (arrows repeat after 0.275 s, which a loaded machine reaches).
 */
export async function key(page, name) {
  await page.keyboard.down(name);
  await animationFrames(page, 1);
  await page.keyboard.up(name);
  await animationFrames(page, 2);
}

/**
 * Tab (or Shift+Tab with `back`, from the last item backwards) until `id` has the keyboard focus
 * (getState().ui.keyboard.focus); returns the presses.
 *
 * The page lists its Tab order (ui.keyboard.order), so the presses are counted first and sent at
 * once, each as an instant press that the app's key queue delivers in order (instant-keys.test.mjs
 * proves no press is lost); then the focus must be on `id`. Where `id` is not in the order yet (a
 * stop that appears only on the way), the presses go one at a time, each held for a frame.
 */
export async function tabTo(page, id, most = 120, back = false) {
  const { focus, order } = (await getState(page)).ui.keyboard;
  const target = order.indexOf(id);
  if (target >= 0) {
    // With nothing focused the first Tab goes to order[0], the first Shift+Tab to the last stop.
    const at = order.indexOf(focus);
    const from = at >= 0 ? at : back ? order.length : -1;
    const n = order.length;
    const presses = ((((back ? from - target : target - from) % n) + n) % n) || n;
    if (presses <= most) {
      if (back) await page.keyboard.down("Shift");
      for (let i = 0; i < presses; i++) await page.keyboard.press("Tab");
      if (back) await page.keyboard.up("Shift");
      await waitForState(page, (s) => s.ui.keyboard.focus === id, `${presses} ${back ? "Shift+" : ""}Tab presses reach ${id}`);
      return presses;
    }
  }
  for (let presses = 1; presses <= most; presses++) {
    if (back) await page.keyboard.down("Shift");
    await key(page, "Tab");
    if (back) await page.keyboard.up("Shift");
    const now = (await getState(page)).ui.keyboard.focus;
    if (now === id) return presses;
  }
  assert.fail(`${back ? "Shift+Tab" : "Tab"} never reached ${id} in ${most} presses`);
}

/** What the aria-live region says now. */
export const liveText = (page) => page.locator("#a11y-live").textContent();

/** The language on screen (attentionLab.getLanguage()). */
export const language = (page) => page.evaluate(() => window.attentionLab.getLanguage());

/**
 * `open(t, …)` of appOpener() at `fragment` (e.g. "#demo=causal-5&lang=es") in a `viewport`-sized
 * page, once the demo's `tokens` tokens are on screen (and the language, when the fragment names
 * one), with the mouse parked off the panels.
 */
export async function openDemo(open, t, fragment, viewport, tokens) {
  const app = await open(t, { suffix: fragment, context: { viewport } });
  const lang = /lang=(\w+)/.exec(fragment)?.[1];
  await waitForState(
    app.page,
    (s) => s.scene.tokens.length === tokens && (!lang || s.ui.language === lang),
    `${fragment} loaded`,
  );
  await parkMouse(app.page);
  return app;
}
