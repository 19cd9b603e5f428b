#!/usr/bin/python3
"""Count-based baselines for the language model's quality target (bits per byte on held-out text).

  scripts/lm_baselines.py TRAIN HELD_OUT [--order N] [--discount D]

TRAIN and HELD_OUT are files of raw bytes (`attention-lab-cli --corpus-text --part train|held-out`).
Prints one JSON object:
  {"bigram_bpb", "kn5_bpb", "held_out_bytes", "train_bytes", "kn5_method"}

- bigram: P(b | a) = (count(a, b) + 1) / (count(a) + 256), add-one smoothing, counted on the train
  bytes (count(a) = the pairs starting with a, so each row sums to 1). The held-out text follows the
  train text: its first byte is conditioned on the last train byte.
- kn5: an interpolated Kneser-Ney byte 5-gram, Chen & Goodman's "modified" variant (1998, "An
  Empirical Study of Smoothing Techniques for Language Modeling", section 3.6, eq. 17-19): three
  discounts per order, D1, D2, D3+, from that order's count-of-counts n1..n4 (Y = n1 / (n1 + 2 n2),
  D1 = 1 - 2Y n2/n1, D2 = 2 - 3Y n3/n2, D3+ = 3 - 4Y n4/n3; a fixed 0.75 if those counts are too few).
  --discount D gives plain interpolated Kneser-Ney with one discount D at every order instead.
  The highest order uses the counts; every lower order the continuation counts N1+(. g) (the number
  of distinct bytes seen before the n-gram g), as Chen & Goodman; below order 1 is the uniform 1/256:
      P_k(w | h) = max(c_k(hw) - D_k(c_k(hw)), 0) / c_k(h.) + gamma_k(h) P_{k-1}(w | h')
      gamma_k(h) = (D_k1 N1(h.) + D_k2 N2(h.) + D_k3+ N3+(h.)) / c_k(h.)
  with h' = h without its first byte, and P_k = P_{k-1} for a context h never seen (c_k(h.) = 0).
  Each held-out byte's context is the 4 bytes before it (from the train text at the start).
  Self-check: the 256 probabilities of several contexts (held-out ones and an unseen one) sum to 1
  within 1e-9, else exit 1.
bpb = the mean of -log2 P over the held-out bytes. Plain Python 3 (no NumPy).
"""
import json
import math
import sys
from collections import Counter

UNIFORM = 1.0 / 256.0


def bigram_bpb(train, held_out):
    """Add-one byte bigram: mean -log2 P(b | a) over held_out, the first byte after train's last."""
    pairs = Counter(zip(train, train[1:]))
    starts = Counter(train[:-1])
    stream = train[-1:] + held_out
    total = 0.0
    for a, b in zip(stream, stream[1:]):
        total -= math.log2((pairs.get((a, b), 0) + 1) / (starts.get(a, 0) + 256))
    return total / len(held_out)


def modified_discounts(counts):
    """(0, D1, D2, D3+) from the count-of-counts of `counts` (Chen & Goodman, eq. 26)."""
    n = Counter(c for c in counts.values() if c <= 4)
    n1, n2, n3, n4 = n[1], n[2], n[3], n[4]
    if min(n1, n2, n3, n4) == 0:
        return (0.0, 0.75, 0.75, 0.75)
    y = n1 / (n1 + 2 * n2)
    d1 = 1 - 2 * y * n2 / n1
    d2 = 2 - 3 * y * n3 / n2
    d3 = 3 - 4 * y * n4 / n3
    return (0.0, min(max(d1, 0.0), 1.0), min(max(d2, 0.0), 2.0), min(max(d3, 0.0), 3.0))


