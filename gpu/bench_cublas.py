"""cuBLAS reference for smemdesc-gpu: times torch.matmul on bf16 (same GPU, same run).

Prints one JSON line. Usage: python3 bench_cublas.py [SIZE] [WARMUP_S] [ITERS]
Each timing is the median of ITERS after WARMUP_S seconds of the same matmul (as for ours).
"""
import json
import sys
import time

import torch


def bench(fn, warmup_s=2.0, iters=100):
    t0 = time.perf_counter()
    while True:
        for _ in range(20):
            fn()
        torch.cuda.synchronize()
        if time.perf_counter() - t0 >= warmup_s:
            break
    times = []
    for _ in range(iters):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    m = len(times)
    return times[m // 2] if m % 2 else (times[m // 2 - 1] + times[m // 2]) / 2


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    warmup_s = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    iters = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    torch.manual_seed(0)
    a = torch.rand(n, n, device="cuda", dtype=torch.bfloat16) * 2 - 1
    b = torch.rand(n, n, device="cuda", dtype=torch.bfloat16) * 2 - 1  # N x K, like ours
    flops = 2.0 * n * n * n
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "size": n}
    ms_nt = bench(lambda: torch.matmul(a, b.t()), warmup_s, iters)
    ms_nn = bench(lambda: torch.matmul(a, b), warmup_s, iters)
    res["a_bT_ms"] = ms_nt
    res["a_bT_tflops"] = flops / ms_nt / 1e9
    res["a_b_ms"] = ms_nn
    res["a_b_tflops"] = flops / ms_nn / 1e9
    res["best_tflops"] = max(res["a_bT_tflops"], res["a_b_tflops"])
    print(json.dumps(res))


if __name__ == "__main__":
    main()
