//! Whole kernels as a user writes them from the guide, each the way a real GEMM is laid out: a
//! TMA producer warpgroup and consumer warpgroups over a pipeline of full/empty mbarriers indexed
//! by a run-time stage, the storage's member accessors (`Storage::a(base).desc(wg, k, stage)`,
//! `.try_desc`, `.tma_dst(box, stage)`) with run-time warpgroup, stage and box indices, the
//! computed table entries (`T::advance_mn(wg)`, `T::tma_box_coord(b)`), and an epilogue
//! (`writer_offset`), fragment (`ldmatrix_offset`) and Tensor Memory (`load_offset`) form with
//! run-time lanes in the same kernel. `scripts/check_whole_kernel.sh` builds them to one PTX
//! module and `smemdesc check-ptx` refuses any call, `.extern .func`, `.global` data or local
//! memory.
//!
//! `ptx_ops` issues the instructions of `smemdesc::ptx` no other kernel of the project issues,
//! so ptxas assembles everything the library ships (the pair producer's `PipelineOps` is the
//! library's `Spin`).
//!
//! `error_data` stores the checked forms' errors by value: the error types are plain data, so
//! that too leaves no string in the module.
//!
//! Nothing here runs on a GPU: the kernels are the shapes of real ones, for the compiler.
#![no_std]
#![feature(abi_ptx, asm_experimental_arch, stmt_expr_attributes)]
#![allow(clippy::missing_safety_doc)]

#[macro_use]
#[path = "../../../gpu/rust-kernel/src/ptx.rs"]
#[allow(dead_code)]
mod ptx;
#[path = "../../../gpu/rust-kernel/src/wgmma.rs"]
#[allow(dead_code)]
mod wgmma;

use ptx::tma_load_2d;
use smemdesc::smem::TileAt;
use smemdesc::{Major, SmemTile};

pub mod bf16_mn;
pub mod error_data;
pub mod fp8_k;
pub mod ptx_ops;
pub mod regs;
pub mod regs_types;
#[cfg(feature = "old-way")]
pub mod regs_old_way;
pub mod sm100;
pub mod clc;
pub mod pdl;
pub mod sm100_pair;

core::arch::global_asm!(".extern .shared .align 16 .b8 smem_dyn[];");

/// The TMA loads of one stage of `T` at K element `k0` and M/N element `mn0`: every box at its
/// computed destination and coordinates (a run-time box index: `tma_box_coord(i)`,
/// `tma_dst(i, stage)`).
#[inline(always)]
pub(crate) unsafe fn load_stage<T: SmemTile>(
    t: TileAt<T>,
    map: u64,
    stage: u32,
    k0: u32,
    mn0: u32,
    bar: u32,
) {
    let mut i = 0;
    while i < T::TMA_BOXES {
        let [mn, k] = T::tma_box_coord(i);
        // A K-major map's inner coordinate is K, an MN-major map's is MN.
        let (c0, c1) = match T::MAJOR {
            Major::K => (k0 + k, mn0 + mn),
            Major::Mn => (mn0 + mn, k0 + k),
        };
        tma_load_2d(t.tma_dst(i, stage), map, c0, c1, bar);
        i += 1;
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    ptx::trap()
}
