#!/usr/bin/env bash
# Zero-cost kernel API, checked in the generated code (issues 12 and 19):
#  1. x86-64: examples/runtime_desc.rs compiled with --emit asm (stable, release, default flags);
#     its #[no_mangle] functions computing descriptors/offsets from run-time, unmasked arguments
#     (inherent items, SmemTile trait, core TileLayout, an #[smem_storage] PlacedTile) contain
#     no `call` and load nothing from memory (no advance table); the asserting form's only call
#     is its failing path.
#  2. nvptx64 (when nightly with rust-src is installed; skipped with the reason otherwise):
#     a. scripts/ptx-check (every access form of every path, run-time indices from kernel
#        parameters, every swizzle x major x stacking order) built to PTX and checked by
#        scripts/check_access_ptx.py: no call, no .extern .func, no .global/.const data, no
#        ld.global, no local memory; asserting forms end in a trap in the module;
#     b. the Rust kernel crate gpu/rust-kernel built to PTX with default flags, checked by
#        scripts/check_kernel_ptx.py (no call, no .global copy of a plan, no local memory, the
#        main loop's descriptors are adds of constants).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo rustc --quiet --release --example runtime_desc -- --emit asm
asm=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/examples/runtime_desc-*.s | head -n 1)
# A memory operand as the source (AT&T: first operand) of anything but `lea` or a call: a load.
loads='^\s+(?!lea|call|jmp)[a-z]+\s+[^%$,\s][^,]*\('
# A function LLVM found identical to another is an alias (`f = g`): check g's body.
body_of() {
    local g
    g=$(awk -v f="$1" '$1 == f && $2 == "=" {print $3}' "$asm")
    awk -v f="${g:-$1}" '$0 ~ "^" f ":" {on = 1} on && /\.cfi_endproc/ {on = 0} on' "$asm"
}
for f in desc_rt_unchecked desc_rt_checked desc_rt_in_range desc_rt_loop offset_rt \
    desc_rt_trait desc_rt_core_checked desc_rt_core desc_rt_placed desc_rt_mixed_radix \
    offset_rt_checked offset_rt_core desc_rt_asserting; do
    body=$(body_of "$f")
    [ -n "$body" ] || { echo "x86-64 check FAILED: $f not found in $asm"; exit 1; }
    if grep -qP "$loads" <<< "$body"; then
        echo "x86-64 check FAILED: $f loads from memory (a table?):"; grep -P "$loads" <<< "$body"; exit 1
    fi
    calls=$(grep -E '^\s*(call|jmp\s+[A-Za-z_])' <<< "$body" || true)
    n=$(grep -c . <<< "$calls" || true)
    if [ "$f" = desc_rt_asserting ]; then
        # The panic naming the argument: one call, to the failing path (the cold `desc_fail`,
        # which builds the error out of line, or the core's `fail` where LLVM inlined it), and
        # nothing else.
        [ "$n" -eq 1 ] && grep -qE 'access4fail|9desc_fail' <<< "$calls" ||
            { echo "x86-64 check FAILED: $f calls other than the failing path's:"; echo "$calls"; exit 1; }
        echo "x86-64 $f: $(grep -cE '^\s+[a-z]' <<< "$body") instructions, no load, one call (the panic path)"
        continue
    fi
    [ "$n" -eq 0 ] || { echo "x86-64 check FAILED: $f has $n call(s):"; echo "$calls"; exit 1; }
    echo "x86-64 $f: $(grep -cE '^\s+[a-z]' <<< "$body") instructions, no call, no load"
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
scripts/ptx-check/build_ptx.sh
python3 scripts/check_access_ptx.py scripts/ptx-check/out/access.ptx
PTXAS="${PTXAS:-}" gpu/rust-kernel/build_ptx.sh > /dev/null
python3 scripts/check_kernel_ptx.py gpu/rust-kernel/out/kernels.raw.ptx
