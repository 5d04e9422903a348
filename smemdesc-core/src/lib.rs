//! # smemdesc-core
//!
//! `#![no_std]`, dependency-free, `const fn` layout algebra that turns an SMEM operand tile
//! description into the tensor core's 64-bit SMEM matrix descriptors (Hopper `wgmma`, Blackwell
//! `tcgen05`), descriptor-advance tables and swizzled byte offsets, and checks them with an
//! emulator of how the hardware reads a descriptor.
//!
//! Four nested levels: the SMEM **tile** (one pipeline stage of one operand) ⊃ the **swizzle atom**
//! (8 rows × 16/32/64/128 B, [`Atom`]) ⊃ the **MMA subtile** (one instruction's operand, one
//! descriptor) ⊃ the 8 × 16 B **core matrix**.
//!
//! ```
//! use smemdesc_core::*;
//! // A operand of a bf16 Hopper GEMM: 128 x 64 tile, K-major, 128B swizzle, wgmma M = 64, 4 stages.
//! const A: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
//!     .swizzle(SwizzleMode::B128).mma_mn(64).stages(4).expect_valid();
//! const D: u64 = A.desc(0x400, 1, 2, 3); // subtile (1, 2) of stage 3 for a tile at 0x400
//! assert_eq!(D, A.try_desc(0x400, 1, 2, 3).unwrap().raw());
//! assert_eq!((A.lbo(), A.sbo(), A.stage_bytes()), (16, 1024, 16384));
//! ```
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(core_intrinsics, const_eval_select))]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// `?` for `const fn`: evaluates a `Result`, returning its error early (the `?` operator is not
/// usable in `const fn` on stable Rust).
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

pub mod base;
pub mod cluster;
pub mod epilogue;
// `core::error::Error` for the error types of every group: above the groups, like lib.rs.
mod error_trait;
pub mod fragment;
pub mod layout;
pub mod mma;
pub mod pairing;
pub mod pipeline;
#[cfg(test)]
mod plain_errors;
pub mod rules;
pub mod scale;
pub mod smem;
pub mod tile;
pub mod tma;
pub mod tmem;

pub use tile::access;

pub use access::TileAccess;
pub use base::ConstText;
pub use base::ElementType;
pub use base::{Arch, Major, Order};
pub use base::{Argument, Dim, Error, Field};
pub use base::{BoxSource, Indexed, Legal};
pub use base::{Swizzle, SwizzleMode};
pub use base::{EPI_KEYS, FRAG_KEYS, MMA_KEYS, TILE_KEYS};
pub use layout::Atom;
pub use layout::{layout_type_code, layout_type_from_code, DescriptorFields, SmemDescriptor};
pub use layout::{CanonicalForm, Slot};
pub use layout::{Layout, Mode, Radix, SwizzledLayout, MAX_SUBMODES};
pub use mma::IdescError;
pub use mma::{check_mma_shape, check_mn_major, MmaKind, MmaShape, Operand};
pub use mma::{format_code, format_type, is_block_scaled, AccumType, InstrDesc, ScaleFormat};
pub use mma::{idesc_fields, Idesc, IdescField};
pub use pairing::{MmaPair, Mnemonic, PairOptions};
pub use scale::{ScaleDecl, ScaleTile, SCALE_ATOM_BYTES, SCALE_ATOM_FACTORS, SCALE_ATOM_ROWS};
pub use smem::{emulate_address, emulate_store, emulate_value};
pub use smem::{Absolute, PlacedTile, Placement, PlacementModel, Relative};
pub use smem::{
    Mbarrier, MemberTile, StorageLayout, StorageMember, StorageProblem, DYNAMIC_SMEM_BASE_ALIGN,
};
pub use tile::{select_swizzle, TileLayout, TileSpec};
pub use tile::{SmemForm, ValueOffset};
pub use tile::{TileDecl, TilePlan};
pub use tile::{TmaDataType, TmaPlan, TmaSwizzle};
pub use tma::{
    im2col_corner_range, im2col_offset_max, Im2colArg, Im2colError, IM2COL_MAX_CHANNELS,
    IM2COL_MAX_PIXELS,
};
pub use tma::{Im2colArgs, Im2colMap};
pub use tma::{TensorMap, TensorMapArgs, TENSOR_MAP_MAX_BOX_BYTES};
pub use tma::{TensorMapArg, TensorMapError};
pub use tma::{
    TensorMapDataType, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};
pub use tmem::accum::{DataPath, TmemAccum};
pub use tmem::error::TmemError;
pub use tmem::load::{LoadShape, TmemLoad};
pub use tmem::map::TmemLoadMap;
pub use tmem::plan::{TmemPlan, TmemPlanDecl, TMEM_COLUMNS};
pub use tmem::scale::TmemScale;
pub use tmem::slot::TmemSlot;
