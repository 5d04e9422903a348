//! The epilogue's C/D tile: the shared-memory tile a `wgmma` accumulator is written into
//! (`stmatrix` or `st.shared`) and stored from (TMA store, TMA reduce of any `.redOp` on the element types the PTX ISA allows it, or plain loads).
//!
//! smemdesc picks (or checks) the tile's swizzle so that every writer instruction is
//! conflict-free under the bank model of [`fragment`](crate::fragment), checks that the TMA
//! store's tensor map swizzles the same way, and gives the per-lane writer addresses for the
//! `m64nNk*` accumulator fragment ([`WgmmaAccum`](crate::fragment::WgmmaAccum)), the TMA store's
//! boxes and tensor map, and the tile's storage footprint.
//!
//! ```
//! use smemdesc_core::epilogue::*;
//! // a 64 x 64 bf16 row-major C sub-tile of an m64n256 accumulator, stmatrix.x4, TMA store
//! const E: EpilogueTile = EpilogueSpec::new(CType::BF16, 64, 64, 256).expect_valid();
//! assert_eq!(E.swizzle(), smemdesc_core::SwizzleMode::B128); // picked: conflict-free
//! assert_eq!(E.tma_box_dim(), [64, 64]);
//! ```

mod reduce;
mod spec;
mod tile;

pub use reduce::{CType, ReduceOp};
pub use spec::{CMajor, EpiError, EpiReader, EpiWriter, EpilogueSpec};
pub use tile::EpilogueTile;
