// attention-lab-api.js — window.attentionLab, the page's API for automation and tests.
//
//   ready                 Promise, resolves after the first frame is drawn
//   getState()            {scene: <scene JSON>, result: {Q, K, V, scores, scaled, weights, output, masked_rows, …},
//                          ui: {mode, focusHead, tooltip}}   mode: the screen's mode ("explore"; a link's
//                          mode=NAME); focusHead: the head Scores/Mask/tooltips describe; tooltip: the
//                          last derivation tooltip's text ("" when none). A multi-head scene's result
//                          has heads: [{scores, scaled, weights, output}…], concat, mean weights.
//   setState(scene)       {ok: true} | {ok: false, error: "<field: reason>"} (the state is kept on error)
//   widgetRect(id)        {x, y, w, h} in CSS pixels of the page, as last drawn, or null
//                         ids: Q/i/c K/i/c V/i/c causal scale tokens preset cell/{scores,weights,mask}/i/j
//                         mode/NAME (a mode bar tab; the bar is drawn once there are two modes or more)
//                         heads (the heads control; heads/N each choice), head/t/weights/i/j and
//                         head/average/weights/i/j (a multi-head weights grid's cells), head/t/focus,
//                         Wo/r/c (a W_o cell), Wo/add, Wo/remove
//                         generate gen/pattern gen/n gen/dk gen/dv gen/seed gen/go (Generate… popup)
//                         weights-log (the weights' log colour scale)
//   frameStats()          {frames, lastFrameMs, avgFrameMs, maxFrameMs, p95FrameMs, recomputes,
//                          lastRecomputeMs}  (CPU ms; max and p95 over the last 120 frames)
//
// Each call goes to an exported C function of the wasm module (src/app/page_api.cpp) that
// returns JSON text, through the one call helper below (share.js uses it too).
//
// For the page's other scripts (not part of the API):
//   _callText(name, …args) / _callJson(name, …args)   call an exported C function; string
//                         arguments are copied into wasm memory, numbers passed as they are
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
    const m = module();
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

  // Hooks run after the first frame, in the order registered, before `ready` resolves. A hook that
  // fails is reported on the console; the app is running, so `ready` still resolves.
  const beforeReady = [];
  function firstFrameDrawn() {
    let chain = Promise.resolve();
    for (const hook of beforeReady) {
      chain = chain.then(hook).catch((e) => console.error("Attention Lab: start-up step failed:", e));
    }
    chain.then(() => resolveReady());
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
      return { x: r.x + box.left + window.scrollX, y: r.y + box.top + window.scrollY, w: r.w, h: r.h };
    },
    frameStats() {
      return callJson("al_frame_stats");
    },
  };

  // For the page's own scripts (see the header).
  Object.assign(window.attentionLab, {
    _callText: callText,
    _callJson: callJson,
    _beforeReady: (hook) => beforeReady.push(hook),
    _firstFrameDrawn: firstFrameDrawn,
    _fail: rejectReady,
  });
})();
