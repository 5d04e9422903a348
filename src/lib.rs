//! # smemdesc
//!
//! Correct-by-construction shared-memory (SMEM) layouts for NVIDIA tensor cores: matrix descriptors,
//! advance tables, swizzled offsets (and, in later versions, TMA plans and the `#[smem_tile]` macro)
//! for Hopper `wgmma` and Blackwell `tcgen05`, all computed in `const` context.
//!
//! This facade re-exports [`smemdesc_core`]; see its documentation for the model.
//!
//! ```
//! use smemdesc::core::*;
//! const B: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64)
//!     .mma_mn(256).stages(4).expect_valid();
//! assert_eq!(B.mmas_k(), 4);
//! ```
#![no_std]
#![forbid(unsafe_code)]

pub use smemdesc_core as core;
pub use smemdesc_core::*;
