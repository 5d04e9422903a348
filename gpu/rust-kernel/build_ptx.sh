#!/usr/bin/env bash
# Builds the Rust kernels into one PTX module, out/kernels.ptx, and (when ptxas is found: $PTXAS,
# or ptxas on PATH) assembles it for sm_90a and summarises registers, spills and the SASS.
#
# Needs the nightly toolchain with rust-src (rust-toolchain.toml; `rustup component add rust-src
# llvm-tools --toolchain nightly`). Default flags otherwise: no LTO, no -Z inlining flags.
# -C target-feature=+ptx83 makes LLVM write `.version 8.3` (fence.proxy.tensormap needs PTX 8.3).
#
# One post-processing step: Rust has no attribute for PTX's `.maxntid`, so the launch bounds are
# added here, the one place for every entry a host loads from this module (the harness, and the
# kernels crate's launchers): the GEMM-family entries (`gemm_*_rust`, the convolutions included)
# and the attention entries with a producer warpgroup get `.maxntid 384, 1, 1` (ptxas then
# budgets 168 registers per thread, as CUDA's __launch_bounds__(384, 1) does, and setmaxnreg
# redistributes them); the attention entries without one (`_ns_`) `.maxntid 256, 1, 1` and
# `.minnctapersm 2` (two CTAs per SM: 128 registers). Unbounded, the driver's JIT may give a
# 384-thread entry more registers than an SM has for it (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
# the kernels crate's d128 attention launch, 2026-12-07). attn_ptx.sh cuts the attention entries
# out of the bounded module.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
rm -f out/kernels.raw.ptx out/kernels.ptx
touch src/lib.rs # cargo skips rustc (and so --emit) when it thinks the crate is fresh
# SMEMDESC_NVPTX_TARGET_DIR: one target directory for every nvptx64 build (.ci/run sets it).
if ! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
    --target-dir "${SMEMDESC_NVPTX_TARGET_DIR:-${CARGO_TARGET_DIR:-target}}" -- \
    --emit asm=out/kernels.raw.ptx -C target-cpu=sm_90a -C target-feature=+ptx83 > out/build.log 2>&1; then
    cat out/build.log
    echo "build_ptx.sh: the kernel crate did not build"
    exit 1
fi
test -s out/kernels.raw.ptx
awk '
  /^\.visible \.entry / {
    name = $3; sub(/\(.*/, "", name); bound = ""
    if (name ~ /^gemm_[a-z0-9_]*_rust$/) bound = ".maxntid 384, 1, 1"
    else if (name ~ /^attn_/) bound = (name ~ /_ns_/) ? ".maxntid 256, 1, 1\n.minnctapersm 2" : ".maxntid 384, 1, 1"
  }
  { print }
  bound != "" && /^\)$/ { print bound; bound = "" }
' out/kernels.raw.ptx > out/kernels.ptx
echo "out/kernels.ptx: $(grep -c '^\.visible \.entry' out/kernels.ptx) kernels, $(wc -c < out/kernels.ptx) bytes"

PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90a -v out/kernels.ptx -o out/kernels.cubin > out/ptxas.txt 2>&1
    for k in gemm_bf16_rust gemm_fp8_rust gemm_epi_rust gemm_cl21_rust gemm_cl12_rust; do
        echo "$k: $(grep -A3 "entry function '$k'" out/ptxas.txt | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores, [0-9]+ bytes spill loads' | paste -sd ', ')"
    done | tee out/ptxas_summary.txt
    DIS=${CUOBJDUMP:-$(command -v cuobjdump || true)}
    if [ -n "$DIS" ]; then
        for k in gemm_bf16_rust gemm_fp8_rust; do
            "$DIS" -sass -fun "$k" out/kernels.cubin > "out/$k.sass" 2>/dev/null
            echo "$k SASS: $(grep -c 'HGMMA' "out/$k.sass") HGMMA, $(grep -c 'QGMMA' "out/$k.sass") QGMMA, $(grep -c 'UTMALDG' "out/$k.sass") UTMALDG, $(grep -cE '\b(LDL|STL)\b' "out/$k.sass") LDL/STL, $(grep -c 'SYNCS' "out/$k.sass") SYNCS"
        done | tee -a out/ptxas_summary.txt
        "$DIS" -sass out/kernels.cubin 2>/dev/null | grep -oE '\b(HGMMA|QGMMA|UTMALDG)\.[A-Z0-9x.]*' | sort | uniq -c | sort -rn > out/sass_all.txt
    fi
else
    echo "ptxas not found (set PTXAS): PTX not assembled here; the CUDA driver JIT-compiles it"
fi
