// share.js — the whole scene in the address bar, demos, files and images.
//
//   #s=<base64url scene JSON>[&hide=panel,…][&view=panel]    a scene, exactly (every number)
//   #demo=NAME[&hide=…][&view=…]                               demos/NAME.json (web/demos/)
//   panels: controls, vectors, scores, weights, mask, output, formula
//
// On start and on every `hashchange` (Back/Forward, a pasted link, a gallery click) the fragment is
// parsed by the wasm (src/scene/link.cpp via src/app/web_share.cpp) and applied whole or not at
// all. At start that happens before the first frame when the link's demo (fetched as the page
// loads) has arrived, else after it, before attentionLab.ready resolves. A problem shows in a
// dismissible banner and in attentionLab.lastError(); the scene on screen stays (at start: the
// default example).
//
// Edits follow into the address bar with history.replaceState, 300 ms after the last change, so the
// address is always shareable and Back/Forward are not flooded with one entry per slider step.
//
// Spanish and German are data files, lang/es.json and lang/de.json (src/ui/text/i18n.hpp), and for
// the build with every mode also lang/es-full.json and lang/de-full.json: fetched
// when a frame first asks for the language (a link's lang=, the View menu, the browser's language),
// installed by al_install_language; the one the opening link or the browser names is fetched as the
// page loads, beside the wasm, and installed before the first frame if it has arrived (else before
// attentionLab.ready resolves). A file that does not load leaves the words as they were and says
// why (banner, lastError()).
//
// Adds to window.attentionLab:
//   link()       the current shareable URL (page address + #s=…), or null if the scene is too
//                large for a link (lastError() then says so)
//   lastError()  the problem with the last link, demo or file opened, or null
"use strict";

