// frame_rate.mjs — how many frames per second the page shows while a mode plays, against what the
// app's own work per frame would allow, and against the browser's own ceiling on this machine.
//
//   node tests/bench/frame_rate.mjs SITE_DIR [SECONDS]    prints one JSON object per line:
//     {"what": "circuits play" | "train play" | "bare webgl2 clear", "fps", "gap_p50_ms", "gap_p95_ms",
//      "app_mean_ms", "app_p95_ms", "parts_mean_ms": [recompute, UI, GL], "vertices"}
//
// fps and the gaps come from requestAnimationFrame (the frames the page presented); app_* from
// attentionLab.frameStats() (the CPU time of our frame: training, layout, ImGui's draw lists and GL
// calls). When app_p95_ms fits the frame but fps is low, the browser's drawing is the limit (headless
// Chromium draws WebGL in software with SwiftShader); the bare canvas shows what the browser manages
// when the page draws almost nothing.
import { launchBrowser, openApp, clickWidget, animationFrames } from "../e2e/lib/harness.mjs";

const site = process.argv[2];
if (site) process.env.AL_SITE_DIR = site;
const seconds = Number(process.argv[3] ?? 10);

// Record requestAnimationFrame timestamps for `ms` and summarize them.
const rafOver = (page, ms) =>
  page.evaluate(
    (span) =>
      new Promise((resolve) => {
        const times = [];
        const tick = (ts) => {
          times.push(ts);
          if (ts - times[0] < span) requestAnimationFrame(tick);
          else resolve(times);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
function summary(times) {
  const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  const at = (q) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))];
  return {
    fps: +((times.length - 1) / ((times[times.length - 1] - times[0]) / 1000)).toFixed(1),
    gap_p50_ms: +at(0.5).toFixed(1),
    gap_p95_ms: +at(0.95).toFixed(1),
  };
}

const browser = await launchBrowser();
try {
  for (const [what, suffix, play] of [
    ["circuits play", "#mode=circuits", "circuits/play"],
    ["train play", "#mode=train", "train/play"],
  ]) {
    const app = await openApp(browser, { suffix, context: { viewport: { width: 1280, height: 800 } } });
    await animationFrames(app.page, 5);
    await clickWidget(app.page, play);
    await animationFrames(app.page, 30);  // past the first frames of the run
    const before = await app.page.evaluate(() => window.attentionLab.frameStats());
    const times = await rafOver(app.page, seconds * 1000);
    const after = await app.page.evaluate(() => window.attentionLab.frameStats());
    const frames = after.frames - before.frames;
    console.log(JSON.stringify({
      what, ...summary(times),
      app_mean_ms: +(((after.avgFrameMs * after.frames) - (before.avgFrameMs * before.frames)) / frames).toFixed(1),
      app_p95_ms: after.p95FrameMs,  // over the last 120 frames
      // where the last 120 frames went: the core's recompute, the UI (the run's steps included), GL
      parts_mean_ms: [0, 1, 2].map((k) => {
        const parts = after.recentFramePartsMs.filter((_, i) => i % 3 === k);
        return +(parts.reduce((a, b) => a + b, 0) / Math.max(1, parts.length)).toFixed(1);
      }),
      vertices: after.vertices,  // the last frame's ImGui vertices, every window
    }));
    await app.close();
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.setContent('<canvas id="c" width="1280" height="800"></canvas>');
  await page.evaluate(() => {
    const gl = document.getElementById("c").getContext("webgl2");
    let i = 0;
    const draw = () => {
      gl.clearColor((i++ % 60) / 60, 0.2, 0.3, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      requestAnimationFrame(draw);
    };
    requestAnimationFrame(draw);
  });
  console.log(JSON.stringify({ what: "bare webgl2 clear", ...summary(await rafOver(page, seconds * 1000)) }));
  await context.close();
} finally {
  await browser.close();
}
