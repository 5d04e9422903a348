//! Issue 47, run 4 (the 1x1 1024 -> 256 layer's gap): `conv.rs`'s implicit-GEMM convolution
//! with a consumer schedule whose epilogue overlaps the next tile's MMA.
//!
//! `gemm_conv_fprop_rust` (kept as recorded) ends every tile with both consumer warpgroups in
//! the epilogue: the producer has the next tile's stages loaded, but no wgmma is in flight
//! until the last TMA store of the tile is issued. Here each consumer warpgroup, once its
//! tile's wgmmas completed:
//!
//! 1. packs the fp32 accumulator to bf16 pairs (`WgmmaAcc::pack`, 64 registers: the store
//!    stage's copy of the tile, which frees the accumulator);
//! 2. issues the next tile's K-step 0 into the accumulator (starting it over) without waiting
//!    for it;
//! 3. writes the packed tile in its four chunks through the declared C tile (stmatrix.x4 at the
//!    declaration's offsets, `fence.proxy.async`, one thread's TMA stores: the warps do not
//!    wait for the global writes), issuing K-step `c + 1` of the next tile before chunk `c`
//!    and, after the chunk, waiting for K-step `c` (`wgmma.wait_group 1`) and releasing its
//!    stage: the tensor cores always have the next K-step queued and the stages are released
//!    one per K-step, as in the main loop, so the producer keeps loading;
//! 4. goes on with the next tile's remaining K-steps as `conv.rs` does.
//!
//! The other schedule (`INTERLEAVE` false, `gemm_conv_ov2_rust`) issues K-steps 0 and 1 before
//! the whole epilogue and holds their stages until it ends.
//!
//! The producer, the pipeline, the tile order (`conv::Schedule`) and the stores are `conv.rs`'s,
//! `epi.rs`'s and `conv128.rs`'s; only the order of the consumer's work changes, so the output
//! is the same bit for bit. The accumulator is never read or written while its wgmmas are in
//! flight (the epilogue reads the packed copy only). Barriers: a consumer holds at most two
//! stages (three for `INTERLEAVE` false) of the four across an epilogue, all of the next tile,
//! whose loads need only stages released before it, so the producer never waits for a stage a
//! consumer can only release after a wait of its own (in 2x1 clusters the same holds for each
//! CTA's releases of the stages the peer multicasts into); each warpgroup's named barrier orders
//! its own stmatrix writes and its TMA stores, as in `epi::store_tile`; nothing waits across the
//! two consumer warpgroups. Every mbarrier wait is `PtxSpin`'s, which never gives up (its `None`
//! arms are dead code, as in `conv.rs`). Thread 0's bulk waits, TMA stores and commits are
//! predicated instructions, not a branch on `t == 0`: with the branch (the first build), LLVM
//! copied each chunk's `bar.sync` and stmatrix into both arms, lane 0 of warp 0 reached them at
//! other instructions than its 31 neighbours, and every overlapped kernel hung on the H100
//! (2026-12-07; `scripts/check_convergence.py` now refuses such PTX).
//!
//! The tiles are an [`OvTile`]: the 128 x 256 tile of `epi_tiles` (`Ov256`, plain and in 2x1
//! clusters) and the 256 x 128 tile of `conv_tiles` (`conv_ov128.rs`).

use crate::conv::{conv_entry, produce, walk_fills, Schedule};
use crate::epi_tiles::{CTile, Decl11, Decl21, EpiDecl, BM, BN, C_BOXES};
use crate::gemm::Acc;
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use core::marker::PhantomData;
use smemdesc::accum::{Bf16x2, PackedAcc};
use smemdesc::pipeline::{Consumer, Full, Independent, Load, PipeAt, Pipeline, Single, TileLoad};
use smemdesc::ptx::{bulk_commit_group_if, bulk_wait_group_read_if, tma_store_2d_if};
use smemdesc::tma::Im2colWalk;
use smemdesc::SmemTile;

