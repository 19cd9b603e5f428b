// ui_frame_test.cpp — the one edit path (ui/app_state.hpp) on real frames of the UI, drawn headless:
// an ImGui context with the app's fonts but no window and no GL, and a painter that paints nothing.
// The mouse is ImGui's io (as the GLFW backend fills it), pointed at widgets where --rects says
// they are (widget_rect).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/keyspace.hpp"
#include "core/kv_bill.hpp"
#include "core/lm_train.hpp"
#include "core/reading_aids.hpp"
#include "core/sampling.hpp"
#include "core/tokenizer.hpp"
#include "imgui.h"
#include "scene/generate.hpp"
#include "scene/lm_file.hpp"
#include "scene/model_json.hpp"
#include "scene/scene.hpp"
#include "scene/variant_keys.hpp"
#include "ui/app_state.hpp"
#include "ui/frame/frame.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/look/fonts.hpp"
#include "ui/look/theme.hpp"
#include "ui/modes/circuits/circuits.hpp"
#include "ui/modes/decode/decode.hpp"
#include "ui/modes/model/model_mode.hpp"
#include "ui/modes/walk/walk_steps.hpp"
#include "ui/panels/panel_parts.hpp"
#include "ui/panels/variant_parts.hpp"
#include "ui/text/i18n.hpp"
#include "ui/widgets/keyboard.hpp"

namespace {

struct NullPainter : ui::MatrixPainter {
  void paint(ImDrawList*, ImVec2, ImVec2, const ui::MatrixImage&) override {}
};

// The textures a GL painter would hold, uploaded as render/heatmap_renderer.cpp does: nothing when the
// version is the one held, only the promised rows and columns when the texture holds `changed.since`,
// else everything.
struct TexturePainter : ui::MatrixPainter {
  struct Texture {
    std::uint64_t version = 0;
    int rows = 0, cols = 0;
    std::vector<float> values;
  };
  std::map<int, Texture> textures;  // by MatrixSlot
  std::map<int, int> partial_uploads, whole_uploads;
  std::vector<int> last_rows;  // the rows of the last partial upload
  // Every paint: its slot and the cells it shows (col0, row0, col1, row1; the whole matrix by default).
  std::vector<std::pair<int, ImVec4>> paints;

  void paint(ImDrawList*, ImVec2, ImVec2, const ui::MatrixImage& image) override {
    paints.emplace_back(int(image.slot),
                        image.view_col1 > image.view_col0
                            ? ImVec4(image.view_col0, image.view_row0, image.view_col1, image.view_row1)
                            : ImVec4(0, 0, float(image.cols), float(image.rows)));
    Texture& t = textures[int(image.slot)];
    const bool same_size = t.rows == image.rows && t.cols == image.cols;
    if (same_size && image.version != 0 && t.version == image.version) return;
    if (same_size && image.changed.since != 0 && t.version == image.changed.since) {
      last_rows = image.changed.rows ? *image.changed.rows : std::vector<int>{};
      for (int i : last_rows)
        std::copy_n(image.values + std::size_t(i) * image.cols, image.cols,
                    &t.values[std::size_t(i) * image.cols]);
      if (image.changed.cols)
        for (int j : *image.changed.cols)
          for (int i = 0; i < image.rows; ++i)
            t.values[std::size_t(i) * image.cols + j] = image.values[std::size_t(i) * image.cols + j];
      ++partial_uploads[int(image.slot)];
    } else {
      t.values.assign(image.values, image.values + std::size_t(image.rows) * image.cols);
      ++whole_uploads[int(image.slot)];
    }
    t.rows = image.rows;
    t.cols = image.cols;
    t.version = image.version;
  }
};

// One app without a window: a 1280×800 display at scale 1, the dark theme, a direct scene loaded
// (soft-dictionary: Q, K, V given, so q_0's sliders edit Q).
struct Headless {
  ImGuiContext* outer = ImGui::GetCurrentContext();  // another app's, when one test opens two
  ImGuiContext* context = ImGui::CreateContext();
  TexturePainter painter;
  ui::Fonts fonts;
  ui::AppState state;

  Headless() {
    ImGui::SetCurrentContext(context);  // CreateContext keeps an outer context current
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 800);
    ui::apply_theme(ui::Theme::Dark, 1.0f);
    fonts = ui::load_fonts(16.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // the atlas a backend would upload
    REQUIRE(ui::load_preset(state, "soft-dictionary"));
    REQUIRE(state.scene.mode == scene::Mode::Direct);
    for (int i = 0; i < 4; ++i) frame();  // the layout settles (measured panel heights)
  }
  ~Headless() {
    ImGui::DestroyContext(context);
    ImGui::SetCurrentContext(outer);
  }

  // A generated scene (scene/generate.hpp: the default pattern and seed) of n tokens, d_k = d_v = d.
  void load_generated(int n, int d) {
    scene::GenSpec spec;
    spec.n = n;
    spec.d_k = spec.d_v = d;
    ui::load_generated(state, spec);
  }

  void frame() {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ui::draw_screen(state, painter, fonts);
    ImGui::Render();
  }
  // The centre of widget `id` as last drawn.
  ImVec2 centre(const char* id) const {
    const std::optional<ImVec4> r = ui::widget_rect(state, id);
    REQUIRE(r.has_value());
    return ImVec2(r->x + 0.5f * r->z, r->y + 0.5f * r->w);
  }
  void mouse(ImVec2 at, bool down) {
    ImGui::GetIO().MousePos = at;
    ImGui::GetIO().MouseDown[0] = down;
  }
};

}  // namespace

TEST_CASE(
    "a drag edits through AppState: every panel of the frame reads one result, the next frame shows the "
    "edit") {
  Headless app;
  const double before = app.state.scene.Q(0, 0);
  // Press on q_0's first slider, right of its centre (the value jumps to the pointer), and drag.
  const ImVec2 c = app.centre("Q/0/0");
  const std::optional<ImVec4> r = ui::widget_rect(app.state, "Q/0/0");
  app.mouse(ImVec2(c.x + 0.3f * r->z, c.y), false);
  app.frame();
  const std::uint64_t version = app.state.result_version;
  const std::int64_t recomputes = app.state.stats.recomputes, validations = app.state.stats.validations;
  app.mouse(ImVec2(c.x + 0.3f * r->z, c.y), true);
  app.frame();  // the slider writes the scene while the Vectors panel is drawn
  const double edited = app.state.scene.Q(0, 0);
  CHECK(edited != before);
  // Nothing was recomputed while the frame was drawn: the panels after the Vectors panel (Scores,
  // Weights, Mask, Output) read the same result as the ones before it.
  CHECK(app.state.result_version == version);
  CHECK(app.state.stats.recomputes == recomputes);
  CHECK(app.state.dirty);
  CHECK(app.state.result.Q(0, 0) == doctest::Approx(before));
  // The next frame computes once, before drawing, and every panel shows the edit.
  app.frame();
  CHECK(app.state.stats.recomputes == recomputes + 1);
  CHECK(app.state.result.Q(0, 0) == edited);
  // Dragging on: one core run per frame that moved the value, and no whole-scene validation (the
  // values are clamped as they are set; the shape did not change).
  for (int k = 1; k <= 3; ++k) {
    app.mouse(ImVec2(c.x + 0.3f * r->z - 6.0f * float(k), c.y), true);
    app.frame();
  }
  app.mouse(ImVec2(c.x + 0.3f * r->z - 18.0f, c.y), false);
  app.frame();
  app.frame();
  CHECK(app.state.stats.recomputes >= recomputes + 3);
  CHECK(app.state.stats.validations == validations);
  CHECK(app.state.result.Q(0, 0) == app.state.scene.Q(0, 0));
}

TEST_CASE("the causal checkbox edits through AppState and shows in the next frame") {
  Headless app;
  REQUIRE_FALSE(app.state.scene.causal);
  const std::uint64_t version = app.state.result_version;
  app.mouse(app.centre("causal"), false);
  app.frame();
  app.mouse(app.centre("causal"), true);
  app.frame();
  app.mouse(app.centre("causal"), false);
  app.frame();  // the click (released over the box) toggles it while the Controls panel is drawn
  CHECK(app.state.scene.causal);
  CHECK(app.state.result_version == version);  // not recomputed in the middle of that frame
  app.frame();
  CHECK(app.state.result_version == version + 1);
  CHECK(app.state.result.weights(0, 1) == 0.0);  // token 0 sees only itself
  CHECK(app.state.result.weights(0, 0) == doctest::Approx(1.0));
}

TEST_CASE("each Scale choice has its own rectangle, inside the group's: a click on it picks that scale") {
  Headless app;
  const std::optional<ImVec4> group = ui::widget_rect(app.state, "scale");
  REQUIRE(group.has_value());
  float last_x = -1.0f;
  // The soft-dictionary example does not scale; then ÷ T, ÷ √d_k and none again, each by a click on it.
  REQUIRE(app.state.scene.scale.mode == attn::ScaleMode::None);
  struct Choice {
    const char* id;
    attn::ScaleMode mode;
  };
  for (const Choice& choice :
       {Choice{"scale/temperature", attn::ScaleMode::Temperature},
        Choice{"scale/sqrt_dk", attn::ScaleMode::SqrtDk}, Choice{"scale/none", attn::ScaleMode::None}}) {
    const std::string id = choice.id;
    const attn::ScaleMode mode = choice.mode;
    INFO(id);
    const std::optional<ImVec4> r = ui::widget_rect(app.state, id);
    REQUIRE(r.has_value());
    CHECK(r->z > 0.0f);
    CHECK(r->z < group->z);  // one choice, not the group
    CHECK(r->x >= group->x);
    CHECK(r->x + r->z <= group->x + group->z + 0.5f);
    const ImVec2 c = app.centre(id.c_str());
    app.mouse(c, false);
    app.frame();
    app.mouse(c, true);
    app.frame();
    app.mouse(c, false);
    app.frame();
    app.frame();
    CHECK(app.state.scene.scale.mode == mode);
    const double divisor = mode == attn::ScaleMode::None     ? 1.0
                           : mode == attn::ScaleMode::SqrtDk ? std::sqrt(double(app.state.scene.d_k()))
                                                             : app.state.scene.scale.temperature;
    CHECK(app.state.result.divisor == doctest::Approx(divisor));  // and the result follows
    last_x = std::max(last_x, r->x);
  }
  CHECK(last_x > group->x);  // the three sit side by side
}

