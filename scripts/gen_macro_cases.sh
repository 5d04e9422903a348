#!/usr/bin/env bash
# Regenerates tests/generated/macro_cases.rs (golden tiles + a grid of legal declarations, pushed
# through #[smem_tile] by tests/macro_consts.rs). Needs ../shared/golden beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --test gen_macro_cases -- --ignored --exact regenerate
