"""Sum Nsight Compute's per-instruction source counters (ncu --page source --print-source sass
--csv, section SourceCounters) over the shared-memory-accessing SASS opcodes of each profiled
kernel: instructions executed, L1 wavefronts shared, the ideal count and the excess.
Usage: python3 stsm_sum.py ncu_source.csv  (prints JSON)."""
import csv
import json
import sys

lines = open(sys.argv[1]).read().split("\n")
heads = [i for i, l in enumerate(lines) if l.startswith('"Address"')]
out = []
for k, h in enumerate(heads):
    name = next((l for l in reversed(lines[:h]) if l.startswith('"Kernel Name"')), "?")
    end = heads[k + 1] if k + 1 < len(heads) else len(lines)
    rows = list(csv.reader(lines[h:end]))
    col = {n: i for i, n in enumerate(rows[0])}
    ops = {}
    for r in rows[1:]:
        if len(r) < len(rows[0]):
            continue
        words = r[1].split()
        if not words:
            continue
        op = (words[1] if words[0].startswith("@") else words[0]).split(".")[0]
        try:
            vals = [float(r[col[c]] or 0) for c in ("Instructions Executed", "L1 Wavefronts Shared",
                                                     "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive")]
        except ValueError:
            continue
        if any(vals[1:]):
            t = ops.setdefault(op, [0, 0, 0, 0])
            for i in range(4):
                t[i] += vals[i]
    out.append({"kernel": name.split('","')[-1].rstrip('",'),
                 "ops": {op: {"instructions": int(t[0]), "wavefronts": int(t[1]), "ideal": int(t[2]),
                              "excessive": int(t[3])} for op, t in ops.items()}})
print(json.dumps(out, indent=1))