TEST_CASE("the reading aids are computed when something shows them, and then equal the full pass's") {
  // A key's edit changes every row that sees the key; with entropy and largest off (the default),
  // the frames of a drag take no logarithms (UiCaches::aids stays behind), and shown they are
  // attn::reading_aids of the weights on screen, bit for bit.
  Headless app;
  app.load_generated(64, 8);
  app.state.ui.show_entropy = app.state.ui.show_argmax = false;
  for (int f = 0; f < 3; ++f) app.frame();
  const auto same_as_full = [&] {
    const attn::ReadingAids full = attn::reading_aids(app.state.result);
    const attn::ReadingAids& shown = ui::reading_aids(app.state);
    CHECK(shown.entropy == full.entropy);
    CHECK(shown.uniform == full.uniform);
    CHECK(shown.argmax == full.argmax);
  };
  same_as_full();
  // Edits of a key, a query and a value, a frame each: none of them computes the aids.
  ui::set_entry(app.state, ui::SceneMatrix::K, 3, 0, 2.5);
  app.frame();
  CHECK_FALSE(app.state.ui.caches.aids_stale_all);
  // Every row that may see key 3 is stale.
  CHECK(std::count(app.state.ui.caches.aids_stale_rows.begin(), app.state.ui.caches.aids_stale_rows.end(),
                   1) > 1);
  ui::set_entry(app.state, ui::SceneMatrix::Q, 40, 1, -1.5);
  app.frame();
  ui::set_entry(app.state, ui::SceneMatrix::V, 7, 2, 0.75);
  app.frame();
  CHECK_FALSE(app.state.ui.caches.aids_stale_rows.empty());
  same_as_full();  // reading brings every stale row up to date
  CHECK(app.state.ui.caches.aids_stale_rows.empty());
  // Shown (the largest weight of each row outlined), a key's edit is computed in the frame that draws it.
  app.state.ui.show_argmax = true;
  ui::set_entry(app.state, ui::SceneMatrix::K, 10, 3, -2.0);
  app.frame();
  CHECK(app.state.ui.caches.aids_stale_rows.empty());
  CHECK_FALSE(app.state.ui.caches.aids_stale_all);
  same_as_full();
  // The causal mask changes every row: all stale, then the full pass when read.
  ui::set_causal(app.state, !app.state.scene.causal);
  app.state.ui.show_argmax = false;
  app.frame();
  same_as_full();
}

TEST_CASE("Key space's planes are the best planes of the vectors on screen after every kind of edit") {
  // update_planes refits a plane only when its points changed: after a mask edit it keeps the one it
  // has, after a key's or a value's edit it refits that one. Either way it is best_plane of what the
  // scene holds now, bit for bit.
  Headless app;
  app.load_generated(64, 8);
  app.state.ui.settings.mode = scene::link::Mode::KeySpace;
  const auto planes_follow = [&] {
    attn::Matrix qk(2 * app.state.scene.n(), app.state.scene.d_k());
    qk << app.state.result.Q, app.state.result.K;
    CHECK(app.state.ui.keyspace.key_plane.axes == attn::best_plane(qk).axes);
    CHECK(app.state.ui.keyspace.key_plane.kept == attn::best_plane(qk).kept);
    CHECK(app.state.ui.keyspace.value_plane.axes == attn::best_plane(app.state.result.V).axes);
  };
  for (int f = 0; f < 3; ++f) app.frame();
  planes_follow();
  const attn::Matrix axes_before = app.state.ui.keyspace.key_plane.axes;
  ui::set_causal(app.state, !app.state.scene.causal);
  app.frame();
  planes_follow();
  CHECK(app.state.ui.keyspace.planes_version == app.state.result_version);
  ui::set_entry(app.state, ui::SceneMatrix::K, 5, 0, 3.0);
  app.frame();
  planes_follow();
  CHECK(app.state.ui.keyspace.key_plane.axes != axes_before);  // the key moved the plane
  ui::set_entry(app.state, ui::SceneMatrix::V, 9, 1, -2.5);
  app.frame();
  planes_follow();
}

TEST_CASE("Key space at 1,024 tokens: every window's draw list fits ImGui's 16-bit indices") {
  // WebGL2 has no base-vertex draw, so a draw list past 65,536 vertices wraps its indices into stray
  // triangles (this mode drew 376,108 vertices a frame at n = 1024 before it thinned its labels).
  Headless app;
  app.load_generated(1024, 64);
  app.state.ui.settings.mode = scene::link::Mode::KeySpace;
  for (int f = 0; f < 3; ++f) app.frame();
  const ImDrawData* data = ImGui::GetDrawData();
  REQUIRE(data != nullptr);
  int largest = 0;
  for (int l = 0; l < data->CmdListsCount; ++l)
    largest = std::max(largest, data->CmdLists[l]->VtxBuffer.Size);
  CHECK(largest > 10000);  // the points are drawn
  CHECK(largest < 65536);
}

TEST_CASE("the keyboard's id index finds every key set, across growth, probing and clearing") {
  // Against std::map: 5,000 keys from an LCG (0 among them), keys that share a slot (k and
  // k + 1,024·m land together while the table has 1,024 slots: (k·2654435761) mod 1,024 depends on
  // k mod 1,024 only), a key set twice keeps the last value, and after clear() nothing is found.
  ui::IdIndex index;
  std::map<ImGuiID, int> reference;
  std::uint32_t x = 12345;
  std::vector<ImGuiID> keys = {0u, 7u, 7u + 1024u, 7u + 2048u, 8u};
  for (int i = 0; i < 5000; ++i) keys.push_back(x = x * 1664525u + 1013904223u);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      index.set(keys[i], int(i) + 1);
      reference[keys[i]] = int(i) + 1;
      if (i < 5) CHECK(index.get(keys[i]) == int(i) + 1);  // the colliding ones, as they go in
    }
    index.set(keys[3], 99);  // again: replaced
    reference[keys[3]] = 99;
    for (const auto& [key, value] : reference) CHECK(index.get(key) == value);
    CHECK(index.get(3u) == 0);          // never set
    CHECK(index.get(7u + 3072u) == 0);  // never set, probes past its slot's neighbours
    index.clear();
    for (const ImGuiID key : keys) CHECK(index.get(key) == 0);
    reference.clear();
  }
}

TEST_CASE("set_entry and set_row clamp in one place, refuse what does not fit, and mark values only") {
  Headless app;
  ui::AppState& s = app.state;
  const std::int64_t validations = s.stats.validations;
  ui::set_entry(s, ui::SceneMatrix::K, 1, 0, 1e300);
  CHECK(s.scene.K(1, 0) == scene::kMaxAbsValue);
  ui::set_entry(s, ui::SceneMatrix::K, 1, 0, -std::numeric_limits<double>::infinity());
  CHECK(s.scene.K(1, 0) == scene::kMaxAbsValue);  // not finite: unchanged
  ui::set_entry(s, ui::SceneMatrix::K, 1, 0, std::nan(""));
  CHECK(s.scene.K(1, 0) == scene::kMaxAbsValue);
  ui::set_entry(s, ui::SceneMatrix::V, 99, 0, 1.0);  // no row 99: nothing changes
  attn::Matrix row(1, s.scene.V.cols());
  row.setConstant(-1e200);
  ui::set_row(s, ui::SceneMatrix::V, 0, row);
  CHECK(s.scene.V(0, 0) == -scene::kMaxAbsValue);
  ui::set_row(s, ui::SceneMatrix::V, 0, attn::Matrix::Zero(1, s.scene.V.cols() + 1));  // wrong size
  CHECK(s.scene.V(0, 0) == -scene::kMaxAbsValue);
  CHECK(s.changes == ui::kChangedValues);
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.stats.validations == validations);  // value edits are not validated again
  CHECK(s.error.empty());
  CHECK(s.result.V(0, 0) == -scene::kMaxAbsValue);
  // A resize changes the shape: the next recompute validates the scene once.
  ui::set_token_count(s, s.scene.n() + 1);
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.stats.validations == validations + 1);
}

TEST_CASE("editing Q, K or V of a learned scene makes it direct first (the numbers kept)") {
  Headless app;
  ui::AppState& s = app.state;
  REQUIRE(ui::load_preset(s, "learned-5x8"));
  REQUIRE(s.scene.mode == scene::Mode::Projected);
  const attn::Matrix k = s.heads.K;
  ui::set_entry(s, ui::SceneMatrix::Q, 2, 1, 0.25);
  CHECK(s.scene.mode == scene::Mode::Direct);
  CHECK(s.scene.Q(2, 1) == 0.25);
  CHECK(s.scene.K.isApprox(k));  // K = X·W_k, now stored as it was
  // X of the direct scene no longer exists: an entry there changes nothing.
  ui::set_entry(s, ui::SceneMatrix::X, 0, 0, 1.0);
  CHECK(s.scene.X.size() == 0);
}

TEST_CASE("a token label that breaks a rule is refused with the reason; a good one applies") {
  Headless app;
  ui::AppState& s = app.state;
  const std::string old = s.scene.tokens[0];
  CHECK_FALSE(ui::set_token_label(s, 0, std::string(scene::kMaxTokenBytes + 1, 'a')).empty());
  CHECK(s.scene.tokens[0] == old);
  CHECK(ui::set_token_label(s, 0, "cat").empty());
  CHECK(s.scene.tokens[0] == "cat");
}

TEST_CASE("the variants' setters keep the scene valid: window and sinks, ALiBi or RoPE, KV heads, heads") {
  Headless app;
  ui::AppState& s = app.state;
  // Sinks need a window; removing the window drops them.
  ui::set_sinks(s, 1);
  CHECK(s.scene.sinks == 0);
  CHECK(!s.notice.empty());
  ui::set_window(s, 1);  // |i − j| < 1: each query sees only itself
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.result.allowed(1, 0) == 0);
  ui::set_sinks(s, 1);  // … and key 0, the sink
  CHECK((s.scene.window == 1 && s.scene.sinks == 1));
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.error.empty());
  CHECK(s.result.allowed(1, 0) == 1);
  ui::set_window(s, 0);
  CHECK((s.scene.window == 0 && s.scene.sinks == 0));
  ui::set_window(s, 999);  // clamped to n
  CHECK(s.scene.window == s.scene.n());
  // ALiBi and RoPE: one or the other.
  ui::set_rope_on(s, true);
  ui::set_alibi(s, true);
  CHECK((s.scene.alibi && !s.scene.rope_on));
  ui::set_rope_on(s, true);
  CHECK((s.scene.rope_on && !s.scene.alibi));
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.error.empty());

  // A grouped scene (4 heads, 2 K/V groups): KV heads 1 mean-pools, 4 repeats; heads 2 first goes back
  // to one K/V per head, so the scene stays valid.
  const char* gqa =
      R"({"version": 2, "tokens": ["a", "b"], "Q": [[1, 0, 0, 1, 1, 1, 0, 0], [0, 1, 1, 0, 0, 0, 1, 1]],
          "K": [[1, 0, 0, 2], [0, 1, 2, 0]], "V": [[1, 2], [3, 4]], "heads": 4, "kv_heads": 2})";
  REQUIRE(ui::load_scene_text(s, gqa).empty());
  ui::set_kv_heads(s, 1);
  CHECK(s.scene.kv() == 1);
  REQUIRE(s.scene.K.cols() == 2);
  CHECK(s.scene.K(0, 0) == 0.5);  // (1 + 0) / 2: the mean of the two groups' first columns
  CHECK(s.scene.K(0, 1) == 1.0);  // (0 + 2) / 2
  ui::set_kv_heads(s, 3);         // does not divide 4: refused, a notice says why
  CHECK(s.scene.kv() == 1);
  REQUIRE(ui::load_scene_text(s, gqa).empty());
  ui::set_heads(s, 2);
  CHECK(s.scene.heads == 2);
  CHECK(s.scene.kv_heads == 0);
  CHECK(s.scene.K.cols() == 8);  // each group repeated for its two heads
  CHECK(ui::recompute_if_dirty(s));
  CHECK(s.error.empty());
}

