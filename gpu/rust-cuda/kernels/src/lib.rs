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
#![allow(clippy::missing_safety_doc, improper_ctypes_definitions)]

use core::arch::asm;
use cuda_std::prelude::*;
use smemdesc::smem::TileAt;
use smemdesc::SmemTile;

include!("tiles.rs");

use gemm::{TileA, TileB};

/// Words each thread of [`smemdesc_sm100_checked`] writes.
pub const WORDS: usize = 8;

/// The shared-window address of the dynamic shared memory.
#[inline(always)]
fn dyn_smem() -> u32 {
    let p = cuda_std::shared::dynamic_shared_mem::<u8>();
    let r: u64;
    // SAFETY: converts a generic address of shared memory to the shared window.
    unsafe { asm!("cvta.to.shared.u64 {0}, {1};", out(reg64) r, in(reg64) p as u64) };
    r as u32
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
