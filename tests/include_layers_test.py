#!/usr/bin/python3
"""include_layers_test.py — the UI's includes follow its layer order (docs/ARCHITECTURE.md, "The UI's layers").

The order, lowest first; a file may include a file of its own layer or of one below, never one above:

    text  →  look  →  state  →  widgets  →  panels  →  modes  →  frame

A file's layer is its folder under src/ui/ (text/, look/, widgets/, panels/, modes/, frame/), except the
state, a layer wherever it sits: the files at src/ui/'s root (app_state.hpp/.cpp, app_records.cpp),
every `*_state.hpp` and the files of STATE_FILES (plain structs UiState holds). Besides the order:
  - a mode's files (modes/<m>/) include no other mode's files (modes/<other>/); only the files of
    modes/ itself (the table of modes) include every mode;
  - a state header of a mode (modes/<m>/*_state.hpp) includes no ImGui header: plain structs only;
  - nothing in src/ui/ includes the renderer or the app (render/, app/): the UI knows no GL;
  - no file of src/ui/ outside a mode's folder names that mode (outside comments and strings): no
    include of modes/<m>/, no `Mode::M` of scene::link::Mode, no call of a function a header of
    modes/<m>/ declares, no use of a UiState/AppState member whose type a header of modes/<m>/
    declares. Only the table of modes (modes/modes.cpp) and the state that holds each mode's state
    (app_state.hpp) name every mode. The one door from outside (src/app/start.cpp/.hpp, DOOR_FILES)
    names no mode either: it applies a link through the modes' apply_start hooks; nor do the page
    API, the platforms and the desktop's command line (page_api, web_platform, web_share, main,
    desktop_platform, desktop_options): they reach a mode through its row's hooks (page_call,
    page_state, page_rects, link, file_news, flags).

  tests/include_layers_test.py [SRC_DIR]   → exit 1 and every offending include
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import Tally  # noqa: E402

ORDER = ["text", "look", "state", "widgets", "panels", "modes", "frame"]
# Plain structs UiState holds that sit in a folder of their own kind (paths under src/ui/).
STATE_FILES = {"widgets/grid_view.hpp", "widgets/run_pacer.hpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^">]+)[">]')


def layer(rel):
    """The layer of a file, rel its path under src/ui/ ('panels/mask_panel.cpp'); None: not a UI file."""
    base = os.path.basename(rel)
    if "/" not in rel or base.endswith("_state.hpp") or rel in STATE_FILES:
        return "state"
    top = rel.split("/")[0]
    return top if top in ORDER else None


def mode_folder(rel):
    """'walk' for modes/walk/…, None for a file outside a mode's folder."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "modes" else None


# Files outside src/ui/ that name no mode either: the one door from outside (a link's or the command
# line's start, applied through the modes' apply_start hooks), the page API, the platforms and the
# desktop's command line (each mode declares its own flags: its row's `flags`).
DOOR_FILES = ["app/start.cpp", "app/start.hpp", "app/page_api.cpp", "app/page_api.hpp", "app/web_platform.cpp",
              "app/web_share.cpp", "app/main.cpp", "app/desktop_platform.cpp", "app/desktop_options.cpp",
              "app/desktop_options.hpp"]
# The files that name every mode: the table, and the state holding each mode's state.
NAME_EVERY_MODE = {"modes/modes.cpp", "app_state.hpp"}
DECLARED_FUNCTION = re.compile(r"^(?:[\w:<>,&*]+\s+)+[&*]?(\w+)\(")
DECLARED_TYPE = re.compile(r"^(?:struct|class|enum class|enum)\s+(\w+)")
MEMBER = re.compile(r"^\s+(?:[\w:<>,]+\s+)+(\w+)(?:\s*[;={,]|\s*\[)")
NOT_DECLARATION = ("return ", "using ", "namespace ", "if ", "else", "static_assert", "}", "{", "template")