namespace {

// The label rectangles of the last frame (label/GRID/row/i, label/GRID/col/j), by GRID/axis.
std::map<std::string, std::vector<std::pair<int, ImVec4>>> label_rects(const ui::AppState& state) {
  std::map<std::string, std::vector<std::pair<int, ImVec4>>> out;
  for (const auto& [id, rect] : state.ui.frame.widget_rects) {
    if (id.rfind("label/", 0) != 0) continue;
    const std::size_t last = id.rfind('/');
    out[id.substr(6, last - 6)].push_back({std::stoi(id.substr(last + 1)), rect});
  }
  return out;
}

bool overlap(const ImVec4& a, const ImVec4& b) {
  return a.x < b.x + b.z && b.x < a.x + a.z && a.y < b.y + b.w && b.y < a.y + a.w;
}

}  // namespace

TEST_CASE("grid labels never overlap and are whole names at 8, 64, 256 and 1024 tokens") {
  // Scores, Weights and Mask of a generated scene (tokens t0 … t1023) at 1280×800: every label of
  // one grid's rows and of its columns is disjoint from every other, the column labels are whole
  // token names, and the labelled tokens are every 2ᵏ-th.
  Headless app;
  for (int n : {8, 64, 256, 1024}) {
    CAPTURE(n);
    app.load_generated(n, 8);
    for (int f = 0; f < 4; ++f) app.frame();
    const auto labels = label_rects(app.state);
    for (const char* grid : {"scores", "weights", "mask"}) {
      for (const char* axis : {"row", "col"}) {
        const std::string key = std::string(grid) + "/" + axis;
        CAPTURE(key);
        REQUIRE(labels.count(key) == 1);
        auto list = labels.at(key);
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        REQUIRE(!list.empty());  // the grid is labelled
        CHECK(list[0].first == 0);
        // Tokens 0, k, 2k, … up to the last, k a power of two (the whole grid is in view; a grid of a
        // few dozen pixels may have room for its first label only).
        const int step = list.size() > 1 ? list[1].first - list[0].first : n;
        if (list.size() > 1) CHECK((step & (step - 1)) == 0);
        CHECK(list.back().first + step >= n);
        for (std::size_t a = 1; a < list.size(); ++a) CHECK(list[a].first - list[a - 1].first == step);
        if (std::string(axis) == "col") {
          ImGui::NewFrame();  // CalcTextSize needs a frame's font
          for (const auto& [k, rect] : list)
            CHECK(rect.z ==
                  doctest::Approx(ImGui::CalcTextSize(app.state.scene.tokens[std::size_t(k)].c_str()).x));
          ImGui::EndFrame();
        }
        for (std::size_t a = 0; a < list.size(); ++a)
          for (std::size_t b = a + 1; b < list.size(); ++b) {
            CAPTURE(list[a].first);
            CAPTURE(list[b].first);
            CHECK_FALSE(overlap(list[a].second, list[b].second));
          }
      }
    }
  }
}

TEST_CASE("at 1280×720 in every language the Controls show every button whole; what does not fit scrolls") {
  // The share buttons as the web and desktop apps give them (their actions are the platform's).
  Headless app;
  ui::Sharing& s = app.state.sharing;
  s.copy_link = s.export_json = s.import_json = s.export_png = [] {};
  s.export_text = [](scene::ExportKind, scene::ExportStage) {};
  ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  ui::install_compiled_languages();
  for (const char* lang : {"en", "es", "de"}) {
    CAPTURE(lang);
    app.state.ui.settings.lang = lang;
    REQUIRE(ui::load_preset(app.state, "causal-5"));
    for (int f = 0; f < 6; ++f) app.frame();  // the layout settles on the measured rows
    const std::optional<ImVec4> panel = ui::widget_rect(app.state, "panel/controls");
    REQUIRE(panel.has_value());
    const float bottom = panel->y + panel->w;
    REQUIRE(app.state.ui.frame.controls_h > panel->w);  // cut short: the caption under the buttons scrolls
    // Every widget drawn in the panel's column is inside it whole, or wholly below it (the vectors).
    int inside = 0;
    for (const auto& [id, r] : app.state.ui.frame.widget_rects) {
      if (id == "panel/controls" || r.x < panel->x || r.x >= panel->x + panel->z || r.y < panel->y) continue;
      CAPTURE(id);
      if (r.y < bottom) {
        CHECK(r.y + r.w <= bottom + 0.5f);
        ++inside;
      }
    }
    CHECK(inside >= 8);
    // Every share button is in view (the vectors keep their 10 em), none cut.
    for (const char* id : {"share/copy", "share/export-json", "share/import-json", "share/export-png",
                           "export/menu", "generate", "reset", "alibi", "rope/on"})
      CHECK_MESSAGE(ui::widget_rect(app.state, id).has_value(), id);
  }
}

TEST_CASE(
    "mask, causal, window and key edits upload only the rows they change, and the textures stay right") {
  // 64 generated tokens: after each edit the textures the painter updated in place (rows, columns)
  // must equal what a whole rebuild paints; a mask cell's click is one row of the Mask and the
  // Weights, not the whole grid (before: every mask edit was a full pass and a whole upload).
  Headless app;
  app.load_generated(64, 8);
  for (int f = 0; f < 4; ++f) app.frame();
  const int mask = int(ui::MatrixSlot::Mask), weights = int(ui::MatrixSlot::Weights);
  const int scores = int(ui::MatrixSlot::Scores);
  REQUIRE(app.painter.textures.count(mask) == 1);
  REQUIRE(app.painter.textures.count(weights) == 1);

  const auto check_textures_whole = [&]() {
    const std::map<int, TexturePainter::Texture> kept = app.painter.textures;
    app.state.ui.caches = ui::UiCaches{};  // everything painted again from the result
    app.painter.textures.clear();
    app.frame();
    for (int slot : {mask, weights, scores}) {
      CAPTURE(slot);
      REQUIRE(kept.count(slot) == 1);
      CHECK(kept.at(slot).values == app.painter.textures.at(slot).values);
    }
  };

  // One cell of the mask: one row of the Mask and of the Weights textures.
  const int partial_masks = app.painter.partial_uploads[mask];
  ui::toggle_mask_cell(app.state, 10, 12);
  app.frame();
  CHECK(app.state.result.allowed(10, 12) == 0);
  CHECK(app.painter.partial_uploads[mask] == partial_masks + 1);
  CHECK(app.state.result_change.rows == std::vector<int>{10});
  check_textures_whole();
  // Causal, a window with a sink, a key and a value: each brought up to date in place.
  ui::set_causal(app.state, true);
  app.frame();
  CHECK_FALSE(app.state.result_change.full);
  check_textures_whole();
  ui::set_window(app.state, 8);
  app.frame();
  check_textures_whole();
  ui::set_sinks(app.state, 1);
  app.frame();
  check_textures_whole();
  ui::set_entry(app.state, ui::SceneMatrix::K, 20, 3, 1.5);
  app.frame();
  // Key 20 is seen by queries 20 … 27 (causal, window 8): those rows of the weights, not all 64.
  CHECK(app.state.result_change.rows == std::vector<int>{20, 21, 22, 23, 24, 25, 26, 27});
  // The scores and scaled grids: key 20's column, no row.
  CHECK(app.state.result_change.score_rows().empty());
  CHECK(app.state.result_change.keys == std::vector<int>{20});
  check_textures_whole();
  // Without the window every later query sees key 20: 44 rows of the weights, still one column of
  // the scores (uploaded alone: the scores texture's last update is that column, no row).
  ui::set_window(app.state, 0);
  app.frame();
  check_textures_whole();
  const int partial_scores = app.painter.partial_uploads[scores];
  ui::set_entry(app.state, ui::SceneMatrix::K, 20, 3, -1.5);
  app.frame();
  CHECK(app.state.result_change.rows.size() == 44);
  CHECK(app.painter.partial_uploads[scores] == partial_scores + 1);
  CHECK(app.state.result_change.score_rows().empty());
  check_textures_whole();
  ui::set_window(app.state, 8);
  app.frame();
  check_textures_whole();
  // A query: its row of every grid.
  ui::set_entry(app.state, ui::SceneMatrix::Q, 33, 1, 0.5);
  app.frame();
  CHECK(app.state.result_change.score_rows() == std::vector<int>{33});
  CHECK(app.state.result_change.rows == std::vector<int>{33});
  check_textures_whole();
  ui::set_entry(app.state, ui::SceneMatrix::V, 5, 0, -2.0);
  app.frame();
  CHECK(app.state.result_change.rows.empty());
  check_textures_whole();
  REQUIRE(app.state.result.allowed(30, 25) == 1);
  ui::toggle_mask_cell(app.state, 30, 25);
  app.frame();
  CHECK(app.state.result.allowed(30, 25) == 0);
  CHECK(app.state.result_change.rows == std::vector<int>{30});
  CHECK(app.state.result_change.score_rows() == std::vector<int>{30});  // its hatching on the scores
  check_textures_whole();
}

// --- the Model mode on real frames ---------------------------------------------------------------

namespace {

// A 2-layer, 2-head GPT (d_head 8) with a BPE learned on a few lines, as the compact file's bytes.
std::string small_model_file() {
  std::string text;
  for (int k = 0; k < 20; ++k) text += "The cat sat on the mat. A dog ran to the park and the cat ran too.\n";
  const attn::bpe::Tokenizer t = attn::bpe::learn(text, 300);
  attn::model::LmConfig c;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 16;
  c.d_mlp = 32;
  c.n_ctx = 24;
  c.vocab = t.vocab_size();
  c.seed = 5;
  attn::model::Model m = attn::model::init_gpt(c);
  attn::train::Rng rng{9};
  for (attn::Matrix* w : attn::model::weights_of(m))
    for (Eigen::Index k = 0; k < w->size(); ++k) w->data()[k] += (2.0 * rng.uniform() - 1.0) * 0.5;
  return scene::write_lm_file(m, t, "");
}

void click(Headless& app, const char* id) {
  app.mouse(app.centre(id), false);
  app.frame();
  app.mouse(app.centre(id), true);
  app.frame();
  app.mouse(app.centre(id), false);
  app.frame();
}

}  // namespace

