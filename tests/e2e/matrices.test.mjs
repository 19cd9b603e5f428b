// matrices.test.mjs — the page API at size: getMatrix's typed stages and getState above 256 tokens.
// Each number is checked against the native core (attention-lab-cli computes the same scene; the
// wasm's SIMD128 kernels round differently from the native AVX2 + FMA ones, so within 1e-12 relative)
// and against the page's own getState({squareStages: true}) bit for bit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appOpener, assertClean, getState, loadScene } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const open = appOpener();
const cli = (args, input) =>
  JSON.parse(execFileSync(findCli(), args, { encoding: "utf8", input, maxBuffer: 1 << 28 }));

// A matrix of the CLI's JSON (null = a masked scaled cell) as the Float64Array getMatrix gives.
function flat(rows) {
  return Float64Array.from(rows.flat(), (x) => (x === null ? -Infinity : x));
}
// tolerance 0: bit for bit (−Infinity, the masked cells, always exactly).
function assertSameMatrix(got, rows, what, tolerance = 0) {
  assert.equal(got.rows, rows.length, `${what}: rows`);
  assert.equal(got.cols, rows[0].length, `${what}: cols`);
  const want = flat(rows);
  const same = (x, y) => Object.is(x, y) || (Number.isFinite(x) && Math.abs(x - y) <= tolerance * Math.max(1, Math.abs(x)));
  const bad = want.findIndex((x, k) => !same(x, got.data[k]));
  assert.equal(bad, -1, `${what}: entry ${bad} is ${got.data[bad]}, expected ${want[bad]}`);
}
const kCore = 1e-12; // wasm vs native kernels

test("getMatrix gives every stage as the core computes it, bit for bit; getState above 256 tokens leaves the n×n stages out", async (t) => {
  // 300 tokens (over getState's 256), causal, so scaled has masked cells (−Infinity) and allowed zeros.
  const scene = { ...cli(["--gen", "local,300,16,8,3"]), causal: true };
  const want = cli(["--compact", "-"], JSON.stringify(scene));
  const { page, ...app } = await open(t);
  await loadScene(page, scene);

  const state = await getState(page);
  assert.deepEqual(state.omitted, ["scores", "scaled", "allowed", "weights"]);
  for (const key of state.omitted) assert.equal(state.result[key], undefined, `getState().result.${key} at n = 300`);
  assert.equal(state.result.output.length, 300, "getState().result.output is there");
  // Asked for, the n×n stages are there at any size.
  const full = await page.evaluate(() => window.attentionLab.getState({ squareStages: true }));
  assert.deepEqual(full.omitted, []);
  assert.deepEqual(full.result.output, state.result.output);

  for (const stage of ["Q", "K", "V", "scores", "scaled", "allowed", "weights", "output"]) {
    const got = await page.evaluate((s) => {
      const m = window.attentionLab.getMatrix(s);
      return { rows: m.rows, cols: m.cols, data: Array.from(m.data), typed: m.data instanceof Float64Array };
    }, stage);
    assert.ok(got.typed, `getMatrix("${stage}").data is a Float64Array`);
    assertSameMatrix(got, full.result[stage], `getMatrix("${stage}") vs getState`);
    assertSameMatrix(got, want[stage], `getMatrix("${stage}") vs the native core`, ["Q", "K", "V", "allowed"].includes(stage) ? 0 : kCore);
  }
  assertClean({ page, ...app });
});

test("getMatrix per head matches the core's heads; bad stages and heads are named errors", async (t) => {
  const scene = { ...cli(["--gen", "random,12,8,8,5"]), version: 2, heads: 2 };
  const want = cli(["--compact", "-"], JSON.stringify(scene));
  const { page, ...app } = await open(t);
  await loadScene(page, scene);
  const get = (stage, head) =>
    page.evaluate(([s, h]) => {
      try {
        const m = window.attentionLab.getMatrix(s, h);
        return { rows: m.rows, cols: m.cols, data: Array.from(m.data) };
      } catch (e) {
        return { error: e.message };
      }
    }, [stage, head]);
  const pageState = await getState(page);
  for (const head of [0, 1]) {
    for (const stage of ["scores", "scaled", "weights", "output"]) {
      const got = await get(stage, head);
      assertSameMatrix(got, pageState.result.heads[head][stage], `getMatrix("${stage}", ${head}) vs getState`);
      assertSameMatrix(got, want.heads[head][stage], `getMatrix("${stage}", ${head}) vs the native core`, kCore);
    }
  }
  for (const stage of ["weights", "concat", "output"]) {
    const got = await get(stage);
    assertSameMatrix(got, pageState.result[stage], `getMatrix("${stage}") vs getState`);
    assertSameMatrix(got, want[stage], `getMatrix("${stage}") vs the native core`, kCore);
  }
  assert.match((await get("scores")).error, /scores is per head in a multi-head scene/);
  assert.match((await get("weights", 2)).error, /head 2 is not a head of this scene/);
  assert.match((await get("attention")).error, /unknown stage "attention"/);
  assert.match((await get("Q_rope")).error, /not part of this scene \(no RoPE\)/);
  assert.match((await get("bias", 0)).error, /not part of this scene \(no ALiBi\)/);
  // ALiBi: each head's bias −m_h·|i − j| (version 2 "alibi"), as the core writes it.
  const alibi = { ...scene, alibi: true };
  const wantAlibi = cli(["--compact", "-"], JSON.stringify(alibi));
  await loadScene(page, alibi);
  for (const head of [0, 1]) assertSameMatrix(await get("bias", head), wantAlibi.heads[head].bias, `getMatrix("bias", ${head})`);
  assertClean({ page, ...app });
});
