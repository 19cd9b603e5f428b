// desktop_platform.cpp — platform.hpp for the native build (GLFW 3.3 + OpenGL 3.3 core).
//
// [SECTION] Scale: GLFW's content scale → font size and ImGui sizes
// [SECTION] Scene files: open (drop, Ctrl+O, SCENE.json), save (Ctrl+S), PNG export
// [SECTION] Frame hooks: the file dialog, GL error checks, the automation flags
// [SECTION] platform.hpp
//
// HiDPI: GLFW reports the monitor's content scale (e.g. 2 on a 4K laptop panel). With
// GLFW_SCALE_TO_MONITOR the window itself is already that many times larger on Linux and Windows,
// where ImGui works in framebuffer pixels; on macOS the framebuffer is denser than the window and
// ImGui's DisplayFramebufferScale covers that part. Fonts are rasterized at the product of both.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "app/desktop_demos.hpp"
#include "app/page_api.hpp"
#include "app/platform.hpp"
#include "app/screenshot.hpp"
#include "imgui.h"
#include "render/gl.hpp"
#include "scene/export.hpp"
#include "scene/scene.hpp"
#include "ui/frame/file_panel.hpp"
#include "ui/frame/sharing.hpp"
#include "ui/text/i18n.hpp"

namespace app {
namespace {

// Everything the desktop shell keeps between frames (there is one window).
struct Desktop {
  App* app = nullptr;
  ui::FileDialog dialog;
  std::vector<std::string> dropped;  // paths dropped on the window, handled at the next frame
  std::string last_scene_path;       // the scene file opened or saved last (prefills the dialog)
  std::string png_path;              // Export PNG: written when png_countdown reaches 0
  int png_countdown = 0;             // frames to wait so the closed dialog is not in the picture
  // The Export menu's choice, written by the SaveExport dialog.
  scene::ExportKind export_kind = scene::ExportKind::NumPy;
  scene::ExportStage export_stage = scene::ExportStage::Weights;
  // Sharing::save_text's file name and text, written by the SaveText dialog.
  std::string save_name, save_text;
};
Desktop g_desktop;

#ifdef NDEBUG
constexpr bool kDebugBuild = false;
#else
constexpr bool kDebugBuild = true;
#endif

//-------------------------------------------------------------------------------------------------
// [SECTION] Scale
//-------------------------------------------------------------------------------------------------

void on_content_scale(GLFWwindow* window, float, float) {
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(window))) ++a->events;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Scene files
//-------------------------------------------------------------------------------------------------

void on_drop(GLFWwindow* window, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_desktop.dropped.emplace_back(paths[i]);
  if (auto* a = static_cast<App*>(glfwGetWindowUserPointer(window))) ++a->events;
}

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

bool has_extension(const std::string& path, const char* ext) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return e == ext;
}

void set_title(App& app, const std::string& scene_path) {
  const std::string title = "Attention Lab — " + file_name(scene_path);
  glfwSetWindowTitle(app.window, title.c_str());
}

// Read, validate and show `path`. On failure the current scene stays and `error` says why, naming
// the file and the field ("causal-bad.json: K: row 2 has 3 entries, expected 4").
bool open_scene(App& app, const std::string& path, std::string* error) {
  std::string text;
  if (!platform_read_file(path, &text, error)) return false;
  // Keeps a bundled preset's name in the picker; on error the scene on screen stays.
  if (const std::string e = ui::load_scene_text(app.state, text); !e.empty()) {
    app.state.error.clear();  // the caller reports `error`
    *error = file_name(path) + ": " + e;
    return false;
  }
  app.state.notice = "Opened " + path;
  g_desktop.last_scene_path = path;
  set_title(app, path);
  ++app.events;
  return true;
}

// Write the scene as indented JSON v1 (scene::scene_to_json, 2 spaces), replacing the file.
bool save_scene(App& app, const std::string& path, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::error_code ec;
    const bool is_dir = std::filesystem::is_directory(path, ec);
    *error = path + (is_dir ? ": is a folder" : ": cannot write the file (missing folder or no permission)");
    return false;
  }
  out << scene::scene_to_json(app.state.scene, 2) << '\n';
  out.close();
  if (!out) {
    *error = path + ": writing failed (disk full?)";
    return false;
  }
  app.state.notice = "Saved " + path;
  g_desktop.last_scene_path = path;
  set_title(app, path);
  return true;
}

// The name a new file gets: the last scene file, else the preset's name, in the current folder.
std::string suggested_path(const App& app, const char* ext) {
  std::filesystem::path p =
      g_desktop.last_scene_path.empty()
          ? std::filesystem::path(app.state.preset_name.empty() ? "scene" : app.state.preset_name)
          : std::filesystem::path(g_desktop.last_scene_path);
  return p.replace_extension(ext).string();
}

