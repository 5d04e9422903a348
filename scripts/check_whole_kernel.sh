#!/usr/bin/env bash
# The whole-kernel gate (issue 28): scripts/whole-kernel's three kernels, written the way users
# write them (pipelined GEMMs over an FP8 K-major, a bf16 MN-major B and an sm100 tile; storage
# accessors and checked forms with run-time indices in the loops, barriers by run-time stage,
# epilogue writer_offset, fragment ldmatrix_offset, TMEM load offsets with run-time lanes), and a
# fourth that stores the checked forms' errors by value (whole_error_data: an error holding a
# `&'static str` would put its string bytes in the module as `.global` data), built
# for nvptx64 with the flags a user's crate has, must be one loadable, table-free module:
# `smemdesc check-ptx` finds 0 `.extern .func`, 0 calls, 0 `.global`/`.const` data and 0 local
# depots. Each kernel must still hold the instructions that make it what it is (the compiler
# did not drop the work). The register side (issue 43): two kernels on the library's
# whole-fragment operations (src/regs.rs) are in that module too, and the same two written the old
# way (src/regs_old_way.rs, feature old-way) are built alone and must be refused (a named local
# depot each). Needs nightly with rust-src.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/whole-kernel"
mkdir -p out
rm -f out/whole.ptx
touch src/lib.rs # cargo skips rustc (and so --emit) when it thinks the crate is fresh
# The target directory is gpu/rust-kernel's (same toolchain, profile and dependencies), in a
# folder of its own for the RUSTFLAGS; or SMEMDESC_NVPTX_TARGET_DIR, the one every nvptx64 build
# of .ci/run shares (cargo hashes RUSTFLAGS into the artifacts' names: core and smemdesc are built
# again with the remap below, beside the others, and the host's macros and syn are reused). No
# absolute path of this machine lands in the PTX (the guide's advice, checked here).
tdir="${SMEMDESC_NVPTX_TARGET_DIR:-${CARGO_TARGET_DIR:-$root/gpu/rust-kernel/target}/whole-kernel}"
# The CLI in the profile SMEMDESC_CLI_PROFILE names (default dev), or the built binary SMEMDESC_CLI
# names (.ci/run: a copy of the test profile's, run without cargo).
if [ -n "${SMEMDESC_CLI:-}" ]; then
    cli=("$SMEMDESC_CLI")
else
    cli=(cargo run -q --profile "${SMEMDESC_CLI_PROFILE:-dev}" -p smemdesc-cli --)
fi
if ! RUSTFLAGS="--remap-path-prefix=$root=smemdesc" cargo +nightly rustc --release -Zbuild-std=core \
    --target nvptx64-nvidia-cuda --target-dir "$tdir" -- \
    --emit asm=out/whole.ptx -C target-cpu=sm_90a > out/build.log 2>&1; then
    cat out/build.log
    echo "check_whole_kernel.sh: the kernel crate did not build"
    exit 1
fi
if grep -q '^warning' out/build.log; then
    cat out/build.log
    echo "check_whole_kernel.sh: the build warned"
    exit 1
fi
if grep -q "$root" out/whole.ptx; then
    echo "check_whole_kernel.sh: out/whole.ptx holds this machine's path $root"
    exit 1
fi
(cd "$root" && "${cli[@]}" check-ptx scripts/whole-kernel/out/whole.ptx)
body() { awk -v k="$1" '$0 ~ "^\\.visible \\.entry " k "\\(" {on = 1} on {print} on && /^}/ {exit}' out/whole.ptx; }
need() { # kernel, pattern, minimum count
    local n
    n=$(body "$1" | grep -cE "$2" || true)
    if [ "$n" -lt "$3" ]; then
        echo "check_whole_kernel.sh: $1 has $n of /$2/ (expected at least $3)"
        exit 1
    fi
    echo "  $1: $n x $2"
}
need whole_fp8_k 'wgmma\.mma_async\.sync\.aligned\.m64n256k32' 4
need whole_fp8_k 'cp\.async\.bulk\.tensor\.2d\.shared' 2
need whole_fp8_k 'stmatrix\.sync\.aligned' 4
need whole_fp8_k 'cp\.async\.bulk\.tensor\.2d\.global\.shared' 1
need whole_fp8_k 'mbarrier\.arrive' 1
need whole_bf16_mn 'wgmma\.mma_async\.sync\.aligned\.m64n64k16' 4
need whole_bf16_mn 'cp\.async\.bulk\.tensor\.2d\.shared' 2
need whole_sm100 'tcgen05\.mma\.cta_group::1\.kind::f16' 1
need whole_sm100 'tcgen05\.ld\.sync\.aligned\.32x32b\.x8' 1
need whole_sm100 'cp\.async\.bulk\.tensor\.2d\.shared' 2
need whole_error_data 'st\.global' 8
# The sm100 pair's producer (issue 42, item 1): both CTAs load with the pair form into the
# leader's barrier, and no load of the entry lacks `.cta_group::2`.
need whole_sm100_pair 'cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes\.cta_group::2' 4
need whole_sm100_pair 'tcgen05\.commit\.cta_group::2' 1
if body whole_sm100_pair | grep -E 'cp\.async\.bulk\.tensor' | grep -qv 'cta_group::2'; then
    echo "check_whole_kernel.sh: whole_sm100_pair has a tensor load without .cta_group::2"
    exit 1
