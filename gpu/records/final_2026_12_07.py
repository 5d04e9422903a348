#!/usr/bin/env python3
"""Writes the records of issue 47's final device calls (gpu/issue47_final_run.sh conv, then attn,
H100, 2026-12-07) into the results files from gpu/device-logs/2026-12-07-issue47-final/.

Usage: final_2026_12_07.py [LOG_DIR]
Every number is read from the logs. Every ratio is a ratio of medians over alternating rounds
(seeded random order) in one process; "spread" is [min, max] of the per-round figures; "noise" is
the same kernel launched again in the same rounds. A figure the logs do not hold is recorded as
missing (None and a note), never filled in.
"""
import json
import os
import sys

import results_io

KEY = "issue47_final_2026_12_07"
GPU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LOGS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(GPU, "device-logs", "2026-12-07-issue47-final")
COMMAND = "gpu/issue47_final_run.sh"


def path(*p):
    return os.path.join(LOGS, *p)


def load(*p):
    with open(path(*p)) as f:
        return json.load(f)


def lines(*p):
    with open(path(*p)) as f:
        return f.read().splitlines()


def put(name, record):
    results_io.put(KEY, name, record)


from results_io import r4, spread  # noqa: E402


def device(call):
    return results_io.device(path(call, "device.txt"))


DEVICE1, DATE1, TIME1 = device("call1")
DEVICE2, DATE2, TIME2 = device("call2")


def conv_layer(c):
    ov = c["overlap"]
    dnn = c["cudnn_median_tflops"]
    variants = {k: {"median_tflops": v["median_tflops"], "over_cudnn": r4(v["median_tflops"] / dnn),
                    "mismatches": v["mismatches"], "watchdog_flag": v["watchdog_flag"],
                    "grid": v["grid"], "cluster": v["cluster"]}
                for k, v in sorted(c["variants"].items())}
    best = max(variants, key=lambda k: variants[k]["median_tflops"])
    return {
        "layer": c["layer"],
        "conv": {k: c[k] for k in ("n", "h", "w", "c", "k", "r", "s", "stride", "pad")},
        "gemm_m_n_k": [c["gemm_m"], c["k"], c["gemm_k"]],
        "kernel": c["ours_kernel"],
        "ours_median_tflops": c["ours_median_tflops"],
        "cudnn_median_tflops": dnn,
        "cublaslt_on_im2col_median_tflops": c["cublaslt_on_im2col_median_tflops"],
        "ours_over_cudnn": c["ours_over_cudnn"],
        "overlapped": {"kernel": ov["kernel"], "median_tflops": ov["median_tflops"],
                       "over_cudnn": ov["over_cudnn"], "over_ours": ov["over_ours"],
                       "mismatches": ov["mismatches_vs_cublaslt_on_naive_im2col"],
                       "watchdog_flag": ov["watchdog_flag"],
                       "spread_over_cudnn_per_round": spread(ov["over_cudnn_per_round"])},
        "variants": variants,
        "fastest_variant": best, "fastest_variant_over_cudnn": variants[best]["over_cudnn"],
        "mismatches": c["mismatches_vs_cublaslt_on_naive_im2col"],
        "control_mismatches": c["control_channel_blocks_reversed_mismatches"],
        "max_abs_err_vs_fp64": c["max_abs_err"], "err_sample_outputs": c["err_sample_outputs"],
        "watchdog_flag": c["watchdog_flag"],
        "noise_ours_again_over_ours": c["ours_again_over_ours"],
        "spread_tflops": {"ours": spread(c["ours_tflops"]), "cudnn": spread(c["cudnn_tflops"]),
                          "ours_again": spread(c["ours_again_tflops"])},
        "cudnn_check": c["cudnn_check"],
    }


