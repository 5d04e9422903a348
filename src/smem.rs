//! Placing tiles in dynamic shared memory from a kernel written in Rust, with stock rustc.
//!
//! Rust has no address-space attribute, so a Rust `static` never lands in `.shared` (a
//! `static mut` of a tile type is a `.global` variable, and referencing it is an error in edition
//! 2024). A kernel instead declares one dynamic shared-memory symbol in PTX and carves it:
//!
//! ```text
//! core::arch::global_asm!(".extern .shared .align 1024 .b8 smem_dyn[];");
//! let raw: u32;
//! core::arch::asm!("mov.u32 {r}, smem_dyn;", r = out(reg32) raw); // shared-window address
//! let base = smemdesc::smem::align_up(raw, LAYOUT_ALIGN); // the launch asks for BYTES + slack
//! ```
//!
//! **The way to place tiles is [`macro@crate::smem_storage`]**: one declaration per kernel gives
//! every member's offset, the launch size, and per tile member a [`TileAt`] at a run-time base
//! (`Storage::a(base)`: the tile's type and one `u32`, with [`desc`](TileAt::desc),
//! [`try_desc`](TileAt::try_desc), [`desc_wrapping`](TileAt::desc_wrapping),
//! [`stage_addr`](TileAt::stage_addr), [`address`](TileAt::address),
//! [`tma_dst`](TileAt::tma_dst) computed from the type's constants). [`PlacedTile`] is the
//! value-based form (its layout a run-time value), for code over layouts known only at run time.
//!
//! ```
//! use smemdesc::{smem_storage, smem_tile};
//! #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
//! struct TileA;
//! #[smem_storage(arch = sm90)]
//! struct Storage { a: TileA }
//! let a = Storage::a(0x400);
//! assert_eq!(a.desc_wrapping(1, 2, 1), TileA::desc(0x400, 1, 2, 1));
//! assert_eq!(a.stage_addr(1), 0x400 + 128 * 64 * 2);
//! ```
//!
//! Code generic over the tile type (`fn load<T: SmemTile>`) cannot name `T` in an
//! `#[smem_storage]` struct, so it builds the same two things from the core directly: the layout
//! in a `const` item ([`StorageLayout::plan`] over [`StorageMember::tile`]`(name, T::PLAN.tile,
//! None)` and plain members, [`expect_fits`](StorageLayout::expect_fits) for the compile-time
//! check), and each tile member as `TileAt::<T>::new_unvalidated(base + offset)`
//! ([`TileAt::new_unvalidated`]), which is what a member accessor returns:
//!
//! ```
//! use smemdesc::smem::{Mbarrier, StorageLayout, StorageMember, TileAt};
//! use smemdesc::{prelude::Arch, smem_tile, SmemTile};
//! # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
//! # struct TileA;
//! struct Smem<T>(core::marker::PhantomData<T>);
//! impl<T: SmemTile> Smem<T> {
//!     const LAYOUT: StorageLayout<2> = StorageLayout::plan("Smem", Arch::Sm90, [
//!         StorageMember::new("bar", 8, 8),
//!         StorageMember::tile("t", T::PLAN.tile, None),
//!     ]).expect_fits();
//!     const T_OFFSET: u32 = Self::LAYOUT.offset(1);
//!     fn t(base: u32) -> TileAt<T> {
//!         TileAt::new_unvalidated(base + Self::T_OFFSET)
//!     }
//! }
//! #[smemdesc::smem_storage(arch = sm90)]
//! struct Storage { bar: Mbarrier, t: TileA }
//! assert_eq!(Smem::<TileA>::T_OFFSET, Storage::T_OFFSET); // 1024: the 128B swizzle's repeat
//! assert_eq!(Smem::<TileA>::LAYOUT.launch_bytes(), Storage::LAUNCH_BYTES);
//! assert_eq!(Smem::<TileA>::t(0x800), Storage::t(0x800));
//! ```
//!
//! (`gpu/rust-kernel` in the repository does this for its 35 check kernels and two GEMMs.)
//!
//! [`SmemCarve`] and [`Placed`] are the older one-tile-at-a-time helpers, deprecated since 0.2.0
//! and kept for one release: [`StorageLayout`] replaces the carve, [`PlacedTile`] the placed tile
//! (`Placed::<T>::at_unchecked(addr)` is `PlacedTile::<Absolute>::new_unvalidated(T::PLAN.tile,
//! addr)`, `Placed::at` is `T::PLAN.tile.place::<Absolute>(addr)`, `elem_addr` is `address`).
//!
//! cuda-oxide: `DynamicSharedArray<u8, 1024>` (or `SharedArray<u8, { T::BYTES as usize }, 1024>`
//! for one tile) gives storage aligned to `T::ALIGN` (≤ 1024 for every swizzle); place the tiles
//! at its shared-window address. Rust-CUDA: `shared_array![u8; N]` aligns only to the element
//! type, so ask for `N = LAUNCH_BYTES + 15` and round the address up with [`align_up`].

