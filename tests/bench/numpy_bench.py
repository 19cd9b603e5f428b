#!/usr/bin/env python3
"""Peers of attention_bench.cpp: Y = softmax(Q Kᵀ / √d_k) V in NumPy float64 and float32 and in
PyTorch float64, single-threaded, for the same sizes.

Same method as the C++ bench: median of repetitions filling ~0.3 s per size. Output: one JSON object
per line, {"n","d","numpy_ms","numpy_f32_ms","torch_ms"}, then one line saying which BLAS NumPy
ran: {"blas": {...}} (threadpoolctl's report and the BLAS library mapped into this process).

Run it as scripts/bench does: OPENBLAS_NUM_THREADS=1 (single-threaded peer), OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE unset (they pin old, slower OpenBLAS kernels on some machines).
"""
import json
import sys
import time

import numpy as np

SIZES = [(64, 16), (64, 64), (256, 16), (256, 64), (1024, 16), (1024, 64)]


def attend(Q, K, V):
    scaled = (Q @ K.T) / np.sqrt(Q.shape[1])           # n×n
    weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)      # rows sum to 1
    return weights @ V                                 # n×d_v


def median_ms(run):
    start = time.perf_counter()
    run()
    first_ms = (time.perf_counter() - start) * 1e3
    reps = min(max(int(300 / max(first_ms, 1e-3)), 5), 2000)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    return times[len(times) // 2]


def blas_report():
    report = {}
    try:
        from threadpoolctl import threadpool_info
        report["threadpoolctl"] = [
            {k: info.get(k) for k in ("internal_api", "version", "architecture", "num_threads", "filepath")}
            for info in threadpool_info() if info.get("user_api") == "blas"]
    except ImportError:
        report["threadpoolctl"] = "not installed (python3-threadpoolctl)"
    with open("/proc/self/maps") as maps:
        libs = sorted({line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line})
    report["mapped"] = libs
    return report


def main():
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(1)
    for n, d in SIZES:
        Q, K, V = (rng.uniform(-1, 1, (n, d)) for _ in range(3))
        row = {"n": n, "d": d}
        row["numpy_ms"] = median_ms(lambda: attend(Q, K, V))
        Q32, K32, V32 = (m.astype(np.float32) for m in (Q, K, V))
        row["numpy_f32_ms"] = median_ms(lambda: attend(Q32, K32, V32))
        if torch is not None:
            tq, tk, tv = (torch.from_numpy(m) for m in (Q, K, V))  # float64
            with torch.no_grad():
                row["torch_ms"] = median_ms(
                    lambda: torch.softmax((tq @ tk.T) / d ** 0.5, dim=1) @ tv)
        print(json.dumps(row))
        sys.stdout.flush()
    print(json.dumps({"blas": blas_report()}))


if __name__ == "__main__":
    main()
