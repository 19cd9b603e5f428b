// page_api.hpp — the JSON the app speaks to its page (window.attentionLab, web/share.js) and to
// test harnesses (the desktop's --rects file): every reply is built here, with nlohmann::ordered_json.
//
//   state        {"scene": <scene JSON>, "result": <result JSON of every head> | null,
//                 "omitted": the n×n stages left out of result (see state()),
//                 "ui": {"mode": NAME, "step": walk step or -1, "scoresTab": "raw"|"scaled",
//                        "focusHead": t, "tooltip": "<last tooltip's text, or empty>",
//                        "example": <the Example picker's label>, "edited": false,
//                        "vectors": {"Q": "sliders"|"strip", "K": …, "V": …},
//                        "flash": <FlashAttention step> | null, "decode": <Decode step> | null}}
//                (step, flash and decode: the modes' page_state hooks)
//   ok / fail    {"ok": true} / {"ok": false, "error": "<field: reason>"}
//   widget_rect  {"x", "y", "w", "h"} (ImGui pixels ÷ scale, 6 significant digits) or null; value
//                cells (Q/i/c, K/i/c, V/i/c) add "text": the width of the number drawn in them
//   matrix       {"ok": true, "rows", "cols", "ptr"}: a stage's numbers, row-major doubles at byte
//                address ptr of the wasm memory, valid until the next call (the page copies them)
//   frame_stats  {"frames", "lastFrameMs", "avgFrameMs", "maxFrameMs", "p95FrameMs", "recentFrameMs",
//                 "recomputes", "lastRecomputeMs", "heapBytes", "vertices"} (max and p95 over the last
//                 120 frames, recentFrameMs those frames' times oldest first; heapBytes: bytes malloc has
//                 handed out and not taken back; vertices: the last frame's)
//   check_result {"ok": true, "same", "compared", "mismatch"} (checkResult)
//   fragment     what a link asks for: {"ok": true, "demo", "scene", "hide", "view", "mode", "step"}
//   rects        {"framebuffer": {"w", "h"}, "ui_scale", "preset", "example", the modes' parts ("walk",
//                 "quiz", "circuits", "model": their page calls' "get" replies), "keyboard",
//                 "rects": {id: rect}}
//   a mode's     its row's page_call (ui/modes/modes.hpp): getStep's {"index", "count", "title", …},
//                getQuiz, getTraining, getCircuits, getModel; see each mode's <mode>_page.cpp
//
// On the web the exported C functions (web_platform.cpp, web_share.cpp) return reply(…): the JSON
// text, valid until the next call (the page copies it at once).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "scene/link.hpp"
#include "ui/app_state.hpp"

namespace app::page {

// Keys in the order written (the scene's own order: "version", "tokens", …).
using Json = nlohmann::ordered_json;

// The scene the app opens with, and the one a link without a scene returns to.
inline constexpr const char* kDefaultPreset = "practice-qkv";

Json ok();
Json fail(std::string_view error);

// The n×n stages (scores, scaled, allowed, weights, and each head's) are in `result` when asked for
// or when n ≤ kSquareStagesUpTo; above it they are listed in "omitted" (getMatrix reads them as
// typed arrays): at n = 1024 they are three million numbers of text, seconds to write and parse.
inline constexpr int kSquareStagesUpTo = 256;
Json state(const ui::AppState& state, bool square_stages = false);

// A stage as numbers (getMatrix): "Q", "K", "V", "Q_rope", "K_rope" (RoPE scenes), "scores", "scaled"
// (masked cells −∞: the mask M added; null in getState), "bias" (ALiBi scenes), "allowed" (1/0),
// "weights", "output", "concat" (multi-head, before W_o; with a head, that head's output).
// head −1: the whole pass (multi-head: Q, K, V before the split, weights the mean of the heads,
// output after W_o; scores, scaled and bias need a head); head t: that head's stages (its columns of
// Q, K, V). fail(…) names a bad stage or head.
struct MatrixView {
  const double* data = nullptr;  // rows×cols, row-major
  long rows = 0, cols = 0;
};
Json matrix(const ui::AppState& state, std::string_view stage, int head, MatrixView* out);
// Validate and load scene JSON text: ok(), or fail(error) with the state kept.
Json load_scene_text(ui::AppState& state, std::string_view text);
Json widget_rect(const ui::AppState& state, std::string_view id, float scale);
Json frame_stats(const ui::AppState& state);
// checkResult: the result the app shows (kept up to date edit by edit, mostly by the incremental
// engine) against the core's own full pass over the current scene (scene::compute_heads), bit for bit:
// every stage of every head, the mask, the row maxima and sums, and the reading aids. "same" false
// names the first difference in "mismatch" ("weights (3, 5): app 0.25, full pass 0.2500001");
// "compared" counts the numbers compared.
Json check_result(const ui::AppState& state);
// A mode's own numbers and actions (getStep, getTraining, getCircuits, getModel, …) are its row's
// page_call hook (ui/modes/modes.hpp's page_call, each mode's <mode>_page.cpp), reached through the one
// exported al_mode_call(mode, call, arg).
Json fragment(const scene::link::Fragment& f);
// Every named widget and every visible heatmap/mask cell, ImGui pixels ÷ scale.
Json rects(const ui::AppState& state, float scale, int framebuffer_w, int framebuffer_h, float ui_scale);

// The text of `value`, kept until the next reply (for the exported C functions).
const char* reply(const Json& value);
// `text` as it is (a scene file's own text), kept the same way.
const char* reply_text(std::string text);

}  // namespace app::page
