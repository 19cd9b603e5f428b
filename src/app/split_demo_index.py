#!/usr/bin/env python3
"""split_demo_index.py SRC DEST_DIR — the site's two demo lists from web/demos/index.json.

web/demos/index.json lists every demo in gallery order; an entry with "full": true is a scene that only
the build with every mode opens (a version-2 variant key: the first load refuses it by the key's name).
The page fetches DEST_DIR/index.json as it loads, beside the wasm (the first load: the scenes it opens),
and DEST_DIR/index-full.json after the first frame (web/share.js appends it to the gallery), so the
first load does not carry the entries it cannot open. Both are written compact, without "full"; the
order of each list is the source's.
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        entries = json.load(f)
    lists = {"index.json": [], "index-full.json": []}
    for entry in entries:
        full = entry.pop("full", False)
        if full is not True and full is not False:
            print(f"{argv[1]}: {entry.get('name')}: \"full\" must be true or false", file=sys.stderr)
            return 1
        lists["index-full.json" if full else "index.json"].append(entry)
    for name, items in lists.items():
        with open(f"{argv[2]}/{name}", "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
