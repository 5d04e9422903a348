#!/usr/bin/env python3
"""The grouped-GEMM measurement with every baseline in one process (issue 30).

Loads the `rust_kernels` program as a shared library (gpu/rust-kernels-lib/build.sh) into this
Python process and runs its `--grouped` mode; each round of its alternating timings calls back
here to time torch._grouped_mm on the same shape (bf16 A [sum M, K], B [G, N, K] used as B^T,
offsets = the groups' row ends), between our kernels, the cuBLASLt loop and the concatenated
cuBLASLt GEMM, all on the CUDA primary context torch and the library share. torch's own result
is checked once per shape against an fp32 product (integer data: exact).

Usage: grouped_same_process.py LIB.so KERNELS.ptx OUT_DIR [ROUNDS]
"""
import ctypes
import json
import os
import sys

import torch

TIMER = ctypes.CFUNCTYPE(
    ctypes.c_double,
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
)


def main():
    lib_path, ptx, out = sys.argv[1:4]
    rounds = sys.argv[4] if len(sys.argv) > 4 else "7"
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    calls, checks = {}, {}

    def setup(ms, n, k):
        g, total = len(ms), sum(ms)
        a = torch.randint(-2, 3, (total, k), device="cuda").to(torch.bfloat16)
        b = torch.randint(-2, 3, (g, n, k), device="cuda").to(torch.bfloat16)
        ends = [sum(ms[: i + 1]) for i in range(g)]
        offs = torch.tensor(ends, device="cuda", dtype=torch.int32)
        f = lambda: torch._grouped_mm(a, b.transpose(-2, -1), offs=offs)
        got = f().float()
        ref = torch.cat([a[e - m : e].float() @ b[i].float().T for i, (m, e) in enumerate(zip(ms, ends))])
        checks[(ms, n, k)] = int((got != ref.to(torch.bfloat16).float()).sum().item())
        return f

    def timer(ms_ptr, g, n, k, iters):
        try:
            key = (tuple(ms_ptr[i] for i in range(g)), n, k)
            if key not in calls:
                calls[key] = setup(*key)
            f = calls[key]
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(iters):
                f()
            e1.record()
            e1.synchronize()
            return e0.elapsed_time(e1) / iters
        except Exception as e:  # noqa: BLE001 - reported to the Rust side as a failure
            print(f"torch._grouped_mm: {e}"[:300], flush=True)
            return -1.0

    lib = ctypes.CDLL(lib_path)
    lib.smemdesc_rust_kernels_main.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p), TIMER]
    lib.smemdesc_rust_kernels_main.restype = ctypes.c_int32
    args = ["--ptx", ptx, "--grouped", "--out", out, "--rounds", rounds]
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    cb = TIMER(timer)
    rc = lib.smemdesc_rust_kernels_main(len(args), argv, cb)
    path = os.path.join(out, "grouped_results.json")
    res = json.load(open(path))
    res["torch"] = torch.__version__
    res["baselines_in_same_process"] = True
    for row in res.get("shapes", []):
        key = (tuple(row["m"]), row["n"], row["k"])
        row["torch_grouped_mm_mismatches_vs_fp32"] = checks.get(key)
    json.dump(res, open(path, "w"), indent=1)
    sys.exit(rc)


if __name__ == "__main__":
    main()
