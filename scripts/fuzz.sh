#!/usr/bin/env bash
# Runs the deterministic fuzzers of fuzz/ (a crate of its own, outside `cargo test --workspace`):
# the #[smem_tile]/smem_plan! argument parser on proc_macro2 token streams, SmemDescriptor decode,
# the smemdesc CLI's argument parsing, and the hostile-input targets (#[smem_pipeline]'s
# arguments, the grouped declaration, the conv plan, tensormap check, check-ptx, header --from).
# Each target gets N inputs (default 100000) from SEED; prints per target the count, failures and
# the outcome spread, and exits 1 if any input failed.
#
#   scripts/fuzz.sh [N] [SEED] [TARGET]     TARGET: macro-args | descriptor | cli | pipeline-args |
#                                           grouped | conv | tensormap | check-ptx | header-from |
#                                           all (default)
# FUZZ_PROFILE=dev builds without optimisation (the same overflow checks and debug assertions as
# fuzz/'s release profile): what CI's 2000-input smoke round uses, where building the optimised
# binary took longer than the inputs.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
N="${1:-100000}"
SEED="${2:-24301}"
TARGET="${3:-all}"
profile="${FUZZ_PROFILE:-release}"
cargo build --profile "$profile" --quiet --target-dir target
dir=$profile; [ "$profile" = dev ] && dir=debug
"./target/$dir/smemdesc-fuzz" "$TARGET" "$N" "$SEED"
