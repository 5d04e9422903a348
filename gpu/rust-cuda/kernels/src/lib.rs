//! smemdesc's Blackwell declarations in a Rust-CUDA kernel: `cuda_std` kernels built by
//! `cuda_builder` (rustc_codegen_nvvm against LLVM 19, libNVVM) for `compute_100a`.
//!
//! [`smemdesc_sm100_checked`] evaluates, on the device and at run-time indices (kernel
//! arguments and the thread index), every checked form a kernel uses before its main loop:
//! `TileAt::place` of a dynamic shared-memory base, `try_desc` / `desc` of an MMA subtile of a
//! stage, `try_offset` / `offset` of an element, the `#[smem_mma]` instruction descriptor, and the
//! TMEM plan's accumulator column, load offset and `try_reg_element`. Each failure is a status
//! bit, never a trap (the asserting forms trap on bad arguments, by contract).
//!
//! [`smemdesc_sm100_mma`] issues the instruction those numbers are for: warp 0 allocates the
//! plan's columns (`tcgen05.alloc`), thread 0 issues the four `tcgen05.mma` K steps of stage 0
//! with the placed tiles' descriptors and [`gemm::IDESC`], commits to an mbarrier, every warp
//! reads its lanes with `tcgen05.ld.32x32b.x32` at [`MAP`]'s offsets and stores each register at
//! the element `MAP.reg_element_wrapping` names, and warp 0 frees the columns. The operands are
//! assumed in shared memory already (no TMA); no Blackwell GPU was available, so neither kernel
//! has run: the PTX is assembled with `ptxas -arch=sm_100a` (README.md).
#![feature(asm_experimental_arch)]
#![allow(clippy::missing_safety_doc, improper_ctypes_definitions)]

use core::arch::asm;
use cuda_std::prelude::*;
use smemdesc::smem::TileAt;
use smemdesc::SmemTile;

include!("tiles.rs");

use gemm::{TileA, TileB};

/// Words each thread of [`smemdesc_sm100_checked`] writes.
pub const WORDS: usize = 8;

// The dynamic shared memory, declared as nvcc declares it (an unsized `.extern` array, 1024-byte
// aligned for the 128-byte swizzle's atoms). `cuda_std::shared::dynamic_shared_mem` declares a
// 16-byte extern instead, which ptxas's whole-program mode turns into 16 bytes of static shared
// memory with a warning (README.md).
core::arch::global_asm!(".extern .shared .align 1024 .b8 smem_dyn[];");

/// The shared-window address of the dynamic shared memory.
#[inline(always)]
fn dyn_smem() -> u32 {
    let r: u32;
    // SAFETY: takes a symbol's address.
    unsafe { asm!("mov.u32 {0}, smem_dyn;", out(reg32) r, options(pure, nomem, nostack)) };
    r
}

/// Every checked form at run-time indices. `out` holds `WORDS` words per thread: A's `try_desc`,
/// B's `desc`, A's `try_offset`, A's `offset`, the instruction descriptor (64-bit form), the
/// accumulator column of `stage` (low) and the TMEM load offset of the thread's warp (high), the
/// thread's `(m, n)` of register `reg` (low, high), and the status bits (1: A not placed, 2: A's
/// `try_desc` out of range, 4: B not placed, 8: `try_offset` out of range, 16: `try_reg_element`
/// out of range). A sits at `base_off` bytes into the dynamic shared memory, B right after it.
#[kernel]
pub unsafe fn smemdesc_sm100_checked(
    out: *mut u64,
    base_off: u32,
    mn: u32,
    k: u32,
    stage: u32,
    reg: u32,
) {
    let t = thread::thread_idx_x();
    let a_addr = dyn_smem() + base_off;
    let b_addr = a_addr + TileA::BYTES;
    let mut status = 0u64;
    let mut w = [0u64; WORDS];
    match TileAt::<TileA>::place(a_addr) {
        Ok(a) => match a.try_desc(mn, k, stage) {
            Ok(d) => w[0] = d.raw(),
            Err(_) => status |= 2,
        },
        Err(_) => status |= 1,
    }
    match TileAt::<TileB>::place(b_addr) {
        // The asserting form: a bad index traps (the checked one above reports instead).
        Ok(_) => w[1] = TileB::desc(b_addr, mn, k, stage),
        Err(_) => status |= 4,
    }
    let (el_mn, el_k) = (t % TileA::TILE_MN, k * gemm::MMA_K);
    match TileA::try_offset(el_mn, el_k) {
        Ok(o) => {
            w[2] = o as u64;
            w[3] = TileA::offset(el_mn, el_k) as u64;
        }
        Err(_) => status |= 8,
    }
    w[4] = gemm::IDESC64;
    let col = PLAN.accum_column(stage % PLAN.stages);
    let lane_off = MAP.load_offset(t / 32, reg / 32 % MAP.loads());
    w[5] = col as u64 | (lane_off as u64) << 32;
    match MAP.try_reg_element(t, reg) {
        Ok((m, n)) => w[6] = m as u64 | (n as u64) << 32,
        Err(_) => status |= 16,
    }
    w[7] = status;
    let mut i = 0;
    while i < WORDS {
        unsafe { *out.add(t as usize * WORDS + i) = w[i] };
        i += 1;
    }
}

