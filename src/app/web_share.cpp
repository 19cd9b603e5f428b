// web_share.cpp — the C functions behind web/share.js (links, demos, files), and the Share
// buttons' actions (AppState::sharing) connected to it by web_share_init.
//
// A link is applied whole or not at all: al_share_load parses the fragment (and the demo file the
// page fetched for #demo=NAME) completely before anything changes, so a bad link leaves the current
// scene and panels as they were, and its error names the problem.
//
// A link's scene is loaded like window.attentionLab.setState's (ui::load_scene_matching_preset), so
// a link behaves exactly like setState of its scene. Replies are built in page_api.cpp.
#include <emscripten.h>

#include <algorithm>
#include <string>

#include "app/page_api.hpp"
#include "app/platform.hpp"
#include "app/start.hpp"
#if AL_ALL_MODES
#include "scene/export.hpp"
#endif
#include "scene/link.hpp"
#include "ui/app_state.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/modes/modes.hpp"
#include "ui/text/i18n.hpp"

extern "C" void al_request_frame();  // web_platform.cpp

// The Share buttons call into share.js (window.attentionLabShare), which owns the browser side:
// clipboard, downloads, the file picker, fetching demos. The page's names are quoted: the Closure
// Compiler renames every property of the glue that it reaches with a dot (src/app/CMakeLists.txt).
EM_JS(void, js_share_action, (const char* what), {
  const share = window["attentionLabShare"];
  if (share) share["action"](UTF8ToString(what));
});
EM_JS(void, js_share_open_demo, (const char* name), {
  const share = window["attentionLabShare"];
  if (share) share["openDemo"](UTF8ToString(name));
});
EM_JS(void, js_share_export, (const char* kind, const char* stage), {
  const share = window["attentionLabShare"];
  if (share) share["exportText"](UTF8ToString(kind), UTF8ToString(stage));
});
EM_JS(void, js_share_save_text, (const char* name, const char* text), {
  const share = window["attentionLabShare"];
  if (share) share["saveText"](UTF8ToString(name), UTF8ToString(text));
});
EM_JS(void, js_share_scene_changed, (), {
  const share = window["attentionLabShare"];
  if (share) share["sceneChanged"]();
});
// Spanish and German are data files (lang/CODE.json, ui/text/i18n.hpp): the first frame that asks
// for one has share.js fetch it and hand it to al_install_language.
EM_JS(void, js_share_load_language, (const char* code), {
  const share = window["attentionLabShare"];
  if (share) share["loadLanguage"](UTF8ToString(code));
});

#if !AL_ALL_MODES
// The web's first load holds Explore and Walk (ui/modes/modes.hpp): the other modes' tabs have
// share.js reload the page into the build with every mode (attention-lab-full.wasm), in that mode.
EM_JS(int, js_full_build_available, (), {
  const share = window["attentionLabShare"];
  return share && share["fullBuildAvailable"] ? 1 : 0;
});
EM_JS(void, js_share_open_mode, (const char* name), {
  const share = window["attentionLabShare"];
  if (share) share["openMode"](UTF8ToString(name));
});
#endif

#if AL_ALL_MODES
// A mode's file (its row's `file`: the Model mode's model), fetched on first use (the full build
// only) and reported to al_mode_file: the progress (from Content-Length), then the bytes, or why it
// failed. Properties are quoted for the Closure Compiler, as above.
EM_JS(void, js_fetch_file, (const char* mode_name, const char* url), {
  const mode = UTF8ToString(mode_name);
  const path = UTF8ToString(url);
  // kind 0: progress, 1: the bytes at ptr, 2: why (at ptr); the mode's name copied for each report.
  const report = function(kind, progress, ptr, size) {
    const nameSize = lengthBytesUTF8(mode) + 1;
    const name = _malloc(nameSize);
    stringToUTF8(mode, name, nameSize);
    _al_mode_file(name, kind, progress, ptr, size);
    _free(name);
  };
  const fail = function(why) {
    const size = lengthBytesUTF8(why) + 1;
    const ptr = _malloc(size);
    stringToUTF8(why, ptr, size);
    report(2, 0, ptr, size - 1);
    _free(ptr);
  };
  window["fetch"](path).then(function(response) {
    if (!response["ok"]) {
      fail("download: " + path + ": HTTP " + response["status"]);
      return;
    }
    const total = Number(response["headers"]["get"]("Content-Length")) || 0;
    const reader = response["body"]["getReader"]();
    const parts = [];
    let got = 0;
    const pump = function() {
      return reader["read"]().then(function(r) {
        if (r["done"]) {
          const ptr = _malloc(got || 1);
          let at = 0;
          for (let i = 0; i < parts.length; ++i) {
            HEAPU8.set(parts[i], ptr + at);
            at += parts[i]["length"];
          }
          report(1, 1, ptr, got);
          _free(ptr);
          return;
        }
        parts.push(r["value"]);
        got += r["value"]["length"];
        if (total > 0) report(0, Math.min(got / total, 1), 0, 0);
        return pump();
      });
    };
    return pump();
  })["catch"](
      function(e) { fail("download: " + path + ": " + (e && e["message"] ? e["message"] : String(e))); });
});
#endif