/// A convolution tile of the overlapped schedule: its declarations, accumulator, wgmma issue,
/// packed copy and epilogue chunks.
pub(crate) trait OvTile {
    /// The declared pipeline (A by im2col, B the filter).
    type Pipe: Pipeline<Loads = (Load<0>, (Load<1>, ())), Group = Single, Launch = Independent>
        + TileLoad<0>
        + TileLoad<1>;
    /// The A tile (the im2col walk must fill it).
    type A: SmemTile;
    /// One consumer warpgroup's accumulator.
    type Acc;
    /// Its bf16 copy for the epilogue.
    type Packed;
    /// CTAs along M per cluster.
    const X: u32;
    /// C rows and columns per CTA tile.
    const BM: u32;
    const BN: u32;
    /// C rows per consumer warpgroup.
    const ROWS: u32;
    /// The accumulator, zero.
    fn zero() -> Self::Acc;
    /// The storage base for the dynamic shared memory base.
    fn aligned_base(dyn_base: u32) -> u32;
    /// A's and B's placed addresses.
    fn ab(base: u32) -> (u32, u32);
    /// Consumer `im`'s C tile.
    fn c(base: u32, im: u32) -> u32;
    /// This thread's writer offsets (thread `t` of its warpgroup).
    fn lane_off(t: u32) -> [u32; 4];
    /// The wgmma of stage `s` for consumer `im` at K-step `kk` (0 starts over), fenced and
    /// committed.
    unsafe fn mma(acc: &mut Self::Acc, ab: (u32, u32), im: u32, s: u32, kk: u32);
    /// After the wait for the last wgmma: the accumulator's registers as its outputs.
    fn fence(acc: &mut Self::Acc);
    /// The packed copy.
    fn pack(acc: &Self::Acc) -> Self::Packed;
    /// Epilogue chunk `c` of 4 (a constant after unrolling) at C `origin` (column, row).
    #[allow(clippy::too_many_arguments)]
    unsafe fn store_chunk(
        p: &Self::Packed,
        c: u32,
        cbase: u32,
        lane_off: &[u32; 4],
        t: u32,
        bar_id: u32,
        map: u64,
        origin: (u32, u32),
    );
}

/// The 128 x 256 tile of declaration `D` (`epi_tiles`: wgmma m64n256k16, 64 rows per consumer).
pub(crate) struct Ov256<D>(PhantomData<D>);

impl<D: EpiDecl> OvTile for Ov256<D> {
    type Pipe = D::Pipe;
    type A = D::A;
    type Acc = Acc;
    type Packed = PackedAcc<256>;
    // The tile order's clusters are along M only (`conv::Schedule`).
    const X: u32 = {
        assert!(D::Y == 1);
        D::X
    };
    const BM: u32 = BM;
    const BN: u32 = BN;
    const ROWS: u32 = 64;
    #[inline(always)]
    fn zero() -> Acc {
        Acc::zero()
    }
    #[inline(always)]
    fn aligned_base(dyn_base: u32) -> u32 {
        D::aligned_base(dyn_base)
    }
    #[inline(always)]
    fn ab(base: u32) -> (u32, u32) {
        (D::a(base).addr(), D::b(base).addr())
    }
    #[inline(always)]
    fn c(base: u32, im: u32) -> u32 {
        D::c(base, im)
    }
    #[inline(always)]
    fn lane_off(t: u32) -> [u32; 4] {
        crate::epi::lane_offsets(t / 32, t % 32)
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut Acc, (a, b): (u32, u32), im: u32, s: u32, kk: u32) {
        crate::epi::mma_stage::<D>(acc, a, b, im, s, kk);
    }
    #[inline(always)]
    fn fence(acc: &mut Acc) {
        acc.fence_operands();
    }
    #[inline(always)]
    fn pack(acc: &Acc) -> PackedAcc<256> {
        acc.pack::<Bf16x2>()
    }
    #[inline(always)]
    unsafe fn store_chunk(
        p: &PackedAcc<256>,
        c: u32,
        cbase: u32,
        lane_off: &[u32; 4],
        t: u32,
        bar_id: u32,
        map: u64,
        origin: (u32, u32),
    ) {
        store_chunk256(p, c, cbase, lane_off, t, bar_id, map, origin);
    }
}

