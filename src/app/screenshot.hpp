// screenshot.hpp — the frame just rendered, as a PNG file (desktop build).
#pragma once

#include <string>

namespace app {

// Read the back buffer (width × height framebuffer pixels, call after rendering and before the
// buffer swap) and write it to `path` as an 8-bit RGB PNG, top row first. False with `error` set
// ("<path>: <reason>") when the pixels cannot be read or the file cannot be written.
bool write_back_buffer_png(const std::string& path, int width, int height, std::string* error);

}  // namespace app
