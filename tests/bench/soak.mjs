// soak.mjs — the app at n = 1024 under thousands of random edits in headless Chromium (a benchmark,
// run by scripts/bench-soak; not part of scripts/test: 10,000 edits take tens of minutes here).
//
//   node tests/bench/soak.mjs SITE_DIR      prints a summary, writes one JSON object to stdout's last line
//
// The scene is the generated 1024-token local window (#gen=local,1024,64,64,1). Each edit is one of
// (random, seeded):
//   drag      press on a value cell of q_i, k_i or v_i (i < 4, any component), 2–5 moves, release
//   mask      a click on the Mask grid (toggles the custom mask cell under the pointer, or is refused
//             where the causal mask hides the cell)
//   causal    the causal checkbox
//   scale     one of Scale's choices (none, ÷ √d_k, ÷ T)
//   mode      to another mode (Walk, Heads, Key space, FlashAttention, Decode) and back (not Train:
//             it replaces the scene with its own model)
//   bad       every 7th edit: setState of a scene that must be refused (wrong sizes, a number as
//             text, a non-finite number, an unknown version, text that is not JSON, too many tokens);
//             the reply must be {ok: false, error} and Q, K, V unchanged
// The pointer is driven as the page's own touch translation drives it (web/boot.js): mouse events
// dispatched on the canvas, each followed by one animation frame, so the app sees every press, move
// and release in a frame of its own. (Playwright's mouse, DevTools input, first waits for a frame of
// the browser's own: two frames per input, each ~85 ms of software WebGL at this size here.)
// After every edit: checkResult() (the result on screen against the core's own full pass, bit for bit)
// must say same. Every frame the app draws is recorded (a recorder at every animation frame reads
// frameStats().recentFrameMs, the last 120 frames' CPU ms, so a frame drawn between two of its ticks
// is seen too; the records move to this process after each edit): after the warm-up (SOAK_WARMUP
// edits, which visit every mode once first) none may take over 100 ms. Memory is sampled after the
// warm-up and every 500 edits: malloc's bytes in use
// (frameStats().heapBytes), the wasm memory, and the JS heap after a forced GC (CDP) — each must be
// flat (the last sample at most 1 MiB above the one taken after the warm-up). No console or page error.
//
// Environment: SOAK_EDITS (default 10000), SOAK_SEED (1), SOAK_WARMUP (200), SOAK_FRAGMENT (the scene
// link, default gen=local,1024,64,64,1).
import { launchBrowser, openApp, widgetRect, animationFrames, clickWidget, waitForState, describeProblems } from "../e2e/lib/harness.mjs";

const site = process.argv[2];
if (site) process.env.AL_SITE_DIR = site;
const EDITS = Number(process.env.SOAK_EDITS ?? 10000);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 200);
const FRAGMENT = process.env.SOAK_FRAGMENT ?? "gen=local,1024,64,64,1";
const FRAME_LIMIT_MS = 100;
const FLAT_BYTES = 1 << 20;
// Train is left out: opening it shows (and edits) its own trained model instead of the scene.
const OTHER_MODES = ["walk", "heads", "keyspace", "flash", "decode"];

// Reproducible choices (LCG; the same seed gives the same edit sequence).
let seed = Number(process.env.SOAK_SEED ?? 1) >>> 0;
const random = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

// Scenes setState must refuse, each built from the current tokens' count n (kept small: the
// reply must come before anything is loaded).
function badScene(k, n) {
  const row = (d, v = 0.5) => Array.from({ length: d }, () => v);
  const rows = (count, d) => Array.from({ length: count }, () => row(d));
  switch (k % 6) {
    case 0:  // Q has one row fewer than there are tokens
      return { version: 1, tokens: ["a", "b", "c"], Q: rows(2, 4), K: rows(3, 4), V: rows(3, 4) };
    case 1:  // a number given as text
      return { version: 1, tokens: ["a", "b"], Q: [[0.1, "0.2"], [0.3, 0.4]], K: rows(2, 2), V: rows(2, 2) };
    case 2:  // not finite (JSON has no Infinity: 1e999 parses to it)
      return '{"version": 1, "tokens": ["a", "b"], "Q": [[1e999, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 0], [0, 1]]}';
    case 3:  // a version this app does not know
      return { version: 99, tokens: ["a"], Q: [[1]], K: [[1]], V: [[1]] };
    case 4:  // not JSON at all
      return '{"version": 1, "tokens": ["a", ';
    default:  // more tokens than a scene may have
      return { version: 1, tokens: Array.from({ length: n * 64 + 1 }, (_, i) => `t${i}`), Q: [], K: [], V: [] };
  }
}

