#!/usr/bin/env bash
# Issue 47's re-measure after this stop's changes, as two device calls over .gpu-rust/ (carry it).
# Staging here (the machine with Rust):
#   bash gpu/rust-kernel/prepare_device_run.sh && bash gpu/attention_prepare.sh
#   and, from a checkout of the recorded commit built the same way, .gpu-rust/before/ with
#   attn.ptx, libbefore.so (its libsmemdesc_rust_kernels.so under another name: one library
#   state each in one process), kernels.ptx and rust_kernels; cp gpu/*_same_process.py .gpu-rust/
# On the GPU machine: bash gpu/remeasure_run.sh attn   (attention, new against before in the
# same rounds, O and LSE compared bit for bit), then bash gpu/remeasure_run.sh gemms
# (the TMA-epilogue/cluster GEMMs after/before in one process; the grouped GEMM with
# torch._grouped_mm in one process, new then before). Results under $OUT.
# Which entries changed: entries whose PTX text differs from the recorded commit's (this stop:
# the attention, epilogue/cluster, convolution and grouped kernels; examples/kernel, the dense
# GEMMs and pdl_step are byte-identical).
set -u
cd "$(dirname "$0")/../.gpu-rust"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
case "${1:-attn}" in
attn)
    ptxas -arch=sm_90a before/attn.ptx -o before/attn.cubin
    (cd attn && BEFORE_LIB=$PWD/../before/libbefore.so BEFORE_PTX=$PWD/../before/attn.cubin \
        FULL_TIMEOUT=450 OUT=$O/attn bash attention_device_run.sh "${ROUNDS:-5}")
    ;;
gemms)
    mkdir -p "$O/epi"
    timeout 200 ./rust_kernels --ptx kernels.ptx --out "$O/epi" --pipeline-before before/kernels.ptx \
        --rounds "${ROUNDS:-5}" > "$O/epi.txt" 2>&1; echo "epi rc $?"; tail -12 "$O/epi.txt"
    for v in new before; do
        if [ $v = new ]; then lib=$PWD/attn/libsmemdesc_rust_kernels.so; ptx=kernels.ptx
        else lib=$PWD/before/libbefore.so; ptx=before/kernels.ptx; fi
        timeout 150 python3 grouped_same_process.py "$lib" "$ptx" "$O/grouped_$v" "${ROUNDS:-5}" \
            > "$O/grouped_$v.txt" 2>&1; echo "grouped $v rc $?"; tail -12 "$O/grouped_$v.txt"
    done
    ;;
esac
