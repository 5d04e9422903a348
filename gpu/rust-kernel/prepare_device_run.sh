#!/usr/bin/env bash
# Run here (the machine with Rust): builds the kernels' PTX and the host binary and puts both in
# .gpu-rust/ at the repository root (git-ignored), to be carried to the GPU machine, which has the
# CUDA driver but no Rust. Then, on the GPU machine, in one call: bash gpu/rust-kernel/device_run.sh
# (with the device tool: carry [".gpu-rust"]).
set -euo pipefail
cd "$(dirname "$0")/../.."
gpu/rust-kernel/build_ptx.sh
cargo build --release -p smemdesc-gpu --bin rust_kernels
mkdir -p .gpu-rust
cp gpu/rust-kernel/out/kernels.ptx target/release/rust_kernels .gpu-rust/
cp gpu/rust-kernel/out/ptxas_summary.txt .gpu-rust/ 2>/dev/null || true
ls -la .gpu-rust
