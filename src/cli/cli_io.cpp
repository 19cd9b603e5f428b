// cli_io.cpp — error lines, the result line and file reading for every command (cli_io.hpp).
#include "cli/cli_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cli {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "attention-lab-cli: %s (see --help)\n", message.c_str());
  return kExitBadInput;
}

int bad_input(const std::string& message) {
  std::fprintf(stderr, "attention-lab-cli: %s\n", message.c_str());
  return kExitBadInput;
}

int print_line(const std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

bool read_prefix(const std::string& path, std::size_t max, std::string* out, std::string* error,
                 const char* what) {
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) {
    *error = std::string(what) + ": cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  char buffer[1 << 16];
  bool ok = true;
  while (out->size() <= max) {
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, file);
    out->append(buffer, got);
    if (got < sizeof buffer) {
      ok = !std::ferror(file);
      break;
    }
  }
  if (file != stdin) std::fclose(file);
  if (!ok) *error = std::string(what) + ": cannot read " + path;
  return ok;
}

bool read_bytes(const std::string& path, std::size_t max, std::string* out, std::string* error) {
  if (!read_prefix(path, max, out, error)) return false;
  if (out->size() <= max) return true;
  *error = "input: " + path + " is larger than " + std::to_string(max >> 20) + " MiB";
  return false;
}

bool write_bytes(const std::string& path, const std::string& bytes, std::string* error) {
  const std::string tmp = path + ".part";
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  bool ok = file && std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  if (file) ok = std::fclose(file) == 0 && ok;
  ok = ok && std::rename(tmp.c_str(), path.c_str()) == 0;  // whole or not at all
  if (!ok) *error = "out: cannot write " + path + ": " + std::strerror(errno);
  return ok;
}

}  // namespace cli
