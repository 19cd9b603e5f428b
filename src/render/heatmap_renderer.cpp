// heatmap_renderer.cpp — GL side of the heatmaps: program, textures, the draw callback.
#include "render/heatmap_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "heatmap_frag.hpp"  // heatmap_frag_src: shaders/heatmap.frag, embedded at build time
#include "heatmap_vert.hpp"  // heatmap_vert_src: shaders/heatmap.vert
#include "ui/look/colormap.hpp"
#include "ui/look/theme.hpp"

namespace render {
namespace {

// "" when the shader compiled (the program linked), else `what` and the driver's log.
using GetStatus = void (*)(GLuint, GLenum, GLint*);
using GetLog = void (*)(GLuint, GLsizei, GLsizei*, GLchar*);
std::string failure(GLuint object, GLenum status, GetStatus get_status, GetLog get_log, const char* what) {
  GLint ok = GL_FALSE;
  get_status(object, status, &ok);
  if (ok == GL_TRUE) return {};
  char log[1024] = {0};
  get_log(object, sizeof log, nullptr, log);
  return std::string(what) + log;
}

GLuint compile(GLenum type, const std::string& source, std::string* error) {
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  *error = failure(shader, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog,
                   type == GL_VERTEX_SHADER ? "heatmap.vert: " : "heatmap.frag: ");
  if (error->empty()) return shader;
  glDeleteShader(shader);
  return 0;
}

void set_color(GLint location, ImU32 color) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
  glUniform4f(location, c.x, c.y, c.z, c.w);
}

}  // namespace

HeatmapRenderer::~HeatmapRenderer() = default;  // GL objects die with the context

bool HeatmapRenderer::create_device_objects() {
  error_.clear();
  // One shader source for both targets: the version line and (GLSL ES) precision come first.
  std::string prelude = glsl_version_ + "\n";
  if (glsl_version_.find(" es") != std::string::npos) {
    prelude += "precision highp float;\nprecision highp int;\nprecision highp sampler2D;\n";
  }
  const GLuint vs =
      compile(GL_VERTEX_SHADER, prelude + reinterpret_cast<const char*>(heatmap_vert_src), &error_);
  if (!vs) return false;
  const GLuint fs =
      compile(GL_FRAGMENT_SHADER, prelude + reinterpret_cast<const char*>(heatmap_frag_src), &error_);
  if (!fs) {
    glDeleteShader(vs);
    return false;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  error_ = failure(program_, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, "heatmap program: ");
  if (!error_.empty()) {
    glDeleteProgram(program_);
    program_ = 0;
    return false;
  }
  const std::pair<GLint*, const char*> uniforms[] = {{&u_rect_, "u_rect"},
                                                     {&u_display_, "u_display"},
                                                     {&u_values_, "u_values"},
                                                     {&u_colormap_, "u_colormap"},
                                                     {&u_colormap_row_, "u_colormap_row"},
                                                     {&u_range_, "u_range"},
                                                     {&u_grid_, "u_grid"},
                                                     {&u_view_, "u_view"},
                                                     {&u_cell_px_, "u_cell_px"},
                                                     {&u_gap_px_, "u_gap_px"},
                                                     {&u_hatch_px_, "u_hatch_px"},
                                                     {&u_gap_color_, "u_gap_color"},
                                                     {&u_hatch_color_, "u_hatch_color"},
                                                     {&u_aggregate_, "u_aggregate"}};
  for (const auto& [location, name] : uniforms) *location = glGetUniformLocation(program_, name);

  // The quad comes from gl_VertexID, but a core profile still needs a vertex array bound.
  glGenVertexArrays(1, &vao_);

  // Colormaps: RGBA8, 256 × kColormapCount, read with texelFetch (the CPU copy is ui::colormap_color).
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  glGenTextures(1, &colormap_texture_);
  glBindTexture(GL_TEXTURE_2D, colormap_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, ui::kColormapSize, ui::kColormapCount, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, ui::colormap_rgba8());
  glBindTexture(GL_TEXTURE_2D, GLuint(last_texture));

  for (Slot& slot : slots_) slot = Slot{};
  paint_count_ = 0;
  return true;
}

void HeatmapRenderer::destroy_device_objects() {
  for (Slot& slot : slots_) {
    if (slot.texture) glDeleteTextures(1, &slot.texture);
  }
  if (colormap_texture_) glDeleteTextures(1, &colormap_texture_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
  forget_device_objects();
}

void HeatmapRenderer::forget_device_objects() {
  for (Slot& slot : slots_) slot = Slot{};
  paint_count_ = 0;
  colormap_texture_ = vao_ = program_ = 0;
}

void HeatmapRenderer::upload(Slot& slot, const ui::MatrixImage& image) {
  const bool same_size = slot.rows == image.rows && slot.cols == image.cols;
  if (slot.texture && same_size && image.version != 0 && slot.version == image.version) return;
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  if (!slot.texture) {
    glGenTextures(1, &slot.texture);
    glBindTexture(GL_TEXTURE_2D, slot.texture);
    // R32F is not filterable in WebGL2: NEAREST (the shader uses texelFetch anyway).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, slot.texture);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // The texture holds the version the image's changes start from: only those rows and columns.
  const bool changes_only = same_size && image.changed.since != 0 && slot.version == image.changed.since;
  if (!changes_only || !upload_changes(slot, image)) {
    if (same_size && slot.version != ~std::uint64_t(0)) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.cols, image.rows, GL_RED, GL_FLOAT, image.values);
    } else {
      glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, image.cols, image.rows, 0, GL_RED, GL_FLOAT, image.values);
    }
  }
  glBindTexture(GL_TEXTURE_2D, GLuint(last_texture));
  slot.rows = image.rows;
  slot.cols = image.cols;
  slot.version = image.version;
}

