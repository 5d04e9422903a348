//! Issue 32: an implicit-GEMM forward convolution (NHWC bf16 activations, KRSC bf16 filter,
//! NPQK bf16 output, fp32 accumulate) on the GEMM's declarations (`epi_tiles::Decl11`: the
//! 128 x 64 A and 256 x 64 B tiles, 4 stages, the declared pipeline, the TMA-store epilogue).
//!
//! As a GEMM: `M = N·P·Q` output pixels, `N = K_out` filters, `K = R·S·C` in the order the
//! loads produce. The producer fills A with im2col TMA loads planned by the core
//! (`smemdesc::tma::ImplicitGemmA::for_tile` on the declared A tile: the box, pixels per load,
//! swizzle and every load's coordinates and filter-tap offsets) and B with the declared tiled
//! loads of the filter read as the K-major `K_out × R·S·C` matrix, at the K-step's first column
//! (`KStep::k0`). The consumers are the GEMM's: wgmma m64n256k16 over each stage, the
//! accumulator through the declared C tile and TMA stores into the `M × K_out` output (the map
//! clips the last M tile and columns past `K_out`; A rows past M and B rows past `K_out` load as
//! zeros).

use crate::epi_tiles::{Decl11, EpiDecl, BK, BM, BN};
use crate::gemm::{tile_index, Acc};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::pipeline::{Full, Load, PipeAt, Pipeline, TileLoad};
use smemdesc::tma::{Conv2d, Im2colWalk, ImplicitGemmA};
use smemdesc::SmemTile;

/// `cp.async.bulk.tensor.4d … .im2col` of the box at tensor coordinates `coords` (c, w, h, n)
/// with the filter-tap offsets `offsets` (w, h) into `dst`, completing on `bar`.
#[inline(always)]
pub(crate) unsafe fn tma_load_im2col(
    dst: u32,
    map: u64,
    coords: [i32; 4],
    offsets: [u16; 2],
    bar: u32,
) {
    core::arch::asm!(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{0}], [{1}, {{{2}, {3}, {4}, {5}}}], [{6}], {{{7}, {8}}};",
        in(reg32) dst,
        in(reg64) map,
        in(reg32) coords[0],
        in(reg32) coords[1],
        in(reg32) coords[2],
        in(reg32) coords[3],
        in(reg32) bar,
        in(reg16) offsets[0],
        in(reg16) offsets[1],
        options(nostack)
    );
}

/// The im2col loads fill the declared A tile (a compile-time check of the tile against the
/// core's im2col fill rules, for any convolution whose channels are a multiple of its K).
const _: () = assert!(ImplicitGemmA::for_tile(
    Conv2d::new(1, 1, 1, BK, 1, 1, 1),
    &<<Decl11 as EpiDecl>::A as SmemTile>::PLAN
)
.is_ok());

/// Whether `walk` fills tile `T` (its rows, K extent and stage bytes); writes 2 to `err` (one
/// thread) when not.
#[inline(always)]
pub(crate) unsafe fn walk_fills<T: SmemTile>(walk: &Im2colWalk, err: u64) -> bool {
    let ok = walk.bm == T::TILE_MN
        && walk.bk == T::TILE_K
        && walk.loads_per_step() * walk.pixels * walk.row_bytes == T::STAGE_BYTES;
    if !ok && tid() == 0 && ctaid() == 0 {
        st_global_u32(err, 2);
    }
    ok
}

/// The producer thread: for each of this CTA's tiles (`tile_index` raster, `bn` filters per
/// tile), every K-step's A tile through im2col loads from `walk` (`CONTROL`: each tap's channel
/// blocks in reverse order) and B tile of the filter at the step's first column.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn produce<P, const CONTROL: bool>(
    pipe: &PipeAt<P>,
    map_a: u64,
    map_b: u64,
    walk: &Im2colWalk,
    tiles_m: u32,
    tiles_n: u32,
    bn: u32,
    group_m: u32,
    err: u64,
) where
    P: Pipeline<Loads = (Load<0>, (Load<1>, ()))> + TileLoad<0> + TileLoad<1>,
{
    tensormap_acquire(map_a);
    tensormap_acquire(map_b);
    let mut producer = pipe.producer();
    let mut tile = ctaid();
    let (tiles, k_steps) = (tiles_m * tiles_n, walk.k_steps);
    'tiles: while tile < tiles {
        let (mi, ni) = tile_index(tile, tiles_m, tiles_n, group_m);
        // The tile's first output pixels (one origin per load of a K-step).
        let origin = walk.origin(mi, 0);
        let mut kk = 0;
        while kk < k_steps {
            let Some(fill) = producer.acquire::<PtxSpin>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            let mut step = walk.step(kk);
            if CONTROL {
                // The negative control: the channel blocks of each tap in reverse order (A's K
                // order no longer B's).
                step.c0 = walk.c - walk.bk - step.c0;
            }
            let _ = fill
                .load_with(|dst, bar| {
                    let mut j = 0;
                    while j < walk.loads_per_step() {
                        let o = if j == 0 { origin } else { walk.origin(mi, j) };
                        let l = walk.load(o, j, &step);
                        tma_load_im2col(dst + l.byte_offset, map_a, l.coords, l.offsets, bar);
                        j += 1;
                    }
                })
                .load::<PtxSpin>(map_b, step.k0 as u32, ni * bn)
                .issued();
            kk += 1;
        }
        tile += nctaid();
    }
}

