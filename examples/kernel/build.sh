#!/usr/bin/env bash
# Builds the kernel crate into one PTX module, out/gemm_tile.ptx (README.md says why each step).
#
# Needs nightly with rust-src (rust-toolchain.toml selects it; `rustup component add rust-src
# --toolchain nightly`). When ptxas is found ($PTXAS, or on PATH), also assembles the module for
# sm_90a and prints ptxas's resource summary.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
rm -f out/gemm_tile.ptx
touch src/lib.rs # cargo skips rustc (and so --emit) when it thinks the crate is fresh
if ! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- \
    --emit asm=out/gemm_tile.ptx -C target-cpu=sm_90a > out/build.log 2>&1; then
    cat out/build.log
    echo "build.sh: the kernel crate did not build"
    exit 1
fi
if grep -q '^warning' out/build.log; then
    cat out/build.log
    echo "build.sh: the build warned (this example builds without warnings)"
    exit 1
fi
# `--emit asm` writes only this crate's code: a call into another crate that was not inlined is an
# `.extern .func` that no PTX module defines, and the driver would refuse to load the module.
# `smemdesc check-ptx` names each (a panic with its file:line:col), and `.global` tables and local
# memory; it exits 1 when it finds any, which fails the build.
# Run from the repository root: its toolchain (stable), not this folder's nightly.
root=$(cd ../.. && pwd)
if ! (cd "$root" && cargo run -q --manifest-path "$root/Cargo.toml" -p smemdesc-cli -- \
    check-ptx examples/kernel/out/gemm_tile.ptx); then
    echo "build.sh: out/gemm_tile.ptx is not clean (above)"
    exit 1
fi
# LLVM writes the lowest PTX version sm_90a allows (8.0); `fence.proxy.tensormap` (ptx.rs) needs
# 8.3. Every 8.0 module is a valid 8.3 module, so raise the header (README.md: why not
# `-C target-feature=+ptx83`).
version=$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]*\)$/\1\2/p' out/gemm_tile.ptx)
if [ -z "$version" ]; then
    echo "build.sh: no .version line in out/gemm_tile.ptx"
    exit 1
fi
if [ "$version" -lt 83 ]; then
    sed -i 's/^\.version [0-9]*\.[0-9]*$/.version 8.3/' out/gemm_tile.ptx
fi
echo "out/gemm_tile.ptx: $(wc -c < out/gemm_tile.ptx) bytes, $(grep -m1 '^\.version' out/gemm_tile.ptx), $(grep -m1 '^\.target' out/gemm_tile.ptx), no warnings"
PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90a -v out/gemm_tile.ptx -o out/gemm_tile.cubin
fi
