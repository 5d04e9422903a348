//! Run-time access to a tile: descriptors and swizzled offsets from plain numbers, under one contract.
//!
//! Every way of asking for a descriptor or an element offset — the core's [`TileLayout`](crate::TileLayout) methods,
//! the inherent `const fn`s a `#[smem_tile]` declaration emits, and the facade's `SmemTile` trait —
//! comes in three forms with the same meaning:
//!
//! | form | out-of-range index or address |
//! |---|---|
//! | `try_desc` / `try_offset` | `Err` with the typed [`Error`] ([`Error::IndexOutOfRange`], [`Error::UnalignedBase`], [`Error::FieldOverflow`] on the start address) |
//! | `desc` / `offset` | a compile error when evaluated in `const`; a panic with the same message at run time (the asserting form, like slice indexing) |
//! | `desc_wrapping` / `offset_wrapping` | no check, no panic: indices are reduced modulo their counts, the stage is multiplied with wrap-around and the start address is taken modulo the 14-bit field (256 KiB). The result is meaningless unless the precondition holds |
//!
//! The precondition of the unchecked forms (and what the checked forms check): `mn < MMAS_MN`,
//! `k < MMAS_K`, `stage < STAGES` (element offsets: `mn < TILE_MN`, `k < TILE_K`), and
//! `smem_addr` a shared-window address that is a multiple of 128 B (16 B without swizzle) with the
//! whole tile addressable: `smem_addr + last_start` below 256 KiB ([`TileAccess::check_address`]). In a kernel the
//! indices come from loops over the constants and the address from the dynamic shared memory
//! window (below 228 KiB on sm90), so the precondition holds by construction.
//!
//! All three compile to straight-line integer code (`#[inline]` throughout): the unchecked form is
//! shifts, adds and an `and`; the others add compares that fold away when the compiler can see the
//! arguments are in range. A run-time subtile index reads no table: the advance of subtile
//! `(mn, k)` is the subtile grid evaluated as a mixed-radix sum of constants
//! ([`TileAccess::advance`]; the `ADVANCE_*` arrays hold the same numbers for constant indices).
//! On `nvptx64` the failing path of the asserting forms is a `trap` in the kernel's own code (no
//! call into the panic machinery, which a PTX module built with `--emit asm` would not contain);
//! in `const` it is still the compile error, and on every other target the panic with the message.
//!
//! **Descriptor steps.** The start address is the low 14 bits of the descriptor and every valid
//! descriptor's start is below 2^14 units, so for valid arguments
//! `desc(a, mn, k, s) == desc(a, 0, 0, 0) + (ADVANCE_MN[mn] + ADVANCE_K[k] + s · ADVANCE_STAGE)`:
//! a kernel forms one descriptor per stage and adds constants for the MMA subtiles.
//!
//! ```
//! use smemdesc_core::*;
//! const T: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64)
//!     .mma_mn(64).stages(4).expect_valid();
//! const A: TileAccess = T.access();
//! assert_eq!(T.try_desc(0, 0, 0, 4), Err(Error::IndexOutOfRange { what: Indexed::Stage, index: 4, count: 4 }));
//! let d0 = T.desc(0x400, 0, 0, 2);
//! assert_eq!(T.desc(0x400, 1, 3, 2), d0 + (T.advance_mn(1) + T.advance_k(3)) as u64);
//! assert_eq!(T.desc_wrapping(0x400, 1, 3, 2), T.desc(0x400, 1, 3, 2));
//! assert_eq!(A.stages, 4);
//! ```

use crate::base::arch::Arch;
use crate::base::base_range::{start_out_of_range, START_LIMIT};
use crate::base::error::{Error, Field};
use crate::base::error_data::Indexed;
use crate::base::swizzle::SwizzleMode;
use crate::layout::algebra::{Layout, SwizzledLayout};
use crate::layout::descriptor::SmemDescriptor;
use __cold::{__index_error, __start_result, __unaligned_error};

/// The checked forms' failing paths, built out of the hot path (not an API).
#[doc(hidden)]
#[path = "cold.rs"]
pub mod __cold;

