#!/usr/bin/env bash
# Issue 47: which convolution kernel does not finish (the 2026-12-07 smoke of the 1x1 1024->256
# layer ran past 60 s with no line). Each kernel's exactness launch alone on that layer
# (rust_kernels --conv with SMEMDESC_CONV_ONLY), 20 s each, then the kernels crate's launchers
# (kernels_check2: GEMM, cluster GEMM, attention, convolution). Staged as gpu/issue47_pending_run.sh
# says, plus .gpu-rust/kernels_check2 (cargo build --release -p smemdesc-kernels --example kernels_check).
set -u
cd "$(dirname "$0")/.."
G=$PWD/.gpu-rust; O=${OUT:-/tmp/out}; mkdir -p "$O" /tmp/cd
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
M=$G/kernels.cubin
for k in gemm_conv_fprop_rust gemm_conv_n128_rust gemm_conv_cl21_rust gemm_conv_ov_rust \
    gemm_conv_ov_cl21_rust gemm_conv_ov2_rust gemm_conv_ov_n128_rust gemm_conv_fprop_control_rust; do
    for l in 4; do
        SMEMDESC_CONV_LAYERS=$l SMEMDESC_CONV_ONLY=$k timeout 20 "$G/rust_kernels" --ptx "$M" --conv \
            --out /tmp/cd --rounds 1 > /tmp/cd/o.txt 2>&1
        echo "layer $l $k rc $?: $(grep -E 'done|error' /tmp/cd/o.txt | tail -1)"
    done
done | tee "$O/conv_diag.txt"
timeout 200 "$G/kernels_check2" "$G/kernels.ptx" > "$O/kernels_launch2.txt" 2>&1; echo "launchers rc $?" | tee -a "$O/kernels_launch2.txt"
tail -25 "$O/kernels_launch2.txt"
