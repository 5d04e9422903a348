//! Rust kernels for the H100 that use smemdesc's `#[smem_tile]` tiles: a layout-class check and
//! bf16 / FP8 GEMMs with TMA loads, mbarriers and wgmma, all through `asm!` (`ptx.rs`,
//! `wgmma.rs`). Built with nightly for `nvptx64-nvidia-cuda` into one PTX module:
//!
//! ```text
//! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- \
//!     --emit asm -C target-cpu=sm_90a -C target-feature=+ptx83
//! ```
//!
//! Shared memory: one `.extern .shared .align 1024` symbol (below), rounded up at run time to the
//! alignment of a `smemdesc::smem::StorageLayout` (what `#[smem_storage]` builds; `tiles.rs`
//! writes it generically over the tiles) whose tile members are `TileAt<T>`s at the
//! base plus their offsets. Tensor maps: the host writes them to
//! global memory before the launch and passes their addresses; the producer thread issues
//! `fence.proxy.tensormap::generic.acquire.sys` before using them. (A by-value `CUtensorMap`
//! does not work from Rust: align 64 is an internal compiler error in the "ptx-kernel" ABI of
//! this nightly, and with align 16 LLVM copies the parameter to local memory once its address
//! is taken; TMA needs a 64-byte-aligned map in param, const or global space.)
#![no_std]
#![feature(abi_ptx, asm_experimental_arch, stmt_expr_attributes)]
#![allow(clippy::missing_safety_doc)]

#[macro_use]
pub mod ptx;
#[macro_use]
pub mod tiles;
pub mod wgmma;

#[macro_use]
pub mod attn;
#[allow(dead_code)]
mod attn_decl;
mod attn_entries;
mod attn_fp8;
mod attn_fp8_decl;
mod attn_ns;
mod attn_ov;
pub mod check;
pub mod conv;
mod conv128;
mod conv_ov;
mod conv_ov128;
#[allow(dead_code)]
mod conv_tiles;
pub mod epi;
// Private: its `pub` items are for the host, which includes the file; a public
// non-generic `fn` of this crate would be emitted into the PTX module as a `.func`.
#[allow(dead_code)]
mod epi_tiles;
pub mod gemm;
pub mod grouped;
#[allow(dead_code)]
mod grouped_decl;
pub mod grouped_fp8;
mod grouped_fp8_decl;
pub mod im2col_probe;
pub mod pdl;
pub mod pipe_ops;
pub mod reduce;

core::arch::global_asm!(".extern .shared .align 1024 .b8 smem_dyn[];");

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    ptx::trap()
}
