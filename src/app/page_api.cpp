// page_api.cpp — see page_api.hpp.
#include "app/page_api.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "core/reading_aids.hpp"
#include "imgui.h"
#include "scene/scene.hpp"
#include "ui/widgets/keyboard.hpp"
#include "ui/modes/modes.hpp"
#include "ui/text/i18n.hpp"

namespace app::page {
namespace {

// Positions, scales and times to 6 significant digits, as "%.6g" writes them: what a click or a
// report needs, without float noise (a float's 0.1 would print as 0.10000000149011612); whole values
// stay whole numbers (a scale of 2 reads "2", as the desktop tests compare it).
Json number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  const double r = std::strtod(buffer, nullptr);
  if (r == std::floor(r) && std::abs(r) < 1e15) return static_cast<std::int64_t>(r);
  return r;
}

// The keyboard (ui/widgets/keyboard.hpp): {"focus" (null: none), "cell" [row, column], "announce", "order"
// (the Tab order of the last frame)}.
Json keyboard(const ui::KeyboardUi& k) {
  Json order = Json::array();
  for (const ui::FocusItem& item : k.items) order.push_back(item.id);
  return {{"focus", k.focus.empty() ? Json(nullptr) : Json(k.focus)},
          {"cell", {k.grid_row, k.grid_col}},
          {"announce", k.announce},
          {"order", std::move(order)}};
}

Json panel_names(const std::vector<scene::link::Panel>& panels) {
  Json names = Json::array();
  for (scene::link::Panel p : panels) names.push_back(scene::link::panel_name(p));
  return names;
}

}  // namespace

Json ok() {
  return ui::page_ok();  // one writer of these replies for the page API and the modes' calls
}

Json fail(std::string_view error) {
  return ui::page_fail(std::string(error));
}

Json state(const ui::AppState& state, bool square_stages) {
  // The scene and result writers own their formats (scene JSON v1/v2 is a contract): their values,
  // the same as the files and the CLI print.
  Json out = Json::object();
  out["scene"] = scene::scene_json(state.scene);
  const bool square = square_stages || state.scene.n() <= kSquareStagesUpTo;
  // One head without RoPE or W_o: `result` is the whole pass (the same as a one-head HeadsResult).
  out["result"] = !state.computed             ? Json(nullptr)
                  : state.heads.heads.empty() ? scene::result_json(state.result, square)
                                              : scene::result_json(state.heads, square);
  Json omitted = Json::array();
  if (!square && state.computed) {
    const attn::Result& first = state.heads.heads.empty() ? state.result : state.heads.heads.front();
    omitted = first.bias.size() != 0 ? Json{"scores", "scaled", "bias", "allowed", "weights"}
                                     : Json{"scores", "scaled", "allowed", "weights"};
  }
  out["omitted"] = std::move(omitted);
  Json vectors = Json::object();
  const char* names[3] = {"Q", "K", "V"};
  for (int r = 0; r < 3; ++r) vectors[names[r]] = state.ui.frame.vectors_strip[r] ? "strip" : "sliders";
  // The language of the words on screen: the chosen one once its table is installed (the web app
  // loads Spanish and German on demand; ui/text/i18n.hpp).
  const std::string& wanted = ui::shown_language(state.ui);
  const std::string language = ui::language_installed(wanted) ? wanted : std::string(ui::current_language());
  out["ui"] = {
    {"mode", scene::link::mode_name(state.ui.settings.mode)},
    {"scoresTab", state.ui.scores_tab == ui::ScoresTab::Raw ? "raw" : "scaled"},
    {"focusHead", state.ui.focus_head},
    {"tooltip", state.ui.frame.shown.tooltip},
    {"example", ui::example_label(state)},
    {"edited", state.edited},
    {"vectors", std::move(vectors)},
    // The look: the theme on screen, whether it was chosen (else it follows the system),
    // the zoom; and the keyboard's focus (ui/widgets/keyboard.hpp).
    {"theme", scene::link::theme_name(ui::shown_theme(state.ui))},
    {"themeChosen", state.ui.settings.theme.has_value()},
    {"zoom", state.ui.settings.zoom},
    {"language", language},
    {"overflow", state.ui.frame.shown.overflow},
    {"keyboard", keyboard(state.ui.keyboard)},
    // The Scores/Weights grids' zoom (ui/widgets/grid_view.hpp): rows and columns [row0/col0, + span).
    {"gridView",
     {{"zoom", number(state.ui.grid_view.zoom)},
      {"row0", number(state.ui.grid_view.row0)},
      {"col0", number(state.ui.grid_view.col0)},
      {"span", number(state.ui.grid_view.n > 0 ? state.ui.grid_view.span() : 0.0)}}},
    // The stage the Export menu's LaTeX and SVG items show (ui/frame/sharing.cpp).
    {"exportStage", scene::export_stage_name(state.sharing.export_stage)}
  };
  // The modes' own keys: the walk's "step", the FlashAttention and Decode modes' step (null until the
  // mode has been shown).
  ui::page_state_parts(state, out["ui"]);
  return out;
}