/// The convolution of `walk` (the host's `ImplicitGemmA::for_tile(conv, A)?.walk()`) with
/// `k_out` filters. A walk that does not fill the declared A tile writes 2 to `err` and the
/// kernel computes nothing.
#[inline(always)]
unsafe fn conv_body<const CONTROL: bool>(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    type D = Decl11;
    if !walk_fills::<<D as EpiDecl>::A>(&walk, err) {
        return;
    }
    let base = D::aligned_base(smem_dyn());
    let (a_addr, b_addr) = (D::a(base).addr(), D::b(base).addr());
    let tiles_m = walk.m_blocks;
    let tiles_n = k_out.div_ceil(BN);
    let tiles = tiles_m * tiles_n;
    let k_steps = walk.k_steps;
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<<D as EpiDecl>::Pipe>::new(base, 0);
    if tid == 0 {
        pipe.init::<PtxSpin>();
    }
    pipe.init_sync::<PtxSpin>();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            produce::<<D as EpiDecl>::Pipe, CONTROL>(
                &pipe, map_a, map_b, &walk, tiles_m, tiles_n, BN, group_m, err,
            );
        }
        return;
    }
    setmaxnreg_inc_232();
    let im = wg - 1;
    let t = tid % 128;
    let (warp, lane) = (t / 32, t % 32);
    let cbase = D::c(base, im);
    let lane_off = crate::epi::lane_offsets(warp, lane);
    let mut d = Acc {
        d0: [0.0; 32],
        d1: [0.0; 32],
        d2: [0.0; 32],
        d3: [0.0; 32],
    };
    let mut consumer = pipe.consumer(t);
    let bar_id = 1 + im;
    let mut tile = ctaid();
    'tiles: while tile < tiles {
        let (mi, ni) = tile_index(tile, tiles_m, tiles_n, group_m);
        let mut held: Option<Full<<D as EpiDecl>::Pipe>> = None;
        let mut kk = 0;
        while kk < k_steps {
            let Some(full) = consumer.wait::<PtxSpin>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            crate::epi::mma_stage::<D>(&mut d, a_addr, b_addr, im, full.stage(), kk);
            wgmma_wait::<1>();
            if let Some(prev) = held.replace(full) {
                prev.release::<PtxSpin>();
            }
            kk += 1;
        }
        wgmma_wait::<0>();
        if let Some(last) = held.take() {
            last.release::<PtxSpin>();
        }
        crate::epi::store_tile(
            &d,
            cbase,
            &lane_off,
            t,
            bar_id,
            map_c,
            ni * BN,
            mi * BM + im * 64,
        );
        tile += nctaid();
    }
    if t == 0 {
        bulk_wait_all();
    }
}

/// The implicit-GEMM forward convolution, persistent (grid ≤ tiles), 384 threads.
///
/// # Safety
/// `Decl11::LAUNCH_BYTES` of dynamic shared memory; `walk`: `ImplicitGemmA::for_tile(conv,
/// A)?.walk()` of the convolution; `map_a`: that plan's im2col map of the NHWC input (`map()`);
/// `map_b`: the filter's map (`filter_map(B)`); `map_c`: the C tile's store map over
/// `[N·P·Q, k_out]`; all in global memory; `err` a device u32.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn gemm_conv_fprop_rust(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    conv_body::<false>(map_a, map_b, map_c, walk, k_out, group_m, err);
}

/// The negative control: [`gemm_conv_fprop_rust`] with each tap's channel blocks loaded in
/// reverse order, so A's K order is no longer the filter's (must mismatch wherever `C > BK`).
///
/// # Safety
/// As [`gemm_conv_fprop_rust`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn gemm_conv_fprop_control_rust(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    conv_body::<true>(map_a, map_b, map_c, walk, k_out, group_m, err);
}