pub use smemdesc_core::{
    Absolute, Mbarrier, PlacedTile, Placement, PlacementModel, Relative, StorageLayout,
    StorageMember, StorageProblem, DYNAMIC_SMEM_BASE_ALIGN,
};

pub use crate::desc_set::StageDescs;
pub use crate::tile_at::TileAt;

/// What every `#[smem_storage]` struct is, for code generic over the storage (the launch:
/// [`GemmLaunch::with_storage`](crate::GemmLaunch::with_storage), `cuda::launch_config`). The
/// macro implements it with the struct's own constants.
///
/// ```
/// use smemdesc::{prelude::*, smem::SmemStorage};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K)]
/// struct TileA;
/// #[smem_storage(arch = sm90)]
/// struct Storage { bar: Mbarrier, a: TileA }
/// fn launch_bytes<S: SmemStorage>() -> u32 { S::LAUNCH_BYTES }
/// assert_eq!(launch_bytes::<Storage>(), Storage::LAUNCH_BYTES);
/// ```
pub trait SmemStorage {
    /// Bytes from the storage base to the end of the last member.
    const BYTES: u32;
    /// Alignment the storage base needs.
    const ALIGN: u32;
    /// `sharedMemBytes` to launch with (`BYTES` plus the slack to align the dynamic base).
    const LAUNCH_BYTES: u32;
}

use crate::{Error, SmemTile};
use core::marker::PhantomData;

/// Shared memory one CTA may use on sm90 and sm100 (227 KiB, CUDA Programming Guide).
pub const MAX_SMEM_PER_CTA: u32 = 232_448;

/// `addr` rounded up to a multiple of `align` (a power of two), without overflow: an address
/// that cannot be rounded up within `u32` gives `!(align - 1)` (the last multiple), which every later
/// check rejects.
///
/// ```
/// use smemdesc::smem::align_up;
/// assert_eq!(align_up(0x410, 1024), 0x800);
/// assert_eq!(align_up(0x800, 1024), 0x800);
/// assert_eq!(align_up(u32::MAX, 128), !127);
/// ```
#[inline]
pub const fn align_up(addr: u32, align: u32) -> u32 {
    let mask = align.wrapping_sub(1);
    match addr.checked_add(mask) {
        Some(a) => a & !mask,
        None => !mask,
    }
}

/// A `const` bump allocator over one CTA's dynamic shared memory: each tile at its alignment.
///
/// Deprecated since 0.2.0, kept for one release: use [`macro@crate::smem_storage`], or in code
/// generic over the tile [`StorageLayout`] with [`StorageMember::tile`] (the
/// [module docs](self) show both).
///
/// ```
/// # #![allow(deprecated)]
/// use smemdesc::{smem::SmemCarve, smem_tile};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 4)]
/// struct TileA;
/// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 4)]
/// struct TileB;
/// const C0: SmemCarve = SmemCarve::new();
/// const A: (u32, SmemCarve) = C0.tile::<TileA>();
/// const B: (u32, SmemCarve) = A.1.tile::<TileB>();
/// const BARS: (u32, SmemCarve) = B.1.bytes(2 * 4 * 8, 8); // full/empty mbarriers
/// assert_eq!((A.0, B.0, BARS.0), (0, 65536, 65536 + 131072));
/// assert_eq!(BARS.1.end(), 196608 + 64);
/// assert_eq!(BARS.1.launch_bytes(), 196608 + 64 + 1023); // slack to round the base up
/// ```
#[deprecated(
    since = "0.2.0",
    note = "use `#[smem_storage]` / `PlacedTile`: an `#[smem_storage]` struct, or in generic code \
            `StorageLayout::plan(.., [StorageMember::tile(\"a\", T::PLAN.tile, None), ..])` \
            (module docs of `smemdesc::smem`)"
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemCarve {
    end: u32,
    align: u32,
}

#[allow(deprecated)]
impl SmemCarve {
    /// Nothing placed yet.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// assert_eq!(smemdesc::smem::SmemCarve::new().end(), 0);
    /// ```
    #[inline]
    pub const fn new() -> SmemCarve {
        SmemCarve { end: 0, align: 16 }
    }