def conv_run(name, what):
    d = load("call1", "conv", name + ".json")
    rounds = {len(c["ours_tflops"]) for c in d["conv"]}
    assert len(rounds) == 1, rounds
    layers = [conv_layer(c) for c in d["conv"]]
    return {"what": what, "file": f"call1/conv/{name}.json", "rounds": rounds.pop(),
            "device": d["device"], "torch": d["torch"], "cudnn": d["cudnn"],
            "baselines_in_same_process": d["baselines_in_same_process"],
            "order": d["conv"][0]["order"],
            "all_exact": all(x["mismatches"] == 0 and x["overlapped"]["mismatches"] == 0
                             and all(v["mismatches"] == 0 for v in x["variants"].values())
                             for x in layers),
            "controls_fail": all(x["control_mismatches"] > 0 for x in layers),
            "all_watchdog_flags_zero": all(x["watchdog_flag"] == 0 and x["overlapped"]["watchdog_flag"] == 0
                                           and all(v["watchdog_flag"] == 0 for v in x["variants"].values())
                                           for x in layers),
            "noise_ours_again_over_ours": spread([x["noise_ours_again_over_ours"] for x in layers]),
            "layers": layers}


def conv_diag():
    rows = []
    for ln in lines("call1", "conv_diag.txt"):
        kernel, rest = ln.split(" rc ", 1)
        rc, text = rest.split(": ", 1)
        wrong = text.split(" done: ")[1].split(" / ")[0] if " done: " in text else None
        rows.append({"kernel": kernel, "rc": int(rc), "finished": int(rc) == 0 and " done: " in text,
                     "mismatches": None if wrong is None else int(wrong), "line": ln})
    return {"command": f"{COMMAND} conv (each kernel's exactness launch alone, SMEMDESC_CONV_ONLY, 20 s)",
            "kernels": rows,
            "all_finish": all(r["finished"] for r in rows),
            "kernels_exact": all(r["mismatches"] == 0 for r in rows if "control" not in r["kernel"]),
            "control_fails": all(r["mismatches"] > 0 for r in rows if "control" in r["kernel"])}


def conv():
    one, full = conv_run("conv_1x1", "the 1x1 layers"), conv_run("conv_all", "all 8 ResNet-50 layers")
    below = lambda f: [x["layer"] for x in full["layers"] if f(x) < 1]  # noqa: E731
    return {"device": DEVICE1, "date": DATE1, "time": TIME1,
            "command": f"{COMMAND} conv (gpu/conv_overlap_run.sh 9: the 1x1 layers, then all 8)",
            "diag": conv_diag(),
            "ptxas": lines("call1", "conv", "ptxas.txt"),
            "conv_1x1": one, "conv_all": full,
            "goal": ">= cuDNN on all 8 layers in one run (issue 47: the consumer schedule that "
                    "overlaps the epilogue with the next tile's MMA)",
            "layers_below_cudnn": {"picked": below(lambda x: x["ours_over_cudnn"]),
                                   "overlapped": below(lambda x: x["overlapped"]["over_cudnn"]),
                                   "fastest_variant": below(lambda x: x["fastest_variant_over_cudnn"])},
            "goal_met": all(max(x["ours_over_cudnn"], x["overlapped"]["over_cudnn"]) >= 1
                            for x in full["layers"]),
            "log": "gpu/device-logs/2026-12-07-issue47-final/call1/"}


