//! Issue 22 from Rust: the persistent warp-specialised bf16 GEMM (C = A · Bᵀ, 128 x 256 x 64
//! per stage, 4 stages, 2 consumer warpgroups of wgmma m64n256k16, the design of `gemm.rs` and
//! of `gpu/kernels/epi_cluster.cu`) with
//!
//! * the epilogue through the declared C/D tile (`epi_tiles::CTile`): each consumer writes its
//!   accumulator in 4 chunks of 64 columns with `stmatrix.x4` at the declaration's per-lane
//!   offsets and register pairs into the swizzled tile, `fence.proxy.async`, and one thread
//!   stores the boxes of the declaration's TMA store plan (`cp.async.bulk.tensor` shared →
//!   global, bulk groups);
//! * 2x1 / 1x2 cluster multicast whose slices, SMEM offsets, `ctaMask`s and `expect_tx` come
//!   from `#[smem_mma(cluster = ..)]` (the core's `Cluster::multicast`); a consumer frees a
//!   stage in both CTAs (a plain remote `mbarrier.arrive` on the `mapa` address), and the
//!   producer waits for the last releases instead of a closing cluster barrier;
//! * a watchdog on every mbarrier wait: a bounded `try_wait` loop that writes 1 to `err` and
//!   leaves the kernel, so a wrong `expect_tx` ends the launch instead of hanging it.
//!
//! Shared memory is placed by each shape's `#[smem_storage]` (`epi_tiles.rs`).

use crate::epi_tiles::{CTile, Decl11, Decl12, Decl21, EpiDecl, BK, BM, BN, C_BOXES, THREADS};
use crate::gemm::{tile_index, Acc};
use crate::pipe_ops::Ptx;
use crate::ptx::*;
use smemdesc::pipeline::{Full, PipeAt};
use smemdesc::SmemTile;

/// Chunk `c` (a constant after unrolling) of the accumulator into the C stage at `buf`: the
/// declared `stmatrix.x4` instructions, this thread at `buf + off[i]`, registers
/// `CTile::pair(c, i, q)`: the library's register groups (`WgmmaAcc::for_each_group`, group `g`
/// = instruction `g % INSTRUCTIONS` of chunk `g / INSTRUCTIONS`), the other chunks' folded away.
#[inline(always)]
unsafe fn store_chunk(d: &Acc, c: u32, buf: u32, off: &[u32; 4]) {
    d.for_each_group::<4, smemdesc::accum::Bf16x2>(|g, regs| {
        let (chunk, i) = (
            g as u32 / CTile::INSTRUCTIONS,
            g as u32 % CTile::INSTRUCTIONS,
        );
        if chunk == c {
            stmatrix_x4(buf + off[i as usize], regs);
        }
    });
}

/// The wgmma of one stage for consumer `im`: the placed tiles' descriptors of this warpgroup's A
/// subtile and of B, K subtile 0 of stage `s`; the K subtiles are adds of the constant advance
/// table; the accumulator starts over at k-tile 0. Fenced before, committed after.
#[inline(always)]
pub(crate) unsafe fn mma_stage<D: EpiDecl>(
    d: &mut Acc,
    a_addr: u32,
    b_addr: u32,
    im: u32,
    s: u32,
    kt: u32,
) {
    wgmma_fence();
    let da = <D::A as SmemTile>::ACCESS.desc_wrapping(a_addr, im, 0, s);
    let db = <D::B as SmemTile>::ACCESS.desc_wrapping(b_addr, 0, 0, s);
    unroll!(D::A::MMAS_K, |k| {
        let (ka, kb) = (
            D::A::ADVANCE_K[k as usize] as u64,
            D::B::ADVANCE_K[k as usize] as u64,
        );
        smemdesc::accum::wgmma_m64n256k16_bf16::<0, 0>(d, da + ka, db + kb, (kt | k) != 0);
    });
    wgmma_commit();
}

/// The epilogue of one consumer warpgroup (thread `t`, named barrier `bar_id`): chunk c of the
/// accumulator through C stage c % STAGES with the declared stmatrix offsets, then thread 0
/// stores the stage's TMA boxes with `map` at columns `n0 + ..`, rows `row0 + ..`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn store_tile(
    d: &Acc,
    cbase: u32,
    lane_off: &[u32; 4],
    t: u32,
    bar_id: u32,
    map: u64,
    n0: u32,
    row0: u32,
) {
    unroll!(CTile::CHUNKS, |c| {
        let buf = cbase + (c % CTile::STAGES) * CTile::STAGE_BYTES;
        if t == 0 {
            // The store that last read this buffer is done reading it.
            bulk_wait_read::<{ CTile::STAGES - 1 }>();
        }
        named_bar(bar_id, 128);
        store_chunk(d, c, buf, lane_off);
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
    });
}