/// Former `what` text of an [`Error::IndexOutOfRange`] for the MMA subtile index along M/N, kept
/// for one release: `what` is an [`Indexed`] now.
#[doc(hidden)]
#[deprecated(
    since = "0.2.0",
    note = "`what` is an `Indexed`: use `Indexed::SubtileMn`"
)]
pub const WHAT_SUBTILE_MN: Indexed = Indexed::SubtileMn;
/// Former `what` for the MMA subtile index along K, kept for one release.
#[doc(hidden)]
#[deprecated(
    since = "0.2.0",
    note = "`what` is an `Indexed`: use `Indexed::SubtileK`"
)]
pub const WHAT_SUBTILE_K: Indexed = Indexed::SubtileK;
/// Former `what` for the stage index, kept for one release.
#[doc(hidden)]
#[deprecated(since = "0.2.0", note = "`what` is an `Indexed`: use `Indexed::Stage`")]
pub const WHAT_STAGE: Indexed = Indexed::Stage;
/// Former `what` for an element's M/N coordinate, kept for one release.
#[doc(hidden)]
#[deprecated(
    since = "0.2.0",
    note = "`what` is an `Indexed`: use `Indexed::ElementMn`"
)]
pub const WHAT_ELEMENT_MN: Indexed = Indexed::ElementMn;
/// Former `what` for an element's K coordinate, kept for one release.
#[doc(hidden)]
#[deprecated(
    since = "0.2.0",
    note = "`what` is an `Indexed`: use `Indexed::ElementK`"
)]
pub const WHAT_ELEMENT_K: Indexed = Indexed::ElementK;

/// The numbers a kernel needs at run time to form one tile's descriptors and element offsets, and
/// the checks of the one contract (see the [module](self) docs). `#[smem_tile]` emits it as the
/// constant `ACCESS` of its `SmemTile` impl, with literal fields; [`TileLayout::access`](crate::TileLayout::access) derives it.
///
/// ```
/// use smemdesc_core::*;
/// const T: TileLayout = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid();
/// let a = T.access();
/// assert_eq!((a.desc, a.mmas_mn, a.mmas_k, a.stages), (0x4000_0040_0001_0000, 1, 4, 1));
/// assert_eq!(a.try_encode(0x400, 2).unwrap().raw(), a.desc + 0x40 + 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileAccess {
    /// Architecture of the descriptor encoding.
    pub arch: Arch,
    /// Base descriptor: subtile (0, 0), stage 0, start address 0, base offset 0.
    pub desc: u64,
    /// Swizzle mode.
    pub swizzle: SwizzleMode,
    /// The alignment `smem_addr` needs (absolute placement, see [`Placement`](crate::Placement)): 128 B for a swizzled sm90
    /// tile, the swizzle pattern's repeat on sm100 (not measured there), 16 B without swizzle.
    pub align: u32,
    /// MMA subtiles along M/N.
    pub mmas_mn: u32,
    /// MMA subtiles along K.
    pub mmas_k: u32,
    /// Pipeline stages.
    pub stages: u32,
    /// Start-address advance of one stage, 16-byte units.
    pub advance_stage: u32,
    /// Tile extent along M/N, elements.
    pub tile_mn: u32,
    /// Tile extent along K, elements.
    pub tile_k: u32,
    /// Values per 1-byte layout cell along K (2 for packed fp4, else 1): element `k` is in cell
    /// `k / values_per_cell` (see `TileLayout::value_offset` for the bits).
    pub values_per_cell: u32,
    /// Bytes from the tile's base to the start address of its last MMA subtile of its last stage:
    /// the tile fits the 14-bit start-address field at `smem_addr` iff
    /// `smem_addr + last_start < 256 KiB`.
    pub last_start: u32,
    /// The swizzled byte layout of one stage (what `offset` evaluates).
    pub layout: SwizzledLayout,
    /// The grid of MMA subtile origins in 16-byte units ([`TileLayout::grid`](crate::TileLayout::grid)): subtile `(mn, k)`
    /// starts `grid.eval(mn, k)` units after subtile (0, 0) (what [`advance`](Self::advance)
    /// evaluates).
    pub grid: Layout,
}

impl TileAccess {
    /// Checks MMA subtile indices and the stage: `mn < mmas_mn`, `k < mmas_k`, `stage < stages`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert!(a.check_subtile(0, 3, 0).is_ok());
    /// assert_eq!(a.check_subtile(0, 4, 0), Err(Error::IndexOutOfRange { what: Indexed::SubtileK, index: 4, count: 4 }));
    /// ```
    #[inline]
    pub const fn check_subtile(&self, mn: u32, k: u32, stage: u32) -> Result<(), Error> {
        if mn >= self.mmas_mn {
            return __index_error(Indexed::SubtileMn, mn, self.mmas_mn);
        }
        if k >= self.mmas_k {
            return __index_error(Indexed::SubtileK, k, self.mmas_k);
        }
        if stage >= self.stages {
            return __index_error(Indexed::Stage, stage, self.stages);
        }
        Ok(())
    }

