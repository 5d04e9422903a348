#!/bin/bash
# How gpu/RESULTS.md was produced: one call on the device machine, the release binary built
# elsewhere and carried in as $BIN (default .gpu/smemdesc-gpu); logs and results under $OUT.
set -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv; ls /usr/local/cuda/lib64/libnvrtc.so* 2>&1 | head -3; nvcc --version | tail -2; } > $L 2>&1
timeout 300 ${BIN:-.gpu/smemdesc-gpu} --out /tmp/res "$@" 2>&1 | tee -a $L
rc=$?
if [ $rc -ne 0 ] || grep -q '"gemm": {"error"' /tmp/res/results.json 2>/dev/null; then
  echo "=== first run rc=$rc or GEMM error: rerun without the cluster variant ===" | tee -a $L
  cp /tmp/res/results.json $OUT/results_first.json 2>/dev/null
  timeout 240 ${BIN:-.gpu/smemdesc-gpu} --out /tmp/res --variants gemm_bf16,gemm_bf16_persistent,gemm_bf16_persistent_vst,gemm_bf16_persistent_vst_cs "$@" 2>&1 | tee -a $L
fi
cp /tmp/res/results.json /tmp/res/RESULTS.md $OUT/ 2>/dev/null
if [ -f /tmp/res/gemm.cubin ]; then
  cuobjdump -sass /tmp/res/gemm.cubin > /tmp/gemm.sass 2>&1
  { echo "HGMMA count: $(grep -c HGMMA /tmp/gemm.sass)"; echo "UTMALDG count: $(grep -c UTMALDG /tmp/gemm.sass)"; echo "LDL/STL: $(grep -cE 'LDL|STL' /tmp/gemm.sass)"; grep -m3 HGMMA /tmp/gemm.sass; grep -m2 UTMALDG /tmp/gemm.sass;
    for f in gemm_bf16_persistent gemm_bf16_persistent_vst gemm_bf16_persistent_vst_cs; do
      cuobjdump -sass -fun $f /tmp/res/gemm.cubin > /tmp/f.sass 2>&1
      echo "== $f: $(grep -c HGMMA /tmp/f.sass) HGMMA, $(grep -c 'STG.E ' /tmp/f.sass) STG.E (4 B), $(grep -c 'STG.E.128' /tmp/f.sass) STG.E.128, $(grep -c 'STG.E.EF.128' /tmp/f.sass) STG.E.EF.128, $(grep -c 'STS ' /tmp/f.sass) STS, $(grep -c 'LDS.128' /tmp/f.sass) LDS.128, $(grep -c 'WARPGROUP.DEPBAR' /tmp/f.sass) WARPGROUP.DEPBAR, $(grep -cE 'LDL|STL' /tmp/f.sass) LDL/STL"
      grep -m3 -E 'STG|LDS.128' /tmp/f.sass; grep -m2 'WARPGROUP.DEPBAR' /tmp/f.sass
    done; } > $OUT/sass_summary.txt
fi
[ -f /tmp/res/check.cubin ] && cuobjdump -sass /tmp/res/check.cubin | grep -oE "(HGMMA|QGMMA|UTMALDG)[.A-Z0-9x]*" | sort | uniq -c | sort -rn > $OUT/check_sass_summary.txt
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $L