bool HeatmapRenderer::upload_changes(const Slot& slot, const ui::MatrixImage& image) {
  static const std::vector<int> kNone;
  const std::vector<int>& rows = image.changed.rows ? *image.changed.rows : kNone;
  const std::vector<int>& cols = image.changed.cols ? *image.changed.cols : kNone;
  // Beyond an eighth of the matrix in strips, one upload of the whole is as cheap and one call.
  if (8 * (rows.size() * std::size_t(slot.cols) + cols.size() * std::size_t(slot.rows)) >
      std::size_t(slot.rows) * std::size_t(slot.cols))
    return false;
  for (std::size_t k = 0; k < rows.size();) {
    std::size_t end = k + 1;  // a run of neighbouring rows goes up in one call
    while (end < rows.size() && rows[end] == rows[end - 1] + 1) ++end;
    const int row0 = rows[k], count = int(end - k);
    if (row0 < 0 || row0 + count > slot.rows) return false;
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, row0, slot.cols, count, GL_RED, GL_FLOAT,
                    image.values + std::size_t(row0) * std::size_t(slot.cols));
    k = end;
  }
  column_.resize(std::size_t(slot.rows));
  for (int j : cols) {
    if (j < 0 || j >= slot.cols) return false;
    for (int i = 0; i < slot.rows; ++i)
      column_[std::size_t(i)] = image.values[std::size_t(i) * std::size_t(slot.cols) + std::size_t(j)];
    glTexSubImage2D(GL_TEXTURE_2D, 0, j, 0, 1, slot.rows, GL_RED, GL_FLOAT, column_.data());
  }
  return true;
}

