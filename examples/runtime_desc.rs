//! Descriptors and offsets with indices known only at run time: what a kernel's loop computes.
//! `scripts/check_kernel_asm.sh` compiles this example with `--emit asm` and checks that the
//! `#[no_mangle]` functions below contain no `call` (everything inlines to integer code).
//!
//! ```sh
//! cargo run --example runtime_desc -- 3
//! ```

use smemdesc::{smem_tile, SmemTile};

/// A operand of a bf16 GEMM: 128 x 64, 4 stages, wgmma m64n256k16.
#[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            mma = m64n256k16, stages = 4)]
pub struct TileA;

/// Unchecked form with every argument at run time: shifts, adds, masks.
#[no_mangle]
#[inline(never)]
pub fn desc_rt_unchecked(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    TileA::desc_unchecked(base, mn, k, stage)
}

/// Checked form with every argument at run time: compares and a `Result`, no panic path.
#[no_mangle]
#[inline(never)]
pub fn desc_rt_checked(base: u32, mn: u32, k: u32, stage: u32) -> u64 {
    match TileA::try_desc(base, mn, k, stage) {
        Ok(d) => d.raw(),
        Err(_) => 0,
    }
}

/// Asserting form with run-time indices that are in range by construction (a loop's `% STAGES`),
/// at a constant aligned base: the checks fold away, so no panic path remains.
#[no_mangle]
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
#[no_mangle]
#[inline(never)]
pub fn desc_rt_loop(base: u32, stage: u32, out: &mut [u64; 4]) {
    let d0 = TileA::desc_unchecked(base, 0, 0, stage);
    for (k, o) in out.iter_mut().enumerate() {
        *o = d0 + TileA::ADVANCE_K[k] as u64;
    }
}

/// Element offsets through the trait, at run time.
#[no_mangle]
#[inline(never)]
pub fn offset_rt(mn: u32, k: u32) -> u32 {
    <TileA as SmemTile>::offset_unchecked(mn, k)
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
    println!("unchecked: {:#018x}", desc_rt_unchecked(0x400, 1, 3, stage));
    println!("in range:  {:#018x}", desc_rt_in_range(1, 3, stage));
    println!("offset(7, 0) = {}", offset_rt(7, 0));
    assert_eq!(steps[3], TileA::desc(0x400, 0, 3, stage % 4));
}
