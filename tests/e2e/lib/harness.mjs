// harness.mjs — shared machinery of the browser tests: serve the built site, drive Debian's
// Chromium through playwright-core, and talk to the page's `window.attentionLab` API.
//
// One browser per test file (`launchBrowser` in before(), close in after()); one fresh context and
// page per test (`openApp`), so device settings (touch, HiDPI, viewport) never leak between tests.
// Each `openApp` starts its own server on an ephemeral port, so the sharing tests can mount
// the site at a sub-path or add a CSP header without affecting others.
//
// Environment:
//   AL_SITE_DIR   folder holding index.html + attention-lab.js/.wasm (required; run.sh sets it)
//   AL_E2E_OUT    where screenshots go (default: <repo>/build/e2e)
//   AL_CHROMIUM   browser executable (default: /usr/bin/chromium; never downloaded)
//   AL_E2E_HEADED=1  show the browser window (needs a display)
import assert from "node:assert/strict";
import { before, after } from "node:test";
import { mkdirSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../../scripts/static-server.mjs";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

// Flags from docs/TOOLCHAIN.md: software WebGL2 (SwiftShader) in a sandbox-less container, and no
// background traffic of the browser's own (so "no request leaves the origin" means the page's).
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// SwiftShader compiles shaders on the CPU and the machine is shared: generous but finite.
export const READY_TIMEOUT_MS = Number(process.env.AL_READY_TIMEOUT_MS ?? 60_000);
export const STEP_TIMEOUT_MS = 10_000;
/** A phone in portrait (390×844 CSS px, 2× pixels, touch): the context of the phone-size tests. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

export function siteDir() {
  const dir = process.env.AL_SITE_DIR;
  assert.ok(dir, "AL_SITE_DIR is not set: run tests/e2e/run.sh SITE_DIR");
  assert.ok(existsSync(path.join(dir, "index.html")), `no index.html in AL_SITE_DIR=${dir}`);
  return dir;
}

export function outDir() {
  const dir = process.env.AL_E2E_OUT ?? path.join(REPO_ROOT, "build", "e2e");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Launch headless Chromium. playwright gives every launch a fresh temporary user-data-dir. */
export async function launchBrowser() {
  const executablePath = process.env.AL_CHROMIUM ?? "/usr/bin/chromium";
  assert.ok(existsSync(executablePath), `no browser at ${executablePath} (scripts/setup installs chromium)`);
  return chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
    headless: process.env.AL_E2E_HEADED !== "1",
  });
}

/**
 * Serve the site, open it in a fresh context and wait for `attentionLab.ready`.
 * @param {import("playwright-core").Browser} browser
 * @param {object} [options]
 * @param {string} [options.site]        folder to serve (default AL_SITE_DIR)
 * @param {string} [options.url]         open this URL instead of serving a folder (file://…)
 * @param {string} [options.base="/"]    sub-path mount, e.g. "/user/repo/"
 * @param {Object<string,string>} [options.headers]  extra response headers (e.g. a CSP)
 * @param {string} [options.suffix=""]   appended to the page URL ("#s=…", "?hide=controls")
 * @param {object} [options.context]     playwright context options (viewport, deviceScaleFactor, hasTouch, isMobile)
 * @param {Function} [options.initScript]  runs before the page's scripts in every page
 * @param {boolean} [options.waitReady=true]
 * @returns {Promise<App>}
 *
 * App: { page, context, server, url, consoleErrors, pageErrors, externalRequests, failedRequests,
 *        close() }. consoleErrors/pageErrors/externalRequests are live arrays.
 */
