//! [`TileAt`]: a tile placed in shared memory, known by its type. The handle a kernel holds is
//! its tile's type and one `u32` address; every layout number is an associated constant of the
//! type, so what a kernel calls at run time is the address and the indices combined with
//! shifts, masks, multiplies and adds — by construction, whatever the size of the kernel around
//! it or the optimiser's budget (no layout value, no table, no run-time division, no call).
//!
//! `#[smem_storage]` member accessors return it (`Storage::a(base)`), and generic code builds one
//! with [`TileAt::new_unvalidated`]. [`PlacedTile`] is the value-based form, for code over
//! layouts known only at run time.
//!
//! ```
//! use smemdesc::{prelude::*, smem::TileAt};
//! #[smem_tile(arch = sm90, operand = A, dtype = e4m3, tile = (128, 128), major = K,
//!             swizzle = 64B, mma = m64n128k32, stages = 3)]
//! struct TileA8;
//! let a = TileAt::<TileA8>::new_unvalidated(0x400);
//! // the same numbers as the tile's own const fns and the value-based form
//! assert_eq!(a.desc(1, 2, 2), TileA8::desc(0x400, 1, 2, 2));
//! assert_eq!(a.desc(1, 2, 2), a.value().desc(1, 2, 2));
//! assert_eq!(TileAt::<TileA8>::advance_mn(1) as usize, usize::from(TileA8::ADVANCE_MN[1]));
//! ```

use crate::radix::{__nonzero, mode_eval, reduce};
use crate::{Error, Indexed, SmemDescriptor, SmemTile};

use core::marker::PhantomData;
use smemdesc_core::access::__cold::{
    __fail_index, __index_error, __start_result, __unaligned_error,
};
use smemdesc_core::access::__fail;
use smemdesc_core::{Absolute, PlacedTile, Placement, PlacementModel};

/// Tile `T` placed at a shared-window address under placement model `M` (the absolute model TMA
/// writes by default, see [`Placement`]): the tile's type and one `u32` address. Every layout number
/// is an inline constant of `T`, so what a kernel runs is the address and the indices combined with
/// shifts, masks, multiplies and adds, whatever the size of the kernel around it (no layout value,
/// no table, no run-time division, no call). `#[smem_storage]` member accessors return it;
/// [`PlacedTile`] is the value-based form, for layouts known only at run time.
///
/// It is `Copy` and one `u32` wide. Every method is a `const fn` evaluated from `T`'s constants;
/// the checked forms add compares against constants, and their failing path is a panic naming
/// the argument (a compile error in `const`, a `trap` in a nvptx64 kernel).
///
/// ```
/// use smemdesc::prelude::*;
/// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = MN, stages = 2)]
/// struct TileB;
/// #[smem_storage(arch = sm90)]
/// struct Storage { bar: [Mbarrier; 4], b: TileB }
/// let b = Storage::b(0x400); // a TileAt<TileB>
/// assert_eq!(b.addr(), 0x400 + Storage::B_OFFSET);
/// assert_eq!(b.desc(0, 3, 1), TileB::desc(b.addr(), 0, 3, 1));
/// assert_eq!(b.tma_dst(1, 1), b.stage_addr(1) + TileB::TMA_BOX_OFFSETS[1]);
/// ```
pub struct TileAt<T, M = Absolute> {
    addr: u32,
    marker: PhantomData<(fn() -> T, M)>,
}

impl<T, M> Clone for TileAt<T, M> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, M> Copy for TileAt<T, M> {}

impl<T, M> PartialEq for TileAt<T, M> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.addr == other.addr
    }
}

impl<T, M> Eq for TileAt<T, M> {}

impl<T, M> core::fmt::Debug for TileAt<T, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "TileAt<{}>({:#x})",
            core::any::type_name::<T>(),
            self.addr
        )
    }
}

impl<T: SmemTile, M: PlacementModel> TileAt<T, M> {
    /// Tile `T` at `addr`, unchecked (the documented fast path: `addr` must be a multiple of the
    /// model's alignment, [`Placement::min_align`], or every descriptor and address is wrong).
    /// What `#[smem_storage]` accessors return for an aligned storage base.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::new_unvalidated(0x400).addr(), 0x400);
    /// ```
    #[inline(always)]
    pub const fn new_unvalidated(addr: u32) -> Self {
        TileAt {
            addr,
            marker: PhantomData,
        }
    }

