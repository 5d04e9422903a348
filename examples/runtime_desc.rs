//! Descriptors and offsets with indices known only at run time: what a kernel's loop computes.
//! `scripts/check_kernel_asm.sh` compiles this example with `--emit asm` and checks that the
//! `#[no_mangle]` functions below contain no `call` (everything inlines to integer code) and load
//! nothing from memory (no advance table: a run-time subtile index is arithmetic), with every
//! index unmasked, through the inherent items, the `SmemTile` trait, the core's `TileLayout`
//! and an `#[smem_storage]` member (`TileAt`). The asserting form with unmasked indices keeps its panic: its only call is the
//! failing path's (`desc_rt_asserting`).
//!
//! ```sh
//! cargo run --example runtime_desc -- 3
//! ```

use smemdesc::{smem_storage, smem_tile, SmemTile, TileLayout};

/// A operand of a bf16 GEMM: 128 x 64, 4 stages, wgmma m64n256k16.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n256k16, stages = 4)]
pub struct TileA;

/// B operand, MN-major, 64B swizzle, 96 x 96: 3 MN subtiles of 32 and 6 K subtiles of 16, so
/// the advance is a mixed-radix sum with radices that are not powers of two.
#[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (96, 96), major = MN, swizzle = 64B,
            order = k_first, mma = (64, 32), stages = 5)]
pub struct TileB3;

/// One CTA's shared memory holding `TileA` (at offset 0).
#[smem_storage(arch = sm90)]
pub struct Storage {
    a: TileA,
}

/// The core's `TileLayout` of `TileA`.
const LAYOUT_A: TileLayout = TileA::PLAN.tile;

/// Unchecked form with every argument at run time: shifts, adds, masks.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_unchecked(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    TileA::desc_wrapping(base, mn, k, stage)
}

/// Checked form with every argument at run time: compares and a `Result`, no panic path.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_checked(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    match TileA::try_desc(base, mn, k, stage) {
        Ok(d) => d.raw(),
        Err(_) => 0,
    }
}

/// Asserting form with run-time indices that are in range by construction (a loop's `% STAGES`),
/// at a constant aligned base: the checks fold away, so no panic path remains.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_in_range(mn: u32, k: u32, stage: u32) -> u64 {
    TileA::desc(
        0x400,
        mn % TileA::MMAS_MN,
        k % TileA::MMAS_K,
        stage % TileA::STAGES,
    )
}

/// A descriptor loop: one descriptor per stage, then constant steps from the advance table.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_loop(base: u32, stage: u32, out: &mut [u64; 4]) {
    let d0 = TileA::desc_wrapping(base, 0, 0, stage);
    for (k, o) in out.iter_mut().enumerate() {
        *o = d0 + TileA::ADVANCE_K[k] as u64;
    }
}

/// Element offsets through the trait, at run time.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn offset_rt(mn: u32, k: u32) -> u32 {
    <TileA as SmemTile>::offset_wrapping(mn, k)
}

/// Asserting form, every index unmasked: compares, the descriptor, and one call on the failing
/// path (the panic naming the argument).
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_asserting(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    TileA::desc(base, mn, k, stage)
}

/// The wrapping (unchecked) form through the trait, unmasked.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_trait(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    <TileA as SmemTile>::desc_wrapping(base, mn, k, stage)
}

/// The checked form of the core's `TileLayout`, unmasked.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_core_checked(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    match LAYOUT_A.try_desc(base, mn, k, stage) {
        Ok(d) => d.raw(),
        Err(_) => 0,
    }
}

/// The wrapping (unchecked) form of the core's `TileLayout`, unmasked.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_core(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    LAYOUT_A.desc_wrapping(base, mn, k, stage)
}

/// A storage member's wrapping descriptor (`Storage::a(base)`: a `TileAt<TileA>`), unmasked.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_placed(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    Storage::a(base).desc_wrapping(mn, k, stage)
}

/// Radices 3 and 6: the reductions are multiply-high sequences, still no table.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn desc_rt_mixed_radix(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    TileB3::desc_wrapping(base, mn, k, stage)
}

/// Checked element offset, unmasked.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn offset_rt_checked(mn: u32, k: u32) -> u32 {
    TileA::try_offset(mn, k).unwrap_or(u32::MAX)
}

/// Unchecked element offset of the core's `TileLayout`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn offset_rt_core(mn: u32, k: u32) -> u32 {
    LAYOUT_A.offset_wrapping(mn, k)
}

fn main() {
    let stage: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut steps = [0; 4];
    desc_rt_loop(0x400, stage % 4, &mut steps);
    println!("stage {stage}: descriptors of the 4 K subtiles at 0x400: {steps:#018x?}");
    println!("checked:   {:#018x}", desc_rt_checked(0x400, 1, 3, stage));
    println!("wrapping:  {:#018x}", desc_rt_unchecked(0x400, 1, 3, stage));
    println!("in range:  {:#018x}", desc_rt_in_range(1, 3, stage));
    println!("offset(7, 0) = {}", offset_rt(7, 0));
    println!(
        "asserting: {:#018x}",
        desc_rt_asserting(0x400, 1, 3, stage % 4)
    );
    assert_eq!(
        desc_rt_trait(0x400, 1, 3, stage),
        desc_rt_unchecked(0x400, 1, 3, stage)
    );
    assert_eq!(
        desc_rt_core(0x400, 1, 3, stage),
        desc_rt_unchecked(0x400, 1, 3, stage)
    );
    assert_eq!(
        desc_rt_placed(0x400, 1, 3, stage),
        desc_rt_unchecked(0x400, 1, 3, stage)
    );
    assert_eq!(
        desc_rt_core_checked(0x400, 1, 3, stage),
        desc_rt_checked(0x400, 1, 3, stage)
    );
    assert_eq!(offset_rt_checked(7, 0), offset_rt_core(7, 0));
    println!(
        "MN-major 3 x 6 subtiles, (2, 5): {:#018x}",
        desc_rt_mixed_radix(0x400, 2, 5, stage % 5)
    );
    assert_eq!(steps[3], TileA::desc(0x400, 0, 3, stage % 4));
}
