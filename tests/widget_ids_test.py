#!/usr/bin/python3
"""widget_ids_test.py [ROOT] — docs/PAGE_API.md's list of widget ids against the code, both ways.

  1. Every id the code records (the first string argument of record_item_rect, focus_item,
     focus_value, focus_int, focus_grid, the recorded widgets and scopes of ui/widgets/recorded.hpp
     (button, …, dummy, Group, Combo), the mode bar's tabs (mode_tab), the step row's four ids, and
     the ids of the Share / walk / quiz buttons) is in the
     list: a literal id as it is, an id built from a literal and a number or name ("mode/" + name)
     as a listed pattern beginning with that literal.
  2. Every listed id is recorded by the code: its literal part (up to the first placeholder: i, j,
     c, m, r, t, N, K, Q, C, NAME, L, H) is a string literal of src/ui or src/app.

Prints "ok - …" / "not ok - …" lines; exit 1 on any failure.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_lib import Tally  # noqa: E402

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACEHOLDERS = {"i", "j", "c", "m", "r", "t", "N", "K", "Q", "C", "NAME", "L", "H"}


def listed_ids():
    text = open(os.path.join(ROOT, "docs", "PAGE_API.md"), encoding="utf-8").read()
    section = text.split("## Widget ids", 1)[1]
    return [m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", section, re.M)]


def sources():
    for path in sorted(glob.glob(os.path.join(ROOT, "src", "ui", "**", "*.[ch]pp"), recursive=True)):
        yield path, open(path, encoding="utf-8").read()


# record_item_rect and the keyboard's focus_*; the widgets that record their id (ui/widgets/recorded.hpp),
# called as functions or, the scopes, constructed (`const Group group(state, "heads")`,
# `Combo combo{state, "preset", …}`).
CALL = re.compile(r"\b(?:record_item_rect|focus_item|focus_value|focus_int|focus_grid|focus_button|button|small_button|"
                  r"invisible_button|checkbox|radio_button|selectable|slider_float|slider_double|slider_int|"
                  r"input_int|input_double|input_scalar|input_text|value_cell|dummy|wrapped_text|group|combo|"
                  r"mode_tab)[({]\s*state,\s*"
                  r"(?:[^\"();,]*\?\s*)?\"([^\"]+)\"")
# The step row and the run row (ui/widgets/step_controls.hpp, ui/modes/run_buttons.hpp) take their four
# ids as literals in braces.
STEP_IDS = re.compile(r"\b(?:step_controls|run_buttons)\(\s*state,\s*\{([^}]*)\}")
BUTTON_ID = re.compile(r"\"((?:share|walk|quiz|check|gen|export|view|zoom)/[A-Za-z0-9_/-]*)\"")


def recorded_literals():
    found = set()
    for _, text in sources():
        found.update(CALL.findall(text))
        found.update(BUTTON_ID.findall(text))
        for ids in STEP_IDS.findall(text):
            found.update(re.findall(r'"([^"]+)"', ids))
    return found


def all_literals():
    found = set()
    for pattern in ("src/ui/**/*.[ch]pp", "src/app/*.[ch]pp"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            for line in open(path, encoding="utf-8"):  # string literals never span lines here
                line = line.replace("'\"'", "").replace("'\\\"'", "")  # the char literals '"' and '\"'
                found.update(re.findall(r'"((?:[^"\\]|\\.)*)"', line))
    return found


def head(pattern):
    """The literal part of a listed id: up to its first placeholder segment ("walk/stage/K" →
    "walk/stage/"); a whole id without placeholders is its own head."""
    out = []
    for part in pattern.split("/"):
        if part in PLACEHOLDERS and out:
            return "/".join(out) + "/"
        if part in PLACEHOLDERS:
            return ""
        out.append(part)
    return pattern


def main():
    listed = listed_ids()
    tally = Tally("not ok - ")
    dupes = sorted({x for x in listed if listed.count(x) > 1})
    if dupes:
        tally.fail(f"listed twice: {dupes}")
    recorded = recorded_literals()
    for lit in sorted(recorded):
        ok = lit in listed or any(p.startswith(lit if lit.endswith("/") else lit + "/") for p in listed)
        if not ok:
            tally.fail(f"the code records {lit!r}, which docs/PAGE_API.md does not list")
    literals = all_literals()
    for pattern in listed:
        h = head(pattern)
        first = pattern.split("/")[0]
        if h == "":  # Q/i/c: the matrix's name is a literal of its own
            ok = first in literals
        elif h.endswith("/"):
            ok = h[:-1] in literals or any(l.startswith(h) or (l.endswith("/") and h.startswith(l)) for l in literals if l)
        else:
            ok = h in literals or any(l.endswith("/") and h.startswith(l) for l in literals if l)
        if not ok:
            tally.fail(f"docs/PAGE_API.md lists {pattern!r}, which no code records")
    return tally.done(f"{'ok' if not tally.count else 'not ok'} - {len(listed)} listed widget ids, "
                      f"{len(recorded)} recorded literals, {tally.count} problems")


if __name__ == "__main__":
    sys.exit(main())
