// static-server.test.mjs — the dependency-free server the browser tests and scripts/serve use:
// MIME types, sub-path mount, extra headers, request log, and refusal of paths outside the folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, mkdirSync, symlinkSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";
import { spawn } from "node:child_process";
import { startServer, mimeType } from "../../scripts/static-server.mjs";

let site;
let outside;
before(() => {
  site = mkdtempSync(path.join(tmpdir(), "al-static-"));
  outside = mkdtempSync(path.join(tmpdir(), "al-outside-"));
  writeFileSync(path.join(site, "index.html"), "<!doctype html><title>t</title>");
  writeFileSync(path.join(site, "app.js"), "console.log(1)");
  writeFileSync(path.join(site, "app.wasm"), Buffer.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  mkdirSync(path.join(site, "demos"));
  writeFileSync(path.join(site, "demos", "two keys.json"), '{"version":1}');
  writeFileSync(path.join(outside, "secret.txt"), "secret");
  symlinkSync(path.join(outside, "secret.txt"), path.join(site, "leak.txt"));
});
after(() => {
  rmSync(site, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Raw GET (no URL normalization by a client library, so "/../" reaches the server as sent). */
function get(port, rawPath, method = "GET") {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("MIME types of the site's files", () => {
  assert.equal(mimeType("a/attention-lab.wasm"), "application/wasm");
  assert.equal(mimeType("attention-lab.js"), "text/javascript; charset=utf-8");
  assert.equal(mimeType("index.html"), "text/html; charset=utf-8");
  assert.equal(mimeType("demos/x.json"), "application/json; charset=utf-8");
  assert.equal(mimeType("favicon.svg"), "image/svg+xml");
  assert.equal(mimeType("shot.PNG"), "image/png");
  assert.equal(mimeType("Inter.woff2"), "font/woff2");
  assert.equal(mimeType("unknown.xyz"), "application/octet-stream");
});

test("serves the folder at / with types, index.html and a request log", async (t) => {
  const server = await startServer({ root: site, port: 0 });
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

  const index = await get(server.port, "/");
  assert.equal(index.status, 200);
  assert.equal(index.headers["content-type"], "text/html; charset=utf-8");
  assert.equal(index.body.toString(), "<!doctype html><title>t</title>");
  const wasm = await get(server.port, "/app.wasm");
  assert.equal(wasm.headers["content-type"], "application/wasm");
  assert.deepEqual([...wasm.body], [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  assert.equal(wasm.headers["content-length"], "8");
  assert.equal(wasm.headers["cache-control"], "no-store");
  const spaced = await get(server.port, "/demos/two%20keys.json?x=1");
  assert.equal(spaced.status, 200);
  assert.equal(spaced.body.toString(), '{"version":1}');
  const head = await get(server.port, "/app.js", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal((await get(server.port, "/missing.js")).status, 404);
  assert.equal((await get(server.port, "/app.js", "POST")).status, 405);
  const dir = await get(server.port, "/demos");
  assert.equal(dir.status, 301);
  assert.equal(dir.headers.location, "/demos/");

  assert.deepEqual(
    server.requests.map((r) => `${r.method} ${r.path} ${r.status}`),
    [
      "GET / 200",
      "GET /app.wasm 200",
      "GET /demos/two%20keys.json?x=1 200",
      "HEAD /app.js 200",
      "GET /missing.js 404",
      "POST /app.js 405",
      "GET /demos 301",
    ],
  );
});

test("never serves anything outside the folder", async (t) => {
  const server = await startServer({ root: site, port: 0 });
  t.after(() => server.close());
  for (const raw of ["/../" + path.basename(outside) + "/secret.txt", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd", "/leak.txt", "/%E0%A4%A", "/app.js%00.html"]) {
    const res = await get(server.port, raw);
    assert.equal(res.status, 404, `${raw} → ${res.status}`);
    assert.ok(!res.body.toString().includes("secret"), `${raw} leaked the file`);
  }
});

test("sub-path mount and extra headers (static hosting: /user/repo/ with a CSP)", async (t) => {
  const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
  const server = await startServer({ root: site, port: 0, base: "user/repo", headers: { "Content-Security-Policy": csp } });
  t.after(() => server.close());
  assert.equal(server.base, "/user/repo/");
  assert.ok(server.url.endsWith("/user/repo/"));
  const index = await get(server.port, "/user/repo/");
  assert.equal(index.status, 200);
  assert.equal(index.headers["content-security-policy"], csp);
  assert.equal((await get(server.port, "/user/repo/app.wasm")).headers["content-type"], "application/wasm");
  const bare = await get(server.port, "/user/repo");
  assert.equal(bare.status, 301);
  assert.equal(bare.headers.location, "/user/repo/");
  const root = await get(server.port, "/index.html");
  assert.equal(root.status, 404, "nothing is served outside the mount");
  assert.equal(root.headers["content-security-policy"], csp, "the CSP is on error responses too");
});

test("command line: prints the URL, serves, writes the request log", async (t) => {
  const log = path.join(site, "..", `al-static-log-${process.pid}.jsonl`);
  t.after(() => rmSync(log, { force: true }));
  const script = new URL("../../scripts/static-server.mjs", import.meta.url).pathname;
  const child = spawn(process.execPath, [script, site, "--port", "0", "--base", "/sub/", "--header", "X-Test: yes", "--log", log, "--quiet"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  t.after(() => child.kill("SIGTERM"));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\/sub\//);
      if (m) resolve(m[0]);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const port = Number(new URL(url).port);
  const res = await get(port, "/sub/app.js");
  assert.equal(res.status, 200);
  assert.equal(res.headers["x-test"], "yes");
  const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.method, l.path, l.status]), [["GET", "/sub/app.js", 200]]);
});

test("command line: a bad option is a usage error", async () => {
  const script = new URL("../../scripts/static-server.mjs", import.meta.url).pathname;
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [script, site, "--port", "banana"], { stdio: "ignore" });
    child.on("exit", resolve);
  });
  assert.equal(code, 2);
});
