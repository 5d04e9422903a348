#!/usr/bin/env bash
# Build-time cost of every declaration macro, from scratch (issue 28 item 9). For each kind —
# `#[smem_tile]`, `#[smem_epilogue_tile]`, `#[smem_fragment_tile]`, `#[smem_scale_tile]`,
# `#[smem_storage]`, `#[smem_mma]` (a module of two tiles; `mma_tiles` is the same module without
# the attribute, so the pairing's own cost is their difference) and `smem_plan!` — generates a crate
# of N distinct declarations, each used once in a constant (so whatever the const evaluator does
# for it is paid), and a baseline crate of N plain unit structs used the same way; warms the
# dependencies; then builds each crate alone from scratch (`cargo clean -p`, CARGO_INCREMENTAL=0),
# best of R runs. Prints milliseconds per declaration: (kind - baseline) / N.
#
# Usage: benches/decl_build_time.sh [runs=3] [n=30]     (not a test: prints numbers)
#
# Measured (rustc 1.95.0, this repository's 2-core machine, N = 30, ms per declaration from
# scratch, best of 7, median of 3 such runs; wall time here varies by +-1 ms between runs, so
# changes were judged by rustc's instruction counts under callgrind as well):
#   kind        448e589   2026-11-27 a.m.   2026-11-27 p.m.   rustc instructions (30 decls)
#   tile          4.0       4.1               2.5               554 M -> 379 M
#   epilogue    576.2       2.5               2.4
#   fragment      4.3       4.4               2.7               1083 M -> 470 M
#   scale          -        2.0               2.0
#   storage        -        4.6               3.5               532 M -> 496 M
#   mma            -       11.3               5.9 (two tiles + the pairing: ~0.9 over the tiles)
#   plan           -        3.7               0.9               589 M -> 204 M
# Storage, later (2f1c9c0: a tile member read through its tile's BYTES/ALIGN/ARCH, the numbers as
# fields of one tuple constant, no zero-size check on arrays of scalars/Mbarrier, fixed doc
# strings built once in the proc macro): 496 M -> 434 M rustc instructions (30 storages);
# wall 2.9 / 3.0 / 3.3 / 3.8 ms per declaration in 4 runs against 3.2 / 3.5 / 4.0 / 4.6 before,
# on a machine shared with other builds; rustc alone, best of 25 interleaved: 3.46 -> 2.83 ms.
# What is left is ~20 items per storage (a barrier array and a tile member), each a constant
# the compiler evaluates or an accessor it checks. Over 3 ms: mma (two tiles + the pairing).
# Later (2026-11-27 evening, 3 runs of `7 30`, idle; min-median-max): tile 2.2-2.5-2.6,
# epilogue 1.6-1.8-1.8, fragment 2.2-2.6-3.2, scale 1.4-1.6-1.8, storage 2.7-2.9-3.1,
# plan 0.8-0.9-1.2; the `#[smem_mma]` module 6.7-6.7-6.9 ms for its three declarations, of which
# the attribute itself (mma - mma_tiles) 1.8-2.0-2.2.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RUNS=${1:-3}
N=${2:-30}
WORK=${BENCH_DIR:-$ROOT/target/decl-bench}
rm -rf "$WORK"
mkdir -p "$WORK"

