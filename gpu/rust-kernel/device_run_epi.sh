#!/bin/bash
# Issue 22 from the Rust kernels, on the H100 machine, in one call: assembles the carried PTX
# with the machine's ptxas (registers, spills, SASS counts of the issue-22 kernels), counts the C
# tile's stmatrix bank conflicts with Nsight Compute (per-instruction source counters summed by
# gpu/stsm_sum.py, and the l1tex aggregate counters), then runs the exactness checks, negative
# controls and timings (`rust_kernels --epi`, `--epi-controls`). Every step runs under `timeout`; a kernel that
# hangs past its watchdog cannot hang the harness. Outputs (at most 8 files) in $OUT.
#
#   BIN=.../rust_kernels PTX=.../kernels.ptx OUT=... bash device_run_epi.sh [--epi-shapes S] [--rounds R]
#   SKIP_NCU=1 leaves out Nsight Compute (stsm_source.json then holds an error, bank_conflicts null).
#   ALL=1 also runs device_run.sh (the class checks and the bf16/FP8 GEMMs) first: its JSON and log
#   come back as $OUT/old_results_rust.json and $OUT/old_log.txt.
# Here (the machine with Rust): gpu/rust-kernel/prepare_device_run.sh builds both into .gpu-rust/
# (carry it); on the device, from the repository root: OUT=$OUT ALL=1 bash gpu/rust-kernel/device_run_epi.sh
set -o pipefail
OUT=${OUT:-gpu/out-rust-epi}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-.gpu-rust/rust_kernels}
PTX=${PTX:-.gpu-rust/kernels.ptx}
STSM_SUM=${STSM_SUM:-$HERE/../stsm_sum.py}
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv; ncu --version | tail -1; } > "$L" 2>&1
if [ "${ALL:-0}" = 1 ]; then
  # Two files of it come back (the device tool returns at most 8): its merged JSON and its log.
  OUT=/tmp/old BIN=$BIN PTX=$PTX timeout 560 bash "$HERE/device_run.sh" >> "$L" 2>&1
  echo "device_run.sh rc=$?" >> "$L"
  cp /tmp/old/results_rust.json "$OUT/old_results_rust.json"
  cp /tmp/old/log.txt "$OUT/old_log.txt"
fi
# One cubin for every process below (the driver would JIT the PTX in each).
MOD=$PTX
if timeout 200 ptxas -arch=sm_90a -v "$PTX" -o /tmp/rk.cubin > /tmp/ptxas.txt 2>&1; then MOD=/tmp/rk.cubin; fi
echo "ptxas rc=$? module $MOD" >> "$L"
{
  for k in gemm_epi_rust gemm_cl21_rust gemm_cl12_rust epi_store_only_rust gemm_bf16_rust; do
    echo "== $k: $(grep -A3 "entry function '$k'" /tmp/ptxas.txt | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores, [0-9]+ bytes spill loads' | paste -sd ', ')"
    cuobjdump -sass -fun $k /tmp/rk.cubin > /tmp/f.sass 2>&1
    echo "   $(grep -c HGMMA /tmp/f.sass) HGMMA, $(grep -c STSM /tmp/f.sass) STSM, $(grep -c UTMASTG /tmp/f.sass) UTMASTG, $(grep -c UTMALDG /tmp/f.sass) UTMALDG ($(grep -c 'UTMALDG.*MULTICAST' /tmp/f.sass) multicast), $(grep -cE '\b(LDL|STL)\b' /tmp/f.sass) LDL/STL, $(grep -c SYNCS /tmp/f.sass) SYNCS, $(grep -cE 'MEMBAR|ERRBAR' /tmp/f.sass) MEMBAR/ERRBAR"
    grep -m2 -E 'STSM|UTMASTG' /tmp/f.sass; grep -m1 MULTICAST /tmp/f.sass
    grep -E 'SYNCS|MEMBAR|ERRBAR|MAPA|UCGABAR' /tmp/f.sass | sed 's@/\* 0x[0-9a-f]* \*/@@' | awk '{$1=""; print}' | sort | uniq -c | head -12
  done
} > "$OUT/sass.txt" 2>&1
# Nsight Compute: aggregate counters, then per-instruction source counters (SKIP_NCU=1: none).
if [ "${SKIP_NCU:-0}" != 1 ]; then
HW=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
SS=sm__sass_inst_executed_op_shared_stsm.sum,sm__sass_data_bytes_mem_shared_op_stsm.sum
timeout 150 ncu --metrics $HW,$SS --kernel-name regex:"gemm_epi_rust|gemm_cl|epi_store_only" \
  "$BIN" --ptx "$MOD" --out /tmp/ncu1 --epi-ncu > "$OUT/ncu.txt" 2>&1
