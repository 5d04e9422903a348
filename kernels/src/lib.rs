//! cudarc launchers for smemdesc's reference Rust kernels (`gpu/rust-kernel`, built to one PTX
//! module by `gpu/rust-kernel/build_ptx.sh`): a host crate you can depend on.
//!
//! Every number a launch needs comes from the kernels' own declarations, which this crate
//! compiles too (`gpu/rust-kernel/src/epi_tiles.rs` and `tiles.rs`, included as modules): the
//! shape's divisibility (the `#[smem_tile]` tiles; attention's `attn_decl.rs`, the
//! convolution's im2col plan on the declared A tile), the tensor maps (encoded from the tiles and
//! the epilogue tile through smemdesc's `cudarc` support, `smemdesc::cuda`), the block (the
//! kernels' warpgroups), the dynamic shared memory (the `#[smem_storage]` / storage layout's
//! `LAUNCH_BYTES`) and the persistent grid (tiles, capped at the device's SMs). Bad shapes are a
//! typed [`ShapeError`], never a panic.
//!
//! | launcher | kernel | A, B | C | M, N, K multiples of |
//! | --- | --- | --- | --- | --- |
//! | [`Kernels::gemm_bf16`] | `gemm_epi_rust` (TMA-store epilogue) | bf16 | bf16 | 128, 256, 64 |
//! | [`Kernels::gemm_fp8`] | `gemm_fp8_rust` | e4m3 | bf16 | 128, 256, 128 |
//! | [`Kernels::gemm_bf16_cluster`] | `gemm_cl21_rust` / `gemm_cl12_rust` (clusters of 2 sharing B / A by TMA multicast, TMA-store epilogue) | bf16 | bf16 | 256, 256, 64 / 128, 512, 64 |
//! | [`Kernels::gemm_grouped_bf16`] | `gemm_grouped_spin_all_rust` | bf16 | bf16 | any rows per group, 256, 64 |
//!
//! | launcher | kernels | inputs | output | shape |
//! | --- | --- | --- | --- | --- |
//! | [`Kernels::attention_fwd`] | `attn_fwd_d64{,_causal}_ns_rust`, `attn_fwd_d128_p_cl2_rust`, `attn_fwd_d128_ov_rust`, `attn_fwd_d128_causal_p_lpt_rust`, `attn_fwd_d128_causal_ov_rust` ([`attention_plan`]) | Q, K, V `[b, h, s, d]` bf16 | O bf16, LSE f32 | d 64 or 128, s a multiple of 128 |
//! | [`Kernels::conv2d_fprop`] | `gemm_conv_ov_rust` (implicit GEMM, im2col TMA, the epilogue overlapping the next tile) | X NHWC, W KRSC bf16 | Y NHWC bf16 | C a multiple of 64, K_out of 256 |
//!
//! ```no_run
//! use smemdesc_kernels::{GemmShape, Kernels};
//! use smemdesc_kernels::cudarc::driver::CudaContext;
//! let ctx = CudaContext::new(0)?;
//! let stream = ctx.default_stream();
//! // gpu/rust-kernel/build_ptx.sh (nightly) writes the module
//! let kernels = Kernels::from_ptx_file(&ctx, "gpu/rust-kernel/out/kernels.ptx")?;
//! let s = GemmShape::new(1024, 1024, 512);
//! let a = stream.alloc_zeros::<u16>(s.a_len())?; // bf16 bits, M x K
//! let b = stream.alloc_zeros::<u16>(s.b_len())?; // N x K
//! let mut c = stream.alloc_zeros::<u16>(s.c_len())?;
//! kernels.gemm_bf16(&stream, s, &a, &b, &mut c)?;
//! stream.synchronize()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The CUDA bindings are CUDA 13.0's (feature `cuda-13000`, the default); for another version
//! turn default features off and name one `cuda-*` feature (`cuda-12080` ... `cuda-13040`), as
//! smemdesc's own `cudarc` feature documents. The kernels need an sm_90a GPU (H100, H200).
//! `gpu/kernels_launch_run.sh` runs every launcher once on a GPU with an exact check.
//!
//! No CUDA driver: cudarc loads `libcuda` when first used, and `CudaContext::new` panics
//! (cudarc's dynamic loading) instead of returning an error where the library cannot be
//! loaded. A program that may run on such a machine asks first:
//!
//! ```
//! // SAFETY: only tries to open the driver library (cudarc's default dynamic loading).
//! if !unsafe { smemdesc_kernels::cudarc::driver::sys::is_culib_present() } {
//!     eprintln!("no CUDA driver here");
//! }
//! ```

// The kernels' declaration files, shared with the kernel crate and the check program: target
// independent, private here (their items are the launchers' inputs, not this crate's API).
#[path = "../../gpu/rust-kernel/src/attn_decl.rs"]
#[allow(dead_code, clippy::all)]
mod attn_decl;
#[path = "../../gpu/rust-kernel/src/conv_tiles.rs"]
#[allow(dead_code, clippy::all)]
mod conv_tiles;
#[path = "../../gpu/rust-kernel/src/epi_tiles.rs"]
#[allow(dead_code, clippy::all)]
mod epi_tiles;
#[path = "../../gpu/rust-kernel/src/grouped_decl.rs"]
#[allow(dead_code)]
mod grouped_decl;
#[path = "../../gpu/rust-kernel/src/tiles.rs"]
#[allow(dead_code, unused_macros, clippy::all)]
mod tiles;

mod attention;
mod cluster;
mod conv;
mod error;
mod grouped;
mod launch;
mod plan;
mod raw;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_attn_conv;
#[cfg(test)]
mod tests_cluster;

/// The cudarc this crate launches with (smemdesc's, one CUDA version per build): name its
/// context, stream and buffers through it, no cudarc dependency of your own to keep in step.
///
/// ```no_run
/// use smemdesc_kernels::cudarc::driver::CudaContext;
/// let stream = CudaContext::new(0)?.default_stream();
/// let a = stream.alloc_zeros::<u16>(128 * 64)?;
/// # Ok::<(), smemdesc_kernels::cudarc::driver::DriverError>(())
/// ```
pub use smemdesc::cuda::cudarc;

pub use attention::{
    attention_plan, AttentionPlan, AttentionShape, ATTN_D128_CAUSAL_KERNEL,
    ATTN_D128_CAUSAL_LONG_KERNEL, ATTN_D128_CAUSAL_LONG_SEQLEN, ATTN_D128_KERNEL,
    ATTN_D128_ODD_KERNEL, ATTN_D64_CAUSAL_KERNEL, ATTN_D64_KERNEL, ATTN_HEAD_DIMS,
};
pub use cluster::{
    gemm_bf16_cluster_plan, ClusterPlan, GemmCluster, GEMM_CL12_KERNEL, GEMM_CL21_KERNEL,
};
pub use conv::{conv2d_fprop_plan, Conv2d, ConvPlan, CONV_FPROP_KERNEL};
pub use error::{Dim, Error, ShapeError};
pub use grouped::{gemm_grouped_plan, GroupedPlan, GEMM_GROUPED_BF16_KERNEL};
pub use launch::Kernels;
pub use plan::{
    gemm_bf16_plan, gemm_fp8_plan, GemmShape, LaunchPlan, GEMM_BF16_KERNEL, GEMM_FP8_KERNEL,
    GROUP_M, MAX_DIM,
};
