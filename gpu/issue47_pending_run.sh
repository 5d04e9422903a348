#!/usr/bin/env bash
# Issue 47's runs that were built but not run in the stop of 2026-12-06 (the session's device
# time went on machine starts that failed), as two device calls on one warm machine.
# Staging here (the machine with Rust), from the repository root:
#   bash gpu/rust-kernel/prepare_device_run.sh && bash gpu/rust-kernels-lib/build.sh
#   bash gpu/attention_prepare.sh
#   cp gpu/grouped_same_process.py gpu/conv_same_process.py .gpu-rust/
#   eval "$(bash scripts/ptxas_tools.sh)"; $PTXAS -arch=sm_90a .gpu-rust/kernels.ptx -o .gpu-rust/kernels.cubin
#   cargo build --release -p smemdesc-kernels --example kernels_check &&
#     cp target/release/examples/kernels_check .gpu-rust/
#   cargo build --release -p smemdesc-gpu --bin smemdesc-gpu && cp target/release/smemdesc-gpu .gpu-rust/
# Device (carry [".gpu-rust"]): bash gpu/issue47_pending_run.sh 1, then at once ... 2.
#   1: the FP8 grouped GEMM (exact, against the cuBLASLt FP8 loop and torch's FP8 grouped paths),
#      the overlapped convolution on the 1x1 layers and all 8 (against cuDNN and the recorded
#      kernel), PDL (the pdl_step chain and the GEMM -> consumer pair);
#   2: attention d128 causal variants 16-18 (2026-12-07; 17 and 18 removed since) and the FP8
#      forward (gpu/attn_gap_run.sh), the
#      kernels crate's launchers (exact), the C++ GEMM (gpu/device_run.sh).
# Everything lands in $OUT as one tarball per call (written after each step).
set -u
cd "$(dirname "$0")/.."
R=${OUT:-/tmp/out}; O=/tmp/pending$1; mkdir -p "$O" "$R"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
pack() { tar czf "$R/pending$1.tgz" -C "$O" . 2>/dev/null; }
G=$PWD/.gpu-rust; M=$G/kernels.cubin; [ -s "$M" ] || M=$G/kernels.ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$O/device.txt"
case "$1" in
1)
    (cd "$G" && timeout 150 python3 grouped_same_process.py "$G/libsmemdesc_rust_kernels.so" "$M" "$O/fp8g" 7 --fp8 > "$O/fp8g.txt" 2>&1; echo "fp8g rc $?"); pack 1
    OUT=$O/conv timeout 280 bash gpu/conv_overlap_run.sh 9 > "$O/conv_run.txt" 2>&1; echo "conv rc $?"; pack 1
    timeout 90 "$G/rust_kernels" --ptx "$M" --pdl --out "$O/pdl" --rounds 9 > "$O/pdl.txt" 2>&1; echo "pdl rc $?"; pack 1
    ;;
2)
    OUT=$O/attn timeout 270 bash gpu/attn_gap_run.sh > "$O/attn_run.txt" 2>&1; echo "attn rc $?"; pack 2
    timeout 120 "$G/kernels_check" "$G/kernels.ptx" > "$O/kernels_launch.txt" 2>&1; echo "launchers rc $?"; pack 2
    mkdir -p "$O/cpp"; BIN=$G/smemdesc-gpu OUT=$O/cpp timeout 230 bash gpu/device_run.sh > /dev/null 2>&1; echo "cpp rc $?"; pack 2
    ;;
esac
