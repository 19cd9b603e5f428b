// reference.test.mjs — the JS reference attention the browser tests trust, checked against the
// worked examples of LESSONS.md (so a bug in the reference cannot hide a bug in the page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { lessons } from "./lib/lessons.mjs";
import { attend, maxAbsDiff } from "./lib/reference.mjs";

const I4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
const columns = (M, from, to) => M.map((row) => row.slice(from, to));

test("LESSONS.md example 1: practice Q, K, V (unscaled, projected)", () => {
  const r = attend({
    version: 1,
    tokens: ["t0", "t1", "t2"],
    X: lessons["practice-qkv"].X,
    Wq: columns(I4, 0, 2),
    Wk: columns(I4, 1, 3),
    Wv: I4,
    scale: "none",
    causal: false,
  });
  const lesson = lessons["practice-qkv"];
  assert.deepEqual(r.Q, lesson.Q);
  assert.deepEqual(r.K, lesson.K);
  assert.deepEqual(r.scores, lesson.scores);
  assert.ok(maxAbsDiff(r.weights, lesson.weights) <= lessons.tolerance, `weights ${r.weights}`);
  assert.ok(maxAbsDiff(r.output, lesson.output) <= lessons.tolerance, `output ${r.output}`);
});

test("LESSONS.md example 2: soft dictionary lookup", () => {
  const { Q, K, V, weights, output } = lessons["soft-dictionary"];
  const r = attend({ version: 1, tokens: ["a", "b"], Q, K, V, scale: "none" });
  assert.ok(maxAbsDiff(r.weights, weights) <= lessons.tolerance, `weights ${r.weights}`);
  assert.ok(maxAbsDiff(r.output, output) <= lessons.tolerance, `output ${r.output}`);
});

test("scale: √d_k by default, a number is a temperature", () => {
  const base = { version: 1, tokens: ["a", "b"], Q: [[1, 1, 1, 1], [0, 0, 0, 0]], K: [[2, 0, 0, 0], [0, 0, 0, 0]], V: [[1], [0]] };
  // scores row 0 = [2, 0]; √4 = 2 → softmax([1, 0]) = [e/(e+1), 1/(e+1)]
  const e = Math.E;
  assert.ok(maxAbsDiff([attend(base).weights[0]], [[e / (e + 1), 1 / (e + 1)]]) < 1e-15);
  assert.equal(attend({ ...base, scale: "sqrt_dk" }).divisor, 2);
  assert.equal(attend({ ...base, scale: "none" }).divisor, 1);
  // temperature 0.5: [4, 0] → [e⁴/(e⁴+1), 1/(e⁴+1)]
  const e4 = Math.exp(4);
  assert.ok(maxAbsDiff([attend({ ...base, scale: 0.5 }).weights[0]], [[e4 / (e4 + 1), 1 / (e4 + 1)]]) < 1e-15);
});

test("LESSONS.md example 4: causal mask on 5 tokens; custom mask; a fully masked row", () => {
  const n = 5;
  const Q = Array.from({ length: n }, (_, i) => [i + 1, -i]);
  const K = Array.from({ length: n }, (_, i) => [i % 2, i / 2]);
  const V = Array.from({ length: n }, (_, i) => [i]);
  const r = attend({ version: 1, tokens: ["a", "b", "c", "d", "e"], Q, K, V, scale: "none", causal: true });
  assert.equal(r.weights[2][3], 0);
  assert.equal(r.weights[2][4], 0);
  assert.ok(Math.abs(r.weights[2][0] + r.weights[2][1] + r.weights[2][2] - 1) < 1e-12);
  assert.equal(r.scaled[2][3], null);
  assert.ok(r.weights[4].every((w) => w > 0));

  const mask = Array.from({ length: n }, () => new Array(n).fill(1));
  mask[2][1] = 0;
  mask[0][0] = 0;  // with causal, row 0 has nothing left
  const m = attend({ version: 1, tokens: ["a", "b", "c", "d", "e"], Q, K, V, scale: "none", causal: true, mask });
  assert.equal(m.weights[2][1], 0);
  assert.ok(Math.abs(m.weights[2][0] + m.weights[2][2] - 1) < 1e-12);
  assert.deepEqual(m.masked_rows, [0]);
  assert.deepEqual(m.weights[0], [0, 0, 0, 0, 0]);
  assert.deepEqual(m.output[0], [0]);
});

test("softmax subtracts the row max: huge scores stay finite", () => {
  const r = attend({ version: 1, tokens: ["a", "b"], Q: [[1000], [0]], K: [[1000], [999]], V: [[1], [0]], scale: "none" });
  const e = Math.exp(-1000);
  assert.ok(maxAbsDiff([r.weights[0]], [[1 / (1 + e), e / (1 + e)]]) < 1e-15);
  assert.ok(r.weights.flat().every(Number.isFinite));
});