TEST_CASE("Model mode: loads on first use; Step draws; dragging an opened head's v moves the prediction") {
  Headless app;
  const std::string bytes = small_model_file();
  int requests = 0;
  app.state.sharing.fetch_file = [&](scene::link::Mode mode, const char* file) {
    CHECK(mode == scene::link::Mode::Model);
    CHECK(std::string(file) == "models/fortunes.alm");  // the site's model, fetched on first use
    ++requests;
    ui::model_loaded(app.state, bytes);
  };
  ui::model_set_text(app.state, "The cat sat on the");
  CHECK(requests == 0);  // nothing loads before the mode is shown
  app.state.ui.settings.mode = scene::link::Mode::Model;
  for (int i = 0; i < 4; ++i) app.frame();
  CHECK(requests == 1);
  const ui::ModelUi& m = app.state.ui.model;
  REQUIRE(m.load == ui::ModelLoad::Ready);
  CHECK(ui::widget_rect(app.state, "model/head/1/1").has_value());
  CHECK(ui::widget_rect(app.state, "model/prediction").has_value());
  // Every head in one mosaic texture, uploaded once for the text.
  CHECK(app.painter.whole_uploads[int(ui::MatrixSlot::ModelHeads)] == 1);
  const std::size_t n = m.eval.tokens.size();
  click(app, "model/step");
  CHECK(m.generated.size() == 1);
  CHECK(m.eval.tokens.size() == n + 1);
  // Open head 1.0: Explore shows its q, k, v; the Controls panel the model's prediction.
  click(app, "model/open/1/0");
  REQUIRE(app.state.ui.settings.mode == scene::link::Mode::Explore);
  for (int i = 0; i < 3; ++i) app.frame();
  CHECK(app.state.scene.Q == m.eval.forward.layers[1].heads[0].q);
  CHECK(ui::widget_rect(app.state, "model/back").has_value());
  REQUIRE(m.opened_top.size() == 10);
  CHECK(m.opened_top[0].p == m.eval.top[0].p);
  CHECK(!m.opened_edited);
  // Drag the first token's first value number (every later row reads it, the last one too): the
  // prediction the panel shows is the model re-run from that head with the scene's numbers.
  const std::string id = "V/0/0";
  const ImVec2 c = app.centre(id.c_str());  // a slider or a strip cell: press, drag right and up
  app.mouse(c, false);
  app.frame();
  app.mouse(c, true);
  app.frame();
  for (int k = 1; k <= 4; ++k) {
    app.mouse(ImVec2(c.x + 8.0f * float(k), c.y - 8.0f * float(k)), true);
    app.frame();
  }
  app.mouse(ImVec2(c.x + 32.0f, c.y - 32.0f), false);
  app.frame();
  app.frame();
  REQUIRE(app.state.scene.V(0, 0) != m.opened_v(0, 0));
  CHECK(m.opened_edited);
  const attn::model::Forward g = attn::model::forward(
      m.file->model, m.eval.tokens, m.ablation,
      {{1, 0, 'q', app.state.scene.Q}, {1, 0, 'k', app.state.scene.K}, {1, 0, 'v', app.state.scene.V}});
  const std::vector<double> p =
      attn::model::softmax_row(g.logits.data() + n * std::size_t(g.logits.cols()), int(g.logits.cols()));
  CHECK(m.opened_top[0].p == p[std::size_t(m.opened_top[0].token)]);
  CHECK(m.opened_top[0].p == *std::max_element(p.begin(), p.end()));
  CHECK(m.opened_top[0].p != m.eval.top[0].p);
  // The link carries the edited cell (the drag changed V[0][0] only) and reopens the same prediction.
  const scene::link::ModelLink link = ui::model_link(app.state);
  CHECK(link.open_layer == 1);
  CHECK(link.open_head == 0);
  REQUIRE(link.edits.size() == 1);
  CHECK(link.edits[0] == scene::link::HeadCellEdit{'v', 0, 0, app.state.scene.V(0, 0)});
  {
    Headless other;
    other.state.sharing.fetch_file = [&](scene::link::Mode, const char*) {
      ui::model_loaded(other.state, bytes);
    };
    ui::LinkStart start;
    start.mode = scene::link::Mode::Model;
    start.lm = *scene::link::parse_fragment(scene::link::make_model_fragment(link).fragment).model;
    other.state.ui.settings.mode = *start.mode;
    ui::model_apply_start(other.state, start);
    for (int i = 0; i < 4; ++i) other.frame();
    const ui::ModelUi& o = other.state.ui.model;
    REQUIRE(o.opened_layer == 1);
    CHECK(other.state.ui.settings.mode == scene::link::Mode::Explore);
    CHECK(other.state.scene.V == app.state.scene.V);
    CHECK(o.opened_edited);
    REQUIRE(o.opened_top.size() == m.opened_top.size());
    for (std::size_t r = 0; r < o.opened_top.size(); ++r) CHECK(o.opened_top[r].p == m.opened_top[r].p);
    CHECK(ui::model_link(other.state) == link);
    // A cell outside the head is left out and named; the others apply.
    scene::link::ModelLink outside = link;
    outside.edits.push_back({'q', 0, 99, 1.0});
    start.lm = outside;
    ui::model_apply_start(other.state, start);
    CHECK(other.state.notice == "lm: edits: q[0][99] is outside the head (" + std::to_string(n + 1) + " × " +
                                    std::to_string(m.eval.forward.layers[1].heads[0].q.cols()) + ")");
    CHECK(other.state.scene.V == app.state.scene.V);
  }
  // Reset: the model's own numbers again.
  click(app, "model/reset");
  app.frame();
  CHECK(!m.opened_edited);
  CHECK(m.opened_top[0].p == m.eval.top[0].p);
  // A click on a mask cell hides key 0 from the last query: the head's softmax runs over the keys left
  // and the model runs on from there (forward's mask override); the link carries the hidden cell.
  const std::string cell = "cell/mask/" + std::to_string(n) + "/0";
  click(app, cell.c_str());
  app.frame();
  REQUIRE(app.state.scene.mask.size() != 0);
  CHECK(app.state.scene.mask(Eigen::Index(n), 0) == 0);
  CHECK(m.opened_edited);
  attn::Matrix allowed = attn::Matrix::Ones(Eigen::Index(n + 1), Eigen::Index(n + 1));
  allowed(Eigen::Index(n), 0) = 0.0;
  const attn::model::Forward gm = attn::model::forward(
      m.file->model, m.eval.tokens, m.ablation,
      {{1, 0, 'q', m.opened_q}, {1, 0, 'k', m.opened_k}, {1, 0, 'v', m.opened_v}, {1, 0, 'm', allowed}});
  const std::vector<double> pm =
      attn::model::softmax_row(gm.logits.data() + n * std::size_t(gm.logits.cols()), int(gm.logits.cols()));
  CHECK(m.opened_top[0].p == pm[std::size_t(m.opened_top[0].token)]);
  CHECK(m.opened_top[0].p != m.eval.top[0].p);
  const scene::link::ModelLink masked_link = ui::model_link(app.state);
  REQUIRE(masked_link.edits.size() == 1);
  CHECK(masked_link.edits[0] == scene::link::HeadCellEdit{'m', int(n), 0, 0.0});
  // Causal switched off: the scene no longer computes as the head does; the panel says so.
  ui::set_causal(app.state, false);
  app.frame();
  CHECK(m.opened_mismatch);
  CHECK(m.opened_top.empty());
  // Back: the mode.
  click(app, "model/back");
  CHECK(app.state.ui.settings.mode == scene::link::Mode::Model);
}

// Generate runs on the one pacer of every run (widgets/run_pacer.hpp) at 30 tokens a second: at 60
// frames a second, the first token at once, the second in the next frame (the first frame's half
// token owed), then one every other frame.
TEST_CASE("Model mode: Generate draws at its pace, 30 tokens a second, the first at once") {
  Headless app;
  const std::string bytes = small_model_file();
  app.state.sharing.fetch_file = [&](scene::link::Mode, const char*) { ui::model_loaded(app.state, bytes); };
  ui::model_set_text(app.state, "The cat sat on the");
  app.state.ui.settings.mode = scene::link::Mode::Model;
  for (int i = 0; i < 4; ++i) app.frame();
  const ui::ModelUi& m = app.state.ui.model;
  REQUIRE(m.load == ui::ModelLoad::Ready);
  CHECK(m.pace.steps_per_second == 30.0f);
  ui::model_generate(app.state, 5);
  std::vector<int> drawn;
  for (int frame = 0; frame < 10; ++frame) {
    app.frame();  // DeltaTime 1/60 s
    drawn.push_back(int(m.generated.size()));
  }
  CHECK(drawn == std::vector<int>{1, 2, 2, 3, 3, 4, 4, 5, 5, 5});
  CHECK(m.generate_target == 0);  // done: five drawn
}

// The Variants… popup (ui/panels/modern_variants.cpp) on soft-dictionary (direct Q, K, V, no scale,
// no mask): each switch edits the scene through the edit path, and the page's weights follow the
// papers' formulas, computed here from the scene's own scores.
TEST_CASE(
    "Variants popup: softcap and the sink logit edit the scene; the weights follow the papers; linear is "
    "refused beside them") {
  Headless app;
  const std::string plain_json = scene::scene_to_json(app.state.scene);
  click(app, "variants");
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "variants/softcap").has_value());

  // Softcap (Gemma 2): the scaled scores s → c·tanh(s/c), c = 2 to start, then the row softmax.
  click(app, "variants/softcap");
  app.frame();
  REQUIRE(app.state.scene.variants);
  CHECK(app.state.scene.variants->core.softcap == 2.0);
  const std::string capped_json = scene::scene_to_json(app.state.scene);
  CHECK(capped_json.find("\"softcap\":2") != std::string::npos);
  CHECK(capped_json.find("\"version\":2") != std::string::npos);  // a variant key is version 2
  const attn::Matrix scores = app.state.result.scores;            // QKᵀ (no scale: divisor 1)
  REQUIRE(app.state.result.divisor == 1.0);
  auto check_rows = [&](double c, double sink_z, bool with_sink) {
    const attn::Matrix& w = app.state.result.weights;
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
      double sum = 0;
      for (Eigen::Index j = 0; j < scores.cols(); ++j) sum += std::exp(c * std::tanh(scores(i, j) / c));
      if (with_sink) sum += std::exp(sink_z);
      for (Eigen::Index j = 0; j < scores.cols(); ++j)
        CHECK(w(i, j) == doctest::Approx(std::exp(c * std::tanh(scores(i, j) / c)) / sum).epsilon(1e-12));
    }
  };
  check_rows(2.0, 0.0, false);
  // The query [1, 0] no longer puts 0.99996 on its key: the cap flattens its scores.
  CHECK(app.state.result.weights(0, 0) < 0.99);
  // Under its row, the curve c·tanh(s/c) with the scene's scores: all n² (no mask), those with |s| > c
  // counted as flattened (here from QKᵀ itself).
  app.frame();
  CHECK(ui::widget_rect(app.state, "variants/softcap/curve").has_value());
  int beyond = 0;
  double largest = 0;
  for (Eigen::Index k = 0; k < scores.size(); ++k) {
    beyond += std::abs(scores.data()[k]) > 2.0;
    largest = std::max(largest, std::abs(scores.data()[k]));
  }
  const ui::SoftcapReach reach = ui::softcap_reach(app.state.result, 2.0);
  CHECK(reach.count == int(scores.size()));
  CHECK(reach.beyond == beyond);
  CHECK(beyond > 0);
  CHECK(reach.largest == largest);
  // With the causal mask only the allowed cells count.
  ui::set_causal(app.state, true);
  app.frame();
  const int n = int(scores.rows());
  CHECK(ui::softcap_reach(app.state.result, 2.0).count == n * (n + 1) / 2);
  ui::set_causal(app.state, false);
  app.frame();

  // Linear attention has no softmax to cap: its switch is disabled, a click changes nothing, and the
  // scene's reason names softcap.
  scene::VariantKeys with_linear = *app.state.scene.variants;
  with_linear.core.linear = true;
  CHECK(ui::variant_keys_problem(app.state, with_linear).find("softcap") != std::string::npos);
  click(app, "variants/linear");
  app.frame();
  CHECK_FALSE(app.state.scene.variants->core.linear);

  // A sink logit (gpt-oss; z = 0 is softmax-off-by-one): e^z joins each row's sum, the rows sum to < 1.
  click(app, "variants/sink");
  app.frame();
  REQUIRE(app.state.scene.variants->core.sink_logit == std::vector<double>{0.0});
  check_rows(2.0, 0.0, true);
  for (Eigen::Index i = 0; i < scores.rows(); ++i) CHECK(app.state.result.weights.row(i).sum() < 1.0);

  // Both off: the variant key is dropped and the scene is the plain one again, byte for byte.
  click(app, "variants/softcap");
  click(app, "variants/sink");
  app.frame();
  CHECK_FALSE(app.state.scene.variants);
  CHECK(scene::scene_to_json(app.state.scene) == plain_json);
}