void HeatmapRenderer::paint(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const ui::MatrixImage& image) {
  if (!program_ || image.rows <= 0 || image.cols <= 0 || !image.values) return;
  Slot& slot = slots_[std::size_t(image.slot)];
  upload(slot, image);
  // Last frame's paints have been drawn (ImGui renders a frame before the next one begins).
  if (paints_frame_ != ImGui::GetFrameCount()) {
    paint_count_ = 0;
    paints_frame_ = ImGui::GetFrameCount();
  }
  IM_ASSERT(paint_count_ < kMaxPaints && "more heatmap paints in one frame than kMaxPaints");
  if (paint_count_ >= kMaxPaints) return;
  Paint& p = paints_[std::size_t(paint_count_++)];
  p.owner = this;
  p.slot = &slot;
  p.rect = ImVec4(min.x, min.y, max.x, max.y);
  p.colormap_row = int(image.colormap);
  p.lo = image.lo;
  p.hi = image.hi;
  p.gap_px = image.gap_px;
  p.aggregate = int(image.aggregate);
  p.view = image.view_col1 > image.view_col0
               ? ImVec4(image.view_col0, image.view_row0, image.view_col1, image.view_row1)
               : ImVec4(0, 0, float(image.cols), float(image.rows));
  draw_list->AddCallback(&HeatmapRenderer::draw_callback, &p);
  draw_list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::draw_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Paint* paint = static_cast<const Paint*>(cmd->UserCallbackData);
  if (paint && paint->owner) paint->owner->draw(*paint, cmd);
}

void HeatmapRenderer::draw(const Paint& paint, const ImDrawCmd* cmd) {
  const ImDrawData* dd = ImGui::GetDrawData();
  if (!dd || !program_ || !paint.slot->texture) return;
  const ImVec2 scale = dd->FramebufferScale;
  const float fb_h = dd->DisplaySize.y * scale.y;

  // Clip to the window's rectangle (ImGui sets the scissor only for its own draw commands).
  const ImVec2 clip_min((cmd->ClipRect.x - dd->DisplayPos.x) * scale.x,
                        (cmd->ClipRect.y - dd->DisplayPos.y) * scale.y);
  const ImVec2 clip_max((cmd->ClipRect.z - dd->DisplayPos.x) * scale.x,
                        (cmd->ClipRect.w - dd->DisplayPos.y) * scale.y);
  if (clip_max.x <= clip_min.x || clip_max.y <= clip_min.y) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(GLint(clip_min.x), GLint(fb_h - clip_max.y), GLsizei(clip_max.x - clip_min.x),
            GLsizei(clip_max.y - clip_min.y));

  glUseProgram(program_);
  glBindVertexArray(vao_);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, colormap_texture_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, paint.slot->texture);
#ifndef __EMSCRIPTEN__
  glBindSampler(0, 0);
  glBindSampler(1, 0);
#endif
  glUniform1i(u_values_, 0);
  glUniform1i(u_colormap_, 1);
  glUniform1i(u_colormap_row_, paint.colormap_row);
  glUniform4f(u_rect_, paint.rect.x, paint.rect.y, paint.rect.z, paint.rect.w);
  glUniform4f(u_display_, dd->DisplayPos.x, dd->DisplayPos.y, dd->DisplaySize.x, dd->DisplaySize.y);
  glUniform2f(u_range_, paint.lo, paint.hi);
  glUniform2i(u_grid_, paint.slot->cols, paint.slot->rows);
  glUniform4f(u_view_, paint.view.x, paint.view.y, paint.view.z, paint.view.w);
  glUniform2f(u_cell_px_, (paint.rect.z - paint.rect.x) * scale.x / (paint.view.z - paint.view.x),
              (paint.rect.w - paint.rect.y) * scale.y / (paint.view.w - paint.view.y));
  glUniform1f(u_gap_px_, paint.gap_px * scale.x);
  glUniform1i(u_aggregate_, paint.aggregate);
  // Stripes about a third of an em apart, at least 5 device pixels.
  glUniform1f(u_hatch_px_, std::max(5.0f, std::round(0.42f * ImGui::GetFontSize() * scale.x)));
  set_color(u_gap_color_, ui::palette::gap());
  set_color(u_hatch_color_, ui::palette::hatch());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  // ImGui binds its texture on unit 0 next; ResetRenderState restores its program and buffers.
  glActiveTexture(GL_TEXTURE0);
}

}  // namespace render