const browser = await launchBrowser();
const started = Date.now();
let app;
try {
  // The soak visits every mode, so it runs in the build with every mode (the first load holds
  // Explore and Walk, and a link to another mode starts that build), back in Explore before it starts.
  app = await openApp(browser, { suffix: "#" + FRAGMENT + "&mode=heads" });
  const { page } = app;
  await clickWidget(page, "mode/explore");
  await waitForState(page, (s) => s.ui.mode === "explore", "the soak's page did not open Explore");
  const cdp = await page.context().newCDPSession(page);
  const api = (name, ...args) => page.evaluate(([n, a]) => window.attentionLab[n](...a), [name, args]);
  const n = await page.evaluate(() => window.attentionLab.getMatrix("Q").rows);
  if (n < 2) throw new Error(`the soak's scene has ${n} tokens`);

  // Every frame drawn: its CPU ms, the edit it belongs to, and where it went ([recompute, UI, render]
  // ms, from frameStats().recentFramePartsMs: three numbers a frame).
  await page.evaluate(() => {
    const lab = window.attentionLab;
    const rec = (window.__soak = { frames: [], unseen: 0, edit: -1, last: lab.frameStats().frames, on: true });
    const tick = () => {
      const s = lab.frameStats();
      if (s.frames > rec.last) {
        // Every frame drawn since the last tick (the app can draw twice between two of them):
        // frameStats' window holds the last 120 frames' times, oldest first.
        const drawn = s.frames - rec.last, times = s.recentFrameMs, parts = s.recentFramePartsMs;
        const seen = Math.min(drawn, times.length);
        for (let k = times.length - seen; k < times.length; ++k) rec.frames.push([rec.edit, times[k], parts.slice(3 * k, 3 * k + 3)]);
        rec.unseen += drawn - seen;
        rec.last = s.frames;
      }
      if (rec.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const setEdit = (k) => page.evaluate((e) => (window.__soak.edit = e), k);
  // The frames recorded so far move to this process after every edit, so the page's JS heap holds
  // only the current edit's (the memory check measures the app, not the recorder).
  const frames = [];
  const drainFrames = async () => {
    for (const f of await page.evaluate(() => window.__soak.frames.splice(0))) frames.push(f);
  };

  // One pointer event on the canvas (type mousemove, mousedown or mouseup at x, y in CSS px), then one
  // animation frame: the app's loop (requestAnimationFrame) draws the frame that sees it first.
  const pointer = (type, x, y) =>
    page.evaluate(
      ([type, x, y]) =>
        new Promise((resolve) => {
          const init = { bubbles: true, cancelable: true, view: window, clientX: x, clientY: y, screenX: x, screenY: y };
          window.Module.canvas.dispatchEvent(new MouseEvent(type, { ...init, button: 0, buttons: type === "mousedown" || window.__soak.held ? 1 : 0 }));
          if (type !== "mousemove") window.__soak.held = type === "mousedown";
          requestAnimationFrame(() => resolve());
        }),
      [type, x, y],
    );
  const clickAt = async (x, y) => {
    await pointer("mousemove", x, y);
    await pointer("mousedown", x, y);
    await pointer("mouseup", x, y);
  };

  let mode = "explore";
  // A widget scrolled out of its panel (e.g. the Controls panel grows a "Clear mask" row) has no rect:
  // that edit is skipped (counted), not a failure.
  let skipped = 0;
  const click = async (id) => {
    const rect = await widgetRect(page, id);
    if (!rect || rect.w <= 0) {
      ++skipped;
      return false;
    }
    await clickAt(rect.x + rect.w / 2, rect.y + rect.h / 2);
    return true;
  };
  const qkvSum = () =>
    page.evaluate(() => {
      let s = 0;
      for (const m of ["Q", "K", "V"]) {
        const d = window.attentionLab.getMatrix(m).data;
        for (let k = 0; k < d.length; ++k) s = (s * 31 + d[k] * 1e6) % 1e15;
      }
      return s;
    });

  const editKinds = { drag: 0, mask: 0, causal: 0, scale: 0, mode: 0, bad: 0 };
  const kindOf = [];  // edit k → its kind and what it did (e.g. "mode/flash"), for the slow-frame breakdown
  const actions = {
    async drag() {
      // The value cells of tokens 0–3 wholly on screen (at d = 64 a strip shows part of its cells;
      // tokens below the panel's fold have none), read in one call; one is picked.
      const cells = await page.evaluate(() => {
        const out = [];
        for (const m of ["Q", "K", "V"])
          for (let i = 0; i < 4; ++i)
            for (let c = 0; c < 64; ++c) {
              const r = window.attentionLab.widgetRect(`${m}/${i}/${c}`);
              if (r && r.w > 0 && r.y >= 0 && r.y + r.h <= innerHeight && r.x >= 0 && r.x + r.w <= innerWidth)
                out.push([`${m}/${i}/${c}`, r]);
            }
        return out;
      });
      if (cells.length) {
        const [id, rect] = pick(cells);
        const cx = rect.x + rect.w / 2, cy = rect.y + rect.h / 2;
        const strip = rect.text === 0;  // a colour-strip cell changes with an up/down drag
        await pointer("mousemove", cx, cy);
        await pointer("mousedown", cx, cy);
        const moves = between(2, 5);
        let x = cx, y = cy;
        for (let m = 1; m <= moves; ++m) {
          const off = (random() < 0.5 ? -1 : 1) * between(2, 12);
          [x, y] = strip ? [cx, cy + off] : [cx + off, cy];
          await pointer("mousemove", x, y);
        }
        await pointer("mouseup", x, y);
        return id;
      }
      await page.screenshot({ path: "build/bench/soak-failure.png" });
      throw new Error(`drag: no value cell of q_0…3, k_0…3, v_0…3 on screen (mode ${mode}, app mode ${(await api("getState")).ui.mode}, Q/0/0 at ${JSON.stringify(await widgetRect(page, "Q/0/0"))})`);
    },
    async mask() {
      const a = await widgetRect(page, "cell/mask/0/0");
      const b = await widgetRect(page, `cell/mask/${n - 1}/${n - 1}`);
      if (!a || !b) {
        ++skipped;
        return "mask (not on screen)";
      }
      const x = a.x + random() * (b.x + b.w - a.x), y = a.y + random() * (b.y + b.h - a.y);
      await clickAt(x, y);
      return `mask at (${x.toFixed(1)}, ${y.toFixed(1)})`;
    },
    async causal() {
      await click("causal");
      return "causal";
    },
    async scale() {
      const id = pick(["scale/none", "scale/sqrt_dk", "scale/temperature"]);
      await click(id);
      return id;
    },
    async mode(to) {
      const target = to ?? (mode === "explore" ? pick(OTHER_MODES) : "explore");
      if (await click(`mode/${target}`)) mode = target;
      return `mode/${target}`;
    },
    async bad(k) {
      const before = await qkvSum();
      const reply = await api("setState", badScene(k, n));
      if (!reply || reply.ok !== false || typeof reply.error !== "string" || !reply.error)
        throw new Error(`bad setState #${k % 6} was not refused: ${JSON.stringify(reply)}`);
      await animationFrames(page, 1);
      if ((await qkvSum()) !== before) throw new Error(`bad setState #${k % 6} changed Q, K or V (${reply.error})`);
      return `bad #${k % 6}: ${reply.error.slice(0, 60)}`;
    },
  };

  const memory = [];
  const sampleMemory = async (edit) => {
    await cdp.send("HeapProfiler.collectGarbage");
    const js = await cdp.send("Runtime.getHeapUsage");
    const m = await page.evaluate(() => ({
      heap: window.attentionLab.frameStats().heapBytes,
      wasm: window.Module.HEAP8.buffer.byteLength,
    }));
    memory.push({ edit, heapBytes: m.heap, wasmBytes: m.wasm, jsHeapBytes: js.usedSize });
  };

  const failures = [];
  const checkMs = [];
  let badCount = 0;
  // The warm-up visits every mode once, then random edits.
  const warmupModes = OTHER_MODES.flatMap((m) => [m, "explore"]);
  let done = 0;
  for (let k = 0; k < EDITS; ++k) {
    try {
    await setEdit(k);
    let kind, what;
    if (k < warmupModes.length) {
      kind = "mode";
      what = await actions.mode(warmupModes[k]);
    } else if (k % 7 === 6) {
      kind = "bad";
      what = await actions.bad(badCount++);
    } else if (mode !== "explore") {
      kind = "mode";
      what = await actions.mode();
    } else {
      const r = random();
      kind = r < 0.5 ? "drag" : r < 0.65 ? "mask" : r < 0.75 ? "causal" : r < 0.87 ? "scale" : "mode";
      what = await actions[kind]();
    }
    editKinds[kind]++;
    kindOf[k] = { kind, what };
    const t0 = Date.now();
    const check = await api("checkResult");
    checkMs.push(Date.now() - t0);
    if (!check.ok || !check.same) {
      failures.push(`edit ${k} (${what}): ${check.mismatch ?? check.error}`);
      break;
    }
    if (app.pageErrors.length || app.consoleErrors.length) {
      failures.push(`edit ${k} (${what}): ${describeProblems(app)}`);
      break;
    }
    await drainFrames();
    if (k + 1 === WARMUP || (k + 1 > WARMUP && (k + 1) % 500 === 0) || k + 1 === EDITS) await sampleMemory(k + 1);
    if ((k + 1) % 100 === 0)
      process.stderr.write(`soak: ${k + 1}/${EDITS} edits, ${((Date.now() - started) / 60000).toFixed(1)} min\n`);
    done = k + 1;
    } catch (err) {
      failures.push(`edit ${k}: ${err.message.split("\n")[0]}`);
      break;
    }
  }

  await drainFrames();
  const unseen = await page.evaluate(() => {
    window.__soak.on = false;
    return window.__soak.unseen;
  });
  const after = frames.filter(([edit]) => edit >= WARMUP);
  const slow = after.filter(([, ms]) => ms > FRAME_LIMIT_MS);
  const sorted = after.map(([, ms]) => ms).sort((a, b) => a - b);
  const q = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : null);
  if (unseen) failures.push(`${unseen} frames drawn were not seen by the recorder (over 120 between two of its ticks)`);
  if (slow.length) failures.push(`${slow.length} frames over ${FRAME_LIMIT_MS} ms after the warm-up (worst ${Math.max(...slow.map((f) => f[1]))} ms at edit ${slow.sort((a, b) => b[1] - a[1])[0][0]})`);
  // Where the time goes: every frame after the warm-up by the kind of edit it belongs to (a mode switch
  // by its target), with its p95, max and how many were over the limit.
  const byKind = {};
  for (const [edit, ms] of after) {
    const e = kindOf[edit];
    const key = !e ? "?" : e.kind === "mode" ? e.what : e.kind;
    (byKind[key] ??= []).push(ms);
  }
  const byKindParts = {};
  for (const [edit, , parts] of after) {
    const e = kindOf[edit];
    const key = !e ? "?" : e.kind === "mode" ? e.what : e.kind;
    (byKindParts[key] ??= [[], [], []]).forEach((list, p) => list.push(parts[p]));
  }
  const p95 = (list) => list[Math.min(list.length - 1, Math.ceil(0.95 * list.length) - 1)];
  const slowByKind = {};
  for (const [key, list] of Object.entries(byKind)) {
    list.sort((a, b) => a - b);
    const [recompute, ui, render] = byKindParts[key].map((l) => p95(l.sort((a, b) => a - b)));
    slowByKind[key] = {
      frames: list.length,
      p95: p95(list),
      max: list.at(-1),
      over_limit: list.filter((ms) => ms > FRAME_LIMIT_MS).length,
      parts_p95: { recompute, ui, render },  // each part's own p95 (not the parts of the p95 frame)
    };
  }
  const flat = {};
  if (memory.length >= 2) {
    for (const key of ["heapBytes", "wasmBytes", "jsHeapBytes"]) {
      const base = memory[0][key];
      const last = memory[memory.length - 1][key];
      flat[key] = { warmup: base, last, growth: last - base };
      if (last - base > FLAT_BYTES) failures.push(`${key} grew by ${last - base} bytes after the warm-up (${base} → ${last})`);
    }
  }
  checkMs.sort((a, b) => a - b);
  const summary = {
    ok: failures.length === 0,
    failures,
    edits: done,
    skipped,
    warmup: WARMUP,
    kinds: editKinds,
    minutes: (Date.now() - started) / 60000,
    frames_after_warmup: after.length,
    frames_unseen: unseen,  // drawn more than 120 to a recorder's tick: not in the figures (0 expected)
    frame_ms: { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: sorted.at(-1) ?? null, over_limit: slow.length },
    frame_ms_by_kind: slowByKind,
    // Each frame over the limit with the edit it belongs to (a drag names its cell, e.g. K/2/5) and its
    // parts: the first 50, slowest first.
    slow_frames: slow.slice(0, 50).map(([edit, ms, [recompute, ui, render]]) => ({
      edit, ms, kind: kindOf[edit]?.kind ?? "?", what: kindOf[edit]?.what ?? "?", parts: { recompute, ui, render },
    })),
    check_ms_median: checkMs[Math.floor(checkMs.length / 2)],
    memory,
    flat,
  };
  console.log(JSON.stringify(summary));
  process.exitCode = summary.ok ? 0 : 1;
} finally {
  if (app) await app.close();
  await browser.close();
}
