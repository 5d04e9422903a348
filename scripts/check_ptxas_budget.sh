#!/usr/bin/env bash
# The ptxas budget (issue 44): every PTX module the project builds, assembled entry by entry with
# the pinned ptxas (`ptxas -v`, for the arch of each entry's budget line), held to
# gpu/ptxas-budget.tsv: registers, stack frame, spill bytes, allowed ptxas warnings (C75xx) with
# the reason (scripts/ptxas_budget.py says how it compares). Then the gate's own test: a small
# hand-written module with a frame, a spill and an ignored setmaxnreg must fail it
# (scripts/test_ptxas_budget.py).
#
# Run after the PTX builds (.ci/run: examples/kernel/build.sh, check_kernel_asm.sh,
# check_whole_kernel.sh, gpu/tmem-skeleton/build_ptx.sh); without nightly + rust-src those were
# skipped, and so are their modules here (the committed gpu/gather4 module and the test still run).
# SKIPs as a whole only when ptxas cannot be installed (scripts/ptxas_tools.sh: PyPI's wheel).
#
#   bash scripts/check_ptxas_budget.sh            # check
#   bash scripts/check_ptxas_budget.sh --update   # rewrite the budget from what ptxas reports now
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# gpu/rust-kernel's attention entries as the host loads them: out/attn.ptx (attn_ptx.sh: the
# attn_* entries with the .maxntid / .minnctapersm build_ptx.sh gave them), cut from the
# out/kernels.ptx that check_kernel_asm.sh built (before PTXAS is set: the budget below
# assembles it).
if [ -s gpu/rust-kernel/out/kernels.ptx ]; then
    env -u PTXAS bash gpu/rust-kernel/attn_ptx.sh
fi
. scripts/ptxas_tools.sh
if ! ptxas_tools; then
    echo "SKIP ptxas budget: ptxas could not be installed: $PTXAS_TOOLS_WHY"
    exit 0
fi
echo "ptxas: $("$PTXAS" --version | tail -n 2 | head -n 1) ($PTXAS)"

missing=()
if ! cargo +nightly --version > /dev/null 2>&1 ||
    [ ! -d "$(rustc +nightly --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library/core" ]; then
    echo "SKIP ptxas budget of the built modules: nightly with rust-src is not installed (their builds were skipped)"
    missing=(--allow-missing)
fi
# The modules: (path[:options]); ptxas_budget.py fails on a built entry with no budget line and
# on a budget line whose entry is gone.
#  - kernels.ptx: the GEMM, check, conv, reduce, grouped kernels; its attn_* entries, bounded
#    as in attn.ptx (the same lines: build_ptx.sh), are checked there;
#  - whole.ptx: one sm_90a module as a user's crate writes it, with the sm_100a kernel beside the
#    Hopper ones (tcgen05, and fence.proxy.tensormap needs PTX 8.3 where LLVM wrote 8.0): each
#    entry is assembled for its budget line's arch.
modules=(
    examples/kernel/out/gemm_tile.ptx
    scripts/ptx-check/out/access.ptx
    gpu/rust-kernel/out/kernels.ptx:skip=attn_
    gpu/rust-kernel/out/attn.ptx
    scripts/whole-kernel/out/whole.ptx:retarget
    gpu/tmem-skeleton/out/tmem_skeleton.ptx
    gpu/gather4/gather4_scatter4_sm100a.ptx
)
if [ "${1:-}" = "--update" ]; then
    python3 scripts/ptxas_budget.py --update "${missing[@]}" "${modules[@]}"
    exit
fi
python3 scripts/ptxas_budget.py "${missing[@]}" "${modules[@]}"
python3 scripts/test_ptxas_budget.py
