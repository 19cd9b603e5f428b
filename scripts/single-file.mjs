#!/usr/bin/env node
// single-file.mjs SITE_DIR OUT.html — one self-contained page from the built site: a demo you can
// email, that works opened straight from disk (file://) with no server.
//
// From SITE_DIR/index.html:
//   <link rel="stylesheet" href="X.css">   → <style>…</style>
//   <link rel="icon" href="favicon.svg">   → a data: URL
//   <script src="X.js"></script>           → <script>…</script>
// and before the first script, window.attentionLabEmbedded (read by web/boot.js and web/share.js):
//   wasm()       the module's bytes (base64 in the page; file:// pages cannot fetch)
//   scriptUrl()  a blob: URL of its glue (boot.js loads it like the file)
// The module is the build with every mode (attention-lab-full.js/.wasm, which the served site loads on
// first use) when the site has it: one file has no second build to load.
//   demos        {index: demos/index.json + demos/index-full.json, scenes: {NAME: demos/NAME.json}}
//   languages    {STEM: lang/STEM.json}: Spanish and German, es, es-full, de, de-full (the served
//                site fetches them on demand; the -full files only with the build with every mode)
//   fullBuild    whether the module is the build with every mode (web/share.js installs the
//                languages' -full files then)
// Node built-ins only.
import { existsSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import path from "node:path";

const [siteDir, outFile] = process.argv.slice(2);
if (!siteDir || !outFile) {
  console.error("usage: single-file.mjs SITE_DIR OUT.html");
  process.exit(2);
}
const read = (name) => readFileSync(path.join(siteDir, name), "utf8");

// Text placed inside <script>…</script> or <style>…</style> must not end the element early.
function checkInline(name, text, tag) {
  if (new RegExp(`</${tag}`, "i").test(text) || (tag === "script" && /<!--/.test(text))) {
    throw new Error(`${name} contains "</${tag}" or "<!--" and cannot be inlined as is`);
  }
  return text;
}
// A value as a JavaScript literal that is also safe inside <script>: no '<' at all.
const literal = (value) => JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028|\u2029/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));

let html = read("index.html");

html = html.replace(/<link rel="stylesheet" href="([^"]+)"\s*\/?>/g, (_, href) => `<style>\n${checkInline(href, read(href), "style")}</style>`);
html = html.replace(/<link rel="icon" href="([^"]+)" type="([^"]+)"\s*\/?>/g, (_, href, type) => {
  const data = readFileSync(path.join(siteDir, href)).toString("base64");
  return `<link rel="icon" href="data:${type};base64,${data}" type="${type}" />`;
});

// The gallery's two lists (src/app/split_demo_index.py) as one: the single file carries every scene.
const index = [...JSON.parse(read("demos/index.json")), ...JSON.parse(read("demos/index-full.json"))];
const scenes = {};
for (const file of readdirSync(path.join(siteDir, "demos")).sort()) {
  if (!file.endsWith(".json") || file === "index.json" || file === "index-full.json") continue;
  scenes[file.slice(0, -5)] = JSON.parse(read(path.join("demos", file)));
}
for (const demo of index) {
  if (!scenes[demo.name]) throw new Error(`demos/index.json lists ${demo.name} but demos/${demo.name}.json is missing`);
}

const languages = {};
for (const file of readdirSync(path.join(siteDir, "lang")).sort()) {
  if (file.endsWith(".json")) languages[file.slice(0, -5)] = JSON.parse(read(path.join("lang", file)));
}
for (const stem of ["es", "es-full", "de", "de-full"]) {
  if (!languages[stem]) throw new Error(`${siteDir}/lang/ lacks ${stem}.json (the site's build writes it)`);
}

const stem = existsSync(path.join(siteDir, "attention-lab-full.wasm")) ? "attention-lab-full" : "attention-lab";
const wasmBase64 = readFileSync(path.join(siteDir, stem + ".wasm")).toString("base64");
const embedded = `<script>
"use strict";
// The single-file build: the module, the demos and the languages are in the page (scripts/single-file.mjs).
window.attentionLabEmbedded = {
  demos: { index: ${literal(index)}, scenes: ${literal(scenes)} },
  languages: ${literal(languages)},
  fullBuild: ${stem === "attention-lab-full"},
  wasm() {
    const text = atob(${literal(wasmBase64)});
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  },
  scriptUrl() {
    return URL.createObjectURL(new Blob([${literal(read(stem + ".js"))}], { type: "text/javascript" }));
  },
};
</script>
`;

let first = true;
html = html.replace(/<script src="([^"]+)"><\/script>/g, (_, src) => {
  const inline = `<script>\n${checkInline(src, read(src), "script")}</script>`;
  if (!first) return inline;
  first = false;
  return embedded + "    " + inline;
});
if (first) throw new Error("index.html has no <script src=…>");
html = html.replace("<!-- No inline scripts: the page works under a strict Content-Security-Policy. -->",
  "<!-- Single-file build (scripts/single-file.mjs): everything inline; the served site keeps them separate. -->");

writeFileSync(outFile, html);
console.log(`single-file: ${outFile} (${html.length} characters)`);