/// Chunk `c` (a constant after unrolling) of the packed tile `p` (`WgmmaAcc::pack::<Bf16x2>` of
/// the accumulator), as `epi::store_tile` writes each chunk: C stage `c % STAGES`, the declared
/// stmatrix.x4 instructions (register group `g = c·INSTRUCTIONS + i`: packed registers
/// `4g .. 4g + 4`, what `WgmmaAcc::for_each_group::<4, Bf16x2>` converts), then thread 0 stores
/// the stage's TMA boxes at columns `n0 + ..`, rows `row0 + ..`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_chunk256(
    p: &PackedAcc<256>,
    c: u32,
    cbase: u32,
    lane_off: &[u32; 4],
    t: u32,
    bar_id: u32,
    map: u64,
    (n0, row0): (u32, u32),
) {
    let r = p.regs();
    let buf = cbase + (c % CTile::STAGES) * CTile::STAGE_BYTES;
    // Thread 0's work is predicated, not branched on (`smemdesc::ptx`'s predicated forms: a
    // branch on `t == 0` here let LLVM duplicate the chunk's `bar.sync` and stmatrix into both
    // arms, and the warpgroup hung on its named barrier).
    let one = t == 0;
    // The store that last read this buffer is done reading it.
    bulk_wait_group_read_if::<{ CTile::STAGES - 1 }>(one);
    named_bar(bar_id, 128);
    unroll!(CTile::INSTRUCTIONS, |i| {
        let g = (4 * (c * CTile::INSTRUCTIONS + i)) as usize;
        stmatrix_x4(
            buf + lane_off[i as usize],
            [r[g], r[g + 1], r[g + 2], r[g + 3]],
        );
    });
    fence_proxy_async_shared();
    named_bar(bar_id, 128);
    unroll!(CTile::TMA_BOXES, |b| {
        let (off, (inner0, r0)) = C_BOXES[b as usize];
        tma_store_2d_if(
            one,
            map,
            buf + off,
            n0 + c * CTile::EPILOGUE.spec().n + inner0,
            row0 + r0,
        );
    });
    bulk_commit_group_if(one);
}

/// Issues K-step `kk` (0 starts the accumulator over) of a tile into `d` from the next full
/// stage, committed and not waited for; returns the stage, `None` when the wait gave up (`err`
/// set).
#[inline(always)]
unsafe fn issue_step<T: OvTile>(
    consumer: &mut Consumer<T::Pipe>,
    d: &mut T::Acc,
    ab: (u32, u32),
    im: u32,
    kk: u32,
    err: u64,
) -> Option<Full<T::Pipe>> {
    let Some(full) = consumer.wait::<PtxSpin>() else {
        st_global_u32(err, 1);
        return None;
    };
    T::mma(d, ab, im, full.stage(), kk);
    Some(full)
}

