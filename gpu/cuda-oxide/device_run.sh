#!/bin/bash
# On the H100 machine, one call: assembles the cuda-oxide PTX with ptxas -v (and checks every
# entry has a 0-byte stack frame and no spills; SASS evidence: the HGMMA instruction) and runs the
# host check. Reads DIR (default .dev-oxide): smemdesc-oxide-host
# and smemdesc_wgmma.ptx, both built on the development machine (README.md). Logs go to $OUT.
set -o pipefail
DIR=${DIR:-.dev-oxide}
OUT=${OUT:-gpu/cuda-oxide/out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$L" 2>&1
{
  echo "== ptxas -arch=sm_90a -v"
  ptxas -arch=sm_90a -v "$DIR/smemdesc_wgmma.ptx" -o /tmp/smemdesc_wgmma.cubin > "$OUT/ptxas.txt" 2>&1
  echo "ptxas rc=$?"
  cat "$OUT/ptxas.txt"
  # Every entry must run without a stack frame or spills (no layout value rebuilt in local
  # memory): one "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" line per entry.
  entries=$(grep -c "Compiling entry function" "$OUT/ptxas.txt")
  clean=$(grep -c "^ *0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" "$OUT/ptxas.txt")
  if [ "$entries" -gt 0 ] && [ "$entries" -eq "$clean" ]; then
    echo "check stack frames: ok ($entries entries, 0 bytes stack frame and spills each)"
  else
    echo "check stack frames: FAIL ($clean of $entries entries with 0 bytes stack frame and spills)"
  fi
  echo "== SASS (wgmma, fences, barriers)"
  cuobjdump -sass /tmp/smemdesc_wgmma.cubin | grep -E "HGMMA|WARPGROUP|FENCE|BAR\.SYNC|BAR " 2>&1
  echo "== host check"
  timeout 120 "$DIR/smemdesc-oxide-host" "$DIR/smemdesc_wgmma.ptx" 2>&1
  echo "host rc=$?"
} 2>&1 | tee -a "$L"