    /// Tile `T` at `addr`, checked as [`TileLayout::place`](crate::TileLayout::place) checks:
    /// the model's alignment, and every stage below the 256 KiB the start-address field names.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert!(TileAt::<T>::place(0x480).is_ok());
    /// assert_eq!(TileAt::<T>::place(0x440), Err(Error::UnalignedBase { addr: 0x440, align: 128 }));
    /// ```
    #[inline(always)]
    pub const fn place(addr: u32) -> Result<Self, Error> {
        // The layout's numbers as constants: a run-time `addr` reads no layout value. The
        // checks of `__place_check`, on plain numbers; the error is built out of line.
        let align = const { M::PLACEMENT.min_align(&T::PLAN.tile) };
        let bytes = const { T::PLAN.tile.bytes() };
        if reduce!(addr, M::PLACEMENT.min_align(&T::PLAN.tile)) != 0 {
            return __unaligned_error(addr, align);
        }
        let end = addr as u64 + bytes as u64;
        if end > 1 << 18 {
            return smemdesc_core::access::__cold::__start_overflow(end);
        }
        Ok(Self::new_unvalidated(addr))
    }

    /// The tile's start address (element (0, 0) of stage 0).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::new_unvalidated(0x800).addr(), 0x800);
    /// ```
    #[inline(always)]
    pub const fn addr(&self) -> u32 {
        self.addr
    }

    /// The placement model.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T, Relative>::new_unvalidated(0).placement(), Placement::Relative);
    /// ```
    #[inline(always)]
    pub const fn placement(&self) -> Placement {
        M::PLACEMENT
    }

    /// The value-based form ([`PlacedTile`]): the same tile and address, its layout a run-time
    /// value (for code generic over layouts known only at run time; on the host it is the
    /// reference the handle is tested against).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// let p = TileAt::<T>::new_unvalidated(0x400).value();
    /// assert_eq!((p.tile(), p.addr()), (T::PLAN.tile, 0x400));
    /// ```
    #[inline]
    pub const fn value(&self) -> PlacedTile<M> {
        PlacedTile::new_unvalidated(T::PLAN.tile, self.addr)
    }

    /// The `base_offset` (bits 49–51) its descriptors carry: 0 under [`Absolute`]; under
    /// [`Relative`](crate::Relative), `(addr >> 7) & 7` when the address is off the swizzle
    /// pattern's repeat.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T, Relative>::new_unvalidated(0x2180).base_offset(), 3);
    /// assert_eq!(TileAt::<T>::new_unvalidated(0x2180).base_offset(), 0);
    /// ```
    #[inline(always)]
    pub const fn base_offset(&self) -> u8 {
        if const { matches!(M::PLACEMENT, Placement::Absolute) || !T::SWIZZLE.is_swizzled() } {
            return 0;
        }
        if reduce!(self.addr, T::SWIZZLE.atom_bytes()) == 0 {
            0
        } else {
            ((self.addr >> 7) & 7) as u8
        }
    }

    /// `raw` with this placement's base offset (a no-op under [`Absolute`]).
    #[inline(always)]
    const fn with_base_offset(&self, raw: u64) -> u64 {
        if const { matches!(M::PLACEMENT, Placement::Absolute) } {
            raw
        } else {
            (raw & !(7 << 49)) | (self.base_offset() as u64) << 49
        }
    }

    /// Start-address advance, 16-byte units, of MMA subtile `(mn, k)` (in range) from subtile
    /// (0, 0): the subtile grid as a mixed-radix sum of constants.
    #[inline(always)]
    const fn grid(mn: u32, k: u32) -> u32 {
        mode_eval!(T::ACCESS.grid.mn, mn).wrapping_add(mode_eval!(T::ACCESS.grid.k, k))
    }

