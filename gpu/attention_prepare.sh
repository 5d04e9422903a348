#!/usr/bin/env bash
# Builds what the attention measurement (issue 31) needs on a machine with the CUDA driver and no
# Rust, into DEST (default .gpu-rust/attn, git-ignored): the attention kernels' PTX
# (rust-kernel/build_ptx.sh, then rust-kernel/attn_ptx.sh), the `rust_kernels` program as a shared
# library (rust-kernels-lib/build.sh), the Python driver and the device script. There:
#   bash DEST/attention_device_run.sh 7     # results under $OUT (or /tmp/out)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$(mkdir -p "${1:-$here/../.gpu-rust/attn}" && cd "${1:-$here/../.gpu-rust/attn}" && pwd)"
bash "$here/rust-kernel/build_ptx.sh"
bash "$here/rust-kernel/attn_ptx.sh"
bash "$here/rust-kernels-lib/build.sh" "$dest"
cp "$here/rust-kernel/out/attn.ptx" "$here/attention_same_process.py" \
    "$here/attention_device_run.sh" "$dest/"
echo "$dest: $(ls "$dest" | paste -sd ' ')"
