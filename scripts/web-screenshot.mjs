#!/usr/bin/env node
// web-screenshot.mjs SITE_DIR OUT.png [FRAGMENT] [WxH] — a PNG of the web app as a student sees it.
//
// Serves SITE_DIR on an ephemeral 127.0.0.1 port, opens it in Debian's headless Chromium
// (playwright-core from tests/e2e; never a downloaded browser), waits for attentionLab.ready,
// moves the mouse off the canvas and writes the screenshot. FRAGMENT e.g. "demo=causal-5".
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./static-server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../tests/e2e/package.json"));
const { chromium } = require("playwright-core");

const [site, out, fragment = "", size = "1280x800"] = process.argv.slice(2);
if (!site || !out || !/^\d+x\d+$/.test(size)) {
  console.error("usage: web-screenshot.mjs SITE_DIR OUT.png [FRAGMENT] [WxH]");
  process.exit(2);
}
const [width, height] = size.split("x").map(Number);
const server = await startServer({ root: site });
const browser = await chromium.launch({
  executablePath: process.env.AL_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  // Dark unless the fragment picks a theme (theme=light): the page follows prefers-color-scheme,
  // which headless Chromium reports as light.
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: "dark" });
  await page.goto(server.url + (fragment ? "#" + fragment : ""));
  await page.waitForFunction(() => window.attentionLab && window.attentionLab.ready, null, { timeout: 60_000 });
  await page.evaluate(() => window.attentionLab.ready);
  await page.mouse.move(width - 1, height - 1);
  await page.waitForTimeout(300);
  await page.screenshot({ path: out });
  console.log(`web-screenshot: ${out}`);
} finally {
  await browser.close();
  await server.close();
}
