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
//! 2. issues the next tile's first [`EARLY`] K-steps into the accumulator (wgmma m64n256k16,
//!    K-step 0 starting it over) without waiting for them;
//! 3. writes the packed tile through the declared C tile (stmatrix.x4 at the declaration's
//!    offsets, `fence.proxy.async`, one thread's TMA stores: the warps do not wait for the
//!    global writes) while those wgmmas run;
//! 4. waits for the early K-steps (`wgmma.wait_group 1`: all but the last), releases their
//!    stages and goes on with the next tile's remaining K-steps as `conv.rs` does.
//!
//! The producer, the pipeline, the schedule (`conv::Schedule`) and the stores are `conv.rs`'s
//! and `epi.rs`'s; only the order of the consumer's work changes, so the output is the same bit
//! for bit. The accumulator is never read or written while its wgmmas are in flight (the
//! epilogue reads the packed copy only). Barriers: the stages of the early K-steps stay held
//! until step 4 (at most `EARLY + 1` of the 4 stages, so the producer never waits for a stage
//! this warpgroup can only release later); the named barrier of each warpgroup orders its own
//! stmatrix writes and its TMA stores, as in `epi::store_tile`; nothing waits across the two
//! consumer warpgroups. Every mbarrier wait is the bounded one (`PtxSpin`): a stage that never
//! fills writes 1 to `err` and the warpgroup leaves.

use crate::conv::{produce, walk_fills, Schedule};
use crate::epi_tiles::{CTile, Decl11, Decl21, EpiDecl, BM, BN, C_BOXES};
use crate::gemm::Acc;
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::accum::{Bf16x2, PackedAcc};
use smemdesc::pipeline::{Consumer, Full, PipeAt};
use smemdesc::tma::Im2colWalk;

/// K-steps of the next tile issued before the previous tile's epilogue (two stages of two
/// warpgroups' m64n256k64: about as long as the epilogue's stmatrix writes and barriers).
pub(crate) const EARLY: u32 = 2;

/// Chunk `c` (a constant after unrolling) of the packed tile `p` (`WgmmaAcc::pack::<Bf16x2>` of
/// the accumulator), as `epi::store_tile` writes each chunk: C stage `c % STAGES`, the declared
/// stmatrix.x4 instructions (register group `g = c·INSTRUCTIONS + i`: packed registers
/// `4g .. 4g + 4`, what `WgmmaAcc::for_each_group::<4, Bf16x2>` converts), then thread 0 stores
/// the stage's TMA boxes at columns `n0 + ..`, rows `row0 + ..`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_chunk(
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
    if t == 0 {
        // The store that last read this buffer is done reading it.
        bulk_wait_read::<{ CTile::STAGES - 1 }>();
    }
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
    if t == 0 {
        unroll!(CTile::TMA_BOXES, |b| {
            let (off, (inner0, r0)) = C_BOXES[b as usize];
            tma_store_2d(
                map,
                buf + off,
                n0 + c * CTile::EPILOGUE.spec().n + inner0,
                row0 + r0,
            );
        });
        bulk_commit();
    }
}

/// Issues K-step `kk` (0 starts the accumulator over) of a tile into `d` from the next full
/// stage, committed and not waited for; returns the stage, `None` when the wait gave up (`err`
/// set).
#[inline(always)]
unsafe fn issue_step<D: EpiDecl>(
    consumer: &mut Consumer<D::Pipe>,
    d: &mut Acc,
    (a_addr, b_addr): (u32, u32),
    im: u32,
    kk: u32,
    err: u64,
) -> Option<Full<D::Pipe>> {
    let Some(full) = consumer.wait::<PtxSpin>() else {
        st_global_u32(err, 1);
        return None;
    };
    crate::epi::mma_stage::<D>(d, a_addr, b_addr, im, full.stage(), kk);
    Some(full)
}

