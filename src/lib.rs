//! # smemdesc
//!
//! Correct-by-construction shared-memory (SMEM) layouts for NVIDIA tensor cores: matrix descriptors,
//! advance tables, swizzled offsets and TMA plans for Hopper `wgmma` (sm90) and Blackwell
//! `tcgen05` (sm100), computed and validated at compile time.
//!
//! Declare a tile with [`macro@smem_tile`]; an illegal declaration is a compile error on the
//! argument at fault. The struct becomes aligned storage for all stages; its `SmemTile` impl carries
//! the constants, and its `const fn`s compute descriptors and offsets:
//!
//! ```
//! use smemdesc::{smem_tile, SmemTile};
//!
//! /// A operand of a 128x256x64 bf16 GEMM on Hopper, 4 stages.
//! #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
//!             swizzle = 128B, mma = m64n256k16, stages = 4)]
//! pub struct TileA;
//!
//! const D: u64 = TileA::desc(0, 1, 3, 2); // MMA subtile (1, 3) of stage 2, tile at address 0
//! assert_eq!(D, TileA::DESC + (TileA::ADVANCE_MN[1] + TileA::ADVANCE_K[3]) as u64 + 2 * TileA::ADVANCE_STAGE as u64);
//! assert_eq!((TileA::SBO, TileA::TMA_BOX_DIM), (1024, [64, 128]));
//! assert_eq!(core::mem::size_of::<TileA>(), TileA::BYTES as usize);
//! assert_eq!(core::mem::align_of::<TileA>(), 1024);
//! assert_eq!(<TileA as SmemTile>::ADVANCE_K, &[0, 2, 4, 6]); // generic code sees slices
//! ```
//!
//! The core alone (no proc-macro) gives the same values as `const` items:
//!
//! ```
//! use smemdesc::core::*;
//! const B: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 256, 64)
//!     .mma_mn(256).stages(4).expect_valid();
//! assert_eq!(B.mmas_k(), 4);
//! ```
//!
//! One CTA's whole shared memory is one [`macro@smem_storage`] declaration: every member at an
//! offset honouring its alignment, the total checked against the per-CTA limit at compile time,
//! and the launch size, descriptors and views per member:
//!
//! ```
//! use smemdesc::{smem_storage, smem_tile, Mbarrier};
//! # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K,
//! #             mma = m64n256k16, stages = 4)]
//! # pub struct TileA;
//! #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
//! pub struct TileB;
//!
//! #[smem_storage(arch = sm90)]
//! pub struct Storage {
//!     a: TileA,                   // 65536 B at 0 (the 128B swizzle's 1024-B repeat)
//!     b: TileB,                   // 131072 B at 65536
//!     full: [Mbarrier; 4],        // 32 B at 196608 (8-B aligned)
//!     empty: [Mbarrier; 4],       // 32 B at 196640
//! }
//! assert_eq!((Storage::B_OFFSET, Storage::EMPTY_OFFSET, Storage::BYTES), (65536, 196640, 196672));
//! assert_eq!(Storage::LAUNCH_BYTES, 196672 + 1024 - 16); // slack to align a 16-B dynamic base
//! let base = Storage::aligned_base(0x410); // in a kernel: the dynamic shared-memory address
//! assert_eq!(Storage::b(base).desc(0, 1, 2), TileB::desc(base + 65536, 0, 1, 2));
//! assert_eq!(Storage::full_at(base, 3), base + 196608 + 3 * 8);
//! ```
//!
//! The [`guide`] explains all of it chapter by chapter: tiles, storage, the instruction, a Rust
//! kernel, the host, Blackwell, the epilogue and clusters, the pipeline protocol, register
//! fragments, the CLI, the C/C++ header, correctness.
//!
//! ## Features
//!
//! Off by default: `cudarc` adds the module `cuda` (tensor maps encoded by the driver, passed to or
//! uploaded for a cudarc launch). It names no CUDA version: choose the bindings with one of
//! `cuda-12080`, `cuda-12090`, `cuda-13000` … `cuda-13040` (each turns `cudarc` on), or on your own
//! cudarc 0.19 dependency (the module `cuda` says how).
#![no_std]
// The `cudarc` feature makes one driver call (`cuda::encode_args`), and on nvptx64 the module
// `ptx` issues the instructions (`asm!`); everything else stays safe, and the host build without
// `cudarc` forbids `unsafe` outright.
#![cfg_attr(
    not(any(feature = "cudarc", target_arch = "nvptx64")),
    forbid(unsafe_code)
)]
#![cfg_attr(any(feature = "cudarc", target_arch = "nvptx64"), deny(unsafe_code))]
// `asm!` on nvptx64 (nightly, as every nvptx64 kernel crate is).
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch))]
#![warn(missing_docs)]
// docs.rs (Cargo.toml `package.metadata.docs.rs`) marks the feature-gated items.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod accum;
#[cfg(feature = "cudarc")]
#[cfg_attr(docsrs, doc(cfg(feature = "cudarc")))]
pub mod cuda;
mod desc_set;
pub mod guide;
mod radix;
mod rule_map;
mod storage_items;
mod tile_at;
mod tile_entries;
mod tile_items;