namespace {
double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
}  // namespace

// Gated attention (Qiu et al. 2025) from the Variants popup on soft-dictionary (one head, d_v = 2):
// the gate row gives the scene G = 0 (n × the concat's 2 columns), the output is concat ⊙ σ(G), the
// grid's cells edit G through the edit path (the link's JSON carries it), and the head-wise choice
// turns G into one column per head.
TEST_CASE("Variants popup: the gate's row, its grid of σ(G) and its cells edit the scene's gate logits") {
  Headless app;
  click(app, "variants");
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "variants/gate").has_value());
  CHECK_FALSE(ui::widget_rect(app.state, "variants/gate/grid").has_value());
  click(app, "variants/gate");
  app.frame();
  REQUIRE(app.state.scene.variants);
  const attn::Matrix& G = app.state.scene.variants->core.gate;
  REQUIRE(G.rows() == 2);
  REQUIRE(G.cols() == 2);
  CHECK(G.isZero());
  app.frame();
  // Y ⊙ σ(G) with Y = softmax(QKᵀ)V (no scale, no mask), computed here.
  auto check_gated = [&] {
    const attn::Matrix& Q = app.state.scene.Q;
    const attn::Matrix& K = app.state.scene.K;
    const attn::Matrix& V = app.state.scene.V;
    const attn::Matrix& g = app.state.scene.variants->core.gate;
    for (Eigen::Index i = 0; i < Q.rows(); ++i) {
      double sum = 0;
      std::vector<double> e(std::size_t(K.rows()));
      for (Eigen::Index j = 0; j < K.rows(); ++j) sum += e[std::size_t(j)] = std::exp(Q.row(i).dot(K.row(j)));
      for (Eigen::Index c = 0; c < V.cols(); ++c) {
        double y = 0;
        for (Eigen::Index j = 0; j < K.rows(); ++j) y += e[std::size_t(j)] / sum * V(j, c);
        const double gate = g.cols() == V.cols() ? g(i, c) : g(i, 0);
        CHECK(app.state.heads.output(i, c) == doctest::Approx(y * sigmoid(gate)).epsilon(1e-12));
        CHECK(app.state.heads.variant->gate_sigmoid(i, g.cols() == V.cols() ? c : 0) ==
              doctest::Approx(sigmoid(gate)).epsilon(1e-12));
      }
    }
  };
  check_gated();
  // The grid: n × 2 cells, each a button.
  REQUIRE(ui::widget_rect(app.state, "variants/gate/grid").has_value());
  REQUIRE(ui::widget_rect(app.state, "variants/gate/1/1").has_value());
  CHECK_FALSE(ui::widget_rect(app.state, "variants/gate/2/0").has_value());
  // A click shuts a cell that lets half through: G = −4.
  click(app, "variants/gate/0/1");
  app.frame();
  CHECK(app.state.scene.variants->core.gate(0, 1) == -4.0);
  CHECK(app.state.scene.variants->core.gate(0, 0) == 0.0);
  check_gated();
  CHECK(app.state.heads.output(0, 1) < 0.05 * app.state.heads.concat(0, 1));
  // The link's JSON carries G: read back, the same logits.
  const scene::ParseResult back = scene::parse_scene(scene::scene_to_json(app.state.scene));
  REQUIRE(back.scene);
  REQUIRE(back.scene->variants);
  CHECK(back.scene->variants->core.gate == app.state.scene.variants->core.gate);
  // Clicked again, it opens: G = +4.
  click(app, "variants/gate/0/1");
  app.frame();
  CHECK(app.state.scene.variants->core.gate(0, 1) == 4.0);
  // A drag upward raises G (up: more through).
  const ImVec2 c = app.centre("variants/gate/1/0");
  app.mouse(c, false);
  app.frame();
  app.mouse(c, true);
  app.frame();
  for (int k = 1; k <= 4; ++k) {
    app.mouse(ImVec2(c.x, c.y - 6.0f * float(k)), true);
    app.frame();
  }
  app.mouse(ImVec2(c.x, c.y - 24.0f), false);
  app.frame();
  app.frame();
  const double dragged = app.state.scene.variants->core.gate(1, 0);
  CHECK(dragged > 0.5);
  CHECK(dragged <= 8.0);
  check_gated();
  // Head-wise: one column per head, each the mean of its head's logits.
  click(app, "variants/gate/headwise");
  app.frame();
  REQUIRE(app.state.scene.variants->core.gate.cols() == 1);
  CHECK(app.state.scene.variants->core.gate(0, 0) == doctest::Approx(2.0));
  CHECK(app.state.scene.variants->core.gate(1, 0) == doctest::Approx(0.5 * dragged));
  app.frame();
  check_gated();
  click(app, "variants/gate/elementwise");
  app.frame();
  REQUIRE(app.state.scene.variants->core.gate.cols() == 2);
  CHECK(app.state.scene.variants->core.gate(1, 1) == doctest::Approx(0.5 * dragged));
  // Off: no gate key, the plain scene again.
  click(app, "variants/gate");
  app.frame();
  CHECK_FALSE(app.state.scene.variants);
}

// A learned scene's gate is W_g (d_model × the concat's columns), zeros to start: σ(X W_g) = 0.5.
TEST_CASE("Variants popup: a learned scene's gate is Wg, shown as σ(X W_g), its cells not buttons") {
  Headless app;
  REQUIRE(ui::load_preset(app.state, "learned-5x8"));
  app.frame();
  click(app, "variants");
  app.frame();
  click(app, "variants/gate");
  app.frame();
  REQUIRE(app.state.scene.variants);
  const attn::Matrix& Wg = app.state.scene.variants->Wg;
  CHECK(Wg.rows() == app.state.scene.X.cols());
  CHECK(Wg.cols() == app.state.scene.concat_dim());
  CHECK(Wg.isZero());
  CHECK(app.state.scene.variants->core.gate.size() == 0);
  app.frame();
  CHECK(ui::widget_rect(app.state, "variants/gate/grid").has_value());
  CHECK_FALSE(ui::widget_rect(app.state, "variants/gate/0/0").has_value());
  CHECK((app.state.heads.variant->gate_sigmoid.array() == 0.5).all());
}

// A sink logit per head: with two heads "same for all heads" starts ticked (one z); unticked, the
// slider edits the focused head's own z. The Weights grid of one head gets a "none" column of each
// row's sink share, and the row's weights plus it make 1.
TEST_CASE("Variants popup: one sink z per head, and the Weights grid's none column") {
  Headless app;
  REQUIRE(ui::load_scene_text(app.state, R"({"version": 2, "tokens": ["a", "b", "c"],
      "Q": [[1, 0, 2, 0], [0, 1, 0, 2], [1, 1, -1, 0]], "K": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 1, 1]],
      "V": [[1, 0], [0, 1], [1, 1]], "heads": 2, "scale": "sqrt_dk"})")
              .empty());
  REQUIRE(app.state.scene.heads == 2);
  // Two heads' rows (heads, K/V groups) push Generate… and Variants… below the Controls panel's fold
  // at 1280×800: a taller window shows them.
  ImGui::GetIO().DisplaySize = ImVec2(1600, 1200);
  for (int i = 0; i < 4; ++i) app.frame();
  click(app, "variants");
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "variants/sink").has_value());
  click(app, "variants/sink");
  app.frame();
  REQUIRE(app.state.scene.variants->core.sink_logit == std::vector<double>{0.0});
  REQUIRE(ui::widget_rect(app.state, "variants/sink/z").has_value());
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "variants/sink/all").has_value());
  click(app, "variants/sink/all");  // unticked: one z per head, each the shared one
  app.frame();
  REQUIRE(app.state.scene.variants->core.sink_logit == std::vector<double>{0.0, 0.0});
  // Head 1 focused: the slider (pressed right of its centre, z jumps there) edits z_1 only.
  ui::set_focus_head(app.state, 1);
  app.frame();
  app.frame();
  const ImVec2 c = app.centre("variants/sink/z");
  const std::optional<ImVec4> r = ui::widget_rect(app.state, "variants/sink/z");
  app.mouse(ImVec2(c.x + 0.3f * r->z, c.y), false);
  app.frame();
  app.mouse(ImVec2(c.x + 0.3f * r->z, c.y), true);
  app.frame();
  app.mouse(ImVec2(c.x + 0.3f * r->z, c.y), false);
  app.frame();
  app.frame();
  const std::vector<double> z =
      app.state.scene.variants->core.sink_logit;  // a copy: the keys are replaced on edit
  REQUIRE(z.size() == 2);
  CHECK(z[0] == 0.0);
  CHECK(z[1] > 1.0);
  // Each head's rows: e^z_t joins its softmax's sum; the weights plus the sink's share make 1.
  for (int t = 0; t < 2; ++t) {
    const attn::Result& head = app.state.heads.heads[std::size_t(t)];
    const std::vector<double>& sink = app.state.heads.variant->heads[std::size_t(t)].sink_weight;
    for (Eigen::Index i = 0; i < head.scaled.rows(); ++i) {
      double sum = std::exp(z[std::size_t(t)]);
      for (Eigen::Index j = 0; j < head.scaled.cols(); ++j) sum += std::exp(head.scaled(i, j));
      CHECK(sink[std::size_t(i)] == doctest::Approx(std::exp(z[std::size_t(t)]) / sum).epsilon(1e-12));
      CHECK(head.weights.row(i).sum() + sink[std::size_t(i)] == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
  // Ticked again: every head takes the focused head's z.
  click(app, "variants/sink/all");
  app.frame();
  CHECK(app.state.scene.variants->core.sink_logit == std::vector<double>{z[1]});

  // One head (soft-dictionary): the Weights grid has its "none" column only with a sink.
  Headless one;
  CHECK_FALSE(ui::widget_rect(one.state, "weights/none").has_value());
  click(one, "variants");
  one.frame();
  click(one, "variants/sink");
  one.frame();
  one.frame();
  const std::optional<ImVec4> none = ui::widget_rect(one.state, "weights/none");
  REQUIRE(none.has_value());
  const ui::GridGeometry& grid = one.state.ui.frame.weights_grid;
  CHECK(none->x > grid.origin.x + grid.cell * 2.0f);                  // right of the grid's two columns
  CHECK(none->w == doctest::Approx(grid.cell * 2.0f).epsilon(0.05));  // as tall as its two rows
}

// QK-norm's readout: the focused head's scaled scores' range and mean row entropy with QK-norm on and
// off, checked against the RMS norm, the scores and the softmax computed here (soft-dictionary: no scale).
TEST_CASE("Variants popup: QK-norm's range and entropy, on and off") {
  Headless app;
  click(app, "variants");
  app.frame();
  CHECK_FALSE(ui::widget_rect(app.state, "variants/qk_norm/compare").has_value());
  click(app, "variants/qk_norm");
  app.frame();
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "variants/qk_norm/compare").has_value());
  const attn::Matrix& Q = app.state.scene.Q;
  const attn::Matrix& K = app.state.scene.K;
  auto rms_rows = [](const attn::Matrix& m) {
    attn::Matrix out = m;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      out.row(i) /= std::sqrt(m.row(i).squaredNorm() / double(m.cols()) + 1e-6);
    return out;
  };
  auto spread = [](const attn::Matrix& s) {
    ui::ScoreSpread out;
    out.any = true;
    out.lo = s.minCoeff();
    out.hi = s.maxCoeff();
    for (Eigen::Index i = 0; i < s.rows(); ++i) {
      const double sum = (s.row(i).array() - s.row(i).maxCoeff()).exp().sum();
      for (Eigen::Index j = 0; j < s.cols(); ++j) {
        const double a = std::exp(s(i, j) - s.row(i).maxCoeff()) / sum;
        out.entropy -= a * std::log(a) / double(s.rows());
      }
    }
    return out;
  };
  const ui::ScoreSpread on = spread(rms_rows(Q) * rms_rows(K).transpose());
  const ui::ScoreSpread off = spread(Q * K.transpose());
  const ui::QkNormCompare got = ui::qk_norm_compare(app.state.scene, 0);
  CHECK(got.as_is.lo == doctest::Approx(on.lo).epsilon(1e-12));
  CHECK(got.as_is.hi == doctest::Approx(on.hi).epsilon(1e-12));
  CHECK(got.as_is.entropy == doctest::Approx(on.entropy).epsilon(1e-9));
  CHECK(got.flipped.lo == doctest::Approx(off.lo).epsilon(1e-12));
  CHECK(got.flipped.hi == doctest::Approx(off.hi).epsilon(1e-12));
  CHECK(got.flipped.entropy == doctest::Approx(off.entropy).epsilon(1e-9));
  // The norm shrinks the scores' range (10 → 2) and so spreads the weights: more entropy.
  CHECK(off.hi - off.lo == doctest::Approx(10.0));
  CHECK(on.hi - on.lo < 2.1);
  CHECK(on.entropy > off.entropy + 0.1);
  // The screen's numbers are the state's: the readout of the scene as drawn.
  const ui::ScoreSpread drawn = ui::score_spread(app.state.result);
  CHECK(drawn.hi == doctest::Approx(on.hi).epsilon(1e-12));
}