export async function openApp(browser, options = {}) {
  // options.url: open that URL instead of serving a folder (e.g. the single-file build via
  // file://); then only requests to that URL's own origin are allowed.
  const server = options.url
    ? { origin: new URL(options.url).origin, url: options.url, requests: [], close: async () => {} }
    : await startServer({
        root: options.site ?? siteDir(),
        port: 0,
        base: options.base ?? "/",
        headers: options.headers ?? {},
      });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    // The page follows prefers-color-scheme and headless Chromium prefers light: the tests' screens
    // (and their colour checks) are the dark theme unless a test asks otherwise (a11y.test.mjs).
    colorScheme: "dark",
    ...(options.context ?? {}),
  });
  const consoleErrors = [];
  const pageErrors = [];
  const externalRequests = [];
  const failedRequests = [];

  // Every request of every page in this context goes through here: anything whose origin is not
  // our server's is recorded and aborted (data:/blob: URLs are not network requests and are
  // never routed).
  await context.route("**/*", (route) => {
    const url = route.request().url();
    let origin;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = null;
    }
    // file:// pages have the opaque origin "null": only their own file may load.
    const allowed = server.origin === "null" ? url === server.url.split("#")[0] || url === server.url : origin === server.origin;
    if (!allowed) {
      externalRequests.push(url);
      return route.abort("blockedbyclient");
    }
    return route.continue();
  });

  // options.routes: [[pattern, handler]…] of the test's own (e.g. to hold or fail one file): routed
  // before the check above (Playwright runs the last-registered route first); a handler that lets
  // the request through calls route.fallback().
  for (const [pattern, handler] of options.routes ?? []) await context.route(pattern, handler);

  // Runs in every page before the page's own scripts (e.g. to simulate a browser without WebGL2).
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(`${msg.text()} @ ${msg.location()?.url ?? "?"}`);
  });
  page.on("pageerror", (err) => pageErrors.push(String(err?.stack ?? err)));
  page.on("requestfailed", (req) => failedRequests.push(`${req.url()}: ${req.failure()?.errorText}`));

  const url = server.url + (options.suffix ?? "");
  const app = {
    page,
    context,
    server,
    url,
    consoleErrors,
    pageErrors,
    externalRequests,
    failedRequests,
    async close() {
      await context.close().catch(() => {});
      await server.close();
    },
  };
  try {
    await page.goto(url, { waitUntil: "load" });
    if (options.waitReady ?? true) await waitReady(page);
  } catch (err) {
    const detail = describeProblems(app);
    await app.close();
    throw new Error(`${err.message}${detail ? `\n${detail}` : ""}`);
  }
  return app;
}

/** Text listing console errors, page errors and external requests (for assertion messages). */
export function describeProblems(app) {
  const parts = [];
  if (app.pageErrors.length) parts.push(`page errors:\n  ${app.pageErrors.join("\n  ")}`);
  if (app.consoleErrors.length) parts.push(`console errors:\n  ${app.consoleErrors.join("\n  ")}`);
  if (app.externalRequests.length) parts.push(`external requests:\n  ${app.externalRequests.join("\n  ")}`);
  if (app.failedRequests.length) parts.push(`failed requests:\n  ${app.failedRequests.join("\n  ")}`);
  return parts.join("\n");
}

/** Fail with a full listing when the page logged an error or tried to leave the origin. */
export function assertClean(app) {
  assert.equal(
    app.pageErrors.length + app.consoleErrors.length + app.externalRequests.length,
    0,
    describeProblems(app),
  );
}

export async function waitReady(page) {
  // A link to a scene with a variant key makes the first load reload into the build with every mode
  // (web/share.js, startFullBuildFor) at a moment of its own: when that navigation lands while we wait,
  // the page we waited in is gone, and the new one is waited for instead.
  for (let attempt = 0; ; attempt++) {
    try {
      // A boolean, not the Promise itself: waitForFunction would await it and poll on a falsy value.
      await page.waitForFunction(() => Boolean(window.attentionLab && window.attentionLab.ready), null, {
        timeout: READY_TIMEOUT_MS,
      });
      await page.evaluate(
        (ms) =>
          Promise.race([
            window.attentionLab.ready.then(() => true),
            new Promise((_, reject) => setTimeout(() => reject(new Error(`attentionLab.ready did not resolve in ${ms} ms`)), ms)),
          ]),
        READY_TIMEOUT_MS,
      );
      return;
    } catch (err) {
      // Destroyed mid-wait, or asked in the new page before its attentionLab exists.
      const navigated = /Execution context was destroyed|reading 'ready'/.test(err.message);
      if (attempt >= 3 || !navigated) throw err;
      await page.waitForLoadState("load", { timeout: READY_TIMEOUT_MS });
    }
  }
}

// ----- the page API ---------------------------------------------------------------------------
export const getState = (page) => page.evaluate(() => window.attentionLab.getState());
export const setState = (page, scene) => page.evaluate((s) => window.attentionLab.setState(s), scene);
export const frameStats = (page) => page.evaluate(() => window.attentionLab.frameStats());
export const widgetRect = (page, id) => page.evaluate((i) => window.attentionLab.widgetRect(i), id);