fi
# Programmatic dependent launch (issue 46, item 4): the dependent's first global load of its
# primary's output comes after its griddepcontrol.wait.
need whole_pdl_primary 'griddepcontrol\.launch_dependents' 1
need whole_pdl_dependent 'griddepcontrol\.wait' 1
first_wait=$(body whole_pdl_dependent | grep -n 'griddepcontrol\.wait' | head -1 | cut -d: -f1)
first_load=$(body whole_pdl_dependent | grep -n 'ld\.global' | head -1 | cut -d: -f1)
if [ -z "$first_load" ] || [ "$first_load" -lt "$first_wait" ]; then
    echo "check_whole_kernel.sh: whole_pdl_dependent loads its primary's output before griddepcontrol.wait"
    exit 1
fi
# The library's instructions no other kernel issues (issue 43 item 0), so ptxas assembles them.
need whole_ptx_ops 'elect\.sync' 1
need whole_ptx_ops 'cp\.async\.bulk\.tensor\.4d\.shared::cluster\.global\.im2col\.mbarrier::complete_tx::bytes\.multicast::cluster' 1
need whole_ptx_ops 'fence\.proxy\.tensormap::generic\.acquire\.gpu' 1
# The register side (issue 43, item 5): the library's whole-fragment operations and wgmma issue
# in run-time loops; the accumulators stay in registers (check-ptx above: no depot), and each
# kernel keeps its wgmma, its packing and its shuffles.
need whole_regs_fp8_n256 'wgmma\.mma_async\.sync\.aligned\.m64n256k32\.f32\.e4m3\.e4m3' 4
need whole_regs_fp8_n256 'cvt\.rn\.bf16x2\.f32' 64
need whole_regs_fp8_n256 'stmatrix\.sync\.aligned' 16
need whole_regs_attn_bf16_n128 'wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.bf16\.bf16' 12
need whole_regs_attn_bf16_n128 'shfl\.sync\.bfly\.b32' 8
need whole_regs_attn_bf16_n128 'cvt\.rn\.bf16x2\.f32' 32
need whole_regs_attn_bf16_n128 'ex2\.approx\.ftz\.f32' 66
need whole_regs_attn_bf16_n128 'fma\.rn\.f32' 64
need whole_regs_issue_forms 'wgmma\.fence\.sync\.aligned' 3
need whole_regs_issue_forms 'wgmma\.mma_async\.sync\.aligned\.m64n8k8\.f32\.tf32\.tf32' 1
need whole_regs_issue_forms 'wgmma\.mma_async\.sync\.aligned\.m64n96k16\.f32\.f16\.f16' 2
need whole_regs_issue_forms 'wgmma\.mma_async\.sync\.aligned\.m64n200k32\.f32\.e5m2\.e5m2' 1
need whole_regs_issue_forms 'wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16' 1
# Every accumulator type (issue 43, item 1's rest): the f16-accumulator and s8 wgmma GEMMs and
# the mma.sync attention loop in run-time loops (src/regs_types.rs), each keeping its MMAs, its
# shuffles, its packing and its fragment loads, and every other issue form once.
need whole_regs_f16acc_n128 'wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f16\.f16\.f16' 4
need whole_regs_f16acc_n128 'stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16' 8
need whole_regs_s8_n256 'wgmma\.mma_async\.sync\.aligned\.m64n256k32\.s32\.s8\.s8' 4
need whole_regs_s8_n256 'cvt\.rn\.f32\.s32' 128
need whole_regs_s8_n256 'cvt\.rn\.bf16x2\.f32' 64
need whole_regs_mma_sync_attn 'mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32' 64
need whole_regs_mma_sync_attn 'ldmatrix\.sync\.aligned\.m8n8\.x2\.trans\.shared\.b16' 32
need whole_regs_mma_sync_attn 'shfl\.sync\.bfly\.b32' 8
need whole_regs_mma_sync_attn 'cvt\.rn\.bf16x2\.f32' 16
need whole_regs_acc_forms 'wgmma\.mma_async\.sync\.aligned\.m64n8k16\.f16\.f16\.f16' 1
need whole_regs_acc_forms 'wgmma\.mma_async\.sync\.aligned\.m64n96k32\.f16\.e5m2\.e5m2' 1
need whole_regs_acc_forms 'wgmma\.mma_async\.sync\.aligned\.m64n48k32\.s32\.s8\.u8' 1
need whole_regs_acc_forms 'mma\.sync\.aligned\.m16n8k16\.row\.col\.f16\.f16\.f16\.f16' 2
need whole_regs_acc_forms 'mma\.sync\.aligned\.m16n8k32\.row\.col\.s32\.u8\.u8\.s32' 1
need whole_regs_acc_forms 'stmatrix\.sync\.aligned\.m8n8\.x4\.trans' 1
# The negative control: the same two kernels and the s8 GEMM written the old way
# (src/regs_old_way.rs, feature old-way) must be refused: a local depot in each, named a zeroing
# loop and an accumulator.
touch src/lib.rs
if ! RUSTFLAGS="--remap-path-prefix=$root=smemdesc" cargo +nightly rustc --release -Zbuild-std=core \
    --target nvptx64-nvidia-cuda --features old-way --target-dir "$tdir" -- \
    --emit asm=out/old_way.ptx -C target-cpu=sm_90a > out/build_old_way.log 2>&1; then
    cat out/build_old_way.log
    echo "check_whole_kernel.sh: the old-way control did not build"
    exit 1
