#!/bin/bash
# The im2col driver set (issue 32): one call on the device machine, with the CUDA driver and no
# Rust. The two release binaries are built elsewhere and carried in under $BIN (default .gpu/):
#   cargo build --release -p smemdesc-gpu -p smemdesc-cli
#   mkdir -p .gpu && cp "$CARGO_TARGET_DIR"/release/{smemdesc-gpu,smemdesc} .gpu/
# then, on the device (carry .gpu): OUT=<dir> bash gpu/im2col_run.sh [N] [SEED]
# (N rows, default 30000; SEED the generator's, a u64, default the first set's 2102056935841726514,
# whose rows are in gpu/device-logs/2026-11-27-im2col-set1/: give another for a fresh set)
# Writes to $OUT: im2col_rows.tsv (the generated rows), im2col_driver.tsv (cuTensorMapEncodeIm2col's
# verdict per row), im2col_ours.tsv (smemdesc's, computed in the judge), im2col_cli.tsv (the same
# rows through `smemdesc tensormap check --im2col`: must be byte-identical), im2col_driver_set.json
# and im2col_cli_compare.json ({"rows","agree","unsafe_accepts","stricter","stricter_kinds",...};
# the second from the CLI's verdicts), log.txt. Exit status non-zero on any failure or difference.
set -euo pipefail
BIN=${BIN:-.gpu}
OUT=${OUT:-/tmp/im2col-out}
N=${1:-30000}
SEED=${2:-2102056935841726514}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 || true; } > "$L"
echo "seed $SEED" | tee -a "$L"
timeout 500 "$BIN/smemdesc-gpu" --im2col-seed "$SEED" --im2col-set "$N" --out "$OUT" 2>&1 | tee -a "$L"
ARCH=$(sed -n 's/.*"arch": "\([a-z0-9]*\)".*/\1/p' "$OUT/im2col_driver_set.json")
"$BIN/smemdesc" tensormap check --im2col "$OUT/im2col_rows.tsv" --arch "$ARCH" > "$OUT/im2col_cli.tsv"
cmp "$OUT/im2col_cli.tsv" "$OUT/im2col_ours.tsv" | tee -a "$L"
echo "CLI verdicts identical to the judge's ($ARCH)" | tee -a "$L"
"$BIN/smemdesc-gpu" --im2col-compare "$OUT/im2col_rows.tsv" "$OUT/im2col_cli.tsv" \
    "$OUT/im2col_driver.tsv" "$ARCH" | tee "$OUT/im2col_cli_compare.json" | tee -a "$L"
