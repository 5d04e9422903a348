#!/usr/bin/env python3
"""The convolution measurement with cuDNN in the same process (issue 32, item 5).

Loads the `rust_kernels` program as a shared library (gpu/rust-kernels-lib/build.sh) into this
Python process and runs its `--conv` mode; each round of its alternating timings calls back here
to time torch.nn.functional.conv2d (cuDNN, bf16, channels-last input and filter,
cudnn.benchmark on so cuDNN picks its fastest algorithm) on the same layer. torch's own output is
checked once per layer against an fp32 convolution without TF32 (integer data: exact), and the
cuDNN engine in use is not forced.

Usage: conv_same_process.py LIB.so KERNELS.ptx OUT_DIR [ROUNDS] [--layers I,J,..]

Every kernel of the `--conv` mode runs in the same rounds, the overlapped-epilogue ones of
gpu/rust-kernel/src/conv_ov.rs (issue 47 run 4) among them; `--layers 4,5,6` (indices into the
host's layer list, SMEMDESC_CONV_LAYERS) runs the three 1x1 layers only.
"""
import ctypes
import json
import os
import sys

import torch
import torch.nn.functional as F

TIMER = ctypes.CFUNCTYPE(
    ctypes.c_double,
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
)


def main():
    argv = sys.argv[1:]
    if "--layers" in argv:
        i = argv.index("--layers")
        # Read by the library's `--conv` mode in this process.
        os.environ["SMEMDESC_CONV_LAYERS"] = argv[i + 1]
        del argv[i:i + 2]
    lib_path, ptx, out = argv[0:3]
    rounds = argv[3] if len(argv) > 3 else "7"
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    calls, checks = {}, {}

    def setup(p):
        n, h, w, c, k, r, s, sh, sw, ph, pw, dh, dw = p
        x = torch.randint(-2, 3, (n, c, h, w), device="cuda").to(torch.bfloat16)
        x = x.contiguous(memory_format=torch.channels_last)
        wt = torch.randint(-2, 3, (k, c, r, s), device="cuda").to(torch.bfloat16)
        wt = wt.contiguous(memory_format=torch.channels_last)
        f = lambda: F.conv2d(x, wt, stride=(sh, sw), padding=(ph, pw), dilation=(dh, dw))
        got = f().float()
        ref = F.conv2d(x.float(), wt.float(), stride=(sh, sw), padding=(ph, pw), dilation=(dh, dw))
        checks[p] = {
            "mismatches_vs_fp32_rounded": int((got != ref.to(torch.bfloat16).float()).sum().item()),
            "max_abs_err_vs_fp32": float((got - ref).abs().max().item()),
            "output_channels_last": bool(f().is_contiguous(memory_format=torch.channels_last)),
        }
        return f

    def timer(p_ptr, count, _a, _b, iters):
        try:
            key = tuple(p_ptr[i] for i in range(count))
            if key not in calls:
                calls[key] = setup(key)
            f = calls[key]
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(iters):
                f()
            e1.record()
            e1.synchronize()
            return e0.elapsed_time(e1) / iters
        except Exception as e:  # noqa: BLE001 - reported to the Rust side as a failure
            print(f"torch conv2d: {e}"[:300], flush=True)
            return -1.0

    lib = ctypes.CDLL(lib_path)
    lib.smemdesc_rust_kernels_main.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p), TIMER]
    lib.smemdesc_rust_kernels_main.restype = ctypes.c_int32
    args = ["--ptx", ptx, "--conv", "--out", out, "--rounds", rounds]
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    cb = TIMER(timer)
    rc = lib.smemdesc_rust_kernels_main(len(args), argv, cb)
    path = os.path.join(out, "conv_results.json")
    res = json.load(open(path))
    res["torch"] = torch.__version__
    res["cudnn"] = torch.backends.cudnn.version()
    res["baselines_in_same_process"] = True
    for row in res.get("conv", []):
        if "error" in row:
            continue
        key = (row["n"], row["h"], row["w"], row["c"], row["k"], row["r"], row["s"],
               row["stride"], row["stride"], row["pad"], row["pad"], 1, 1)
        row["cudnn_check"] = checks.get(key)
    json.dump(res, open(path, "w"), indent=1)
    sys.exit(rc)


if __name__ == "__main__":
    main()
