// notebook.test.mjs — the notebook package end to end: python/ installed with pip into a fresh
// virtual environment (offline: --no-index --no-build-isolation, Debian's setuptools), with the
// single-file build put into it by scripts/notebook-web; python/examples/real_model.ipynb executed
// headlessly (python3 -m nbconvert --execute, the venv's kernel); its HTML opened in Chromium. Each
// embedded lab (an <iframe srcdoc> per show()) must show the captured scene in the Heads mode, its
// weights those of PyTorch's layer (the notebook's `reference`, 1e-12), and a drag inside the
// notebook's output must edit the scene. One browser launch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT, READY_TIMEOUT_MS, STEP_TIMEOUT_MS, launchBrowser, outDir } from "./lib/harness.mjs";
import { findCli } from "./lib/presets.mjs";

const PYTHON = "/usr/bin/python3"; // Debian's, with numpy, torch, nbconvert, ipykernel
const TOL = 1e-12;

function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000, ...options });
}

function maxDiff(a, b) {
  assert.equal(a.length, b.length, "same shape");
  let worst = 0;
  a.forEach((row, i) => {
    if (Array.isArray(row)) worst = Math.max(worst, maxDiff(row, b[i]));
    else worst = Math.max(worst, Math.abs(row - b[i]));
  });
  return worst;
}

// Per-head weights of the page's result (one head: the single-head form).
const pageHeads = (state) => (state.result.heads ? state.result.heads.map((h) => h.weights) : [state.result.weights]);

