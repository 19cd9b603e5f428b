// web_gl_state.cpp — the scissor box and blend state, answered from what the app set instead of
// asking the browser (wasm-ld --wrap of glGetIntegerv and of the calls that set them,
// src/app/CMakeLists.txt; the web build only).
//
// ImGui's OpenGL backend saves the GL state before it draws and restores it after (it cannot know
// that nothing else draws in this context). In WebGL most of that state is cached by the browser's
// side of the context, but the scissor box and the blend factors and equations are not: each
// getParameter is a round trip to the GPU process that waits until it has run every command sent
// before — the textures the frame just uploaded and, with software rendering, the previous frame's
// drawing. Seven such waits a frame cost 1.8 ms idle (headless Chromium, SwiftShader) and far more
// right after a 1024×1024 upload. Only this app draws in its canvas, so the values it last set are the
// context's values: they are remembered here as they are set, and the browser is asked once, for
// the values before any call set them (and again after a lost context is restored: al_gl_state_reset).
#include <GLES3/gl3.h>

#include <algorithm>
#include <initializer_list>

extern "C" {
void __real_glGetIntegerv(GLenum pname, GLint* data);
void __real_glScissor(GLint x, GLint y, GLsizei width, GLsizei height);
void __real_glBlendFunc(GLenum sfactor, GLenum dfactor);
void __real_glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha);
void __real_glBlendEquation(GLenum mode);
void __real_glBlendEquationSeparate(GLenum mode_rgb, GLenum mode_alpha);
}

namespace {

// The values remembered, each known once read from the browser or set by the app.
struct Remembered {
  GLenum pname;
  int count;  // GLints: 4 for the scissor box, 1 for the others
  bool known;
  GLint value[4];
};
struct GlState {
  Remembered values[7];
};
constexpr GlState kUnknown{{
    {GL_SCISSOR_BOX, 4, false, {}},
    {GL_BLEND_SRC_RGB, 1, false, {}},
    {GL_BLEND_DST_RGB, 1, false, {}},
    {GL_BLEND_SRC_ALPHA, 1, false, {}},
    {GL_BLEND_DST_ALPHA, 1, false, {}},
    {GL_BLEND_EQUATION_RGB, 1, false, {}},
    {GL_BLEND_EQUATION_ALPHA, 1, false, {}},
}};
GlState g_state = kUnknown;

Remembered* find(GLenum pname) {
  for (Remembered& r : g_state.values)
    if (r.pname == pname) return &r;
  return nullptr;
}

void remember(GLenum pname, std::initializer_list<GLint> value) {
  Remembered* r = find(pname);
  std::copy(value.begin(), value.end(), r->value);
  r->known = true;
}

void remember_blend(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  remember(GL_BLEND_SRC_RGB, {GLint(src_rgb)});
  remember(GL_BLEND_DST_RGB, {GLint(dst_rgb)});
  remember(GL_BLEND_SRC_ALPHA, {GLint(src_alpha)});
  remember(GL_BLEND_DST_ALPHA, {GLint(dst_alpha)});
}

}  // namespace

namespace app {
// After a lost context is restored every value is the context's default again: ask once more.
void gl_state_reset() {
  g_state = kUnknown;
}
}  // namespace app

extern "C" {

void __wrap_glGetIntegerv(GLenum pname, GLint* data) {
  Remembered* r = find(pname);
  if (r == nullptr) return __real_glGetIntegerv(pname, data);
  if (!r->known) {
    __real_glGetIntegerv(pname, r->value);
    r->known = true;
  }
  std::copy(r->value, r->value + r->count, data);
}

void __wrap_glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
  remember(GL_SCISSOR_BOX, {x, y, width, height});
  __real_glScissor(x, y, width, height);
}

void __wrap_glBlendFunc(GLenum sfactor, GLenum dfactor) {
  remember_blend(sfactor, dfactor, sfactor, dfactor);
  __real_glBlendFunc(sfactor, dfactor);
}

void __wrap_glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  remember_blend(src_rgb, dst_rgb, src_alpha, dst_alpha);
  __real_glBlendFuncSeparate(src_rgb, dst_rgb, src_alpha, dst_alpha);
}

void __wrap_glBlendEquation(GLenum mode) {
  remember(GL_BLEND_EQUATION_RGB, {GLint(mode)});
  remember(GL_BLEND_EQUATION_ALPHA, {GLint(mode)});
  __real_glBlendEquation(mode);
}

void __wrap_glBlendEquationSeparate(GLenum mode_rgb, GLenum mode_alpha) {
  remember(GL_BLEND_EQUATION_RGB, {GLint(mode_rgb)});
  remember(GL_BLEND_EQUATION_ALPHA, {GLint(mode_alpha)});
  __real_glBlendEquationSeparate(mode_rgb, mode_alpha);
}

}  // extern "C"
