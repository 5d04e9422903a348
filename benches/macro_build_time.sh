#!/usr/bin/env bash
# Build-time cost of #[smem_tile]: generates two crates that differ only in 100 distinct tile
# declarations (crate `with_tiles` declares them with #[smem_tile] and uses one descriptor of each
# in a `static`, a compile-time evaluation of every tile's `desc`; `PLAN` itself is evaluated only
# where it is used, which here is nowhere; crate `without_tiles` has the same
# 100 plain unit structs and a zero table), warms the dependencies, then times rebuilding each
# crate alone (touch + cargo build / cargo check), best of N runs: wall time and CPU time (user +
# sys of cargo and rustc; on a shared machine the CPU time is the steadier number).
# Modes: `check` and `build` rebuild with cargo's default incremental cache (the file is touched,
# not changed: what an unrelated edit elsewhere in the crate costs); `build-full` sets
# CARGO_INCREMENTAL=0, so the crate is compiled from scratch every time (a fresh clone, CI, or an
# edit that invalidates the items).
#
# Usage: benches/macro_build_time.sh [runs=5]        (not a test: prints numbers)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RUNS=${1:-5}
WORK=${BENCH_DIR:-$ROOT/target/macro-bench}
N=100
rm -rf "$WORK"; mkdir -p "$WORK"

archs=(sm90 sm100)
dtypes=(bf16 f16 e4m3 tf32 s8)
bytes=(2 2 1 4 1)          # element bytes of dtypes[]
mns=(64 128 256)
kbytes=(64 128)
operands=(A B)

gen() { # $1 = crate name, $2 = with|without
    local dir="$WORK/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
smemdesc = { path = "$ROOT" }

[workspace]
TOML
    {
        echo '#![no_std]'
        echo '#![allow(dead_code)]'
        [ "$2" = with ] && echo 'use smemdesc::smem_tile;'
        local i=0 table=""
        while [ $i -lt $N ]; do
            local a=$((i % 2)) d=$(((i / 2) % 5)) m=$(((i / 10) % 3)) k=$(((i / 30) % 2)) o=$(((i / 60) % 2))
            local maxst=$((232448 / (mns[m] * kbytes[k]))); [ $maxst -gt 4 ] && maxst=4
            local st=$((1 + i % maxst))
            local tile_k=$((kbytes[k] / bytes[d]))
            if [ "$2" = with ]; then
                echo "#[smem_tile(arch = ${archs[a]}, operand = ${operands[o]}, dtype = ${dtypes[d]}, tile = (${mns[m]}, $tile_k), major = K, stages = $st)]"
                table+="T$i::desc(0, 0, 1, 0), "
            else
                table+="0, "
            fi
            echo "pub struct T$i;"
            i=$((i + 1))
        done
        echo "pub static DESCS: [u64; $N] = [$table];"
    } > "$dir/src/lib.rs"
}
gen with_tiles with
gen without_tiles without

export CARGO_TARGET_DIR="$WORK/target"
TIMEFORMAT='%R %U %S'
best() { # $1 = crate, $2 = check|build|build-full -> "wall cpu": best of $RUNS rebuilds (s)
    local dir="$WORK/$1" cmd=$2 env=()
    [ "$cmd" = build-full ] && { cmd=build; env=(CARGO_INCREMENTAL=0); }
    # warm deps and this crate (fails loudly)
    (cd "$dir" && env "${env[@]}" cargo "$cmd" -q) >&2
    local bw="" bc=""
    for _ in $(seq "$RUNS"); do
        touch "$dir/src/lib.rs"
        local r w u s c
        r=$( { time (cd "$dir" && env "${env[@]}" cargo "$cmd" -q >"$WORK/cargo.log" 2>&1); } 2>&1 )
        read -r w u s <<<"$r"
        c=$(echo "$u + $s" | bc -l)
        if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" = 1 ]; then bw=$w; fi
        if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" = 1 ]; then bc=$c; fi
    done
    echo "$bw $bc"
}

echo "rustc: $(rustc --version)"
echo "tiles: $N distinct #[smem_tile] declarations, best of $RUNS rebuilds (deps warm)"
printf '%-10s %12s %12s %10s %14s %14s\n' mode "without (s)" "with (s)" "added (s)" "per tile (ms)" "CPU/tile (ms)"
for mode in check build build-full; do
    read -r wo wo_c <<<"$(best without_tiles $mode)"
    read -r wi wi_c <<<"$(best with_tiles $mode)"
    add=$(echo "$wi - $wo" | bc -l)
    per=$(echo "1000 * $add / $N" | bc -l)
    per_c=$(echo "1000 * ($wi_c - $wo_c) / $N" | bc -l)
    printf '%-10s %12.3f %12.3f %10.3f %14.2f %14.2f\n' "$mode" "$wo" "$wi" "$add" "$per" "$per_c"
done
