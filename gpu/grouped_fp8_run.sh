#!/usr/bin/env bash
# Issue 47, run 4: the FP8 grouped GEMM (gemm_grouped_fp8_rust) at the 8 grouped shapes, as ONE
# device command over the staged folder .gpu-rust/ (carry it), in under 4 minutes.
#
# Staging here (the machine with Rust), from the repository root:
#   bash gpu/rust-kernel/prepare_device_run.sh     # .gpu-rust/kernels.ptx and rust_kernels
#   bash gpu/rust-kernels-lib/build.sh             # .gpu-rust/libsmemdesc_rust_kernels.so
#   cp gpu/grouped_same_process.py .gpu-rust/
# On the GPU machine (device run, carry [".gpu-rust"]): bash gpu/grouped_fp8_run.sh
#
# It runs the program as a library inside gpu/grouped_same_process.py --fp8: the exact check
# (every row against a CPU product at 128 columns, every element against the cuBLASLt FP8 loop),
# the negative control (B's map unswizzled: must fail), then ROUNDS (default 7) rounds in a
# seeded random order of ours, ours again (noise control), the cuBLASLt FP8 loop,
# torch._scaled_grouped_mm and a torch._scaled_mm loop. If that leaves no results (the Python
# side died or ran out of time), the program runs alone (no torch) so that ours and cuBLASLt
# are still recorded (3 rounds). At most 150 + 60 s of runs. Writes under $OUT (3 files at most):
#   grouped_fp8.txt                           the log (nvidia-smi, torch version, both runs)
#   grouped_fp8/grouped_fp8_results.json      the record (with torch)
#   grouped_fp8_alone/grouped_fp8_results.json only if the first left none
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/.gpu-rust" || { echo "no .gpu-rust/: stage it first (see the top of $0)"; exit 1; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH
export PYTHONUNBUFFERED=1
O=${OUT:-/tmp/out}
R=${ROUNDS:-7}
mkdir -p "$O/grouped_fp8"
py=grouped_same_process.py
[ -f "$py" ] || py=$root/gpu/grouped_same_process.py
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
    python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name())' 2>&1 | tail -1
    ls -la kernels.ptx rust_kernels libsmemdesc_rust_kernels.so
    timeout 150 python3 "$py" "$PWD/libsmemdesc_rust_kernels.so" kernels.ptx "$O/grouped_fp8" "$R" --fp8
    echo "python driver rc $?"
    if [ ! -s "$O/grouped_fp8/grouped_fp8_results.json" ] || grep -q '"no results from the program' "$O/grouped_fp8/grouped_fp8_results.json"; then
        echo "no record from the Python run: the program alone (ours, cuBLASLt; no torch)"
        mkdir -p "$O/grouped_fp8_alone"
        timeout 60 ./rust_kernels --ptx kernels.ptx --grouped-fp8 --out "$O/grouped_fp8_alone" --rounds 3
        echo "program alone rc $?"
    fi
    date -u
} 2>&1 | tee "$O/grouped_fp8.txt"
