#!/usr/bin/env python3
"""Where a query tile's time goes (issue 31): runs the head-dim-128 overlapped kernel and its
persistent form with a timeline (variants 11 and 12 of gpu/src/bin/rust_kernels/attn.rs: each
tile's producer and consumer steps stamped with %globaltimer, `attn_ov::stamp`) and prints, per
shape, the median duration of each step of a tile, the time a multiprocessor spends between
tiles, and the kernel time of variants 2, 11, 5 and 12 (the stamps' own cost).

Usage: attention_timeline.py LIB.so KERNELS OUT_DIR
"""
import ctypes
import json
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_same_process import Ours, time_call  # noqa: E402

SHAPES = [(16, 32, 2048), (2, 16, 16384)]
# Slots of a tile's 16 (attn_ov::stamp): 0 CTA start, 1 Q load issued, 2 SM id; per consumer im
# at 4 + 6 im: Q ready, K_0 ready, S_0 done, key loop done, last P·V done, O stores issued.
STEPS = ["q_ready", "k0_ready", "s0_done", "loop_done", "last_pv_done", "o_issued"]


def med(xs):
    return statistics.median(xs) if xs else None


def analyse(t, persistent, blocks):
    """Per-tile steps (µs, consumer 0 and 1) and the multiprocessors' gaps between tiles."""
    t = t.reshape(-1, 16).tolist()
    out = {}
    for im in (0, 1):
        b = 4 + 6 * im
        steps = {}
        for i, name in enumerate(STEPS):
            if i == 0:
                if persistent:
                    continue
                steps["q_issued->q_ready"] = [(r[b] - r[1]) / 1e3 for r in t]
            else:
                steps[f"{STEPS[i - 1]}->{name}"] = [(r[b + i] - r[b + i - 1]) / 1e3 for r in t]
        out[f"consumer{im}"] = {k: round(med(v), 3) for k, v in steps.items()}
    if not persistent:
        out["start->q_issued"] = round(med([(r[1] - r[0]) / 1e3 for r in t]), 3)
        out["start->o_issued(both)"] = round(med([(max(r[9], r[15]) - r[0]) / 1e3 for r in t]), 3)
    out["per_block_us"] = round(med([(r[7] - r[6]) / 1e3 / max(blocks - 1, 1) for r in t]), 3)
    # Per multiprocessor, tiles in time order: the gap from one tile's last O issue to the
    # next tile's Q ready (persistent) or the next CTA's start (one tile per CTA).
    by_sm = {}
    for r in t:
        by_sm.setdefault(int(r[2]), []).append(r)
    gaps, busy, span = [], 0.0, 0.0
    for rs in by_sm.values():
        key = (lambda r: r[4]) if persistent else (lambda r: r[0])
        rs.sort(key=key)
        for a, b in zip(rs, rs[1:]):
            gaps.append((key(b) - max(a[9], a[15])) / 1e3)
        span += (max(max(r[9], r[15]) for r in rs) - min(key(r) for r in rs)) / 1e3
        busy += sum((max(r[7], r[13]) - min(r[6], r[12])) for r in rs) / 1e3
    out["gap_between_tiles_us"] = round(med(gaps), 3) if gaps else None
    out["sms"] = len(by_sm)
    out["key_loop_share_of_sm_time"] = round(busy / span, 4) if span else None
    first = min(r[0] for r in t if r[0])
    out["kernel_span_us"] = round((max(max(r[9], r[15]) for r in t) - first) / 1e3, 1)
    return out


def main():
    lib, ptx, outdir = sys.argv[1:4]
    os.makedirs(outdir, exist_ok=True)
    ours = Ours(lib, ptx)
    ours.lib.smemdesc_attn_set_timeline.argtypes = [ctypes.c_uint64]
    res = {"device": torch.cuda.get_device_name(), "shapes": []}
    for (b, h, s) in SHAPES:
        d = 128
        q, k, v = (torch.randn((b, h, s, d), device="cuda", dtype=torch.bfloat16) for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
        tiles = b * h * s // 128
        tl = torch.zeros(32 + 16 * tiles, dtype=torch.int64, device="cuda")
        ours.lib.smemdesc_attn_set_timeline(tl.data_ptr())
        row = {"batch": b, "heads": h, "seqlen": s, "head_dim": d, "tiles": tiles}
        ref = None
        for name, var, pers in [("overlapped", 11, False), ("persistent", 12, True)]:
            for _ in range(3):  # warm: the last run's timeline is read
                tl.zero_()
                ours(q, k, v, False, o, lse, variant=var)
            torch.cuda.synchronize()
            if ref is None:
                ours(q, k, v, False, o, lse, variant=2)
                ref = o.clone()
                tl.zero_()
                ours(q, k, v, False, o, lse, variant=var)
            torch.cuda.synchronize()
            row[name] = analyse(tl[32:].cpu(), pers, s // 128)
            row[name]["same_output_as_variant_2"] = bool(torch.equal(o, ref))
        flops = 4 * b * h * s * s * d
        ms = {n: [] for n in (2, 11, 5, 12)}
        for r in range(7):
            for var in ms:
                tl.zero_()
                f = (lambda var=var: ours(q, k, v, False, o, lse, variant=var))
                time_call(f, 5)
                ms[var].append(time_call(f, 10))
        row["tflops"] = {str(n): round(flops / (med(v) * 1e-3) / 1e12, 1) for n, v in ms.items()}
        print(json.dumps(row), flush=True)
        res["shapes"].append(row)
        del q, k, v, o, lse, tl
        torch.cuda.empty_cache()
    json.dump(res, open(os.path.join(outdir, "attention_timeline.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
