//! The run-time access forms of [`TileLayout`] (the contract of [`crate::access`]): checked,
//! asserting and wrapping descriptors and offsets.

use crate::base::error::Error;
use crate::tile::access::TileAccess;
use crate::tile::spec::TileLayout;

impl TileLayout {
    /// The run-time access numbers of this tile ([`TileAccess`]).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(2).expect_valid();
    /// let a = t.access();
    /// assert_eq!((a.mmas_mn, a.mmas_k, a.stages, a.advance_stage), (2, 4, 2, 1024));
    /// ```
    #[inline]
    pub const fn access(&self) -> TileAccess {
        let spec = self.spec();
        TileAccess {
            arch: spec.arch,
            desc: self.base_descriptor().raw(),
            swizzle: self.swizzle_mode(),
            align: if self.swizzle_mode().is_swizzled() {
                crate::Placement::Absolute.min_align(self)
            } else {
                16
            },
            mmas_mn: self.mmas_mn(),
            mmas_k: self.mmas_k(),
            stages: spec.stages,
            advance_stage: self.advance_stage(),
            tile_mn: spec.tile_mn,
            tile_k: spec.tile_k,
            values_per_cell: spec.form.values_per_cell(),
            last_start: self.subtile_offset_bytes(self.mmas_mn() - 1, self.mmas_k() - 1)
                + (spec.stages - 1) * self.stage_bytes(),
            layout: self.smem_layout(),
            grid: self.grid(),
        }
    }

    /// [`desc`](Self::desc) without checks: `mn` and `k` are reduced modulo their counts, the stage
    /// advance wraps, and the start address is taken modulo the 14-bit field. Never panics; the
    /// value is only meaningful under the precondition of the [module](crate::tile::access) docs.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).stages(4).expect_valid();
    /// assert_eq!(t.desc_wrapping(0x400, 1, 2, 3), t.desc(0x400, 1, 2, 3));
    /// let _ = t.desc_wrapping(u32::MAX, u32::MAX, u32::MAX, u32::MAX); // no panic, no meaning
    /// ```
    #[inline]
    pub const fn desc_wrapping(&self, smem_addr: u32, mn: u32, k: u32, stage: u32) -> u64 {
        self.access().desc_wrapping(smem_addr, mn, k, stage)
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

    /// Swizzled byte offset of element `(mn, k)`, checked ([`byte_offset`](Self::byte_offset) is
    /// the asserting form).
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// assert_eq!(t.try_offset(127, 63), Ok(t.byte_offset(127, 63)));
    /// assert_eq!(t.try_offset(128, 0), Err(Error::IndexOutOfRange { what: Indexed::ElementMn, index: 128, count: 128 }));
    /// ```
    #[inline]
    pub const fn try_offset(&self, mn: u32, k: u32) -> Result<u32, Error> {
        self.access().try_offset(mn, k)
    }

    /// Swizzled byte offset of element `(mn % TILE_MN, k % TILE_K)`, unchecked.
    ///
    /// ```
    /// use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).expect_valid();
    /// assert_eq!(t.offset_wrapping(5, 9), t.byte_offset(5, 9));
    /// ```
    #[inline]
    pub const fn offset_wrapping(&self, mn: u32, k: u32) -> u32 {
        self.access().offset_wrapping(mn, k)
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
}
