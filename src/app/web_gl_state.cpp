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

#include <array>

extern "C" {
void __real_glGetIntegerv(GLenum pname, GLint* data);
void __real_glScissor(GLint x, GLint y, GLsizei width, GLsizei height);
void __real_glBlendFunc(GLenum sfactor, GLenum dfactor);
void __real_glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha);
void __real_glBlendEquation(GLenum mode);
void __real_glBlendEquationSeparate(GLenum mode_rgb, GLenum mode_alpha);
}

namespace {

// One remembered value of glGetIntegerv: known once read from the browser or set by the app.
template <int N>
struct Remembered {
  bool known = false;
  std::array<GLint, N> value{};
  void get(GLenum pname, GLint* data) {
    if (!known) {
      __real_glGetIntegerv(pname, value.data());
      known = true;
    }
    for (int k = 0; k < N; ++k) data[k] = value[std::size_t(k)];
  }
  void set(std::array<GLint, N> v) {
    value = v;
    known = true;
  }
};

struct GlState {
  Remembered<4> scissor_box;
  Remembered<1> blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha;
  Remembered<1> blend_equation_rgb, blend_equation_alpha;
};
GlState g_state;

}  // namespace

namespace app {
// After a lost context is restored every value is the context's default again: ask once more.
void gl_state_reset() {
  g_state = GlState{};
}
}  // namespace app

extern "C" {

void __wrap_glGetIntegerv(GLenum pname, GLint* data) {
  switch (pname) {
    case GL_SCISSOR_BOX:
      return g_state.scissor_box.get(pname, data);
    case GL_BLEND_SRC_RGB:
      return g_state.blend_src_rgb.get(pname, data);
    case GL_BLEND_DST_RGB:
      return g_state.blend_dst_rgb.get(pname, data);
    case GL_BLEND_SRC_ALPHA:
      return g_state.blend_src_alpha.get(pname, data);
    case GL_BLEND_DST_ALPHA:
      return g_state.blend_dst_alpha.get(pname, data);
    case GL_BLEND_EQUATION_RGB:
      return g_state.blend_equation_rgb.get(pname, data);
    case GL_BLEND_EQUATION_ALPHA:
      return g_state.blend_equation_alpha.get(pname, data);
    default:
      return __real_glGetIntegerv(pname, data);
  }
}

void __wrap_glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
  g_state.scissor_box.set({x, y, width, height});
  __real_glScissor(x, y, width, height);
}

void __wrap_glBlendFunc(GLenum sfactor, GLenum dfactor) {
  g_state.blend_src_rgb.set({GLint(sfactor)});
  g_state.blend_src_alpha.set({GLint(sfactor)});
  g_state.blend_dst_rgb.set({GLint(dfactor)});
  g_state.blend_dst_alpha.set({GLint(dfactor)});
  __real_glBlendFunc(sfactor, dfactor);
}

void __wrap_glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  g_state.blend_src_rgb.set({GLint(src_rgb)});
  g_state.blend_dst_rgb.set({GLint(dst_rgb)});
  g_state.blend_src_alpha.set({GLint(src_alpha)});
  g_state.blend_dst_alpha.set({GLint(dst_alpha)});
  __real_glBlendFuncSeparate(src_rgb, dst_rgb, src_alpha, dst_alpha);
}

void __wrap_glBlendEquation(GLenum mode) {
  g_state.blend_equation_rgb.set({GLint(mode)});
  g_state.blend_equation_alpha.set({GLint(mode)});
  __real_glBlendEquation(mode);
}

void __wrap_glBlendEquationSeparate(GLenum mode_rgb, GLenum mode_alpha) {
  g_state.blend_equation_rgb.set({GLint(mode_rgb)});
  g_state.blend_equation_alpha.set({GLint(mode_alpha)});
  __real_glBlendEquationSeparate(mode_rgb, mode_alpha);
}

}  // extern "C"