    /// Places `bytes` at a multiple of `align` (a power of two): its offset from the carved base
    /// and the rest. Over the 227 KiB of one CTA is a compile error in `const` items (a panic
    /// otherwise).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// let (off, rest) = smemdesc::smem::SmemCarve::new().bytes(10, 8).1.bytes(4, 16);
    /// assert_eq!((off, rest.end()), (16, 20));
    /// ```
    #[track_caller]
    #[inline]
    pub const fn bytes(self, bytes: u32, align: u32) -> (u32, SmemCarve) {
        if align == 0 || align & (align - 1) != 0 {
            panic!("smemdesc: SmemCarve alignment must be a power of two");
        }
        let off = align_up(self.end, align);
        let end = match off.checked_add(bytes) {
            Some(e) if e <= MAX_SMEM_PER_CTA => e,
            _ => panic!("smemdesc: SmemCarve is past the 227 KiB of shared memory per CTA"),
        };
        let align = if align > self.align {
            align
        } else {
            self.align
        };
        (off, SmemCarve { end, align })
    }

    /// Places all stages of tile `T` at its [`ALIGN`](SmemTile::ALIGN).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// use smemdesc::{smem::SmemCarve, smem_tile};
    /// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 32), major = K)]
    /// struct T; // 64B swizzle: 512-B atoms
    /// let (off, rest) = SmemCarve::new().bytes(8, 8).1.tile::<T>();
    /// assert_eq!((off, rest.end()), (512, 512 + 4096));
    /// ```
    #[track_caller]
    #[inline]
    pub const fn tile<T: SmemTile>(self) -> (u32, SmemCarve) {
        self.bytes(T::BYTES, T::ALIGN)
    }

    /// Bytes used from the carved base.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// assert_eq!(smemdesc::smem::SmemCarve::new().bytes(100, 4).1.end(), 100);
    /// ```
    #[inline]
    pub const fn end(self) -> u32 {
        self.end
    }

    /// Largest alignment placed (what the base must be rounded up to).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// assert_eq!(smemdesc::smem::SmemCarve::new().bytes(1, 1024).1.align(), 1024);
    /// ```
    #[inline]
    pub const fn align(self) -> u32 {
        self.align
    }

    /// Dynamic shared memory to ask for at launch when the kernel rounds the symbol's address up
    /// to [`align`](Self::align) at run time: `end + align - 1`.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// assert_eq!(smemdesc::smem::SmemCarve::new().bytes(100, 128).1.launch_bytes(), 100 + 127);
    /// ```
    #[inline]
    pub const fn launch_bytes(self) -> u32 {
        self.end + self.align - 1
    }
}

#[allow(deprecated)]
impl Default for SmemCarve {
    fn default() -> SmemCarve {
        SmemCarve::new()
    }
}

/// Tile `T` placed at a shared-window address: its descriptors and element addresses.
///
/// Deprecated since 0.2.0, kept for one release: use [`PlacedTile`] (what an
/// [`macro@crate::smem_storage`] member accessor returns; in generic code
/// `PlacedTile::<Absolute>::new_unvalidated(T::PLAN.tile, addr)`, the [module docs](self)).
///
/// ```
/// # #![allow(deprecated)]
/// use smemdesc::{smem::Placed, smem_tile};
/// #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2)]
/// struct TileA;
/// let a = Placed::<TileA>::at(0x400).unwrap();
/// assert_eq!(a.desc(1, 2, 1), TileA::desc(0x400, 1, 2, 1));
/// assert_eq!(a.stage_addr(1), 0x400 + 16384);
/// assert_eq!(a.elem_addr(1, 7, 0), 0x400 + 16384 + TileA::offset(7, 0));
/// assert!(Placed::<TileA>::at(0x440).is_err()); // not a multiple of ALIGN (1024)
/// ```
#[deprecated(
    since = "0.2.0",
    note = "use `#[smem_storage]` / `PlacedTile`: a member accessor (`Storage::a(base)`), or in \
            generic code `PlacedTile::<Absolute>::new_unvalidated(T::PLAN.tile, addr)` \
            (`at_unchecked`) / `T::PLAN.tile.place::<Absolute>(addr)` (`at`)"
)]
pub struct Placed<T> {
    addr: u32,
    tile: PhantomData<T>,
}

#[allow(deprecated)]
impl<T> Clone for Placed<T> {
    fn clone(&self) -> Self {
        *self
    }
}

#[allow(deprecated)]
impl<T> Copy for Placed<T> {}