/// The byte offsets (from the C stage base) this thread passes to the 4 writer instructions:
/// the declaration's `CTile::writer_offset` of warp `warp % 4`, lane `lane % 32`, evaluated
/// here with run-time indices (a few integer instructions: scripts/ptx-check's `lane_*` kernels).
#[inline(always)]
pub(crate) fn lane_offsets(warp: u32, lane: u32) -> [u32; 4] {
    let mut o = [0u32; 4];
    unroll!(4, |i| {
        o[i as usize] = CTile::writer_offset(0, warp % 4, i, lane % 32);
    });
    o
}

/// The GEMM of cluster shape `D` (1x1, 2x1, 2x2 CTAs sharing B along M / A along N).
///
/// `tx_delta` is ignored: the declared pipeline issues the declared `expect_tx` (the raw
/// negative control, `expect_tx + 1024`, runs the kernels from before the port, which take it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_epi_body<D: EpiDecl>(
    map_a: u64,
    map_b: u64,
    map_c: u64,
    m_total: u32,
    n_total: u32,
    k_total: u32,
    group_m: u32,
    _tx_delta: u32,
    err: u64,
) {
    let cs = D::X * D::Y;
    let base = D::aligned_base(smem_dyn());
    // The tiles' addresses from the storage's placed members; stage addresses and descriptors
    // from the tiles' constants (`SmemTile::STAGE_BYTES`, `ACCESS`: straight-line code).
    let (a_addr, b_addr) = (D::a(base).addr(), D::b(base).addr());
    let rank = if cs == 1 { 0 } else { cluster_ctarank() };
    let (ci, cj) = (rank % D::X, rank / D::X);
    let (cid, nclusters) = (ctaid() / cs, nctaid() / cs);
    let (ctm, ctn) = (m_total / BM / D::X, n_total / BN / D::Y);
    let ctiles = ctm * ctn;
    // This CTA's C tile origin `(m0, n0)` of cluster tile `ct` (the raster of `gemm.rs`).
    let origin = |ct: u32| {
        let (mi, ni) = tile_index(ct, ctm, ctn, group_m);
        ((mi * D::X + ci) * BM, (ni * D::Y + cj) * BN)
    };
    let k_tiles = k_total / BK;
    let tid = tid();
    let wg = tid / 128;
    // The declared pipeline: init counts, expect_tx, parities and release sets are its constants.
    let pipe = PipeAt::<D::Pipe>::new(base, rank);
    if tid == 0 {
        pipe.init::<Ptx>();
    }
    pipe.init_sync::<Ptx>();
    let (mut producer, consumers) = pipe.split();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            tensormap_acquire(map_a);
            tensormap_acquire(map_b);
            let mut ok = true;
            let mut ct = cid;
            'tiles: while ct < ctiles {
                let (m0, n0) = origin(ct);
                let mut kt = 0;
                while kt < k_tiles {
                    let Some(fill) = producer.acquire::<Ptx>() else {
                        ok = false;
                        break 'tiles;
                    };
                    let k0 = kt * BK;
                    let _ = fill
                        .load::<Ptx>(map_a, k0, m0)
                        .load::<Ptx>(map_b, k0, n0)
                        .issued();
                    kt += 1;
                }
                ct += nclusters;
            }
            // Cluster: stay until both CTAs' consumers released every stage, so no remote
            // arrive reaches this CTA after it exits (no closing cluster barrier).
            if cs > 1 && ok {
                ok = producer.drain::<Ptx>();
            }
            if !ok {
                st_global_u32(err, 1);
            }
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
    // This thread's stmatrix row address per writer instruction, from the declaration.
    let lane_off = lane_offsets(warp, lane);
    let mut d = Acc::zero();
    let mut consumer = consumers.thread(t);
    let mut ct = cid;
    let bar_id = 1 + im;
    'tiles: while ct < ctiles {
        let (m0, n0) = origin(ct);
        let mut kt = 0;
        // The stage read by the wgmmas in flight, released once they completed.
        let mut held: Option<Full<D::Pipe>> = None;
        while kt < k_tiles {
            let Some(full) = consumer.wait::<Ptx>() else {
                st_global_u32(err, 1);
                break 'tiles;
            };
            mma_stage::<D>(&mut d, a_addr, b_addr, im, full.stage(), kt);
            wgmma_wait::<1>();
            // The previous stage's wgmmas completed: release it.
            if let Some(prev) = held.replace(full) {
                prev.release::<Ptx>();
            }
            kt += 1;
        }
        wgmma_wait::<0>();
        d.fence_operands();
        if let Some(last) = held.take() {
            last.release::<Ptx>();
        }
        store_tile(&d, cbase, &lane_off, t, bar_id, map_c, n0, m0 + im * 64);
        ct += nclusters;
    }
    if t == 0 {
        bulk_wait_all();
    }
}