def code_only(text):
    """The text without comments and string or character literals (but an #include's path), its lines kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    literal = re.compile(r'"(?:\\.|[^"\\])*"' + r"|'(?:\\.|[^'\\])*'")
    lines = [line if line.lstrip().startswith("#") else literal.sub('""', line) for line in text.split("\n")]
    return "\n".join(re.sub(r"//.*", "", line) for line in lines)


def mode_names(ui_dir, mode_enum):
    """{folder: (enumerator, function names, type names)} of each mode folder under modes/."""
    modes_dir = os.path.join(ui_dir, "modes")
    out = {}
    for folder in sorted(os.listdir(modes_dir)):
        path = os.path.join(modes_dir, folder)
        if not os.path.isdir(path):
            continue
        enumerator = next((e for e in mode_enum if e.lower() == folder.lower()), None)
        functions, types = set(), set()
        for f in os.listdir(path):
            if f.endswith(".hpp"):
                for line in code_only(open(os.path.join(path, f), encoding="utf-8").read()).split("\n"):
                    if line.startswith(NOT_DECLARATION) or not line.strip():
                        continue
                    m = DECLARED_FUNCTION.match(line)
                    if m and m.group(1) not in ("operator", "if", "for", "while", "switch"):
                        functions.add(m.group(1))
                    m = DECLARED_TYPE.match(line)
                    if m:
                        types.add(m.group(1))
        out[folder] = (enumerator, functions, types)
    return out


def state_members(app_state_text, types):
    """The members of AppState/UiState (any struct of app_state.hpp) whose type is one of `types`."""
    members = set()
    for line in code_only(app_state_text).split("\n"):
        m = MEMBER.match(line)
        if m and any(re.search(r"\b%s\b" % t, line[:m.start(1)]) for t in types):
            members.add(m.group(1))
    return members


def check_mode_names(ui_dir, mode_enum, tally, outside=()):
    """Every place a file outside a mode's folder names that mode (see the module's doc); `outside`:
    more files, outside src/ui/, that name no mode either (their paths)."""
    names = mode_names(ui_dir, mode_enum)
    app_state = os.path.join(ui_dir, "app_state.hpp")
    app_state_text = open(app_state, encoding="utf-8").read() if os.path.exists(app_state) else ""
    patterns = {}
    for folder, (enumerator, functions, types) in names.items():
        parts = [r'#\s*include\s+"ui/modes/%s/' % folder]
        if enumerator:
            parts.append(r"(?<![\w:])(?:scene::link::)?Mode::%s\b" % enumerator)
        if functions:
            # a call, also as ui::name( or <mode>::name( (walk::stage_symbol), not a member's x.name(
            called = "|".join(sorted(functions))
            parts.append(r"(?:(?<=\bui::)|(?<=\b%s::)|(?<![\w.>:]))(?:%s)\s*\(" % (folder, called))
        members = state_members(app_state_text, types)
        if members:
            # reached through the UiState (state.ui.walk, ui->quiz): a field of the same name on
            # another struct (a link's Fragment::circuits, the desktop's Options::quiz) is not it
            parts.append(r"\bui\s*(?:\.|->)\s*(?:%s)\b(?!\s*\()" % "|".join(sorted(members)))
        patterns[folder] = re.compile("|".join(parts))
    paths = [os.path.join(root, f) for root, _, files in os.walk(ui_dir) for f in sorted(files)
             if f.endswith((".cpp", ".hpp", ".h", ".inc"))]
    for path in paths + list(outside):
        rel = os.path.relpath(path, ui_dir).replace(os.sep, "/")
        if rel in NAME_EVERY_MODE:
            continue
        text = code_only(open(path, encoding="utf-8").read())
        # A function of the file's own with a mode's function's name is the file's (train's
        # short_number is not the walk's).
        own = {m.group(1) for m in map(DECLARED_FUNCTION.match, text.split("\n")) if m}
        for folder, pattern in patterns.items():
            if mode_folder(rel) == folder:
                continue
            for number, line in enumerate(text.split("\n"), 1):
                for m in pattern.finditer(line):
                    name = m.group(0).rstrip("( ")
                    if name not in own:
                        where = os.path.normpath(os.path.join("src/ui", rel))
                        tally.fail(f"{where}:{number} names the mode {folder}: {m.group(0).strip()}")
                        break


def check(ui_dir, tally):
    """Every offending include of the files under ui_dir; the number of includes read."""
    count = 0
    for root, _, files in os.walk(ui_dir):
        for f in sorted(files):
            if not f.endswith((".cpp", ".hpp", ".h", ".inc")):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, ui_dir).replace(os.sep, "/")
            own = layer(rel)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                count += 1
                target = m.group(1)
                where = f"src/ui/{rel}:{number} includes {target}"
                if target.startswith(("render/", "app/")):
                    tally.fail(f"{where}: the UI knows no renderer or app")
                if mode_folder(rel) and rel.endswith("_state.hpp") and target.startswith("imgui"):
                    tally.fail(f"{where}: a mode's state header holds plain structs, no ImGui")
                if not target.startswith("ui/"):
                    continue
                theirs = layer(target[3:])
                if own and theirs and ORDER.index(theirs) > ORDER.index(own):
                    tally.fail(f"{where}: {own} may not include {theirs}")
                if mode_folder(rel) and mode_folder(target[3:]) not in (None, mode_folder(rel)):
                    tally.fail(f"{where}: a mode includes no other mode")
    return count


def self_check():
    """The check itself finds a planted back-include, a mode including another mode and ImGui in a
    mode's state header, and passes their allowed forms (so this test can fail)."""
    planted = {
        "widgets/a.cpp": '#include "ui/panels/panel_parts.hpp"\n#include "ui/app_state.hpp"\n',
        "modes/walk/b.cpp": '#include "ui/modes/explore/explore.hpp"\n#include "ui/modes/walk/c.hpp"\n',
        "modes/walk/walk_state.hpp": '#include "imgui.h"\n#include "ui/look/palette.hpp"\n',
        "modes/modes.cpp": '#include "ui/modes/walk/walk.hpp"\n#include "ui/frame/frame.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as ui:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(ui, rel)), exist_ok=True)
            open(os.path.join(ui, rel), "w", encoding="utf-8").write(text)
        found = Tally()
        found.fail = lambda message: setattr(found, "count", found.count + 1)  # counted, not printed
        check(ui, found)
        layers_ok = found.count == 4
        # Naming a mode outside its folder: a Mode:: enumerator, a call of a function its header
        # declares, a member whose type it declares; its own folder and the table may.
        named = {
            "modes/walk/walk.hpp": "struct WalkUi {};\nvoid open_quiz(AppState& state, int q);\n",
            "app_state.hpp": "struct UiState {\n  WalkUi walk;  // the walk\n};\n",
            "frame/top.cpp": 'void f() {\n  open_quiz(s, 0);  // open_quiz(\n  g("open_quiz(");\n}\n',
            "frame/bar.cpp": "void f() { ui::open_quiz(s, 0); }\n",
            "panels/p.cpp": "bool b = s.mode == Mode::Walk || s.ui.walk.row > 0;\n",
            "modes/walk/w.cpp": "void g() { open_quiz(s, 1); s.ui.walk.row = 0; }\n",
            "modes/modes.cpp": "auto row = {Mode::Walk, open_quiz};\n",
        }
        for rel, text in named.items():
            os.makedirs(os.path.dirname(os.path.join(ui, rel)), exist_ok=True)
            open(os.path.join(ui, rel), "w", encoding="utf-8").write(text)
        found.count = 0
        with tempfile.TemporaryDirectory() as app:  # a file outside src/ui/, checked by name
            door = os.path.join(app, "start.cpp")
            open(door, "w", encoding="utf-8").write("void d() { if (m == Mode::Walk) open_quiz(s, 0); }\n")
            check_mode_names(ui, ["Explore", "Walk"], found, outside=[door])
        return layers_ok and found.count == 4


def mode_enumerators(src):
    """The enumerators of scene::link::Mode (src/scene/link.hpp)."""
    text = open(os.path.join(src, "scene", "link.hpp"), encoding="utf-8").read()
    m = re.search(r"enum class Mode\s*\{([^}]*)\}", text)
    return [e.strip() for e in m.group(1).split(",") if e.strip()]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    tally = Tally("include_layers: ")
    if not self_check():
        tally.fail("the check missed a planted include against the layers, or failed an allowed one")
    ui = os.path.join(src, "ui")
    count = check(ui, tally)
    check_mode_names(ui, mode_enumerators(src), tally, outside=[os.path.join(src, f) for f in DOOR_FILES])
    return tally.done(f"include_layers: {count} includes in {src}/ui; {tally.count} against the layers "
                      "or naming a mode outside its folder")


if __name__ == "__main__":
    sys.exit(main())
