// attention-lab-api.js — window.attentionLab, the page's API for automation and tests.
//
//   ready                 Promise, resolves after the first frame is drawn
//   getState()            {scene: <scene JSON>, result: {Q, K, V, scores, scaled, weights, output, masked_rows,
//                          entropy, argmax, …}, ui: {mode, step, scoresTab, focusHead, tooltip, example, edited,
//                          vectors}}   mode: the screen's mode ("explore", "walk", "heads"; a link's mode=NAME);
//                          step: the walk's step index (−1: none); scoresTab: "raw" | "scaled"; focusHead: the
//                          head Scores/Mask/tooltips describe; tooltip: the last derivation tooltip's text (""
//                          when none). A multi-head scene's result has heads: [{scores, scaled, weights,
//                          output}…], concat, mean weights. entropy: bits per row; argmax: per row, −1 if fully
//                          masked. example: the Example picker's label (a demo's title, a preset's name, or
//                            "(custom scene)"); edited: changed since it was loaded ("· edited")
//                          vectors: {Q, K, V} each "sliders" or "strip" (compact colour cells)
//                          theme: "dark" | "light" | "contrast" (on screen); themeChosen: picked by a link or
//                          the View menu (false: it follows the system); zoom: UI zoom in percent (75 … 200)
//                          keyboard: {focus, cell, announce}: the keyboard-focused widget id (null: none; a
//                          grid is cell/scores, cell/weights or cell/mask with cell = [row, column]) and what
//                          the live region says of it
//                          flash: {block, step, steps, finished, m, l, max_abs_diff} (m null = −∞),
//                          decode: {t, cache_len, weights, output, mults_with_cache, mults_without_cache}
//                          (the FlashAttention and Decode modes' step; each null until its mode was shown)
//   getStep()             {index, count, title, text, numbers, row}: the walk-through's step (index 0-based,
//                          −1 when no walk runs); text: its sentences; numbers: the live-number sentence of
//                          query row `row`
//   setStep(i)            go to step i (0-based; −1 leaves the walk): {ok: true} | {ok: false, error: "step: …"}
//   getQuiz()             {open, question, count, answer, picked: [choice or −1 per question], right,
//                          feedback, explanation, questions: [prompt…]} (question and choices 0-based)
//   openQuiz(q)           open the quiz at question q (−1 closes it)
//   setState(scene)       {ok: true} | {ok: false, error: "<field: reason>"} (the state is kept on error)
//   widgetRect(id)        {x, y, w, h} in CSS pixels of the page, as last drawn, or null
//                         ids: Q/i/c K/i/c V/i/c (slider or strip cell of component c of token i; these
//                         also give `text`: the width of the number drawn in the cell, 0 for a strip
//                         cell) causal scale tokens preset cell/{scores,weights,mask}/i/j
//                         zoom/i (a token's "numbers" button, with strips) zoom/close
//                         zoom/Q/i/c … (a cell of the zoomed token's numbered view; also `text`)
//                         type/Q/i/c … (the field typing a strip cell's number, while open)
//                         share/gallery gallery/NAME (a demo in the open gallery)
//                         mode/NAME (a mode bar tab; the bar is drawn once there are two modes or more)
//                         heads (the heads control; heads/N each choice), head/t/weights/i/j and
//                         head/average/weights/i/j (a multi-head weights grid's cells), head/t/focus,
//                         Wo/r/c (a W_o cell), Wo/add, Wo/remove
//                         walk/start walk/prev walk/next walk/leave walk/row walk/counter walk/numbers
//                         walk/stage/K (the pipeline's K-th chip) scores/tab/raw scores/tab/scaled
//                         weights/entropy weights/argmax quiz/open quiz/Q/choice/C quiz/Q/showme
//                         quiz/Q/feedback quiz/prev quiz/next quiz/close quiz/back
//                         learned scenes: X/i/m Wq/m/c Wk/m/c Wv/m/c make-direct dmodel; direct: make-learned
//                         Key space mode: keyspace/q/i (arrow tip) keyspace/k/j valuespace/v/j valuespace/y/i
//                         export/menu (the Export… button) and, while its menu is open, export/numpy
//                         export/pytorch export/stage export/latex export/svg
//                         rope/on rope/base rope/layout rope/offset rope/plot (Controls, RoPE)
//                         flash/block flash/start flash/prev flash/next flash/play flash/memory flash/rows
//                         decode/start decode/prev decode/next decode/play decode/mults decode/query
//                         decode/new-row decode/output
//                         generate gen/pattern gen/n gen/dk gen/dv gen/seed gen/go (Generate… popup)
//                         weights-log (the weights' log colour scale)
//                         view/menu (the View button) and, while its menu is open, view/theme/dark
//                         view/theme/light view/theme/contrast zoom/out zoom/reset zoom/in
//   frameStats()          {frames, lastFrameMs, avgFrameMs, maxFrameMs, p95FrameMs, recomputes,
//                          lastRecomputeMs}  (CPU ms; max and p95 over the last 120 frames)
//   exportText(kind, stage)  the current scene as text, exactly attention-lab-cli --export KIND --stage STAGE:
//                         kind "numpy" | "pytorch" | "latex" | "svg", stage (latex, svg) "weights" (default) |
//                         "scores" | "scaled" | "Q" | "K" | "V" | "output"; throws an Error naming a bad argument
//
// Each call goes to an exported C function of the wasm module (src/app/web_platform.cpp) that
// returns JSON text.
"use strict";