Json matrix(const ui::AppState& state, std::string_view stage, int head, MatrixView* out) {
  static std::vector<double> converted;  // scaled with −∞ where masked, allowed as 1/0
  if (!state.computed) return fail("getMatrix: no result (the scene is not computed)");
  const bool one = state.heads.heads.empty();  // one head without RoPE or W_o: `result` is all
  const int count = one ? 1 : int(state.heads.heads.size());
  if (head < -1 || head >= count)
    return fail("getMatrix: head " + std::to_string(head) + " is not a head of this scene (−1 or 0 … " +
                std::to_string(count - 1) + ")");
  // The pass the stage comes from: a head's, or the whole multi-head one (nullptr).
  const attn::Result* pass = one         ? &state.result
                             : head >= 0 ? &state.heads.heads[std::size_t(head)]
                                         : nullptr;
  const attn::HeadsResult& all = state.heads;
  // Each stage's matrix in one head's pass, and in the whole multi-head pass (nullptr: per head only).
  struct Stage {
    const char* name;
    attn::Matrix attn::Result::*in_pass;
    attn::Matrix attn::HeadsResult::*in_all;
  };
  static const Stage kStages[] = {{"Q", &attn::Result::Q, &attn::HeadsResult::Q},
                                  {"K", &attn::Result::K, &attn::HeadsResult::K},
                                  {"V", &attn::Result::V, &attn::HeadsResult::V},
                                  {"Q_rope", &attn::Result::Q_rope, &attn::HeadsResult::Q_rope},
                                  {"K_rope", &attn::Result::K_rope, &attn::HeadsResult::K_rope},
                                  {"scores", &attn::Result::scores, nullptr},
                                  {"scaled", &attn::Result::scaled, nullptr},
                                  {"bias", &attn::Result::bias, nullptr},
                                  {"weights", &attn::Result::weights, &attn::HeadsResult::weights_mean},
                                  {"output", &attn::Result::output, &attn::HeadsResult::output},
                                  {"concat", &attn::Result::output, &attn::HeadsResult::concat}};
  const Stage* found = nullptr;
  for (const Stage& st : kStages)
    if (stage == st.name) found = &st;
  if (!found && stage != "allowed")
    return fail("getMatrix: unknown stage \"" + std::string(stage) +
                "\" (Q, K, V, Q_rope, K_rope, scores, scaled, bias, allowed, weights, output, concat)");
  const attn::MaskMatrix& allowed = pass ? pass->allowed : all.allowed;
  const attn::Matrix* m = !found          ? nullptr
                          : pass          ? &(pass->*found->in_pass)
                          : found->in_all ? &(all.*found->in_all)
                                          : nullptr;
  if (stage == "allowed") {
    converted.assign(allowed.data(), allowed.data() + allowed.size());
    *out = {converted.data(), long(allowed.rows()), long(allowed.cols())};
  } else if (!m) {
    return fail("getMatrix: " + std::string(stage) + " is per head in a multi-head scene (give a head 0 … " +
                std::to_string(count - 1) + ")");
  } else if (m->size() == 0) {
    const char* why = stage == "bias"                          ? " (no ALiBi)"
                      : stage == "Q_rope" || stage == "K_rope" ? " (no RoPE)"
                                                               : "";
    return fail("getMatrix: " + std::string(stage) + " is not part of this scene" + why);
  } else if (stage == "scaled") {
    converted.assign(m->data(), m->data() + m->size());
    for (Eigen::Index k = 0; k < m->size(); ++k)
      if (!pass->allowed.data()[k]) converted[std::size_t(k)] = -std::numeric_limits<double>::infinity();
    *out = {converted.data(), long(m->rows()), long(m->cols())};
  } else {
    *out = {m->data(), long(m->rows()), long(m->cols())};
  }
  return {{"ok", true}, {"rows", out->rows}, {"cols", out->cols}, {"ptr", std::uintptr_t(out->data)}};
}