    /// Unswizzled byte offset of element `(mn, k)` (in range) inside one stage.
    #[inline(always)]
    pub(crate) const fn cell_offset(mn: u32, k: u32) -> u32 {
        let cell_k = if const { T::ACCESS.values_per_cell.is_power_of_two() } {
            k >> const { T::ACCESS.values_per_cell.trailing_zeros() }
        } else {
            k / const { __nonzero(T::ACCESS.values_per_cell) }
        };
        let e = mode_eval!(T::ACCESS.layout.layout.mn, mn)
            .wrapping_add(mode_eval!(T::ACCESS.layout.layout.k, cell_k));
        e.wrapping_mul(const { T::ACCESS.layout.elem_bytes })
    }

    /// The swizzle functor on byte address or offset `x`.
    #[inline(always)]
    const fn swizzle(x: u32) -> u32 {
        x ^ ((x & const { T::ACCESS.layout.swizzle.yyy_mask() })
            >> const { T::ACCESS.layout.swizzle.shift })
    }

    /// Address of stage `stage` (wraps for `stage >= STAGES` instead of panicking).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 3)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::new_unvalidated(0x400).stage_addr(2), 0x400 + 2 * 16384);
    /// ```
    #[inline(always)]
    pub const fn stage_addr(&self, stage: u32) -> u32 {
        self.addr
            .wrapping_add(stage.wrapping_mul(const { T::STAGE_BYTES }))
    }

    /// The descriptor of MMA subtile `(mn, k)` of `stage`, every index and the address checked:
    /// the same result and the same errors as [`PlacedTile::try_desc`] and the tile's own
    /// `try_desc`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x400);
    /// assert_eq!(t.try_desc(0, 3, 1).map(|d| d.raw()), Ok(T::DESC + 0x40 + 6 + 512));
    /// assert_eq!(t.try_desc(0, 4, 0), Err(Error::IndexOutOfRange { what: Indexed::SubtileK, index: 4, count: 4 }));
    /// ```
    #[inline(always)]
    pub const fn try_desc(&self, mn: u32, k: u32, stage: u32) -> Result<SmemDescriptor, Error> {
        // Plain compares inline; each failure returns a `Result` built in a cold function
        // (`smemdesc_core::access::__cold`), so this never builds an `Error` itself.
        if mn >= T::MMAS_MN {
            return __index_error(Indexed::SubtileMn, mn, T::MMAS_MN);
        }
        if k >= T::MMAS_K {
            return __index_error(Indexed::SubtileK, k, T::MMAS_K);
        }
        if stage >= T::STAGES {
            return __index_error(Indexed::Stage, stage, T::STAGES);
        }
        if reduce!(self.addr, T::ACCESS.align) != 0 {
            return __unaligned_error(self.addr, T::ACCESS.align);
        }
        if self.start_out_of_range() {
            return __start_result(self.addr, T::ACCESS.last_start, T::ACCESS.align);
        }
        Ok(SmemDescriptor::from_raw(
            T::ARCH,
            self.encode(Self::units(mn, k, stage)),
        ))
    }

    /// `addr + last_start` at or past 2^18 (the 14-bit start field), without a 64-bit add:
    /// `addr > 2^18 - 1 - last_start`.
    #[inline(always)]
    pub(crate) const fn start_out_of_range(&self) -> bool {
        let too_big = const { T::ACCESS.last_start >= 1 << 18 };
        too_big || self.addr > const { ((1u32 << 18) - 1).saturating_sub(T::ACCESS.last_start) }
    }

    /// 16-byte units of subtile `(mn, k)` of `stage` (in range) from the tile's start.
    #[inline(always)]
    const fn units(mn: u32, k: u32, stage: u32) -> u32 {
        Self::grid(mn, k).wrapping_add(stage.wrapping_mul(T::ADVANCE_STAGE))
    }

