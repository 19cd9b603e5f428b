// boot.js — starts Attention Lab: checks WebGL2, downloads and compiles the wasm at once (streaming) with a progress bar,
// forwards touch to the app as mouse input, and recovers from a lost WebGL context.
"use strict";

(function () {
  const canvas = document.getElementById("canvas");
  const overlay = document.getElementById("overlay");
  const card = document.getElementById("card");
  const title = document.getElementById("title");
  const statusLine = document.getElementById("status");
  const progress = document.getElementById("progress");
  const api = window.attentionLab;
  // The single-file build (scripts/dist) carries the module in the page itself.
  const embedded = window.attentionLabEmbedded;

  function showStatus(text, fraction) {
    statusLine.textContent = text;
    if (fraction !== undefined) progress.style.width = Math.round(Math.max(0, Math.min(1, fraction)) * 100) + "%";
  }
  function showError(heading, text) {
    card.classList.add("error");
    title.textContent = heading;
    statusLine.textContent = text;
    overlay.classList.remove("hidden", "translucent");
  }
  function fail(heading, text) {
    showError(heading, text);
    api._fail(new Error(heading + ": " + text));
  }
  const kb = (bytes) => Math.round(bytes / 1024) + " KB";

  // --- 1. WebGL2 or a clear message --------------------------------------------------------------
  const probe = document.createElement("canvas").getContext("webgl2");
  if (!probe) {
    fail(
      "WebGL2 is not available",
      "Attention Lab draws with WebGL2, which this browser has turned off or does not support. " +
        "Try a current Firefox, Chrome, Edge or Safari, and check that hardware acceleration is enabled.",
    );
    return;
  }
  const lose = probe.getExtension("WEBGL_lose_context");
  if (lose) lose.loseContext(); // free the probe's context at once

  // --- 2. Touch → mouse: tap and drag with a finger ----------------------------------------------
  // Emscripten's GLFW turns touches into button presses without moving the cursor first, so
  // the page translates the primary touch into mousemove/mousedown/mouseup on the canvas itself
  // and keeps the raw touch events from the canvas (capture phase on window runs first).
  let touchId = null;
  // Two fingers that land on a Scores or Weights grid pinch-zoom that grid about their midpoint
  // (as the mouse wheel does: one notch = 100 px of deltaY = ×1.25); elsewhere two fingers are the
  // browser's own pinch zoom of the page. `pinch` holds the fingers' last distance while it runs.
  let pinch = null;
  const kWheelZoomStep = 1.25; // src/ui/widgets/grid_view.hpp
  function twoFingers(event) {
    const [a, b] = event.touches;
    const x = (a.clientX + b.clientX) / 2, y = (a.clientY + b.clientY) / 2;
    return { clientX: x, clientY: y, screenX: x, screenY: y, dist: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) };
  }
  function onPinch(event) {
    const f = twoFingers(event);
    if (pinch === null) {
      const r = canvas.getBoundingClientRect();
      if (event.type !== "touchstart" || !(window.Module && Module._al_grid_at &&
          Module._al_grid_at((f.clientX - r.left) * (canvas.width / r.width),
                             (f.clientY - r.top) * (canvas.height / r.height)))) return false;
      pinch = { dist: f.dist };
      mouse("mousemove", f, 0); // the zoom is about the midpoint
    } else if (event.type === "touchmove" && f.dist > 0 && pinch.dist > 0) {
      const notches = Math.log(f.dist / pinch.dist) / Math.log(kWheelZoomStep);
      if (Math.abs(notches) >= 0.02) {
        mouse("mousemove", f, 0);
        canvas.dispatchEvent(new WheelEvent("wheel", {
          bubbles: true, cancelable: true, view: window, clientX: f.clientX, clientY: f.clientY,
          deltaMode: 0, deltaY: -100 * notches,
        }));
        pinch.dist = f.dist;
      }
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }
  function mouse(type, touch, buttons = type === "mouseup" ? 0 : 1) {
    const init = {
      bubbles: true,
      cancelable: true,
      view: window,
      clientX: touch.clientX,
      clientY: touch.clientY,
      screenX: touch.screenX,
      screenY: touch.screenY,
      button: 0,
      buttons,
    };
    canvas.dispatchEvent(new MouseEvent(type, init));
  }
  function onTouch(event) {
    if (event.target !== canvas) return;
    if (event.touches.length > 1) {
      // Two fingers: the browser's pinch zoom (the viewport allows it; the app re-renders sharp at
      // the pinch scale, see web_platform.cpp). The drag the first finger began ends here.
      if (touchId !== null) {
        const first = Array.from(event.touches).find((t) => t.identifier === touchId);
        if (first) mouse("mouseup", first);
        touchId = null;
      }
      onPinch(event);
      return;
    }
    event.preventDefault(); // one finger: no scrolling or emulated mouse events
    event.stopPropagation();
    if (pinch !== null) {
      // A finger of a grid pinch lifted: the other one does not start a drag; with the last one
      // the app's pointer leaves the canvas (no tooltip stays where the fingers were).
      if (event.touches.length === 0) {
        pinch = null;
        if (window.Module && Module._al_touch_lifted) Module._al_touch_lifted();
      }
      return;
    }
    for (const touch of event.changedTouches) {
      if (event.type === "touchstart" && touchId === null) {
        touchId = touch.identifier;
        mouse("mousemove", touch); // the cursor goes to the finger before the press
        mouse("mousedown", touch);
      } else if (touch.identifier === touchId) {
        if (event.type === "touchmove") {
          mouse("mousemove", touch);
        } else {
          mouse("mouseup", touch);
          touchId = null;
          // A finger does not hover: once the release is handled the app moves its mouse off the
          // canvas, so no highlight or tooltip stays where the finger was.
          if (window.Module && Module._al_touch_lifted) Module._al_touch_lifted();
        }
      }
    }
  }
  for (const type of ["touchstart", "touchmove", "touchend", "touchcancel"]) {
    window.addEventListener(type, onTouch, { capture: true, passive: false });
  }
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());

  // --- 3. The look: follow the system's colour preference; Ctrl + / Ctrl − / Ctrl 0 are the app's
  // zoom (src/app/main.cpp), not the browser's, while the app has the keyboard (the browser's own
  // zoom from its menu or a pinch still works: the app follows devicePixelRatio).
  for (const query of ["(prefers-color-scheme: light)", "(prefers-contrast: more)"]) {
    const list = window.matchMedia ? window.matchMedia(query) : null;
    if (list && list.addEventListener) {
      list.addEventListener("change", () => {
        if (window.Module && Module._al_system_theme_changed) Module._al_system_theme_changed();
      });
    }
  }
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", () => {
      if (window.Module && Module._al_request_frame) Module._al_request_frame();
    });
  }
  window.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    if (!["+", "=", "-", "_", "0"].includes(event.key)) return;
    const target = event.target;
    if (target && target !== document.body && target !== canvas && target !== document.documentElement) return;
    event.preventDefault();
  });

  // --- 4. Lost WebGL context: wait for the browser to restore it, then rebuild GL resources -----
  canvas.addEventListener("webglcontextlost", (event) => {
    event.preventDefault(); // allows the browser to restore the context
    if (window.Module && Module._al_gl_context_lost) Module._al_gl_context_lost();
    card.classList.remove("error");
    title.textContent = "Attention Lab";
    showStatus("The graphics context was lost. Restoring…");
    overlay.classList.add("translucent");
    overlay.classList.remove("hidden");
  });
  canvas.addEventListener("webglcontextrestored", () => {
    if (window.Module && Module._al_gl_context_restored) Module._al_gl_context_restored();
    overlay.classList.add("hidden");
  });

  // --- 5. Download and start the wasm module with progress --------------------------------------
  async function fetchWithProgress(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    const total = Number(response.headers.get("Content-Length")) || 0;
    if (!response.body || !response.body.getReader) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      showStatus(
        total ? "Downloading " + kb(received) + " of " + kb(total) : "Downloading " + kb(received),
        total ? 0.9 * (received / total) : 0.5,
      );
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  }

  // Streaming compilation, begun at once: the browser compiles the wasm while it downloads, and
  // while attention-lab.js (Emscripten's glue, which asks for the module) loads beside it. The bytes
  // pass through a counting stream for the progress bar; the Response is made here with
  // application/wasm, so a host serving another type still streams.
  async function compileStreaming(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    const total = Number(response.headers.get("Content-Length")) || 0;
    let received = 0;
    const counted = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        received += chunk.length;
        showStatus(
          total ? "Downloading " + kb(received) + " of " + kb(total) : "Downloading " + kb(received),
          total ? 0.9 * (received / total) : 0.5,
        );
        controller.enqueue(chunk);
      },
    }));
    const module = await WebAssembly.compileStreaming(new Response(counted, { headers: { "Content-Type": "application/wasm" } }));
    showStatus("Compiling…", 0.95);
    return module;
  }
  const canStream = !embedded && typeof WebAssembly.compileStreaming === "function" &&
    typeof TransformStream === "function" && typeof ReadableStream === "function" &&
    typeof ReadableStream.prototype.pipeThrough === "function";
  // Which build of the app: the first load holds Explore and Walk; the other modes are a second
  // build with every mode, loaded on first use — by a link that asks for one of them, or by a tab of
  // the first-load build (web/share.js reloads the page; the link's test is share.js's, loaded before
  // this script). The single-file copy carries the build with every mode.
  const stem = !embedded && window.attentionLabShare.startsFullBuild ? "attention-lab-full" : "attention-lab";
  const compiling = canStream ? compileStreaming(stem + ".wasm") : null;
  if (compiling) compiling.catch(() => {}); // reported by instantiateWasm below

  window.Module = {
    canvas,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    instantiateWasm(imports, receiveInstance) {
      (compiling ? compiling.then((module) => WebAssembly.instantiate(module, imports).then((instance) => ({ instance, module })))
        : (embedded ? Promise.resolve(embedded.wasm()) : fetchWithProgress(stem + ".wasm"))
          .then((bytes) => {
            showStatus("Compiling…", 0.95);
            return WebAssembly.instantiate(bytes, imports);
          }))
        .then((result) => {
          showStatus("Starting…", 1);
          performance.mark("attention-lab:compiled"); // for the first-frame breakdown (tests/bench)
          receiveInstance(result.instance, result.module);
        })
        .catch((error) => {
          console.error(error);
          fail("Attention Lab could not start", String(error && error.message ? error.message : error));
        });
      return {}; // asynchronous instantiation
    },
    onStarted() {
      api._started();
    },
    onFirstFrame() {
      performance.mark("attention-lab:first-frame");
      overlay.classList.add("hidden");
      api._firstFrameDrawn();
    },
    onAbort(what) {
      fail("Attention Lab stopped", String(what));
    },
  };

  if (!compiling) showStatus("Downloading…", 0);
  const script = document.createElement("script");
  script.src = embedded ? embedded.scriptUrl() : stem + ".js";
  script.async = true;
  script.onerror = () => fail("Attention Lab could not start", stem + ".js could not be loaded.");
  document.body.appendChild(script);
})();
