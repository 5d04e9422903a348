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
#        MACRO_BENCH_IR=1 benches/macro_build_time.sh  (also instruction counts, see the end)
#
# Before/after (issue 20 item 5; rustc 1.95.0 on this repository's 2-core machine, shared with
# other sessions, so times move by 10-30 % from run to run; the instruction counts repeat to 0.1 %):
#   per declaration              ac2856e      b009d27      this change
#   instructions, check          13.11 M      11.66 M       7.19 M
#   instructions, build          13.53 M      12.00 M       7.51 M
#   instructions, build-full     33.19 M      19.85 M      14.78 M
#   wall ms, build (best of 3)   4.47         3.27-3.65     1.78-2.57   (b009d27 and this change
#   wall ms, check               -            3.09-4.63     1.72-2.29    measured alternately,
#   wall ms, build-full          -            5.11-5.86     3.99-4.64    2026-11-26, load 1.2)
# For scale: 468e205 (the macro before the issue-11..15 capabilities, whose build the issue
# quotes at 3.06 ms) executes 13.92 M instructions per declaration on this machine.
# What changed, in order:
# - a8c0f00: `PLAN` and `ACCESS` are one call each with an array of the numbers the attribute
#   computed (`TilePlan::from_literal`, `TileAccess::from_literal`), not re-validated by the const
#   evaluator (~11 M instructions of a from-scratch build per tile); storage accessors and `Default`
#   are `#[inline]`; the `SmemTile` impl is 2 items instead of 6; the `__smem_tile_items!` input is
#   flat literal groups.
# - this change: a declaration writes 25 items instead of 60. Its 33 constants (`DESC`,
#   `LBO`, ..., `PLAN`, `ACCESS`) are the `SmemTile` trait's, provided once by the library and
#   read off `PLAN`/`ACCESS` where used (the impl sets `PLAN`, `ACCESS` and the slices); inherent
#   stay what a trait cannot carry on stable Rust: the 7 `const fn`s, the 4 arrays with exact
#   lengths, the storage (`ZERO`, `new`, `as_ptr`, `as_mut_ptr`, `as_bytes`). The deprecated
#   inherent aliases (`desc_unchecked`, `offset_unchecked`, `TMA_BOX`) are gone; the trait keeps
#   its own. Measured on synthetic crates (100 structs, incremental rebuild): an inherent
#   `pub const X: u32 = 5;` costs ~0.10 M instructions, an `#[inline] pub const fn` of one line
#   ~0.2-0.3 M, its doc comment ~3 k: the cost is per item (incremental dep-graph nodes, cached
#   query results, metadata), not per token.
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

# MACRO_BENCH_IR=1: also the instructions one rustc run of each crate executes (valgrind's
# callgrind; deterministic to ~0.1%, so two versions compare on a busy machine where the times do
# not), per declaration, in millions.
instructions() { # $1 = crate, $2 = check|build|build-full -> instructions of one rustc run
    local dir="$WORK/$1" cmd=$2 full="" rustc_cmd
    [ "$cmd" = build-full ] && { cmd=build; full=1; }
    touch "$dir/src/lib.rs"
    rustc_cmd=$(cd "$dir" && cargo "$cmd" -v 2>&1 | sed -n "s/^ *Running \`\(.*rustc --crate-name $1 .*\)\`\$/\1/p" | tail -n 1)
    [ -n "$rustc_cmd" ] || { echo "no rustc command for $1" >&2; return 1; }
    # From scratch: without the incremental cache (the rebuild above made it current).
    [ -n "$full" ] && rustc_cmd=$(sed -E 's/-C incremental=[^ ]+//' <<<"$rustc_cmd")
    (cd "$dir" && eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $rustc_cmd" 2>&1 >/dev/null) |
        awk '/Collected/ {s += $4} END {print s}'
}
if [ "${MACRO_BENCH_IR:-0}" = 1 ]; then
    command -v valgrind >/dev/null || { echo "MACRO_BENCH_IR=1 needs valgrind" >&2; exit 1; }
    printf '%-10s %14s %14s %16s\n' mode "without (M)" "with (M)" "per tile (M)"
    for mode in check build build-full; do
        wo=$(instructions without_tiles $mode)
        wi=$(instructions with_tiles $mode)
        printf '%-10s %14.1f %14.1f %16.2f\n' "$mode" "$(echo "$wo / 10^6" | bc -l)" \
            "$(echo "$wi / 10^6" | bc -l)" "$(echo "($wi - $wo) / 10^6 / $N" | bc -l)"
    done
fi