    /// The descriptor of MMA subtile `(mn, k)` of `stage`: [`try_desc`](Self::try_desc)'s value,
    /// or a panic naming the argument at fault (a compile error in `const`, a `trap` on
    /// nvptx64). A kernel loops over the constants, so the compares fold or cost a branch.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16, stages = 4)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x400);
    /// assert_eq!(t.desc(1, 3, 2), T::desc(0x400, 1, 3, 2));
    /// assert!(std::panic::catch_unwind(|| t.desc(0, 0, 4)).is_err());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn desc(&self, mn: u32, k: u32, stage: u32) -> u64 {
        // The `Err` is not unwrapped here: the cold `desc_fail` rebuilds it and fails.
        match self.try_desc(mn, k, stage) {
            Ok(d) => d.raw(),
            Err(_) => self.desc_fail(mn, k, stage),
        }
    }

    /// The asserting [`desc`](Self::desc)'s failure: [`try_desc`](Self::try_desc)'s error for
    /// these arguments, as the panic. Cold (rustc's MIR inliner leaves it out of line; LLVM may
    /// inline it on the cold edge, and on nvptx64 it is inlined: a `trap`).
    #[cfg_attr(not(target_arch = "nvptx64"), cold)]
    #[track_caller]
    #[cfg_attr(target_arch = "nvptx64", inline(always))]
    #[cfg_attr(not(target_arch = "nvptx64"), inline)]
    const fn desc_fail(&self, mn: u32, k: u32, stage: u32) -> ! {
        match self.try_desc(mn, k, stage) {
            Err(e) => __fail(&e),
            // Not reached: `desc` calls this only for arguments `try_desc` refuses.
            Ok(_) => __fail_index(Indexed::SubtileMn, mn, T::MMAS_MN),
        }
    }

    /// [`desc`](Self::desc) without checks, never a panic: `mn`, `k` taken modulo `MMAS_MN`,
    /// `MMAS_K` (masks for powers of two), the stage advance wraps, the start address is taken
    /// modulo the 14-bit field. Meaningful under the precondition of `smemdesc::access`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16, stages = 4)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x400);
    /// assert_eq!(t.desc_wrapping(1, 3, 2), t.desc(1, 3, 2));
    /// assert_eq!(t.desc_wrapping(2 + 1, 4 + 3, 2), t.desc(1, 3, 2));
    /// ```
    #[inline(always)]
    pub const fn desc_wrapping(&self, mn: u32, k: u32, stage: u32) -> u64 {
        let units = Self::grid(reduce!(mn, T::MMAS_MN), reduce!(k, T::MMAS_K))
            .wrapping_add(stage.wrapping_mul(const { T::ADVANCE_STAGE }));
        self.encode(units)
    }

    /// The raw descriptor `units` 16-byte units past the tile's start (for a kernel that steps
    /// descriptors by `ADVANCE_*` itself), with this model's base offset.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, mma = m64n256k16)]
    /// struct T;
    /// let t = TileAt::<T, Relative>::new_unvalidated(0x180);
    /// let units = TileAt::<T>::advance_mn(1) + TileAt::<T>::advance_k(2);
    /// assert_eq!(t.desc_advanced(units as u32), t.desc(1, 2, 0));
    /// ```
    #[inline(always)]
    pub const fn desc_advanced(&self, units: u32) -> u64 {
        self.encode(units)
    }

    #[inline(always)]
    const fn encode(&self, units: u32) -> u64 {
        let start = (self.addr >> 4).wrapping_add(units) & ((1 << 14) - 1);
        self.with_base_offset(const { T::DESC } | start as u64)
    }

    /// The shared-memory byte address of logical element `(mn, k)` of `stage` under this model
    /// (what a thread's `ld.shared`/`st.shared` uses; the byte cell of a packed fp4 value).
    /// Indices wrap into range (masks for powers of two); [`try_address`](Self::try_address)
    /// checks them.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x400); // on the repeat: swizzle(offset)
    /// assert_eq!(t.address(7, 0, 1), 0x400 + 8192 + T::offset(7, 0));
    /// ```
    #[inline(always)]
    pub const fn address(&self, mn: u32, k: u32, stage: u32) -> u32 {
        let start = self.stage_addr(reduce!(stage, T::STAGES));
        let offset = Self::cell_offset(reduce!(mn, T::TILE_MN), reduce!(k, T::TILE_K));
        if const { matches!(M::PLACEMENT, Placement::Absolute) } {
            Self::swizzle(start.wrapping_add(offset))
        } else {
            start.wrapping_add(Self::swizzle(offset))
        }
    }

    /// [`address`](Self::address) with every index checked.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x80);
    /// assert_eq!(t.try_address(63, 63, 0), Ok(t.address(63, 63, 0)));
    /// assert!(matches!(t.try_address(64, 0, 0), Err(Error::IndexOutOfRange { .. })));
    /// ```
    #[inline(always)]
    pub const fn try_address(&self, mn: u32, k: u32, stage: u32) -> Result<u32, Error> {
        if mn >= T::TILE_MN {
            return __index_error(Indexed::ElementMn, mn, T::TILE_MN);
        }
        if k >= T::TILE_K {
            return __index_error(Indexed::ElementK, k, T::TILE_K);
        }
        if stage >= T::STAGES {
            return __index_error(Indexed::Stage, stage, T::STAGES);
        }
        Ok(self.address(mn, k, stage))
    }

    /// The swizzled byte offset of element `(mn, k)` of stage 0 inside a tile whose start is on
    /// the swizzle pattern's repeat (the tile's own `offset(mn, k)`), asserting: a panic naming
    /// the coordinate out of range (a compile error in `const`, a `trap` on nvptx64).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T>::element_offset(7, 0), 7 * 128 + 7 * 16); // row 7, chunk 0 ^ 7
    /// ```
    #[inline(always)]
    #[track_caller]
    pub const fn element_offset(mn: u32, k: u32) -> u32 {
        match TileAt::<T, crate::Relative>::new_unvalidated(0).try_address(mn, k, 0) {
            Ok(o) => o,
            Err(_) => Self::element_fail(mn, k),
        }
    }

    /// [`element_offset`](Self::element_offset)'s failure (cold, as [`desc`](Self::desc)'s).
    #[cfg_attr(not(target_arch = "nvptx64"), cold)]
    #[track_caller]
    #[cfg_attr(target_arch = "nvptx64", inline(always))]
    #[cfg_attr(not(target_arch = "nvptx64"), inline)]
    const fn element_fail(mn: u32, k: u32) -> ! {
        if mn >= T::TILE_MN {
            __fail_index(Indexed::ElementMn, mn, T::TILE_MN)
        } else {
            __fail_index(Indexed::ElementK, k, T::TILE_K)
        }
    }

    /// The byte and bit position of value `(mn, k)` of stage 0 (every SMEM form: the nibble or
    /// 6-bit field of a padded or packed fp4/fp6 value), as the core's `TileLayout::value_offset`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// let v = TileAt::<T, Relative>::value_offset(7, 0);
    /// assert_eq!((v.byte, v.bit), (T::offset(7, 0), 0));
    /// ```
    #[inline]
    pub const fn value_offset(mn: u32, k: u32) -> crate::ValueOffset {
        T::PLAN.tile.value_offset(mn, k)
    }

    /// [`address`](Self::address) minus the tile's start address (under [`Absolute`] it depends
    /// on where the tile sits).
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
    /// struct T;
    /// assert_eq!(TileAt::<T, Relative>::new_unvalidated(0x80).offset(1, 0, 0), 128 + 16);
    /// assert_eq!(TileAt::<T>::new_unvalidated(0x80).offset(1, 0, 0), 128 + 32);
    /// ```
    #[inline(always)]
    pub const fn offset(&self, mn: u32, k: u32, stage: u32) -> u32 {
        self.address(mn, k, stage).wrapping_sub(self.addr)
    }
}

impl<T: SmemTile> TileAt<T, Absolute> {
    /// The shared-memory destination of TMA box `b` of `stage`: [`stage_addr`](Self::stage_addr)
    /// plus [`tma_box_offset`](Self::tma_box_offset) (no plan argument: the type has it). TMA swizzles absolute addresses, so only an
    /// [`Absolute`] tile has one.
    /// Unchecked, like `stage_addr`: `b` is reduced modulo `TMA_BOXES`.
    ///
    /// ```
    /// use smemdesc::{prelude::*, smem::TileAt};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 128), major = K, stages = 2)]
    /// struct T;
    /// let t = TileAt::<T>::new_unvalidated(0x400);
    /// assert_eq!(t.tma_dst(1, 1), 0x400 + 16384 + 8192);
    /// ```
    #[inline(always)]
    pub const fn tma_dst(&self, b: u32, stage: u32) -> u32 {
        self.stage_addr(stage)
            .wrapping_add(Self::box_offset(reduce!(b, T::TMA_BOXES)))
    }
}
