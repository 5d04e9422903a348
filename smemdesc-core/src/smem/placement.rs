//! Where a tile's swizzle pattern is anchored: the two placement models, as an H100
//! measured them.
//!
//! The tensor core (`wgmma`) and TMA apply the swizzle to **absolute** shared-memory address bits;
//! `base_offset` only shifts the row phase the tensor core uses. So a tile whose bytes were written
//! on absolute addresses (TMA, CuTe) is read by a descriptor with `base_offset = 0` wherever it
//! sits (128-B aligned), while bytes written with a pattern that restarts at the tile start are read
//! with `base_offset = (start >> 7) & 7` (modulo the pattern's rows). Both agree for a tile on its
//! pattern's repeat (1024/512/256 B), which is where smemdesc storage puts tiles by default.
//!
//! A [`PlacedTile<M>`] is a tile at an address under one model `M` ([`Absolute`] or [`Relative`]);
//! its descriptors, element addresses and (for [`Absolute`] only) TMA destinations all follow `M`,
//! so data written under one model cannot be described under the other by accident.
//!
//! sm100 (`tcgen05`) has not been measured: there both models require the pattern's repeat.

use core::marker::PhantomData;

use crate::base::arch::Arch;
use crate::base::error::Error;
use crate::base::error_data::Indexed;
use crate::base::swizzle::SwizzleMode;
use crate::layout::descriptor::SmemDescriptor;
use crate::tile::access::__cold::{
    __index_error, __start_overflow, __start_result, __unaligned_error,
};
use crate::tile::spec::TileLayout;
use crate::tile::tma_plan::TmaPlan;

/// The two ways a swizzle pattern can be anchored (module docs: what the H100 measured).
///
/// ```
/// use smemdesc_core::{Placement, SwizzleMode};
/// // byte 0x90 of a 128B-swizzled tile at 0x480 (row 1 of the tile, chunk 1):
/// assert_eq!(Placement::Absolute.written_address(SwizzleMode::B128, 0x480, 0x90), 0x480 + 0x80 + 0x30);
/// assert_eq!(Placement::Relative.written_address(SwizzleMode::B128, 0x480, 0x90), 0x480 + 0x80);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// The swizzle is applied to the absolute address (TMA, CuTe): `swizzle(start + offset)`;
    /// descriptors carry `base_offset = 0` at any 128-B aligned placement. The default.
    Absolute,
    /// The pattern restarts at the tile start: `start + swizzle(offset)`; descriptors carry
    /// `base_offset = (start >> 7) & 7` (the hardware uses it modulo the pattern's rows).
    Relative,
}

impl Placement {
    /// `"absolute"` or `"relative"`.
    ///
    /// ```
    /// assert_eq!(smemdesc_core::Placement::Relative.name(), "relative");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            Placement::Absolute => "absolute",
            Placement::Relative => "relative",
        }
    }

    /// The alignment a tile needs under this model: 128 B on sm90 (the TMA destination rule §7
    /// measured, and the `start_address` granularity of a swizzle row), the pattern's repeat on
    /// sm100 (not measured: stays aligned, [`TileLayout::align`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(Placement::Absolute.min_align(&t), 128);
    /// let t100 = TileSpec::new(Arch::Sm100, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(Placement::Relative.min_align(&t100), 1024);
    /// ```
    #[inline]
    pub const fn min_align(self, tile: &TileLayout) -> u32 {
        match tile.spec().arch.generation() {
            Arch::Sm90 => 128,
            _ => tile.align(),
        }
    }

    /// The `base_offset` a descriptor of a tile at `addr` carries under this model: 0 for
    /// [`Absolute`](Placement::Absolute); [`TileLayout::base_offset_at`] for
    /// [`Relative`](Placement::Relative).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(Placement::Absolute.base_offset(&t, 0x2180), 0);
    /// assert_eq!(Placement::Relative.base_offset(&t, 0x2180), 3);
    /// ```
    #[inline]
    pub const fn base_offset(self, tile: &TileLayout, addr: u32) -> u8 {
        match self {
            Placement::Absolute => 0,
            Placement::Relative => tile.base_offset_at(addr),
        }
    }

    /// Where the byte at unswizzled offset `offset` of a tile starting at `start` lives under this
    /// model (the writer's side: TMA for [`Absolute`](Placement::Absolute), threads storing
    /// `start + swizzle(offset)` for [`Relative`](Placement::Relative)).
    ///
    /// ```
    /// use smemdesc_core::{Placement, SwizzleMode};
    /// // aligned start: both models agree
    /// assert_eq!(Placement::Absolute.written_address(SwizzleMode::B64, 0x800, 0x90),
    ///            Placement::Relative.written_address(SwizzleMode::B64, 0x800, 0x90));
    /// ```
    #[inline]
    pub const fn written_address(self, swizzle: SwizzleMode, start: u32, offset: u32) -> u32 {
        let f = swizzle.functor();
        match self {
            Placement::Absolute => f.apply(start + offset),
            Placement::Relative => start + f.apply(offset),
        }
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Absolute {}
    impl Sealed for super::Relative {}
}