    /// Checks an element coordinate: `mn < tile_mn`, `k < tile_k`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).expect_valid().access();
    /// assert_eq!(a.check_element(128, 0), Err(Error::IndexOutOfRange { what: Indexed::ElementMn, index: 128, count: 128 }));
    /// ```
    #[inline]
    pub const fn check_element(&self, mn: u32, k: u32) -> Result<(), Error> {
        if mn >= self.tile_mn {
            return __index_error(Indexed::ElementMn, mn, self.tile_mn);
        }
        if k >= self.tile_k {
            return __index_error(Indexed::ElementK, k, self.tile_k);
        }
        Ok(())
    }

    /// Checks the tile's address: `smem_addr` a multiple of 128 B (16 B without swizzle), and the
    /// whole tile addressable by the 14-bit start-address field (`smem_addr + last_start` below
    /// 256 KiB). Independent of the subtile, so it folds away for a constant address and is one
    /// compare otherwise.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.last_start, 96); // the 4th K subtile starts 3 x 32 B on
    /// assert_eq!(a.check_address(0x440), Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
    /// assert!(a.check_address(0x3ff80).is_ok());
    /// assert!(matches!(a.check_address(0x40000), Err(Error::BaseTooHigh { highest_base: 0x3ff80, .. })));
    /// ```
    #[inline]
    pub const fn check_address(&self, smem_addr: u32) -> Result<(), Error> {
        if smem_addr % self.align != 0 {
            return __unaligned_error(smem_addr, self.align);
        }
        if smem_addr as u64 + self.last_start as u64 >= START_LIMIT {
            return __start_result(smem_addr, self.last_start, self.align);
        }
        Ok(())
    }

    /// The descriptor whose start address is `smem_addr` plus `units` 16-byte units, with the
    /// address checked ([`check_address`](Self::check_address)); `units` is a valid subtile's
    /// advance (at most `last_start / 16`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.try_encode(0x400, 2).unwrap().raw(), a.desc + 0x40 + 2);
    /// assert_eq!(a.try_encode(0x440, 0), Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
    /// ```
    #[inline]
    pub const fn try_encode(&self, smem_addr: u32, units: u32) -> Result<SmemDescriptor, Error> {
        match self.check_address(smem_addr) {
            Ok(()) => Ok(SmemDescriptor::from_raw(
                self.arch,
                self.encode_wrapping(smem_addr, units),
            )),
            Err(e) => Err(e),
        }
    }

    /// The descriptor whose start address is `(smem_addr >> 4) + units` modulo the 14-bit field,
    /// base offset 0 (the absolute placement, see [`Placement`](crate::Placement)); no check (the unchecked contract).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.encode_wrapping(0x400, 3), a.desc | 0x43);
    /// assert_eq!(a.encode_wrapping(0x3fc00, 0x40), a.desc); // wraps in the field, never panics
    /// ```
    #[inline]
    pub const fn encode_wrapping(&self, smem_addr: u32, units: u32) -> u64 {
        self.desc | crate::base::base_range::start_field(smem_addr, units)
    }

