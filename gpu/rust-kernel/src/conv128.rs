//! The 256 x 128 convolution (issue 32): `conv.rs`'s producer with the declarations of
//! `conv_tiles.rs`: one im2col load of 256 output pixels per stage, B 128 filters, each consumer
//! warpgroup two 64-row subtiles of wgmma m64n128k16 (two 64-register accumulators), and the
//! epilogue through the m64n128 C tile (`CTile128`: stmatrix.x4 offsets and register pairs,
//! TMA store boxes). For layers whose filters are not a multiple of 256 (`K_out = 128`), where
//! the 128 x 256 tile would compute half zeros. The register side is the library's
//! (`smemdesc::accum`, issue 43 item 6): the two accumulators are `WgmmaAcc<128>`, the issue is
//! `accum::wgmma_m64n128k16_bf16`, and the epilogue's register groups come from
//! `WgmmaAcc::for_each_group`.

use crate::conv::{produce, walk_fills, Schedule};
use crate::conv_tiles::n128::{A, B};
use crate::conv_tiles::{CTile128, Pipe128, Storage128, BM128, BN128};
use crate::pipe_ops::PtxSpin;
use crate::ptx::*;
use smemdesc::accum::{self, Bf16x2, WgmmaAcc};
use smemdesc::pipeline::{Full, PipeAt};
use smemdesc::tma::Im2colWalk;
use smemdesc::SmemTile;

/// The wgmma of one stage for consumer `im`: its two A subtiles (`2·im`, `2·im + 1`) against B,
/// the K subtiles as adds of the advance tables; the accumulators start over at K-step 0.
#[inline(always)]
pub(crate) unsafe fn mma_stage(
    acc: &mut [WgmmaAcc<128>; 2],
    a_addr: u32,
    b_addr: u32,
    im: u32,
    s: u32,
    kk: u32,
) {
    wgmma_fence();
    let da0 = <A as SmemTile>::ACCESS.desc_wrapping(a_addr, 2 * im, 0, s);
    let da1 = <A as SmemTile>::ACCESS.desc_wrapping(a_addr, 2 * im + 1, 0, s);
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

/// The C stage of epilogue chunk `jc` (of all the warpgroup's chunks, in order) at `cbase`.
#[inline(always)]
pub(crate) fn chunk_buf(cbase: u32, jc: u32) -> u32 {
    cbase + (jc % CTile128::STAGES) * CTile128::STAGE_BYTES
}

/// Before a chunk's stmatrix writes: thread 0 waits until the TMA stores of the stage's last
/// chunk read it, and the warpgroup meets at its barrier `bar_id`.
#[inline(always)]
pub(crate) unsafe fn chunk_wait(t: u32, bar_id: u32) {
    // Predicated, not branched on (`conv_ov.rs`'s `store_chunk256` says why).
    smemdesc::ptx::bulk_wait_group_read_if::<{ CTile128::STAGES - 1 }>(t == 0);
    named_bar(bar_id, 128);
}

/// After a chunk's stmatrix writes into `buf`: the writes fenced for the async proxy, the
/// warpgroup's barrier, then thread 0 stores the chunk's TMA boxes (chunk `c` of 64 columns of
/// subtile `j`) at columns `n0 + 64·c + ..`, rows `row0 + 64·j + ..` and commits them.
#[inline(always)]
pub(crate) unsafe fn chunk_store(
    buf: u32,
    t: u32,
    bar_id: u32,
    map: u64,
    (n0, c): (u32, u32),
    (row0, j): (u32, u32),
) {
    fence_proxy_async_shared();
    named_bar(bar_id, 128);
    let one = t == 0;
    unroll!(CTile128::TMA_BOXES, |b| {
        let (boff, (inner0, r0)) = CTile128::tma_box(b);
        smemdesc::ptx::tma_store_2d_if(
            one,
            map,
            buf + boff,
            n0 + c * CTile128::EPILOGUE.spec().n + inner0,
            row0 + 64 * j + r0,
        );
    });
    smemdesc::ptx::bulk_commit_group_if(one);
}

/// The epilogue of one consumer warpgroup: for each subtile `j` and chunk `c` (64 columns), the
/// declared stmatrix.x4 writes into C stage `(2j + c) % STAGES`, then thread 0 stores its TMA
/// boxes at columns `n0 + ..`, rows `row0 + 64j + ..`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_tile(
    acc: &[WgmmaAcc<128>; 2],
    cbase: u32,
    off: &[u32; 4],
    t: u32,
    bar_id: u32,
    map: u64,
    n0: u32,
    row0: u32,
) {
    unroll!(2, |j| {
        // Group g of 4 pairs: instruction g % INSTRUCTIONS of chunk g / INSTRUCTIONS.
        acc[j as usize].for_each_group::<4, Bf16x2>(|g, regs| {
            let (c, i) = (
                g as u32 / CTile128::INSTRUCTIONS,
                g as u32 % CTile128::INSTRUCTIONS,
            );
            let buf = chunk_buf(cbase, j * CTile128::CHUNKS + c);
            if i == 0 {
                chunk_wait(t, bar_id);
            }
            stmatrix_x4(buf + off[i as usize], regs);
            if i == CTile128::INSTRUCTIONS - 1 {
                chunk_store(buf, t, bar_id, map, (n0, c), (row0, j));
            }
        });
    });
}

/// The 256 x 128 implicit-GEMM forward convolution, persistent, 384 threads.
///
/// # Safety
/// `Storage128::LAUNCH_BYTES` of dynamic shared memory; `walk`: `ImplicitGemmA::for_tile(conv,
/// n128::A)?.walk()`; `map_a` its im2col map, `map_b` the filter's map for `n128::B`, `map_c`
/// `CTile128`'s store map over `[N·P·Q, k_out]`, all in global memory; `err` a device u32.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn gemm_conv_n128_rust(
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
    let base = Storage128::aligned_base(smem_dyn());
    let (a_addr, b_addr) = (Storage128::a(base).addr(), Storage128::b(base).addr());
    let Some(sched) = Schedule::new(walk.m_blocks, k_out.div_ceil(BN128), group_m, 1) else {
        return;
    };
    let tid = tid();
    let wg = tid / 128;
    let pipe = PipeAt::<Pipe128>::new(base, 0);
    if tid == 0 {
        pipe.init::<PtxSpin>();
    }
    pipe.init_sync::<PtxSpin>();
    let (producer, consumers) = pipe.split();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            produce::<Pipe128, false>(producer, map_a, map_b, &walk, &sched, BN128, err);
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
    let cbase = if im == 0 {
        Storage128::c0(base)
    } else {
        Storage128::c1(base)
    };
    let mut off = [0u32; 4];
    unroll!(4, |i| {
        off[i as usize] = CTile128::writer_offset(0, (t / 32) % 4, i, t % 32);
    });
    let mut acc = [WgmmaAcc::<128>::zero(), WgmmaAcc::<128>::zero()];
    let mut consumer = consumers.thread(t);
    let bar_id = 1 + im;
    let mut ct = sched.first;
    'tiles: while ct < sched.count() {
        let (mi, ni) = sched.tile(ct);
        let mut held: Option<Full<Pipe128>> = None;
        let mut kk = 0;
        while kk < walk.k_steps {
            let Some(full) = consumer.wait::<PtxSpin>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            mma_stage(&mut acc, a_addr, b_addr, im, full.stage(), kk);
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
        store_tile(
            &acc,
            cbase,
            &off,
            t,
            bar_id,
            map_c,
            ni * BN128,
            mi * BM128 + im * 128,
        );
        ct += sched.step;
    }
    if t == 0 {
        bulk_wait_all();
    }
}
