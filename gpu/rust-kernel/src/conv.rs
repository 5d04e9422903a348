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

use crate::epi_tiles::{Decl11, Decl21, EpiDecl, BK, BM, BN};
use crate::gemm::{tile_index, Acc};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::pipeline::{Full, Independent, Load, PipeAt, Pipeline, Producer, Single, TileLoad};
use smemdesc::tma::{Conv2d, Im2colWalk, ImplicitGemmA};
use smemdesc::SmemTile;

/// `cp.async.bulk.tensor.4d … .im2col` of the box at tensor coordinates `coords` (c, w, h, n)
/// with the filter-tap offsets `offsets` (w, h) into `dst`, completing on `bar`
/// (`smemdesc::ptx::tma_load_im2col_4d`, the PTX ISA's operand order).
#[inline(always)]
pub(crate) unsafe fn tma_load_im2col(
    dst: u32,
    map: u64,
    coords: [i32; 4],
    offsets: [u16; 2],
    bar: u32,
) {
    smemdesc::ptx::tma_load_im2col_4d(dst, map, coords, offsets, bar)
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

/// One CTA's tiles: cluster tiles `first, first + step, ..` below [`count`](Self::count) in the
/// `tile_index` raster over `tiles_m / x` × `tiles_n` cluster tiles; the CTA of rank `rank` takes
/// M-block `mi·x + rank` of each (`x` CTAs along M share B).
#[derive(Clone, Copy)]
pub(crate) struct Schedule {
    ctm: u32,
    tiles_n: u32,
    group_m: u32,
    x: u32,
    pub(crate) rank: u32,
    pub(crate) first: u32,
    pub(crate) step: u32,
}

impl Schedule {
    /// This CTA's schedule, `None` when the M-blocks are not a multiple of `x`.
    #[inline(always)]
    pub(crate) fn new(tiles_m: u32, tiles_n: u32, group_m: u32, x: u32) -> Option<Schedule> {
        let rank = if x == 1 { 0 } else { cluster_ctarank() };
        let ctm = tiles_m.checked_div(x)?;
        (ctm * x == tiles_m).then_some(Schedule {
            ctm,
            tiles_n,
            group_m,
            x,
            rank,
            first: ctaid() / x,
            step: nctaid() / x,
        })
    }

    /// Cluster tiles.
    #[inline(always)]
    pub(crate) fn count(&self) -> u32 {
        self.ctm * self.tiles_n
    }

    /// This CTA's (M-block, N-block) of cluster tile `ct`.
    #[inline(always)]
    pub(crate) fn tile(&self, ct: u32) -> (u32, u32) {
        let (mi, ni) = tile_index(ct, self.ctm, self.tiles_n, self.group_m);
        (mi * self.x + self.rank, ni)
    }
}

/// The producer thread: for each of this CTA's tiles (`sched`, `bn` filters per tile), every
/// K-step's A tile through im2col loads from `walk` (`CONTROL`: each tap's channel blocks in
/// reverse order) and B tile of the filter at the step's first column (multicast as `P`
/// declares); in a cluster it stays until every CTA released every stage it wrote into.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn produce<P, const CONTROL: bool>(
    mut producer: Producer<P>,
    map_a: u64,
    map_b: u64,
    walk: &Im2colWalk,
    sched: &Schedule,
    bn: u32,
    err: u64,
) where
    P: Pipeline<Loads = (Load<0>, (Load<1>, ())), Group = Single, Launch = Independent>
        + TileLoad<0>
        + TileLoad<1>,
{
    tensormap_acquire(map_a);
    tensormap_acquire(map_b);
    let mut ct = sched.first;
    let mut ok = true;
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        // The tile's first output pixels (one origin per load of a K-step).
        let origin = walk.origin(mi, 0);
        let mut kk = 0;
        while kk < walk.k_steps {
            let Some(fill) = producer.acquire::<PtxSpin>() else {
                ok = false;
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
        ct += sched.step;
    }
    if sched.x > 1 && ok {
        ok = producer.drain::<PtxSpin>();
    }
    if !ok {
        st_global_u32(err, 1);
    }
}

/// The convolution of `walk` (the host's `ImplicitGemmA::for_tile(conv, A)?.walk()`) with
/// `k_out` filters. A walk that does not fill the declared A tile writes 2 to `err` and the
/// kernel computes nothing.
#[inline(always)]
unsafe fn conv_body<D: EpiDecl, const CONTROL: bool>(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    const { assert!(D::Y == 1) };
    if !walk_fills::<D::A>(&walk, err) {
        return;
    }
    let Some(sched) = Schedule::new(walk.m_blocks, k_out.div_ceil(BN), group_m, D::X) else {
        if tid() == 0 && ctaid() == 0 {
            st_global_u32(err, 2);
        }
        return;
    };
    let base = D::aligned_base(smem_dyn());
    let (a_addr, b_addr) = (D::a(base).addr(), D::b(base).addr());
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<D::Pipe>::new(base, sched.rank);
    if tid == 0 {
        pipe.init::<PtxSpin>();
    }
    pipe.init_sync::<PtxSpin>();
    let (producer, consumers) = pipe.split();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            produce::<D::Pipe, CONTROL>(producer, map_a, map_b, &walk, &sched, BN, err);
        }
        return;
    }
    setmaxnreg_inc_232();
    let im = wg - 1;
    let t = tid % 128;
    if t == 0 {
        // This thread issues the warpgroup's TMA stores.
        tensormap_acquire(map_c);
    }
    let (warp, lane) = (t / 32, t % 32);
    let cbase = D::c(base, im);
    let lane_off = crate::epi::lane_offsets(warp, lane);
    let mut d = Acc::zero();
    let mut consumer = consumers.thread(t);
    let bar_id = 1 + im;
    let mut ct = sched.first;
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        let mut held: Option<Full<D::Pipe>> = None;
        let mut kk = 0;
        while kk < walk.k_steps {
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
        d.fence_operands();
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
        ct += sched.step;
    }
    if t == 0 {
        bulk_wait_all();
    }
}

