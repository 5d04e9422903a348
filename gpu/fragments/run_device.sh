#!/bin/bash
# One device call: build and run the exactness check, the ncu bank counters, and ptxas -arch=sm_120a
# on the sm120 forms. Run from the directory holding these files; results under $OUT.
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > $L 2>&1
ncu --query-metrics --chip gh100 2>&1 | grep -E "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_(ld|st)|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st) |smsp__inst_executed_op_(ldsm|stsm)" > $OUT/metrics_query.txt 2>&1
echo "== sm120 ptxas" >> $L
echo "[" > sm120_results.json; first=1
for f in sm120_*.ptx; do
  if ptxas -arch=sm_120a "$f" -o /tmp/${f%.ptx}.cubin > /tmp/ptxas.log 2>&1; then r=ok; s=$(cuobjdump -sass /tmp/${f%.ptx}.cubin | grep -oE "OMMA[.A-Z0-9_x]*|QMMA[.A-Z0-9_x]*|HMMA[.A-Z0-9_x]*" | head -1); else r=fail; s=$(tr '\n"' ' _' < /tmp/ptxas.log | cut -c1-300); fi
  echo "$f: $r $s" >> $L
  [ $first = 1 ] || echo "," >> sm120_results.json; first=0
  echo "{\"ptx\": \"$f\", \"ptxas_sm_120a\": \"$r\", \"sass_or_error\": \"$s\"}" >> sm120_results.json
done
echo "]" >> sm120_results.json
echo "== build" >> $L
nvcc -std=c++17 -O2 -arch=sm_90a --expt-relaxed-constexpr -o frag fragments.cu >> $L 2>&1 || { echo BUILD FAILED >> $L; cp sm120_results.json $OUT/; exit 1; }
cuobjdump -sass frag | grep -oE "LDSM[.A-Z0-9]*|STSM[.A-Z0-9]*|HMMA[.A-Z0-9]*|IMMA[.A-Z0-9]*|QMMA[.A-Z0-9]*|LDGSTS[.A-Z0-9]*" | sort | uniq -c > $OUT/sass_summary.txt
echo "== run" >> $L
timeout 120 ./frag >> $L 2>&1
echo "== ncu" >> $L
timeout 300 python3 collect.py $OUT >> $L 2>&1
cp fragments_exact.json sm120_results.json $OUT/ 2>/dev/null
cat $L