/** widgetRect that must exist and be on screen; returns it with its centre {cx, cy}. */
export async function requireWidget(page, id) {
  const rect = await widgetRect(page, id);
  assert.ok(rect, `widgetRect(${JSON.stringify(id)}) is null: the widget was not drawn`);
  for (const key of ["x", "y", "w", "h"]) {
    assert.ok(Number.isFinite(rect[key]), `widgetRect(${JSON.stringify(id)}).${key} = ${rect[key]}`);
  }
  assert.ok(rect.w > 0 && rect.h > 0, `widgetRect(${JSON.stringify(id)}) is empty: ${JSON.stringify(rect)}`);
  const viewport = page.viewportSize();
  const cx = rect.x + rect.w / 2;
  const cy = rect.y + rect.h / 2;
  assert.ok(
    cx >= 0 && cy >= 0 && cx < viewport.width && cy < viewport.height,
    `widget ${id} centre (${cx}, ${cy}) is outside the ${viewport.width}×${viewport.height} viewport`,
  );
  return { ...rect, cx, cy };
}

/** Resolve after `count` animation frames of the browser (lets the app's loop see input). */
export const animationFrames = (page, count = 2) =>
  page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const step = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(n);
      }),
    count,
  );

/**
 * Poll `probe(state)` on getState() until it returns true; returns that state.
 * Fails with `message` (and the last state's scene) after `timeout` ms.
 */
export async function waitForState(page, probe, message, timeout = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeout;
  let state;
  for (;;) {
    state = await getState(page);
    if (probe(state)) return state;
    if (Date.now() > deadline) {
      assert.fail(`${message} (waited ${timeout} ms; scene now ${JSON.stringify(state.scene)})`);
    }
    await animationFrames(page, 1);
  }
}

/** Mouse click at (x, y), with press and release in different frames (ImGui sees both): `frames` frames
 *  after the move and after the press, 2 after the release. */
export async function clickAt(page, x, y, frames = 2) {
  await page.mouse.move(x, y);
  await animationFrames(page, frames);
  await page.mouse.down();
  await animationFrames(page, frames);
  await page.mouse.up();
  await animationFrames(page, 2);
}

/** Mouse click at a widget's centre (clickAt). */
export async function clickWidget(page, id) {
  const { cx, cy } = await requireWidget(page, id);
  await clickAt(page, cx, cy);
}

/** Touch tap at a widget's centre (context needs hasTouch). */
/** Click the tab of a mode the first-load build lacks (Heads, Key space, FlashAttention, Decode, Train,
 *  Circuits: src/ui/modes/modes.hpp): the page reloads into the build with every mode
 *  (attention-lab-full.wasm), in that mode, with the scene. Resolves with the new page's state.
 *  (In the build with every mode the click just switches: use clickWidget.) */
export async function openModeTab(page, mode) {
  const tab = await requireWidget(page, "mode/" + mode);
  await page.mouse.move(tab.cx, tab.cy);
  await animationFrames(page, 2);
  await page.mouse.down();
  await animationFrames(page, 2);
  // No frames awaited after the release: the page is reloading.
  await Promise.all([page.waitForEvent("load", { timeout: 30_000 }), page.mouse.up()]);
  await waitReady(page); // `load` comes before the other build has compiled and started
  return waitForState(page, (s) => s.ui.mode === mode, `the ${mode} tab did not open the mode`, 60_000);
}

export async function tapWidget(page, id) {
  const { cx, cy } = await requireWidget(page, id);
  await page.touchscreen.tap(cx, cy);
  await animationFrames(page, 2);
}

/**
 * Drag a widget: press at its centre, move to (x, y) (CSS px of the page) in `steps` steps (a
 * frame between steps so ImGui sees the motion), release, then wait `settle` frames.
 */
export async function dragWidgetTo(page, id, x, y, steps = 10, settle = 2) {
  const { cx, cy } = await requireWidget(page, id);
  await page.mouse.move(cx, cy);
  await animationFrames(page, 2);
  await page.mouse.down();
  await animationFrames(page, 2);
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(cx + ((x - cx) * i) / steps, cy + ((y - cy) * i) / steps);
    await animationFrames(page, 1);
  }
  await page.mouse.up();
  await animationFrames(page, settle);
}

