#!/usr/bin/env python3
"""Runs the bank-pattern kernels under ncu and writes results_fragments.json: the exactness
results of ./frag (fragments_exact.json), the model's predictions (fragments_pred.json) against
the measured counters, and the sm120 ptxas results (sm120_results.json)."""
import csv, io, json, re, subprocess, sys

METRICS = [
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__inst_executed_op_ldsm.sum",
    "smsp__inst_executed_op_stsm.sum",
]
out_dir = sys.argv[1]
p = subprocess.run(["ncu", "--csv", "--metrics", ",".join(METRICS), "--kernel-name", "regex:bank_kernel", "./frag"],
                   capture_output=True, text=True)
open(f"{out_dir}/ncu_raw.csv", "w").write(p.stdout + "\n--- stderr ---\n" + p.stderr)
lines = [l for l in p.stdout.splitlines() if l.startswith('"')]
pred = json.load(open("fragments_pred.json"))["banks"]
by_id, names = {}, {}
for row in csv.DictReader(io.StringIO("\n".join(lines))):
    v = row.get("Metric Value", "").replace(",", "")
    try:
        v = float(v)
    except ValueError:
        continue
    i = int(row.get("ID", "0"))
    m = re.search(r"bank_kernel<P_(\w+)>", row.get("Kernel Name", ""))
    if m:
        names[i] = m.group(1)
    by_id.setdefault(i, {})[row["Metric Name"]] = int(v) if v == int(v) else v
measured = {}
for n, i in enumerate(sorted(by_id)):
    # the kernels run in the order of the predictions; the name, where ncu prints it, must agree
    name = names.get(i, pred[n]["name"] if n < len(pred) else f"id{i}")
    measured[name] = by_id[i]
banks = []
for b in pred:
    meas = measured.get(b["name"], {})
    st = b["name"].startswith(("sts", "stsm"))
    op = "st" if st else "ld"
    mc = meas.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
    mw = meas.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
    e = dict(b)
    e.update({
        "measured_conflicts": mc,
        "measured_wavefronts": mw,
        "ldsm_instructions": meas.get("smsp__inst_executed_op_ldsm.sum"),
        "stsm_instructions": meas.get("smsp__inst_executed_op_stsm.sum"),
        "other_counters": {k: v for k, v in meas.items() if f"_op_{op}." not in k and "ldsm" not in k and "stsm" not in k},
        "verdict": "match" if (mc == b["predicted_conflicts"] and mw == b["predicted_wavefronts"]) else "MISMATCH",
    })
    banks.append(e)
frag = json.load(open("fragments_exact.json"))["fragments"]
res = {"device": subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip(),
       "fragments": frag, "banks": banks}
try:
    res["sm120_ptxas"] = json.load(open("sm120_results.json"))
except Exception as ex:  # noqa
    res["sm120_ptxas"] = {"error": str(ex)}
json.dump(res, open(f"{out_dir}/results_fragments.json", "w"), indent=1)
for b in banks:
    print(f'{b["name"]:36s} pred conf {b["predicted_conflicts"]:4} meas {b["measured_conflicts"]}  pred wf {b["predicted_wavefronts"]:4} meas {b["measured_wavefronts"]}  ldsm {b["ldsm_instructions"]} stsm {b["stsm_instructions"]} {b["verdict"]}')