    /// Former name of [`encode_wrapping`](Self::encode_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `encode_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub const fn encode_unchecked(&self, smem_addr: u32, units: u32) -> u64 {
        self.encode_wrapping(smem_addr, units)
    }

    /// Start-address advance of MMA subtile `(mn, k)` from subtile (0, 0), in 16-byte units:
    /// `ADVANCE_MN[mn] + ADVANCE_K[k]`, computed from the grid's radices and strides (each
    /// mode is a mixed-radix sum, `grid.mn.size() == mmas_mn`), so a run-time index reads no
    /// table. Indices are taken modulo `mmas_mn` and `mmas_k`.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// // bf16, K-major, 128B swizzle, 128 x 64, wgmma M = 64: the second M subtile is 64 rows of
    /// // 128 B on (512 units), each K subtile 32 B (2 units).
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64)
    ///     .expect_valid().access();
    /// assert_eq!(a.advance(1, 3), 512 + 6);
    /// assert_eq!(a.advance(2 + 1, 4 + 3), 512 + 6); // modulo the counts
    /// ```
    #[inline(always)]
    pub const fn advance(&self, mn: u32, k: u32) -> u32 {
        self.grid.eval(mn % self.mmas_mn, k % self.mmas_k)
    }

    /// The descriptor of MMA subtile `(mn, k)` of stage `stage` for the tile at `smem_addr`, with
    /// every index and the address checked ([`check_subtile`](Self::check_subtile),
    /// [`check_address`](Self::check_address)): what `TileLayout::try_desc`, the inherent
    /// `try_desc` of a `#[smem_tile]` type and the facade's `SmemTile::try_desc` evaluate.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(4)
    ///     .expect_valid().access();
    /// // 0x400 is 0x40 units; stage 2 is 2 x 16 KiB = 2048 units on.
    /// assert_eq!(a.try_desc(0x400, 1, 3, 2).unwrap().raw(), a.desc + 0x40 + 512 + 6 + 2048);
    /// assert_eq!(a.try_desc(0x400, 0, 4, 0), Err(Error::IndexOutOfRange { what: Indexed::SubtileK, index: 4, count: 4 }));
    /// ```
    #[inline(always)]
    pub const fn try_desc(
        &self,
        smem_addr: u32,
        mn: u32,
        k: u32,
        stage: u32,
    ) -> Result<SmemDescriptor, Error> {
        if let Err(e) = self.check_subtile(mn, k, stage) {
            return Err(e);
        }
        self.try_encode(
            smem_addr,
            self.grid.eval(mn, k) + stage * self.advance_stage,
        )
    }

    /// The asserting form of [`try_desc`](Self::try_desc): the raw descriptor, or a compile
    /// error in `const` and a panic naming the argument at run time (a `trap` on `nvptx64`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(4)
    ///     .expect_valid().access();
    /// assert_eq!(a.desc(0x400, 1, 3, 2), a.desc + 0x40 + 512 + 6 + 2048);
    /// assert!(std::panic::catch_unwind(|| a.desc(0x400, 0, 0, 4)).is_err());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn desc(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        // The `Err` is not unwrapped here: the cold `desc_fail` rebuilds it and fails.
        match self.try_desc(smem_addr, mn, k, stage) {
            Ok(d) => d.raw(),
            Err(_) => self.desc_fail(smem_addr, mn, k, stage),
        }
    }

    /// [`desc`](Self::desc) without checks, never a panic: `mn` and `k` are taken modulo their
    /// counts, the stage advance wraps and the start address is taken modulo the 14-bit field.
    /// Meaningful only under the precondition of the [module](self) docs.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(4)
    ///     .expect_valid().access();
    /// assert_eq!(a.desc_wrapping(0x400, 1, 3, 2), a.desc(0x400, 1, 3, 2));
    /// assert_eq!(a.desc_wrapping(0x400, 2 + 1, 4 + 3, 2), a.desc(0x400, 1, 3, 2));
    /// let _ = a.desc_wrapping(u32::MAX, u32::MAX, u32::MAX, u32::MAX); // no panic, no meaning
    /// ```
    #[inline(always)]
    pub const fn desc_wrapping(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        let units = self
            .advance(mn, k)
            .wrapping_add(stage.wrapping_mul(self.advance_stage));
        self.encode_wrapping(smem_addr, units)
    }

    /// Former name of [`desc_wrapping`](Self::desc_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `desc_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub const fn desc_unchecked(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        self.desc_wrapping(smem_addr, mn, k, stage)
    }

    /// Swizzled byte offset of element `(mn, k)` of stage 0, checked.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.try_offset(7, 0), Ok(7 * 128 + 7 * 16));
    /// assert!(a.try_offset(0, 64).is_err());
    /// ```
    #[inline(always)]
    pub const fn try_offset(&self, mn: u32, k: u32) -> Result<u32, Error> {
        match self.check_element(mn, k) {
            Ok(()) => Ok(self.layout.byte_address(0, mn, k / self.values_per_cell)),
            Err(e) => Err(e),
        }
    }

    /// The asserting form of [`try_offset`](Self::try_offset) (compile error in `const`, panic
    /// naming the coordinate at run time, `trap` on `nvptx64`).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.offset(7, 0), 7 * 128 + 7 * 16); // row 7, 16-B chunk 0 XOR 7
    /// assert!(std::panic::catch_unwind(|| a.offset(64, 0)).is_err());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn offset(&self, mn: u32, k: u32) -> u32 {
        match self.try_offset(mn, k) {
            Ok(o) => o,
            Err(_) => self.offset_fail(mn, k),
        }
    }

    /// Swizzled byte offset of element `(mn % tile_mn, k % tile_k)`, unchecked.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let a = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid().access();
    /// assert_eq!(a.offset_wrapping(7, 0), 7 * 128 + 7 * 16);
    /// assert_eq!(a.offset_wrapping(64 + 7, 0), a.offset_wrapping(7, 0));
    /// ```
    #[inline(always)]
    pub const fn offset_wrapping(&self, mn: u32, k: u32) -> u32 {
        self.layout.byte_address(
            0,
            mn % self.tile_mn,
            (k % self.tile_k) / self.values_per_cell,
        )
    }

    /// Former name of [`offset_wrapping`](Self::offset_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `offset_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub const fn offset_unchecked(&self, mn: u32, k: u32) -> u32 {
        self.offset_wrapping(mn, k)
    }

    /// The asserting form's end: the descriptor, or a panic naming the argument at fault (a
    /// compile error when evaluated in `const`). `#[track_caller]`: the panic points at the call.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid();
    /// assert_eq!(TileAccess::unwrap_desc(t.try_desc(0, 0, 1, 0)), t.desc(0, 0, 1, 0));
    /// assert!(std::panic::catch_unwind(|| TileAccess::unwrap_desc(t.try_desc(0, 0, 4, 0))).is_err());
    /// ```
    #[inline]
    #[track_caller]
    pub const fn unwrap_desc(r: Result<SmemDescriptor, Error>) -> u64 {
        match r {
            Ok(d) => d.raw(),
            Err(e) => fail(&e),
        }
    }

    /// The asserting form's end for offsets (see [`unwrap_desc`](Self::unwrap_desc)).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).expect_valid();
    /// assert_eq!(TileAccess::unwrap_offset(t.try_offset(1, 0)), 128 + 16);
    /// ```
    #[inline]
    #[track_caller]
    pub const fn unwrap_offset(r: Result<u32, Error>) -> u32 {
        match r {
            Ok(o) => o,
            Err(e) => fail(&e),
        }
    }
}