// The formula strip writes each variant's formula (ui/panels/formula_strip.cpp), read back as text.
TEST_CASE("the formula strip of a variant scene: its own formula and settings") {
  Headless app;
  CHECK(ui::formula_text(app.state) == "Y = softmax( Q Kᵀ + M ) V");  // soft-dictionary: no scale
  struct Case {
    const char* json;
    const char* formula;
  };
  const char* base =
      R"("tokens": ["a", "b"], "Q": [[1, 0, 1, 0], [0, 1, 0, 1]], "K": [[1, 0, 0, 1], [0, 1, 1, 0]],
                       "V": [[1, 0], [0, 1]], "causal": true)";
  for (const Case& c : {
           Case{R"("softcap": 2, "sink_logit": 0.5)",
                "Y = softmax( c·tanh( Q Kᵀ / √d_k / c) + M ) V ,  sink z = 0.50,  c = 2.00"},
           Case{R"("qk_norm": {}, "topk": 1)", "Y = softmax( norm(Q) norm(K)ᵀ / √d_k + M ) V ,  top-k k = 1"},
           Case{R"("differential": {"lambda": 0.8})",
                "Y = ( softmax( Q₁ K₁ᵀ / √d_k + M ) − λ softmax( Q₂ K₂ᵀ / √d_k + M ) ) V ,  λ = 0.80"},
           Case{R"("linear": "elu1")", "Y = rownorm( φ(Q) φ(K)ᵀ ⊙ M ) V ,  φ = elu + 1"},
           Case{R"("heads": 2, "sink_logit": [1, 0])",
                "Y = softmax( Q Kᵀ / √d_k + M ) V ,  sink z = 1.00 · 0.00"},
       }) {
    const std::string json = std::string(R"({"version": 2, )") + base + ", " + c.json + "}";
    INFO(json);
    REQUIRE(ui::load_scene_text(app.state, json).empty());
    CHECK(ui::formula_text(app.state) == c.formula);
  }
}

// The KV-cache calculator's kinds (Decode mode; core/kv_bill.hpp): MLA's latent and linear
// attention's state, each beside multi-head attention of the same heads.
TEST_CASE("KV-cache calculator: MLA's latent and linear attention's state, by their radio buttons") {
  Headless app;
  click(app, "mode/decode");
  app.frame();
  ui::KvCalculator& calc = app.state.ui.decode.calculator;
  REQUIRE(calc.shape.kind == attn::KvKind::Heads);  // Llama 2 7B: 32 layers, 32 heads of 128
  click(app, "decode/kv/kind/latent");
  app.frame();
  CHECK(calc.shape.kind == attn::KvKind::Latent);
  CHECK(calc.shape.latent == 512);  // DeepSeek-V2's d_c and d_rope to start
  CHECK(calc.shape.rope_dim == 64);
  CHECK(calc.preset == -1);  // the learner's own shape now
  CHECK(attn::kv_bytes_per_token(calc.shape) == 32LL * (512 + 64) * 2);
  REQUIRE(ui::widget_rect(app.state, "decode/kv/latent").has_value());
  CHECK_FALSE(ui::widget_rect(app.state, "decode/kv/kv-heads").has_value());  // no H_kv: one latent per layer
  click(app, "decode/kv/kind/linear");
  app.frame();
  CHECK(calc.shape.kind == attn::KvKind::Linear);
  CHECK(attn::kv_bytes_per_context(calc.shape) == 32LL * 32 * (128 * 128 + 128) * 2);
  // The published MLA shapes are in the Model list: DeepSeek-V2 by its numbers.
  const auto& presets = attn::kv_presets();
  const auto v2 = std::find_if(presets.begin(), presets.end(),
                               [](const attn::KvPreset& p) { return std::string(p.name) == "deepseek-v2"; });
  REQUIRE(v2 != presets.end());
  CHECK(v2->shape.kind == attn::KvKind::Latent);
  CHECK(v2->shape.layers == 60);
}

#if AL_ALL_MODES
// Linear attention in the Decode mode: beside the growing cache, the recurrent form's fixed-size state
// at step t (S_t, z_t) and y_t read from it, equal to the matrix form's row t (the duality).
TEST_CASE("Decode mode, linear attention: the state S_t shown at step t and y_t = the matrix form's row t") {
  Headless app;
  app.state.ui.settings.mode = scene::link::Mode::Decode;
  app.frame();
  app.frame();
  CHECK_FALSE(ui::widget_rect(app.state, "decode/linear/state").has_value());  // a softmax scene: no state
  CHECK_FALSE(app.state.ui.decode.linear.has_value());
  const std::string base = R"({"version": 2, "tokens": ["the", "cat", "sat", "on", "mats"],
    "Q": [[1, 0], [0, 1], [1, 1], [1, -1], [-1, 1]],
    "K": [[0.5, 0], [0, 1], [1, 1], [1, -1], [-1, 0.5]],
    "V": [[1, 0, 2], [0, 1, -1], [1, 1, 0], [1, -1, 2], [-1, 2, 1]], "linear": "elu1", )";
  REQUIRE(ui::load_scene_text(app.state, base + R"("causal": true})").empty());
  app.frame();
  app.frame();
  REQUIRE(ui::widget_rect(app.state, "decode/linear/state").has_value());
  CHECK(ui::widget_rect(app.state, "decode/linear/z").has_value());
  CHECK(ui::widget_rect(app.state, "decode/linear/size").has_value());
  CHECK(ui::widget_rect(app.state, "decode/linear/output").has_value());
  for (int k = 0; k < 3; ++k) click(app, "decode/next");
  app.frame();
  const ui::DecodeStepper& d = app.state.ui.decode;
  REQUIRE(d.t == 3);
  REQUIRE(d.linear.has_value());
  const ui::LinearDecodeStep& L = *d.linear;
  CHECK(L.t == 3);
  // Independently: φ(x) = x + 1 for x > 0, eˣ otherwise; S_3 = Σ_{j≤3} φ(k_j) v_jᵀ, z_3 = Σ_{j≤3} φ(k_j).
  const attn::Matrix &K = app.state.scene.K, &V = app.state.scene.V, &Q = app.state.scene.Q;
  auto phi = [](double x) { return x > 0 ? x + 1 : std::exp(x); };
  REQUIRE(L.S.rows() == 2);
  REQUIRE(L.S.cols() == 3);
  double norm = 0;
  attn::Matrix y = attn::Matrix::Zero(1, 3);
  for (int a = 0; a < 2; ++a) {
    double z = 0;
    for (int j = 0; j <= 3; ++j) z += phi(K(j, a));
    CHECK(std::abs(L.z(0, a) - z) < 1e-12);
    norm += phi(Q(3, a)) * z;
    for (int b = 0; b < 3; ++b) {
      double s = 0;
      for (int j = 0; j <= 3; ++j) s += phi(K(j, a)) * V(j, b);
      CHECK(std::abs(L.S(a, b) - s) < 1e-12);
      y(0, b) += phi(Q(3, a)) * s;
    }
  }
  y /= norm;
  for (int c = 0; c < 3; ++c) {
    CHECK(std::abs(L.y_recurrent(0, c) - y(0, c)) < 1e-12);
    CHECK(std::abs(L.y_recurrent(0, c) - app.state.result.output(3, c)) < 1e-12);  // the matrix form's row 3
  }
  CHECK(L.max_diff < 1e-12);
  CHECK(L.plain_causal);
  // The page reads the same numbers.
  ui::PageJson ui_json;
  ui::decode_page_state(app.state, ui_json);
  CHECK(ui_json["decode"]["linear"]["S"][1][2].get<double>() == L.S(1, 2));
  CHECK(ui_json["decode"]["linear"]["state_numbers"].get<int>() == 2 * 3 + 2);
  // Not causal: the recurrent form is still the causal one, and the matrix form's row differs.
  REQUIRE(ui::load_scene_text(app.state, base + R"("causal": false})").empty());
  app.frame();
  app.frame();
  REQUIRE(d.linear.has_value());
  CHECK_FALSE(d.linear->plain_causal);
  CHECK(d.linear->max_diff > 1e-6);
}

