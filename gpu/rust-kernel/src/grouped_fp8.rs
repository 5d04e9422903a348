//! Issue 47, run 4: the FP8 grouped (MoE) GEMM. The tile loop, schedule, pipeline and C-map
//! rewrite are the bf16 kernel's (`grouped::grouped_body`, generic over the declaration
//! through [`GroupedMma`]); this file gives the FP8 declaration (`grouped_fp8_decl::DeclFp8`:
//! e4m3 A `[sum M, K]` and B `[G * N, K]`, both K-major, 128 x 256 x 128 per stage) its wgmma
//! (m64n256k32 e4m3, f32 accumulation) and the entry points. C is bf16, through the same
//! epilogue tile and rewritten map: with integer data in [-2, 2] every f32 sum is exact
//! (|sum| <= 4 K < 2^24), so C is the bf16 rounding of the exact integer.

use crate::epi_tiles::{Decl11, EpiDecl, BK};
use crate::gemm::Acc;
use crate::grouped::grouped_body;
use crate::grouped_fp8_decl::{DeclFp8, BK_FP8};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::grouped::MapWorkspace;
use smemdesc::SmemTile;

/// What the grouped tile loop needs of a declaration beyond [`EpiDecl`]: its K per stage and
/// the wgmma of one stage.
pub(crate) trait GroupedMma: EpiDecl {
    /// K (elements) per stage.
    const BK: u32;
    /// Issues stage `s`'s wgmma of consumer `im` into `d` (accumulating unless `kt == 0` at
    /// the first K step), fenced and committed.
    ///
    /// # Safety
    /// The stage is full; `a_addr`, `b_addr` the declaration's placed tiles.
    unsafe fn mma_stage(d: &mut Acc, a_addr: u32, b_addr: u32, im: u32, s: u32, kt: u32);
}

impl GroupedMma for Decl11 {
    const BK: u32 = BK;
    #[inline(always)]
    unsafe fn mma_stage(d: &mut Acc, a_addr: u32, b_addr: u32, im: u32, s: u32, kt: u32) {
        crate::epi::mma_stage::<Decl11>(d, a_addr, b_addr, im, s, kt);
    }
}

impl GroupedMma for DeclFp8 {
    const BK: u32 = BK_FP8;
    #[inline(always)]
    unsafe fn mma_stage(d: &mut Acc, a_addr: u32, b_addr: u32, im: u32, s: u32, kt: u32) {
        type A = <DeclFp8 as EpiDecl>::A;
        type B = <DeclFp8 as EpiDecl>::B;
        wgmma_fence();
        let da = <A as SmemTile>::ACCESS.desc_wrapping(a_addr, im, 0, s);
        let db = <B as SmemTile>::ACCESS.desc_wrapping(b_addr, 0, 0, s);
        unroll!(A::MMAS_K, |k| {
            let (ka, kb) = (
                A::ADVANCE_K[k as usize] as u64,
                B::ADVANCE_K[k as usize] as u64,
            );
            smemdesc::accum::wgmma_m64n256k32_e4m3(d, da + ka, db + kb, (kt | k) != 0);
        });
        wgmma_commit();
    }
}

/// The FP8 grouped GEMM: `C[offs[g]..offs[g+1], :] = A[offs[g]..offs[g+1], :] · B_gᵀ`, e4m3
/// inputs, f32 accumulation, bf16 C; waits that never give up, every warpgroup computes every
/// tile (the bf16 record's variant, `gemm_grouped_spin_all_rust`).
///
/// # Safety
/// As `grouped::grouped_body` with `DeclFp8`: 384 threads, `DeclFp8::LAUNCH_BYTES` of dynamic
/// shared memory, `map_a` over `[offs[G], K]` and `map_b` over `[G * N, K]` e4m3 (the FP8
/// declaration's boxes), K a multiple of 128.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn gemm_grouped_fp8_rust(
    map_a: u64,
    map_b: u64,
    cslots: MapWorkspace<2>,
    c: u64,
    offs: u64,
    tstart: u64,
    tinfo: u64,
    groups: u32,
    tiles: u32,
    n: u32,
    k: u32,
    err: u64,
) {
    grouped_body::<DeclFp8, PtxSpin, false, 0>(
        map_a, map_b, cslots, c, offs, tstart, tinfo, groups, tiles, n, k, err,
    );
}
