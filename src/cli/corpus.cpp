// corpus.cpp — read the fortunes corpus and split it (corpus.hpp).
#include "cli/corpus.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cli/cli_io.hpp"

namespace cli {
namespace {

namespace fs = std::filesystem;

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// The files of `path`: itself when it is not a directory, else its regular files without a '.' in
// the name, in byte order.
bool expand(const std::string& path, std::vector<std::string>* files, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    files->push_back(path);
    return true;
  }
  std::vector<std::string> names;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code e2;
    if (name.find('.') != std::string::npos || it->is_symlink(e2) || !it->is_regular_file(e2)) continue;
    names.push_back(name);
  }
  if (ec) {
    *error = "corpus: cannot list " + path + ": " + ec.message();
    return false;
  }
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) files->push_back((fs::path(path) / n).string());
  return true;
}

}  // namespace

void append_entries(const std::string& file_text, std::string* out, std::vector<std::size_t>* ends) {
  std::string entry;
  auto flush = [&]() {
    while (!entry.empty() && is_space(entry.back())) entry.pop_back();
    if (!entry.empty()) {
      *out += entry + "\n\n";
      if (ends) ends->push_back(out->size());
    }
    entry.clear();
  };
  for (std::size_t i = 0; i < file_text.size();) {
    std::size_t eol = file_text.find('\n', i);
    const std::size_t next = eol == std::string::npos ? file_text.size() : eol + 1;
    if (eol == std::string::npos) eol = file_text.size();
    if (file_text.compare(i, eol - i, "%") == 0)
      flush();
    else
      entry.append(file_text, i, next - i);
    i = next;
  }
  flush();
}

std::size_t held_out_start(const std::vector<std::size_t>& entry_ends, std::size_t size) {
  const std::size_t from = size * 95 / 100;  // floor(0.95 × size), exact in integers
  const auto it = std::lower_bound(entry_ends.begin(), entry_ends.end(), from);
  return it == entry_ends.end() ? size : *it;
}

bool read_corpus(const std::vector<std::string>& paths_or_dirs, Corpus* out, std::string* error) {
  Corpus c;
  const std::vector<std::string> paths =
      paths_or_dirs.empty() ? std::vector<std::string>{kDefaultCorpusDir} : paths_or_dirs;
  for (const std::string& p : paths)
    if (!expand(p, &c.files, error)) return false;
  std::vector<std::size_t> ends;
  for (const std::string& f : c.files) {
    std::string contents;
    if (!read_prefix(f, std::string().max_size(), &contents, error, "corpus")) return false;
    append_entries(contents, &c.text, &ends);
  }
  if (c.text.empty()) {
    *error = "corpus: no text in " + (paths.size() == 1 ? paths[0] : std::to_string(paths.size()) + " paths");
    return false;
  }
  const std::size_t split = held_out_start(ends, c.text.size());
  c.train = c.text.substr(0, split);
  c.held_out = c.text.substr(split);
  *out = std::move(c);
  return true;
}

}  // namespace cli