/// A placement model as a type, for [`PlacedTile<M>`]: [`Absolute`] or [`Relative`].
///
/// ```
/// use smemdesc_core::{Absolute, Placement, PlacementModel};
/// assert_eq!(<Absolute as PlacementModel>::PLACEMENT, Placement::Absolute);
/// ```
pub trait PlacementModel: sealed::Sealed {
    /// The model's value.
    const PLACEMENT: Placement;
}

/// Type-level [`Placement::Absolute`]: bytes written on absolute addresses (TMA, CuTe).
///
/// ```
/// # use smemdesc_core::*;
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
/// assert_eq!(t.place::<Absolute>(0x480).unwrap().base_offset(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Absolute;

/// Type-level [`Placement::Relative`]: bytes written with a pattern that restarts at the tile start.
///
/// ```
/// # use smemdesc_core::*;
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
/// assert_eq!(t.place::<Relative>(0x480).unwrap().base_offset(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relative;

impl PlacementModel for Absolute {
    const PLACEMENT: Placement = Placement::Absolute;
}

impl PlacementModel for Relative {
    const PLACEMENT: Placement = Placement::Relative;
}

/// A tile at a shared-memory address under placement model `M`. Its descriptors, element
/// addresses and TMA destinations (only for [`Absolute`]: TMA always writes absolute) all follow
/// `M`, so one placed tile cannot hand out a descriptor of one model and offsets of the other.
///
/// ```
/// # use smemdesc_core::*;
/// // bf16 K-major SW128 tile 3 x 128 B past a 1024-B boundary (legal on sm90, §7).
/// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
/// let abs = t.place::<Absolute>(0x2180).unwrap();
/// let rel = t.place::<Relative>(0x2180).unwrap();
/// assert_eq!((abs.base_offset(), rel.base_offset()), (0, 3));
/// // element (1, 8): row 1, 16-B chunk 1 of the tile
/// assert_eq!(rel.address(1, 8, 0), 0x2180 + 128 + ((1 ^ 1) * 16));
/// assert_eq!(abs.address(1, 8, 0), 0x2180 + 128 + ((1 ^ 4) * 16)); // absolute row 4
/// // the emulator reads each model's bytes with that model's descriptor
/// let hw = emulate_address(abs.try_desc(0, 0, 0).unwrap(), Major::K, 2, 1, 8).unwrap();
/// assert_eq!(hw, abs.address(1, 8, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedTile<M> {
    tile: TileLayout,
    addr: u32,
    /// `tile.stage_bytes()`, computed once: a kernel's stage addresses and descriptors then read
    /// one number instead of re-deriving it from the layout at every call (which LLVM folds, but
    /// at a build-time cost per call site).
    stage_bytes: u32,
    model: PhantomData<M>,
}

impl TileLayout {
    /// Places this tile at `addr` under model `M`, checking the model's alignment
    /// ([`Placement::min_align`]) and that every stage's bytes stay below the 256 KiB the
    /// descriptor's start-address field can name.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert!(t.place::<Absolute>(0x480).is_ok());
    /// assert_eq!(t.place::<Absolute>(0x440), Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
    /// let t100 = TileSpec::new(Arch::Sm100, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert!(t100.place::<Relative>(0x480).is_err()); // sm100: aligned to the repeat
    /// ```
    #[inline(always)]
    pub const fn place<M: PlacementModel>(self, addr: u32) -> Result<PlacedTile<M>, Error> {
        // `__place_check`'s checks, each error built in a cold function (no `Err` rewrapped).
        let align = M::PLACEMENT.min_align(&self);
        if addr % align != 0 {
            return __unaligned_error(addr, align);
        }
        let end = addr as u64 + self.bytes() as u64;
        if end > 1 << 18 {
            return __start_overflow(end);
        }
        Ok(PlacedTile::new_unvalidated(self, addr))
    }
}

