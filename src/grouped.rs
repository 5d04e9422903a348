//! Tensor maps rewritten inside the kernel, one group at a time (grouped / MoE GEMM), with the
//! ordering the hardware needs as types.
//!
//! A map slot (128 B in global memory, 128-B aligned: [`TensorMapMem`]) that in-flight TMA
//! operations may still read cannot be rewritten; a rewritten map cannot be used by TMA until
//! the release and acquire fences ran. [`MapSlot`] borrows its slot exclusively (one slot, one
//! handle) and walks those states, each transition consuming it:
//!
//! * for stores: `Released` —[`acquire`](MapSlot::acquire)→ `Live` (its
//!   [`tma_map`](MapSlot::tma_map) feeds TMA stores) —[`retire_after_stores`](MapSlot::retire_after_stores)
//!   (`cp.async.bulk.wait_group.read 0`)→ `Retired`;
//! * for loads: `Released` —[`acquire_for_loads`](MapSlot::acquire_for_loads)→ `Lent`, lent to
//!   the producer ([`Producer::lend`](crate::pipeline::Producer::lend)), whose fills
//!   [`load_lent`](crate::pipeline::Fill::load_lent) with it; it comes back `Retired` only from
//!   [`Producer::reclaim`](crate::pipeline::Producer::reclaim), after every load it issued landed;
//! * then `Retired` —[`rewrite`](MapSlot::rewrite)(the group's values)→ `Rewritten`
//!   —[`release`](MapSlot::release)→ `Released`.
//!
//! A misordered use does not compile: there is no `tma_map()` on a slot that is not `Live`, no
//! `rewrite` on one that was not retired, no way to retire a slot lent for loads but through
//! the producer that loaded with it. What a rewrite writes is the declaration's
//! ([`GroupedMapDecl`], the core's [`GroupedMap`]): only the fields it lists, each with its
//! constant field index; the box, swizzle and element type stay the tile's.
//!
//! ```
//! use smemdesc::grouped::*;
//! use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};
//!
//! /// C of a grouped GEMM: every expert's rows of an M x 4096 bf16 output.
//! struct MapC;
//! impl GroupedMapDecl for MapC {
//!     const MAP: GroupedMap = GroupedMap::declare(
//!         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
//!             .dim(0, 4096).stride(0, 8192).box_dim(0, 64).box_dim(1, 128)
//!             .swizzle(TensorMapSwizzle::B128),
//!         &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
//!     );
//! }
//! # use std::cell::RefCell;
//! # thread_local!(static LOG: RefCell<Vec<String>> = RefCell::new(Vec::new()));
//! # fn log(s: String) { LOG.with(|l| l.borrow_mut().push(s)); }
//! struct Rec; // a kernel implements these with `asm!`
//! impl TensorMapOps for Rec {
//!     fn replace_address(_: u64, a: u64) { log(format!("address {a:#x}")) }
//!     fn replace_dim<const ORD: u32>(_: u64, v: u32) { log(format!("dim {ORD} {v}")) }
//!     fn replace_stride<const ORD: u32>(_: u64, v: u64) { log(format!("stride {ORD} {v}")) }
//!     fn release() { log("release".into()) }
//!     fn acquire(_: u64) { log("acquire".into()) }
//!     fn bulk_wait_read_all() { log("wait_group.read 0".into()) }
//! }
//! let mut mem = TensorMapMem::zeroed(); // in a kernel: `&mut *(slots as *mut TensorMapMem)`
//! let at = &mem as *const TensorMapMem as u64;
//! let live = MapSlot::<MapC, Released>::new(&mut mem).acquire::<Rec>();
//! let _tma_map = live.tma_map(); // what the TMA stores read
//! // ... stores with the map; then wait until they read it, and rewrite:
//! let next = live.retire_after_stores::<Rec>()
//!     .rewrite::<Rec>(&GroupValues::new(0x7f00_0020_0000).dim(1, 768))
//!     .release::<Rec>()
//!     .acquire::<Rec>();
//! assert_eq!(next.tma_map(), at);
//! LOG.with(|l| assert_eq!(l.borrow()[1..], [
//!     "wait_group.read 0", "address 0x7f0000200000", "dim 1 768", "release", "acquire",
//! ]));
//! ```

use core::marker::PhantomData;

pub use smemdesc_core::tma::{GroupValues, GroupedMap, GroupedMapError, MAX_REWRITES};

mod problem;
mod workspace;
mod workspace_decl;
pub use problem::{
    check_groups, pack_tile, unpack_tile, GroupMatrix, GroupShape, GroupTile, GroupedError,
    GroupedTiles,
};
pub use workspace::{
    MapSpace, MapWorkspace, MapWorkspaceDecl, MapWorkspaceError, MisalignedWorkspace,
};

