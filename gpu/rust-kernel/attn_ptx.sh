#!/usr/bin/env bash
# The attention kernels alone (issue 31): out/attn.ptx, the entries `attn_*` of out/kernels.ptx
# (built by build_ptx.sh, which gives each its launch bounds: `.maxntid 384, 1, 1`, or for the
# kernels without a producer warpgroup (`_ns_`) `.maxntid 256, 1, 1` and `.minnctapersm 2`) with
# the module header. A smaller module than the whole crate's: the driver JIT-compiles only these.
# Then, where ptxas is found, assembles it for sm_90a and summarises registers, spills and warnings.
set -euo pipefail
cd "$(dirname "$0")"
test -s out/kernels.ptx
awk '
  /^\.visible \.entry / { seen = 1; keep = ($3 ~ /^attn_/) }
  !seen { print; next }
  keep { print }
' out/kernels.ptx > out/attn.ptx
echo "out/attn.ptx: $(grep -c '^\.visible \.entry' out/attn.ptx) kernels, $(wc -c < out/attn.ptx) bytes"
PTXAS=${PTXAS:-$(command -v ptxas || true)}
if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90a -v out/attn.ptx -o out/attn.cubin > out/attn_ptxas.txt 2>&1 || { cat out/attn_ptxas.txt; exit 1; }
    grep -iE "warning|error" out/attn_ptxas.txt || true
    for k in $(grep -oE '^\.visible \.entry attn_[a-z0-9_]*' out/attn.ptx | awk '{print $3}'); do
        echo "$k: $(grep -A3 "entry function '$k'" out/attn_ptxas.txt | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores, [0-9]+ bytes spill loads|[0-9]+ bytes stack frame' | paste -sd ', ')"
    done
fi
