// cli_io.hpp — what every command of attention-lab-cli says and reads the same way: its error lines
// on stderr (exit status 2, as the desktop app's CLI11), a result line on stdout, and files read with
// a size cap or written whole.
#pragma once

#include <cstddef>
#include <string>

namespace cli {

constexpr int kExitBadInput = 2;  // bad input and usage errors alike

// "attention-lab-cli: MESSAGE (see --help)" on stderr; returns kExitBadInput.
int usage_error(const std::string& message);
// "attention-lab-cli: MESSAGE" on stderr; returns kExitBadInput.
int bad_input(const std::string& message);
// `out` and a newline on stdout; 0, or 1 when stdout could not be written.
int print_line(const std::string& out);

// Reads `path` ("-": standard input) into `out`, stopping once more than `max` bytes are in (so a
// caller can tell the file is too large without reading all of it). False with "WHAT: cannot open
// PATH: reason" or "WHAT: cannot read PATH" in `error`.
bool read_prefix(const std::string& path, std::size_t max, std::string* out, std::string* error,
                 const char* what = "input");
// read_prefix, and a file over `max` bytes refused: "input: PATH is larger than N MiB".
bool read_bytes(const std::string& path, std::size_t max, std::string* out, std::string* error);
// Writes `bytes` to PATH.part, then renames it to PATH: the file is whole or not there at all.
bool write_bytes(const std::string& path, const std::string& bytes, std::string* error);

}  // namespace cli
