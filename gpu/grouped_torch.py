#!/usr/bin/env python3
"""torch._grouped_mm on the shapes `rust_kernels --grouped` wrote (grouped_shapes.json): bf16
A [sum M, K] and B [G, N, K], out[offs[g-1]:offs[g]] = A_g @ B_g^T, medians of rounds of 10 calls
(CUDA events), TFLOP/s over the groups' 2 m n k. Usage: grouped_torch.py SHAPES.json OUT.json"""
import json
import sys

import torch


def main():
    shapes = json.load(open(sys.argv[1]))
    rows = []
    for s in shapes:
        ms, n, k = s["m"], s["n"], s["k"]
        g, total = len(ms), sum(ms)
        a = torch.randint(-2, 3, (total, k), device="cuda").to(torch.bfloat16)
        b = torch.randint(-2, 3, (g, n, k), device="cuda").to(torch.bfloat16)
        offs = torch.tensor([sum(ms[: i + 1]) for i in range(g)], device="cuda", dtype=torch.int32)
        flops = sum(2.0 * m * n * k for m in ms)
        row = {"groups": g, "n": n, "k": k, "tokens": total}
        try:
            f = lambda: torch._grouped_mm(a, b.transpose(-2, -1), offs=offs)
            out = f()
            # exactness against a per-group matmul (integers: exact in fp32)
            ref = torch.cat([a[o - m : o].float() @ b[i].float().T for i, (m, o) in enumerate(zip(ms, offs.tolist()))])
            row["mismatches_vs_fp32"] = int((out.float() != ref.to(torch.bfloat16).float()).sum().item())
            for _ in range(20):
                f()
            ts = []
            for _ in range(7):
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record()
                for _ in range(10):
                    f()
                e1.record()
                torch.cuda.synchronize()
                ts.append(flops / (e0.elapsed_time(e1) / 10 * 1e-3) / 1e12)
            ts.sort()
            row["torch_grouped_mm_median_tflops"] = round(ts[len(ts) // 2], 1)
            row["torch_grouped_mm_tflops"] = [round(t, 1) for t in ts]
        except Exception as e:  # noqa: BLE001 - report what torch refused
            row["error"] = str(e)[:300]
        print(row)
        rows.append(row)
    json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "shapes": rows}, open(sys.argv[2], "w"), indent=1)


if __name__ == "__main__":
    main()