Json load_scene_text(ui::AppState& state, std::string_view text) {
  const std::string error = ui::load_scene_text(state, text);
  return error.empty() ? ok() : fail(error);
}

Json widget_rect(const ui::AppState& state, std::string_view id, float scale) {
  const std::optional<ImVec4> r = ui::widget_rect(state, id);
  if (!r) return nullptr;
  const double s = scale > 0 ? scale : 1.0;
  Json out = {
      {"x", number(r->x / s)}, {"y", number(r->y / s)}, {"w", number(r->z / s)}, {"h", number(r->w / s)}};
  // Value cells (Q/i/c, K/i/c, V/i/c): the width of the number drawn in them (0: none).
  if (auto t = state.ui.frame.widget_text_w.find(std::string(id)); t != state.ui.frame.widget_text_w.end())
    out["text"] = number(t->second / s);
  return out;
}

namespace {
// Bytes malloc has handed out and not taken back (a leak shows as growth over a long run).
std::int64_t heap_bytes() {
#ifdef __EMSCRIPTEN__
  return std::int64_t(mallinfo().uordblks);  // emmalloc
#else
  return std::int64_t(mallinfo2().uordblks);  // glibc
#endif
}
// Vertices of the last frame drawn (ImGui's draw data over every window: what the GL backend uploads;
// valid between frames, when the page calls).
std::int64_t drawn_vertices() {
  if (ImGui::GetCurrentContext() == nullptr) return 0;
  const ImDrawData* data = ImGui::GetDrawData();
  return data != nullptr ? std::int64_t(data->TotalVtxCount) : 0;
}
}  // namespace

Json frame_stats(const ui::AppState& state) {
  const ui::FrameStats& f = state.stats;
  const double avg = f.frames > 0 ? f.total_frame_ms / double(f.frames) : 0.0;
  // The window oldest first: the ring's next slot is its oldest once it is full.
  Json in_order = Json::array();
  const int first = f.recent_count < ui::FrameStats::kWindow ? 0 : f.recent_next;
  Json parts = Json::array();  // the same frames' recompute, UI and render ms, three numbers a frame
  for (int k = 0; k < f.recent_count; ++k) {
    const int slot = (first + k) % ui::FrameStats::kWindow;
    in_order.push_back(number(f.recent_ms[slot]));
    for (double ms : f.recent_parts_ms[slot]) parts.push_back(number(ms));
  }
  std::vector<double> recent(f.recent_ms, f.recent_ms + f.recent_count);
  std::sort(recent.begin(), recent.end());
  const double max_ms = recent.empty() ? 0.0 : recent.back();
  // Nearest rank: the smallest value with at least 95 % of the frames at or below it.
  const double p95_ms =
      recent.empty() ? 0.0 : recent[std::size_t(std::ceil(0.95 * double(recent.size()))) - 1];
  return {{"frames", f.frames},
          {"lastFrameMs", number(f.last_frame_ms)},
          {"avgFrameMs", number(avg)},
          {"maxFrameMs", number(max_ms)},
          {"p95FrameMs", number(p95_ms)},
          {"recentFrameMs", std::move(in_order)},
          {"recentFramePartsMs", std::move(parts)},
          {"recomputes", f.recomputes},
          {"lastRecomputeMs", number(f.last_recompute_ms)},
          {"heapBytes", heap_bytes()},
          {"vertices", drawn_vertices()}};
}

namespace {

// Compares two results bit for bit, stage by stage, and names the first difference.
struct ResultComparison {
  std::int64_t compared = 0;
  std::string mismatch;  // empty while everything is the same