/** Drag a slider `dx` CSS px horizontally (see dragWidgetTo). */
export async function dragWidget(page, id, dx, steps = 10) {
  const { cx, cy } = await requireWidget(page, id);
  await dragWidgetTo(page, id, cx + dx, cy, steps);
}

/**
 * Ctrl+click a widget, each input in its own frames (ImGui reads keys and buttons once per frame):
 * a slider or a strip cell opens its text field.
 */
export async function ctrlClickWidget(page, id) {
  const { cx, cy } = await requireWidget(page, id);
  await page.mouse.move(cx, cy);
  await animationFrames(page, 2);
  await page.keyboard.down("Control");
  await animationFrames(page, 2);
  await page.mouse.down();
  await animationFrames(page, 2);
  await page.mouse.up();
  await animationFrames(page, 2);
  await page.keyboard.up("Control");
  await animationFrames(page, 2);
}

/**
 * Replace the text of the field being typed into (a slider opened by Ctrl+click) with `value` and
 * press Enter: `clear` Backspaces and Deletes empty it whatever ImGui selected, then the value key by
 * key, two frames, Enter.
 */
export async function typeIntoField(page, value, clear = 12) {
  for (let i = 0; i < clear; i++) await page.keyboard.press("Backspace");
  for (let i = 0; i < clear; i++) await page.keyboard.press("Delete");
  await page.keyboard.type(String(value), { delay: 30 });
  await animationFrames(page, 2);
  await page.keyboard.press("Enter");
}

/** Move the mouse off every widget (to the bottom-right corner) so hover effects stop. */
export async function parkMouse(page) {
  const viewport = page.viewportSize();
  await page.mouse.move(viewport.width - 2, viewport.height - 2);
}

/** Canvas geometry: backing store size vs CSS box, and devicePixelRatio. */
export const canvasGeometry = (page) =>
  page.evaluate(() => {
    const canvas = document.querySelector("canvas");
    if (!canvas) return null;
    const box = canvas.getBoundingClientRect();
    return {
      width: canvas.width,
      height: canvas.height,
      cssWidth: box.width,
      cssHeight: box.height,
      dpr: window.devicePixelRatio,
    };
  });

/**
 * An initScript (openApp's option) for a browser that refuses the clipboard, as one without the
 * permission does: navigator.clipboard.writeText rejects with a NotAllowedError.
 */
export function refuseClipboard() {
  Object.defineProperty(navigator, "clipboard", {
    value: { writeText: () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError")) },
  });
}

/** Screenshot into outDir(); returns the path. */
export async function screenshot(page, name) {
  const file = path.join(outDir(), `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

// ---- per-file set-up shared by every *.test.mjs ----------------------------------------------------

/**
 * One Chromium for the calling test file: registers before()/after() hooks and returns
 * `open(t, options)`, which opens the app in a fresh context (openApp) closed when test `t` ends;
 * `open.browser()` is the browser itself, for pages a test closes on its own.
 */
export function appOpener() {
  let browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  const open = async (t, options) => {
    const app = await openApp(browser, options);
    t.after(() => app.close());
    return app;
  };
  open.browser = () => browser;
  return open;
}

/** Deep equality of the fields both scenes have (the page may add defaults, e.g. mask: null). */
export function sameNumbers(actual, expected) {
  return Object.keys(expected).every((key) => JSON.stringify(actual[key]) === JSON.stringify(expected[key]));
}

/** setState that must succeed, then wait until getState shows exactly the scene just set. */
export async function loadScene(page, scene) {
  const reply = await setState(page, scene);
  assert.deepEqual(reply, { ok: true }, `setState(${JSON.stringify(scene).slice(0, 200)}…)`);
  await waitForState(page, (s) => sameNumbers(s.scene, scene), "getState().scene does not show the scene just set");
  // The scene is in at once; the screen's own state (the grids' view, the keyboard's stops) follows
  // when the next frames have drawn it: return the state once they have.
  await animationFrames(page, 3);
  return getState(page);
}

/**
 * RGBA pixels of a PNG — a file path or a Buffer (e.g. page.screenshot()) — decoded by the page
 * (createImageBitmap): {width, height, data: number[]} (data row-major).
 */
export async function decodePng(page, png) {
  const base64 = (Buffer.isBuffer(png) ? png : readFileSync(png)).toString("base64");
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