/// The `tensormap` instructions a rewrite issues, implemented once by the kernel crate (`asm!`,
/// or cuda-oxide's intrinsics). `slot` is the global address of the 128-B map.
pub trait TensorMapOps {
    /// `tensormap.replace.tile.global_address.global.b1024.b64 [slot], address;`
    fn replace_address(slot: u64, address: u64);
    /// `tensormap.replace.tile.global_dim.global.b1024.b32 [slot], ORD, value;`
    fn replace_dim<const ORD: u32>(slot: u64, value: u32);
    /// `tensormap.replace.tile.global_stride.global.b1024.b64 [slot], ORD, bytes;`
    fn replace_stride<const ORD: u32>(slot: u64, bytes: u64);
    /// `fence.proxy.tensormap::generic.release.gpu;` (the writes visible to the tensormap proxy).
    fn release();
    /// `fence.proxy.tensormap::generic.acquire.gpu [slot], 128;`
    fn acquire(slot: u64);
    /// `cp.async.bulk.wait_group.read 0;` (every bulk store of this thread has read its source
    /// and its map).
    fn bulk_wait_read_all();
}

/// A grouped map declaration: the core's [`GroupedMap`] as a type.
pub trait GroupedMapDecl {
    /// The declaration (its template's constant fields checked when it is evaluated).
    const MAP: GroupedMap;
}

/// Acquired for stores: TMA stores may read it ([`tma_map`](MapSlot::tma_map)).
pub struct Live;
/// Acquired for loads: only the producer it is lent to
/// ([`Producer::lend`](crate::pipeline::Producer::lend)) loads with it, and gives it back
/// retired once those loads landed.
pub struct Lent;
/// No TMA operation reads the slot any more: it may be rewritten.
pub struct Retired;
/// Rewritten, not yet released to the tensormap proxy.
pub struct Rewritten;
/// Released (or written by the host): acquire before TMA reads it.
pub struct Released;

/// The 128 bytes of one tensor map in global memory, 128-B aligned by its type (what
/// `tensormap.replace` and `fence.proxy.tensormap` address). A kernel receives its slots as a
/// pointer to these and makes the `&mut` (an `unsafe` cast in the kernel, whose promise is
/// that the slot is the grid's and no other handle names it); a [`MapSlot`] borrows one
/// exclusively, so one slot has one handle.
///
/// ```
/// let mut mem = smemdesc::grouped::TensorMapMem::zeroed();
/// assert_eq!(core::mem::align_of_val(&mem), 128);
/// assert_eq!(core::mem::size_of_val(&mem), 128);
/// assert_eq!(&mem as *const _ as usize % 128, 0);
/// # let _ = &mut mem;
/// ```
#[repr(C, align(128))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMapMem(pub [u64; 16]);

impl TensorMapMem {
    /// A zeroed map (the host writes the encoded one into it before the launch).
    #[inline(always)]
    pub const fn zeroed() -> TensorMapMem {
        TensorMapMem([0; 16])
    }
}

/// A 128-B tensor map slot in global memory in state `S` (see the module), borrowing the slot
/// exclusively for `'a`.
#[must_use = "a map slot is consumed by each transition"]
pub struct MapSlot<'a, M, S> {
    slot: u64,
    p: PhantomData<SlotMarker<'a, M, S>>,
}

/// What a [`MapSlot`] holds besides its address: the exclusive borrow of its slot, and its
/// declaration and state as types.
type SlotMarker<'a, M, S> = (&'a mut TensorMapMem, fn() -> (M, S));

impl<'a, M: GroupedMapDecl> MapSlot<'a, M, Released> {
    /// The slot `mem`, as the host wrote it (`cuda::upload`): acquire before the first TMA use.
    #[inline(always)]
    pub fn new(mem: &'a mut TensorMapMem) -> MapSlot<'a, M, Released> {
        MapSlot {
            slot: mem as *mut TensorMapMem as u64,
            p: PhantomData,
        }
    }

    /// `fence.proxy.tensormap::generic.acquire`: TMA stores may now read the map.
    #[inline(always)]
    pub fn acquire<O: TensorMapOps>(self) -> MapSlot<'a, M, Live> {
        O::acquire(self.slot);
        self.to()
    }

    /// `fence.proxy.tensormap::generic.acquire`, for loads: lend the slot to the producer that
    /// loads with it ([`Producer::lend`](crate::pipeline::Producer::lend)).
    #[inline(always)]
    pub fn acquire_for_loads<O: TensorMapOps>(self) -> MapSlot<'a, M, Lent> {
        O::acquire(self.slot);
        self.to()
    }
}