pub mod clc;
pub mod grouped;
pub mod launch;
pub mod pdl;
pub mod pipeline;
#[cfg(target_arch = "nvptx64")]
#[allow(unsafe_code)]
pub mod ptx;

pub use smemdesc_core as core;
// Every item of the core stays reachable at the root (the macros' expansions and existing code
// name `smemdesc::TileSpec`, ...), but the documented API is the modules below and the prelude.
#[doc(hidden)]
pub use launch::{GemmLaunch, LaunchError};
#[doc(hidden)]
pub use smemdesc_core::*;

pub mod prelude {
    //! The items most kernels and host programs use, for `use smemdesc::prelude::*;`.
    //!
    //! ```
    //! use smemdesc::prelude::*;
    //! #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    //! struct TileA;
    //! assert_eq!(<TileA as SmemTile>::BYTES, 64 * 64 * 2);
    //! assert_eq!(Arch::from_name("sm90"), Some(Arch::Sm90));
    //! ```
    pub use crate::smem::TileAt;
    pub use crate::smem_mma;
    pub use crate::SmemTile;
    pub use smemdesc_core::{
        Absolute, Arch, ElementType, Error, Indexed, Major, Mbarrier, MmaKind, Operand, Placement,
        Relative, SwizzleMode,
    };
    pub use smemdesc_macros::{smem_storage, smem_tile};
}

pub mod tile {
    //! The SMEM operand tile: its specification and validated layout, its matrix descriptors,
    //! element offsets and run-time access ([`access`]), and the vocabulary it is described in
    //! (architecture, element type, major-ness, swizzle) with the error type.
    //!
    //! ```
    //! use smemdesc::tile::{Arch, ElementType, Major, SwizzleMode, TileLayout, TileSpec};
    //! const A: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
    //!     .swizzle(SwizzleMode::B128).expect_valid();
    //! assert_eq!(A.sbo(), 1024);
    //! ```
    pub use smemdesc_core::access;
    pub use smemdesc_core::{
        emulate_address, emulate_store, emulate_value, layout_type_code, layout_type_from_code,
        select_swizzle, Arch, Argument, Atom, BoxSource, DescriptorFields, Dim, ElementType, Error,
        Field, Indexed, Layout, Legal, Major, Order, SmemDescriptor, SmemForm, Swizzle,
        SwizzleMode, SwizzledLayout, TileAccess, TileDecl, TileLayout, TilePlan, TileSpec,
        ValueOffset,
    };
}

pub mod mma {
    //! The instruction that reads the tiles: MMA kinds and shapes, pairing an A and a B tile for
    //! one `wgmma`/`tcgen05.mma` ([`MmaPair`]), and the tcgen05 instruction descriptor.
    //!
    //! ```
    //! use smemdesc::mma::MmaShape;
    //! assert_eq!(MmaShape::parse("m64n256k16").map(|s| s.n), Some(256));
    //! ```
    pub use smemdesc_core::{
        check_mma_shape, check_mn_major, format_code, format_type, idesc_fields, is_block_scaled,
        AccumType, Idesc, IdescError, IdescField, InstrDesc, MmaKind, MmaPair, MmaShape, Mnemonic,
        Operand, PairOptions, ScaleFormat,
    };
}

