//! A pipelined sm100 (`tcgen05`) GEMM tile: bf16 A and B (128 x 64, K-major, 128B swizzle),
//! kind::f16, 3 stages, fp32 accumulator in Tensor Memory. Warp 0 loads with TMA, warp 1 issues
//! the MMAs with descriptors from the storage's accessors (run-time stage), and all four warps
//! read the accumulator back with `tcgen05.ld` at the plan's lane offsets (run-time warp).
//!
//! Compiled for the gate only (the `tcgen05` instructions are `asm!` text to LLVM): the module's
//! target is sm_90a, which ptxas would refuse for these; `gpu/tmem-skeleton` is the sm_100a build.

use crate::load_stage;
use crate::ptx::*;
use core::arch::asm;
use smemdesc::prelude::*;
use smemdesc::{AccumType, LoadShape, MmaPair, PairOptions, TmemLoad, TmemLoadMap, TmemPlan};
use smemdesc::{TmemPlanDecl, TmemSlot};

/// A: 128 x 64 bf16 per stage.
#[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            stages = 3)]
pub struct TileA;

/// B: 128 x 64 bf16 per stage (N x K).
#[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (128, 64), major = K, swizzle = 128B,
            stages = 3)]
pub struct TileB;

/// One CTA's shared memory.
#[smem_storage(arch = sm100)]
pub struct Storage {
    full: [Mbarrier; 3],
    empty: [Mbarrier; 3],
    done: Mbarrier,
    slot: TmemSlot,
    a: TileA,
    b: TileB,
}

/// The pairing: the instruction descriptor and the Tensor Memory plan.
pub const PAIR: MmaPair =
    MmaPair::new(&TileA::PLAN, &TileB::PLAN, PairOptions::new(AccumType::F32)).expect_valid();
const IDESC: u32 = match PAIR.idesc() {
    Ok(d) => d.raw(),
    Err(_) => panic!("the pairing has an instruction descriptor"),
};
/// One accumulator stage.
pub const PLAN: TmemPlan = TmemPlanDecl::new(&PAIR).expect_valid();
/// The epilogue's load: `32x32b.x8`.
pub const MAP: TmemLoadMap = PLAN
    .accum
    .expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 8));

const STAGES: u32 = TileA::STAGES;
const STAGE_TX: u32 =
    TileA::TMA_BOXES * TileA::TMA_BOX_BYTES + TileB::TMA_BOXES * TileB::TMA_BOX_BYTES;

#[inline(always)]
unsafe fn tmem_ld_x8(taddr: u32) -> [u32; 8] {
    let mut r = [0u32; 8];
    asm!(
        "tcgen05.ld.sync.aligned.32x32b.x8.b32 {{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}}, [{8}];",
        "tcgen05.wait::ld.sync.aligned;",
        out(reg32) r[0], out(reg32) r[1], out(reg32) r[2], out(reg32) r[3],
        out(reg32) r[4], out(reg32) r[5], out(reg32) r[6], out(reg32) r[7],
        in(reg32) taddr,
        options(nostack),
    );
    r
}

/// `C = A · Bᵀ` for the tile at `(m0, n0)`; `out` is 128 x 128 f32, row-major.
///
/// # Safety
/// 128 threads, `Storage::LAUNCH_BYTES` of dynamic shared memory, valid maps, an sm_100a device.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_sm100(
    map_a: u64,
    map_b: u64,
    out: *mut f32,
    m0: u32,
    n0: u32,
    k_tiles: u32,
) {
    let base = Storage::aligned_base(smem_dyn());
    let tid = tid();
    let warp = tid / 32;
    let (a, b) = (Storage::a(base), Storage::b(base));
    let done = Storage::done(base);
    if warp == 0 {
        asm!(
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{0}], {1};",
            "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
            in(reg32) Storage::slot(base), const PLAN.alloc_columns, options(nostack),
        );
    }
    if tid == 0 {
        let mut s = 0;
        while s < STAGES {
            mbar_init(Storage::full_at(base, s), 1);
            mbar_init(Storage::empty_at(base, s), 1);
            s += 1;
        }
        mbar_init(done, 1);
        fence_barrier_init();
    }
    sync_threads();
    let tmem = ld_shared_u32(Storage::slot(base));

    if tid == 0 {
        let mut kt = 0;
        while kt < k_tiles {
            let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
            mbar_wait(Storage::empty_at(base, stage), phase ^ 1);
            let full = Storage::full_at(base, stage);
            mbar_expect_tx(full, STAGE_TX);
            load_stage(a, map_a, stage, kt * 64, m0, full);
            load_stage(b, map_b, stage, kt * 64, n0, full);
            kt += 1;
        }
    } else if tid == 32 {
        let mut kt = 0;
        while kt < k_tiles {
            let (stage, phase) = (kt % STAGES, (kt / STAGES) & 1);
            mbar_wait(Storage::full_at(base, stage), phase);
            asm!("tcgen05.fence::after_thread_sync;", options(nostack));
            let mut k = 0;
            while k < TileA::MMAS_K {
                // Run-time K subtile and stage: the checked accessor in the MMA loop.
                let (da, db) = (a.desc(0, k, stage), b.desc(0, k, stage));
                asm!(
                    "{{ .reg .pred p; setp.ne.u32 p, {4}, 0;",
                    "tcgen05.mma.cta_group::1.kind::f16 [{0}], {1}, {2}, {3}, p; }}",
                    in(reg32) tmem + PLAN.accum_column(0), in(reg64) da, in(reg64) db,
                    in(reg32) IDESC, in(reg32) kt | k,
                    options(nostack),
                );
                k += 1;
            }
            asm!(
                "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{0}];",
                in(reg32) Storage::empty_at(base, stage), options(nostack),
            );
            kt += 1;
        }
        asm!(
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{0}];",
            in(reg32) done, options(nostack),
        );
    }
    mbar_wait(done, 0);
    asm!("tcgen05.fence::after_thread_sync;", options(nostack));

    // The epilogue: run-time warp and thread, the plan's lane offsets and register elements.
    let mut i = 0;
    while i < MAP.loads() {
        let r = tmem_ld_x8(tmem + MAP.load_offset(warp, i));
        unroll!(8, |j| {
            let (m, n) = MAP.reg_element_wrapping(tid, i * 8 + j);
            *out.add((m * PAIR.shape.n + n) as usize) = f32::from_bits(r[j as usize]);
        });
        i += 1;
    }
    asm!("tcgen05.fence::before_thread_sync;", options(nostack));
    sync_threads();
    if warp == 0 {
        asm!(
            "tcgen05.dealloc.cta_group::1.sync.aligned.b32 {0}, {1};",
            in(reg32) tmem, const PLAN.alloc_columns, options(nostack),
        );
    }
}