/// The checks of [`TileLayout::place`] from its two numbers, the model's alignment and the tile's
/// bytes (for the facade's `TileAt::place`, which has them as constants: a run-time `addr` then
/// reads no layout value; not an API).
///
/// ```
/// # use smemdesc_core::*;
/// assert_eq!(smem::__place_check(0x440, 128, 8192), Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
/// assert!(smem::__place_check(0x480, 128, 8192).is_ok());
/// ```
#[doc(hidden)]
#[inline(always)]
pub const fn __place_check(addr: u32, align: u32, bytes: u32) -> Result<(), Error> {
    if addr % align != 0 {
        return __unaligned_error(addr, align);
    }
    let end = addr as u64 + bytes as u64;
    if end > 1 << 18 {
        return __start_overflow(end);
    }
    Ok(())
}

impl<M: PlacementModel> PlacedTile<M> {
    /// A placed tile without the checks of [`TileLayout::place`] (the documented fast path for
    /// kernels that compute `addr` from an aligned storage base): `addr` must be a multiple of
    /// [`Placement::min_align`], or every descriptor and address is wrong.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// let p = PlacedTile::<Absolute>::new_unvalidated(t, 0x400);
    /// assert_eq!(Ok(p), t.place::<Absolute>(0x400));
    /// ```
    #[inline(always)]
    pub const fn new_unvalidated(tile: TileLayout, addr: u32) -> PlacedTile<M> {
        PlacedTile {
            tile,
            addr,
            stage_bytes: tile.stage_bytes(),
            model: PhantomData,
        }
    }

