//! A Blackwell (`sm_100a`) kernel skeleton in Rust: one CTA of 128 threads computes one
//! 128 x 128 block-scaled `kind::mxf8f6f4` tile (e4m3 x e4m3, f32 accumulator) with everything in
//! Tensor Memory taken from `smemdesc_core`:
//!
//! 1. warp 0 allocates [`PLAN`]'s `alloc_columns` with `tcgen05.alloc`, the address landing in a
//!    4-byte shared slot, then relinquishes the allocation permit;
//! 2. thread 0 copies the SFA / SFB atoms from shared memory with `tcgen05.cp .32x128b.warpx4`
//!    (source descriptors from `ScaleTile::copy_desc`, destination columns from `TmemScale`);
//! 3. thread 0 issues the `tcgen05.mma ... .block_scale` of every K step with the tiles'
//!    descriptors, the instruction descriptor and the `[tsfa]`/`[tsfb]` addresses of
//!    `TmemPlan::sf_taddr` (scale-factor ids derived from the columns), then `tcgen05.commit`s to
//!    an mbarrier;
//! 4. every warp reads its subpartition with `tcgen05.ld.sync.aligned.32x32b.x32` at
//!    `TmemLoadMap::load_offset` and stores each register at the element
//!    `TmemLoadMap::reg_element_wrapping` names;
//! 5. warp 0 frees the columns with `tcgen05.dealloc`.
//!
//! The operand tiles are assumed to be in shared memory already (no TMA: a skeleton). It is
//! assembled with `ptxas -arch=sm_100a`; no Blackwell GPU was available, so it has never run.
#![no_std]
#![feature(abi_ptx, asm_experimental_arch)]
#![allow(clippy::missing_safety_doc)]

use core::arch::asm;
use smemdesc_core::*;

core::arch::global_asm!(".extern .shared .align 1024 .b8 smem_dyn[];");

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    trap()
}

const K_TILE: u32 = 128;
/// A: 128 x 128 e4m3, K-major (sm100 tcgen05, kind::mxf8f6f4).
pub const A: TilePlan = TileDecl::new(
    Arch::Sm100,
    Operand::A,
    ElementType::E4M3,
    Major::K,
    128,
    K_TILE,
)
.kind(MmaKind::Mxf8f6f4)
.expect_valid();
/// B: 128 x 128 e4m3, K-major.
pub const B: TilePlan = TileDecl::new(
    Arch::Sm100,
    Operand::B,
    ElementType::E4M3,
    Major::K,
    128,
    K_TILE,
)
.kind(MmaKind::Mxf8f6f4)
.expect_valid();
/// The pairing.
pub const PAIR: MmaPair = MmaPair::new(&A, &B, PairOptions::new(AccumType::F32)).expect_valid();
/// Scale factors of A and B (ue8m0, one per 32 values).
pub const SFA: ScaleTile =
    ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::A, 128, K_TILE).expect_valid();
/// Scale factors of B.
pub const SFB: ScaleTile =
    ScaleDecl::new(MmaKind::Mxf8f6f4, Operand::B, 128, K_TILE).expect_valid();
/// The Tensor Memory plan: one accumulator stage and the scale factors.
pub const PLAN: TmemPlan = TmemPlanDecl::new(&PAIR).scale(&SFA, &SFB).expect_valid();
/// The epilogue's load: 32x32b.x32 (four loads per warp for N = 128).
pub const MAP: TmemLoadMap = PLAN
    .accum
    .expect_load_map(TmemLoad::expect_new(LoadShape::S32x32b, 32));
const KSTEPS: u32 = K_TILE / PAIR.shape.k;
/// `tcgen05.cp` source descriptor of scale-factor atom (0, 0) for a tile at address 0: the start
/// address is the low 14 bits in 16-byte units, so the descriptor at `addr` adds `addr >> 4`.
const fn cp_desc0(t: &ScaleTile) -> u64 {
    match t.copy_desc(0, 0, 0, 0) {
        Ok(d) => d.raw(),
        Err(_) => panic!("scale-factor copy descriptor"),
    }
}
/// The A / B descriptors of each K step for tiles at address 0 (the kernel adds `addr >> 4`, the
/// start-address field's units, as the `access` module's descriptor steps allow).
const fn descs0(t: &TilePlan) -> [u64; KSTEPS as usize] {
    let mut d = [0; KSTEPS as usize];
    let mut k = 0;
    while k < KSTEPS {
        d[k as usize] = t.tile.desc(0, 0, k, 0);
        k += 1;
    }
    d
}
const A_DESC: [u64; KSTEPS as usize] = descs0(&A);
const B_DESC: [u64; KSTEPS as usize] = descs0(&B);
const SFA_CP: u64 = cp_desc0(&SFA);
const SFB_CP: u64 = cp_desc0(&SFB);
/// The instruction descriptor of each K step, its scale-factor ids from the plan's columns.
const IDESC: [u32; KSTEPS as usize] = {
    let mut d = [0; KSTEPS as usize];
    let mut k = 0;
    while k < KSTEPS {
        d[k as usize] = match PLAN.idesc(k) {
            Ok(i) => i.raw(),
            Err(_) => panic!("instruction descriptor"),
        };
        PLAN.expect_idesc(Idesc::new(d[k as usize], PAIR.kind), k);
        k += 1;
    }
    d
};
const _: () = assert!(SFA.k_blocks() == 1 && SFB.k_blocks() == 1 && SFA.mn_blocks() == 1);
const _: () = assert!(MAP.load.regs() == 32 && PLAN.alloc_columns == 256);