void open_dialog(ui::FileAction action) {
  App& app = *g_desktop.app;
  std::string path;
  switch (action) {
    case ui::FileAction::OpenScene:
      path = g_desktop.last_scene_path;
      break;
    case ui::FileAction::SaveScene:
      path = suggested_path(app, ".json");
      break;
    case ui::FileAction::SavePng:
      path = suggested_path(app, ".png");
      break;
    case ui::FileAction::SaveExport: {
      // scene.py, scene-torch.py, scene-weights.tex, scene-weights.svg
      const scene::ExportKind kind = g_desktop.export_kind;
      const std::string stage = scene::export_stage_name(g_desktop.export_stage);
      const std::string suffix = kind == scene::ExportKind::PyTorch ? "-torch"
                                 : kind == scene::ExportKind::NumPy ? ""
                                                                    : "-" + stage;
      path = suggested_path(app, scene::export_extension(kind));
      path.insert(path.size() - std::string(scene::export_extension(kind)).size(), suffix);
      break;
    }
    case ui::FileAction::SaveText:
      path = g_desktop.save_name;
      break;
    case ui::FileAction::None:
      return;
  }
  ui::open_file_dialog(g_desktop.dialog, action, path);
  std::error_code ec;
  g_desktop.dialog.hint = "Relative paths start in " + std::filesystem::current_path(ec).string();
  ++app.events;
}

// Files dropped on the window: the first .json is opened; anything else is named in the banner.
void handle_drop(App& app) {
  if (g_desktop.dropped.empty()) return;
  const std::vector<std::string> paths = std::move(g_desktop.dropped);
  g_desktop.dropped.clear();
  const auto json = std::find_if(paths.begin(), paths.end(),
                                 [](const std::string& p) { return has_extension(p, ".json"); });
  if (json == paths.end()) {
    app.state.error = file_name(paths.front()) + ": not a scene file (drop a .json file)";
    return;
  }
  std::string error;
  if (!open_scene(app, *json, &error)) app.state.error = "Scene rejected — " + error;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Frame hooks
//-------------------------------------------------------------------------------------------------

void handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  const bool command = io.KeyCtrl || io.KeySuper;  // Ctrl, or ⌘ on macOS
  if (!command || g_desktop.dialog.action != ui::FileAction::None) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_O, false)) open_dialog(ui::FileAction::OpenScene);
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) open_dialog(ui::FileAction::SaveScene);
}

// Do what the dialog confirmed: "" on success, else the reason (the dialog stays open with it).
// Write the Export menu's text (the same as attention-lab-cli --export), replacing the file.
bool save_text_file(App& app, const std::string& path, const std::string& text, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::error_code ec;
    const bool is_dir = std::filesystem::is_directory(path, ec);
    *error = path + (is_dir ? ": is a folder" : ": cannot write the file (missing folder or no permission)");
    return false;
  }
  out << text;
  out.close();
  if (!out) {
    *error = path + ": writing failed (disk full?)";
    return false;
  }
  app.state.notice = "Saved " + path;
  return true;
}

bool save_export(App& app, const std::string& path, std::string* error) {
  const scene::ExportResult r =
      scene::export_scene(app.state.scene, scene::export_kind_name(g_desktop.export_kind),
                          scene::export_stage_name(g_desktop.export_stage));
  if (!r.ok()) {
    *error = r.error;
    return false;
  }
  return save_text_file(app, path, r.text, error);
}

std::string run_dialog_action(App& app, ui::FileAction action, const std::string& path) {
  ++app.events;  // show the result
  std::string error;
  switch (action) {
    case ui::FileAction::OpenScene:
      open_scene(app, path, &error);
      break;
    case ui::FileAction::SaveScene:
      save_scene(app, path, &error);
      break;
    case ui::FileAction::SavePng: {
      // Check the path now, while the dialog can still show the error; the picture is taken from
      // the next frame, which no longer has the dialog.
      std::ofstream probe(path, std::ios::binary | std::ios::app);
      if (!probe) {
        error = path + ": cannot write the file (missing folder or no permission)";
      } else {
        g_desktop.png_path = path;
        g_desktop.png_countdown = 2;  // frame_rendered of this frame, then of the next
        app.settle_frames = std::max(app.settle_frames, 3);
      }
      break;
    }
    case ui::FileAction::SaveExport:
      save_export(app, path, &error);
      break;
    case ui::FileAction::SaveText:
      save_text_file(app, path, g_desktop.save_text, &error);
      break;
    case ui::FileAction::None:
      break;
  }
  return error;
}

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "unknown GL error";
  }
}

// Print every pending GL error; true if there was none.
bool check_gl_errors(std::int64_t frame) {
  bool clean = true;
  for (int guard = 0; guard < 16; ++guard) {  // a lost context can report errors forever
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    std::fprintf(stderr, "attention-lab: GL error 0x%04x (%s) in frame %lld\n", unsigned(e), gl_error_name(e),
                 static_cast<long long>(frame));
    clean = false;
  }
  return clean;
}

