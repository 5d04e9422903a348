#!/usr/bin/env bash
# Builds the access-form kernels (src/) into one PTX module, out/access.ptx, with the flags a
# user's kernel crate has (nightly, -Zbuild-std=core, release, panic = "abort"; no LTO, no -Z
# inlining flags), and assembles it with ptxas for sm_90a when ptxas is found ($PTXAS or PATH).
#
# The target directory is gpu/rust-kernel's: the same toolchain, profile and dependencies, so
# core, smemdesc-core, smemdesc-macros and smemdesc are built once for both crates.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
rm -f out/access.ptx
touch src/lib.rs # cargo skips rustc (and so --emit) when it thinks the crate is fresh
if ! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
    --target-dir "${SMEMDESC_NVPTX_TARGET_DIR:-${CARGO_TARGET_DIR:-../../gpu/rust-kernel/target}}" -- \
    --emit asm=out/access.ptx -C target-cpu=sm_90a > out/build.log 2>&1; then
    cat out/build.log
    echo "ptx-check/build_ptx.sh: the check crate did not build"
    exit 1
fi
test -s out/access.ptx
echo "scripts/ptx-check/out/access.ptx: $(grep -c '^\.visible \.entry' out/access.ptx) kernels, $(wc -c < out/access.ptx) bytes"
PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90a out/access.ptx -o out/access.cubin
    echo "ptxas -arch=sm_90a: assembled ($(wc -c < out/access.cubin) bytes of cubin)"
fi