/// The convolution of `conv.rs`'s `conv_body` with an overlapped consumer schedule (module
/// docs): `INTERLEAVE` false, the next tile's K-steps 0 and 1 issued before the whole epilogue;
/// true, K-step 0 before it and K-steps 1 ..= 4 between its chunks.
#[inline(always)]
unsafe fn conv_ov_body<D: EpiDecl, const INTERLEAVE: bool>(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    const { assert!(D::Y == 1 && EARLY == 2) };
    if !walk_fills::<D::A>(&walk, err) {
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
    let Some(sched) = Schedule::new(walk.m_blocks, k_out.div_ceil(BN), group_m, D::X) else {
        if tid() == 0 && ctaid() == 0 {
            st_global_u32(err, 2);
        }
        return;
    };
    let base = D::aligned_base(smem_dyn());
    let ab = (D::a(base).addr(), D::b(base).addr());
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
            produce::<D::Pipe, false>(producer, map_a, map_b, &walk, &sched, BN, err);
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
    // The tile the loop starts: `kk` its next K-step to issue, `e0` the stage of the last one
    // issued (in flight) and `e1`, when two are in flight (`INTERLEAVE` false), the stage of the
    // one after it. The first tile's K-step 0 (and 1) are issued here (no epilogue to overlap).
    let (mut e0, mut e1) = (None, None);
    let mut kk = 1;
    if ct < sched.count() {
        e0 = issue_step::<D>(&mut consumer, &mut d, ab, im, 0, err);
        if e0.is_none() {
            return;
        }
        if !INTERLEAVE && k_steps > 1 {
            e1 = issue_step::<D>(&mut consumer, &mut d, ab, im, 1, err);
            if e1.is_none() {
                return;
            }
            kk = 2;
        }
    }
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        let origin = (ni * BN, mi * BM + im * 64);
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
            crate::epi::mma_stage::<D>(&mut d, ab.0, ab.1, im, full.stage(), kk);
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
        // The store stage's copy; the accumulator is free for the next tile.
        let packed = d.pack::<Bf16x2>();
        let next = ct + sched.step;
        let has_next = next < sched.count();
        kk = 0;
        if has_next {
            e0 = issue_step::<D>(&mut consumer, &mut d, ab, im, 0, err);
            if e0.is_none() {
                break 'tiles;
            }
            kk = 1;
            if !INTERLEAVE && k_steps > 1 {
                e1 = issue_step::<D>(&mut consumer, &mut d, ab, im, 1, err);
                if e1.is_none() {
                    break 'tiles;
                }
                kk = 2;
            }
        }
        let mut failed = false;
        unroll!(CTile::CHUNKS, |c| {
            // INTERLEAVE: K-step c + 1 of the next tile in flight behind K-step c during chunk
            // c; K-step c's stage released after it.
            let step = INTERLEAVE && has_next && !failed && kk < k_steps;
            let mut issued = None;
            if step {
                issued = issue_step::<D>(&mut consumer, &mut d, ab, im, kk, err);
                failed = issued.is_none();
            }
            store_chunk(&packed, c, cbase, &lane_off, t, bar_id, map_c, origin);
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

macro_rules! conv_ov_entry {
    ($name:ident, $decl:ty, $inter:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// As `gemm_conv_fprop_rust` (`conv.rs`): 384 threads, the storage's `LAUNCH_BYTES` of
        /// dynamic shared memory, a 1-D grid of whole clusters of the declaration's shape,
        /// `walk` the plan's walk, `map_a`/`map_b`/`map_c` its im2col, filter and store maps in
        /// global memory, `err` a device u32.
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
            conv_ov_body::<$decl, $inter>(map_a, map_b, map_c, walk, k_out, group_m, err);
        }
    };
}

conv_ov_entry!(
    gemm_conv_ov_rust,
    Decl11,
    true,
    "`gemm_conv_fprop_rust` with the epilogue overlapping the next tile's first K-steps: K-step \
     0 issued before it, K-steps 1 ..= 4 between its four chunks (packed accumulator, stmatrix \
     + TMA stores), 128 x 256 tiles, persistent."
);
conv_ov_entry!(
    gemm_conv_ov_cl21_rust,
    Decl21,
    true,
    "`gemm_conv_ov_rust` in 2x1 clusters (`gemm_conv_cl21_rust`'s B multicast)."
);
conv_ov_entry!(
    gemm_conv_ov2_rust,
    Decl11,
    false,
    "`gemm_conv_ov_rust`'s other schedule: the next tile's K-steps 0 and 1 issued before the \
     whole epilogue, their stages held until it ends."
);