// --rects: every named widget and every heatmap/mask cell of the last frame, in framebuffer pixels
// (ImGui coordinates × DisplayFramebufferScale), as
// {"framebuffer":{w,h},"ui_scale":s,"preset":…,"example":<the Example picker's label>,
//  "rects":{id:{x,y,w,h[,text]}}}.
bool write_rects(const App& app, const std::string& path, int fb_w, int fb_h, std::string* error) {
  const ui::AppState& state = app.state;
  const float fb_scale =
      ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    *error = path + ": cannot write the file";
    return false;
  }
  out << page::rects(state, 1.0f / fb_scale, fb_w, fb_h, app.ui_scale).dump(1) << '\n';
  out.close();
  if (!out) {
    *error = path + ": writing failed";
    return false;
  }
  return true;
}

// The last --frames frame: write --screenshot and --rects, then close the window.
void finish_automation(App& app) {
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  std::string error;
  if (!app.options.screenshot_path.empty() &&
      !write_back_buffer_png(app.options.screenshot_path, fb_w, fb_h, &error)) {
    std::fprintf(stderr, "attention-lab: --screenshot %s\n", error.c_str());
    app.exit_code = 1;
  }
  if (!app.options.rects_path.empty() && !write_rects(app, app.options.rects_path, fb_w, fb_h, &error)) {
    std::fprintf(stderr, "attention-lab: --rects %s\n", error.c_str());
    app.exit_code = 1;
  }
  glfwSetWindowShouldClose(app.window, GLFW_TRUE);
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] platform.hpp
//-------------------------------------------------------------------------------------------------

void platform_init(App& app) {
  g_desktop.app = &app;
  ui::install_compiled_languages();  // every language at hand (the web app loads them on demand)
  glfwSwapInterval(1);               // vsync
  glfwSetWindowContentScaleCallback(app.window, on_content_scale);
  glfwSetDropCallback(app.window, on_drop);  // ImGui's GLFW backend installs none
  if (!app.options.scene_path.empty()) g_desktop.last_scene_path = app.options.scene_path;
  // The Controls panel's file buttons open the path dialog (on the web they download/upload).
  ui::Sharing& sharing = app.state.sharing;
  sharing.import_json = [] { open_dialog(ui::FileAction::OpenScene); };
  sharing.export_json = [] { open_dialog(ui::FileAction::SaveScene); };
  sharing.export_png = [] { open_dialog(ui::FileAction::SavePng); };
  sharing.export_saves_files = true;
  sharing.export_text = [](scene::ExportKind kind, scene::ExportStage stage) {
    g_desktop.export_kind = kind;
    g_desktop.export_stage = stage;
    open_dialog(ui::FileAction::SaveExport);
  };
  sharing.save_text = [](const std::string& name, const std::string& text) {
    g_desktop.save_name = name;
    g_desktop.save_text = text;
    open_dialog(ui::FileAction::SaveText);
  };
  install_bundled_demos(app.state);  // the Gallery: web/demos, bundled
}

void platform_before_frame(App&) {}

float platform_ui_scale(App& app) {
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(app.window, &xscale, &yscale);
  int win_w = 0, win_h = 0, fb_w = 0, fb_h = 0;
  glfwGetWindowSize(app.window, &win_w, &win_h);
  glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
  // ImGui works in window coordinates: where the framebuffer is already denser than the window
  // (macOS Retina), ImGui's framebuffer scale covers that part of the content scale.
  const float framebuffer_scale = (win_w > 0 && fb_w > 0) ? float(fb_w) / float(win_w) : 1.0f;
  const float scale = xscale / framebuffer_scale;
  return scale > 0.25f ? scale : 1.0f;
}

void platform_logical_size(App& app, float* width, float* height) {
  int w = 0, h = 0;
  glfwGetWindowSize(app.window, &w, &h);
  const float scale = platform_ui_scale(app);
  *width = float(w) / scale;
  *height = float(h) / scale;
}

void platform_draw_ui(App& app) {
  handle_drop(app);
  handle_shortcuts();
  ui::draw_file_dialog(g_desktop.dialog, app.fonts, [&app](ui::FileAction action, const std::string& path) {
    return run_dialog_action(app, action, path);
  });
}

void platform_frame_rendered(App& app) {
  const std::int64_t frame = app.state.stats.frames;
  if ((app.options.automated() || kDebugBuild) && !check_gl_errors(frame) && app.options.automated()) {
    app.exit_code = 1;
  }
  if (!g_desktop.png_path.empty() && --g_desktop.png_countdown <= 0) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
    std::string error;
    if (write_back_buffer_png(g_desktop.png_path, fb_w, fb_h, &error)) {
      app.state.notice = "Saved the screen to " + g_desktop.png_path;
    } else {
      app.state.error = "Export PNG — " + error;
    }
    g_desktop.png_path.clear();
    ++app.events;  // show the message
  }
  if (app.options.automated() && frame >= app.options.frames) finish_automation(app);
}

void platform_started(App&) {}

void platform_frame_drawn(App& app) {
  app.first_frame_drawn = true;
}

bool platform_read_file(const std::string& path, std::string* text, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = path + ": is a folder, not a scene file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open the file";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  if (text->size() > scene::kMaxInputBytes) {
    *error = path + ": larger than the 8 MiB scene limit";
    return false;
  }
  return true;
}

}  // namespace app