fi
if (cd "$root" && "${cli[@]}" check-ptx scripts/whole-kernel/out/old_way.ptx > scripts/whole-kernel/out/old_way.txt); then
    echo "check_whole_kernel.sh: check-ptx passed the old-way control (expected three local depots)"
    exit 1
fi
for k in old_regs_fp8_n256 old_regs_attn_bf16_n128 old_regs_s8_n256; do
    if ! grep -A2 "__local_depot[0-9]*: [0-9]* bytes in kernel $k\$" out/old_way.txt | grep -q "why: a zeroing loop" ||
        ! grep -A2 "__local_depot[0-9]*: [0-9]* bytes in kernel $k\$" out/old_way.txt | grep -q "wgmma accumulator m64n"; then
        cat out/old_way.txt
        echo "check_whole_kernel.sh: check-ptx did not name $k's depot a zeroing loop and an accumulator"
        exit 1
    fi
done
echo "  old-way control refused: $(grep -c 'bytes in kernel old_' out/old_way.txt) local depots (zeroing loops, accumulators in memory)"
# Cluster launch control (issue 46, item 5): the request's expect_tx, try_cancel, the wait, and
# the response decoded only after it.
need whole_clc_persistent 'clusterlaunchcontrol\.try_cancel\.async\.shared::cta\.mbarrier::complete_tx::bytes\.b128' 1
need whole_clc_persistent 'clusterlaunchcontrol\.query_cancel\.is_canceled' 1
try_line=$(body whole_clc_persistent | grep -n 'clusterlaunchcontrol\.try_cancel' | head -1 | cut -d: -f1)
query_line=$(body whole_clc_persistent | grep -n 'clusterlaunchcontrol\.query_cancel' | head -1 | cut -d: -f1)
wait_line=$(body whole_clc_persistent | grep -n 'mbarrier\.try_wait' | head -1 | cut -d: -f1)
if [ -z "$wait_line" ] || [ "$wait_line" -lt "$try_line" ] || [ "$query_line" -lt "$wait_line" ]; then
    echo "check_whole_kernel.sh: whole_clc_persistent reads its response before the barrier's wait"
    exit 1
fi
# The cluster-wide form: rank 0 asks with the multicast, every CTA decodes only after its own
# barrier's wait, and arrives on rank 0's empty barrier (a remote arrive) after a canceled one.
need whole_clc_broadcast 'clusterlaunchcontrol\.try_cancel\.async\.shared::cta\.mbarrier::complete_tx::bytes\.multicast::cluster::all\.b128' 1
need whole_clc_broadcast 'clusterlaunchcontrol\.query_cancel\.is_canceled' 2
need whole_clc_broadcast 'mbarrier\.arrive\.shared::cluster' 1
if body whole_clc_broadcast | grep -E 'clusterlaunchcontrol\.try_cancel' | grep -qv 'multicast::cluster::all'; then
    echo "check_whole_kernel.sh: whole_clc_broadcast has a try_cancel without .multicast::cluster::all"
    exit 1
fi
try_line=$(body whole_clc_broadcast | grep -n 'clusterlaunchcontrol\.try_cancel' | head -1 | cut -d: -f1)
query_line=$(body whole_clc_broadcast | grep -n 'clusterlaunchcontrol\.query_cancel' | head -1 | cut -d: -f1)
wait_line=$(body whole_clc_broadcast | grep -n 'mbarrier\.try_wait' | head -1 | cut -d: -f1)
if [ -z "$wait_line" ] || [ "$query_line" -lt "$wait_line" ]; then
    echo "check_whole_kernel.sh: whole_clc_broadcast reads a response before a barrier's wait"
    exit 1
fi
echo "whole-kernel gate: 17 kernels, clean"
