#!/usr/bin/env python3
"""Time Y = softmax(Q Kᵀ / √d_k) V in NumPy float64 for the sizes of attention_bench.cpp.

The peer for the core's native timing (scripts/bench prints the ratios). Same method: median
of repetitions filling ~0.3 s per size. Output: one JSON object per line, like the C++ bench.
"""
import json
import time

import numpy as np


def attend(Q, K, V):
    scaled = (Q @ K.T) / np.sqrt(Q.shape[1])           # n×n
    weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)      # rows sum to 1
    return weights @ V                                 # n×d_v


def main():
    rng = np.random.default_rng(1)
    for n, d in [(8, 8), (64, 32), (256, 64), (1024, 64)]:
        Q, K, V = (rng.uniform(-1, 1, (n, d)) for _ in range(3))
        start = time.perf_counter()
        attend(Q, K, V)
        first_ms = (time.perf_counter() - start) * 1e3
        reps = min(max(int(300 / max(first_ms, 1e-3)), 5), 2000)
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            attend(Q, K, V)
            times.append((time.perf_counter() - start) * 1e3)
        times.sort()
        print(json.dumps({"n": n, "d": d, "ms": times[len(times) // 2], "reps": reps}))


if __name__ == "__main__":
    main()
