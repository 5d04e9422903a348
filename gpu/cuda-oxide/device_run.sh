#!/bin/bash
# On the H100 machine, one call: assembles the cuda-oxide PTX with ptxas -v (SASS evidence: the
# HGMMA instruction) and runs the host check. Reads DIR (default .dev-oxide): smemdesc-oxide-host
# and smemdesc_wgmma.ptx, both built on the development machine (RECIPE.md). Logs go to $OUT.
set -o pipefail
DIR=${DIR:-.dev-oxide}
OUT=${OUT:-gpu/cuda-oxide/out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$L" 2>&1
{
  echo "== ptxas -arch=sm_90a -v"
  ptxas -arch=sm_90a -v "$DIR/smemdesc_wgmma.ptx" -o /tmp/smemdesc_wgmma.cubin 2>&1
  echo "ptxas rc=$?"
  echo "== SASS (wgmma, fences, barriers)"
  cuobjdump -sass /tmp/smemdesc_wgmma.cubin | grep -E "HGMMA|WARPGROUP|FENCE|BAR\.SYNC|BAR " 2>&1
  echo "== host check"
  timeout 120 "$DIR/smemdesc-oxide-host" "$DIR/smemdesc_wgmma.ptx" 2>&1
  echo "host rc=$?"
} 2>&1 | tee -a "$L"