/// Traps the thread (a tile that cannot be placed: the launch gave too little shared memory).
#[inline(always)]
fn trap() -> ! {
    loop {
        // SAFETY: traps the thread.
        unsafe { asm!("trap;", options(nostack)) };
    }
}

/// Stores register `j` of a `tcgen05.ld.32x32b.x32` at the element [`MAP`] names, for constant
/// `j`s (a run-time index into the 32 registers would put them in a local array).
macro_rules! store_regs {
    ($out:ident, $t:ident, $i:ident, $r:ident, $($j:literal)*) => {$(
        let (m, n) = MAP.reg_element_wrapping($t, $i * 32 + $j);
        *$out.add((m * gemm::MMA_N + n) as usize) = f32::from_bits($r[$j]);
    )*};
}

/// D = A x B for stage 0 of the two tiles (128 x 128 f32, row-major into `out`).
///
/// # Safety
/// One CTA of 128 threads, dynamic shared memory of `TileA::BYTES + TileB::BYTES + 12` bytes
/// holding A and B (stage 0), its base 1024-byte aligned.
#[kernel]
pub unsafe fn smemdesc_sm100_mma(out: *mut f32) {
    let t = thread::thread_idx_x();
    let warp = t / 32;
    let base = dyn_smem();
    let (Ok(a), Ok(b)) = (
        TileAt::<TileA>::place(base),
        TileAt::<TileB>::place(base + TileA::BYTES),
    ) else {
        trap()
    };
    let bar = base + TileA::BYTES + TileB::BYTES;
    let slot = bar + 8;
    unsafe {
        if warp == 0 {
            asm!(
                "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{0}], {1};",
                "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
                in(reg32) slot, in(reg32) PLAN.alloc_columns, options(nostack),
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
            let mut k = 0;
            while k < TileA::MMAS_K {
                // The main loop's form: the placement was checked once above.
                let (da, db) = (a.desc_wrapping(0, k, 0), b.desc_wrapping(0, k, 0));
                asm!(
                    "{{ .reg .pred p; setp.ne.u32 p, {4}, 0;",
                    gemm::mnemonic!(),
                    " [{0}], {1}, {2}, {3}, p; }}",
                    in(reg32) tmem + PLAN.accum_column(0), in(reg64) da, in(reg64) db,
                    in(reg32) gemm::IDESC, in(reg32) k, options(nostack),
                );
                k += 1;
            }
            asm!(
                "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{0}];",
                in(reg32) bar, options(nostack),
            );
        }
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
            let mut r = [0u32; 32];
            asm!(
                "tcgen05.ld.sync.aligned.32x32b.x32.b32 {{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}}}, [{32}];",
                "tcgen05.wait::ld.sync.aligned;",
                out(reg32) r[0], out(reg32) r[1], out(reg32) r[2], out(reg32) r[3],
                out(reg32) r[4], out(reg32) r[5], out(reg32) r[6], out(reg32) r[7],
                out(reg32) r[8], out(reg32) r[9], out(reg32) r[10], out(reg32) r[11],
                out(reg32) r[12], out(reg32) r[13], out(reg32) r[14], out(reg32) r[15],
                out(reg32) r[16], out(reg32) r[17], out(reg32) r[18], out(reg32) r[19],
                out(reg32) r[20], out(reg32) r[21], out(reg32) r[22], out(reg32) r[23],
                out(reg32) r[24], out(reg32) r[25], out(reg32) r[26], out(reg32) r[27],
                out(reg32) r[28], out(reg32) r[29], out(reg32) r[30], out(reg32) r[31],
                in(reg32) tmem + MAP.load_offset(warp, i),
                options(nostack),
            );
            store_regs!(out, t, i, r, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
                        24 25 26 27 28 29 30 31);
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
                in(reg32) tmem, in(reg32) PLAN.alloc_columns, options(nostack),
            );
        }
    }
}
