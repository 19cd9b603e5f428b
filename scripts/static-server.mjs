#!/usr/bin/env node
// static-server.mjs — a dependency-free static file server (Node 20 built-ins only) for the
// Attention Lab site: `scripts/serve` runs it for people, the browser tests import it.
//
// What it does, and why:
//   - serves one folder on 127.0.0.1 (never 0.0.0.0: this is a local development server);
//   - correct MIME types (browsers refuse to stream-compile wasm unless it is application/wasm);
//   - an optional sub-path mount (`base: "/user/repo/"`) so the tests can prove the site works
//     from a static host's sub-path (GitHub Pages serves /user/repo/);
//   - optional extra response headers (e.g. a strict Content-Security-Policy);
//   - every request is recorded ({method, path, status, bytes}) in `server.requests` and, when
//     `logFile` is given, appended to that file as one JSON line each, so tests can assert which
//     files the page fetched and that nothing failed;
//   - `Cache-Control: no-store`, so a rebuilt wasm is never masked by a cached one.
//
// Module use:
//   import { startServer } from "./static-server.mjs";
//   const server = await startServer({ root: "build/wasm/web", port: 0, base: "/", headers: {} });
//   server.url        // "http://127.0.0.1:41234/" (base included)
//   server.origin     // "http://127.0.0.1:41234"
//   server.requests   // [{ method, path, status, bytes, time }]
//   await server.close();
//
// Command line:
//   node scripts/static-server.mjs ROOT [--port 8000] [--host 127.0.0.1] [--base /user/repo/]
//        [--header "Content-Security-Policy: default-src 'self'"]... [--log requests.jsonl] [--quiet]
import { createServer } from "node:http";
import { createReadStream, appendFileSync } from "node:fs";
import { stat, realpath } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// File extension → Content-Type. Text types carry a charset so UTF-8 labels (√, Σ, ᵀ) survive.
export const MIME_TYPES = Object.freeze({
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".data": "application/octet-stream",
  ".webmanifest": "application/manifest+json",
});

export function mimeType(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? "application/octet-stream";
}

// "/user/repo" | "user/repo/" | "" → "/user/repo/" | "/" (always leading and trailing slash).
function normalizeBase(base) {
  const trimmed = String(base ?? "/").replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "/" : `/${trimmed}/`;
}

/**
 * Start serving `root`. Resolves once listening.
 * @param {object} options
 * @param {string} options.root                folder to serve (must exist)
 * @param {number} [options.port=0]            0 = an ephemeral port chosen by the OS
 * @param {string} [options.host="127.0.0.1"]
 * @param {string} [options.base="/"]          sub-path the folder is mounted at
 * @param {Object<string,string>} [options.headers]  extra headers on every response
 * @param {string} [options.logFile]           append one JSON line per request
 * @param {boolean} [options.quiet=true]       false: also print each request to stdout
 */
