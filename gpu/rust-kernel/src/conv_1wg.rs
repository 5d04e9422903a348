//! Issue 47's stride-2 experiment: the implicit-GEMM convolution on a 128 x 128 tile with one
//! consumer warpgroup (`conv_tiles.rs`'s `m128` declarations, 3 stages), 256 threads, two CTAs
//! per SM (`.minnctapersm 2`, build_ptx.sh): the shape of cuDNN's fastest engine on the 3x3
//! 256 stride-2 layer (`…tilesize128x128x64_warpgroupsize1x1x1…`, ncu, 2026-12-07). The producer
//! is `conv.rs`'s; the consumer is `conv128.rs`'s for one warpgroup (its two 64-row subtiles of
//! wgmma m64n128k16, the epilogue through `CTile128`).

use crate::conv::{produce, walk_fills, Schedule};
use crate::conv128::store_tile;
use crate::conv_tiles::m128::{A, B};
use crate::conv_tiles::{CTile128, Pipe1wg, Storage1wg, BM1WG, BN128};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::accum::{self, WgmmaAcc};
use smemdesc::pipeline::{Full, PipeAt};
use smemdesc::tma::Im2colWalk;
use smemdesc::SmemTile;

/// The wgmma of stage `s`: A's two subtiles against B, the K subtiles as adds of the advance
/// tables; the accumulators start over at K-step 0.
#[inline(always)]
unsafe fn mma_stage(acc: &mut [WgmmaAcc<128>; 2], a_addr: u32, b_addr: u32, s: u32, kk: u32) {
    wgmma_fence();
    let da0 = <A as SmemTile>::ACCESS.desc_wrapping(a_addr, 0, 0, s);
    let da1 = <A as SmemTile>::ACCESS.desc_wrapping(a_addr, 1, 0, s);
    let db = <B as SmemTile>::ACCESS.desc_wrapping(b_addr, 0, 0, s);
    unroll!(A::MMAS_K, |k| {
        let (ka, kb) = (
            A::ADVANCE_K[k as usize] as u64,
            B::ADVANCE_K[k as usize] as u64,
        );
        let accumulate = (kk | k) != 0;
        let [a0, a1] = acc;
        accum::wgmma_m64n128k16_bf16::<0, 0>(a0, da0 + ka, db + kb, accumulate);
        accum::wgmma_m64n128k16_bf16::<0, 0>(a1, da1 + ka, db + kb, accumulate);
    });
    wgmma_commit();
}

/// The 128 x 128 implicit-GEMM forward convolution with one consumer warpgroup, persistent,
/// 256 threads, two CTAs per SM.
///
/// # Safety
/// `Storage1wg::BYTES` of dynamic shared memory at a base aligned to `Storage1wg::ALIGN` (else it
/// writes 2 to `err` and computes nothing); `walk`: `ImplicitGemmA::for_tile(conv,
/// m128::A)?.walk()`; `map_a` its im2col map, `map_b` the filter's map for `m128::B`, `map_c`
/// `CTile128`'s store map over `[N·P·Q, k_out]`, all in global memory; `err` a device u32.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn gemm_conv_1wg_rust(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    walk: Im2colWalk,
    k_out: u32,
    group_m: u32,
    err: u64,
) {
    if !walk_fills::<A>(&walk, err) {
        return;
    }
    // Launched with `Storage1wg::BYTES` (no alignment slack, for two CTAs per SM): a dynamic
    // base that is not aligned is refused, never rounded up past the allocation.
    let dyn_base = smem_dyn();
    if dyn_base % Storage1wg::ALIGN != 0 {
        if tid() == 0 {
            st_global_u32(err, 2);
        }
        return;
    }
    let base = Storage1wg::aligned_base(dyn_base);
    let (a_addr, b_addr) = (Storage1wg::a(base).addr(), Storage1wg::b(base).addr());
    let Some(sched) = Schedule::new(walk.m_blocks, k_out.div_ceil(BN128), group_m, 1) else {
        return;
    };
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<Pipe1wg>::new(base, 0);
    if tid == 0 {
        pipe.init::<PtxSpin>();
    }
    pipe.init_sync::<PtxSpin>();
    let (producer, consumers) = pipe.split();
    if wg == 0 {
        smemdesc::ptx::setmaxnreg_dec::<40>();
        if tid == 0 {
            produce::<Pipe1wg, false>(producer, map_a, map_b, &walk, &sched, BN128, err);
        }
        return;
    }
    smemdesc::ptx::setmaxnreg_inc::<216>();
    let t = tid % 128;
    if t == 0 {
        // This thread issues the warpgroup's TMA stores.
        tensormap_acquire(map_c);
    }
    let cbase = Storage1wg::c0(base);
    let mut off = [0u32; 4];
    unroll!(4, |i| {
        off[i as usize] = CTile128::writer_offset(0, (t / 32) % 4, i, t % 32);
    });
    let mut acc = [WgmmaAcc::<128>::zero(), WgmmaAcc::<128>::zero()];
    let mut consumer = consumers.thread(t);
    let mut ct = sched.first;
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        let mut held: Option<Full<Pipe1wg>> = None;
        let mut kk = 0;
        while kk < walk.k_steps {
            let Some(full) = consumer.wait::<PtxSpin>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            mma_stage(&mut acc, a_addr, b_addr, full.stage(), kk);
            wgmma_wait::<1>();
            if let Some(prev) = held.replace(full) {
                prev.release::<PtxSpin>();
            }
            kk += 1;
        }
        wgmma_wait::<0>();
        acc[0].fence_operands();
        acc[1].fence_operands();
        if let Some(last) = held.take() {
            last.release::<PtxSpin>();
        }
        store_tile(&acc, cbase, &off, t, 1, map_c, ni * BN128, mi * BM1WG);
        ct += sched.step;
    }
    if t == 0 {
        bulk_wait_all();
    }
}