macro_rules! gemm_entry {
    ($name:ident, $decl:ty, $doc:literal) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// 384 threads, the storage's `LAUNCH_BYTES` of dynamic shared memory, launched with the
        /// declaration's cluster dimensions (a 1-D grid of whole clusters); M a multiple of
        /// 128·X, N of 256·Y, K of 64; tensor maps of A (`[K, M]`), B (`[K, N]`) and C
        /// (`[N, M]`, the C tile's box and swizzle) in global memory; `err` a device `u32`.
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(
            map_a: u64,
            map_b: u64,
            map_c: u64,
            m: u32,
            n: u32,
            k: u32,
            group_m: u32,
            tx_delta: u32,
            err: u64,
        ) {
            gemm_epi_body::<$decl>(map_a, map_b, map_c, m, n, k, group_m, tx_delta, err);
        }
    };
}

gemm_entry!(
    gemm_epi_rust,
    Decl11,
    "The persistent GEMM with the TMA-store epilogue, no cluster."
);
gemm_entry!(
    gemm_cl21_rust,
    Decl21,
    "Cluster 2x1 (B multicast), TMA-store epilogue."
);
gemm_entry!(
    gemm_cl12_rust,
    Decl12,
    "Cluster 1x2 (A multicast), TMA-store epilogue."
);

/// The C tile's stores alone, for Nsight Compute's bank counters without concurrent TMA or
/// wgmma traffic: the threads of the block (1 to 4 warps) write `reps` times the 4 chunks of a
/// synthetic accumulator at the declared lane offsets (`ctrl` ≠ 0: at the offsets of plain
/// unswizzled 128-byte rows, the control that must conflict), then thread `t` copies word `t`
/// of the tile to `sink`.
///
/// # Safety
/// At most 128 threads, `CTile::STAGE_BYTES + 1024` bytes of dynamic shared memory, `sink`
/// holds a `u32` per thread.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn epi_store_only_rust(reps: u32, ctrl: u32, sink: u64) {
    let base = (smem_dyn() + 1023) & !1023;
    let t = tid();
    let (warp, lane) = (t / 32, t % 32);
    let mut d = Acc::zero();
    d.for_each_mut(|e, x| *x = (t + e as u32) as f32);
    let declared = lane_offsets(warp, lane);
    let mut off = [0u32; 4];
    unroll!(CTile::INSTRUCTIONS, |i| {
        off[i as usize] = if ctrl != 0 {
            // stmatrix.x4 matrix g = 4i + lane / 8: rows 16·warp + 8·(g & 1) + lane % 8,
            // columns 8·(g >> 1), in rows of 128 bytes without swizzle.
            let g = i * 4 + lane / 8;
            (16 * warp + 8 * (g & 1) + lane % 8) * 128 + 16 * (g >> 1)
        } else {
            declared[i as usize]
        };
    });
    let mut r = 0;
    while r < reps {
        unroll!(CTile::CHUNKS, |c| {
            store_chunk(&d, c, base, &off);
        });
        r += 1;
    }
    sync_threads();
    st_global_u32(sink + 4 * t as u64, ld_shared_u32(base + 4 * t));
}

/// Launch bytes of `epi_store_only_rust`.
pub const STORE_ONLY_BYTES: u32 = CTile::STAGE_BYTES + 1024;
/// Threads of the GEMM kernels.
pub const GEMM_THREADS: u32 = THREADS;
/// Launch bytes of each GEMM kernel: 1x1, 2x1, 1x2.
pub const GEMM_LAUNCH_BYTES: [u32; 3] = [
    Decl11::LAUNCH_BYTES,
    Decl21::LAUNCH_BYTES,
    Decl12::LAUNCH_BYTES,
];