  // `count` numbers of `app` against `full` (sizes already equal); (i, j) of a `cols`-wide stage.
  template <class T>
  void numbers(const std::string& stage, const T* app, const T* full, std::size_t count, long cols) {
    compared += std::int64_t(count);
    if (!mismatch.empty() || std::memcmp(app, full, count * sizeof(T)) == 0) return;
    for (std::size_t k = 0; k < count; ++k) {
      if (std::memcmp(app + k, full + k, sizeof(T)) == 0) continue;
      char text[160];
      std::snprintf(text, sizeof text, "%s (%ld, %ld): app %.17g, full pass %.17g", stage.c_str(),
                    long(k) / cols, long(k) % cols, double(app[k]), double(full[k]));
      mismatch = text;
      return;
    }
  }
  template <class M>
  void matrix(const std::string& stage, const M& app, const M& full) {
    if (!mismatch.empty()) return;
    if (app.rows() != full.rows() || app.cols() != full.cols()) {
      mismatch = stage + ": app " + std::to_string(app.rows()) + "×" + std::to_string(app.cols()) +
                 ", full pass " + std::to_string(full.rows()) + "×" + std::to_string(full.cols());
      return;
    }
    numbers(stage, app.data(), full.data(), std::size_t(app.size()),
            long(std::max<Eigen::Index>(app.cols(), 1)));
  }
  template <class T>
  void vector(const std::string& stage, const std::vector<T>& app, const std::vector<T>& full) {
    if (!mismatch.empty()) return;
    if (app.size() != full.size()) {
      mismatch = stage + ": app " + std::to_string(app.size()) + " entries, full pass " +
                 std::to_string(full.size());
      return;
    }
    numbers(stage, app.data(), full.data(), app.size(), long(app.size()));
  }
  // Every stage of attn::Result (core/attention.hpp); the first that differs is reported.
  void pass(const std::string& prefix, const attn::Result& app, const attn::Result& full) {
    using R = attn::Result;
    static const std::pair<const char*, attn::Matrix R::*> kMatrices[] = {
        {"Q", &R::Q},           {"K", &R::K},
        {"V", &R::V},           {"Q_rope", &R::Q_rope},
        {"K_rope", &R::K_rope}, {"scores", &R::scores},
        {"scaled", &R::scaled}, {"bias", &R::bias},
        {"logits", &R::logits}, {"weights", &R::weights},
        {"output", &R::output}};
    for (const auto& [name, member] : kMatrices) matrix(prefix + name, app.*member, full.*member);
    numbers(prefix + "divisor", &app.divisor, &full.divisor, 1, 1);
    matrix(prefix + "allowed", app.allowed, full.allowed);
    vector(prefix + "masked_rows", app.masked_rows, full.masked_rows);
    vector(prefix + "row_max", app.row_max, full.row_max);
    vector(prefix + "row_sum", app.row_sum, full.row_sum);
  }
};

}  // namespace

Json check_result(const ui::AppState& state) {
  if (!state.computed) return fail("checkResult: no result (the scene is not computed)");
  // compute_heads gives nothing for a scene that does not validate: say why instead.
  if (const std::string problem = scene::validate(state.scene); !problem.empty())
    return {{"ok", true},
            {"same", false},
            {"compared", 0},
            {"mismatch", "the scene shown does not validate: " + problem}};
  const attn::HeadsResult full = scene::compute_heads(state.scene);
  ResultComparison c;
  if (state.heads.heads.empty()) {  // one head without RoPE or W_o: `result` is the whole pass
    c.pass("", state.result, full.heads.front());
  } else {
    if (state.heads.heads.size() != full.heads.size()) {
      c.mismatch = "heads: app " + std::to_string(state.heads.heads.size()) + ", full pass " +
                   std::to_string(full.heads.size());
    }
    for (std::size_t t = 0; t < state.heads.heads.size() && c.mismatch.empty(); ++t)
      c.pass("head " + std::to_string(t) + " ", state.heads.heads[t], full.heads[t]);
    c.matrix("concat", state.heads.concat, full.concat);
    c.matrix("weights_mean", state.heads.weights_mean, full.weights_mean);
    c.matrix("output", state.heads.output, full.output);
    if (c.mismatch.empty())
      c.pass("focused head ", state.result, full.heads[std::size_t(state.ui.focus_head)]);
  }
  // The reading aids the Weights panel shows (entropy, largest), of the focused head's weights.
  const attn::ReadingAids aids = attn::reading_aids(full.heads[std::size_t(state.ui.focus_head)]);
  const attn::ReadingAids& shown = ui::reading_aids(state);
  c.vector("entropy", shown.entropy, aids.entropy);
  c.vector("uniform", shown.uniform, aids.uniform);
  c.vector("argmax", shown.argmax, aids.argmax);
  return {{"ok", true},
          {"same", c.mismatch.empty()},
          {"compared", c.compared},
          {"mismatch", c.mismatch.empty() ? Json(nullptr) : Json(c.mismatch)}};
}