impl<'a, M, S> MapSlot<'a, M, S> {
    #[inline(always)]
    const fn to<T>(self) -> MapSlot<'a, M, T> {
        MapSlot {
            slot: self.slot,
            p: PhantomData,
        }
    }

    /// A slot of a [`MapWorkspace`] (which borrows the workspace for the slot's life).
    #[inline(always)]
    pub(crate) const fn at_workspace(slot: u64) -> MapSlot<'a, M, S> {
        MapSlot {
            slot,
            p: PhantomData,
        }
    }

    /// The slot's address (for messages and host checks; TMA takes [`MapSlot::tma_map`]).
    #[inline(always)]
    pub const fn slot(&self) -> u64 {
        self.slot
    }
}

impl<'a, M> MapSlot<'a, M, Lent> {
    /// The slot after its producer's loads landed ([`Producer::reclaim`](crate::pipeline::Producer::reclaim)).
    #[inline(always)]
    pub(crate) const fn retired(self) -> MapSlot<'a, M, Retired> {
        self.to()
    }
}

impl<'a, M: GroupedMapDecl> MapSlot<'a, M, Live> {
    /// The map's address for `cp.async.bulk.tensor` stores (and reduces).
    #[inline(always)]
    pub const fn tma_map(&self) -> u64 {
        self.slot
    }

    /// Waits until every bulk (TMA) store this thread issued has read its source and its map
    /// (`cp.async.bulk.wait_group.read 0`), then stops using the slot. A map read by loads is
    /// not retired this way: loads complete on mbarriers and belong to no bulk async-group
    /// (such a slot is [`Lent`] and comes back through its producer).
    #[inline(always)]
    pub fn retire_after_stores<O: TensorMapOps>(self) -> MapSlot<'a, M, Retired> {
        O::bulk_wait_read_all();
        self.to()
    }
}

impl<'a, M: GroupedMapDecl> MapSlot<'a, M, Retired> {
    /// Writes the declared fields of group `g` (the unchecked form: the host checked every
    /// group with [`GroupedMap::check_group`]; [`rewrite_checked`](Self::rewrite_checked)
    /// checks here). Dims are written as `u32` (`check_group` bounds them by 2^32).
    #[inline(always)]
    pub fn rewrite<O: TensorMapOps>(self, g: &GroupValues) -> MapSlot<'a, M, Rewritten> {
        use smemdesc_core::TensorMapArg as A;
        let s = self.slot;
        // The values check_group validates: g with the dense strides the declaration rewrites.
        let g = &M::MAP.rewrite_values(g);
        if const { M::MAP.rewrites(A::GlobalAddress) } {
            O::replace_address(s, g.address);
        }
        macro_rules! dims {
            ($($i:literal)*) => {$(
                if const { M::MAP.rewrites(A::GlobalDim($i)) } {
                    O::replace_dim::<$i>(s, g.dims[$i] as u32);
                }
            )*};
        }
        macro_rules! strides {
            ($($i:literal)*) => {$(
                if const { M::MAP.rewrites(A::GlobalStrides($i)) } {
                    O::replace_stride::<$i>(s, g.strides[$i]);
                }
            )*};
        }
        dims!(0 1 2 3 4);
        strides!(0 1 2 3);
        self.to()
    }

    /// [`rewrite`](Self::rewrite) by one thread of a group that moves the slot through its
    /// states together: `leader` writes the fields, every thread advances the state, so the
    /// fences that follow ([`release`](MapSlot::release), [`acquire`](MapSlot::acquire)) run in
    /// code all the threads execute (the leader's release is the one that orders its writes).
    /// A fence on a divergent path makes ptxas serialise every `wgmma` of the kernel (C7518).
    #[inline(always)]
    pub fn rewrite_by<O: TensorMapOps>(
        self,
        leader: bool,
        g: &GroupValues,
    ) -> MapSlot<'a, M, Rewritten> {
        if leader {
            let _ = MapSlot::<'_, M, Retired> {
                slot: self.slot,
                p: PhantomData,
            }
            .rewrite::<O>(g);
        }
        self.to()
    }

    /// [`rewrite`](Self::rewrite) after checking group `g` against every rule of the host encode
    /// (the core's [`GroupedMap::check_group`]); on a violation nothing is written and the slot
    /// comes back retired.
    #[inline]
    #[allow(clippy::result_large_err)]
    pub fn rewrite_checked<O: TensorMapOps>(
        self,
        g: &GroupValues,
    ) -> Result<MapSlot<'a, M, Rewritten>, (crate::TensorMapError, MapSlot<'a, M, Retired>)> {
        match M::MAP.check_group(g) {
            Ok(_) => Ok(self.rewrite::<O>(g)),
            Err(e) => Err((e, self)),
        }
    }
}

impl<'a, M: GroupedMapDecl> MapSlot<'a, M, Rewritten> {
    /// `fence.proxy.tensormap::generic.release`: the rewrite is visible to the tensormap proxy.
    #[inline(always)]
    pub fn release<O: TensorMapOps>(self) -> MapSlot<'a, M, Released> {
        O::release();
        self.to()
    }
}
