#!/bin/bash
# On the H100 machine, one call: runs the carried host binary on the carried PTX (see
# prepare_device_run.sh), then assembles the same PTX with the machine's ptxas for the SASS
# evidence. Logs and results_rust.json go to $OUT (default gpu/out-rust).
set -o pipefail
OUT=${OUT:-gpu/out-rust}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
BIN=${BIN:-.gpu-rust/rust_kernels}
PTX=${PTX:-.gpu-rust/kernels.ptx}
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv; python3 -c 'import torch; print("torch", torch.__version__)'; } > "$L" 2>&1
# The class checks and the GEMMs run in two processes: a kernel fault loses the CUDA context,
# and a faulting class must not cost the GEMM results (or the other way round).
timeout 240 "$BIN" --ptx "$PTX" --out "$OUT/check" --skip-gemm "$@" 2>&1 | tee -a "$L"
echo "check rc=$?" >> "$L"
timeout 300 "$BIN" --ptx "$PTX" --out "$OUT/gemm" --skip-check "$@" 2>&1 | tee -a "$L"
echo "gemm rc=$?" >> "$L"
python3 - "$OUT" <<'PY' 2>&1 | tee -a "$L"
import json, sys
out = sys.argv[1]
def load(part):
    try:
        return json.load(open(f"{out}/{part}/results_rust.json"))
    except Exception as e:
        return {"error": f"{part}: {e}"}
check, gemm = load("check"), load("gemm")
merged = dict(check)
merged["gemm"] = gemm.get("gemm", gemm)
json.dump(merged, open(f"{out}/results_rust.json", "w"), indent=2)
print(f"wrote {out}/results_rust.json")
PY
if command -v ptxas > /dev/null; then
  ptxas -arch=sm_90a -v "$PTX" -o /tmp/rust_kernels.cubin > "$OUT/ptxas.txt" 2>&1
  for k in gemm_bf16_rust gemm_fp8_rust; do
    cuobjdump -sass -fun $k /tmp/rust_kernels.cubin > /tmp/$k.sass 2>&1
    echo "$k: $(grep -A3 "entry function '$k'" "$OUT/ptxas.txt" | grep -oE 'Used [0-9]+ registers'), $(grep -c HGMMA /tmp/$k.sass) HGMMA, $(grep -c QGMMA /tmp/$k.sass) QGMMA, $(grep -c UTMALDG /tmp/$k.sass) UTMALDG, $(grep -cE '\b(LDL|STL)\b' /tmp/$k.sass) LDL/STL"
  done > "$OUT/sass_summary.txt"
  cuobjdump -sass /tmp/rust_kernels.cubin | grep -oE "\b(HGMMA|QGMMA|UTMALDG)\.[A-Z0-9x.]*" | sort | uniq -c | sort -rn >> "$OUT/sass_summary.txt"
fi
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> "$L"