test("the example notebook, installed offline in a venv and executed, shows each layer's heads live", async (t) => {
  const single = path.join(process.env.AL_DIST_DIR ?? path.join(REPO_ROOT, "dist"), "attention-lab.html");
  assert.ok(existsSync(single), `${single} is missing: run scripts/dist (or set AL_DIST_DIR)`);
  const work = path.join(outDir(), "notebook");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  // 1. pip install a copy of python/ (with the single file) into a fresh venv, without a network.
  const pkg = path.join(work, "python");
  cpSync(path.join(REPO_ROOT, "python"), pkg, { recursive: true, filter: (src) => !/__pycache__|_web|egg-info|[/]build$/.test(src) });
  run(path.join(REPO_ROOT, "scripts/notebook-web"), ["--html", single, "--out", path.join(pkg, "attention_lab/_web")]);
  const venv = path.join(work, "venv");
  run(PYTHON, ["-m", "venv", "--system-site-packages", venv]);
  const py = path.join(venv, "bin/python");
  run(py, ["-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", pkg], { cwd: work });
  // The venv's own kernel, so that the notebook imports the installed package (not a checkout's).
  run(py, ["-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"]);
  const env = { ...process.env, ATTENTION_LAB_CLI: findCli(), PYDEVD_DISABLE_FILE_VALIDATION: "1", PYTHONPATH: "" };
  const kernel = run(py, ["-c", "from jupyter_client.kernelspec import KernelSpecManager as M; print(M().get_kernel_spec('python3').argv[0])"], { env }).trim();
  assert.ok(kernel.startsWith(venv), `nbconvert's python3 kernel is the venv's: ${kernel}`);
  const installed = run(py, ["-c", "import attention_lab, json; print(attention_lab.single_file())"], { cwd: work, env }).trim();
  assert.ok(installed.startsWith(venv), `the package's single file comes from the venv: ${installed}`);

  // 2. Execute the notebook headlessly; record what it shows and PyTorch's weights.
  const notebook = path.join(REPO_ROOT, "python/examples/real_model.ipynb");
  run(py, ["-m", "nbconvert", "--to", "html", "--execute", notebook, "--output-dir", work,
    "--ExecutePreprocessor.timeout=300"], { cwd: work, env });
  const htmlFile = path.join(work, "real_model.html");
  const shownFile = path.join(work, "shown.json");
  run(py, [path.join(REPO_ROOT, "tests/e2e/lib/notebook_shown.py"), notebook, shownFile], { cwd: work, env });
  const { shown, reference, result, package: where } = JSON.parse(readFileSync(shownFile, "utf8"));
  assert.ok(where.startsWith(venv), `the notebook ran the installed package: ${where}`);
  assert.equal(shown.length, 2, "the notebook shows one lab per layer");
  const html = readFileSync(htmlFile, "utf8");
  assert.equal(html.match(/<iframe class="attention-lab"/g)?.length, 2, "two embedded labs in the HTML");

  // 3. The HTML in Chromium, from disk: each iframe's lab.
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const external = [];
  page.on("request", (r) => { if (!/^(file|data|blob|about):/.test(r.url())) external.push(r.url()); });
  await page.goto(pathToFileURL(htmlFile).href);
  const frames = await Promise.all((await page.$$("iframe.attention-lab")).map((el) => el.contentFrame()));
  assert.equal(frames.length, 2);
  for (const [i, frame] of frames.entries()) {
    await frame.waitForFunction(() => Boolean(window.attentionLab && window.attentionLab.ready), null, { timeout: READY_TIMEOUT_MS });
    await frame.evaluate(() => window.attentionLab.ready);
    const state = await frame.evaluate(() => window.attentionLab.getState());
    assert.equal(state.ui.mode, shown[i].mode, `lab ${i}: the mode show() asked for`);
    for (const key of ["tokens", "X", "Wq", "Wk", "Wv", "Wo", "heads", "causal"]) {
      assert.deepEqual(state.scene[key], shown[i].scene[key], `lab ${i}: scene.${key} is the captured one`);
    }
    assert.ok(maxDiff(pageHeads(state), reference[i]) <= TOL, `lab ${i}: the page's weights are PyTorch's layer ${i}`);
    assert.ok(maxDiff(pageHeads(state), result[i]) <= TOL, `lab ${i}: the page's weights are the CLI's`);
  }

  // 4. A drag inside the notebook's output: x_0's first component in the first lab.
  const frame = frames[0];
  const iframe = await frame.frameElement();
  await iframe.scrollIntoViewIfNeeded();
  const box = await iframe.boundingBox();
  const before = await frame.evaluate(() => window.attentionLab.getState());
  const rect = await frame.evaluate(() => window.attentionLab.widgetRect("X/0/0"));
  assert.ok(rect, "the X/0/0 slider is drawn in the notebook's lab");
  const cx = box.x + rect.x + rect.w / 2;
  const cy = box.y + rect.y + rect.h / 2;
  const frames2 = () => frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.mouse.move(cx, cy);
  await frames2();
  await page.mouse.down();
  await frames2();
  for (let s = 1; s <= 10; s++) {
    await page.mouse.move(cx + 6 * s, cy);
    await frames2();
  }
  await page.mouse.up();
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let after;
  do {
    await frames2();
    after = await frame.evaluate(() => window.attentionLab.getState());
  } while (after.scene.X[0][0] === before.scene.X[0][0] && Date.now() < deadline);
  assert.notEqual(after.scene.X[0][0], before.scene.X[0][0], "dragging X/0/0 in the notebook's output changes x_0");
  assert.notDeepEqual(after.result.weights, before.result.weights, "and the weights follow");
  assert.deepEqual((await frame.evaluate(() => window.attentionLab.checkResult())).same, true, "the result on screen is the core's");
  await page.screenshot({ path: path.join(outDir(), "notebook.png") });

  // 5. A scene too large for a link (show() then hands it over with setState once the page is ready).
  const bigFile = path.join(work, "big.html");
  const bigScene = path.join(work, "big.json");
  run(py, ["-c", `
import json, sys, torch, attention_lab as al
torch.manual_seed(3)
m = torch.nn.MultiheadAttention(32, 4, batch_first=True).double()
s = al.from_torch(m, torch.randn(8, 32, dtype=torch.float64))
try:
    al.link(s)
    sys.exit("this scene was meant to be too large for a link")
except al.SceneError:
    pass
open(sys.argv[1], "w").write("<!doctype html><html><body>" + al.html(s, mode="heads") + "</body></html>")
json.dump(s, open(sys.argv[2], "w"))
`, bigFile, bigScene], { cwd: work, env });
  await page.goto(pathToFileURL(bigFile).href);
  const bigFrame = await (await page.$("iframe.attention-lab")).contentFrame();
  const expected = JSON.parse(readFileSync(bigScene, "utf8"));
  await bigFrame.waitForFunction((x) => window.attentionLab?.getState?.().scene.X?.[0]?.[0] === x,
    expected.X[0][0], { timeout: READY_TIMEOUT_MS });
  const big = await bigFrame.evaluate(() => window.attentionLab.getState());
  for (const key of ["X", "Wq", "Wk", "Wv", "Wo", "heads"]) assert.deepEqual(big.scene[key], expected[key], `big scene.${key}`);
  assert.equal(big.ui.mode, "heads");

  assert.deepEqual(errors, [], "no page error");
  assert.deepEqual(external, [], "nothing fetched from a network");
});
