// presets.mjs — the bundled presets' scene JSON, taken from the native CLI at test time
// (`attention-lab-cli --preset NAME`), so the browser tests select exactly the app's presets with
// setState() instead of clicking through an ImGui combo popup.
//
// The CLI is looked up in this order:
//   1. $AL_CLI
//   2. <repo>/build/native/src/attention-lab-cli   (scripts/test builds the native preset first)
//   3. any other <repo>/build/*/src/attention-lab-cli
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./harness.mjs";

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let cliPath;
export function findCli() {
  if (cliPath) return cliPath;
  const candidates = [];
  if (process.env.AL_CLI) candidates.push(process.env.AL_CLI);
  const buildDir = path.join(REPO_ROOT, "build");
  candidates.push(path.join(buildDir, "native", "src", "attention-lab-cli"));
  try {
    for (const entry of readdirSync(buildDir)) candidates.push(path.join(buildDir, entry, "src", "attention-lab-cli"));
  } catch {
    // no build folder at all: reported below
  }
  cliPath = candidates.find(isExecutable);
  assert.ok(
    cliPath,
    "attention-lab-cli not found (set AL_CLI, or build it: cmake --preset native && cmake --build --preset native)",
  );
  return cliPath;
}

const cache = new Map();

/** Scene JSON of a bundled preset (version 1, or 2 for multi-head; a fresh deep copy each call). */
export function presetScene(name) {
  if (!cache.has(name)) {
    const text = execFileSync(findCli(), ["--preset", name], { encoding: "utf8" });
    cache.set(name, text);
  }
  const scene = JSON.parse(cache.get(name));
  assert.ok([1, 2].includes(scene.version), `preset ${name}: expected scene JSON version 1 or 2, got ${scene.version}`);
  return scene;
}

/** The preset with every key visible from every query: not causal, its mask left out. */
export function unmaskedPreset(name) {
  const { mask, ...scene } = presetScene(name);
  return { ...scene, causal: false };
}

/** Preset names, from `--list-presets` (NAME<TAB>…). */
export function presetNames() {
  const text = execFileSync(findCli(), ["--list-presets"], { encoding: "utf8" });
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("\t")[0]);
}
