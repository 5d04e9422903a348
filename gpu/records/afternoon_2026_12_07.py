#!/usr/bin/env python3
"""Writes the records of issue 47's afternoon device calls (2026-12-07) into the results files:
gpu/device-logs/2026-12-07-issue47-ti/ (the taps-inner convolution, reverted; the d = 128 causal
attention per sequence length, two processes; the TMA-epilogue/cluster GEMMs against the
recorded PTX) and, where present, gpu/device-logs/2026-12-07-issue47-close/ (the new picks
measured: gpu/issue47_close_run.sh picks and grouped).

Usage: afternoon_2026_12_07.py
Every number is read from the logs. Ratios are ratios of medians over alternating rounds
(seeded random order) in one process; "spread" is [min, max] of per-round figures; "noise" is
the same kernel launched again in the same rounds.
"""
import csv
import json
import os
import re

import results_io
from results_io import r4, spread

KEY = "issue47_afternoon_2026_12_07"
GPU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TI = os.path.join(GPU, "device-logs", "2026-12-07-issue47-ti")
CLOSE = os.path.join(GPU, "device-logs", "2026-12-07-issue47-close")
L2 = os.path.join(GPU, "device-logs", "2026-12-07-issue47-l2")
PF = os.path.join(GPU, "device-logs", "2026-12-07-issue47-pf")
S2 = "conv4_x 3x3 256->256 stride 2, 28x28"
LONG = 16384


def load(*p):
    with open(os.path.join(*p)) as f:
        return json.load(f)


def lines(*p):
    with open(os.path.join(*p)) as f:
        return f.read().splitlines()


def dev(*p):
    d, date, time = results_io.device(os.path.join(*p, "device.txt"))
    return {"device": d, "date": date, "time": time}


def conv_rows(d):
    """Per layer: the pick, every kernel's ratio to cuDNN, exactness, noise, spread."""
    rows = []
    for r in d["conv"]:
        dnn = r["cudnn_median_tflops"]
        v = r["variants"]
        rows.append({
            "layer": r["layer"], "gemm_mnk": [r["gemm_m"], r["k"], r["gemm_k"]],
            "picked_kernel": r["ours_kernel"], "picked_over_cudnn": r["ours_over_cudnn"],
            "serial": r.get("serial") and {"kernel": r["serial"]["kernel"],
                                           "over_cudnn": r["serial"]["over_cudnn"]},
            "best_kernel": max(v, key=lambda k: v[k]["median_tflops"]),
            "best_over_cudnn": r4(max(x["median_tflops"] for x in v.values()) / dnn),
            "over_cudnn": {k: r4(x["median_tflops"] / dnn) for k, x in sorted(v.items())},
            "all_exact": all(x["mismatches"] == 0 and x["watchdog_flag"] == 0 for x in v.values()),
            "control_mismatches": r["control_channel_blocks_reversed_mismatches"],
            "noise_ours_again_over_ours": r["ours_again_over_ours"],
            "cudnn_median_tflops": dnn,
            "spread_tflops": {"ours": spread(r["ours_tflops"]), "cudnn": spread(r["cudnn_tflops"])},
            "rounds": len(r["ours_tflops"]),
        })
    return rows


def conv_ti():
    rows = conv_rows(load(TI, "call1", "conv", "conv_results.json"))
    s2 = next(x for x in rows if "3x3 256->256 stride 2" in x["layer"])
    ti = {k: s2["over_cudnn"][k] for k in s2["over_cudnn"] if "_ti" in k}
    other = {k: s2["over_cudnn"][k] for k in s2["over_cudnn"] if "_ti" not in k}
    return dict(dev(TI, "call1"), **{
        "command": "gpu/issue47_ti_run.sh conv of 952264e (conv_same_process.py, 7 rounds)",
        "experiment": "the K-steps taps inner (Im2colWalk::step_taps_inner; the entries gemm_conv_ti_rust, "
                      "_ti_cl21_rust, _ov_ti_cl21_rust) against the recorded order, hypothesis: the 3x3 "
                      "stride-2 layer's 102 MB input misses L2 between a channel block's taps",
        "diag": lines(TI, "call1", "conv_diag.txt"),
        "stride2_3x3_taps_inner_over_cudnn": ti,
        "stride2_3x3_best_other_over_cudnn": max(other.values()),
        "hypothesis_refuted": max(ti.values()) < max(other.values()),
        "outcome": "slower than the recorded order on that layer; reverted (9cf38b6), git keeps the kernels",
        "layers": rows})