namespace page = app::page;

namespace {

// The app's state, for the exported functions below (set once by web_share_init).
ui::AppState* g_state = nullptr;

// Show a validated scene: the same load as setState (the matching preset keeps its name).
void show_scene(ui::AppState& state, scene::Scene s) {
  ui::load_scene_matching_preset(state, std::move(s));
  al_request_frame();
}

}  // namespace

namespace app {

void web_share_init(ui::AppState& state) {
  g_state = &state;
  ui::set_language_loader(js_share_load_language);
  ui::Sharing& s = state.sharing;
  s.copy_link = [] { js_share_action("copy-link"); };
  s.export_json = [] { js_share_action("export-json"); };
  s.import_json = [] { js_share_action("import-json"); };
  s.export_png = [] { js_share_action("export-png"); };
  s.open_demo = [](const std::string& name) { js_share_open_demo(name.c_str()); };
  s.export_text = [](scene::ExportKind kind, scene::ExportStage stage) {
    js_share_export(scene::export_kind_name(kind), scene::export_stage_name(stage));
  };
  s.save_text = [](const std::string& name, const std::string& text) {
    js_share_save_text(name.c_str(), text.c_str());
  };
  s.scene_changed = [] { js_share_scene_changed(); };
#if AL_ALL_MODES
  s.fetch_file = [](scene::link::Mode mode, const char* file) {
    js_fetch_file(std::string(scene::link::mode_name(mode)).c_str(), file);
  };
#endif
#if !AL_ALL_MODES
  // The tabs of the modes this build lacks: share.js reloads the page into attention-lab-full.wasm
  // with this scene, in that mode.
  if (js_full_build_available())
    s.open_mode = [](scene::link::Mode mode) {
      js_share_open_mode(std::string(scene::link::mode_name(mode)).c_str());
    };
#endif
}

}  // namespace app

