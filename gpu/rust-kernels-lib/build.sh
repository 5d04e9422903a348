#!/usr/bin/env bash
# Builds the `rust_kernels` program as a shared library (librust_kernels.so, in .gpu-rust/ by
# default) for gpu/grouped_same_process.py. The root lockfile pins the same versions.
set -euo pipefail
cd "$(dirname "$0")"
cp ../../Cargo.lock Cargo.lock
# The binary's `main` and its unused helpers are dead code in a library.
RUSTFLAGS="${RUSTFLAGS:-} -A dead_code" CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-../../target/rust-kernels-lib}" \
    cargo build --release
dest=${1:-../../.gpu-rust}
mkdir -p "$dest"
cp "${CARGO_TARGET_DIR:-../../target/rust-kernels-lib}/release/libsmemdesc_rust_kernels.so" "$dest/"
echo "$dest/libsmemdesc_rust_kernels.so"