/// The convolution of `conv.rs`'s `conv_body` with an overlapped consumer schedule (module
/// docs): `INTERLEAVE` false, the next tile's K-steps 0 and 1 issued before the whole epilogue;
/// true, K-step 0 before it and K-steps 1 ..= 4 between its chunks.
#[inline(always)]
pub(crate) unsafe fn conv_ov_body<T: OvTile, const INTERLEAVE: bool>(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    if !walk_fills::<T::A>(&walk, err) {
        return;
    }
    let k_steps = walk.k_steps;
    if k_steps == 0 {
        // No K-step to issue early (a convolution has at least one).
        if tid() == 0 && ctaid() == 0 {
            st_global_u32(err, 2);
        }
        return;
    }
    let Some(sched) = Schedule::new(walk.m_blocks, k_out.div_ceil(T::BN), group_m, T::X) else {
        if tid() == 0 && ctaid() == 0 {
            st_global_u32(err, 2);
        }
        return;
    };
    let base = T::aligned_base(smem_dyn());
    let ab = T::ab(base);
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<T::Pipe>::new(base, sched.rank);
    if tid == 0 {
        pipe.init::<PtxSpin>();
    }
    pipe.init_sync::<PtxSpin>();
    let (producer, consumers) = pipe.split();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            produce::<T::Pipe, false>(producer, map_a, map_b, &walk, &sched, T::BN, err);
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
    let cbase = T::c(base, im);
    let lane_off = T::lane_off(t);
    let mut d = T::zero();
    let mut consumer = consumers.thread(t);
    let bar_id = 1 + im;
    let mut ct = sched.first;
    // The tile the loop starts: `kk` its next K-step to issue, `e0` the stage of the last one
    // issued (in flight) and `e1`, when two are in flight (`INTERLEAVE` false), the stage of the
    // one after it. The first tile's K-step 0 (and 1) are issued here (no epilogue to overlap).
    let (mut e0, mut e1) = (None, None);
    let mut kk = 1;
    if ct < sched.count() {
        e0 = issue_step::<T>(&mut consumer, &mut d, ab, im, 0, err);
        if e0.is_none() {
            return;
        }
        if !INTERLEAVE && k_steps > 1 {
            e1 = issue_step::<T>(&mut consumer, &mut d, ab, im, 1, err);
            if e1.is_none() {
                return;
            }
            kk = 2;
        }
    }
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        let origin = (ni * T::BN, mi * T::BM + im * T::ROWS);
        // The stage of the last K-step in flight; with two in flight the first completed once
        // all but the last did, and its stage is free.
        let mut held = e0.take();
        if let Some(s1) = e1.take() {
            wgmma_wait::<1>();
            if let Some(s0) = held.replace(s1) {
                s0.release::<PtxSpin>();
            }
        }
        while kk < k_steps {
            let Some(full) = consumer.wait::<PtxSpin>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            T::mma(&mut d, ab, im, full.stage(), kk);
            wgmma_wait::<1>();
            if let Some(prev) = held.replace(full) {
                prev.release::<PtxSpin>();
            }
            kk += 1;
        }
        wgmma_wait::<0>();
        T::fence(&mut d);
        if let Some(last) = held.take() {
            last.release::<PtxSpin>();
        }
        // The store stage's copy; the accumulator is free for the next tile.
        let packed = T::pack(&d);
        let next = ct + sched.step;
        let has_next = next < sched.count();
        kk = 0;
        if has_next {
            e0 = issue_step::<T>(&mut consumer, &mut d, ab, im, 0, err);
            if e0.is_none() {
                break 'tiles;
            }
            kk = 1;
            if !INTERLEAVE && k_steps > 1 {
                e1 = issue_step::<T>(&mut consumer, &mut d, ab, im, 1, err);
                if e1.is_none() {
                    break 'tiles;
                }
                kk = 2;
            }
        }
        let mut failed = false;
        unroll!(4, |c| {
            // INTERLEAVE: K-step c + 1 of the next tile in flight behind K-step c during chunk
            // c; K-step c's stage released after it.
            let step = INTERLEAVE && has_next && !failed && kk < k_steps;
            let mut issued = None;
            if step {
                issued = issue_step::<T>(&mut consumer, &mut d, ab, im, kk, err);
                failed = issued.is_none();
            }
            T::store_chunk(&packed, c, cbase, &lane_off, t, bar_id, map_c, origin);
            if let Some(full) = issued {
                wgmma_wait::<1>();
                if let Some(prev) = e0.replace(full) {
                    prev.release::<PtxSpin>();
                }
                kk += 1;
            }
        });
        if failed {
            break 'tiles;
        }
        ct = next;
    }
    // Nothing in flight after the last tile; after a wait that gave up, the K-steps issued
    // before it complete before the warpgroup leaves.
    wgmma_wait::<0>();
    if t == 0 {
        bulk_wait_all();
    }
}

conv_entry!(
    gemm_conv_ov_rust,
    "`gemm_conv_fprop_rust` with the epilogue overlapping the next tile's first K-steps: K-step \
     0 issued before it, K-steps 1 ..= 4 between its four chunks (packed accumulator, stmatrix \
     + TMA stores), 128 x 256 tiles, persistent.",
    conv_ov_body::<Ov256<Decl11>, true>
);
conv_entry!(
    gemm_conv_ov_cl21_rust,
    "`gemm_conv_ov_rust` in 2x1 clusters (`gemm_conv_cl21_rust`'s B multicast).",
    conv_ov_body::<Ov256<Decl21>, true>
);
conv_entry!(
    gemm_conv_ov2_rust,
    "`gemm_conv_ov_rust`'s other schedule: the next tile's K-steps 0 and 1 issued before the \
     whole epilogue, their stages held until it ends.",
    conv_ov_body::<Ov256<Decl11>, false>
);