// shared-memory carve-up (bytes from smem_dyn): A, B, SFA, SFB, mbarrier, TMEM slot
const OFF_A: u32 = 0;
const OFF_B: u32 = OFF_A + A.tile.stage_bytes();
const OFF_SFA: u32 = OFF_B + B.tile.stage_bytes();
const OFF_SFB: u32 = OFF_SFA + SFA.bytes();
const OFF_BAR: u32 = OFF_SFB + SFB.bytes();
const OFF_SLOT: u32 = OFF_BAR + 8;

fn trap() -> ! {
    loop {
        // SAFETY: traps the thread.
        unsafe { asm!("trap;", options(nostack)) };
    }
}

#[inline(always)]
fn tid() -> u32 {
    let r: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {0}, %tid.x;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

#[inline(always)]
fn smem_dyn() -> u32 {
    let r: u32;
    // SAFETY: takes a symbol's address.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// One `tcgen05.ld.sync.aligned.<shape>.b32` of 32 registers at a TMEM address.
macro_rules! tmem_ld_32regs {
    ($name:ident, $shape:literal) => {
        #[inline(always)]
        unsafe fn $name(taddr: u32) -> [u32; 32] {
            let mut r = [0u32; 32];
            asm!(
                concat!("tcgen05.ld.sync.aligned.", $shape, ".b32 {{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}}}, [{32}];"),
                out(reg32) r[0], out(reg32) r[1], out(reg32) r[2], out(reg32) r[3],
                out(reg32) r[4], out(reg32) r[5], out(reg32) r[6], out(reg32) r[7],
                out(reg32) r[8], out(reg32) r[9], out(reg32) r[10], out(reg32) r[11],
                out(reg32) r[12], out(reg32) r[13], out(reg32) r[14], out(reg32) r[15],
                out(reg32) r[16], out(reg32) r[17], out(reg32) r[18], out(reg32) r[19],
                out(reg32) r[20], out(reg32) r[21], out(reg32) r[22], out(reg32) r[23],
                out(reg32) r[24], out(reg32) r[25], out(reg32) r[26], out(reg32) r[27],
                out(reg32) r[28], out(reg32) r[29], out(reg32) r[30], out(reg32) r[31],
                in(reg32) taddr,
                options(nostack),
            );
            r
        }
    };
}
tmem_ld_32regs!(tmem_ld_32x32b_x32, "32x32b.x32");
tmem_ld_32regs!(tmem_ld_16x256b_x8, "16x256b.x8");

/// The second epilogue's map: `16x256b.x8` (64 columns, two lane halves: 4 loads per warp).
pub const MAP16: TmemLoadMap = PLAN
    .accum
    .expect_load_map(TmemLoad::expect_new(LoadShape::S16x256b, 8));
const _: () = assert!(MAP16.load.regs() == 32 && MAP16.halves == 2 && MAP16.loads() == 4);

/// The epilogue alone with the 16-lane shape `16x256b.x8`: reads the accumulator at the TMEM
/// address `tmem` (an allocation made by a kernel like [`tmem_skeleton`]) into `out`
/// (128 x 128 f32, row-major), every element through [`MAP16`].
///
/// # Safety
/// 128 threads; `tmem` holds a finished accumulator of [`PLAN`].
#[no_mangle]
pub unsafe extern "ptx-kernel" fn tmem_epilogue_16x256b(out: *mut f32, tmem: u32) {
    let t = tid();
    let warp = t / 32;
    asm!("tcgen05.fence::after_thread_sync;", options(nostack));
    let mut i = 0;
    while i < MAP16.loads() {
        let r = tmem_ld_16x256b_x8(tmem + MAP16.load_offset(warp, i));
        asm!("tcgen05.wait::ld.sync.aligned;", options(nostack));
        let mut j = 0;
        while j < 32 {
            let (m, n) = MAP16.reg_element_wrapping(t, i * 32 + j);
            *out.add((m * PAIR.shape.n + n) as usize) = f32::from_bits(r[j as usize]);
            j += 1;
        }
        i += 1;
    }
}

/// D = A x B with block scaling; `out` is a 128 x 128 f32 row-major matrix.
///
/// # Safety
/// Launch with 128 threads, one CTA, and `PLAN`'s shared memory (`OFF_SLOT + 4` bytes) holding
/// the A, B, SFA and SFB tiles.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn tmem_skeleton(out: *mut f32) {
    let t = tid();
    let warp = t / 32;
    let base = smem_dyn();
    let bar = base + OFF_BAR;
    let slot = base + OFF_SLOT;
    if warp == 0 {
        asm!(
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{0}], {1};",
            "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
            in(reg32) slot, const PLAN.alloc_columns, options(nostack),
        );
    }
    if t == 0 {
        asm!("mbarrier.init.shared::cta.b64 [{0}], 1;", in(reg32) bar, options(nostack));
    }
    asm!(
        "tcgen05.fence::before_thread_sync;",
        "barrier.sync 0;",
        "tcgen05.fence::after_thread_sync;",
        options(nostack)
    );
    let tmem: u32;
    asm!("ld.shared.u32 {0}, [{1}];", out(reg32) tmem, in(reg32) slot, options(nostack));

    if t == 0 {
        let (Some(sfa), Some(sfb)) = (PLAN.sfa, PLAN.sfb) else {
            trap()
        };
        // one atom each (asserted above): K block 0, M/N block 0
        let src = SFA_CP + ((base + OFF_SFA) >> 4) as u64;
        let dst = tmem + PLAN.sfa_col + sfa.copy_column(0, 0);
        asm!("tcgen05.cp.cta_group::1.32x128b.warpx4 [{0}], {1};", in(reg32) dst, in(reg64) src, options(nostack));
        let src = SFB_CP + ((base + OFF_SFB) >> 4) as u64;
        let dst = tmem + PLAN.sfb_col + sfb.copy_column(0, 0);
        asm!("tcgen05.cp.cta_group::1.32x128b.warpx4 [{0}], {1};", in(reg32) dst, in(reg64) src, options(nostack));
        let mut k = 0;
        while k < KSTEPS {
            let a = A_DESC[k as usize] + ((base + OFF_A) >> 4) as u64;
            let b = B_DESC[k as usize] + ((base + OFF_B) >> 4) as u64;
            let (tsfa, tsfb) = PLAN.sf_taddr(tmem, 0, k);
            let idesc = IDESC[k as usize];
            asm!(
                "{{ .reg .pred p; setp.ne.u32 p, {5}, 0;",
                "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{0}], {1}, {2}, {3}, [{4}], [{6}], p; }}",
                in(reg32) tmem + PLAN.accum_column(0), in(reg64) a, in(reg64) b, in(reg32) idesc,
                in(reg32) tsfa, in(reg32) k, in(reg32) tsfb,
                options(nostack),
            );
            k += 1;
        }
        asm!(
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{0}];",
            in(reg32) bar, options(nostack),
        );
    }
    // wait for the MMAs (phase 0)
    loop {
        let done: u32;
        asm!(
            "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{1}], 0; selp.u32 {0}, 1, 0, p; }}",
            out(reg32) done, in(reg32) bar, options(nostack),
        );
        if done != 0 {
            break;
        }
    }
    asm!("tcgen05.fence::after_thread_sync;", options(nostack));

    let mut i = 0;
    while i < MAP.loads() {
        let r = tmem_ld_32x32b_x32(tmem + MAP.load_offset(warp, i));
        asm!("tcgen05.wait::ld.sync.aligned;", options(nostack));
        let mut j = 0;
        while j < 32 {
            let (m, n) = MAP.reg_element_wrapping(t, i * 32 + j);
            *out.add((m * PAIR.shape.n + n) as usize) = f32::from_bits(r[j as usize]);
            j += 1;
        }
        i += 1;
    }

    asm!(
        "tcgen05.fence::before_thread_sync;",
        "barrier.sync 0;",
        "tcgen05.fence::after_thread_sync;",
        options(nostack)
    );
    if warp == 0 {
        asm!(
            "tcgen05.dealloc.cta_group::1.sync.aligned.b32 {0}, {1};",
            in(reg32) tmem, const PLAN.alloc_columns, options(nostack),
        );
    }
}
