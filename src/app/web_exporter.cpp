// web_exporter.cpp — attention-lab-export.js/.wasm: the Export menu's text generation as a module of
// its own, for the web's first-load build, which leaves scene/export out (17 KB of its gzip: the
// NumPy/PyTorch script writers, LaTeX, SVG with its PNG colour bar). The page loads this module after
// the first frame is drawn (web/attention-lab-api.js) and hands it the app's scene as scene JSON, the
// writer's own text (al_share_scene_json), so the text is exactly what the build with every mode, the
// desktop app and `attention-lab-cli --export KIND --stage STAGE` write for that scene.
//
// No UI, no GL: the scene library (parse, validate, export) and the core under it.
#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>
#include <string>

#include "scene/export.hpp"
#include "scene/scene.hpp"

namespace {

// The reply's text, kept until the next call (the page copies it at once).
const char* reply(const nlohmann::ordered_json& value) {
  static std::string text;
  text = value.dump();
  return text.c_str();
}

const char* fail(const std::string& error) {
  return reply({{"ok", false}, {"error", error}});
}

}  // namespace

extern "C" {

// {"ok":true,"text":…} — scene_json exported as `kind` ("numpy", "pytorch", "latex", "svg") at
// `stage` (LaTeX and SVG) — or {"ok":false,"error":…} naming the bad scene field or argument, as the
// app's own al_export_text (web_share.cpp) words it.
EMSCRIPTEN_KEEPALIVE const char* al_export_scene(const char* scene_json, const char* kind, const char* stage) {
  const scene::ParseResult parsed = scene::parse_scene(scene_json ? scene_json : "");
  if (!parsed.ok()) return fail(parsed.error);
  const scene::ExportResult r = scene::export_scene(*parsed.scene, kind ? kind : "", stage ? stage : "");
  if (!r.ok()) return fail(r.error);
  return reply({{"ok", true}, {"text", r.text}});
}

}  // extern "C"
