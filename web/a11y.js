// a11y.js — what a screen reader can read of the canvas (which it cannot see).
//
//   #a11y-live     an aria-live="polite" region: the keyboard-focused item and its value, as the
//                  app says it ("query 0 component 1: 0.50"; "weight row cat, column sat: 0.284,
//                  highest in row"); src/ui/widgets/keyboard.hpp builds the text, web_platform.cpp sends it
//   #a11y-model    in the Model mode: the model's top 10 next tokens and every head's role, as tables
//                  (getModel(); rebuilt 250 ms after the mode's text, ablations or sampling changed)
//   #a11y-tables   off-screen tables of the current weights (query rows × key columns) and output
//                  (token rows × components) of the first MAX_TOKENS tokens (the caption says when
//                  there are more), rebuilt 250 ms after the result last changed (al_a11y_tables)
//
// Both are visually hidden (.sr-only in style.css) but in the accessibility tree; nothing here
// covers the canvas or takes the keyboard.
"use strict";

(function () {
  const api = window.attentionLab;
  const REBUILD_DELAY_MS = 250;
  // A screen reader browses 64 × 64 cells; a 1024-token table (a million cells) would only take
  // the page seconds to build and lay out after every edit.
  const MAX_TOKENS = 64;

  function element(tag, parent, text) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    (parent || document.body).appendChild(node);
    return node;
  }

  const live = element("div");
  live.id = "a11y-live";
  live.className = "sr-only";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");

  const region = element("section");
  region.id = "a11y-tables";
  region.className = "sr-only";
  region.setAttribute("aria-label", "Current numbers");

  const modelRegion = element("section");
  modelRegion.id = "a11y-model";
  modelRegion.className = "sr-only";
  modelRegion.setAttribute("aria-label", "The language model's numbers");

  const fmt = (v) => (v === null || v === undefined ? "masked" : Number(v).toFixed(3));

  // <table><caption/><thead><tr><th>corner</th><th scope=col>…</th></tr></thead><tbody>…</tbody></table>
  // Returns the caption and the value cells (row by row), so the next result can rewrite their text
  // in place.
  function table(id, caption, corner, columns, rows) {
    const t = element("table", region);
    t.id = id;
    const cells = [];
    const captionNode = element("caption", t, caption);
    const head = element("tr", element("thead", t));
    element("th", head, corner).setAttribute("scope", "col");
    for (const c of columns) element("th", head, c).setAttribute("scope", "col");
    const body = element("tbody", t);
    for (const [label, values] of rows) {
      const tr = element("tr", body);
      element("th", tr, label).setAttribute("scope", "row");
      for (const v of values) cells.push(element("td", tr, fmt(v)));
    }
    return { captionNode, cells };
  }

  // The tables as built, and what their headers say: while the tokens and sizes stay (a drag, a
  // mask click), only the text of the cells that changed is rewritten — rebuilding 8,000 elements
  // after every edit cost the page ~50 ms and a layout.
  let built = null;

  function rewrite(target, caption, rows) {
    if (target.captionNode.textContent !== caption) target.captionNode.textContent = caption;
    let k = 0;
    for (const values of rows) {
      for (const v of values) {
        const text = fmt(v);
        const cell = target.cells[k++];
        if (cell.textContent !== text) cell.textContent = text;
      }
    }
  }

  let timer = 0;
  function rebuild() {
    timer = 0;
    let numbers;
    try {
      numbers = api._callJson("al_a11y_tables", MAX_TOKENS);
    } catch (e) {
      return; // not started yet: the first result will call again
    }
    if (!numbers || numbers.ok === false) return;
    const { tokens, keys, weights, output, n, shown } = numbers; // keys: the columns (cross-attention's sources)
    const part = shown < n ? `; the first ${shown} of ${n} tokens` : "";
    const weightsCaption = "Attention weights: row = query token, column = key token; each row sums to 1" + part;
    const outputCaption = "Output Y = A V: one row per token" + part;
    const columns = output[0] ? output[0].map((_, c) => "y[" + c + "]") : [];
    const headers = JSON.stringify([tokens, keys, columns, weights.map((row) => row.length)]);
    if (built && built.headers === headers) {
      rewrite(built.weights, weightsCaption, weights);
      rewrite(built.output, outputCaption, output);
      return;
    }
    region.replaceChildren();
    built = {
      headers,
      weights: table("a11y-weights", weightsCaption, "query \\ key", keys, weights.map((row, i) => [tokens[i], row])),
      output: table("a11y-output", outputCaption, "token", columns, output.map((row, i) => [tokens[i], row])),
    };
  }

  // The Model mode's tables: text cells (pieces, roles) beside numbers, rebuilt whole (10 + L·H rows).
  function textTable(id, caption, columns, rows) {
    const t = element("table", modelRegion);
    t.id = id;
    element("caption", t, caption);
    const head = element("tr", element("thead", t));
    for (const c of columns) element("th", head, c).setAttribute("scope", "col");
    const body = element("tbody", t);
    for (const [label, ...values] of rows) {
      const tr = element("tr", body);
      element("th", tr, label).setAttribute("scope", "row");
      for (const v of values) element("td", tr, typeof v === "number" ? v.toFixed(3) : String(v));
    }
  }
  let modelTimer = 0;
  function rebuildModel() {
    modelTimer = 0;
    let m = null;
    try {
      m = typeof api.getModel === "function" ? api.getModel(false) : null;
    } catch (e) {
      m = null; // not started yet
    }
    modelRegion.replaceChildren();
    if (!m || !m.loaded || m.tokens.length === 0) return;
    textTable("a11y-model-top", "The model's 10 most probable next tokens after \"" + m.text.slice(-40) + "\"",
              ["rank", "token", "probability"], m.top.map((t, r) => [String(r + 1), JSON.stringify(t.piece), t.p]));
    textTable("a11y-model-heads", "Every head: its role on the text and its scores",
              ["head", "role", "previous token", "first token", "self", "entropy (bits)", "switched off"],
              m.heads.map((h) => ["layer " + h.layer + " head " + h.head, h.role, h.previous_token, h.first_token,
                                  h.self, h.entropy, h.ablated || "no"]));
  }

  window.attentionLabA11y = {
    modelChanged() {
      clearTimeout(modelTimer);
      modelTimer = setTimeout(rebuildModel, REBUILD_DELAY_MS);
    },
    announce(text) {
      live.textContent = text;
    },
    resultChanged() {
      clearTimeout(timer);
      timer = setTimeout(rebuild, REBUILD_DELAY_MS);
    },
  };
})();
