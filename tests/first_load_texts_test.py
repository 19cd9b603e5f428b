#!/usr/bin/python3
"""first_load_texts_test.py — the web's first load carries the texts it uses and no others
(src/ui/text/i18n.hpp, "The keys come in two parts").

The keys of enum class Text before the marker `FullBuildTexts` are the first load's: the English of
i18n_en.cpp, compiled into every build, and lang/CODE.json. The keys from the marker on are the
texts of the modes only the build with every mode has: i18n_en_full.cpp, which the first load does
not link, and lang/CODE-full.json, which only that build fetches. So:
  - no file of the first load names a key past the marker (Text::KEY outside comments and strings;
    there tr() would give ""). The first load's files are every file of src/ui/ and src/app/ but the
    language tables (text/i18n_*.cpp) and the folders of the modes the first load leaves out: a
    folder modes/<m>/ whose sources src/ui/CMakeLists.txt adds only `if(AL_ALL_MODES)`;
  - no key before the marker is named only by those modes' files (it belongs past the marker: it
    would cost the first load bytes it never shows);
  - i18n_en.cpp holds exactly the keys before the marker, i18n_en_full.cpp exactly the others.

  tests/first_load_texts_test.py [SRC_DIR]   → exit 1 and every offending use
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import Tally  # noqa: E402
from include_layers_test import code_only  # noqa: E402

MARKER = "FullBuildTexts"
USE = re.compile(r"\bText::(\w+)")
ENTRY = re.compile(r"\{Text::(\w+),")


def text_keys(i18n_hpp):
    """(keys before the marker, keys from it on), in enum order, from the text of i18n.hpp."""
    body = re.search(r"enum class Text : int \{(.*?)\n\};", code_only(i18n_hpp), re.S).group(1)
    first, full, past = [], [], False
    for name in re.findall(r"^\s*([A-Za-z]\w*)\s*(?:=\s*\w+\s*)?,", body, re.M):
        if name == MARKER:
            past = True
        elif name != "Count":
            (full if past else first).append(name)
    return first, full


def full_build_mode_folders(ui_cmake):
    """The mode folders (modes/<m>/) whose sources src/ui/CMakeLists.txt adds to attention_ui only
    with AL_ALL_MODES (a folder may also hold plain C++ of another library, e.g. flash_steps.cpp:
    what counts is that the first load's attention_ui has none of its files)."""
    text = re.sub(r"#.*", "", ui_cmake)
    blocks = re.findall(r"if\(AL_ALL_MODES\)(.*?)endif\(\)", text, re.S)
    only_full = {m for b in blocks for m in re.findall(r"\bmodes/(\w+)/", b)}
    first_load = re.search(r"add_library\(attention_ui STATIC([^)]*)\)", text)
    in_first_load = set(re.findall(r"\bmodes/(\w+)/", first_load.group(1))) if first_load else set()
    return sorted(only_full - in_first_load)


def full_build_files(ui_cmake):
    """Single files outside those folders that src/ui/CMakeLists.txt adds only with AL_ALL_MODES
    (e.g. panels/modern_variants.cpp), as paths under src/ ("ui/panels/…")."""
    text = re.sub(r"#.*", "", ui_cmake)
    blocks = re.findall(r"if\(AL_ALL_MODES\)(.*?)endif\(\)", text, re.S)
    return {"ui/" + f for b in blocks for f in re.findall(r"\b([\w/]+\.cpp)\b", b) if not f.startswith("modes/")}


def source_files(src):
    """{path under src/: text} of every .cpp/.hpp of src/ui/ and src/app/."""
    out = {}
    for top in ("ui", "app"):
        for folder, _, names in os.walk(os.path.join(src, top)):
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp")):
                    path = os.path.join(folder, name)
                    out[os.path.relpath(path, src)] = open(path, encoding="utf-8").read()
    return out


def check(src, tally):
    """Checks the tree under `src`; returns (first-load files, full-build files) counted."""
    first, full = text_keys(open(os.path.join(src, "ui", "text", "i18n.hpp"), encoding="utf-8").read())
    full_set = set(full)
    ui_cmake = open(os.path.join(src, "ui", "CMakeLists.txt"), encoding="utf-8").read()
    folders = full_build_mode_folders(ui_cmake)
    full_files = full_build_files(ui_cmake)
    if not folders:
        tally.fail("src/ui/CMakeLists.txt adds no mode folder only with AL_ALL_MODES (the check would see none)")
    named_by_first_load = set()
    counts = [0, 0]
    for rel, text in source_files(src).items():
        if re.match(r"ui/text/i18n_\w+\.cpp$", rel):
            continue
        in_full_build = any(rel.startswith(f"ui/modes/{m}/") for m in folders) or rel in full_files
        counts[in_full_build] += 1
        if in_full_build:
            continue
        for number, line in enumerate(code_only(text).split("\n"), 1):
            for key in USE.findall(line):
                named_by_first_load.add(key)
                if key in full_set:
                    tally.fail(f"src/{rel}:{number} is in the first load but names Text::{key}, a key past "
                               f"Text::{MARKER} (move the key before the marker, or the code into the mode)")
    named = set()
    for rel, text in source_files(src).items():
        if not re.match(r"ui/text/i18n_\w+\.cpp$", rel):
            named.update(USE.findall(code_only(text)))
    for key in first:
        if key in named and key not in named_by_first_load:
            tally.fail(f"Text::{key} is named only by the modes of the build with every mode ({', '.join(folders)}): "
                       f"move it past Text::{MARKER} (src/ui/text/i18n.hpp, i18n_en_full.cpp)")
    # English: the first part in i18n_en.cpp, the rest in i18n_en_full.cpp.
    for name, want in (("i18n_en.cpp", first), ("i18n_en_full.cpp", full)):
        path = os.path.join(src, "ui", "text", name)
        have = ENTRY.findall(open(path, encoding="utf-8").read()) if os.path.exists(path) else []
        if sorted(have) != sorted(want):
            extra, missing = sorted(set(have) - set(want)), sorted(set(want) - set(have))
            tally.fail(f"src/ui/text/{name}: keys of the other part {extra[:5]}, keys missing {missing[:5]}")
    return counts


def self_check():
    """The check finds a planted first-load use of a full-build key, a first-part key only a
    full-build mode names and an English entry in the wrong file, and passes their allowed forms."""
    files = {
        "ui/text/i18n.hpp": "enum class Text : int {\n  A,\n  B,  // x\n  OnlyFull,\n  FullBuildTexts,\n"
                            "  C = FullBuildTexts,\n  D,\n  Count\n};\n",
        "ui/text/i18n_en.cpp": "{Text::A, \"a\"},\n{Text::B, \"b\"},\n{Text::OnlyFull, \"o\"},\n{Text::D, \"d\"},\n",
        "ui/text/i18n_en_full.cpp": "{Text::C, \"c\"},\n",
        "ui/CMakeLists.txt": "add_library(attention_ui STATIC a.cpp modes/walk/w.cpp)\n"
                             "if(AL_ALL_MODES)\n  target_sources(attention_ui PRIVATE modes/m/m.cpp)\nendif()\n",
        "ui/panels/p.cpp": "void f() { tr(Text::A); g(\"Text::D\"); }  // Text::C\n",
        "ui/modes/walk/w.cpp": "void f() { tr(Text::B); }\n",
        "app/x.cpp": "int k = int(Text::D);\n",
        "ui/modes/m/m.cpp": "void f() { tr(Text::C); tr(Text::D); tr(Text::A); tr(Text::OnlyFull); }\n",
    }
    with tempfile.TemporaryDirectory() as src:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
            open(os.path.join(src, rel), "w", encoding="utf-8").write(text)
        found = Tally()
        messages = []
        found.fail = lambda message: messages.append(message)
        check(src, found)
        # app/x.cpp names D; OnlyFull is named only by modes/m; i18n_en.cpp holds D, i18n_en_full.cpp lacks it.
        return (len(messages) == 4 and any("app/x.cpp:1" in m for m in messages)
                and any("Text::OnlyFull is named only" in m for m in messages))


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    tally = Tally("first_load_texts: ")
    if not self_check():
        tally.fail("the check missed a planted use of a full-build text in the first load, or failed an allowed one")
    first_files, full_files = check(src, tally)
    first, full = text_keys(open(os.path.join(src, "ui", "text", "i18n.hpp"), encoding="utf-8").read())
    return tally.done(f"first_load_texts: {len(first)} keys in the first load ({first_files} files), {len(full)} past "
                      f"the marker ({full_files} files of the full build's modes); {tally.count} problems")


if __name__ == "__main__":
    sys.exit(main())