/// A static message naming the argument at fault (a `const` panic cannot format numbers).
const fn message(e: &Error) -> &'static str {
    match e {
        Error::IndexOutOfRange { what, .. } => match what {
            Indexed::SubtileMn => "smemdesc: MMA subtile index `mn` out of range; legal: 0..MMAS_MN",
            Indexed::SubtileK => "smemdesc: MMA subtile index `k` out of range; legal: 0..MMAS_K",
            Indexed::Stage => "smemdesc: `stage` out of range; legal: 0..STAGES",
            Indexed::ElementMn => {
                "smemdesc: element coordinate `mn` out of range; legal: 0..TILE_MN"
            }
            Indexed::ElementK => "smemdesc: element coordinate `k` out of range; legal: 0..TILE_K",
            _ => "smemdesc: index out of range",
        },
        Error::UnalignedBase { .. } => {
            "smemdesc: `smem_addr` is not a multiple of ACCESS.align (128 B for a swizzled sm90 tile, the swizzle repeat on sm100, 16 B without swizzle)"
        }
        Error::BaseTooHigh { .. } => {
            "smemdesc: `smem_addr` is too high: the tile's last subtile would start past the 256 KiB the 14-bit start-address field holds"
        }
        Error::FieldOverflow {
            field: Field::StartAddress,
            ..
        } => "smemdesc: the tile at `smem_addr` reaches past the 256 KiB the 14-bit start-address field holds",
        _ => e.summary(),
    }
}

/// The asserting forms' failure, for the facade's type-level handles (not an API): [`fail`].
#[doc(hidden)]
#[track_caller]
#[inline(always)]
pub const fn __fail(e: &Error) -> ! {
    fail(e)
}

/// The error of a tile at `smem_addr` whose last subtile starts past the 14-bit start field (for
/// the facade's type-level handles; not an API): what [`TileAccess::check_address`] returns.
#[doc(hidden)]
pub const fn __start_error(smem_addr: u32, last_start: u32, align: u32) -> Error {
    start_out_of_range(smem_addr, last_start, align)
}

/// The asserting forms' failure: the panic naming the argument at fault (a compile error when
/// evaluated in `const`; `#[track_caller]` points both at the user's call).
#[track_caller]
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) const fn fail(e: &Error) -> ! {
    panic!("{}", message(e))
}

/// On `nvptx64`, the same compile error in `const`, and at run time the `abort` intrinsic,
/// which LLVM lowers to PTX `trap`, inlined into the kernel. The panic would be a call to
/// `core::panicking::panic_fmt` (and to `message` and `Display::fmt`): `--emit asm` writes only
/// the kernel crate's code, so each would be an `.extern .func` the module does not define, and
/// inlining `fail` alone only moves the call there (measured: `scripts/ptx-check/README.md`).
#[track_caller]
#[inline(always)]
#[cfg(target_arch = "nvptx64")]
pub(crate) const fn fail(e: &Error) -> ! {
    core::intrinsics::const_eval_select((e,), fail_in_const, fail_at_run_time)
}

#[track_caller]
#[cfg(target_arch = "nvptx64")]
const fn fail_in_const(e: &Error) -> ! {
    panic!("{}", message(e))
}

#[inline(always)]
#[cfg(target_arch = "nvptx64")]
fn fail_at_run_time(_: &Error) -> ! {
    core::intrinsics::abort()
}