// A multi-head linear scene: the state is the focused head's, d_k/h × d_v/h, and y_t its output row.
TEST_CASE("Decode mode, linear attention with 2 heads: the focused head's state and output") {
  Headless app;
  app.state.ui.settings.mode = scene::link::Mode::Decode;
  REQUIRE(ui::load_scene_text(app.state, R"({"version": 2, "tokens": ["a", "b", "c", "d"], "heads": 2,
    "Q": [[1, 0, 0.5, -1], [0, 1, 1, 0], [1, 1, 0, 0.2], [1, -1, 0.3, 0]],
    "K": [[0.5, 0, 1, -1], [0, 1, -0.5, 0], [1, 1, 0, 0.7], [1, -1, 0.3, 0]],
    "V": [[1, 0, 2, -1], [0, 1, -1, 0.5], [1, 1, 0, 0], [1, -1, 2, 0.1]], "causal": true, "linear": "elu1"})")
              .empty());
  ui::set_focus_head(app.state, 1);
  app.frame();
  app.frame();
  click(app, "decode/next");
  click(app, "decode/next");
  app.frame();
  const ui::DecodeStepper& d = app.state.ui.decode;
  REQUIRE(d.t == 2);
  REQUIRE(d.linear.has_value());
  REQUIRE(d.linear->S.rows() == 2);
  REQUIRE(d.linear->S.cols() == 2);
  const attn::Matrix &K = app.state.scene.K, &V = app.state.scene.V;
  auto phi = [](double x) { return x > 0 ? x + 1 : std::exp(x); };
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      double s = 0;
      for (int j = 0; j <= 2; ++j) s += phi(K(j, 2 + a)) * V(j, 2 + b);  // head 1: columns 2, 3
      CHECK(std::abs(d.linear->S(a, b) - s) < 1e-12);
    }
  for (int c = 0; c < 2; ++c)
    CHECK(std::abs(d.linear->y_recurrent(0, c) - app.state.heads.heads[1].output(2, c)) < 1e-12);
  CHECK(d.linear->max_diff < 1e-12);
}
#endif

#if AL_ALL_MODES
TEST_CASE(
    "a Circuits link's probe= reopens the model probed as it was left: text, ablated heads, opened head") {
  Headless app;
  const scene::Recipe recipe = *scene::parse_recipe("induction,2,2,32,1,0.01,30").recipe;
  scene::link::CircuitsProbe probe;
  probe.text = "abcabcab";
  probe.ablate = {"0.1"};
  probe.open_layer = 1;
  probe.open_head = 0;
  // Through the link's own text: what the page reads from the address.
  const scene::link::Fragment f =
      scene::link::parse_fragment(scene::link::make_circuits_fragment(recipe, {}, &probe).fragment);
  REQUIRE(f.ok());
  REQUIRE(!f.probe.empty());
  CHECK(*scene::link::parse_circuits_probe(f.probe).probe == probe);

  // The web's start: the model is rebuilt over the next frames, the probe waits for it.
  ui::LinkStart start;
  start.mode = scene::link::Mode::Circuits;
  start.recipe = f.circuits;
  start.probe = f.probe;
  app.state.ui.settings.mode = *start.mode;
  ui::circuits_apply_start(app.state, start);
  ui::CircuitsUi& c = app.state.ui.circuits;
  CHECK(c.pending_probe.has_value());
  CHECK(c.text == ui::kCircuitsText);
  // While it rebuilds, the link is the one opened.
  CHECK(ui::circuits_probe(app.state) == probe);
  for (int k = 0; k < 200 && c.pending_probe; ++k) app.frame();
  REQUIRE_FALSE(c.pending_probe.has_value());
  REQUIRE(c.trainer->steps() == 30);
  CHECK(c.text == "abcabcab");
  CHECK(c.ablation.is_off(0, 1));
  CHECK_FALSE(c.ablation.is_off(0, 0));
  CHECK_FALSE(c.ablation.is_off(1, 0));
  // The head is open in Explore with the model's numbers on the text, head 0.1 switched off: the
  // scene is head_scene of that forward pass, its weights the pattern (the scene's own pass sums in
  // another order: within 1e-12).
  CHECK(app.state.ui.settings.mode == scene::link::kDefaultMode);
  CHECK(c.opened_layer == 1);
  CHECK(c.opened_head == 0);
  const attn::model::Model& m = c.trainer->model();
  std::string error;
  const std::vector<int> tokens = attn::model::tokenize(m, "abcabcab", &error);
  const attn::model::Forward fwd = attn::model::forward(m, tokens, c.ablation);
  CHECK(app.state.scene.X == scene::head_scene(m, fwd, 1, 0).X);
  ui::recompute_if_dirty(app.state);
  CHECK((app.state.result.weights - fwd.layers[1].heads[0].weights).cwiseAbs().maxCoeff() <= 1e-12);
  // The model without the ablation gives other numbers: the probe's ablation is what made these.
  CHECK_FALSE(attn::model::forward(m, tokens, attn::model::Ablation{}).layers[1].heads[0].weights ==
              fwd.layers[1].heads[0].weights);
  // And the link made now is the one opened.
  CHECK(ui::circuits_probe(app.state) == probe);

  // A probe naming a head the model does not have: that part is left out with its reason, the rest
  // applies (the desktop's start: trained at once).
  scene::link::CircuitsProbe bad;
  bad.text = "abab";
  bad.ablate = {"3.0"};
  start.probe = scene::link::circuits_probe_text(bad);
  start.recipe_at_once = true;
  app.state.ui.settings.mode = scene::link::Mode::Circuits;
  ui::circuits_apply_start(app.state, start);
  CHECK(c.text == "abab");
  CHECK_FALSE(c.ablation.is_off(0, 1));  // the link's model starts with every head on
  CHECK(app.state.notice == "probe: ablate: the model has no head 3.0");
  // A model not probed writes no probe=: such a link is byte for byte the one before probes existed.
  start.probe.clear();
  ui::circuits_apply_start(app.state, start);
  CHECK(ui::circuits_probe(app.state) == scene::link::CircuitsProbe{});
  const scene::link::CircuitsProbe none = ui::circuits_probe(app.state);
  CHECK(scene::link::make_circuits_fragment(recipe, {}, &none).fragment ==
        "circuits=induction,2,2,32,1,0.01,30&mode=circuits");
}
#endif

// The hover of a head's pattern says what the cell is: a weight on or below the diagonal, and above
// it the causal mask (a later position), never a weight "0.0000" as if the head had chosen it.
TEST_CASE("Circuits: hovering a head's masked cell says masked, an allowed one its weight") {
  Headless app;
  app.state.ui.settings.mode = scene::link::Mode::Circuits;
  for (int k = 0; k < 4; ++k) app.frame();
  const ui::CircuitsUi& c = app.state.ui.circuits;
  REQUIRE(c.trainer);
  const int n = int(c.sample.tokens.size());
  REQUIRE(n >= 4);
  const std::optional<ImVec4> r = ui::widget_rect(app.state, "circuits/head/0/0");
  REQUIRE(r.has_value());
  auto hover = [&](int i, int j) {  // the centre of cell (i, j)
    app.mouse(ImVec2(r->x + (float(j) + 0.5f) * r->z / float(n), r->y + (float(i) + 0.5f) * r->w / float(n)),
              false);
    app.frame();
    app.frame();
    return app.state.ui.frame.shown.tooltip;
  };
  const std::string masked = hover(1, 3);
  CHECK(masked.rfind("A[1][3] (masked: 0)", 0) == 0);
  const std::string allowed = hover(3, 1);
  char want[64];
  std::snprintf(want, sizeof want, "A[3][1] = %.4f", c.sample.forward.layers[0].heads[0].weights(3, 1));
  CHECK(allowed.rfind(want, 0) == 0);
}

TEST_CASE("the Circuits heads are one texture: each head painted from its block, uploaded once per sample") {
  Headless app;
  app.state.ui.settings.mode = scene::link::Mode::Circuits;
  for (int k = 0; k < 4; ++k) app.frame();
  ui::CircuitsUi& c = app.state.ui.circuits;
  REQUIRE(c.trainer);
  const attn::model::Model& m = c.trainer->model();
  const int L = m.n_layers(), H = m.n_heads(), n = int(c.sample.tokens.size());
  REQUIRE(L * H >= 4);
  REQUIRE(n == int(std::string(ui::kCircuitsText).size()));
  const int slot = int(ui::MatrixSlot::CircuitsHeads);
  // The texture: L·n rows × H·n columns, head (l, h)'s weights at rows l·n…, columns h·n…, the
  // causally masked cells above the diagonal hatched (kMaskedValue).
  auto check_texture = [&] {
    const TexturePainter::Texture& t = app.painter.textures.at(slot);
    REQUIRE(t.rows == L * n);
    REQUIRE(t.cols == H * n);
    for (int l = 0; l < L; ++l)
      for (int h = 0; h < H; ++h) {
        const attn::Matrix& A = c.sample.forward.layers[std::size_t(l)].heads[std::size_t(h)].weights;
        bool same = true;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            same &= t.values[std::size_t(l * n + i) * std::size_t(t.cols) + std::size_t(h * n + j)] ==
                    (j <= i ? float(A(i, j)) : ui::kMaskedValue);
        CHECK_MESSAGE(same, "head ", l, ".", h);
      }
  };
  check_texture();
  // One upload while the sample stays; each frame paints every head once, from its own block.
  CHECK(app.painter.whole_uploads[slot] == 1);
  app.painter.paints.clear();
  app.frame();
  std::vector<ImVec4> views;
  for (const auto& [s, v] : app.painter.paints)
    if (s == slot) views.push_back(v);
  REQUIRE(int(views.size()) == L * H);
  for (int l = 0, k = 0; l < L; ++l)
    for (int h = 0; h < H; ++h, ++k) {
      CHECK(views[std::size_t(k)].x == float(h * n));
      CHECK(views[std::size_t(k)].y == float(l * n));
      CHECK(views[std::size_t(k)].z == float((h + 1) * n));
      CHECK(views[std::size_t(k)].w == float((l + 1) * n));
    }
  CHECK(app.painter.whole_uploads[slot] == 1);
  // A training step changes every pattern: one new upload, the new weights.
  ui::circuits_step(app.state);
  app.frame();
  CHECK(app.painter.whole_uploads[slot] == 2);
  check_texture();
  // The grid's window draws captions, outlines and toggles, not a rectangle per cell: 4 heads of 21
  // tokens drawn cell by cell were 924 rectangles (3,696 vertices) on their own.
  int heads_vertices = -1;
  const ImDrawData* dd = ImGui::GetDrawData();
  for (int k = 0; k < dd->CmdListsCount; ++k)
    if (std::string(dd->CmdLists[k]->_OwnerName).find("/Heads_") != std::string::npos)  // a child window
      heads_vertices = dd->CmdLists[k]->VtxBuffer.Size;
  REQUIRE(heads_vertices >= 0);
  CHECK(heads_vertices < 2000);
}

