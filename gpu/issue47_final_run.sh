#!/usr/bin/env bash
# Issue 47, 2026-12-07 (after the convergence fix, bfd50fb): one device call per argument over the
# staged .gpu-rust/ (carry it). Staging here: bash gpu/rust-kernel/prepare_device_run.sh;
# bash gpu/rust-kernel/attn_ptx.sh; gpu/rust-kernels-lib/build.sh's library into .gpu-rust/ and
# .gpu-rust/attn/ with attn.ptx, attention_same_process.py, attention_device_run.sh;
# cp gpu/grouped_same_process.py gpu/conv_same_process.py .gpu-rust/;
# $PTXAS -arch=sm_90a .gpu-rust/kernels.ptx -o .gpu-rust/kernels.cubin; the kernels crate's
# kernels_check example as .gpu-rust/kernels_check; .gpu-rust/before/ (the recorded build) and
# .gpu-rust/oxide/ (gpu/cuda-oxide's host and PTX of this tree).
#   conv:  each convolution kernel's exactness launch alone (20 s each), then
#          gpu/conv_overlap_run.sh (the 1x1 layers, then all 8 against cuDNN), the kernels crate's
#          launchers, the cuda-oxide kernels;
#   attn:  gpu/remeasure_run.sh attn (new against the recorded build in the same rounds).
set -u
cd "$(dirname "$0")/.."
G=$PWD/.gpu-rust; O=${OUT:-/tmp/out}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$O/device.txt"
case "$1" in
conv)
    mkdir -p /tmp/cd
    for k in gemm_conv_fprop_rust gemm_conv_n128_rust gemm_conv_cl21_rust gemm_conv_ov_rust \
        gemm_conv_ov_cl21_rust gemm_conv_ov2_rust gemm_conv_ov_n128_rust gemm_conv_fprop_control_rust; do
        SMEMDESC_CONV_LAYERS=4 SMEMDESC_CONV_ONLY=$k timeout 20 "$G/rust_kernels" --ptx "$G/kernels.cubin" \
            --conv --out /tmp/cd --rounds 1 > /tmp/cd/o.txt 2>&1
        echo "$k rc $?: $(grep -E 'mismatch|done|error' /tmp/cd/o.txt | tail -2 | paste -sd ' ')"
    done | tee "$O/conv_diag.txt"
    OUT=$O/conv timeout 300 bash gpu/conv_overlap_run.sh 9 > "$O/conv_run.txt" 2>&1; echo "conv rc $?"
    tail -30 "$O/conv_run.txt"
    timeout 120 "$G/kernels_check" "$G/kernels.ptx" > "$O/kernels_launch.txt" 2>&1; echo "launchers rc $?"
    tail -30 "$O/kernels_launch.txt"
    DIR=$G/oxide OUT=$O/oxide timeout 60 bash "$G/oxide/device_run.sh" > /dev/null 2>&1; echo "oxide rc $?"
    grep -E "check stack|host rc|exact|mismatch|wrong|FAIL" "$O/oxide/log.txt" | head -20
    ;;
attn)
    OUT=$O timeout 560 bash gpu/remeasure_run.sh attn > "$O/attn_run.txt" 2>&1; echo "attn rc $?"
    tail -40 "$O/attn_run.txt"
    ;;
esac