export async function startServer(options) {
  const host = options.host ?? "127.0.0.1";
  const base = normalizeBase(options.base);
  const extraHeaders = { ...(options.headers ?? {}) };
  const quiet = options.quiet ?? true;
  const rootStat = await stat(options.root).catch(() => null);
  if (!rootStat || !rootStat.isDirectory()) {
    throw new Error(`static-server: root is not a folder: ${options.root}`);
  }
  const root = await realpath(options.root);
  const requests = [];

  function record(req, status, bytes) {
    const entry = { method: req.method, path: req.url, status, bytes, time: Date.now() };
    requests.push(entry);
    if (options.logFile) appendFileSync(options.logFile, JSON.stringify(entry) + "\n");
    if (!quiet) console.log(`${status} ${req.method} ${req.url}`);
  }

  function sendText(req, res, status, text, headers = {}) {
    const body = Buffer.from(text + "\n", "utf8");
    res.writeHead(status, {
      ...extraHeaders,
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": body.length,
      "Cache-Control": "no-store",
      ...headers,
    });
    res.end(req.method === "HEAD" ? undefined : body);
    record(req, status, body.length);
  }

  // URL path → absolute file path inside root, or null when it is outside the mount or root.
  function resolveFile(urlPath) {
    if (!urlPath.startsWith(base)) return null;
    let relative;
    try {
      relative = decodeURIComponent(urlPath.slice(base.length));
    } catch {
      return null;  // malformed %-escape
    }
    if (relative.includes("\0")) return null;
    const file = path.resolve(root, "." + path.posix.sep + relative);
    // path.resolve collapses "..": anything that escapes root is refused.
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    return file;
  }

  async function handle(req, res) {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return sendText(req, res, 405, "method not allowed", { Allow: "GET, HEAD" });
    }
    const urlPath = new URL(req.url, "http://localhost").pathname;
    // "/user/repo" without its slash: redirect so the page's relative URLs resolve under the mount.
    if (base !== "/" && urlPath === base.slice(0, -1)) {
      return sendText(req, res, 301, "moved", { Location: base });
    }
    let file = resolveFile(urlPath);
    if (file === null) return sendText(req, res, 404, "not found");
    let info = await stat(file).catch(() => null);
    if (info && info.isDirectory()) {
      if (!urlPath.endsWith("/")) return sendText(req, res, 301, "moved", { Location: urlPath + "/" });
      file = path.join(file, "index.html");
      info = await stat(file).catch(() => null);
    }
    if (!info || !info.isFile()) return sendText(req, res, 404, "not found");
    // Symlinks inside the site may not point outside it either.
    const real = await realpath(file);
    if (real !== root && !real.startsWith(root + path.sep)) return sendText(req, res, 404, "not found");

    res.writeHead(200, {
      ...extraHeaders,
      "Content-Type": mimeType(file),
      "Content-Length": info.size,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
    // Recorded as soon as the headers go out: a client may close the socket before the file
    // stream reports its end (curl does), and the log is about what was asked for and answered.
    record(req, 200, req.method === "HEAD" ? 0 : info.size);
    if (req.method === "HEAD") return res.end();
    const stream = createReadStream(file);
    stream.on("error", () => res.destroy());
    stream.pipe(res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) sendText(req, res, 500, `internal error: ${err.message}`);
      else res.destroy();
    });
  });
  // Keep-alive sockets would hold close() open after a test; track them to end them on close.
  const sockets = new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address();
  const origin = `http://${host}:${port}`;
  return {
    port,
    origin,
    base,
    root,
    url: origin + base,
    requests,
    close() {
      return new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
    },
  };
}

// ----- command line ---------------------------------------------------------------------------
function usage(message) {
  if (message) console.error(`static-server: ${message}`);
  console.error(
    "usage: static-server.mjs ROOT [--port N] [--host H] [--base /sub/path/] " +
      '[--header "Name: value"]... [--log FILE] [--quiet]',
  );
  process.exit(2);
}

async function main(argv) {
  const options = { root: null, port: 8000, base: "/", headers: {}, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} needs a value`));
    if (arg === "--port") options.port = Number(value());
    else if (arg === "--host") options.host = value();
    else if (arg === "--base") options.base = value();
    else if (arg === "--log") options.logFile = value();
    else if (arg === "--quiet") options.quiet = true;
    else if (arg === "--header") {
      const header = value();
      const colon = header.indexOf(":");
      if (colon <= 0) usage(`--header must be "Name: value", got ${JSON.stringify(header)}`);
      options.headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (arg === "-h" || arg === "--help") usage();
    else if (arg.startsWith("-")) usage(`unknown option ${arg}`);
    else if (options.root === null) options.root = arg;
    else usage(`unexpected argument ${arg}`);
  }
  if (options.root === null) usage("ROOT is required");
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    usage("--port must be an integer in 0..65535");
  }
  let server;
  try {
    server = await startServer(options);
  } catch (err) {
    console.error(err.code === "EADDRINUSE" ? `static-server: port ${options.port} is in use` : err.message);
    process.exit(1);
  }
  console.log(`Serving ${server.root} at ${server.url}  (Ctrl+C to stop)`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