class KneserNey:
    """Interpolated Kneser-Ney over bytes, orders 1..order (see the module's docstring)."""

    def __init__(self, train, order=5, discount=None):
        self.order = order
        # counts[k]: k-gram (bytes) -> its count at order k (raw at the top, continuation below).
        self.counts = [None] * (order + 1)
        self.counts[order] = Counter(train[i:i + order] for i in range(len(train) - order + 1))
        for k in range(order - 1, 0, -1):
            cont = Counter()
            for gram in self.counts[k + 1]:
                cont[gram[1:]] += 1
            self.counts[k] = cont
        # stats[k]: context h (k-1 bytes) -> [c_k(h.), N1(h.), N2(h.), N3+(h.)]; discounts[k].
        self.stats = [None] * (order + 1)
        self.discounts = [None] * (order + 1)
        for k in range(1, order + 1):
            stats = {}
            for gram, c in self.counts[k].items():
                s = stats.get(gram[:-1])
                if s is None:
                    s = stats[gram[:-1]] = [0, 0, 0, 0]
                s[0] += c
                s[min(c, 3)] += 1
            self.stats[k] = stats
            self.discounts[k] = (0.0, discount, discount, discount) if discount is not None \
                else modified_discounts(self.counts[k])

    def prob(self, history, w, k=None):
        """P_k(w | the last k-1 bytes of history)."""
        if k is None:
            k = self.order
        if k == 0:
            return UNIFORM
        h = history[len(history) - (k - 1):] if k > 1 else b""
        lower = self.prob(history, w, k - 1)
        s = self.stats[k].get(h)
        if s is None:
            return lower
        d = self.discounts[k]
        c = self.counts[k].get(h + bytes((w,)), 0)
        gamma = (d[1] * s[1] + d[2] * s[2] + d[3] * s[3]) / s[0]
        return max(c - d[min(c, 3)], 0.0) / s[0] + gamma * lower

    def bpb(self, train, held_out):
        stream = train[-(self.order - 1):] + held_out
        skip = len(stream) - len(held_out)
        total = 0.0
        for i in range(skip, len(stream)):
            total -= math.log2(self.prob(stream[i - (self.order - 1):i], stream[i]))
        return total / len(held_out)

    def check_sums(self, histories):
        """The largest |sum over 256 bytes of P(w | h) - 1| over the histories."""
        return max(abs(math.fsum(self.prob(h, w) for w in range(256)) - 1.0) for h in histories)


def main(argv):
    args, order, discount = [], 5, None
    i = 0
    while i < len(argv):
        if argv[i] == "--order" and i + 1 < len(argv):
            order = int(argv[i + 1])
            i += 2
        elif argv[i] == "--discount" and i + 1 < len(argv):
            discount = float(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2 or order < 1 or (discount is not None and not 0 < discount < 1):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        print("lm_baselines: give TRAIN and HELD_OUT files (--order >= 1, --discount in (0, 1))",
              file=sys.stderr)
        return 2
    texts = []
    for name, path in zip(("train", "held_out"), args):
        try:
            with open(path, "rb") as f:
                texts.append(f.read())
        except OSError as e:
            print("lm_baselines: %s: cannot read %s: %s" % (name, path, e.strerror), file=sys.stderr)
            return 2
        if len(texts[-1]) < order:
            print("lm_baselines: %s: %s has %d bytes, fewer than the order %d" %
                  (name, path, len(texts[-1]), order), file=sys.stderr)
            return 2
    train, held_out = texts
    kn = KneserNey(train, order, discount)
    stream = train[-(order - 1):] + held_out if order > 1 else held_out
    step = max(1, len(held_out) // 8)
    histories = [stream[i:i + order - 1] for i in range(0, len(held_out), step)][:8]
    histories.append(b"\xff\xfe\xfd\xfc"[:order - 1])  # (almost surely) never seen
    worst = kn.check_sums(histories)
    if worst > 1e-9:
        print("lm_baselines: kn%d is not a distribution: a context's probabilities sum to 1 %+.3g" %
              (order, worst), file=sys.stderr)
        return 1
    method = ("plain interpolated Kneser-Ney, D = %g" % discount) if discount is not None \
        else "modified interpolated Kneser-Ney (Chen & Goodman), D1/D2/D3+ per order"
    result = {
        "bigram_bpb": bigram_bpb(train, held_out),
        "kn5_bpb": kn.bpb(train, held_out),
        "held_out_bytes": len(held_out),
        "train_bytes": len(train),
        "kn5_method": "order %d, %s" % (order, method),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
