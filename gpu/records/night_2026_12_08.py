#!/usr/bin/env python3
"""Writes the records of issue 47's device call of 2026-12-08 (H100) into the results files from
gpu/device-logs/2026-12-08-issue47-1wg/: the convolution at the 8 ResNet-50 layers with every
kernel of the `--conv` mode, the one-warpgroup 128 x 128 tile (`gemm_conv_1wg_rust`, reverted in
76e0fd4) among them (conv_same_process.py, 7 rounds, the `.gpu-rust/` staging of 0da254d), then
the fragment check (gpu/fragments/run_device.sh).

Usage: night_2026_12_08.py
Every number is read from the logs. Ratios are ratios of medians over alternating rounds (seeded
random order) in one process; "spread" is [min, max] of per-round figures; "noise" is the same
kernel launched again in the same rounds.
"""
import datetime
import json
import os

import results_io
from afternoon_2026_12_07 import conv_rows
from results_io import r4

KEY = "issue47_night_2026_12_08"
GPU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LOGS = os.path.join(GPU, "device-logs", "2026-12-08-issue47-1wg")
S2 = "conv4_x 3x3 256->256 stride 2, 28x28"
ONE_WG = "gemm_conv_1wg_rust"


def load(*p):
    with open(os.path.join(LOGS, *p)) as f:
        return json.load(f)


def dev():
    """This call's device.txt: `date -u`, nvidia-smi's csv header and row (name, driver, max SM
    clock, memory), then torch and cuDNN versions."""
    with open(os.path.join(LOGS, "device.txt")) as f:
        when, _header, smi, versions = f.read().splitlines()[:4]
    t = datetime.datetime.strptime(" ".join(when.split()), "%a %b %d %I:%M:%S %p UTC %Y")
    name, driver, clock, _memory = [s.strip() for s in smi.split(",")]
    torch, cudnn = versions.split()
    return {"device": f"{name} (driver {driver}, {clock} max SM clock)",
            "date": t.strftime("%Y-%m-%d"), "time": t.strftime("%H:%M:%S UTC"),
            "torch": torch, "cudnn": int(cudnn)}


def conv():
    rows = conv_rows(load("conv", "conv_results.json"))
    s2 = next(r for r in rows if r["layer"] == S2)
    one_wg = {r["layer"]: {"over_cudnn": r["over_cudnn"][ONE_WG],
                           "over_pick": r4(r["over_cudnn"][ONE_WG] / r["picked_over_cudnn"])}
              for r in rows}
    beats_pick = [layer for layer, x in one_wg.items() if x["over_pick"] > 1.0]
    return dict(dev(), **{
        "command": "python3 .gpu-rust/conv_same_process.py .gpu-rust/libsmemdesc_rust_kernels.so "
                   ".gpu-rust/kernels.cubin OUT 7 (the staging of 0da254d, gemm_conv_1wg_rust in)",
        "layers": rows,
        "all_exact": all(r["all_exact"] for r in rows),
        "stride2_3x3": {"goal": ">= 1.0x cuDNN in one run with all 8 layers",
                        "picked_kernel": s2["picked_kernel"],
                        "picked_over_cudnn": s2["picked_over_cudnn"],
                        "best_kernel": s2["best_kernel"], "best_over_cudnn": s2["best_over_cudnn"],
                        "met": s2["best_over_cudnn"] >= 1.0},
        "one_warpgroup_128x128": {"kernel": ONE_WG, "per_layer": one_wg,
                                  "layers_where_it_beats_the_pick": beats_pick,
                                  "outcome": "slower than each layer's pick (the 3x3 stride-2 layer "
                                             "included): stays reverted (76e0fd4), git keeps it"
                                             if not beats_pick else "beats a pick: re-measure"},
    })


def fragments():
    new = load("frag", "results_fragments.json")
    with open(os.path.join(GPU, "results_fragments.json")) as f:
        recorded = json.load(f)
    frags = new["fragments"]
    return dict(dev(), **{
        "command": "gpu/fragments/run_device.sh (exactness, ncu bank counters, ptxas -arch=sm_120a)",
        "fragments_pass": f"{sum(x['verdict'] == 'pass' for x in frags)}/{len(frags)}",
        "negative_controls_mismatch": all("as it must" in x["negative_control"]["verdict"]
                                          for x in frags),
        "banks_match": f"{sum(b['verdict'] == 'match' for b in new['banks'])}/{len(new['banks'])}",
        "same_as_recorded": {k: new[k] == recorded[k]
                             for k in ("fragments", "banks", "sm120_ptxas")},
    })


if __name__ == "__main__":
    results_io.put(KEY, "results_tma_modes.json", {"all_layers_run": conv()})
    results_io.put(KEY, "results_fragments.json", fragments())
    print("wrote", KEY)
