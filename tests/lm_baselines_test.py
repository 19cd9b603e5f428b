#!/usr/bin/env python3
"""scripts/lm_baselines.py: the byte bigram and the Kneser-Ney byte 5-gram against values worked out
by hand, the KN distributions summing to 1, and KN beating the bigram on the real held-out text.

  lm_baselines_test.py SCRIPTS_DIR CLI

Plain Python 3. Exit 77 (skipped, loudly) only when the fortunes corpus is absent, after the hand-made
checks passed.
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def close(a, b, tol=1e-12):
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    scripts, cli = sys.argv[1], sys.argv[2]
    sys.path.insert(0, scripts)
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    import lm_baselines as lm

    # Bigram, add-one, on the 10 bytes "abracadabr". Pairs: ab ×2, br ×2, ra, ac, ca, ad, da; as a first
    # byte a occurs 4 times (the last byte, r, starts no pair), r once. Held-out "ab" follows the train
    # text: P(a | r) = (1 + 1) / (1 + 256), P(b | a) = (2 + 1) / (4 + 256).
    bpb = lm.bigram_bpb(b"abracadabr", b"ab")
    check(close(bpb, (math.log2(257 / 2) + math.log2(260 / 3)) / 2), "bigram by hand: %.12f" % bpb)
    # "zq": z after r (seen once as a first byte, never before z): 1/257; q after z (never a first byte):
    # 1/256, 8 bits.
    check(close(lm.bigram_bpb(b"abracadabr", b"zq"), (math.log2(257) + 8) / 2), "unseen pairs and contexts")

    # Plain interpolated KN, order 2, D = 0.75, on "abab": bigrams ab ×2, ba ×1; continuation counts of
    # the unigrams (distinct bytes before them in the bigrams): a 1 (from ba), b 1 (from ab), total 2,
    # both seen once, so gamma_1 = 0.75 × 2 / 2 and P1(b) = (1 − 0.75) / 2 + 0.75 / 256.
    # Context a: c(a.) = 2, one distinct follower: P(b | a) = (2 − 0.75) / 2 + (0.75 × 1 / 2) P1(b).
    kn = lm.KneserNey(b"abab", order=2, discount=0.75)
    p1_b = 0.25 / 2 + 0.75 / 256
    check(close(kn.prob(b"a", ord("b")), 1.25 / 2 + 0.375 * p1_b), "KN P(b | a) by hand")
    check(close(kn.prob(b"a", ord("a")), 0.375 * p1_b), "KN P(a | a) by hand (only the lower order)")
    check(close(kn.prob(b"c", ord("c")), 0.75 / 256), "KN: unseen context and byte: gamma_1 / 256")
    check(close(kn.prob(b"b", ord("a")), 0.25 / 1 + 0.75 * p1_b), "KN P(a | b) by hand")
    # Modified KN's discounts (Chen & Goodman eq. 26) for count-of-counts n1..n4 = 4, 2, 1, 1:
    # Y = 4 / (4 + 4) = 0.5; D1 = 1 − 2·0.5·2/4 = 0.5; D2 = 2 − 3·0.5·1/2 = 1.25; D3+ = 3 − 4·0.5·1/1 = 1.
    counts = {b"a": 1, b"b": 1, b"c": 1, b"d": 1, b"e": 2, b"f": 2, b"g": 3, b"h": 4, b"i": 9}
    check(lm.modified_discounts(counts) == (0.0, 0.5, 1.25, 1.0), "modified discounts by hand")

    # Every distribution sums to 1: modified KN of order 5 on English, contexts seen, half seen, unseen.
    text = (b"The quick brown fox jumps over the lazy dog. It's a truth universally acknowledged that "
            b"a single man in possession of a good fortune must be in want of a wife. ") * 3
    kn5 = lm.KneserNey(text, order=5)
    rng = random.Random(5)
    histories = [text[i:i + 4] for i in rng.sample(range(len(text) - 4), 20)]
    histories += [bytes(rng.randrange(256) for _ in range(4)) for _ in range(5)] + [b"xx t", b"zzzq"]
    worst = kn5.check_sums(histories)
    check(worst < 1e-12, "KN5 sums to 1 over 256 bytes on 27 contexts (worst %.2g)" % worst)
    check(kn5.bpb(text[:-40], text[-40:]) < lm.bigram_bpb(text[:-40], text[-40:]),
          "KN5 beats the bigram on repeated text")

    # The script end to end: JSON keys; bad input exits 2.
    script = os.path.join(scripts, "lm_baselines.py")
    with tempfile.TemporaryDirectory() as d:
        train, held = os.path.join(d, "train"), os.path.join(d, "held")
        with open(train, "wb") as f:
            f.write(text[:-40])
        with open(held, "wb") as f:
            f.write(text[-40:])
        p = subprocess.run([sys.executable, script, train, held], capture_output=True, timeout=60)
        out = json.loads(p.stdout) if p.returncode == 0 else {}
        check(p.returncode == 0 and set(out) >= {"bigram_bpb", "kn5_bpb", "held_out_bytes", "train_bytes"}
              and out["held_out_bytes"] == 40 and close(out["bigram_bpb"], lm.bigram_bpb(text[:-40], text[-40:])),
              "the script prints the JSON (%s)" % p.stderr.decode().strip())
        p = subprocess.run([sys.executable, script, train, os.path.join(d, "missing")], capture_output=True)
        check(p.returncode == 2 and b"held_out: cannot read" in p.stderr and not p.stdout,
              "a missing file: exit 2 naming it")

    # The real corpus, a slice to stay fast: the last 400 KB of train, the first 30 KB of held-out.
    if not os.path.isdir("/usr/share/games/fortunes"):
        if failures:
            return 1
        print("SKIP: the fortunes corpus is absent (scripts/setup test installs it)")
        return 77
    parts = {}
    for part in ("train", "held-out"):
        p = subprocess.run([cli, "--corpus-text", "--part", part], capture_output=True, timeout=120)
        check(p.returncode == 0, "--corpus-text --part %s" % part)
        parts[part] = p.stdout
    train, held = parts["train"][-400000:], parts["held-out"][:30000]
    kn5 = lm.KneserNey(train, order=5)
    big, k5 = lm.bigram_bpb(train, held), kn5.bpb(train, held)
    check(3.5 < big < 4.5, "the bigram on the real held-out slice: %.3f bits per byte" % big)
    check(k5 < 0.8 * big, "KN5 beats it: %.3f bits per byte (%.2f x the bigram)" % (k5, k5 / big))
    seen = [held[i:i + 4] for i in range(0, len(held) - 4, 3001)]
    check(kn5.check_sums(seen) < 1e-9, "KN5 sums to 1 on %d real contexts" % len(seen))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
