#!/usr/bin/env bash
# Issue 47, 2026-12-07 (afternoon): the convolution's taps-inner K order and the remaining
# re-measures, one device call per argument over the staged .gpu-rust/ (carry it; staging as in
# gpu/issue47_final_run.sh, with this tree's kernels.ptx, rust_kernels and library).
#   conv:   ptxas -v of the convolution entries; each taps-inner kernel's exactness launch alone
#           on the 3x3 stride-2 layer (30 s each); then all 8 layers against cuDNN in one
#           process (gpu/conv_same_process.py, 7 rounds; the pick takes the taps-inner 2x1
#           kernel where a 3x3 input is larger than the L2);
#   attn:   the four d = 128 causal configurations (3, 7, 11, 15: seqlen 4096 to 16384 and
#           16 x 32 x 2048) beside the recorded build, 9 rounds, twice (two processes), for the
#           d = 128 causal pick per sequence length; then the TMA-epilogue/cluster GEMMs new
#           against the recorded PTX (rust_kernels --pipeline-before, 5 rounds);
#   grouped: the grouped GEMM with torch._grouped_mm, new then before (gpu/remeasure_run.sh's
#           grouped half, 5 rounds).
set -u
cd "$(dirname "$0")/.."
G=$PWD/.gpu-rust; O=${OUT:-/tmp/out}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$O/device.txt"
case "$1" in
conv)
    timeout 120 ptxas -arch=sm_90a -v "$G/kernels.ptx" -o /tmp/k.cubin > /tmp/ptxas.txt 2>&1
    M=/tmp/k.cubin; [ -s "$M" ] || M=$G/kernels.ptx
    grep -A3 "entry function 'gemm_conv" /tmp/ptxas.txt | grep -E "Compiling|Used|stack" > "$O/ptxas_conv.txt"
    mkdir -p /tmp/cd
    for k in gemm_conv_ti_rust gemm_conv_ti_cl21_rust gemm_conv_ov_ti_cl21_rust gemm_conv_fprop_control_rust; do
        SMEMDESC_CONV_LAYERS=1 SMEMDESC_CONV_ONLY=$k timeout 30 "$G/rust_kernels" --ptx "$M" \
            --conv --out /tmp/cd --rounds 1 > /tmp/cd/o.txt 2>&1
        echo "$k rc $?: $(grep -E 'mismatch|done|error' /tmp/cd/o.txt | tail -2 | paste -sd ' ')"
    done | tee "$O/conv_diag.txt"
    mkdir -p "$O/conv"
    timeout 330 python3 gpu/conv_same_process.py "$G/libsmemdesc_rust_kernels.so" "$M" "$O/conv" 7 \
        > "$O/conv_run.txt" 2>&1; echo "conv rc $?"
    grep -E "^(conv|smoke)|cuDNN" "$O/conv_run.txt" | cut -c1-400 | tail -30
    ;;
attn)
    ptxas -arch=sm_90a .gpu-rust/before/attn.ptx -o .gpu-rust/before/attn.cubin
    for run in 1 2; do
        (cd "$G/attn" && BEFORE_LIB=$G/before/libbefore.so BEFORE_PTX=$G/before/attn.cubin ONLY=3,7,11,15 \
            FULL_TIMEOUT=150 OUT=$O/attn$run timeout 200 bash attention_device_run.sh 9 > "$O/attn$run.txt" 2>&1)
        echo "attn run $run rc $?"; grep -E "causal|rc" "$O/attn$run.txt" | cut -c1-300 | tail -8
    done
    mkdir -p "$O/epi"
    (cd "$G" && timeout 200 ./rust_kernels --ptx kernels.ptx --out "$O/epi" --pipeline-before before/kernels.ptx \
        --rounds 5 > "$O/epi.txt" 2>&1); echo "epi rc $?"; tail -8 "$O/epi.txt"
    ;;
grouped)
    OUT=$O timeout 330 bash -c 'cd .gpu-rust && for v in new before; do
        if [ $v = new ]; then lib=$PWD/attn/libsmemdesc_rust_kernels.so; ptx=kernels.ptx
        else lib=$PWD/before/libbefore.so; ptx=before/kernels.ptx; fi
        timeout 160 python3 grouped_same_process.py "$lib" "$ptx" "$OUT/grouped_$v" 5 \
            > "$OUT/grouped_$v.txt" 2>&1; echo "grouped $v rc $?"; tail -10 "$OUT/grouped_$v.txt"
    done'
    ;;
esac