pub mod tma {
    //! TMA: the box plan that writes a tile's layout, the tensor map
    //! (`cuTensorMapEncodeTiled` arguments) that carries it, and im2col maps
    //! (`cuTensorMapEncodeIm2col` arguments) for convolution activations.
    //!
    //! ```
    //! use smemdesc::tma::{TmaSwizzle};
    //! use smemdesc::tile::SwizzleMode;
    //! assert_eq!(TmaSwizzle::of(SwizzleMode::B128).value(), 3);
    //! ```
    pub use smemdesc_core::tma::{
        check_oob_base_128kb, tensor_span_bytes, OobWindowError, OOB_WINDOW_128K,
    };
    pub use smemdesc_core::tma::{
        Conv2d, ConvError, FillMismatch, Gather4, Gather4Error, Im2colLoad, Im2colWalk,
        ImplicitGemmA, KStep, Spatial, GATHER4_ROWS,
    };
    pub use smemdesc_core::{
        im2col_corner_range, im2col_offset_max, Im2colArg, Im2colArgs, Im2colError, Im2colMap,
        IM2COL_MAX_CHANNELS, IM2COL_MAX_PIXELS,
    };
    pub use smemdesc_core::{
        TensorMap, TensorMapArg, TensorMapArgs, TensorMapDataType, TensorMapError,
        TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill, TensorMapSwizzle, TmaDataType,
        TmaPlan, TmaSwizzle, TENSOR_MAP_MAX_BOX_BYTES,
    };
}

pub mod scale {
    //! Block-scale factor tiles for tcgen05 `.block_scale` MMAs ([`macro@crate::smem_scale_tile`]).
    //!
    //! ```
    //! assert_eq!(smemdesc::scale::SCALE_ATOM_ROWS, 128);
    //! ```
    pub use smemdesc_core::{
        ScaleDecl, ScaleTile, SCALE_ATOM_BYTES, SCALE_ATOM_FACTORS, SCALE_ATOM_ROWS,
    };
}

pub mod fragment {
    //! Register fragments of `mma.sync`/`wgmma`, `ldmatrix` tiles and the shared-memory bank model
    //! ([`macro@crate::smem_fragment_tile`]).
    //!
    //! ```
    //! assert_eq!(smemdesc::fragment::bank_of(0x84), 1);
    //! ```
    pub use smemdesc_core::fragment::*;
}

pub mod tmem {
    //! Blackwell Tensor Memory: accumulator allocation, `tcgen05.ld` shapes and plans
    //! ([`macro@crate::smem_plan`] keys `tmem`).
    //!
    //! ```
    //! assert_eq!(smemdesc::tmem::TMEM_COLUMNS, 512);
    //! ```
    pub use smemdesc_core::tmem::accum::{DataPath, TmemAccum};
    pub use smemdesc_core::tmem::error::TmemError;
    pub use smemdesc_core::tmem::load::{LoadShape, TmemLoad};
    pub use smemdesc_core::tmem::map::TmemLoadMap;
    pub use smemdesc_core::tmem::plan::{TmemPlan, TmemPlanDecl, TMEM_COLUMNS};
    pub use smemdesc_core::tmem::scale::TmemScale;
    pub use smemdesc_core::tmem::slot::TmemSlot;
}

pub mod cluster {
    //! Thread-block clusters, TMA multicast and the sm100 `cta_group::2` CTA pair.
    //!
    //! ```
    //! assert_eq!(smemdesc::cluster::MAX_PORTABLE_CTAS, 8);
    //! ```
    pub use smemdesc_core::cluster::*;
}

pub mod epilogue {
    //! The epilogue's C/D tile ([`macro@crate::smem_epilogue_tile`]): its swizzle, writers and
    //! TMA store.
    //!
    //! ```
    //! use smemdesc::epilogue::EpilogueSpec;
    //! let _ = core::mem::size_of::<EpilogueSpec>();
    //! ```
    pub use smemdesc_core::epilogue::*;
}

