#!/usr/bin/env bash
# Zero-cost kernel API, checked in the generated code (issue 12):
#  1. x86-64: examples/runtime_desc.rs compiled with --emit asm (stable, release, default flags);
#     its #[no_mangle] functions computing descriptors/offsets from run-time arguments contain no
#     `call` (no out-of-line smemdesc code, no panic path).
#  2. nvptx64 (when nightly with rust-src is installed; skipped with the reason otherwise): the
#     Rust kernel crate gpu/rust-kernel built to PTX with default flags, checked by
#     scripts/check_kernel_ptx.py (no call, no .global copy of a plan, no local memory, the
#     main loop's descriptors are adds of constants).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo rustc --quiet --release --example runtime_desc -- --emit asm
asm=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/examples/runtime_desc-*.s | head -n 1)
for f in desc_rt_unchecked desc_rt_checked desc_rt_in_range desc_rt_loop offset_rt; do
    body=$(awk -v f="$f" '$0 ~ "^" f ":" {on = 1} on && /\.cfi_endproc/ {on = 0} on' "$asm")
    [ -n "$body" ] || { echo "x86-64 check FAILED: $f not found in $asm"; exit 1; }
    n=$(grep -cE '^\s*(call|jmp\s+[A-Za-z_])' <<< "$body" || true)
    [ "$n" -eq 0 ] || { echo "x86-64 check FAILED: $f has $n call(s):"; grep -E 'call|jmp' <<< "$body"; exit 1; }
    echo "x86-64 $f: $(grep -cE '^\s+[a-z]' <<< "$body") instructions, no call"
done

if ! cargo +nightly --version > /dev/null 2>&1; then
    echo "SKIP PTX check: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
sysroot=$(rustc +nightly --print sysroot)
if [ ! -d "$sysroot/lib/rustlib/src/rust/library/core" ]; then
    echo "SKIP PTX check: nightly has no rust-src (rustup component add rust-src --toolchain nightly)"
    exit 0
fi
if ! command -v python3 > /dev/null; then
    echo "SKIP PTX check: python3 not found"
    exit 0
fi
PTXAS="${PTXAS:-}" gpu/rust-kernel/build_ptx.sh > /dev/null
python3 scripts/check_kernel_ptx.py gpu/rust-kernel/out/kernels.raw.ptx
