"""cuBLAS reference for the Rust GEMMs (same GPU, called once per alternating round).

Usage: python3 cublas_ref.py bf16|fp8 [SIZE] [WARMUP_S] [ITERS]. Prints one JSON line with the
median over ITERS single-call timings (CUDA events) after WARMUP_S seconds of the same call.
bf16: torch.matmul(a, b.t()) with a: M x K, b: N x K (both K-major, like the Rust kernel), bf16
out. fp8: torch._scaled_mm(a, b.t(), scales 1, out bf16, use_fast_accum=True) with e4m3 a: M x K
and b: N x K (cuBLAS FP8 needs A row-major and B column-major, which b.t() is). Fast accumulation
is what the Rust kernel does (wgmma's fp32 accumulator, no periodic promotion), so it is the
reference; the default (use_fast_accum=False) is timed too and reported as "tflops_precise".
"""
import json
import sys
import time

import torch


def bench(fn, warmup_s, iters):
    t0 = time.perf_counter()
    while True:
        for _ in range(10):
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
    kind = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    warmup_s = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    iters = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    torch.manual_seed(0)
    a = torch.rand(n, n, device="cuda") * 2 - 1
    b = torch.rand(n, n, device="cuda") * 2 - 1
    precise = None
    if kind == "bf16":
        a, b = a.to(torch.bfloat16), b.to(torch.bfloat16)

        def fn():
            return torch.matmul(a, b.t())

    elif kind == "fp8":
        a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda", dtype=torch.float32)

        def mm(fast):
            return lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                            out_dtype=torch.bfloat16, use_fast_accum=fast)

        fn = mm(True)
        precise = bench(mm(False), warmup_s, iters)

    else:
        raise SystemExit(f"unknown kind {kind}")
    ms = bench(fn, warmup_s, iters)
    res = {"kind": kind, "size": n, "ms": ms, "tflops": 2.0 * n**3 / ms / 1e9,
           "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    if kind == "fp8":
        res["tflops_precise"] = 2.0 * n**3 / precise / 1e9
    print(json.dumps(res))


if __name__ == "__main__":
    main()