    /// Former name of [`new_unvalidated`](Self::new_unvalidated), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `new_unvalidated` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub const fn new_unchecked(tile: TileLayout, addr: u32) -> PlacedTile<M> {
        Self::new_unvalidated(tile, addr)
    }

    /// The tile.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.place::<Absolute>(0).unwrap().tile(), t);
    /// ```
    #[inline(always)]
    pub const fn tile(&self) -> TileLayout {
        self.tile
    }

    /// The shared-memory address of stage 0's first byte.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.place::<Relative>(0x180).unwrap().addr(), 0x180);
    /// ```
    #[inline(always)]
    pub const fn addr(&self) -> u32 {
        self.addr
    }

    /// The model `M` as a value.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.place::<Relative>(0).unwrap().placement(), Placement::Relative);
    /// ```
    #[inline(always)]
    pub const fn placement(&self) -> Placement {
        M::PLACEMENT
    }

    /// The `base_offset` every descriptor of this tile carries ([`Placement::base_offset`]).
    /// Stages are whole repeats, so one value serves all of them.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 32).build().unwrap(); // 64B
    /// assert_eq!(t.place::<Relative>(0x380).unwrap().base_offset(), 7); // hardware reads it mod 4
    /// ```
    #[inline(always)]
    pub const fn base_offset(&self) -> u8 {
        M::PLACEMENT.base_offset(&self.tile, self.addr)
    }

    /// The checked descriptor of MMA subtile `(mn, k)` of `stage` ([`TileLayout::try_desc`] with
    /// this model's base offset).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// let d = t.place::<Relative>(0x280).unwrap().try_desc(1, 2, 0).unwrap();
    /// assert_eq!((d.start_address(), d.base_offset()), (0x280 + 8192 + 64, 5));
    /// assert!(t.place::<Relative>(0x280).unwrap().try_desc(2, 0, 0).is_err());
    /// ```
    #[inline(always)]
    pub const fn try_desc(&self, mn: u32, k: u32, stage: u32) -> Result<SmemDescriptor, Error> {
        // The same checks and numbers as `TileLayout::try_desc`, from the tile's fields alone: a
        // `PlacedTile` is a run-time value in a kernel, and building its whole `TileAccess` there
        // does not fold (nvptx64 kept the layout in local memory and a bounds-check call).
        let t = &self.tile;
        let spec = t.spec();
        let counts = [
            (Indexed::SubtileMn, mn, t.mmas_mn()),
            (Indexed::SubtileK, k, t.mmas_k()),
            (Indexed::Stage, stage, spec.stages),
        ];
        let mut i = 0;
        while i < counts.len() {
            let (what, index, count) = counts[i];
            if index >= count {
                return __index_error(what, index, count);
            }
            i += 1;
        }
        let align = if t.swizzle_mode().is_swizzled() {
            Placement::Absolute.min_align(t)
        } else {
            16
        };
        if self.addr % align != 0 {
            return __unaligned_error(self.addr, align);
        }
        let last_start = t.subtile_offset_bytes(t.mmas_mn() - 1, t.mmas_k() - 1)
            + (spec.stages - 1) * self.stage_bytes;
        if self.addr as u64 + last_start as u64 >= crate::base::base_range::START_LIMIT {
            return __start_result(self.addr, last_start, align);
        }
        let units = t.grid().eval(mn, k) + stage * (self.stage_bytes / 16);
        let start = crate::base::base_range::start_field(self.addr, units);
        Ok(SmemDescriptor::from_raw(
            spec.arch,
            self.with_base_offset(t.base_descriptor().raw() | start),
        ))
    }

    /// The raw descriptor of subtile `(mn, k)` of `stage` (indices wrap, as [`TileLayout::desc`]).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// let p = t.place::<Relative>(0x280).unwrap();
    /// assert_eq!(p.desc(1, 3, 0), p.try_desc(1, 3, 0).unwrap().raw());
    /// ```
    #[inline(always)]
    pub const fn desc(&self, mn: u32, k: u32, stage: u32) -> u64 {
        crate::tile::access::TileAccess::unwrap_desc(self.try_desc(mn, k, stage))
    }

    /// The descriptor of subtile `(mn, k)` of `stage` without a check and never a panic
    /// ([`TileLayout::desc_wrapping`] with this model's base offset): indices wrap, meaningful
    /// only in range. What a kernel's main loop uses.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// let p = t.place::<Absolute>(0x400).unwrap();
    /// assert_eq!(p.desc_wrapping(1, 3, 0), p.desc(1, 3, 0));
    /// assert_eq!(p.desc_wrapping(2, 0, 0), p.desc(0, 0, 0)); // 2 subtiles along MN: 2 wraps to 0
    /// ```
    #[inline(always)]
    pub const fn desc_wrapping(&self, mn: u32, k: u32, stage: u32) -> u64 {
        // The numbers of `TileLayout::desc_wrapping`, from the tile's fields alone (as in
        // `try_desc`): through the whole `TileAccess`, every call site of a kernel made LLVM
        // fold the unused parts too (gpu/rust-kernel: 192 calls per check kernel).
        let t = &self.tile;
        let units = t
            .grid()
            .eval(mn % t.mmas_mn(), k % t.mmas_k())
            .wrapping_add(stage.wrapping_mul(self.stage_bytes / 16));
        let start = crate::base::base_range::start_field(self.addr, units);
        self.with_base_offset(t.base_descriptor().raw() | start)
    }

    /// Address of stage `stage` (a TMA destination is this plus the box offset); wraps for
    /// `stage >= stages` instead of panicking.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).stages(3).build().unwrap();
    /// // 128 x 64 bf16 = 16384 B per stage
    /// assert_eq!(t.place::<Absolute>(0x400).unwrap().stage_addr(2), 0x400 + 2 * 16384);
    /// ```
    #[inline(always)]
    pub const fn stage_addr(&self, stage: u32) -> u32 {
        self.addr.wrapping_add(stage.wrapping_mul(self.stage_bytes))
    }

    /// The raw descriptor `units` 16-byte units past the tile start ([`TileLayout::desc_advanced`]
    /// with this model's base offset): the run-time path with the advance tables.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 128, 64).mma_mn(64).build().unwrap();
    /// let p = t.place::<Relative>(0x180).unwrap();
    /// assert_eq!(p.desc_advanced(t.advance_mn(1) + t.advance_k(2)), p.desc(1, 2, 0));
    /// ```
    #[inline(always)]
    pub const fn desc_advanced(&self, units: u32) -> u64 {
        self.with_base_offset(self.tile.desc_advanced(self.addr, units))
    }

    #[inline(always)]
    const fn with_base_offset(&self, raw: u64) -> u64 {
        (raw & !(7 << 49)) | (self.base_offset() as u64) << 49
    }

    /// The shared-memory byte address of logical element `(mn, k)` of `stage` under this model
    /// (what a thread's `ld.shared`/`st.shared` uses; for packed fp4, two values to a byte, the
    /// byte that holds the value). Indices wrap into range, as in [`desc`](Self::desc);
    /// [`try_address`](Self::try_address) checks them.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).stages(2).build().unwrap();
    /// let abs = t.place::<Absolute>(0x400).unwrap(); // on the repeat: both models agree
    /// assert_eq!(abs.address(7, 0, 1), 0x400 + 8192 + t.byte_offset(7, 0));
    /// // packed e2m1: values 2j and 2j + 1 share the byte of cell j
    /// let p = TileDecl::new(Arch::Sm100, Operand::A, ElementType::E2M1, Major::K, 128, 256)
    ///     .kind(MmaKind::Mxf4).build().unwrap().tile;
    /// let at = p.place::<Absolute>(0x400).unwrap();
    /// assert_eq!(at.address(5, 37, 0), at.address(5, 36, 0));
    /// assert_eq!(at.address(5, 37, 0) - 0x400, p.value_offset(5, 37).byte);
    /// ```
    #[inline(always)]
    pub const fn address(&self, mn: u32, k: u32, stage: u32) -> u32 {
        let spec = self.tile.spec();
        let start = self
            .addr
            .wrapping_add((stage % spec.stages) * self.stage_bytes);
        let cell_k = k / spec.form.values_per_cell();
        let offset = self.tile.layout().eval(mn, cell_k) * spec.dtype.smem_bytes();
        M::PLACEMENT.written_address(self.tile.swizzle_mode(), start, offset)
    }

    /// [`address`](Self::address) with every index checked.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// let p = t.place::<Absolute>(0x80).unwrap();
    /// assert_eq!(p.try_address(63, 63, 0), Ok(p.address(63, 63, 0)));
    /// assert!(matches!(p.try_address(64, 0, 0), Err(Error::IndexOutOfRange { .. })));
    /// assert!(matches!(p.try_address(0, 0, 1), Err(Error::IndexOutOfRange { .. })));
    /// ```
    #[inline(always)]
    pub const fn try_address(&self, mn: u32, k: u32, stage: u32) -> Result<u32, Error> {
        let spec = self.tile.spec();
        let checks = [
            (Indexed::ElementMn, mn, spec.tile_mn),
            (Indexed::ElementK, k, spec.tile_k),
            (Indexed::Stage, stage, spec.stages),
        ];
        let mut i = 0;
        while i < checks.len() {
            let (what, index, count) = checks[i];
            if index >= count {
                return __index_error(what, index, count);
            }
            i += 1;
        }
        Ok(self.address(mn, k, stage))
    }

    /// [`address`](Self::address) minus the tile's start address: the element offset under this
    /// model (for [`Absolute`] it depends on where the tile sits).
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let t = TileSpec::new(Arch::Sm90, ElementType::BF16, Major::K, 64, 64).build().unwrap();
    /// assert_eq!(t.place::<Relative>(0x80).unwrap().offset(1, 0, 0), 128 + 16);
    /// assert_eq!(t.place::<Absolute>(0x80).unwrap().offset(1, 0, 0), 128 + 32);
    /// ```
    #[inline(always)]
    pub const fn offset(&self, mn: u32, k: u32, stage: u32) -> u32 {
        self.address(mn, k, stage) - self.addr
    }
}

impl PlacedTile<Absolute> {
    /// The shared-memory destination of TMA box `b` of `stage` (TMA swizzles on absolute addresses,
    /// so only an [`Absolute`] tile has one). 128-B aligned wherever the tile sits.
    ///
    /// ```
    /// # use smemdesc_core::*;
    /// let p = TileDecl::new(Arch::Sm90, Operand::A, ElementType::BF16, Major::K, 64, 128).build().unwrap();
    /// let placed = p.tile.place::<Absolute>(0x280).unwrap();
    /// assert_eq!(placed.tma_dst(&p.tma, 1, 0), 0x280 + 8192);
    /// ```
    #[inline(always)]
    pub const fn tma_dst(&self, plan: &TmaPlan, b: u32, stage: u32) -> u32 {
        self.addr + stage * self.stage_bytes + plan.box_offset(&self.tile, b)
    }
}