(function () {
  let resolveReady;
  let rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Failures are shown on the page by boot.js; do not also report an unhandled rejection.
  ready.catch(() => {});

  function module() {
    const m = window.Module;
    if (!m || !m.calledRun) throw new Error("attentionLab: the app has not started yet (await attentionLab.ready)");
    return m;
  }

  // Call an exported C function taking an optional string argument and returning JSON text.
  function callJson(name, arg) {
    const m = module();
    let ptr = 0;
    try {
      if (arg !== undefined) {
        const size = m.lengthBytesUTF8(arg) + 1;
        ptr = m._malloc(size);
        if (!ptr) throw new Error("attentionLab: out of memory for a " + size + "-byte argument");
        m.stringToUTF8(arg, ptr, size);
      }
      const result = arg === undefined ? m["_" + name]() : m["_" + name](ptr);
      return JSON.parse(m.UTF8ToString(result));
    } finally {
      if (ptr) m._free(ptr);
    }
  }

  window.attentionLab = {
    ready,
    getState() {
      return callJson("al_get_state");
    },
    setState(scene) {
      let text;
      try {
        text = typeof scene === "string" ? scene : JSON.stringify(scene);
      } catch (e) {
        return { ok: false, error: "scene: not serializable as JSON (" + e.message + ")" };
      }
      if (text === undefined) text = "null";
      return callJson("al_set_state", text);
    },
    widgetRect(id) {
      const r = callJson("al_widget_rect", String(id));
      if (!r) return null;
      const box = module().canvas.getBoundingClientRect();
      const rect = { x: r.x + box.left + window.scrollX, y: r.y + box.top + window.scrollY, w: r.w, h: r.h };
      if (r.text !== undefined) rect.text = r.text; // value cells: width of the number drawn in them
      return rect;
    },
    frameStats() {
      return callJson("al_frame_stats");
    },
    getStep() {
      return callJson("al_get_step");
    },
    setStep(index) {
      const i = Number(index);
      if (!Number.isInteger(i) || Math.abs(i) > 1000) return { ok: false, error: "step: " + String(index) + " is not a step of this walk" };
      return JSON.parse(module().UTF8ToString(module()._al_set_step(i)));
    },
    getQuiz() {
      return callJson("al_get_quiz");
    },
    openQuiz(question) {
      const q = Number(question);
      if (!Number.isInteger(q) || Math.abs(q) > 1000) return { ok: false, error: "quiz: " + String(question) + " is not a question" };
      return JSON.parse(module().UTF8ToString(module()._al_open_quiz(q)));
    },
    exportText(kind, stage = "weights") {
      const m = module();
      const args = [String(kind), String(stage)].map((text) => {
        const size = m.lengthBytesUTF8(text) + 1;
        const ptr = m._malloc(size);
        m.stringToUTF8(text, ptr, size);
        return ptr;
      });
      try {
        const reply = JSON.parse(m.UTF8ToString(m._al_export_text(args[0], args[1])));
        if (!reply.ok) throw new Error(reply.error);
        return reply.text;
      } finally {
        args.forEach((ptr) => m._free(ptr));
      }
    },
  };

  // Used by boot.js.
  window.attentionLab._resolveReady = resolveReady;
  window.attentionLab._rejectReady = rejectReady;
})();
