import { launchBrowser, openApp } from "../e2e/lib/harness.mjs";
import { startServer } from "../../scripts/static-server.mjs";
const site = process.argv[2]; process.env.AL_SITE_DIR = site;
const browser = await launchBrowser();
const marks = () => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const r = (s) => performance.getEntriesByType("resource").find((e) => e.name.endsWith(s));
  const w = r("attention-lab.wasm"), b = r("boot.js"), j = r("attention-lab.js");
  return { dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, boot: b.responseEnd, wreq: w.requestStart, wend: w.responseEnd, jsend: j && j.responseEnd, comp: mark("attention-lab:compiled"), first: mark("attention-lab:first-frame"), ready: window.__ready, sa: mark("s:attention-lab-api"), ss: mark("s:share"), sy: mark("s:a11y"), sb: mark("s:boot"), ffd: mark("api:ffd"), mic: mark("api:micro"), tmo: mark("api:timeout"), hs: mark("h:start"), hi: mark("h:index"), hl: mark("h:lang"), hf: mark("h:frames"), fs: JSON.stringify(window.__fs) };
};
for (let i = 0; i < Number(process.argv[3] ?? 4); ++i) {
  for (const routed of [true, false]) {
    let page, close;
    if (routed) {
      const app = await openApp(browser, { initScript: () => { const p = () => window.attentionLab?.ready ? window.attentionLab.ready.then(() => (window.__ready = performance.now())) : setTimeout(p, 0); p(); window.__log = []; const f = () => { try { const s = window.attentionLab.frameStats(); const l = window.__log; if (!l.length || l[l.length-1][1] !== s.frames) l.push([Math.round(performance.now()), s.frames, +s.lastFrameMs.toFixed(1)]); } catch (e) {} if (!window.__ready || performance.now() < window.__ready + 300) requestAnimationFrame(f); }; requestAnimationFrame(f); } });
      page = app.page; close = () => app.close();
    } else {
      const server = await startServer({ root: site, port: 0, base: "/", headers: {} });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
      await context.addInitScript(() => { const p = () => window.attentionLab?.ready ? window.attentionLab.ready.then(() => (window.__ready = performance.now())) : setTimeout(p, 0); p(); window.__log = []; const f = () => { try { const s = window.attentionLab.frameStats(); const l = window.__log; if (!l.length || l[l.length-1][1] !== s.frames) l.push([Math.round(performance.now()), s.frames, +s.lastFrameMs.toFixed(1)]); } catch (e) {} if (!window.__ready || performance.now() < window.__ready + 300) requestAnimationFrame(f); }; requestAnimationFrame(f); });
      page = await context.newPage();
      await page.goto(server.url, { waitUntil: "load" });
      await page.waitForFunction(() => window.__ready, null, { timeout: 60000 });
      close = async () => { await context.close(); await server.close(); };
    }
    const m = await page.evaluate(marks);
    const fs = m.fs; delete m.fs; console.log(routed ? "routed  " : "direct  ", Object.entries(m).map(([k, v]) => `${k} ${v == null ? "-" : Math.round(v)}`).join("  ")); const lg = await page.evaluate(() => window.__log); console.log("   frames", JSON.stringify(lg.slice(1).map(([t,f,ms]) => [t - Math.round(m.first ?? 0), f, ms])));
    await close();
  }
}
await browser.close();
