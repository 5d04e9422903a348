#!/usr/bin/env bash
# Issue 47, 2026-12-07 (afternoon): the picks changed after the morning's runs, measured in one
# device call per argument over the staged .gpu-rust/ (carry it; staging as in
# gpu/issue47_final_run.sh). Each step's output is packed into $OUT/<arg>.tgz as it ends.
#   picks:   all 8 convolution layers against cuDNN in one process (7 rounds; the pick is now
#            the overlapped kernel, in 2x1 clusters on the 3x3 stride-2 layers); the four d = 128
#            causal attention configurations beside the recorded build (7 rounds; from 16,384
#            keys the pick is now the one-tile-per-CTA kernel); the kernels crate's launchers
#            (conv2d_fprop on gemm_conv_ov_rust, the long causal attention); cuda-oxide;
#   grouped: the grouped GEMM with torch._grouped_mm, this build then the recorded one.
set -u
cd "$(dirname "$0")/.."
G=$PWD/.gpu-rust; R=${OUT:-/tmp/out}; O=/tmp/close_$1; mkdir -p "$O" "$R"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
pack() { tar czf "$R/$1.tgz" -C "$O" . 2>/dev/null; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$O/device.txt"
case "$1" in
picks)
    timeout 120 ptxas -arch=sm_90a "$G/kernels.ptx" -o /tmp/k.cubin
    M=/tmp/k.cubin; [ -s "$M" ] || M=$G/kernels.ptx
    mkdir -p "$O/conv"
    timeout 150 python3 gpu/conv_same_process.py "$G/libsmemdesc_rust_kernels.so" "$M" "$O/conv" 7 \
        > "$O/conv_run.txt" 2>&1; echo "conv rc $?"; pack picks
    grep -E "^conv .*cuDNN [0-9]" "$O/conv_run.txt" | sed -E 's/: batch.*cuDNN/: cuDNN/' | cut -c1-260
    ptxas -arch=sm_90a "$G/before/attn.ptx" -o "$G/before/attn.cubin"
    (cd "$G/attn" && BEFORE_LIB=$G/before/libbefore.so BEFORE_PTX=$G/before/attn.cubin ONLY=3,7,11,15 \
        FULL_TIMEOUT=150 OUT=$O/attn timeout 220 bash attention_device_run.sh 7 > "$O/attn.txt" 2>&1)
    echo "attn rc $?"; rm -f "$O/attn/ptxas.txt"; pack picks
    grep -oE '"seqlen": [0-9]+, "head_dim": 128, "causal": true, "kernel": "[^"]*"' "$O/attn/full.log" | cut -c1-200
    timeout 150 "$G/kernels_check" "$G/kernels.ptx" > "$O/kernels_launch.txt" 2>&1; echo "launchers rc $?"; pack picks
    grep -E "attention_fwd .*16384|conv2d|PASS|FAIL" "$O/kernels_launch.txt" | cut -c1-220 | tail -12
    DIR=$G/oxide OUT=$O/oxide timeout 60 bash "$G/oxide/device_run.sh" > "$O/oxide_run.txt" 2>&1; echo "oxide rc $?"; pack picks
    grep -hE "check stack|host rc|exact|mismatch|wrong|FAIL" "$O/oxide/log.txt" | head -12
    ;;
grouped)
    cd "$G"
    for v in new before; do
        if [ $v = new ]; then lib=$G/attn/libsmemdesc_rust_kernels.so; ptx=kernels.ptx
        else lib=$G/before/libbefore.so; ptx=before/kernels.ptx; fi
        timeout 170 python3 grouped_same_process.py "$lib" "$ptx" "$O/grouped_$v" 5 \
            > "$O/grouped_$v.txt" 2>&1; echo "grouped $v rc $?"; tail -10 "$O/grouped_$v.txt" | cut -c1-250; pack grouped
    done
    ;;
esac
