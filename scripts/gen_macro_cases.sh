#!/usr/bin/env bash
# Regenerates generated/tests/cases/macro_cases.rs (golden tiles + a grid of legal declarations,
# pushed through #[smem_tile] by generated/tests/cases/macro_consts.rs). Reads the golden copy in
# tests/data/golden.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p smemdesc-generated-tests --test gen_macro_cases -- --ignored --exact regenerate