/// Internals the macros' expansions name; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::storage_items::{member_numbers, member_ptr, tile_member};
    pub use crate::tile_items::TileSlices;
    pub use smemdesc_core::{
        CanonicalForm, ConstText, Mode, Slot, MAX_SUBMODES, MMA_KEYS, TILE_KEYS,
    };
}
pub use smemdesc_macros::{
    smem_epilogue_tile, smem_fragment_tile, smem_pipeline, smem_plan, smem_scale_tile,
    smem_storage, smem_tile,
};

/// Pairs the A and B [`macro@smem_tile`] structs declared in an inline module into one MMA
/// instruction: checks at expansion time that they agree (architecture, kind, `cta_group`, K, M
/// from A and N from B, majors, accumulator, negate/saturate/scale settings legal for the kind;
/// `sf` is required for `mxf4nvf4`; `vec = 16 | 32` sets the values per scale factor), checks the module's [`macro@smem_scale_tile`]s against the
/// instruction ([`MmaPair::check_scale_tile`]), and adds the instruction's items to the module
/// ([the instruction chapter](crate::guide::instruction) of the guide).
///
/// ```
/// #[smemdesc::smem_mma(accum = f32)]
/// mod gemm {
///     use smemdesc::smem_tile;
///     #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K)]
///     pub struct TileA;
///     #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (256, 64), major = K)]
///     pub struct TileB;
/// }
/// // PTX kind::f16 table: D f32 (1 << 4), bf16 A/B (1 << 7, 1 << 10), N >> 3 at 17, M >> 4 at 24.
/// assert_eq!(gemm::IDESC, (1 << 4) | (1 << 7) | (1 << 10) | ((256 >> 3) << 17) | ((128 >> 4) << 24));
/// assert_eq!(gemm::IDESC64, (gemm::IDESC as u64) << 32);
/// assert_eq!(gemm::mnemonic!(), "tcgen05.mma.cta_group::1.kind::f16");
/// ```
pub use smemdesc_macros::smem_mma;

pub mod smem;

/// The function-like form under the attribute's name: `smemdesc::plan::smem_tile!{...}` is
/// [`smem_plan!`](crate::smem_plan). (An attribute and a function-like macro cannot share one name
/// in one module, hence the module.)
///
/// ```
/// use smemdesc::plan::smem_tile;
/// const A: smemdesc::TilePlan = smem_tile! {
///     arch = sm100, operand = A, dtype = e4m3, tile = (128, 128), major = K, stages = 3
/// };
/// assert_eq!(A.tile.stage_bytes(), 128 * 128);
/// ```
pub mod plan {
    pub use smemdesc_macros::smem_plan as smem_tile;
}