#[allow(deprecated)]
impl<T: SmemTile> Placed<T> {
    /// `T` at `addr`, checked: a multiple of `T::ALIGN` (so TMA's swizzle on absolute addresses
    /// is the tile's), and all stages below the 256 KiB the descriptor's start field addresses.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert!(Placed::<TileA>::at(0x3_fc00).is_err()); // 16 KiB past 0x3fc00 is over 256 KiB
    /// ```
    #[inline]
    pub const fn at(addr: u32) -> Result<Placed<T>, Error> {
        if addr % T::ALIGN != 0 {
            return Err(Error::UnalignedBase {
                addr,
                align: T::ALIGN,
            });
        }
        if addr as u64 + T::BYTES as u64 > 1 << 18 {
            return Err(Error::FieldOverflow {
                field: crate::Field::StartAddress,
                bytes: addr.saturating_add(T::BYTES),
            });
        }
        Ok(Placed {
            addr,
            tile: PhantomData,
        })
    }

    /// `T` at `addr` without checks: the precondition of [`at`](Self::at) is the caller's (a base
    /// rounded up with [`align_up`] in the dynamic shared window meets it).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert_eq!(Placed::<TileA>::at_unchecked(0x800).addr(), 0x800);
    /// ```
    #[inline]
    pub const fn at_unchecked(addr: u32) -> Placed<T> {
        Placed {
            addr,
            tile: PhantomData,
        }
    }

    /// The shared-window address of stage 0, element (0, 0).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert_eq!(Placed::<TileA>::at(0x400).unwrap().addr(), 0x400);
    /// ```
    #[inline]
    pub const fn addr(self) -> u32 {
        self.addr
    }

    /// Address of stage `stage` (a TMA destination is this plus `TMA_BOX_OFFSETS[b]`); wraps for
    /// `stage >= STAGES` like the other unchecked forms.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 3)]
    /// # struct TileA;
    /// assert_eq!(Placed::<TileA>::at(0).unwrap().stage_addr(2), 2 * 16384);
    /// ```
    #[inline]
    pub fn stage_addr(self, stage: u32) -> u32 {
        self.addr.wrapping_add(stage.wrapping_mul(T::STAGE_BYTES))
    }

    /// Address of element `(mn, k)` of stage `stage` (unchecked: [`SmemTile::offset_wrapping`]).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert_eq!(Placed::<TileA>::at(0).unwrap().elem_addr(0, 1, 0), 128 + 16);
    /// ```
    #[inline]
    pub fn elem_addr(self, stage: u32, mn: u32, k: u32) -> u32 {
        self.stage_addr(stage)
            .wrapping_add(T::offset_wrapping(mn, k))
    }

    /// Descriptor of MMA subtile `(mn, k)` of stage `stage`, asserting ([`SmemTile::desc`]).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert_eq!(Placed::<TileA>::at(0x400).unwrap().desc(0, 1, 0), TileA::DESC + 0x40 + 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn desc(self, mn: u32, k: u32, stage: u32) -> u64 {
        T::desc(self.addr, mn, k, stage)
    }

    /// Descriptor, checked ([`SmemTile::try_desc`]).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// assert!(Placed::<TileA>::at(0).unwrap().try_desc(0, 0, 1).is_err());
    /// ```
    #[inline]
    pub fn try_desc(self, mn: u32, k: u32, stage: u32) -> Result<crate::SmemDescriptor, Error> {
        T::try_desc(self.addr, mn, k, stage)
    }

    /// Descriptor, unchecked ([`SmemTile::desc_wrapping`]): what a kernel's main loop uses.
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use smemdesc::{smem::Placed, smem_tile, SmemTile};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (128, 64), major = K)]
    /// # struct TileA;
    /// let a = Placed::<TileA>::at(0x400).unwrap();
    /// assert_eq!(a.desc_wrapping(0, 3, 0), a.desc(0, 3, 0));
    /// ```
    #[inline]
    pub fn desc_wrapping(self, mn: u32, k: u32, stage: u32) -> u64 {
        T::desc_wrapping(self.addr, mn, k, stage)
    }

    /// Former name of [`desc_wrapping`](Self::desc_wrapping), kept for one release: the function is safe
    /// (`_unchecked` names `unsafe` functions in Rust).
    #[doc(hidden)]
    #[deprecated(
        since = "0.2.0",
        note = "renamed to `desc_wrapping` (a safe function; `_unchecked` suggested `unsafe`)"
    )]
    #[inline]
    pub fn desc_unchecked(self, mn: u32, k: u32, stage: u32) -> u64 {
        self.desc_wrapping(mn, k, stage)
    }
}