# decl KIND I: one declaration number I of KIND and the expression that uses it.
decl() {
    local k=$1 i=$2 mn=$((64 * (1 + $2 % 4))) s=$((1 + $2 / 4))
    case $k in
    base)
        echo "pub struct D$i;"
        echo "pub const U$i: u32 = $i;"
        ;;
    tile)
        echo "#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = ($mn, 64), major = K, stages = $s)]"
        echo "pub struct D$i;"
        echo "pub const U$i: u32 = D$i::desc(0, 0, 0, 0) as u32;"
        ;;
    epilogue)
        echo "#[smem_epilogue_tile(dtype = bf16, tile = ($mn, 64), wgmma_n = 256, stages = $s, writer = stmatrix_x4, reader = tma_store)]"
        echo "pub struct D$i;"
        echo "pub const U$i: u32 = D$i::writer_offset(0, 1, 2, 17);"
        ;;
    fragment)
        echo "#[smem_fragment_tile(arch = sm90, mma = m16n8k16, dtype = bf16, operand = A, tile = ($mn, $((32 * s))), reader = ldmatrix_x4, writer = cp_async)]"
        echo "pub struct D$i;"
        echo "pub const U$i: u32 = D$i::ldmatrix_offset(1, 17);"
        ;;
    scale)
        echo "#[smem_scale_tile(kind = mxf4, operand = A, tile = ($((128 * (1 + $2 % 2))), $((128 * s))))]"
        echo "pub struct D$i;"
        echo "pub const U$i: u32 = D$i::BYTES as u32;"
        ;;
    storage)
        echo "#[smem_storage(arch = sm90)]"
        echo "pub struct D$i { bar: [Mbarrier; $((i + 1))], a: Shared }"
        echo "pub const U$i: u32 = D$i::LAUNCH_BYTES;"
        ;;
    mma | mma_tiles)
        # mma_tiles: the same module without `#[smem_mma]`, so that mma - mma_tiles is what the
        # pairing itself costs.
        if [ "$k" = mma ]; then echo "#[smem_mma(accum = f32)]"; fi
        echo "pub mod d$i {"
        echo "    use smemdesc::smem_tile;"
        echo "    #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = ($mn, 64), major = K, mma = m64n128k16, stages = $s)]"
        echo "    pub struct A;"
        echo "    #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (128, 64), major = K, mma = m64n128k16, stages = $s)]"
        echo "    pub struct B;"
        echo "}"
        # Both use the tiles alike; mma adds the pairing's constant.
        local use="d$i::A::desc(0, 0, 0, 0) as u32 ^ d$i::B::desc(0, 0, 0, 0) as u32"
        if [ "$k" = mma ]; then use="$use ^ d$i::MNEMONIC.len() as u32"; fi
        echo "pub const U$i: u32 = $use;"
        ;;
    plan)
        echo "pub struct D$i;"
        echo "pub const P$i: smemdesc::TilePlan = smemdesc::smem_plan! { arch = sm90, operand = A, dtype = bf16, tile = ($mn, 64), major = K, stages = $s };"
        echo "pub const U$i: u32 = P$i.tile.bytes();"
        ;;
    esac
}

gen() { # $1 = kind
    local dir="$WORK/k_$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "k_$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
smemdesc = { path = "$ROOT" }

[workspace]
TOML
    {
        echo '#![no_std]'
        echo '#![allow(dead_code, unused_imports)]'
        echo 'use smemdesc::prelude::*;'
        echo 'use smemdesc::{smem_epilogue_tile, smem_fragment_tile, smem_scale_tile};'
        # The one tile every storage holds (in every crate, so the baseline pays it too).
        echo '#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]'
        echo 'pub struct Shared;'
        local i=0 sum="0"
        while [ "$i" -lt "$N" ]; do
            decl "$1" "$i"
            sum="$sum + U$i"
            i=$((i + 1))
        done
        echo "pub const SUM: u32 = $sum;"
    } > "$dir/src/lib.rs"
}

kinds=(base tile epilogue fragment scale storage mma mma_tiles plan)
for k in "${kinds[@]}"; do gen "$k"; done
export CARGO_TARGET_DIR="$WORK/target" CARGO_INCREMENTAL=0
for k in "${kinds[@]}"; do
    (cd "$WORK/k_$k" && cargo build -q 2>&1) || { echo "k_$k does not build"; exit 1; }
done

best() { # $1 = kind: best wall time of RUNS from-scratch builds of the crate alone, in ms
    local b=""
    for _ in $(seq "$RUNS"); do
        (cd "$WORK/k_$1" && cargo clean -q -p "k_$1")
        local t0 t1
        t0=$(date +%s%N)
        (cd "$WORK/k_$1" && cargo build -q)
        t1=$(date +%s%N)
        local ms=$(((t1 - t0) / 1000000))
        if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
    done
    echo "$b"
}

base=$(best base)
echo "baseline ($N unit structs): $base ms"
declare -A ms
for k in "${kinds[@]:1}"; do
    t=$(best "$k")
    ms[$k]=$t
    echo "$k: $t ms for $N declarations, $(awk -v t="$t" -v b="$base" -v n="$N" 'BEGIN { printf "%.1f", (t - b) / n }') ms per declaration"
done
# A `#[smem_mma]` module is three declarations: the pairing and its two tiles.
echo "smem_mma alone (mma - mma_tiles): $(awk -v t="${ms[mma]}" -v b="${ms[mma_tiles]}" -v n="$N" 'BEGIN { printf "%.1f", (t - b) / n }') ms per declaration"
