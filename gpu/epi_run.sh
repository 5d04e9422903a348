#!/bin/bash
# Issue 22 on the device machine: build gpu/kernels/epi_cluster.cu (with the generated
# epi_decl.h and epi_host.cuh), dump its SASS instruction counts, count the C-tile stores' bank conflicts with
# ncu, then run the exactness checks, negative controls and timings. $D: folder holding
# epi_cluster.cu, epi_host.cuh, epi_decl.h, common.cuh; outputs under $OUT.
set -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
D=${D:-gpu/kernels}
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv; nvcc --version | tail -2; } > $L 2>&1
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -lineinfo -o /tmp/epi $D/epi_cluster.cu -L/usr/local/cuda/lib64/stubs -lcuda -lcublas 2>&1 | grep -v "declared but never referenced\|^$\|Remark: The warnings" | tail -40 | tee -a $L
[ -x /tmp/epi ] || { echo "build failed" | tee -a $L; exit 1; }
cuobjdump -sass /tmp/epi > /tmp/epi.sass 2>&1
for f in $(grep -oE "Function : [A-Za-z0-9_]*gemm_epi[A-Za-z0-9_]*" /tmp/epi.sass | awk '{print $3}'); do
  cuobjdump -sass -fun $f /tmp/epi > /tmp/f.sass 2>&1
  echo "== $f: $(grep -c HGMMA /tmp/f.sass) HGMMA, $(grep -c STSM /tmp/f.sass) STSM, $(grep -c UTMASTG /tmp/f.sass) UTMASTG, $(grep -c UTMALDG /tmp/f.sass) UTMALDG, $(grep -cE 'STG' /tmp/f.sass) STG, $(grep -cE 'LDL|STL' /tmp/f.sass) LDL/STL, $(grep -cE ' STS' /tmp/f.sass) STS, $(grep -c SYNCS /tmp/f.sass) SYNCS, $(grep -cE 'MEMBAR|FENCE' /tmp/f.sass) MEMBAR/FENCE"
  grep -m2 -E 'STSM|UTMASTG' /tmp/f.sass; grep -m2 UTMALDG /tmp/f.sass
  grep -E 'SYNCS|MEMBAR|FENCE|MAPA|UCGABAR| STS' /tmp/f.sass | sed 's@/\* 0x[0-9a-f]* \*/@@' | sort -k2 | uniq -c -f1 | head -20
done > $OUT/sass.txt
# Two views of the C tile's stores: the L1 data stage's aggregate store counters (every STS/STSM
# wavefront the data stage processed, with whatever it collided with) and the per-instruction
# source counters (each STSM instruction's wavefronts against its ideal), summed by stsm_sum.py.
HW=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
SS=sm__sass_inst_executed_op_shared_stsm.sum,sm__sass_data_bytes_mem_shared_op_stsm.sum
timeout 120 ncu --metrics $HW,$SS --kernel-name regex:"gemm_epi|epi_store_only" --launch-count 8 /tmp/epi --ncu > $OUT/ncu.txt 2>&1 || \
  timeout 100 ncu --metrics $HW --kernel-name regex:"gemm_epi|epi_store_only" --launch-count 8 /tmp/epi --ncu > $OUT/ncu.txt 2>&1
echo "ncu rc=$?" >> $L
{ timeout 60 ncu --section SourceCounters --kernel-name regex:"epi_store_only" --launch-count 1 --page source --print-source sass --csv /tmp/epi --ncu
  timeout 120 ncu --section SourceCounters --kernel-name regex:"gemm_epi" --launch-skip 1 --launch-count 2 --page source --print-source sass --csv /tmp/epi --ncu; } > $OUT/ncu_source.csv 2>&1
echo "ncu source rc=$?" >> $L
python3 $(dirname $0)/stsm_sum.py $OUT/ncu_source.csv > $OUT/stsm_source.json 2>&1; cat $OUT/stsm_source.json | tee -a $L
timeout 300 /tmp/epi --full $OUT/epi_results.json 2>&1 | tee -a $L
echo "run rc=$?" | tee -a $L
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $L