extern "C" {

// Parse a fragment (without applying it): what it asks for, or the problem.
// {"ok":true,"demo":"NAME"|null,"scene":bool,"hide":["controls",…],"view":"weights"|null,
//  "mode":"explore"|null,"step":N|null,"theme":"light"|null,"zoom":150|null}
// {"ok":false,"error":"link: unknown panel 'foo' in hide= (panels: …)"}
EMSCRIPTEN_KEEPALIVE const char* al_share_parse(const char* fragment) {
  return page::reply(page::fragment(scene::link::parse_fragment(fragment ? fragment : "")));
}

// Apply a fragment: its scene (s=) or its demo's scene (`demo_json`, the text of demos/NAME.json
// the page fetched), its panels (hide=, view=) and its mode (mode=; none: the default mode).
// `reset_if_empty`: a fragment without a scene loads the default example (the page uses it when Back returns
// to the bare address).
// {"ok":true} or {"ok":false,"error":…} with nothing changed.
EMSCRIPTEN_KEEPALIVE const char* al_share_load(const char* fragment, const char* demo_json,
                                               int reset_if_empty) {
  scene::link::Fragment f = scene::link::parse_fragment(fragment ? fragment : "");
  if (!f.ok()) return page::reply(page::fail(f.error));
  if (!g_state) return page::reply(page::fail("app: not started"));
  ui::AppState& state = *g_state;
  std::optional<scene::Scene> s = std::move(f.scene);
  if (!f.demo.empty()) {
    scene::ParseResult parsed = scene::parse_scene(demo_json ? demo_json : "");
    if (!parsed.ok()) return page::reply(page::fail("demo '" + f.demo + "': " + parsed.error));
    s = std::move(parsed.scene);
  } else if (!s && reset_if_empty) {
    s = scene::preset(page::kDefaultPreset);
  }
  if (f.gen) {
    ui::load_generated(state, *f.gen);  // generate() made a valid scene: nothing to check
    al_request_frame();
  } else if (s) {
    show_scene(state, std::move(*s));
  }
  ui::set_panel_visibility(state, f.hide, f.view);
  // The look only when given (a link without theme= keeps the viewer's theme); the mode always (none:
  // the default); circuits=RECIPE: a new run rebuilt over the next frames (at full speed); lm=…: the
  // Model mode's state, applied when the model has loaded, which this starts; step=N: the counter's N
  // (a direct scene's 7-step walk clamps step=8 to its last).
  ui::LinkStart start;
  start.theme = f.theme;
  start.zoom = f.zoom;
  start.lang = f.lang;
  start.mode = f.mode.value_or(scene::link::kDefaultMode);
#if AL_ALL_MODES  // the first load's links carry none of these (scene::link::parse_fragment refuses them)
  start.recipe = f.circuits;
  start.probe = f.probe;
  start.lm = f.model;
#endif
  start.step = f.step;  // step= comes with mode=walk (scene::link::parse_fragment)
  app::apply_start(state, start);
  if (s && !f.demo.empty()) ui::note_demo_loaded(state, f.demo);  // the picker names it
  state.sharing.gallery_open = false;
  al_request_frame();
  return page::reply(page::ok());
}

// The fragment of the current scene, panels and mode:
// {"ok":true,"fragment":"s=…[&hide=…][&view=…][&mode=…][&step=…]"}, or
// {"ok":false,"error":…} when the scene is too large for a link.
EMSCRIPTEN_KEEPALIVE const char* al_share_link() {
  if (!g_state) return page::reply(page::fail("app: not started"));
  const ui::AppState& state = *g_state;
  scene::link::MadeFragment own;
  if (ui::mode_link(state, own)) {  // the mode shown has a link of its own (Circuits, Model)
    if (!own.ok()) return page::reply(page::fail(own.error));
    return page::reply({{"ok", true}, {"fragment", own.fragment}});
  }
  const scene::link::MadeFragment made =
      state.generated && !state.edited
          ? scene::link::make_gen_fragment(*state.generated, ui::hidden_panels(state), state.sharing.view,
                                           state.ui.settings.mode, ui::appearance(state.ui))
          : scene::link::make_fragment(state.scene, ui::hidden_panels(state), state.sharing.view,
                                       state.ui.settings.mode, ui::mode_link_step(state),
                                       ui::appearance(state.ui));
  if (!made.ok()) return page::reply(page::fail(made.error));
  return page::reply({{"ok", true}, {"fragment", made.fragment}});
}

// The current scene as scene JSON text (Export JSON; the writer's own format, byte for byte), or
// "null" before the first frame.
EMSCRIPTEN_KEEPALIVE const char* al_share_scene_json() {
  return page::reply_text(g_state ? scene::scene_to_json(g_state->scene) : "null");
}

#if AL_ALL_MODES
// The current scene exported (scene/export; the Export menu and attention-lab-cli --export give the
// same text): {"ok":true,"text":…} or {"ok":false,"error":"export: unknown kind …"}. Only in the build
// with every mode: the web's first load leaves scene/export out and the page exports with
// attention-lab-export.wasm instead (web_exporter.cpp, given al_share_scene_json's text).
EMSCRIPTEN_KEEPALIVE const char* al_export_text(const char* kind, const char* stage) {
  if (!g_state) return page::reply(page::fail("app: not started"));
  const scene::ExportResult r = scene::export_scene(g_state->scene, kind ? kind : "", stage ? stage : "");
  if (!r.ok()) return page::reply(page::fail(r.error));
  return page::reply({{"ok", true}, {"text", r.text}});
}
#endif

// Import a scene file: {"ok":true} or {"ok":false,"error":"<field: reason>"} with nothing changed.
EMSCRIPTEN_KEEPALIVE const char* al_share_import(const char* json) {
  if (!g_state) return page::reply(page::fail("app: not started"));
  scene::ParseResult parsed = scene::parse_scene(json ? json : "");
  if (!parsed.ok()) return page::reply(page::fail(parsed.error));
  show_scene(*g_state, std::move(*parsed.scene));
  return page::reply(page::ok());
}

// The gallery's list: the text of demos/index.json. {"ok":true} or {"ok":false,"error":…}.
EMSCRIPTEN_KEEPALIVE const char* al_share_set_demos(const char* index_json) {
  if (!g_state) return page::reply(page::fail("app: not started"));
  const std::string error = ui::set_demo_index(*g_state, index_json ? index_json : "");
  if (!error.empty()) return page::reply(page::fail(error));
  al_request_frame();
  return page::reply(page::ok());
}

// A language's data file (the text of lang/CODE.json): {"ok":true}, or {"ok":false,"error":…}
// with nothing changed (the screen keeps its words). The next frame shows the language if chosen.
EMSCRIPTEN_KEEPALIVE const char* al_install_language(const char* json) {
  const std::string error = ui::install_language_json(json ? json : "");
  if (!error.empty()) return page::reply(page::fail(error));
  al_request_frame();
  return page::reply(page::ok());
}

// The language the screen should show (a link's lang=, the View menu, else the browser's), installed
// or not: share.js loads it before attentionLab.ready resolves.
EMSCRIPTEN_KEEPALIVE const char* al_wanted_language() {
  static std::string code;
  code = g_state ? ui::shown_language(g_state->ui) : "en";
  return code.c_str();
}

}  // extern "C"
