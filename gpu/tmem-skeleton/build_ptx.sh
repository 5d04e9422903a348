#!/usr/bin/env bash
# Builds the Tensor Memory skeleton into out/tmem_skeleton.ptx for sm_100a (nightly + rust-src,
# like gpu/rust-kernel/build_ptx.sh) and, when ptxas is found ($PTXAS or on PATH), assembles it
# with -arch=sm_100a. Prints the tcgen05.ld count and shapes.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
rm -f out/tmem_skeleton.ptx
touch src/lib.rs
# SMEMDESC_NVPTX_TARGET_DIR: one target directory for every nvptx64 build (.ci/run sets it).
if ! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
    --target-dir "${SMEMDESC_NVPTX_TARGET_DIR:-${CARGO_TARGET_DIR:-target}}" -- \
    --emit asm=out/tmem_skeleton.ptx -C target-cpu=sm_100a -C target-feature=+ptx86 > out/build.log 2>&1; then
    cat out/build.log
    echo "build_ptx.sh: the skeleton did not build"
    exit 1
fi
test -s out/tmem_skeleton.ptx
grep -m2 -E '^\.(version|target)' out/tmem_skeleton.ptx
echo "tcgen05.ld: $(grep -c 'tcgen05.ld.sync' out/tmem_skeleton.ptx) ($(grep -oE 'tcgen05\.ld\.sync\.aligned\.[0-9a-z.]+' out/tmem_skeleton.ptx | sort | uniq -c | tr -s ' ' | paste -sd ','))"
for op in tcgen05.alloc tcgen05.cp tcgen05.mma tcgen05.commit tcgen05.dealloc; do
    echo "$op: $(grep -c "$op" out/tmem_skeleton.ptx)"
done
PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_100a -v out/tmem_skeleton.ptx -o out/tmem_skeleton.cubin
    echo "ptxas -arch=sm_100a: ok"
else
    echo "ptxas not found: PTX built, not assembled"
fi
