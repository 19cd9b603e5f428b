// screenshot.cpp — glReadPixels of the back buffer → stb_image_write (Debian's libstb-dev).
//
// OpenGL's rows run bottom to top, PNG's top to bottom: the rows are flipped while copying.
// The only translation unit that defines STB_IMAGE_WRITE_IMPLEMENTATION.
#include "app/screenshot.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "render/gl.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_FLOAT_HDR
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace app {

bool write_back_buffer_png(const std::string& path, int width, int height, std::string* error) {
  if (width <= 0 || height <= 0) {
    *error =
        path + ": the framebuffer is empty (" + std::to_string(width) + "×" + std::to_string(height) + ")";
    return false;
  }
  // RGB, tightly packed rows (GL_PACK_ALIGNMENT 1: 3·width need not be a multiple of 4).
  const std::size_t row_bytes = std::size_t(width) * 3;
  std::vector<unsigned char> pixels(row_bytes * std::size_t(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  if (const GLenum gl_error = glGetError(); gl_error != GL_NO_ERROR) {
    char text[64];
    std::snprintf(text, sizeof text, "glReadPixels failed (GL error 0x%04x)", unsigned(gl_error));
    *error = path + ": " + text;
    return false;
  }
  // Flip: row y of the image is row (height − 1 − y) of the framebuffer.
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y) {
    std::memcpy(&flipped[row_bytes * std::size_t(y)], &pixels[row_bytes * std::size_t(height - 1 - y)],
                row_bytes);
  }
  errno = 0;
  if (!stbi_write_png(path.c_str(), width, height, 3, flipped.data(), int(row_bytes))) {
    *error = path + ": cannot write the PNG" + (errno ? std::string(" (") + std::strerror(errno) + ")" : "");
    return false;
  }
  return true;
}

}  // namespace app
