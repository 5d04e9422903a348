#!/usr/bin/env bash
# Issue 47 run 4, the 1x1 1024->256 convolution's gap: the overlapped-epilogue convolutions of
# gpu/rust-kernel/src/conv_ov.rs and conv_ov128.rs (gemm_conv_ov_rust, _ov_cl21_rust, _ov2_rust,
# _ov_n128_rust) beside the recorded ones (gemm_conv_fprop_rust, _n128_rust, _cl21_rust) and
# cuDNN in the same rounds of one process (gpu/conv_same_process.py), from the staged .gpu-rust/
# layout. One device call (carry [".gpu-rust"]), about 2-3 minutes, every step under `timeout`:
#
#   staging, here:  bash gpu/rust-kernel/prepare_device_run.sh && bash gpu/rust-kernels-lib/build.sh
#   on the GPU:     bash gpu/conv_overlap_run.sh [ROUNDS]   (default 9 for the 1x1 layers)
#
# Steps: ptxas on the staged PTX (one cubin for every process; the conv entries' registers,
# frame, spills, C75xx); a smoke
# process without torch (the 1x1 1024->256 layer, 1 round: every kernel's exactness and the
# watchdog flag, so a fault or hang costs only this step); then with cuDNN: the three 1x1
# layers (SMEMDESC_CONV_LAYERS=4,5,6, ROUNDS rounds), then all 8 layers (7 rounds). Results
# under $OUT (6 files): log.txt, ptxas.txt, smoke.json, conv_1x1.json, conv_all.json,
# summary.txt. A kernel that never finishes is ended by `timeout` (the kernels' mbarrier waits
# are bounded themselves: watchdog_flag 1 in the record).
set -u
cd "$(dirname "$0")/.."
G=$PWD/.gpu-rust
O=${OUT:-/tmp/out}
mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH
export PYTHONUNBUFFERED=1
R=${1:-9}
L=$O/log.txt
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
    python3 -c 'import torch; print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version())'
    ls -la "$G"
} > "$L" 2>&1
# The module assembled once (the driver would JIT it in every process): the conv entries'
# registers, frame, spills and C75xx codes from its -v output.
M=$G/kernels.ptx
if timeout 120 ptxas -arch=sm_90a -v "$M" -o /tmp/conv_kernels.cubin > /tmp/conv_ptxas.txt 2>&1; then
    M=/tmp/conv_kernels.cubin
fi
for k in gemm_conv_fprop_rust gemm_conv_cl21_rust gemm_conv_n128_rust gemm_conv_ov_rust \
    gemm_conv_ov_cl21_rust gemm_conv_ov2_rust gemm_conv_ov_n128_rust; do
    echo "$k: $(grep -A3 "entry function '$k'" /tmp/conv_ptxas.txt | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes stack frame|[0-9]+ bytes spill stores, [0-9]+ bytes spill loads' | paste -sd ', ')"
    grep -E "C75[0-9]+.*'$k'" /tmp/conv_ptxas.txt
done > "$O/ptxas.txt" 2>&1
echo "module: $M" >> "$O/ptxas.txt"
cat "$O/ptxas.txt" >> "$L"
mkdir -p /tmp/conv_smoke /tmp/conv_1x1 /tmp/conv_all
SMEMDESC_CONV_LAYERS=4 timeout 60 "$G/rust_kernels" --ptx "$M" --conv \
    --out /tmp/conv_smoke --rounds 1 >> "$L" 2>&1
echo "smoke rc $?" >> "$L"
cp /tmp/conv_smoke/conv_results.json "$O/smoke.json" 2>/dev/null
# The smoke must show every timed kernel exact with no watchdog flag before the long runs.
ok=$(python3 - "$O/smoke.json" <<'PY' 2>> "$L"
import json, sys
row = json.load(open(sys.argv[1]))["conv"][0]
v = row["variants"]
print(int(all(k["mismatches"] == 0 and k["watchdog_flag"] == 0 for k in v.values())
          and row["control_channel_blocks_reversed_mismatches"] > 0))
PY
)
echo "smoke ok: ${ok:-0}" >> "$L"
if [ "${ok:-0}" = 1 ]; then
    timeout 80 python3 gpu/conv_same_process.py \
        "$G/libsmemdesc_rust_kernels.so" "$M" /tmp/conv_1x1 "$R" --layers 4,5,6 >> "$L" 2>&1
    echo "1x1 rc $?" >> "$L"
    cp /tmp/conv_1x1/conv_results.json "$O/conv_1x1.json" 2>/dev/null
    timeout 140 python3 gpu/conv_same_process.py \
        "$G/libsmemdesc_rust_kernels.so" "$M" /tmp/conv_all 7 >> "$L" 2>&1
    echo "all rc $?" >> "$L"
    cp /tmp/conv_all/conv_results.json "$O/conv_all.json" 2>/dev/null
fi
python3 - "$O" <<'PY' > "$O/summary.txt" 2>&1
import json, os, sys
o = sys.argv[1]
for name in ("smoke", "conv_1x1", "conv_all"):
    p = os.path.join(o, name + ".json")
    if not os.path.exists(p):
        print(name, "missing")
        continue
    for r in json.load(open(p)).get("conv", []):
        if "error" in r:
            print(name, r["layer"], "error", r["error"])
            continue
        ov = r.get("overlap") or {}
        print(f'{name} | {r["layer"]} | {r["ours_kernel"]} {r["ours_median_tflops"]} '
              f'(again {r.get("ours_again_median_tflops")}) | cuDNN {r.get("cudnn_median_tflops")} '
              f'| ours/cuDNN {r.get("ours_over_cudnn")} | {ov.get("kernel")} {ov.get("median_tflops")} '
              f'/cuDNN {ov.get("over_cudnn")} /ours {ov.get("over_ours")} '
              f'mism {ov.get("mismatches_vs_cublaslt_on_naive_im2col")} flag {ov.get("watchdog_flag")}')
        for k, v in r["variants"].items():
            print(f'    {k}: {v["median_tflops"]} mism {v["mismatches"]} flag {v["watchdog_flag"]}')
PY
cat "$O/summary.txt"
tail -5 "$L"
