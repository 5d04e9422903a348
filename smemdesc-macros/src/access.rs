//! The run-time access items of a `#[smem_tile]` type (`smemdesc::access`): the `ACCESS`
//! constant and the inherent `desc` / `offset` forms. The `SmemTile` impl sets only `ACCESS`:
//! the trait's provided `desc` / `offset` forms evaluate it the same way (one body each in the
//! trait instead of six per tile).
//!
//! `ACCESS` is all literals (the layouts too, written from the plan the macro computed), so
//! using a tile does not make the compiler evaluate `PLAN` (the core's whole validation) again;
//! `PLAN` is evaluated only where it is referenced.
//!
//! Every form evaluates `ACCESS` (a constant: its subtile grid, counts and swizzled layout are
//! folded into the caller), so a run-time index is arithmetic on constants: no advance table is
//! indexed at run time (the `ADVANCE_*` arrays stay for constant indices), and the asserting
//! forms' failure is the core's (a `trap` on nvptx64).

use proc_macro2::TokenStream;
use quote::quote;

/// The literal fields of `ACCESS` that the tile attribute computed from the plan.
pub(crate) struct AccessFields {
    pub(crate) arch: TokenStream,
    pub(crate) desc: TokenStream,
    pub(crate) swizzle: TokenStream,
    pub(crate) align: TokenStream,
    pub(crate) mmas_mn: TokenStream,
    pub(crate) mmas_k: TokenStream,
    pub(crate) stages: TokenStream,
    pub(crate) advance_stage: TokenStream,
    pub(crate) tile_mn: TokenStream,
    pub(crate) tile_k: TokenStream,
    pub(crate) values_per_cell: TokenStream,
    pub(crate) last_start: TokenStream,
    /// The swizzled layout of one stage, as a literal `SwizzledLayout` expression.
    pub(crate) layout: TokenStream,
    /// The subtile grid, as a literal `Layout` expression.
    pub(crate) grid: TokenStream,
}

/// The inherent items: `ACCESS`, `try_desc`, `desc`, `desc_unchecked`, `try_offset`, `offset`,
/// `offset_unchecked`, `value_offset`.
pub(crate) fn inherent(f: &AccessFields) -> TokenStream {
    let AccessFields {
        arch,
        desc,
        swizzle,
        align,
        mmas_mn,
        mmas_k,
        stages,
        advance_stage,
        tile_mn,
        tile_k,
        values_per_cell,
        last_start,
        layout,
        grid,
    } = f;
    quote! {
        /// Run-time access numbers (literals, with the plan's subtile grid and swizzled layout)
        /// and the checks of the one contract (`smemdesc::access`): what `desc`, `try_desc`,
        /// `offset`, … evaluate.
        pub const ACCESS: ::smemdesc::TileAccess = ::smemdesc::TileAccess {
            arch: #arch,
            desc: #desc,
            swizzle: #swizzle,
            align: #align,
            mmas_mn: #mmas_mn,
            mmas_k: #mmas_k,
            stages: #stages,
            advance_stage: #advance_stage,
            tile_mn: #tile_mn,
            tile_k: #tile_k,
            values_per_cell: #values_per_cell,
            last_start: #last_start,
            layout: #layout,
            grid: #grid,
        };

        /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at shared-memory
        /// address `smem_addr`, checked: an index out of range (`mn < MMAS_MN`, `k < MMAS_K`,
        /// `stage < STAGES`), an address off 128 B (16 B unswizzled) or a tile reaching past
        /// the 14-bit start-address field is the core's typed error.
        #[inline]
        pub const fn try_desc(
            smem_addr: u32,
            mn: u32,
            k: u32,
            stage: u32,
        ) -> ::core::result::Result<::smemdesc::SmemDescriptor, ::smemdesc::Error> {
            Self::ACCESS.try_desc(smem_addr, mn, k, stage)
        }
        /// Descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at shared-memory
        /// address `smem_addr`: [`DESC`](Self::DESC) with the start address moved (equal to
        /// the core's `TileLayout::desc`). The asserting form of [`try_desc`](Self::try_desc):
        /// out of range is a compile error in `const` and a panic naming the argument at run
        /// time (a `trap` in a nvptx64 kernel). base_offset is 0 (the absolute placement TMA
        /// writes, spec §7; `PLAN.tile.place::<Relative>(addr)` for the relative one). For
        /// valid arguments `desc(a, mn, k, s) == desc(a, 0, 0, 0) + ADVANCE_MN[mn] +
        /// ADVANCE_K[k] + s * ADVANCE_STAGE`: descriptor loops add constants. A run-time
        /// index reads no table (the advance is computed from the subtile grid).
        #[inline]
        #[track_caller]
        pub const fn desc(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
            Self::ACCESS.desc(smem_addr, mn, k, stage)
        }
        /// [`desc`](Self::desc) without checks, never a panic: `mn`, `k` are taken modulo
        /// `MMAS_MN`, `MMAS_K`, the stage advance wraps, the start address is taken modulo
        /// the 14-bit field. Meaningful only for `mn < MMAS_MN`, `k < MMAS_K`,
        /// `stage < STAGES` and `smem_addr` a 128-B-aligned shared-window address (tile below
        /// 256 KiB): shifts, adds and an `and` in a kernel.
        #[inline]
        pub const fn desc_unchecked(smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
            Self::ACCESS.desc_unchecked(smem_addr, mn, k, stage)
        }
        /// Swizzled byte offset of logical element `(mn, k)` of stage 0, checked
        /// (`mn < TILE_MN`, `k < TILE_K`).
        #[inline]
        pub const fn try_offset(mn: u32, k: u32) -> ::core::result::Result<u32, ::smemdesc::Error> {
            Self::ACCESS.try_offset(mn, k)
        }
        /// Swizzled byte offset of logical element `(mn, k)` of stage 0 (for 6/4-bit types the
        /// byte cell: see `value_offset`); the asserting form of
        /// [`try_offset`](Self::try_offset) (compile error in `const`, panic at run time, a
        /// `trap` in a nvptx64 kernel).
        #[inline]
        #[track_caller]
        pub const fn offset(mn: u32, k: u32) -> u32 {
            Self::ACCESS.offset(mn, k)
        }
        /// [`offset`](Self::offset) without checks: `(mn % TILE_MN, k % TILE_K)`.
        #[inline]
        pub const fn offset_unchecked(mn: u32, k: u32) -> u32 {
            Self::ACCESS.offset_unchecked(mn, k)
        }
        /// Byte and bit position of value `(mn, k)` of stage 0, for every SMEM form (the
        /// nibble or 6-bit field of a padded or packed fp4/fp6 value).
        #[inline]
        pub const fn value_offset(mn: u32, k: u32) -> ::smemdesc::ValueOffset {
            Self::PLAN.tile.value_offset(mn, k)
        }
    }
}
