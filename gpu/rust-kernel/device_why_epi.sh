#!/bin/bash
# Why the cluster kernels run at the persistent kernel's speed (issue 22, Rust): Nsight Compute
# at 8192^3 on cuBLAS and the three issue-22 GEMMs (one launch each, `rust_kernels --epi-ncu
# --epi-ncu-size 8192`): duration, L2 and DRAM traffic, and the tensor pipe's activity.
# BIN, PTX as for device_run_epi.sh; outputs in $OUT (why_ncu.txt, why_metrics.txt).
set -o pipefail
OUT=${OUT:-gpu/out-rust-why}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
BIN=${BIN:-.gpu-rust/rust_kernels}
PTX=${PTX:-.gpu-rust/kernels.ptx}
MOD=$PTX
timeout 200 ptxas -arch=sm_90a "$PTX" -o /tmp/rk.cubin && MOD=/tmp/rk.cubin
ncu --query-metrics > /tmp/q.txt 2>&1
grep -oE "^(sm__pipe_tensor_op_[a-z]*mma_cycles_active|sm__inst_executed_pipe_tensor_op_[a-z]*mma|lts__t_sectors_srcunit_tex_op_read|l1tex__m_xbar2l1tex_read_bytes|lts__t_sectors_srcunit_tex)\b" /tmp/q.txt | sort -u > "$OUT/why_metrics.txt"
M=gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed
for b in $(cat "$OUT/why_metrics.txt"); do
  case $b in
    *cycles_active) M=$M,$b.avg.pct_of_peak_sustained_active ;;
    *) M=$M,$b.sum ;;
  esac
done
echo "metrics: $M" >> "$OUT/why_metrics.txt"
# The launches: 4 store-only kernels, then cuBLAS (the reference), then the three GEMMs.
timeout 300 ncu --metrics "$M" --launch-skip 4 --launch-count 4 "$BIN" --ptx "$MOD" --out /tmp/why --epi-ncu --epi-ncu-size 8192 > "$OUT/why_ncu.txt" 2>&1
echo "ncu rc=$?" >> "$OUT/why_ncu.txt"
cat /tmp/why/epi_ncu.json >> "$OUT/why_ncu.txt" 2>&1
