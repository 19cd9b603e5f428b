// app_test.mjs — one test on one app, the shape most tests have: open the app, run the steps on its
// page, then require a clean page (no page error, no console error: assertClean).
//
//   appTest("name", (t) => open(t, { suffix: "#demo=causal-5" }), async ({ page }) => { …steps… });
//
// `opening(t)` opens the app (an appOpener's open, or a file's own opener such as openCausal);
// `body(app, t)` gets the app ({ page, … }) and the test context. A test that opens two apps, or must
// not end on assertClean, keeps node:test's test().
import { test } from "node:test";
import { assertClean } from "./harness.mjs";

export function appTest(name, opening, body) {
  test(name, async (t) => {
    const app = await opening(t);
    await body(app, t);
    assertClean(app);
  });
}
