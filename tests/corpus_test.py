#!/usr/bin/env python3
"""attention-lab-cli --corpus-text against an independent reading of the corpus rule (cli/corpus.hpp).

  corpus_test.py CLI

1. A hand-made directory (two text files, a *.dat index, a symbolic link, a sub-directory): the text
   is exactly the entries written out here, in byte order of the file names.
2. The fortunes corpus (/usr/share/games/fortunes, Debian's `fortunes`): the CLI's train, held-out and
   all parts equal this script's own reading, byte for byte; train + held_out == all; the split is the
   first entry end at or after floor(0.95 x size) (not a blank line inside an entry).
3. Bad input: exit 2, the reason on stderr, nothing on stdout.
Exit 77 (skipped, loudly) only when the fortunes package is absent, after parts 1 and 3 passed.
"""
import os
import subprocess
import sys
import tempfile

FORTUNES = "/usr/share/games/fortunes"
SPACE = b" \t\n\v\f\r"


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def entries_of(data):
    """The entries of one file: split on lines that are exactly "%", trailing whitespace trimmed."""
    out, group = [], []
    for line in data.split(b"\n"):
        if line == b"%":
            out.append(b"\n".join(group).rstrip(SPACE))
            group = []
        else:
            group.append(line)
    out.append(b"\n".join(group).rstrip(SPACE))
    return [e for e in out if e]


def reference(directory):
    names = sorted(n.encode() for n in os.listdir(directory))
    files = []
    for n in names:
        path = os.path.join(directory.encode(), n)
        if b"." in n or os.path.islink(path) or not os.path.isfile(path):
            continue
        files.append(path)
    entries = []
    for f in files:
        with open(f, "rb") as fh:
            entries += entries_of(fh.read())
    text = b"".join(e + b"\n\n" for e in entries)
    ends, pos = [], 0
    for e in entries:
        pos += len(e) + 2
        ends.append(pos)
    start = len(text) * 95 // 100
    split = next((p for p in ends if p >= start), len(text))
    return text, split, ends


def main():
    cli = sys.argv[1]
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    # 1. A hand-made directory.
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "b"), "wb") as f:
            f.write(b"Second file.  \n%\n\n%\nIts second\n\nentry, with a blank line.\n\t\n%\n")
        with open(os.path.join(d, "a"), "wb") as f:
            f.write(b"First entry.\n%\nSecond entry\n  indented.\n")
        with open(os.path.join(d, "a.dat"), "wb") as f:
            f.write(b"\x00\x01 index, skipped\n")
        os.symlink("a", os.path.join(d, "a.u8"))
        os.symlink("b", os.path.join(d, "link"))
        os.mkdir(os.path.join(d, "sub"))
        a_text = b"First entry.\n\nSecond entry\n  indented.\n\n"
        b_text = b"Second file.\n\nIts second\n\nentry, with a blank line.\n\n"
        expected = a_text + b_text
        rc, out, err = run(cli, "--corpus-text", d)
        check(rc == 0 and out == expected, "hand-made directory: the entries in name order (got %r)" % out[:80])
        check(reference(d)[0] == expected, "this script's reading agrees on the hand-made directory")
        rc, out2, _ = run(cli, "--corpus-text", os.path.join(d, "b"), os.path.join(d, "a"))
        check(rc == 0 and out2 == b_text + a_text, "files in the order given")
        # 93 bytes, entries ending at 14, 40, 54, 93: floor(0.95 * 93) = 88 falls inside the last entry
        # (whose blank line at 66 is no boundary), so held-out is empty.
        rc, held, _ = run(cli, "--corpus-text", d, "--part", "held-out")
        check(len(expected) == 93 and reference(d)[2] == [14, 40, 54, 93], "the hand-made sizes as written")
        check(rc == 0 and held == b"", "held-out empty when no entry ends after 95 %% (got %r)" % held)
        # Another file with entries of 10 and 6 bytes: 109 bytes, floor(103.55) = 103, an entry end: the
        # split there (exactly at floor counts as "at or after").
        with open(os.path.join(d, "c"), "wb") as f:
            f.write(b"Last one\n%\nEnd.\n")
        rc, held, _ = run(cli, "--corpus-text", d, "--part", "held-out")
        rc2, train, _ = run(cli, "--corpus-text", d, "--part", "train")
        check(rc == 0 and rc2 == 0 and held == b"End.\n\n" and train == expected + b"Last one\n\n",
              "the split at the first entry end at or after floor(0.95 x size) (got %r)" % held)

    # 3. Bad input.
    for args, needle in [(["--corpus-text", "/nonexistent/corpus"], b"corpus: cannot open /nonexistent/corpus"),
                         (["--corpus-text", "--part", "test"], b"--part: must be train, held-out or all"),
                         (["--part", "train"], b"--part goes with --corpus-text"),
                         (["--corpus-text", "--compact"], b"--compact: not with --corpus-text")]:
        rc, out, err = run(cli, *args)
        check(rc == 2 and out == b"" and needle in err, "%s: exit 2 naming the field (%r)" % (args, err.strip()))
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = run(cli, "--corpus-text", d)
        check(rc == 2 and out == b"" and b"corpus: no text" in err, "an empty directory: exit 2")

    # 2. The fortunes corpus.
    if not os.path.isdir(FORTUNES):
        if failures:
            return 1
        print("SKIP: %s absent (Debian package fortunes; scripts/setup test installs it)" % FORTUNES)
        return 77
    text, split, ends = reference(FORTUNES)
    parts = {}
    for part in ["all", "train", "held-out"]:
        rc, out, err = run(cli, "--corpus-text", "--part", part)
        check(rc == 0, "--part %s: exit 0 %s" % (part, err.decode(errors="replace")))
        parts[part] = out
    check(parts["all"] == text, "all = this script's reading (%d bytes)" % len(text))
    check(parts["train"] + parts["held-out"] == parts["all"], "train + held-out == all")
    check(parts["train"] == text[:split] and parts["held-out"] == text[split:], "the split at byte %d" % split)
    check(split in ends and split >= len(text) * 95 // 100 and
          all(e < len(text) * 95 // 100 for e in ends if e < split),
          "the split is the first entry end at or after 95 %")
    check(parts["train"].endswith(b"\n\n") and not parts["held-out"].startswith(b"\n"),
          "train ends an entry, held-out starts one")
    # A blank line inside an entry is no boundary: entries do hold "\n\n" (else this check proves nothing).
    check(text.count(b"\n\n") > len(ends), "the corpus has blank lines inside entries, which are not ends")
    print("corpus: %d bytes, train %d, held-out %d (%.2f %%)" %
          (len(text), split, len(text) - split, 100.0 * (len(text) - split) / len(text)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
