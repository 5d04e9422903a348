//! A complete nvptx64 kernel crate that uses smemdesc: one bf16 GEMM tile per CTA,
//! `C[m0.., n0..] = A · Bᵀ` over all of K (A: M x K, B: N x K, both K contiguous; C: M x N f32,
//! row-major), with TMA loads into a two-stage pipeline (a full and an empty mbarrier per stage)
//! and wgmma.
//!
//! Everything about the shared-memory layout comes from smemdesc (`tiles.rs`): where each tile
//! and barrier sits (`#[smem_storage]`), the TMA destinations and box coordinates, the wgmma
//! descriptors, and the barrier protocol (`#[smem_pipeline]`: init counts, the bytes a stage
//! delivers, which parity to wait for, who releases a stage). The instructions those describe are
//! smemdesc's (`smemdesc::ptx`: mbarriers, TMA, fences, special registers, and `Spin`, the
//! pipeline's `PipelineOps`), and so are the `wgmma` issue, fence, commit and wait on the typed
//! accumulator (`smemdesc::accum`); the crate's own `asm!` (`ptx.rs`) is the dynamic
//! shared-memory symbol's address. Build (see README.md; the PTX lands in `out/gemm_tile.ptx`):
//!
//! ```text
//! ./build.sh
//! ```
#![no_std]
#![feature(abi_ptx, asm_experimental_arch)]

mod ptx;
pub mod tiles;

use ptx::*;
use smemdesc::accum::{
    wgmma_commit_group, wgmma_fence, wgmma_m64n128k16_bf16, wgmma_wait_group, WgmmaAcc,
};
use smemdesc::pipeline::PipeAt;
use smemdesc::ptx::{ctaid_x, ctaid_y, fence_tensormap_acquire, tid_x, trap, Spin};
use smemdesc::{Major, SmemTile};
use tiles::{Pipe, Storage, TileA, TileB, BK, BM, BN, THREADS};

// The dynamic shared memory of the module. Rust has no shared-memory `static`; the storage's
// offsets are from this symbol's address rounded up to `Storage::ALIGN`, and the host launches
// with `Storage::LAUNCH_BYTES`, which includes the slack for that rounding.
core::arch::global_asm!(".extern .shared .align 16 .b8 smem_dyn[];");

// The box coordinates below are (K, M/N) in that order: the tensor maps' innermost dimension is
// K, which is what a K-major tile's map has.
const _: () = assert!(matches!(TileA::MAJOR, Major::K) && matches!(TileB::MAJOR, Major::K));
// One wgmma covers B's whole tile along N; A has one 64-row subtile per warpgroup.
const _: () = assert!(TileB::MMAS_MN == 1 && THREADS == 128 * TileA::MMAS_MN);
const _: () = assert!(TileA::TILE_K == TileB::TILE_K && Pipe::STAGES == TileA::STAGES);
// The pipeline's consumers are the warpgroups.
const _: () = assert!(THREADS == 128 * Pipe::LAYOUT.spec().consumers);

