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
  echo "== $f: $(grep -c HGMMA /tmp/f.sass) HGMMA, $(grep -c STSM /tmp/f.sass) STSM, $(grep -c UTMASTG /tmp/f.sass) UTMASTG, $(grep -c UTMALDG /tmp/f.sass) UTMALDG, $(grep -cE 'STG' /tmp/f.sass) STG, $(grep -cE 'LDL|STL' /tmp/f.sass) LDL/STL"
  grep -m2 -E 'STSM|UTMASTG' /tmp/f.sass; grep -m2 UTMALDG /tmp/f.sass
done > $OUT/sass.txt
timeout 150 ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum --kernel-name regex:"gemm_epi|epi_store_only" --launch-count 6 /tmp/epi --ncu > $OUT/ncu.txt 2>&1
echo "ncu rc=$?" >> $L
timeout 300 /tmp/epi --full $OUT/epi_results.json 2>&1 | tee -a $L
echo "run rc=$?" | tee -a $L
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $L
