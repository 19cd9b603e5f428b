// corpus.hpp — the English text the language model learns from: Debian's `fortunes` package (see
// docs/MODEL_CORPUS.md for its licence, files and sizes). I/O lives here in the CLI; the core is pure.
//
// The corpus of a list of paths, each a file or a directory:
//   - a directory stands for every regular file directly in it (not a symbolic link) whose name has no
//     '.', in byte order of names: in /usr/share/games/fortunes that skips the *.dat indexes and the
//     *.u8 links to the same texts;
//   - the files are read in the order given (a directory's files in its place), each split into entries
//     on lines that are exactly "%" (a "\r" before the newline is not removed: the package has none);
//   - each entry's trailing whitespace (space, \t, \n, \v, \f, \r) is trimmed and empty entries are
//     dropped; text = every entry followed by "\n\n".
// The fixed split: held_out = text from the first entry boundary (the end of an entry's "\n\n"; a blank
// line inside an entry is not one) at or after byte floor(0.95 × size) to the end; train = everything
// before it. train + held_out == text.
#pragma once

#include <string>
#include <vector>

namespace cli {

constexpr const char* kDefaultCorpusDir = "/usr/share/games/fortunes";

struct Corpus {
  std::string text;
  std::vector<std::string> files;  // the files read, in order
  std::string train, held_out;
};

// Reads the corpus of `paths_or_dirs` (kDefaultCorpusDir when empty): false with *error naming the
// path when one cannot be read, or when the text is empty.
bool read_corpus(const std::vector<std::string>& paths_or_dirs, Corpus* out, std::string* error);

// The split's first held-out byte: the first of `entry_ends` (ascending offsets just after each entry's
// "\n\n") at or after floor(0.95 × size); `size` when there is none.
std::size_t held_out_start(const std::vector<std::size_t>& entry_ends, std::size_t size);

// Appends the entries of one file's contents to *out as in the corpus ("entry\n\n" each), and to
// *ends (when not null) the offset in *out just after each.
void append_entries(const std::string& file_text, std::string* out, std::vector<std::size_t>* ends);

}  // namespace cli