/// One CTA computes the `BM x BN` tile of C at block `(ctaid.x, ctaid.y)` (rows, columns).
///
/// Parameters: `maps` is the device address of two 128-byte `CUtensorMap`s, A's (`[K, M]`) then
/// B's (`[K, N]`), encoded from `TileA` / `TileB` and copied to global memory before the launch
/// (`smemdesc::cuda::upload`; a by-value `CUtensorMap` parameter does not work from Rust:
/// README.md); `c` is M x N f32, row-major; `n` and `k` are B's rows and the shared K (K a
/// multiple of `BK`). `desc_a_xor` is XORed into A's descriptors: 0, except for the host's
/// negative control.
///
/// # Safety
/// `THREADS` threads per CTA (`build.sh` declares `.maxntid THREADS`: a launch with more
/// fails), `Storage::LAUNCH_BYTES` of dynamic shared memory, a grid of `(M / BM, N / BN)`,
/// valid maps and buffers of those sizes.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn gemm_tile(
    maps: u64,
    c: *mut f32,
    n: u32,
    k: u32,
    desc_a_xor: u64,
) {
    let (map_a, map_b) = (maps, maps + 128);
    let tid = tid_x();
    let wg = tid / 128; // this warpgroup's 64-row subtile of A (a run-time MMA index)
    let (bx, by) = (ctaid_x(), ctaid_y());
    let origin = (bx * BM, by * BN);
    let k_tiles = k / BK;
    let base = Storage::aligned_base(smem_dyn());
    let (a, b) = (Storage::a(base), Storage::b(base));
    // Checked once, before any wgmma: A's subtile `wg` and both tiles' addresses (a `trap` for
    // a thread past A's subtiles). Inside the loop the descriptors are the unchecked forms, whose
    // indices are in range by construction (the constant `kk < MMAS_K`, the stage the pipeline
    // handed out): a checked form's trap branch there would be a divergent path in the wgmma
    // region, and ptxas serialises every wgmma of the kernel (C7520).
    if a.try_desc(wg, 0, 0).is_err() || b.try_desc(0, 0, 0).is_err() {
        trap()
    }

    // The declared pipeline: its handles issue the declared counts, bytes and parities.
    let pipe = PipeAt::<Pipe>::new(base, 0);
    // Thread 0 fills a stage: the declared loads (A then B) of K tile `kt` at this CTA's origin.
    // `Spin`'s waits never give up, so `acquire` and `wait` never return `None`.
    let fill = |producer: &mut smemdesc::pipeline::Producer<Pipe>, kt: u32| {
        if let Some(f) = producer.acquire::<Spin>() {
            let _ = f
                .load::<Spin>(map_a, kt * BK, origin.0)
                .load::<Spin>(map_b, kt * BK, origin.1)
                .issued();
        }
    };
    if tid == 0 {
        pipe.init::<Spin>();
        // The host uploaded both maps before the launch.
        fence_tensormap_acquire(map_a);
        fence_tensormap_acquire(map_b);
    }
    pipe.init_sync::<Spin>();
    // The instance's one producer and one consumer set (`split` consumes the handle).
    let (mut producer, consumers) = pipe.split();
    if tid == 0 {
        let mut kt = 0;
        while kt < Pipe::STAGES && kt < k_tiles {
            fill(&mut producer, kt);
            kt += 1;
        }
    }

    // Thread `tid % 128` of consumer warpgroup `wg` (thread 0 of each releases the stage).
    let mut consumer = consumers.thread(tid % 128);
    // The m64n128 accumulator (64 f32 per thread), zeroed from a constant, in registers.
    let mut acc = WgmmaAcc::<128>::zero();
    let mut kt = 0;
    while kt < k_tiles {
        let Some(full) = consumer.wait::<Spin>() else {
            trap()
        };
        let stage = full.stage();
        wgmma_fence();
        let mut kk = 0;
        while kk < TileA::MMAS_K {
            // Descriptors of A's subtile (wg, kk) and B's subtile (0, kk) of this stage: adds
            // and shifts of constants, no branch (checked above).
            let da = a.desc_wrapping(wg, kk, stage) ^ desc_a_xor;
            let db = b.desc_wrapping(0, kk, stage);
            wgmma_m64n128k16_bf16::<0, 0>(&mut acc, da, db, kt | kk != 0);
            kk += 1;
        }
        wgmma_commit_group();
        wgmma_wait_group::<0>();
        // No read of the accumulator above the wait.
        acc.fence_operands();
        // This warpgroup is done reading the stage; once both released it, thread 0 refills it
        // with K tile kt + STAGES (its acquire waits for the other warpgroup's release).
        full.release::<Spin>();
        if tid == 0 && kt + Pipe::STAGES < k_tiles {
            fill(&mut producer, kt + Pipe::STAGES);
        }
        kt += 1;
    }

    // The m64n128 fragment to C: element 4 j + 2 h + e is row 16 warp + lane / 4 + 8 h,
    // column 8 j + 2 (lane % 4) + e of this warpgroup's 64 x 128 block.
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let row0 = origin.0 + wg * 64 + warp * 16 + lane / 4;
    let col0 = origin.1 + 2 * (lane % 4);
    acc.for_each_mut(|i, v| {
        let (j, h, e) = (i / 4, (i / 2) % 2, i % 2);
        let at = (row0 as usize + 8 * h) * n as usize + col0 as usize + 8 * j + e;
        c.add(at).write(*v);
    });
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    trap()
}
