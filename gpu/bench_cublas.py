"""cuBLAS reference for smemdesc-gpu: times torch.matmul on bf16 (same GPU, same run).

Prints one JSON line. Usage: python3 bench_cublas.py [SIZE]
"""
import json
import sys

import torch


def bench(fn, warmup=300, iters=50):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
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
    return times[len(times) // 2]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    torch.manual_seed(0)
    a = torch.rand(n, n, device="cuda", dtype=torch.bfloat16) * 2 - 1
    b = torch.rand(n, n, device="cuda", dtype=torch.bfloat16) * 2 - 1  # N x K, like ours
    flops = 2.0 * n * n * n
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "size": n}
    ms_nt = bench(lambda: torch.matmul(a, b.t()))
    ms_nn = bench(lambda: torch.matmul(a, b))
    res["a_bT_ms"] = ms_nt
    res["a_bT_tflops"] = flops / ms_nt / 1e9
    res["a_b_ms"] = ms_nn
    res["a_b_tflops"] = flops / ms_nn / 1e9
    res["best_tflops"] = max(res["a_bT_tflops"], res["a_b_tflops"])
    print(json.dumps(res))


if __name__ == "__main__":
    main()
