#!/usr/bin/env bash
# The launchers of kernels/ (crate smemdesc-kernels) on the GPU: each once on small shapes with an
# exact check on integer data, and the typed refusals (kernels/examples/kernels_check.rs).
#
# Staging, here (the machine with Rust), into the git-ignored .gpu-rust/ at the repository root:
#   gpu/rust-kernel/build_ptx.sh
#   cargo build --release -p smemdesc-kernels --example kernels_check
#   mkdir -p .gpu-rust && cp gpu/rust-kernel/out/kernels.ptx target/release/examples/kernels_check .gpu-rust/
# On the GPU machine (the CUDA driver, no Rust; the device tool with carry [".gpu-rust"]):
#   bash gpu/kernels_launch_run.sh
# Output: the check's lines on stdout and in $OUT/kernels_launch.txt; exit status the check's (0:
# every launch exact, every refusal the expected error).
set -u
cd "$(dirname "$0")/../.gpu-rust"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
O=${OUT:-/tmp/out}
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 ./kernels_check kernels.ptx 2>&1 | tee "$O/kernels_launch.txt"
exit "${PIPESTATUS[0]}"
