#!/usr/bin/env bash
# Regenerates tests/generated/macro_cases.rs (golden tiles + a grid of legal declarations, pushed
# through #[smem_tile] by tests/macro_consts.rs). Reads the golden copy in tests/data/golden.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --test gen_macro_cases -- --ignored --exact regenerate