(function () {
  const api = window.attentionLab;
  const embedded = window.attentionLabEmbedded; // the single-file build carries its demos
  const FOLLOW_DELAY_MS = 300;
  const MAX_FILE_BYTES = 8 << 20; // scene files: the scene parser's limit (8 MiB)

  let started = false;
  let lastError = null;
  let shownScene = null; // the s= form of the scene the address bar stands for
  // The fragment the page last read from or wrote to the address bar. When the address holds another
  // one, a navigation is on its way (location.hash set, a link followed): its hashchange event loads it.
  let addressFragment = null;
  let followTimer = 0;
  let demoIndex = null; // [{name, title, description}] from demos/index.json, then with index-full.json
  // The single file's index holds both lists; the site's second one arrives after the first frame.
  let fullIndexAdded = !!(embedded && embedded.demos);
  let fullIndexLoad = null;
  let reloading = false; // this page is being replaced by the build with every mode
  let loading = Promise.resolve(); // fragments apply one after the other

  // ---- calls into the wasm: exported C functions (src/app/web_share.cpp) returning text -------
  const call = api._callJson;
  const callText = api._callText;

  // ---- the page's parts: banner, toast, link field, file input ---------------------------------
  function element(tag, className, parent, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    (parent || document.body).appendChild(node);
    return node;
  }

  const banner = element("div", "share-banner hidden");
  banner.id = "share-banner";
  banner.setAttribute("role", "alert");
  const bannerBody = element("span", "share-banner-text", banner);
  const bannerHeading = element("strong", "share-banner-heading", bannerBody);
  const bannerText = element("span", "", bannerBody);
  const bannerClose = element("button", "share-close", banner, "×");
  bannerClose.type = "button";
  bannerClose.title = "Dismiss";
  bannerClose.setAttribute("aria-label", "Dismiss");
  bannerClose.addEventListener("click", () => banner.classList.add("hidden"));

  const toast = element("div", "share-toast hidden");
  toast.id = "share-toast";
  toast.setAttribute("role", "status");
  let toastTimer = 0;

  const linkBox = element("div", "share-linkbox hidden");
  linkBox.id = "share-linkbox";
  element("div", "share-linkbox-title", linkBox, "Copy this link (Ctrl+C / ⌘C): the browser did not allow the clipboard.");
  const linkTitle = linkBox.lastChild;
  const linkField = element("input", "share-linkfield", linkBox);
  linkField.id = "share-linkfield";
  linkField.readOnly = true;
  linkField.setAttribute("aria-label", "Link to this scene");
  // The Export menu's fallback: the same box with a multi-line field (an <input> drops newlines).
  const textField = element("textarea", "share-linkfield share-textfield hidden", linkBox);
  textField.id = "share-textfield";
  textField.readOnly = true;
  textField.spellcheck = false;
  textField.wrap = "off"; // code: one line per line, scrolled sideways
  textField.setAttribute("aria-label", "Exported text");
  // Selected backward (the caret at the start) so that the field shows the text's first lines, not
  // its end (a textarea scrolled to its end also left a ghost of itself over the canvas in Chromium).
  const selectText = () => {
    textField.setSelectionRange(0, textField.value.length, "backward");
    textField.scrollTop = 0;
  };
  textField.addEventListener("focus", selectText);
  const linkClose = element("button", "share-close", linkBox, "×");
  linkClose.type = "button";
  linkClose.title = "Close";
  linkClose.setAttribute("aria-label", "Close");
  linkClose.addEventListener("click", () => linkBox.classList.add("hidden"));
  linkField.addEventListener("focus", () => linkField.select());

  const fileInput = element("input", "share-file");
  fileInput.type = "file";
  fileInput.accept = ".json,application/json";
  fileInput.addEventListener("change", () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (file) importFile(file);
  });

  // `heading` says what failed ("Could not open this link"); lastError() is the message alone.
  function showError(message, heading = "Could not open this link") {
    lastError = String(message);
    bannerHeading.textContent = heading + ": ";
    bannerText.textContent = lastError;
    banner.classList.remove("hidden");
    console.warn("Attention Lab: " + lastError);
  }
  function clearError() {
    lastError = null;
    banner.classList.add("hidden");
  }
  function showToast(text) {
    toast.textContent = text;
    toast.classList.remove("hidden");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => toast.classList.add("hidden"), 2200);
  }

  // ---- links ------------------------------------------------------------------------------------
  // The fragment without '#'. Browsers may percent-encode characters of a pasted link; decode when
  // the result is well-formed, else pass it on as is so the parser names the odd character.
  function currentFragment() {
    const raw = location.hash.replace(/^#/, "");
    try {
      return decodeURIComponent(raw);
    } catch (e) {
      return raw;
    }
  }

  function pageAddress() {
    return location.href.split("#")[0];
  }

  // The s= form of the current scene and panels, or null (too large: the reason is returned too).
  function currentLink() {
    return call("al_share_link");
  }

  // The demo index in two lists (src/app/split_demo_index.py): demos/index.json, the scenes the first
  // load opens, fetched as the page loads, beside the wasm; demos/index-full.json, the scenes of the
  // build with every mode (variant keys), appended after the first frame or when a link names one.
  const fetchIndexText = async (file = "index.json") => {
    const response = await fetch("demos/" + file, { credentials: "same-origin" });
    if (!response.ok) throw new Error("demos/" + file + ": HTTP " + response.status);
    return response.text();
  };
  let indexText = embedded && embedded.demos ? null : fetchIndexText();
  let indexArrived = embedded && embedded.demos ? JSON.stringify(embedded.demos.index) : null; // its text, once here
  if (indexText) indexText.then((text) => (indexArrived = text), () => {}); // a failure is reported when the index is read

  function installDemoIndex(text) {
    const reply = call("al_share_set_demos", text);
    if (!reply.ok) throw new Error(reply.error);
    demoIndex = JSON.parse(text);
    return demoIndex;
  }
  // The first list (what the first load opens); loadDemoIndex adds the second.
  async function loadFirstIndex() {
    if (demoIndex) return;
    if (indexArrived !== null) return installDemoIndex(indexArrived);
    // The fetch begun at load; after a failure, a new one.
    const pending = indexText || fetchIndexText();
    indexText = null;
    installDemoIndex(await pending);
  }
  async function loadDemoIndex() {
    await loadFirstIndex();
    if (!fullIndexAdded) {
      fullIndexLoad = fullIndexLoad || fetchIndexText("index-full.json").then((text) => {
        if (!fullIndexAdded) installDemoIndex(JSON.stringify(demoIndex.concat(JSON.parse(text))));
        fullIndexAdded = true;
      }).finally(() => (fullIndexLoad = null));
      await fullIndexLoad;
    }
    return demoIndex;
  }

  // The text of demos/NAME.json; throws an Error naming the problem.
  async function demoText(name) {
    let index = null;
    try {
      index = await loadDemoIndex();
    } catch (e) {
      console.warn("Attention Lab: " + e.message);
    }
    if (index && !index.some((d) => d.name === name)) {
      throw new Error("demo: no demo named '" + name + "' (demos: " + index.map((d) => d.name).join(", ") + ")");
    }
    if (embedded && embedded.demos) {
      const scene = embedded.demos.scenes[name];
      if (!scene) throw new Error("demo: no demo named '" + name + "'");
      return JSON.stringify(scene);
    }
    if (name === openingDemo.name && openingDemo.fetch) { // fetched as the page loaded: once
      const pending = openingDemo.fetch;
      openingDemo.fetch = null;
      return pending;
    }
    return fetchDemoText(name);
  }
  async function fetchDemoText(name) {
    const response = await fetch("demos/" + name + ".json", { credentials: "same-origin" });
    if (!response.ok) throw new Error("demo '" + name + "': demos/" + name + ".json: HTTP " + response.status);
    return response.text();
  }

  // ---- the modes loaded on first use ------------------------------------------------------------
  // The first-load build (attention-lab.wasm) holds Explore and Walk; Heads, Key space,
  // FlashAttention, Decode, Train, Circuits and Model are in the build with every mode (attention-lab-full.wasm,
  // src/ui/modes/modes.hpp). A link asks for one by mode=NAME, view=flash|decode (another spelling
  // of the mode), a Circuits model's state (circuits=…) or the Model mode's (lm=…). web/boot.js (which runs after this script)
  // starts the build attentionLabShare.startsFullBuild names.
  const kFullBuildModes = ["heads", "keyspace", "flash", "decode", "train", "circuits", "model"];
  const FULL_BUILD_ONCE = "attention-lab:full-build";
  function wantsFullBuild(hash) {
    // A tab of the first-load build asked for the other build (openMode) and reloaded: once.
    let asked = false;
    try {
      asked = Boolean(sessionStorage.getItem(FULL_BUILD_ONCE));
      sessionStorage.removeItem(FULL_BUILD_ONCE);
    } catch (e) {
      // storage unavailable (a sandboxed frame): the link alone decides
    }
    const modes = kFullBuildModes.join("|");
    return asked || new RegExp(`(?:^|[#&])(?:mode=(?:${modes})(?:&|$)|view=(?:flash|decode)(?:&|$)|circuits=|lm=)`).test(hash);
  }
  // Which build this page starts, decided once as the page loads (wantsFullBuild reads and clears
  // the tab's one-time request): web/boot.js loads that build, and the languages' files follow it.
  // The single-file copy carries the build with every mode when the site had it (scripts/single-file.mjs).
  const startsFullBuild = embedded ? Boolean(embedded.fullBuild) : wantsFullBuild(location.hash);

  // ---- languages on demand: lang/CODE.json (+ lang/CODE-full.json) ------------------------------
  // A language is two files (src/ui/text/i18n.hpp): lang/CODE.json, the first load's texts, and
  // lang/CODE-full.json, the texts of the modes only the build with every mode has, which only that
  // build fetches. Its full part is installed before the first part, which puts the language on
  // screen: its words never show half translated.
  const languageFiles = (code) => (startsFullBuild ? [code + "-full", code] : [code]);
  const languageFetches = {}; // file stem → Promise of the file's text (one fetch per file)
  const languagesArrived = {}; // code → the texts of its files, once all are here
  const languageLoads = {}; // code → Promise, settled once installed or refused
  function fileText(stem) {
    if (embedded && embedded.languages) {
      const data = embedded.languages[stem];
      return data ? Promise.resolve(JSON.stringify(data)) : Promise.reject(new Error("lang/" + stem + ".json is not in this page"));
    }
    if (!languageFetches[stem]) {
      languageFetches[stem] = fetch("lang/" + stem + ".json", { credentials: "same-origin" }).then((response) => {
        if (!response.ok) throw new Error("lang/" + stem + ".json: HTTP " + response.status);
        return response.text();
      });
      languageFetches[stem].catch(() => {}); // reported when installed
    }
    return languageFetches[stem];
  }
  function languageText(code) {
    const texts = Promise.all(languageFiles(code).map(fileText));
    texts.then((arrived) => (languagesArrived[code] = arrived), () => {});
    return texts;
  }
  function installLanguage(texts) {
    for (const text of texts) {
      const reply = call("al_install_language", text);
      if (!reply.ok) throw new Error(reply.error);
    }
  }
  function loadLanguage(code) {
    if (!languageLoads[code]) {
      languageLoads[code] = languageText(code)
        .then(installLanguage)
        .catch((e) => showError(e.message, "Could not load the language"));
    }
    return languageLoads[code];
  }
  // The language the opening link or the browser names (the app decides the same way: lang= wins),
  // fetched now, beside the wasm.
  const LANGUAGE_FILES = ["es", "de"]; // lang/CODE.json: every language but English (i18n.hpp)
  {
    const linked = /(?:^|[#&])lang=([a-z]+)/.exec(location.hash);
    const browser = /^([a-z]+)(?:[-_]|$)/i.exec(navigator.language || "");
    const code = linked ? linked[1] : browser ? browser[1].toLowerCase() : "en";
    if (LANGUAGE_FILES.includes(code) && !(embedded && embedded.languages)) languageText(code);
  }

  // The demo the opening link names (demo=NAME) is fetched as the page loads too, after the
  // language file: if it has arrived when the app starts, the link is applied before the first frame.
  const openingDemo = { name: null, text: null, fetch: null }; // fetch: its Promise, until used
  {
    const named = /(?:^|[#&])demo=([a-z0-9_-]+)/.exec(location.hash);
    if (named && !(embedded && embedded.demos)) {
      openingDemo.name = named[1];
      openingDemo.fetch = fetchDemoText(named[1]);
      openingDemo.fetch.then((text) => (openingDemo.text = text), () => {}); // a failure is reported by demoText
    }
  }

  // The scene text of a link's demo if it is here now ("" for a link without one), else null.
  function arrivedDemoText(name) {
    if (!name) return "";
    if (embedded && embedded.demos) return name in embedded.demos.scenes ? JSON.stringify(embedded.demos.scenes[name]) : null;
    return name === openingDemo.name ? openingDemo.text : null;
  }

  // Apply a fragment whole, or show why not (the current scene stays).
  async function applyFragment(fragment, resetIfEmpty) {
    const parsed = call("al_share_parse", fragment);
    if (!parsed.ok) return startFullBuildFor(parsed.error, null) || showError(parsed.error);
    let text = "";
    if (parsed.demo) {
      try {
        text = await demoText(parsed.demo);
      } catch (e) {
        return showError(e.message);
      }
    }
    loadFragment(fragment, text, resetIfEmpty);
  }
  // `text`: the demo's scene for a demo= link, else "".
  function loadFragment(fragment, text, resetIfEmpty) {
    const reply = call("al_share_load", fragment, text, resetIfEmpty ? 1 : 0);
    // A demo with a variant key (the gallery's variant demos) opens in the build with every mode.
    if (!reply.ok) return startFullBuildFor(reply.error, null) || showError(reply.error);
    clearError();
    // The address bar keeps what was opened (e.g. #demo=NAME) until the scene is edited.
    const made = currentLink();
    shownScene = made.ok ? made.fragment : null;
  }

  let linksLoading = 0; // links queued and not yet loaded: the address bar is theirs meanwhile
  function queueFragment(fragment, resetIfEmpty) {
    linksLoading += 1;
    loading = loading.then(() => applyFragment(fragment, resetIfEmpty)).catch((e) => showError(e.message))
      .finally(() => (linksLoading -= 1));
    return loading;
  }

  // Edits → address bar, FOLLOW_DELAY_MS after the last change (src/ui/frame/sharing.cpp calls
  // sceneChanged once per recompute).
  function followEdits() {
    followTimer = 0;
    if (!started) return;
    if (currentFragment() !== addressFragment || linksLoading > 0) {
      // A link is on its way: the address changed and its hashchange event has not been handled yet
      // (under load this timer can run first), or it is still loading (a demo's scene is fetched).
      // Writing the scene now would replace that link with the scene it is about to replace. Look
      // again later: once it is loaded, the address stands for it and there is nothing to write.
      addressFragment = currentFragment();
      followTimer = setTimeout(followEdits, FOLLOW_DELAY_MS);
      return;
    }
    const made = currentLink();
    const fragment = made.ok ? made.fragment : null;
    if (fragment === shownScene) return;
    shownScene = fragment;
    // A scene too large for a link has no fragment: the bare address does not pretend otherwise.
    history.replaceState(history.state, "", fragment ? "#" + fragment : pageAddress());
    addressFragment = currentFragment();
  }

  // ---- files and images -------------------------------------------------------------------------
  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = element("a", "share-file");
    a.href = url;
    a.download = name;
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  function fileStem() {
    const demo = /(?:^|&)demo=([a-z0-9_-]+)/.exec(currentFragment());
    return demo && shownScene === currentLink().fragment ? demo[1] : "attention-lab-scene";
  }

  function exportJson() {
    const text = callText("al_share_scene_json");
    download(new Blob([text + "\n"], { type: "application/json" }), fileStem() + ".json");
  }

  async function importFile(file) {
    if (!/\.json$/i.test(file.name) && file.type !== "application/json") {
      return showError(file.name + ": not a .json scene file", "Could not open the file");
    }
    if (file.size > MAX_FILE_BYTES) {
      return showError(file.name + ": " + file.size + " bytes is larger than the 8 MiB limit", "Could not open the file");
    }
    let text;
    try {
      text = await file.text();
    } catch (e) {
      return showError(file.name + ": could not be read (" + e.message + ")", "Could not open the file");
    }
    const reply = call("al_share_import", text);
    if (!reply.ok) {
      return startFullBuildFor(reply.error, text) || showError(file.name + ": " + reply.error, "Could not open the file");
    }
    clearError();
    showToast("Opened " + file.name);
  }

  // The canvas is read right after a frame is drawn (in Emscripten's postMainLoop hook, the same
  // task as the frame): WebGL keeps the drawing buffer only until the frame is composited.
  function exportPng() {
    const m = window.Module;
    const canvas = m.canvas;
    const before = api.frameStats().frames;
    m.postMainLoop = () => {
      if (api.frameStats().frames === before) return; // this iteration drew nothing
      m.postMainLoop = undefined;
      canvas.toBlob((blob) => {
        if (blob) download(blob, fileStem() + ".png");
        else showError("Export PNG: the browser could not encode the canvas", "Could not save the image");
      }, "image/png");
    };
    m._al_request_frame();
  }

  async function copyLink() {
    const url = api.link();
    if (!url) return;
    try {
      if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error("no clipboard API");
      await navigator.clipboard.writeText(url);
      linkBox.classList.add("hidden");
      showToast("Link copied");
    } catch (e) {
      // Refused (permissions, an insecure context, an iframe without clipboard-write): show the
      // link in a read-only field, selected, for Ctrl+C.
      linkTitle.textContent = "Copy this link (Ctrl+C / ⌘C): the browser did not allow the clipboard.";
      textField.classList.add("hidden");
      linkField.classList.remove("hidden");
      linkField.value = url;
      linkBox.classList.remove("hidden");
      linkField.focus();
      linkField.select();
    }
  }

  // ---- the Export menu: copy NumPy / PyTorch / LaTeX text, download an SVG ---------------------
  const EXPORT_NAMES = { numpy: "NumPy script", pytorch: "PyTorch script", latex: "LaTeX matrix" };
  async function exportText(kind, stage) {
    await api.exportReady; // the first-load build's exporter loads after the first frame
    const text = api.exportText(kind, stage);
    if (kind === "svg") {
      download(new Blob([text], { type: "image/svg+xml" }), fileStem() + "-" + stage + ".svg");
      return;
    }
    const what = EXPORT_NAMES[kind] + (kind === "latex" ? " (" + stage + ")" : "");
    try {
      if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error("no clipboard API");
      await navigator.clipboard.writeText(text);
      linkBox.classList.add("hidden");
      showToast(what + " copied");
    } catch (e) {
      // As Copy link: the same box, with the text selected for Ctrl+C.
      linkTitle.textContent = "Copy this " + what + " (Ctrl+C / ⌘C): the browser did not allow the clipboard.";
      linkField.classList.add("hidden");
      textField.classList.remove("hidden");
      textField.value = text;
      linkBox.classList.remove("hidden");
      textField.focus();
      selectText();
    }
  }

  // ---- drag and drop a .json onto the page ------------------------------------------------------
  const hasFiles = (event) => event.dataTransfer && Array.from(event.dataTransfer.types || []).includes("Files");
  let dragDepth = 0;
  window.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth += 1;
    document.body.classList.add("share-dragging");
  });
  window.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  window.addEventListener("dragleave", (event) => {
    if (!hasFiles(event)) return;
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) document.body.classList.remove("share-dragging");
  });
  window.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth = 0;
    document.body.classList.remove("share-dragging");
    const file = event.dataTransfer.files[0];
    if (file && started) importFile(file);
  });

  // ---- the Share buttons and the gallery (called from the wasm, web_share.cpp) ------------------
  window.attentionLabShare = {
    // The modes beyond Explore and Walk are a second build of the app, loaded on first use
    // (web/boot.js); the single-file copy is that build.
    fullBuildAvailable: !embedded,
    // Which build this page starts: web/boot.js loads it.
    startsFullBuild,
    openMode(name) {
      try {
        openMode(name);
      } catch (e) {
        showError("open " + name + ": " + e.message, "Could not open the mode");
      }
    },
    action(what) {
      try {
        if (what === "copy-link") copyLink();
        else if (what === "export-json") exportJson();
        else if (what === "import-json") fileInput.click();
        else if (what === "export-png") exportPng();
      } catch (e) {
        showError(what + ": " + e.message, "Could not do that");
      }
    },
    saveText(name, text) {
      download(new Blob([text], { type: name.endsWith(".json") ? "application/json" : "text/x-python" }), name);
    },
    exportText(kind, stage) {
      exportText(kind, stage).catch((e) => showError("Export " + kind + ": " + e.message, "Could not export"));
    },
    openDemo(name) {
      // A gallery click is a navigation: it gets a history entry, and hashchange loads it.
      location.hash = "demo=" + name;
    },
    loadLanguage(code) {
      loadLanguage(code);
    },
    sceneChanged() {
      clearTimeout(followTimer);
      followTimer = setTimeout(followEdits, FOLLOW_DELAY_MS);
      // The Model mode's changes come this way too (its link follows them): its screen-reader tables.
      if (window.attentionLabA11y) window.attentionLabA11y.modelChanged();
    },
  };

  api.link = function () {
    const made = currentLink();
    if (!made.ok) {
      showError(made.error, "No link for this scene");
      return null;
    }
    return pageAddress() + "#" + made.fragment;
  };
  api.lastError = () => lastError;

  window.addEventListener("hashchange", () => {
    if (!started) return;
    addressFragment = currentFragment();
    // A link to a mode the first-load build lacks: start the build with every mode (web/boot.js).
    if (wantsFullBuild(location.hash) && !hasFullBuild()) location.reload();
    else queueFragment(currentFragment(), true);
  });

  // Only the build with every mode exports the Circuits mode's call.
  const hasFullBuild = () => typeof window.Module._al_export_text === "function";

  // A tab of a mode the first-load build lacks: the same scene and view in the address, with
  // mode=NAME, and the page reloaded — boot.js then starts attention-lab-full.wasm. A scene too
  // large for a link goes as its JSON through the tab's sessionStorage, and the new build opens it
  // once (takeCarriedScene).
  const CARRIED_SCENE = "attention-lab:carried-scene";
  function openMode(name) {
    if (hasFullBuild()) return; // this build has every mode (it never asks)
    const made = currentLink();
    const keep = made.ok ? made.fragment.split("&").filter((p) => p && !/^(mode|step)=/.test(p)) : [];
    try {
      if (!made.ok) sessionStorage.setItem(CARRIED_SCENE, callText("al_share_scene_json"));
      sessionStorage.setItem(FULL_BUILD_ONCE, "1");
    } catch (e) {
      console.warn("Attention Lab: the scene could not be kept for the build with every mode: " + e.message);
    }
    history.replaceState(history.state, "", "#" + keep.concat("mode=" + name).join("&"));
    location.reload();
  }
  // A scene using an attention variant (sink_logit, softcap, …): the first-load build does not know
  // those keys ("sink_logit: unknown key …"; src/scene/variant_keys.hpp, kVariantKeyNames — keep the
  // two lists the same). Reload into the full build with the same address (a link) or the file's
  // scene carried over (takeCarriedScene). False when this build has them or cannot ask.
  const kVariantKeys =
    /(?:^|: )(?:sources|X_src|sink_logit|softcap|qk_norm|topk|indexer|topk_block|differential|gate|Wg|linear|mla): unknown key/;
  function startFullBuildFor(error, sceneText) {
    if (!kVariantKeys.test(error) || hasFullBuild() || embedded) return false;
    try {
      if (sceneText) sessionStorage.setItem(CARRIED_SCENE, sceneText);
      sessionStorage.setItem(FULL_BUILD_ONCE, "1");
    } catch (e) {
      return false;
    }
    // A file's scene is carried after the opening link loads: give it one (the default mode).
    if (sceneText) history.replaceState(history.state, "", "#mode=explore");
    reloading = true;
    location.reload();
    return true;
  }
  function takeCarriedScene() {
    let text = null;
    try {
      text = sessionStorage.getItem(CARRIED_SCENE);
      sessionStorage.removeItem(CARRIED_SCENE);
    } catch (e) {
      return; // storage unavailable (a sandboxed frame): nothing was carried
    }
    if (!text) return;
    const reply = call("al_share_import", text);
    if (!reply.ok) showError(reply.error, "Could not keep the scene");
  }

  // Resolves once the app has drawn `count` frames from now (the scene and panels a link set are on
  // screen, and widgetRect() describes them), or after 3 s whatever happens.
  function framesDrawn(count = 2) {
    return new Promise((resolve) => {
      const deadline = performance.now() + 3000;
      const start = api.frameStats().frames;
      window.Module._al_request_frame();
      const check = () => {
        if (api.frameStats().frames >= start + count || performance.now() > deadline) resolve();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
  }

  // ---- start: apply the opening link before attentionLab.ready resolves ------------------------
  // Before the first frame (a hook run once the app is set up): what the page fetched as it loaded
  // — the demo index, the opening link's demo, the language file — is installed if it has arrived,
  // and the opening link applied, so the first frame already shows the linked scene, the Gallery
  // button and the visitor's language. (What arrives later is applied by the hook below.)
  const openingFragment = currentFragment(); // read now, before anything can replace it
  let openedAtStart = false; // the opening link was applied before the first frame
  let changedAfterFirstFrame = false; // does `ready` wait for frames showing a change?
  api._onStarted(() => {
    if (indexArrived !== null) {
      try {
        installDemoIndex(indexArrived);
      } catch (e) {
        console.warn("Attention Lab: gallery unavailable: " + e.message);
      }
    }
    if (openingFragment) {
      const parsed = call("al_share_parse", openingFragment);
      const text = parsed.ok ? arrivedDemoText(parsed.demo) : null;
      // A link that does not parse, or whose demo is not here yet, is left to the hook below.
      if (text !== null) {
        openedAtStart = true;
        loadFragment(openingFragment, text, false);
        takeCarriedScene();
      }
    }
    const code = callText("al_wanted_language");
    if (code !== "en" && languagesArrived[code] !== undefined) {
      languageLoads[code] = Promise.resolve();
      try {
        installLanguage(languagesArrived[code]);
      } catch (e) {
        showError(e.message, "Could not load the language");
      }
    } else if (embedded && embedded.languages && embedded.languages[code]) {
      loadLanguage(code); // the single file carries its languages: installed at once
    }
  });
  // A hook of attentionLab (run after the first frame, before `ready` resolves), so `ready` means
  // "showing what the address asked for". When the first frame already shows it (no link; the
  // index and language installed before it), `ready` resolves at once; otherwise after two frames
  // drawn with the change.
  api._beforeReady(() =>
    Promise.resolve()
      .then(async () => {
        // This page is being replaced by the build with every mode (the opening link's scene has a
        // variant key): `ready` is the new page's to give.
        if (reloading) await new Promise(() => {});
        if (!demoIndex) {
          changedAfterFirstFrame = true; // the Gallery button appears
          try {
            await loadFirstIndex();
          } catch (e) {
            console.warn("Attention Lab: gallery unavailable: " + e.message);
          }
        }
        if (openingFragment && !openedAtStart) {
          changedAfterFirstFrame = true;
          await queueFragment(openingFragment, false);
          takeCarriedScene();
        } else {
          const made = currentLink();
          shownScene = made.ok ? made.fragment : null;
        }
        // The gallery's second list, fetched after the first frame and the opening link (unless that
        // reloads into the other build); `ready` does not wait for it: the screen does not change.
        if (!reloading)
          loadDemoIndex().catch((e) =>
            console.warn("Attention Lab: the gallery's demos of the build with every mode are unavailable: " + e.message));
      })
      .catch((e) => showError(e.message))
      .then(() => {
        // The language on screen: installed before the frames below draw it.
        const code = callText("al_wanted_language");
        if (!code || code === "en" || languageLoads[code]) return languageLoads[code];
        changedAfterFirstFrame = true;
        return loadLanguage(code);
      })
      .then(() => (changedAfterFirstFrame ? framesDrawn() : undefined))
      .finally(() => {
        // From now on edits follow into the address bar and hashchange loads links.
        started = true;
        addressFragment = currentFragment();
        if (currentFragment() !== openingFragment) queueFragment(currentFragment(), true); // changed meanwhile
      }),
  );
})();