/// What a [`macro@smem_tile`] declaration provides, for generic code (`fn load<T: SmemTile>()`).
///
/// A `#[smem_tile]` struct's constants are this trait's: with the trait in scope (it is in
/// [`prelude`]) `TileA::DESC` reads them, in `const` items and `asm!` `const` operands too. They
/// are provided here once rather than written into every declaration, because each item a
/// declaration writes costs build time (`benches/macro_build_time.sh`). What a trait cannot carry
/// on stable Rust is inherent on the struct: `const fn desc` / `const fn offset` (and their checked
/// and wrapping forms) and the per-tile arrays with their exact lengths (`ADVANCE_K: [u16; MMAS_K]`,
/// `TMA_BOX_OFFSETS: [u32; TMA_BOXES]`, `TMA_BOX_COORDS`): a trait constant cannot have an
/// impl-dependent array length, so the trait carries those arrays as slices.
///
/// All descriptor quantities are in bytes unless said otherwise; advances are in the descriptor's
/// 16-byte units.
///
/// An impl sets [`PLAN`](Self::PLAN) and the four slices ([`ADVANCE_MN`](Self::ADVANCE_MN),
/// [`ADVANCE_K`](Self::ADVANCE_K), [`TMA_BOX_OFFSETS`](Self::TMA_BOX_OFFSETS),
/// [`TMA_BOX_COORDS`](Self::TMA_BOX_COORDS)); the other constants are provided, read off
/// [`ACCESS`](Self::ACCESS) or `PLAN` (so, like any associated constant, they are evaluated only
/// where they are used). `#[smem_tile]` writes three items: `PLAN`, `ACCESS` (both from the numbers
/// the attribute computed, not validated again) and one hidden constant that holds the four
/// slices.
///
/// ```
/// use smemdesc::{smem_tile, SmemTile};
///
/// #[smem_tile(arch = sm100, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
/// struct TileB;
///
/// // The descriptor of the last MMA subtile of a stage, for any tile.
/// fn last_desc<T: SmemTile>(base: u32, stage: u32) -> u64 {
///     T::desc(base, T::MMAS_MN - 1, T::MMAS_K - 1, stage)
/// }
/// assert_eq!(last_desc::<TileB>(0x800, 1), TileB::desc(0x800, 0, 3, 1));
/// assert_eq!(<TileB as SmemTile>::MMA_N, 256);
/// ```
pub trait SmemTile: Sized {
    /// The validated core plan (declaration with defaults resolved, layout, TMA plan, MMA).
    const PLAN: TilePlan;
    /// Target architecture.
    const ARCH: Arch = Self::ACCESS.arch;
    /// Operand (A or B).
    const OPERAND: Operand = Self::PLAN.decl.operand;
    /// Element type.
    const DTYPE: ElementType = Self::PLAN.decl.dtype;
    /// Contiguous dimension.
    const MAJOR: Major = Self::PLAN.decl.major;
    /// Atom stacking order (resolved when defaulted).
    const ORDER: Order = Self::PLAN.tile.spec().order;
    /// MMA kind (resolved when defaulted).
    const KIND: MmaKind = Self::PLAN.kind;
    /// CTA group (sm100: 1 or 2; sm90: 1).
    const CTA_GROUP: u32 = Self::PLAN.decl.cta_group;
    /// Tile extent along M (operand A) or N (operand B), elements.
    const TILE_MN: u32 = Self::ACCESS.tile_mn;
    /// Tile extent along K, elements.
    const TILE_K: u32 = Self::ACCESS.tile_k;
    /// Base descriptor: subtile (0, 0), stage 0, start address 0.
    const DESC: u64 = Self::ACCESS.desc;
    /// Leading dimension byte offset, bytes (as encoded).
    const LBO: u32 = Self::PLAN.tile.lbo();
    /// Stride dimension byte offset, bytes.
    const SBO: u32 = Self::PLAN.tile.sbo();
    /// Descriptor layout-type code on the tile's architecture.
    const LAYOUT_TYPE: u8 = Self::PLAN.tile.layout_type();
    /// The swizzle mode (resolved when `auto`).
    const SWIZZLE: SwizzleMode = Self::ACCESS.swizzle;
    /// Instruction M.
    const MMA_M: u32 = Self::PLAN.mma.m;
    /// Instruction N.
    const MMA_N: u32 = Self::PLAN.mma.n;
    /// Instruction K in elements (32 bytes).
    const MMA_K: u32 = Self::PLAN.mma.k;
    /// MMA subtiles along M/N.
    const MMAS_MN: u32 = Self::ACCESS.mmas_mn;
    /// MMA subtiles along K.
    const MMAS_K: u32 = Self::ACCESS.mmas_k;
    /// Start-address advance of subtile `(i, 0)`, 16-byte units (`MMAS_MN` entries). Constant
    /// indices only: a run-time index reads a table in memory; use [`advance_mn`](Self::advance_mn).
    const ADVANCE_MN: &'static [u16] = Self::__SLICES.advance_mn;
    /// Start-address advance of subtile `(0, j)`, 16-byte units (`MMAS_K` entries). Constant
    /// indices only (run-time: [`advance_k`](Self::advance_k)).
    const ADVANCE_K: &'static [u16] = Self::__SLICES.advance_k;
    /// Start-address advance of one stage, 16-byte units.
    const ADVANCE_STAGE: u32 = Self::ACCESS.advance_stage;
    /// Pipeline stages.
    const STAGES: u32 = Self::ACCESS.stages;
    /// Bytes of one stage.
    const STAGE_BYTES: u32 = Self::PLAN.tile.stage_bytes();
    /// Bytes of all stages.
    const BYTES: u32 = Self::PLAN.tile.bytes();
    /// Alignment of the storage, bytes.
    const ALIGN: u32 = Self::PLAN.tile.align();
    /// `boxDim` of `cuTensorMapEncodeTiled`, in the driver's order (innermost first):
    /// `[inner, rows]` (the key `tma_box = (rows, inner)` is in tile order).
    const TMA_BOX_DIM: [u32; 2] = Self::PLAN.tma.box_dim();
    /// Former name of [`TMA_BOX_DIM`](Self::TMA_BOX_DIM).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `TMA_BOX_DIM` (the driver's `boxDim`, innermost first; user-facing shapes are (rows, inner))"
    )]
    const TMA_BOX: [u32; 2] = Self::TMA_BOX_DIM;
    /// TMA boxes per stage.
    const TMA_BOXES: u32 = Self::PLAN.tma.boxes;
    /// Bytes of one TMA box.
    const TMA_BOX_BYTES: u32 = Self::PLAN.tma.box_bytes;
    /// `CUtensorMapSwizzle` value.
    const TMA_SWIZZLE: u32 = Self::PLAN.tma.swizzle.value();
    /// `CUtensorMapSwizzle` enumerator name (`"CU_TENSOR_MAP_SWIZZLE_128B"`, ...).
    const TMA_SWIZZLE_NAME: &'static str = Self::PLAN.tma.swizzle.name();
    /// `CUtensorMapDataType` value.
    const TMA_DATA_TYPE: u32 = Self::PLAN.tma.data_type.value();
    /// `CUtensorMapDataType` enumerator name.
    const TMA_DATA_TYPE_NAME: &'static str = Self::PLAN.tma.data_type.name();
    /// Byte offset of each TMA box inside one stage (`TMA_BOXES` entries). Constant indices
    /// only (run-time: [`tma_box_offset`](Self::tma_box_offset)).
    const TMA_BOX_OFFSETS: &'static [u32] = Self::__SLICES.box_offsets;
    /// Tile coordinates `[mn0, k0]` of each TMA box (`TMA_BOXES` entries). Constant indices
    /// only (run-time: [`tma_box_coord`](Self::tma_box_coord)).
    const TMA_BOX_COORDS: &'static [[u32; 2]] = Self::__SLICES.box_coords;

    /// Run-time access numbers ([`TileAccess`]): `PLAN.tile.access()` (`#[smem_tile]` sets it
    /// from the numbers the attribute computed).
    const ACCESS: TileAccess = Self::PLAN.tile.access();

    /// The four slices as one constant: what `#[smem_tile]` sets (internal; not an API). An impl
    /// that sets the four slices itself leaves it unset.
    #[doc(hidden)]
    const __SLICES: __private::TileSlices = panic!(
        "SmemTile: set ADVANCE_MN, ADVANCE_K, TMA_BOX_OFFSETS and TMA_BOX_COORDS (or use #[smem_tile])"
    );

    /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at `smem_addr`: the
    /// asserting form (a compile error in `const`, a panic naming the argument at run time), the
    /// same contract as the inherent `const fn desc` and the core's [`TileLayout::desc`] ([`access`]).
    #[inline(always)]
    #[track_caller]
    fn desc(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        smem::TileAt::<Self>::new_unvalidated(smem_addr).desc(mn, k, stage)
    }

    /// Checked descriptor: the core's typed error for an index or address out of range
    /// ([`TileLayout::try_desc`]).
    #[inline(always)]
    fn try_desc(smem_addr: u32, mn: u32, k: u32, stage: u32) -> Result<SmemDescriptor, Error> {
        smem::TileAt::<Self>::new_unvalidated(smem_addr).try_desc(mn, k, stage)
    }

    /// Unchecked descriptor: no check and no panic, meaningful only under the precondition of
    /// [`access`] ([`TileLayout::desc_wrapping`]).
    #[inline(always)]
    fn desc_wrapping(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        smem::TileAt::<Self>::new_unvalidated(smem_addr).desc_wrapping(mn, k, stage)
    }

    /// Former name of [`desc_wrapping`](Self::desc_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `desc_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    fn desc_unchecked(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        Self::desc_wrapping(smem_addr, mn, k, stage)
    }

    /// Swizzled byte offset of logical element `(mn, k)`, asserting (the core's
    /// [`TileLayout::byte_offset`]).
    #[inline(always)]
    #[track_caller]
    fn offset(mn: u32, k: u32) -> u32 {
        smem::TileAt::<Self, Relative>::element_offset(mn, k)
    }

    /// Checked offset ([`TileLayout::try_offset`]).
    #[inline(always)]
    fn try_offset(mn: u32, k: u32) -> Result<u32, Error> {
        smem::TileAt::<Self, Relative>::new_unvalidated(0).try_address(mn, k, 0)
    }

    /// Unchecked offset of `(mn % TILE_MN, k % TILE_K)` ([`TileLayout::offset_wrapping`]).
    #[inline(always)]
    fn offset_wrapping(mn: u32, k: u32) -> u32 {
        smem::TileAt::<Self, Relative>::new_unvalidated(0).address(mn, k, 0)
    }

    /// Address of the tile storage's first byte (element (0, 0) of stage 0), for host buffers
    /// and tests (kernels place tiles in dynamic shared memory: `smemdesc::smem`).
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// let t = T::new();
    /// assert_eq!(t.as_ptr(), t.as_bytes().as_ptr());
    /// assert_eq!(t.as_ptr() as usize % T::ALIGN as usize, 0);
    /// ```
    #[inline(always)]
    fn as_ptr(&self) -> *const u8 {
        (self as *const Self).cast()
    }

    /// Mutable address of the tile storage's first byte.
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// let mut t = T::new();
    /// let p = t.as_mut_ptr();
    /// assert_eq!(p as *const u8, t.as_bytes().as_ptr());
    /// ```
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut u8 {
        (self as *mut Self).cast()
    }

    /// `ADVANCE_MN[i]`, computed from the constants (a run-time `i` reads no table): `i <
    /// MMAS_MN`, a panic otherwise (a `trap` on nvptx64). In `const`:
    /// [`TileAt::advance_mn`](smem::TileAt::advance_mn).
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]
    /// struct T;
    /// let wg = 1; // e.g. tid / 128 - 1 in a kernel
    /// assert_eq!(T::advance_mn(wg), T::ADVANCE_MN[1]);
    /// ```
    #[inline(always)]
    #[track_caller]
    fn advance_mn(i: u32) -> u16 {
        smem::TileAt::<Self>::advance_mn(i)
    }

    /// `ADVANCE_K[i]`, computed (see [`advance_mn`](Self::advance_mn)); `i < MMAS_K`.
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(T::advance_k(2), T::ADVANCE_K[2]);
    /// ```
    #[inline(always)]
    #[track_caller]
    fn advance_k(i: u32) -> u16 {
        smem::TileAt::<Self>::advance_k(i)
    }

    /// `TMA_BOX_OFFSETS[b]`, computed; `b < TMA_BOXES`.
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K)]
    /// struct T;
    /// assert_eq!(T::tma_box_offset(1), T::TMA_BOX_OFFSETS[1]);
    /// ```
    #[inline(always)]
    #[track_caller]
    fn tma_box_offset(b: u32) -> u32 {
        smem::TileAt::<Self>::tma_box_offset(b)
    }

    /// `TMA_BOX_COORDS[b]`, computed; `b < TMA_BOXES`.
    ///
    /// ```
    /// use smemdesc::prelude::*;
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K)]
    /// struct T;
    /// assert_eq!(T::tma_box_coord(1), T::TMA_BOX_COORDS[1]);
    /// ```
    #[inline(always)]
    #[track_caller]
    fn tma_box_coord(b: u32) -> [u32; 2] {
        smem::TileAt::<Self>::tma_box_coord(b)
    }

    /// Former name of [`offset_wrapping`](Self::offset_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `offset_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    fn offset_unchecked(mn: u32, k: u32) -> u32 {
        Self::offset_wrapping(mn, k)
    }
}
