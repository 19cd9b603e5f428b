// attention-lab-api.js — window.attentionLab, the page's API for automation and tests.
//
//   ready                 Promise, resolves after the first frame is drawn
//   getState(options)     {scene, result, omitted, ui} as below. The n×n stages (result.scores, scaled, allowed,
//                          weights, and each head's) are there up to 256 tokens; above, they are left out (a
//                          1024-token scene's would be three million numbers of text) and `omitted` names them:
//                          getMatrix reads them, or getState({squareStages: true}) includes them at any size.
//                          omitted: [] when nothing was left out.
//   getMatrix(stage, head)  {rows, cols, data: Float64Array (row-major, a copy)}: one stage of the result, at any
//                          size in milliseconds. stage: "Q" | "K" | "V" | "Q_rope" | "K_rope" (RoPE) | "scores" |
//                          "scaled" (masked cells −Infinity: the mask M added) | "allowed" (1/0)
//                          | "weights" | "output" | "concat" (multi-head, before W_o). head (default −1): −1 the
//                          whole pass (multi-head: Q, K, V before the split, weights the heads' mean, output after
//                          W_o; scores and scaled need a head), t the stages of head t. Throws an Error naming a
//                          bad stage or head.
//   getState() reply:     {scene: <scene JSON>, result: {Q, K, V, scores, scaled, weights, output, masked_rows,
//                          entropy, argmax, …}, ui: {mode, step, scoresTab, focusHead, tooltip, example, edited,
//                          vectors, flash, decode}}   mode: the screen's mode ("explore", "walk", "heads",
//                          "keyspace", "flash", "decode"; a link's mode=NAME);
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
//                          grid is cell/scores, cell/weights, cell/mask or cell/head/t (t or "average") with cell = [row, column]) and what
//                          the live region says of it; language: as getLanguage(); overflow: texts that did
//                          not fit their place in the last frame (e.g. "controls/label/Skalierung"), [] when all fit
//                          flash: {block, step, steps, finished, m, l, max_abs_diff} (m null = −∞),
//                          decode: {t, cache_len, weights, output, mults_with_cache, mults_without_cache,
//                          policy, window, sinks, kept, evicted, kv} (the FlashAttention and Decode modes' step;
//                          each null until its mode was shown); kv: the KV-cache calculator {preset (null: own
//                          shape), layers, heads, kv_heads, d_head, context, bytes, tokens_held, per_token,
//                          per_context (bytes: 2·layers·H_kv·d_head·bytes, × tokens_held), per_token_text,
//                          per_context_text (as shown), error ("" = none)}
//   getStep()             {index, count, title, text, numbers, row}: the walk-through's step (index 0-based,
//                          −1 when no walk runs); text: its sentences; numbers: the live-number sentence of
//                          query row `row`
//   setStep(i)            go to step i (0-based; −1 leaves the walk): {ok: true} | {ok: false, error: "step: …"}
//   getQuiz()             {open, question, count, answer, picked: [choice or −1 per question], right,
//                          feedback, explanation, questions: [prompt…]} (question and choices 0-based)
//   openQuiz(q)           open the quiz at question q (−1 closes it)
//   getTraining()         {running, task, step, loss, accuracy, lr, seed, heads, workMs}: the Train mode's run (loss: the
//                          last step's batch cross-entropy, null before the first step; accuracy: on 64 fresh
//                          sequences, null until measured; workMs: CPU ms the last frame spent training; step 0 and
//                          running false before the mode was shown)
//   getCircuits()         {running, step, loss, inContext, heads: [{layer, head, prefixMatching, previousToken,
//                          ablated, role}], text, predictions: [{token, predicted, p, pNext}], textLoss, formedAt,
//                          composition, recipe, …}: the Circuits mode's run (src/ui/modes/circuits/circuits_page.cpp)
//   getModel(full)        {loaded, load, text, tokens, pieces, top: [{token, piece, p}], heads: [{layer, head,
//                          role, scores…}], ablated, generated, openedHead, lens, …}: the Model mode
//                          (src/ui/modes/model/model_page.cpp); full adds logits and weights; null in the
//                          first-load build (getTraining and getCircuits too)
//   circuitsExport(kind)  the Circuits model as text: "json" (the model contract) | "pytorch" (a script printing
//                          its logits on the typed text); throws an Error naming a bad kind
//   setState(scene)       {ok: true} | {ok: false, error: "<field: reason>"} (the state is kept on error)
//   widgetRect(id)        {x, y, w, h} in CSS pixels of the page, as last drawn, or null
//                         ids: docs/PAGE_API.md, the one list (tests/widget_ids_test.py checks it)
//   getLanguage()         the language of the screen's words: "en" | "es" | "de" (a link's lang=, the View
//                         menu, else the browser's navigator.language; getState().ui.language) — once
//                         its file (lang/es.json, lang/de.json; web/share.js) is installed
//   frameStats()          {frames, lastFrameMs, avgFrameMs, maxFrameMs, p95FrameMs, recentFrameMs,
//                          recentFramePartsMs, recomputes, lastRecomputeMs, heapBytes, vertices}  (CPU ms; max and p95
//                          over the last 120 frames, recentFrameMs their times oldest first, recentFramePartsMs three numbers
//                          a frame, in that order: its recompute, UI and render ms; heapBytes: bytes the app's malloc holds; vertices: the last frame's)
//   checkResult()         {ok, same, compared, mismatch}: the result on screen against the core's own full pass
//                          over the current scene, bit for bit (every stage of every head, the reading aids);
//                          mismatch names the first difference (null when same)
//   exportText(kind, stage)  the current scene as text, exactly attention-lab-cli --export KIND --stage STAGE:
//                         kind "numpy" | "pytorch" | "latex" | "svg", stage (latex, svg) "weights" (default) |
//                         "scores" | "scaled" | "Q" | "K" | "V" | "output"; throws an Error naming a bad argument,
//                         or, before exportReady, saying that the exporter is still loading
//   exportReady           Promise, resolves when exportText can be called: with `ready` in the build with every
//                         mode; in the first-load build once attention-lab-export.wasm, which it loads after the
//                         first frame, is compiled (rejects with an Error if it cannot be loaded)
//
// Each call goes to an exported C function of the wasm module (src/app/page_api.cpp) that
// returns JSON text, through the one call helper below (share.js uses it too).
//
// For the page's other scripts (not part of the API):
//   _callText(name, …args) / _callJson(name, …args)   call an exported C function; string
//                         arguments are copied into wasm memory, numbers passed as they are
//   _onStarted(hook)      run `hook` (synchronous) once the app is set up, before its first frame:
//                         share.js installs the demo index and language file that have arrived
//   _started()            boot.js, from the app (before the first frame): runs those hooks
//   _beforeReady(hook)    run `hook` (may return a Promise) after the first frame, before `ready`
//                         resolves: share.js applies the opening link there
//   _firstFrameDrawn()    boot.js, after the first frame: runs the hooks in order, then resolves
//   _fail(error)          boot.js, when the app cannot start: rejects `ready`
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

  // Call an exported C function returning text. String arguments are copied into wasm memory for
  // the call (and freed after it); numbers are passed as they are.
  function callText(name, ...args) {
    return callIn(module(), name, args);
  }
  function callIn(m, name, args) {
    const pointers = [];
    try {
      const cArgs = args.map((arg) => {
        if (typeof arg !== "string") return arg;
        const size = m.lengthBytesUTF8(arg) + 1;
        const ptr = m._malloc(size);
        if (!ptr) throw new Error("attentionLab: out of memory for a " + size + "-byte argument");
        pointers.push(ptr);
        m.stringToUTF8(arg, ptr, size);
        return ptr;
      });
      return m.UTF8ToString(m["_" + name](...cArgs));
    } finally {
      for (const ptr of pointers) m._free(ptr);
    }
  }
  function callJson(name, ...args) {
    return JSON.parse(callText(name, ...args));
  }
  // A mode's part of the API: al_mode_call runs its row's page_call (src/ui/modes/modes.hpp; each
  // mode's <mode>_page.cpp). modeGet: a read ("get…"), null before the app has started and in a build
  // without the mode (the first load's Train, Circuits, Model).
  const modeCall = (mode, call, arg = "") => callJson("al_mode_call", mode, call, String(arg));
  function modeGet(mode, call = "get", arg = "") {
    const reply = modeCall(mode, call, arg);
    return reply && reply.ok === false ? null : reply;
  }

  // Hooks run once the app is set up, before its first frame is drawn (so that frame shows what
  // they install). A hook that fails is reported; the app starts anyway.
  const onStarted = [];
  function started() {
    for (const hook of onStarted) {
      try {
        hook();
      } catch (e) {
        console.error("Attention Lab: start-up step failed:", e);
      }
    }
  }

  // Hooks run after the first frame, in the order registered, before `ready` resolves. A hook that
  // fails is reported on the console; the app is running, so `ready` still resolves.
  const beforeReady = [];
  function firstFrameDrawn() {
    let chain = Promise.resolve();
    for (const hook of beforeReady) {
      chain = chain.then(hook).catch((e) => console.error("Attention Lab: start-up step failed:", e));
    }
    chain.then(() => {
      resolveReady();
      loadExporter();
    });
  }

  // The exporter. The build with every mode exports from inside (al_export_text). The first-load
  // build leaves scene/export out (17 KB of its download) and, once its first frame is drawn, loads
  // attention-lab-export.js/.wasm (src/app/web_exporter.cpp): the same exporters as a module of their
  // own, given the app's scene as scene JSON — the same text, byte for byte. `exportReady` resolves
  // when exportText can be called.
  let exporter = null; // the exporter module, once loaded
  let resolveExportReady;
  let rejectExportReady;
  const exportReady = new Promise((resolve, reject) => {
    resolveExportReady = resolve;
    rejectExportReady = reject;
  });
  exportReady.catch(() => {}); // reported where it is awaited (share.js) or by exportText
  let exporterError = null;
  const appExports = () => typeof module()._al_export_text === "function";
  function loadExporter() {
    if (appExports()) {
      resolveExportReady();
      return;
    }
    const failed = (what) => {
      exporterError = new Error("exportText: the exporter could not be loaded (" + what + ")");
      rejectExportReady(exporterError);
    };
    const script = document.createElement("script");
    script.src = "attention-lab-export.js";
    script.async = true;
    script.onerror = () => failed("attention-lab-export.js");
    script.onload = () => {
      if (typeof window.attentionLabExporter !== "function") return failed("attention-lab-export.js defines no exporter");
      window.attentionLabExporter({ onAbort: (what) => failed(String(what)) }).then((m) => {
        exporter = m;
        resolveExportReady();
      }, (e) => failed(String(e && e.message ? e.message : e)));
    };
    document.head.appendChild(script);
  }
  function exportText(kind, stage) {
    let reply;
    if (appExports()) {
      reply = callJson("al_export_text", String(kind), String(stage));
    } else {
      if (!exporter) {
        throw exporterError || new Error("exportText: the exporter (attention-lab-export.wasm) is still loading: " +
          "await attentionLab.exportReady first");
      }
      reply = JSON.parse(callIn(exporter, "al_export_scene", [callText("al_share_scene_json"), String(kind), String(stage)]));
    }
    if (!reply.ok) throw new Error(reply.error);
    return reply.text;
  }

  window.attentionLab = {
    ready,
    getState(options = {}) {
      return callJson("al_get_state", options && options.squareStages ? 1 : 0);
    },
    getMatrix(stage, head = -1) {
      const h = Number(head);
      if (!Number.isInteger(h) || Math.abs(h) > 1000) throw new Error("getMatrix: head " + String(head) + " is not a head");
      const reply = callJson("al_get_matrix", String(stage), h);
      if (!reply.ok) throw new Error(reply.error);
      // The numbers sit in the wasm memory until the next call: copy them out now.
      const data = new Float64Array(module().HEAPF64.buffer, reply.ptr, reply.rows * reply.cols).slice();
      return { rows: reply.rows, cols: reply.cols, data };
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
    checkResult() {
      return callJson("al_check_result");
    },
    getLanguage() {
      return callJson("al_get_state", 0).ui.language;
    },
    getStep() {
      return modeGet("walk");
    },
    setStep(index) {
      const i = Number(index);
      if (!Number.isInteger(i) || Math.abs(i) > 1000) return { ok: false, error: "step: " + String(index) + " is not a step of this walk" };
      return modeCall("walk", "set", i);
    },
    getQuiz() {
      return modeGet("walk", "getQuiz");
    },
    getTraining() {
      return modeGet("train");
    },
    getCircuits() {
      return modeGet("circuits");
    },
    getModel(full) {
      return modeGet("model", "get", full ? "full" : "");
    },
    circuitsExport(kind) {
      const reply = modeCall("circuits", "getExport", String(kind));
      if (!reply.ok) throw new Error(reply.error);
      return reply.text;
    },
    openQuiz(question) {
      const q = Number(question);
      if (!Number.isInteger(q) || Math.abs(q) > 1000) return { ok: false, error: "quiz: " + String(question) + " is not a question" };
      return modeCall("walk", "openQuiz", q);
    },
    exportReady,
    exportText(kind, stage = "weights") {
      return exportText(kind, stage);
    },
  };

  // For the page's own scripts (see the header).
  Object.assign(window.attentionLab, {
    _callText: callText,
    _callJson: callJson,
    _onStarted: (hook) => onStarted.push(hook),
    _started: started,
    _beforeReady: (hook) => beforeReady.push(hook),
    _firstFrameDrawn: firstFrameDrawn,
    _fail: rejectReady,
  });
})();
