// model_typing.mjs — typing in the Model mode at about 128 tokens, every frame counted (a benchmark,
// not a test): the page opens with a text of about 116 tokens (an lm= link), the text field gets the
// focus, and 20 characters are typed at its end (each key re-runs the model: the rows before the first
// changed token are reused, the rest recomputed). Prints one JSON line:
//   {"tokens_before", "tokens_after", "frames", "p50_ms", "p95_ms", "max_ms", "load_average"}
// from attentionLab.frameStats().recentFrameMs (the CPU time of each frame drawn while typing: the
// model, the UI and the GL calls).
//
//   node tests/bench/model_typing.mjs SITE_DIR
import { launchBrowser, openApp, clickWidget, animationFrames } from "../e2e/lib/harness.mjs";

const site = process.argv[2];
if (site) process.env.AL_SITE_DIR = site;

const getModel = (page) => page.evaluate(() => window.attentionLab.getModel(false));
async function waitFor(page, probe, what, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const m = await getModel(page);
    if (m && probe(m)) return m;
    if (Date.now() > deadline) throw new Error(`model_typing: ${what}`);
    await animationFrames(page, 1);
  }
}

// English prose of about 116 tokens of the shipped model (1.8 bytes a token on its held-out text).
const base =
  "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in " +
  "want of a wife. However little known the feelings or views of such a man may be on his first entering " +
  "a neighbourhood, this truth is so well fixed in the minds";
const typed = " of the surrounding families";
const link = Buffer.from(JSON.stringify({ text: base })).toString("base64url");

const browser = await launchBrowser();
try {
  const app = await openApp(browser, { suffix: `#lm=${link}` });
  const { page } = app;
  const before = await waitFor(page, (m) => m.loaded && m.text === base, "the model or the text did not load");
  await clickWidget(page, "model/text");
  await page.keyboard.press("End");
  await animationFrames(page, 10);
  const start = (await page.evaluate(() => window.attentionLab.frameStats())).frames;
  await page.keyboard.type(typed.slice(0, 20), { delay: 40 });
  const after = await waitFor(page, (m) => m.text === base + typed.slice(0, 20), "the typed text did not arrive");
  const stats = await page.evaluate(() => window.attentionLab.frameStats());
  const count = Math.min(stats.frames - start, stats.recentFrameMs.length);
  const frames = stats.recentFrameMs.slice(-count);
  const at = (v, q) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(q * v.length))];
  console.log(
    JSON.stringify({
      tokens_before: before.tokens.length,
      tokens_after: after.tokens.length,
      frames: count,
      p50_ms: +at(frames, 0.5).toFixed(2),
      p95_ms: +at(frames, 0.95).toFixed(2),
      max_ms: +Math.max(...frames).toFixed(2),
      load_average: Number((await import("node:fs")).readFileSync("/proc/loadavg", "utf8").split(" ")[0]),
    }),
  );
  await app.close();
} finally {
  await browser.close();
}
