#!/usr/bin/env bash
# Builds the kernel crate into one PTX module, out/gemm_tile.ptx (README.md says why each step).
#
# Needs nightly with rust-src (rust-toolchain.toml selects it; `rustup component add rust-src
# --toolchain nightly`). When ptxas is found ($PTXAS, or on PATH), also assembles the module for
# sm_90a and prints ptxas's resource summary.
#
# Where smemdesc is: Cargo.toml's path dependency, `../..` (this folder inside the smemdesc
# repository). A copy of the folder elsewhere sets SMEMDESC_PATH to a smemdesc checkout:
#   SMEMDESC_PATH=/path/to/smemdesc ./build.sh
# and this script writes that path into Cargo.toml's dependency (once; it says so).
set -euo pipefail
cd "$(dirname "$0")"
is_smemdesc() { [ -f "$1/Cargo.toml" ] && grep -q '^name = "smemdesc"$' "$1/Cargo.toml"; }
dep=$(sed -n 's/^smemdesc = { path = "\([^"]*\)" }$/\1/p' Cargo.toml)
if [ -z "$dep" ]; then
    echo "build.sh: Cargo.toml has no 'smemdesc = { path = \"...\" }' line (the script points it at a checkout)"
    exit 1
fi
if [ -n "${SMEMDESC_PATH:-}" ]; then
    if ! is_smemdesc "$SMEMDESC_PATH"; then
        echo "build.sh: SMEMDESC_PATH=$SMEMDESC_PATH is not a smemdesc checkout (no Cargo.toml with name = \"smemdesc\")"
        exit 1
    fi
    root=$(cd "$SMEMDESC_PATH" && pwd)
    if [ "$(cd "$dep" 2>/dev/null && pwd)" != "$root" ]; then
        sed -i "s|^smemdesc = { path = \"[^\"]*\" }$|smemdesc = { path = \"$root\" }|" Cargo.toml
        echo "build.sh: Cargo.toml's smemdesc dependency now points at $root"
    fi
elif is_smemdesc "$dep"; then
    root=$(cd "$dep" && pwd)
else
    echo "build.sh: smemdesc is not at '$dep' (Cargo.toml's path): outside the smemdesc repository, run"
    echo "    SMEMDESC_PATH=/path/to/a/smemdesc/checkout $0"
    exit 1
fi
mkdir -p out
rm -f out/gemm_tile.raw.ptx out/gemm_tile.ptx
touch src/lib.rs # cargo skips rustc (and so --emit) when it thinks the crate is fresh
# SMEMDESC_NVPTX_TARGET_DIR: one target directory for every nvptx64 build of the repository
# (.ci/run sets it: core, smemdesc and the macros are then built once for all its PTX checks).
if ! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
    --target-dir "${SMEMDESC_NVPTX_TARGET_DIR:-${CARGO_TARGET_DIR:-target}}" -- \
    --emit asm=out/gemm_tile.raw.ptx -C target-cpu=sm_90a > out/build.log 2>&1; then
    cat out/build.log
    echo "build.sh: the kernel crate did not build"
    exit 1
fi
if grep -q '^warning' out/build.log; then
    cat out/build.log
    echo "build.sh: the build warned (this example builds without warnings)"
    exit 1
fi
# Rust has no attribute for PTX's `.maxntid`: add it to the kernel's entry here, with the
# kernel's THREADS (src/tiles.rs: a literal the compiler checks against the declaration). Without
# it ptxas budgets registers for any block size, and ignores a `setmaxnreg` (C7508). A launch with
# more threads then fails.
threads=$(sed -n 's/^pub const THREADS: u32 = \([0-9][0-9]*\);$/\1/p' src/tiles.rs)
if [ -z "$threads" ]; then
    echo "build.sh: src/tiles.rs has no 'pub const THREADS: u32 = N;' line (the kernel's .maxntid)"
    exit 1
fi
awk -v n="$threads" '
  /^\.visible \.entry gemm_tile\(/ { in_entry = 1 }
  { print }
  in_entry && /^\)$/ { print ".maxntid " n ", 1, 1"; in_entry = 0; done = 1 }
  END { if (!done) exit 1 }
' out/gemm_tile.raw.ptx > out/gemm_tile.ptx || {
    echo "build.sh: no '.visible .entry gemm_tile(' in out/gemm_tile.raw.ptx"
    exit 1
}
# LLVM writes the lowest PTX version sm_90a allows (8.0); `fence.proxy.tensormap`
# (smemdesc::ptx::fence_tensormap_acquire) needs 8.3. Every 8.0 module is a valid 8.3 module, so
# raise the header (README.md: why not `-C target-feature=+ptx83`).
version=$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]*\)$/\1\2/p' out/gemm_tile.ptx)
if [ -z "$version" ]; then
    echo "build.sh: no .version line in out/gemm_tile.ptx"
    exit 1
fi
if [ "$version" -lt 83 ]; then
    sed -i 's/^\.version [0-9]*\.[0-9]*$/.version 8.3/' out/gemm_tile.ptx
fi
# `--emit asm` writes only this crate's code: a call into another crate that was not inlined is an
# `.extern .func` that no PTX module defines, and the driver would refuse to load the module.
# `smemdesc check-ptx` names each (a panic with its file:line:col), and `.global` tables and local
# memory; it exits 1 when it finds any, which fails the build. The CLI is the checkout's, run from
# the checkout with its toolchain (stable), not this folder's nightly, in the profile
# SMEMDESC_CLI_PROFILE names (default dev), or the built binary SMEMDESC_CLI names (.ci/run: a
# copy of the test profile's, run without cargo).
ptx="$(pwd)/out/gemm_tile.ptx"
if [ -n "${SMEMDESC_CLI:-}" ]; then
    check=("$SMEMDESC_CLI" check-ptx "$ptx")
else
    check=(cargo run -q --manifest-path "$root/Cargo.toml" --profile "${SMEMDESC_CLI_PROFILE:-dev}" -p smemdesc-cli -- check-ptx "$ptx")
fi
if ! (cd "$root" && "${check[@]}"); then
    echo "build.sh: out/gemm_tile.ptx is not clean (above)"
    exit 1
fi
echo "out/gemm_tile.ptx: $(wc -c < out/gemm_tile.ptx) bytes, $(grep -m1 '^\.version' out/gemm_tile.ptx), $(grep -m1 '^\.target' out/gemm_tile.ptx), .maxntid $threads, no warnings"
PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90a -v out/gemm_tile.ptx -o out/gemm_tile.cubin 2>&1 | tee out/ptxas.txt
    if grep -q '(C75[0-9][0-9])' out/ptxas.txt; then
        echo "build.sh: ptxas warned (above; CONTRIBUTING.md 'The ptxas budget' explains each code)"
        exit 1
    fi
fi