#if AL_ALL_MODES
// Cross-attention (web/demos/cross-attention.json): 4 English queries look up 3 French sources. Every
// grid of Explore and Heads is 4×3, its columns the sources; the weights are softmax(QKᵀ/√3) row by row
// (NumPy, 9 decimals); the modes that follow one sequence say so.
TEST_CASE("cross-attention in the app: n×m grids labelled by the sources, edits that keep m, other modes") {
  Headless app;
  ImGui::GetIO().DisplaySize = ImVec2(1280, 1600);  // tall: the vectors panel shows every block
  const std::string text = R"({"version": 2, "tokens": ["the", "cat", "is", "sleeping"],
    "sources": ["le", "chat", "dort"],
    "Q": [[3, 0, 0], [0, 3, 0], [0, 1, 2], [0, 0, 3]], "K": [[3, 0, 0], [0, 3, 0], [0, 0, 3]],
    "V": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "scale": "sqrt_dk"})";
  REQUIRE(ui::load_scene_text(app.state, text).empty());
  for (int k = 0; k < 3; ++k) app.frame();
  CHECK(app.state.error.empty());
  const ui::AppState& s = app.state;
  for (const ui::GridGeometry* g :
       {&s.ui.frame.scores_grid, &s.ui.frame.weights_grid, &s.ui.frame.mask_grid}) {
    CHECK(g->visible);
    CHECK(g->rows == 4);
    CHECK(g->cols == 3);
  }
  const double want[3] = {0.025906750, 0.146431003, 0.827662247};  // 'is' over le, chat, dort (NumPy)
  for (int j = 0; j < 3; ++j) CHECK(std::abs(s.result.weights(2, j) - want[j]) < 1e-9);
  CHECK(ui::formula_text(s) == "Y = softmax( Q Kᵀ / √d_k + M ) V ,  K, V: 3 sources");
  // Columns are the sources: three key labels, none for a fourth.
  CHECK(ui::widget_rect(s, "label/weights/col/2").has_value());
  CHECK_FALSE(ui::widget_rect(s, "label/weights/col/3").has_value());
  // The vectors panel: q for the 4 queries, k and v for the 3 sources.
  CHECK(ui::widget_rect(s, "Q/3/0").has_value());
  CHECK(ui::widget_rect(s, "K/2/0").has_value());
  CHECK(ui::widget_rect(s, "V/2/2").has_value());
  CHECK_FALSE(ui::widget_rect(s, "K/3/0").has_value());
  // Hovering weight (3, 2) names 'sleeping' and the source 'dort'.
  const ui::GridGeometry& wg = s.ui.frame.weights_grid;
  app.mouse(ImVec2(wg.origin.x + 2.5f * wg.cell, wg.origin.y + 3.5f * wg.cell), false);
  app.frame();
  app.frame();
  CHECK(s.ui.frame.shown.hovered_row == 3);
  CHECK(s.ui.frame.shown.hovered_col == 2);
  CHECK(s.ui.frame.shown.tooltip.find("dort") != std::string::npos);
  app.mouse(ImVec2(0, 0), false);
  // A mask cell hides source 'dort' from 'sleeping': the mask is 4×3 and the row renormalises.
  ui::toggle_mask_cell(app.state, 3, 2);
  app.frame();
  CHECK(s.scene.mask.rows() == 4);
  CHECK(s.scene.mask.cols() == 3);
  CHECK(s.result.weights(3, 2) == 0.0);
  CHECK(std::abs(s.result.weights(3, 0) - 0.5) < 1e-12);
  // One more query token: Q grows, the sources' K and V keep their 3 rows.
  ui::set_token_count(app.state, 5);
  app.frame();
  CHECK(s.notice.empty());
  CHECK(s.scene.Q.rows() == 5);
  CHECK(s.scene.K.rows() == 3);
  CHECK(s.scene.V.rows() == 3);
  CHECK(s.ui.frame.weights_grid.rows == 5);
  CHECK(s.ui.frame.weights_grid.cols == 3);
  // Make learned has no X = [Q | K | V] for two sequences: refused, the scene kept.
  CHECK_FALSE(ui::make_learned(app.state));
  CHECK(s.notice.find("cross-attention") != std::string::npos);
  CHECK(s.scene.mode == scene::Mode::Direct);
  // Heads: two heads' small multiples, each 5×3.
  app.state.ui.settings.mode = scene::link::Mode::Heads;
  ui::set_heads(app.state, 3);
  app.frame();
  app.frame();
  REQUIRE(s.scene.heads == 3);
  REQUIRE(s.ui.frame.head_grids.size() == 4);
  CHECK(s.ui.frame.head_grids[1].rows == 5);
  CHECK(s.ui.frame.head_grids[1].cols == 3);
  // The walk follows query 'is' over the 3 sources: its scores step lists le, chat and dort.
  ui::set_heads(app.state, 1);
  app.state.ui.settings.mode = scene::link::Mode::Walk;
  app.state.ui.walk.row = 2;
  app.frame();
  app.frame();
  const std::string scores = ui::walk::live_numbers(ui::walk::Stage::Scores, s.scene, s.result, 2);
  CHECK(scores.find("'le' 0") != std::string::npos);
  CHECK(scores.find("'dort' 6") != std::string::npos);
  CHECK(ui::walk::live_numbers(ui::walk::Stage::Projections, s.scene, s.result, 2) ==
        "Row 'is': q = [0, 1, 2].");
  CHECK(s.ui.frame.weights_grid.cols == 3);
  // Key space: the 5 queries and the 3 sources' keys and values, each a handle.
  app.state.ui.settings.mode = scene::link::Mode::KeySpace;
  app.frame();
  app.frame();
  CHECK(ui::widget_rect(s, "keyspace/q/4").has_value());
  CHECK(ui::widget_rect(s, "keyspace/k/2").has_value());
  CHECK_FALSE(ui::widget_rect(s, "keyspace/k/3").has_value());
  CHECK(ui::widget_rect(s, "valuespace/v/2").has_value());
  CHECK_FALSE(ui::widget_rect(s, "valuespace/v/3").has_value());
  // FlashAttention follows one sequence: a note, and a button back to Explore.
  app.state.ui.settings.mode = scene::link::Mode::Flash;
  app.frame();
  app.frame();
  CHECK(ui::widget_rect(s, "cross/explore").has_value());
  CHECK_FALSE(ui::widget_rect(s, "label/weights/col/0").has_value());  // no grid drawn
  click(app, "cross/explore");
  CHECK(s.ui.settings.mode == scene::link::Mode::Explore);
}
#endif

// A latent-attention scene ("mla", DeepSeek-V2) is an ordinary multi-head scene to the app: head t's
// K = [c W_uk,t | k_R], its V = c W_uv,t; the Variants popup's other switches are refused naming mla,
// and the popup's line reads the cache size and the absorbed form from the result.
TEST_CASE("Variants popup: a latent-attention scene draws as two heads; the other variants are refused") {
  Headless app;
  const std::string json =
      R"({"version":2,"tokens":["the","cat","sat","down"],"X":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[1,0,0,1]],)"
      R"("Wq":[[2,0,0,0,0,2,0,0],[0,2,0,0,2,0,0,0],[0,0,1,0,0,0,1,0],[0,0,0,1,0,0,0,1]],"causal":true,)"
      R"("heads":2,"rope":{"base":100},"mla":{"W_dkv":[[1,0],[0,1],[1,1],[0.5,-0.5]],)"
      R"("W_uk":[[1,0,1,-1],[0,1,1,1]],"W_uv":[[1,0,1,0,0,1,0,1],[0,1,0,1,1,0,1,0]],"W_kr":[[0,0],[0,0],[1,0],[0,1]]}})";
  REQUIRE(ui::load_scene_text(app.state, json).empty());
  ImGui::GetIO().DisplaySize = ImVec2(1280, 1400);  // a learned RoPE scene's Controls need the height
  app.frame();
  app.frame();
  click(app, "variants");
  app.frame();
  app.frame();
  REQUIRE(app.state.heads.heads.size() == 2);
  REQUIRE(app.state.heads.variant != nullptr);
  REQUIRE(app.state.heads.variant->mla != nullptr);
  CHECK(app.state.heads.variant->mla->cache_numbers_per_token == 4);
  CHECK(app.state.heads.K.cols() + app.state.heads.V.cols() == 16);  // the popup's 2·h·d_head
  CHECK(app.state.result.K.cols() == 4);                             // the focused head: d_nope + d_rope
  CHECK(ui::formula_text(app.state).find(",  K_t = [c W_uk,t | k_R],  V_t = c W_uv,t,  c = X W_dkv") !=
        std::string::npos);
  scene::VariantKeys with_softcap = *app.state.scene.variants;
  with_softcap.core.softcap = 2.0;
  CHECK(ui::variant_keys_problem(app.state, with_softcap).rfind("mla:", 0) == 0);
  click(app, "variants/softcap");
  app.frame();
  CHECK(app.state.scene.variants->core.softcap == 0.0);
  CHECK(scene::is_mla(app.state.scene));
  click(app, "mode/heads");
  app.frame();
  app.frame();
  CHECK(scene::is_mla(app.state.scene));
  // Wk and Wv are derived: an edit of theirs is refused and the scene stays. An edit of Q makes the
  // scene direct with RoPE applied (the heads' [q_nope | RoPE(q_R)] and [k_t | k_R]): the same weights.
  const attn::Matrix before = app.state.heads.heads[1].weights;
  ui::set_entry(app.state, ui::SceneMatrix::Wk, 0, 0, 5.0);
  app.frame();
  CHECK(scene::is_mla(app.state.scene));
  CHECK(app.state.heads.heads[1].weights == before);
  ui::set_entry(app.state, ui::SceneMatrix::Q, 0, 0, app.state.heads.Q_rope(0, 0));
  app.frame();
  CHECK(app.state.scene.mode == scene::Mode::Direct);
  CHECK_FALSE(scene::has_variants(app.state.scene));
  REQUIRE(app.state.heads.heads.size() == 2);
  CHECK((app.state.heads.heads[1].weights - before).cwiseAbs().maxCoeff() < 1e-12);
}

// Top-k (DeepSeek Sparse Attention's selection): the popup counts the pairs softmax still reads and
// draws the selection as a mask. With causal on and k = 2 over 6 tokens, query i keeps min(2, i + 1)
// of its i + 1 allowed keys: 11 of 21, of 36 pairs.
TEST_CASE("Variants popup: top-k's cost (kept of allowed pairs) and its selection as a mask") {
  Headless app;
  ImGui::GetIO().DisplaySize = ImVec2(1280, 1400);
  const std::string text = R"({"version": 2, "tokens": ["the", "cat", "sat", "on", "the", "mat"],
    "Q": [[1, 0], [0, 1], [1, 1], [1, -1], [1, 0.5], [0.5, 1]],
    "K": [[1, 0], [0, 1], [1, 1], [1, -1], [-1, 1], [0.5, 0.5]],
    "V": [[1, 0], [0, 1], [1, 1], [1, -1], [-1, 1], [0.5, 0.5]], "causal": true, "topk": 2})";
  REQUIRE(ui::load_scene_text(app.state, text).empty());
  app.frame();
  app.frame();
  click(app, "variants");
  app.frame();
  app.frame();
  const ui::TopkCount c = ui::topk_count(app.state);
  REQUIRE(c.selected != nullptr);
  CHECK(c.kept == 11);
  CHECK(c.allowed == 21);
  CHECK(c.pairs == 36);
  // The kept pairs are exactly those with a non-zero weight: each row's 2 best allowed scores.
  for (Eigen::Index i = 0; i < 6; ++i) {
    int kept = 0;
    for (Eigen::Index j = 0; j < 6; ++j) {
      kept += (*c.selected)(i, j);
      CHECK(((*c.selected)(i, j) != 0) == (app.state.result.weights(i, j) > 0.0));
    }
    CHECK(kept == std::min<int>(2, int(i) + 1));
  }
  CHECK(ui::widget_rect(app.state, "variants/topk/selection").has_value());
  // Without top-k there is nothing to count.
  click(app, "variants/topk");
  app.frame();
  CHECK(ui::topk_count(app.state).selected == nullptr);
}