def conv_picks():
    d = load(CLOSE, "picks", "conv", "conv_results.json")
    rows = conv_rows(d)
    return dict(dev(CLOSE, "picks"), **{
        "command": "gpu/issue47_close_run.sh picks (conv_same_process.py, 7 rounds)",
        "pick": "the overlapped-epilogue kernel of the tile (2x1 clusters for strided multi-tap filters)",
        "goal": ">= cuDNN on all 8 layers in one run",
        "goal_met": all(x["picked_over_cudnn"] >= 1 for x in rows),
        "layers_below_cudnn": [[x["layer"], x["picked_over_cudnn"]] for x in rows if x["picked_over_cudnn"] < 1],
        "layers": rows})


def over_ov_cl21(rows, kernels):
    """Per layer of `conv_rows`: each of `kernels` over `gemm_conv_ov_cl21_rust` in the same rounds."""
    return {x["layer"]: {k: r4(x["over_cudnn"][k] / x["over_cudnn"]["gemm_conv_ov_cl21_rust"]) for k in kernels}
            for x in rows}


def ncu_rows(path):
    """ncu's CSV (one metric a row) as {launch id: {"kernel", metric: value}}."""
    out, head = {}, None
    with open(path) as f:
        for r in csv.reader(f):
            if r and r[0] == "ID":
                head = r
            elif head and len(r) == len(head):
                d = dict(zip(head, r))
                e = out.setdefault(int(d["ID"]), {"kernel": d["Kernel Name"]})
                e[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    return out


def conv_l2():
    rows = conv_rows(load(L2, "conv", "conv_results.json"))
    ncu = ncu_rows(os.path.join(L2, "ncu.csv"))
    per = {}
    for e in ncu.values():
        k = e["kernel"].split("(")[0].split("<")[0].strip()
        fp = "cudnn (" + k[:48] + ")" if not k.startswith("gemm_conv") else k
        per.setdefault(fp, []).append(e)
    # cuDNN's benchmark tries several engines: its fastest launch is the one to compare with.
    dnn = [e for k, v in per.items() if k.startswith("cudnn (sm90") for e in v]
    best = min(dnn, key=lambda e: e["gpu__time_duration.sum"]) if dnn else None
    ours = {k: {"dram_read_mb": round(v[0]["dram__bytes_read.sum"] / 1e6, 1),
                "dram_write_mb": round(v[0]["dram__bytes_write.sum"] / 1e6, 1),
                "l2_hit_pct": v[0]["lts__t_sector_hit_rate.pct"],
                "ncu_us": round(v[0]["gpu__time_duration.sum"] / 1e3, 1)}
            for k, v in sorted(per.items()) if k.startswith("gemm_conv")}
    ratio = over_ov_cl21(rows, ("gemm_conv_ov_cl21_ef_rust", "gemm_conv_ov_cl21_efa_rust"))
    return dict(dev(L2), **{
        "command": "conv_same_process.py --layers 1,3 (7 rounds), then one round under ncu (layer 1), "
                   "over the .gpu-rust/ of 9a43a2a (reverted since: 3d9a503)",
        "experiment": "L2 cache hints on the stride-2 3x3 layers: gemm_conv_ov_cl21_ef_rust (the C tile's TMA "
                      "stores evict-first), _efa_rust (also the im2col loads of each tap whose pixels no later "
                      "tap reads); hypothesis: the 3x3 256 stride-2 layer's gap to cuDNN is L2 misses on its "
                      "102 MB input",
        "over_ov_cl21": ratio,
        "ncu_layer": "conv4_x 3x3 256->256 stride 2, 28x28",
        "ncu_ours": ours,
        "ncu_cudnn_fastest": best and {"kernel": best["kernel"],
                                       "dram_read_mb": round(best["dram__bytes_read.sum"] / 1e6, 1),
                                       "l2_hit_pct": best["lts__t_sector_hit_rate.pct"],
                                       "ncu_us": round(best["gpu__time_duration.sum"] / 1e3, 1)},
        "input_mb": round(256 * 28 * 28 * 256 * 2 / 1e6, 1),
        "hypothesis_refuted": True,
        "outcome": "no gain: _ef within the noise, _efa much slower; our kernel reads 116.6 MB from DRAM "
                   "against the fastest cuDNN engine's 104 MB (the input is 102.8 MB), so L2 reuse is not "
                   "what separates them. Reverted (3d9a503). In this process cuDNN's benchmark mode chose a "
                   "slower engine for the 256-channel layer (557 TFLOP/s against 713 in the picks run), so "
                   "its ratios to cuDNN say nothing of the gap",
        "layers": rows})


def conv_pf():
    rows = conv_rows(load(PF, "conv", "conv_results.json"))
    ratio = over_ov_cl21(rows, ("gemm_conv_ov_cl21_pf8_rust", "gemm_conv_ov_cl21_pf16_rust"))
    return dict(dev(PF), **{
        "command": "conv_same_process.py --layers 1,3 (7 rounds) over the .gpu-rust/ of ef256ac "
                   "(reverted since: b4f107d)",
        "experiment": "the producer of gemm_conv_ov_cl21_rust prefetches into L2 "
                      "(cp.async.bulk.prefetch.tensor.4d.L2.global.im2col) the A boxes 8 (_pf8_rust) or 16 "
                      "(_pf16_rust) K-steps ahead, into its next tile near the end of one; hypothesis: DRAM "
                      "latency at each tile's first taps is what the 4 stages do not hide",
        "over_ov_cl21": ratio,
        "hypothesis_refuted": True,
        "outcome": "slower by 17-23 %: the prefetches cost more than they hide. Reverted (b4f107d)",
        "layers": rows})


def cudnn_by_process():
    """cuDNN's median on the 3x3 256 stride-2 layer in each process of the afternoon: its
    benchmark mode picks an engine per process, and the pick moves its figure by a third."""
    runs = [("taps-inner run, 12:56 UTC", os.path.join(TI, "call1", "conv", "conv_results.json")),
            ("picks run, 15:04 UTC", os.path.join(CLOSE, "picks", "conv", "conv_results.json")),
            ("L2-hint run, 15:35 UTC", os.path.join(L2, "conv", "conv_results.json")),
            ("prefetch run, 15:53 UTC", os.path.join(PF, "conv", "conv_results.json"))]
    out = []
    for name, f in runs:
        if not os.path.exists(f):
            continue
        r = next(x for x in load(f)["conv"] if x.get("layer") == S2)
        out.append({"run": name, "cudnn_median_tflops": r["cudnn_median_tflops"],
                    "cudnn_spread_tflops": spread(r["cudnn_tflops"]),
                    "ov_cl21_median_tflops": r["variants"]["gemm_conv_ov_cl21_rust"]["median_tflops"]})
    return {"layer": S2, "runs": out}


def attn_run(c):
    med = c["median_tflops"]
    dnn = med["cudnn"]
    return {"seqlen": c["seqlen"], "shape": [c["batch"], c["heads"], c["seqlen"], c["head_dim"]],
            "over_cudnn": {k: r4(v / dnn) for k, v in sorted(med.items()) if k.startswith("ours") or k == "before"}}


def attn_text_run(path):
    """Run 2's configurations from its log (full.log printed 700 characters a line: the
    medians are whole)."""
    out = []
    for s in lines(path):
        m = re.match(r'\{"batch": (\d+), "heads": (\d+), "seqlen": (\d+), "head_dim": 128, "causal": true, "max_abs', s)
        if not m:
            continue
        meds = dict((k, float(v)) for k, v in re.findall(r'"(\w+)": ([0-9.]+)', s.split('"median_tflops"')[1]))
        out.append(attn_run({"batch": int(m[1]), "heads": int(m[2]), "seqlen": int(m[3]), "head_dim": 128,
                             "median_tflops": meds}))
    return out


def attention():
    final = [attn_run(c) for c in load(GPU, "device-logs", "2026-12-07-issue47-final", "call2", "attn",
                                       "results_attention.json")["configs"]
             if c["head_dim"] == 128 and c["causal"]]
    d1 = load(TI, "call2", "attn1", "results_attention.json")
    runs = [final, [attn_run(c) for c in d1["configs"]], attn_text_run(os.path.join(TI, "call2", "attn2.txt"))]
    bit_equal = all(c["before"]["o_bit_equal_to_ours"] and c["before"]["lse_bit_equal_to_ours"] for c in d1["configs"])
    per_len = {}
    for run in runs:
        for r in run:
            o = r["over_cudnn"]
            # ours / ours_again: the persistent LPT kernel (variant 16); ours_overlapped: variant 2.
            per_len.setdefault(r["seqlen"], {"p_lpt": [], "ov": []})
            per_len[r["seqlen"]]["p_lpt"].append(r4((o["ours"] + o["ours_again"]) / 2))
            per_len[r["seqlen"]]["ov"].append(o["ours_overlapped"])
    rec = dict(dev(TI, "call2"), **{
        "command": "gpu/issue47_ti_run.sh attn of 952264e (the four d = 128 causal "
                   "configurations, 9 rounds, two processes) and the morning's 5-round run "
                   "(issue47_final_2026_12_07)",
        "kernels": {"p_lpt": "attn_fwd_d128_causal_p_lpt_rust (mean of ours and ours_again)",
                    "ov": "attn_fwd_d128_causal_ov_rust"},
        "o_and_lse_bit_equal_to_before_run1": bit_equal,
        "runs": runs,
        "over_cudnn_per_seqlen": {str(k): v for k, v in sorted(per_len.items())},
        "long_seqlen": LONG,
        "long_best_kernel": ("attn_fwd_d128_causal_ov_rust"
                             if min(per_len[LONG]["ov"]) > max(per_len[LONG]["p_lpt"]) else
                             "attn_fwd_d128_causal_p_lpt_rust"),
        "pick": "from 16,384 keys the one-tile-per-CTA overlapped kernel, below it the persistent LPT one"})
    if os.path.exists(os.path.join(CLOSE, "picks", "attn", "results_attention.json")):
        d = load(CLOSE, "picks", "attn", "results_attention.json")
        rec["picks_run"] = dict(dev(CLOSE, "picks"), **{
            "command": "gpu/issue47_close_run.sh picks (7 rounds, beside the recorded build)",
            "configs": [dict(attn_run(c), kernel=c["kernel"], new_over_before=r4(c["new_vs_before"]),
                             o_bit_equal_to_before=c["before"]["o_bit_equal_to_ours"],
                             noise_ours_again_over_ours=r4(c["ours_vs_ours_again"]))
                        for c in d["configs"]]})
    return rec


def epi():
    rows = []
    for s in lines(TI, "call2", "epi.txt"):
        m = re.match(r"(\d+x\d+x\d+) (\w+): after ([0-9.]+) TFLOP/s \((\d+) mismatches, flag (\d+)\), "
                     r"before ([0-9.]+) \((\d+), flag (\d+)\), after/before ([0-9.]+), cuBLAS ([0-9.]+)", s)
        if m:
            rows.append({"shape": m[1], "kernel": m[2], "after_tflops": float(m[3]), "mismatches": int(m[4]),
                         "before_tflops": float(m[6]), "mismatches_before": int(m[7]),
                         "after_over_before": float(m[9]), "after_over_cublas": r4(float(m[3]) / float(m[10]))})
    ab = [r["after_over_before"] for r in rows]
    return dict(dev(TI, "call2"), **{
        "rounds": 5, "command": "rust_kernels --pipeline-before before/kernels.ptx --rounds 5",
        "goal": ">= 0.98x the recorded PTX in the same run", "after_over_before": spread(ab),
        "goal_met": min(ab) >= 0.98, "all_exact": all(r["mismatches"] == 0 == r["mismatches_before"] for r in rows),
        "rows": rows})


def launchers_and_oxide():
    out = {}
    p = os.path.join(CLOSE, "picks")
    if os.path.exists(os.path.join(p, "kernels_launch.txt")):
        ls = lines(p, "kernels_launch.txt")
        out["kernels_crate_launchers"] = dict(dev(p), passed=ls[-1] == "PASS", lines=ls,
                                              command="gpu/issue47_close_run.sh picks (kernels_check)")
    if os.path.exists(os.path.join(p, "oxide", "log.txt")):
        ls = [s for s in lines(p, "oxide", "log.txt")
              if re.search(r"check stack|host rc|exact|mismatch|wrong|FAIL", s)]
        out["cuda_oxide"] = dict(dev(p), lines=ls, command="gpu/issue47_close_run.sh picks (cuda-oxide device_run.sh)",
                                 exact=bool(ls) and not any("FAIL" in s for s in ls))
    return out


def grouped():
    p = os.path.join(CLOSE, "grouped")
    rec = dict(dev(p), command="gpu/issue47_close_run.sh grouped (grouped_same_process.py, 5 rounds, "
                               "this build then the recorded one, two processes)")
    for v in ("new", "before"):
        f = os.path.join(p, f"grouped_{v}", "grouped_results.json")
        rec[v] = load(f) if os.path.exists(f) else {"missing": lines(p, f"grouped_{v}.txt")[-10:]}
    if "shapes" in rec["new"] and "shapes" in rec["before"]:
        rec["summary"] = grouped_summary(rec["new"]["shapes"], rec["before"]["shapes"])
    return rec


def grouped_summary(new, before):
    """Per shape: the picked kernel's median against torch._grouped_mm and the cuBLASLt loop in
    this build's process, and against the same kernel's median in the recorded build's process
    (two processes one after the other: between them the baselines moved too, so each process's
    own baselines are given)."""
    rows = []
    for a, b in zip(new, before):
        assert (a["groups"], a["n"], a["k"], a["m"]) == (b["groups"], b["n"], b["k"], b["m"])
        kern = a["ours_kernel"]
        mb = b["variants"][kern]["median_tflops"]
        rows.append({
            "shape": {"groups": a["groups"], "n": a["n"], "k": a["k"], "tokens": sum(a["m"])},
            "kernel": kern,
            "exact": a["mismatches"] == 0 and b["variants"][kern]["mismatches"] == 0,
            "new_median_tflops": a["ours_median_tflops"],
            "before_median_tflops": mb,
            "new_over_before": r4(a["ours_median_tflops"] / mb),
            "new_over_torch_grouped_mm": a["ours_over_torch_grouped_mm"],
            "new_over_cublaslt_loop": a["ours_over_cublaslt_loop"],
            "before_over_torch_grouped_mm": r4(mb / b["torch_grouped_mm_median_tflops"]),
            "spread_tflops": {"new": spread(a["ours_tflops"]), "torch_grouped_mm": spread(a["torch_grouped_mm_tflops"])},
        })
    return rows


if __name__ == "__main__":
    conv = {"taps_inner_experiment": conv_ti()}
    if os.path.exists(os.path.join(L2, "conv", "conv_results.json")):
        conv["l2_hint_experiment"] = conv_l2()
    if os.path.exists(os.path.join(PF, "conv", "conv_results.json")):
        conv["prefetch_experiment"] = conv_pf()
    conv["stride2_cudnn_by_process"] = cudnn_by_process()
    if os.path.exists(os.path.join(CLOSE, "picks", "conv", "conv_results.json")):
        conv["picks_run"] = conv_picks()
    results_io.put(KEY, "results_tma_modes.json", conv)
    results_io.put(KEY, "results_attention.json", attention())
    results_io.put(KEY, "results_rust.json", dict({"epilogue_cluster": epi()}, **launchers_and_oxide()))
    if os.path.exists(os.path.join(CLOSE, "grouped")):
        results_io.put(KEY, "results_grouped.json", grouped())
    print("wrote", KEY)