// A link's recipe (circuits=) and language-model state (lm=) as their text; the first load's links
// carry neither (scene::link::parse_fragment refuses them there), so it links neither writer.
static Json recipe_json(const scene::link::Fragment& f) {
#if AL_ALL_MODES
  if (f.circuits) return scene::recipe_text(*f.circuits);
#endif
  (void)f;
  return nullptr;
}
static Json lm_json(const scene::link::Fragment& f) {
#if AL_ALL_MODES
  if (f.model) return scene::link::model_link_text(*f.model);
#endif
  (void)f;
  return nullptr;
}

Json fragment(const scene::link::Fragment& f) {
  if (!f.ok()) return fail(f.error);
  return {{"ok", true},
          {"demo", f.demo.empty() ? Json(nullptr) : Json(f.demo)},
          {"scene", f.scene.has_value()},
          {"hide", panel_names(f.hide)},
          {"view", f.view ? Json(scene::link::panel_name(*f.view)) : Json(nullptr)},
          {"mode", f.mode ? Json(scene::link::mode_name(*f.mode)) : Json(nullptr)},
          {"step", f.step > 0 ? Json(f.step) : Json(nullptr)},
          {"theme", f.theme ? Json(scene::link::theme_name(*f.theme)) : Json(nullptr)},
          {"zoom", f.zoom ? Json(*f.zoom) : Json(nullptr)},
          {"lang", f.lang.empty() ? Json(nullptr) : Json(f.lang)},
          {"circuits", recipe_json(f)},
          {"probe", f.probe.empty() ? Json(nullptr) : Json(f.probe)},
          {"model", lm_json(f)}};
}

Json rects(const ui::AppState& state, float scale, int framebuffer_w, int framebuffer_h, float ui_scale) {
  std::map<std::string, Json> sorted;  // by id
  auto add = [&](const std::string& id) {
    Json r = widget_rect(state, id, scale);
    if (!r.is_null()) sorted[id] = std::move(r);
  };
  for (const auto& entry : state.ui.frame.widget_rects) add(entry.first);
  const std::pair<const char*, const ui::GridGeometry*> grids[] = {
      {"scores", &state.ui.frame.scores_grid}, {"weights", &state.ui.frame.weights_grid}, {"mask", &state.ui.frame.mask_grid}};
  for (const auto& [name, grid] : grids) {
    if (!grid->visible) continue;
    for (int i = 0; i < grid->rows; ++i)
      for (int j = 0; j < grid->cols; ++j)
        add("cell/" + std::string(name) + "/" + std::to_string(i) + "/" + std::to_string(j));
  }
  // Multi-head weights: head/t/weights/i/j for each head, head/average/weights/i/j for their mean.
  for (std::size_t g = 0; g < state.ui.frame.head_grids.size(); ++g) {
    const ui::GridGeometry& grid = state.ui.frame.head_grids[g];
    if (!grid.visible) continue;
    const std::string head = g + 1 == state.ui.frame.head_grids.size() ? "average" : std::to_string(g);
    for (int i = 0; i < grid.rows; ++i)
      for (int j = 0; j < grid.cols; ++j)
        add("head/" + head + "/weights/" + std::to_string(i) + "/" + std::to_string(j));
  }
  Json rects = Json::object();
  for (auto& [id, r] : sorted) rects[id] = std::move(r);
  Json out = {{"framebuffer", {{"w", framebuffer_w}, {"h", framebuffer_h}}},
              {"ui_scale", number(ui_scale)},
              {"preset", state.preset_name},
              {"example", ui::example_label(state)}};
  ui::page_rects_parts(state, out);  // the walk's step and the quiz, the Circuits run, the Model mode
  out["keyboard"] = keyboard(state.ui.keyboard);  // its focus and Tab order
  out["rects"] = std::move(rects);
  return out;
}

const char* reply(const Json& value) {
  // Invalid UTF-8 (none expected: scenes are checked) is replaced, never thrown about (the web build
  // has no exceptions).
  return reply_text(value.dump(-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace));
}

const char* reply_text(std::string text) {
  static std::string kept;  // the exported C functions' one reply buffer
  kept = std::move(text);
  return kept.c_str();
}

}  // namespace app::page
