// a11y-lang.test.mjs — "In the classroom" (README): the screen's words in English, Spanish and German.
// lang=es / lang=de switch them (getLanguage(), the tabs' widths change with their words), the
// browser's language is the default, the View menu picks one, and at 1280×720 no translated text
// overflows its place (getState().ui.overflow: row labels wider than their column, a panel's text
// past its right edge, a mode bar wider than the screen). Screenshots: build/e2e/a11y-lang-*.png.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClean, getState, waitForState, requireWidget, clickWidget, animationFrames, parkMouse, screenshot, appOpener, language, openDemo, DESKTOP, PHONE } from "./lib/a11y.mjs";

const open = appOpener();
const viewport = DESKTOP;

test("lang=es and lang=de switch the words; nothing overflows at 1280×720; English is the default", async (t) => {
  const en = await open(t, { context: { viewport } });
  assert.equal(await language(en.page), "en", "navigator.language en-US → English");
  const widths = { en: (await requireWidget(en.page, "mode/walk")).w };
  assert.deepEqual((await getState(en.page)).ui.overflow, [], "English fits");
  for (const lang of ["es", "de"]) {
    const app = await open(t, { suffix: `#demo=causal-5&lang=${lang}`, context: { viewport } });
    const { page } = app;
    await waitForState(page, (s) => s.ui.language === lang && s.scene.tokens.length === 5, `lang=${lang} applied`);
    assert.equal(await language(page), lang);
    await parkMouse(page);
    await animationFrames(page, 4);
    const state = await getState(page);
    assert.deepEqual(state.ui.overflow, [], `${lang}: texts that do not fit their place`);
    widths[lang] = (await requireWidget(page, "mode/walk")).w;
    // Every control is still where a click finds it, inside the 1280×720 screen.
    for (const id of ["mode/explore", "mode/decode", "view/menu", "quiz/open", "preset", "causal", "reset", "share/copy", "export/menu"]) {
      await requireWidget(page, id);
    }
    await screenshot(page, `a11y-lang-${lang}`);
    assert.match(await page.evaluate(() => window.attentionLab.link()), new RegExp(`&lang=${lang}$`));
    assertClean(app);
  }
  // "Walk through" → "Paso a paso" (narrower), "Schritt für Schritt" (wider): the words changed.
  assert.ok(widths.es < widths.en && widths.de > widths.en, `mode/walk widths ${JSON.stringify(widths)}`);
  assertClean(en);
});

test("the browser's language is the default; the View menu picks another; lang=fr is refused", async (t) => {
  const app = await open(t, { context: { viewport, locale: "de-DE" } });
  const { page } = app;
  assert.equal(await language(page), "de", "navigator.language de-DE → German");
  assert.ok(!(await page.evaluate(() => window.attentionLab.link())).includes("lang="), "an unchosen language stays out of the link");
  await clickWidget(page, "view/menu");
  await clickWidget(page, "view/lang/es");
  await waitForState(page, (s) => s.ui.language === "es", "View → Español");
  await page.waitForFunction(() => location.hash.includes("lang=es"), null, { timeout: 5000 });
  await page.keyboard.press("Escape");
  await page.evaluate(() => {
    location.hash = "#demo=causal-5&lang=fr";
  });
  await page.waitForFunction(() => (window.attentionLab.lastError() || "").includes("lang="), null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => window.attentionLab.lastError()), "link: unknown language 'fr' in lang= (languages: en, es, de)");
  assert.equal(await language(page), "es", "a refused link changes nothing");
});

// The walk-through's step and the quiz, read through the page API (getStep / getQuiz), in Spanish and
// German: practice-qkv's softmax step (LESSONS.md §1, row 'the': weights 0.155, 0.422, 0.422) and the
// causal question (§4: token 2 sees tokens 0, 1 and 2). Screenshots at 1280×720 and on a phone.
const WORDS = {
  es: {
    title: "Softmax: puntuaciones → pesos",
    numbers: "Fila 'the': e^(puntuación − 1) = 0.37, 1, 1; ÷ su suma 2.37 → pesos 0.155, 0.422, 0.422 (suma 1).",
    prompt: "Con una máscara causal sobre 5 tokens, ¿a qué tokens atiende el token 2?",
    right: "¡Correcto!",
    explanation: /^La máscara causal es triangular inferior/,
  },
  de: {
    title: "Softmax: Punktwerte → Gewichte",
    numbers: "Zeile 'the': e^(Punktwert − 1) = 0.37, 1, 1; ÷ ihre Summe 2.37 → Gewichte 0.155, 0.422, 0.422 (Summe 1).",
    prompt: "Mit einer kausalen Maske über 5 Tokens: Auf welche Tokens achtet Token 2?",
    right: "Richtig!",
    explanation: /^Die kausale Maske ist eine untere Dreiecksmatrix/,
  },
};

for (const [lang, words] of Object.entries(WORDS)) {
  test(`lang=${lang}: the walk-through and the quiz speak ${lang === "es" ? "Spanish" : "German"} (getStep, getQuiz); they fit at 1280×720 and on a phone`, async (t) => {
    for (const [name, size] of [["desktop", DESKTOP], ["phone", PHONE]]) {
      const app = await openDemo(open, t, `#demo=practice-qkv&lang=${lang}&step=6`, size, 3);
      const { page } = app;
      const step = await page.evaluate(() => window.attentionLab.getStep());
      assert.equal(step.index, 5, "step=6 is the sixth step");
      assert.equal(step.title, words.title);
      assert.equal(step.numbers, words.numbers);
      assert.doesNotMatch(step.text, /\b(the|and|each|weights)\b/, `the step's sentences are not English: ${step.text}`);
      if (name === "desktop") assert.deepEqual((await getState(page)).ui.overflow, [], `${lang} walk card fits`);
      await screenshot(page, `a11y-lang-${lang}-walk-${name}`);
      // The quiz at the causal question: its prompt, a right pick's feedback and explanation.
      await page.evaluate(() => window.attentionLab.openQuiz(6));
      await page.waitForFunction(() => window.attentionLab.getQuiz().open, null, { timeout: 5000 });
      await animationFrames(page, 3);  // the quiz window drawn, its choices' rects recorded
      let quiz = await page.evaluate(() => window.attentionLab.getQuiz());
      assert.equal(quiz.open, true);
      assert.equal(quiz.questions[quiz.question], words.prompt);
      await clickWidget(page, `quiz/6/choice/${quiz.answer}`);
      await page.waitForFunction(() => window.attentionLab.getQuiz().picked[6] >= 0, null, { timeout: 5000 });
      quiz = await page.evaluate(() => window.attentionLab.getQuiz());
      assert.equal(quiz.feedback, words.right);
      assert.match(quiz.explanation, words.explanation);
      await parkMouse(page);
      await animationFrames(page, 3);
      if (name === "desktop") assert.deepEqual((await getState(page)).ui.overflow, [], `${lang} quiz fits`);
      await screenshot(page, `a11y-lang-${lang}-quiz-${name}`);
      assertClean(app);
    }
  });
}