/// An implicit-GEMM convolution entry `$name`: the entry arguments handed to `$body`, a
/// convolution body instance (`conv_body::<D, CONTROL>` here, `conv_ov::conv_ov_body::<T, I>`
/// for the overlapped schedule).
macro_rules! conv_entry {
    ($name:ident, $doc:literal, $($body:tt)+) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// 384 threads, the storage's `LAUNCH_BYTES` of dynamic shared memory, a 1-D grid of
        /// whole clusters of the declaration's shape; `walk`: `ImplicitGemmA::for_tile(conv,
        /// A)?.walk()` of the convolution (`A` the declaration's A tile; M-blocks a multiple of
        /// the cluster's CTAs along M); `map_a`: that plan's im2col map of the NHWC input
        /// (`map()`); `map_b`: the filter's map (`filter_map(B)`, box rows the multicast
        /// slice's); `map_c`: the C tile's store map over `[N·P·Q, k_out]`; all in global
        /// memory; `err` a device u32.
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(
            map_a: u64,
            map_b: u64,
            map_c: u64,
            walk: Im2colWalk,
            k_out: u32,
            group_m: u32,
            err: u64,
        ) {
            $($body)+(map_a, map_b, map_c, walk, k_out, group_m, err);
        }
    };
}
pub(crate) use conv_entry;

conv_entry!(
    gemm_conv_fprop_rust,
    "The implicit-GEMM forward convolution, 128 x 256 tiles, persistent (grid ≤ tiles).",
    conv_body::<Decl11, false>
);
conv_entry!(
    gemm_conv_fprop_control_rust,
    "The negative control: `gemm_conv_fprop_rust` with each tap's channel blocks loaded in \
     reverse order, so A's K order is no longer the filter's (must mismatch wherever C > BK).",
    conv_body::<Decl11, true>
);
conv_entry!(
    gemm_conv_cl21_rust,
    "`gemm_conv_fprop_rust` in 2x1 clusters: the two CTAs (adjacent M-blocks) share B, each \
     loading half of it and multicasting it.",
    conv_body::<Decl21, false>
);