def attention():
    d = load("call2", "attn", "results_attention.json")
    rows = []
    for c in d["configs"]:
        med, r = c["median_tflops"], c["round_ms"]
        dnn = med["cudnn"]
        rows.append({
            "shape": [c["batch"], c["heads"], c["seqlen"], c["head_dim"]], "causal": c["causal"],
            "kernel": c["kernel"],
            "o_bit_equal_to_before": c["before"]["o_bit_equal_to_ours"],
            "lse_bit_equal_to_before": c["before"]["lse_bit_equal_to_ours"],
            "max_abs_err": c["max_abs_err"], "lse_max_abs_err": c["lse_max_abs_err"],
            "within_torch_max_err": c["within_torch_max_err"],
            "new_over_before": r4(c["new_vs_before"]),
            "noise_ours_again_over_ours": r4(c["ours_vs_ours_again"]),
            "cudnn_median_tflops": round(dnn, 1),
            "over_cudnn": {k: r4(v / dnn) for k, v in sorted(med.items())
                           if k.startswith("ours") or k == "before"},
            "torch_best_backend": c["torch_best_backend"],
            "spread_ms": {k: spread(r[k]) for k in ("ours", "before", "ours_again", "cudnn")},
        })
    rounds = {len(c["round_ms"]["ours"]) for c in d["configs"]}
    assert len(rounds) == 1, rounds
    nb = [x["new_over_before"] for x in rows]
    d128 = [x for x in rows if x["shape"] == [16, 32, 2048, 128] and x["causal"]]
    return {"device": DEVICE2, "date": DATE2, "time": TIME2, "rounds": rounds.pop(),
            "command": f"{COMMAND} attn (gpu/remeasure_run.sh attn: attention_device_run.sh with "
                       "BEFORE_LIB/BEFORE_PTX)",
            "before": "the recorded build staged as .gpu-rust/before (its commit is not in the logs), "
                      "same process and rounds",
            "torch": d["torch"], "cudnn": d["cudnn"], "baselines_in_same_process": d["baselines_in_same_process"],
            "all_o_and_lse_bit_equal_to_before": all(x["o_bit_equal_to_before"] and x["lse_bit_equal_to_before"]
                                                     for x in rows),
            "new_over_before": spread(nb),
            "noise_ours_again_over_ours": spread([x["noise_ours_again_over_ours"] for x in rows]),
            "goal": ">= 0.98x before in the same run",
            "below_0_98_before": [{"shape": x["shape"], "causal": x["causal"], "new_over_before": x["new_over_before"],
                                   "noise_ours_again_over_ours": x["noise_ours_again_over_ours"]}
                                  for x in rows if x["new_over_before"] < 0.98],
            "goal_met": min(nb) >= 0.98,
            "d128_causal_16x32x2048_ours_over_cudnn": [x["over_cudnn"]["ours"] for x in d128],
            "negative_controls": [{"kernel": n["kernel"], "fails": n["fails"]} for n in d["negative_controls"]],
            "configs": rows,
            "log": "gpu/device-logs/2026-12-07-issue47-final/call2/"}


def launchers():
    ls = lines("call1", "kernels_launch.txt")
    return {"device": DEVICE1, "date": DATE1, "time": TIME1,
            "command": f"{COMMAND} conv (the kernels crate's kernels_check example on .gpu-rust/kernels.ptx)",
            "passed": ls[-1] == "PASS",
            "launches": sum(" mismatches" in s or "O max err" in s for s in ls),
            "refusals_as_expected": sum(s.startswith("refusal") and s.endswith("(as expected)") for s in ls),
            "lines": ls}


def cuda_oxide():
    rec = {"device": DEVICE1, "date": DATE1,
           "command": f"{COMMAND} conv (DIR=.gpu-rust/oxide gpu/cuda-oxide/device_run.sh, 60 s; the "
                      "call printed `grep -E \"check stack|host rc|exact|mismatch|wrong|FAIL\"` of "
                      "its log.txt to its own output)"}
    log = path("call1", "oxide", "log.txt")
    if not os.path.exists(log):
        rec.update({"logged": False, "frames_ok": None, "exact": None, "summary": [],
                    "missing": "not in the committed logs: the call wrote its output under $OUT/oxide/ "
                               "and printed the grep above to the call's own output, and neither was "
                               "committed to gpu/device-logs/2026-12-07-issue47-final/ (call1/conv/log.txt "
                               "only lists the staged .gpu-rust/oxide folder). The lead's stop-54 note "
                               "reports it exact; that is not re-checked here. Commit call1/oxide/log.txt "
                               "and re-run this script to fill it in."})
        return rec
    ls = [s for s in open(log).read().splitlines()
          if any(w in s for w in ("check stack", "host rc", "exact", "mismatch", "wrong", "FAIL", "PASS"))]
    rec.update({"logged": True, "frames_ok": any(s.startswith("check stack frames: ok") for s in ls),
                "exact": any(s.startswith("PASS") for s in ls) and not any("FAIL" in s for s in ls),
                "summary": ls})
    return rec


if __name__ == "__main__":
    put("results_tma_modes.json", conv())
    put("results_attention.json", attention())
    put("results_rust.json", {"kernels_crate_launchers": launchers(), "cuda_oxide": cuda_oxide()})
    print("wrote", KEY)