echo "ncu rc=$?" >> "$L"
{ timeout 90 ncu --section SourceCounters --kernel-name regex:"epi_store_only" --launch-count 4 --page source --print-source sass --csv "$BIN" --ptx "$MOD" --out /tmp/ncu2 --epi-ncu
  timeout 150 ncu --section SourceCounters --kernel-name regex:"gemm_epi_rust|gemm_cl" --launch-count 3 --page source --print-source sass --csv "$BIN" --ptx "$MOD" --out /tmp/ncu3 --epi-ncu; } > /tmp/ncu_source.csv 2>&1
echo "ncu source rc=$?" >> "$L"
python3 "$STSM_SUM" /tmp/ncu_source.csv > "$OUT/stsm_source.json" 2>&1
cat /tmp/ncu1/epi_ncu.json >> "$L" 2>&1
fi
# Exactness and timings; then the negative controls in their own process.
# 41 shuffled rounds per shape unless the arguments say otherwise (the record's setting).
timeout 330 "$BIN" --ptx "$MOD" --out "$OUT" --epi ${EPI_ROUNDS:---rounds 41} "$@" 2>&1 | tee -a "$L"
echo "epi rc=$?" >> "$L"
timeout 60 "$BIN" --ptx "$MOD" --out /tmp/ctl --epi-controls 2>&1 | tee -a "$L"
echo "controls rc=$? (124: the harness's timeout ended a hang)" >> "$L"
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> "$L"
cp /tmp/ptxas.txt "$OUT/ptxas.txt" 2>/dev/null
# The bank conflicts into epi_results.json: excess wavefronts of the STSM instructions per kernel.
python3 - "$OUT" <<'PY' >> "$L" 2>&1
import json, sys
out = sys.argv[1]
try:
    r = json.load(open(f"{out}/epi_results.json"))
except Exception as e:
    r = {"error": f"epi_results.json: {e}"}
try:
    src = json.load(open(f"{out}/stsm_source.json"))
except Exception as e:
    src = []
    r["bank_conflicts_error"] = str(e)
per = [{"kernel": k["kernel"], **k["ops"].get("STSM", {})} for k in src]
if "epilogue" in r:
    gemm = [p for p in per if p["kernel"].startswith("gemm_epi_rust") and "excessive" in p]
    r["epilogue"]["bank_conflicts"] = gemm[0]["excessive"] if gemm else None
    r["epilogue"]["bank_conflicts_source"] = (
        "Nsight Compute SourceCounters, L1 Wavefronts Shared Excessive summed over the STSM "
        "instructions of one gemm_epi_rust launch at 2048^3 (gpu/stsm_sum.py)")
    r["epilogue"]["stsm_source_counters"] = per
try:
    r.update(json.load(open("/tmp/ctl/epi_controls.json")))
except Exception as e:
    r["negative_controls"] = [{"name": "controls run", "outcome": f"no result: {e} (see log.txt)"}]
print(json.dumps(r.get("epilogue", r), indent=1)[:3000])
json.dump(r, open(f"{out}/epi_results.json", "w"), indent=1)
PY
