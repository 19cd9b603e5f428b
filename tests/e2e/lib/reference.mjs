// reference.mjs — attention recomputed in plain JavaScript (float64), independent of the C++ core,
// so the browser tests can check what the page shows against a second implementation.
//
//   Y = softmax( Q Kᵀ / s + M ) V
//
// Scene JSON v1 (the page's getState().scene):
//   direct:    Q (n×d_k), K (n×d_k), V (n×d_v)
//   projected: X (n×d_model), Wq, Wk (d_model×d_k), Wv (d_model×d_v)  →  Q = X Wq, K = X Wk, V = X Wv
//   scale: "none" (s = 1) | "sqrt_dk" (s = √d_k, the default) | a number (s = temperature)
//   causal: token i sees tokens 0..i;  mask (optional n×n of 0/1): 1 = allowed.  Both ANDed.

/** A (r×m) · B (m×c) → r×c. */
export function matmul(A, B) {
  const rows = A.length;
  const inner = B.length;
  const cols = inner > 0 ? B[0].length : 0;
  const out = [];
  for (let i = 0; i < rows; i++) {
    const row = new Array(cols).fill(0);
    for (let k = 0; k < inner; k++) {
      const a = A[i][k];
      for (let j = 0; j < cols; j++) row[j] += a * B[k][j];
    }
    out.push(row);
  }
  return out;
}

/** The divisor s applied to the raw scores. */
export function scaleDivisor(scale, dK) {
  if (scale === undefined || scale === "sqrt_dk") return Math.sqrt(Math.max(dK, 1));
  if (scale === "none") return 1;
  if (typeof scale === "number" && scale > 0) return scale;
  throw new Error(`reference: unknown scale ${JSON.stringify(scale)}`);
}

/** n×n allowed-mask (true = attended): causal (j ≤ i) AND the custom mask when present. */
export function allowedMask(n, causal, mask) {
  const allowed = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < n; j++) {
      let ok = !(causal && j > i);
      if (mask && mask.length === n && mask[i][j] === 0) ok = false;
      row.push(ok);
    }
    allowed.push(row);
  }
  return allowed;
}

/**
 * Every stage of one attention pass for a scene JSON v1 object.
 * @returns {{Q,K,V,scores,divisor,scaled,allowed,weights,output,masked_rows}}
 *   scaled has null in masked cells (the page's JSON convention).
 */
export function attend(scene) {
  let { Q, K, V } = scene;
  if (scene.X) {
    Q = matmul(scene.X, scene.Wq);
    K = matmul(scene.X, scene.Wk);
    V = matmul(scene.X, scene.Wv);
  }
  const n = Q.length;
  const dK = n > 0 ? Q[0].length : 0;
  const dV = n > 0 ? V[0].length : 0;
  const divisor = scaleDivisor(scene.scale, dK);
  const allowed = allowedMask(n, Boolean(scene.causal), scene.mask);

  // (1) scores(i,j) = q_i · k_j                                                          n×n
  const scores = matmul(Q, transpose(K));
  const scaled = [];
  const weights = [];
  const masked_rows = [];
  for (let i = 0; i < n; i++) {
    // (2) scaled = scores / s;  (3) masked cells are −∞ before softmax (null in JSON)
    const s = scores[i].map((v, j) => (allowed[i][j] ? v / divisor : null));
    scaled.push(s);
    // (4) softmax over allowed cells with the row max subtracted: exp(s − max) ∈ (0, 1]
    let max = -Infinity;
    for (let j = 0; j < n; j++) if (allowed[i][j]) max = Math.max(max, s[j]);
    if (max === -Infinity) {
      masked_rows.push(i);  // nothing to attend to: a zero row, not NaN
      weights.push(new Array(n).fill(0));
      continue;
    }
    const e = s.map((v, j) => (allowed[i][j] ? Math.exp(v - max) : 0));
    const sum = e.reduce((a, b) => a + b, 0);
    weights.push(e.map((v) => v / sum));
  }
  // (5) Y = A V                                                                           n×d_v
  const output = n > 0 && dV > 0 ? matmul(weights, V) : weights.map(() => []);
  return { Q, K, V, scores, divisor, scaled, allowed, weights, output, masked_rows };
}

export function transpose(A) {
  if (A.length === 0) return [];
  return A[0].map((_, j) => A.map((row) => row[j]));
}

/** Largest |a − b| over two equally shaped matrices (throws on a shape mismatch or null/NaN). */
export function maxAbsDiff(a, b, name = "matrix") {
  if (a.length !== b.length) throw new Error(`${name}: ${a.length} rows vs ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i].length !== b[i].length) throw new Error(`${name}: row ${i} has ${a[i].length} vs ${b[i].length}`);
    for (let j = 0; j < a[i].length; j++) {
      const x = a[i][j];
      const y = b[i][j];
      if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) || !Number.isFinite(y)) {
        throw new Error(`${name}[${i}][${j}]: not a finite number (${x} vs ${y})`);
      }
      worst = Math.max(worst, Math.abs(x - y));
    }
  }
  return worst;
}
