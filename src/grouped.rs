//! Tensor maps rewritten inside the kernel, one group at a time (grouped / MoE GEMM), with the
//! ordering the hardware needs as types.
//!
//! A map slot (128 B in global memory, 128-B aligned) that in-flight TMA operations may still
//! read cannot be rewritten; a rewritten map cannot be used by TMA until the release and acquire
//! fences ran. [`MapSlot`] walks those states, each transition consuming the slot:
//!
//! `Released` —[`acquire`](MapSlot::acquire)→ `Live` (its [`tma_map`](MapSlot::tma_map) feeds TMA)
//! —[`retire`](MapSlot::retire)(proof that nothing reads it: [`Drained`])→ `Retired`
//! —[`rewrite`](MapSlot::rewrite)(the group's values)→ `Rewritten`
//! —[`release`](MapSlot::release)→ `Released`.
//!
//! A misordered use does not compile: there is no `tma_map()` on a slot that is not `Live`, no
//! `rewrite` on one that was not retired. What a rewrite writes is the declaration's
//! ([`GroupedMapDecl`], the core's [`GroupedMap`]): only the fields it lists, each with its
//! constant field index; the box, swizzle and element type stay the tile's.
//!
//! ```
//! use smemdesc::grouped::*;
//! use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};
//!
//! /// B of a grouped GEMM: every expert's 256-row slice of an N x K bf16 matrix, K = 4096.
//! struct MapB;
//! impl GroupedMapDecl for MapB {
//!     const MAP: GroupedMap = GroupedMap::declare(
//!         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
//!             .dim(0, 4096).stride(0, 8192).box_dim(0, 64).box_dim(1, 256)
//!             .swizzle(TensorMapSwizzle::B128),
//!         &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)],
//!     );
//! }
//! # use std::cell::RefCell;
//! # thread_local!(static LOG: RefCell<Vec<String>> = RefCell::new(Vec::new()));
//! # fn log(s: String) { LOG.with(|l| l.borrow_mut().push(s)); }
//! struct Rec; // a kernel implements these with `asm!`
//! impl TensorMapOps for Rec {
//!     fn replace_address(slot: u64, a: u64) { log(format!("address {slot:#x} {a:#x}")) }
//!     fn replace_dim<const ORD: u32>(slot: u64, v: u32) { log(format!("dim {slot:#x} {ORD} {v}")) }
//!     fn replace_stride<const ORD: u32>(slot: u64, v: u64) { log(format!("stride {slot:#x} {ORD} {v}")) }
//!     fn release() { log("release".into()) }
//!     fn acquire(slot: u64) { log(format!("acquire {slot:#x}")) }
//!     fn bulk_wait_read_all() { log("wait_group.read 0".into()) }
//! }
//! let slot = MapSlot::<MapB, Released>::from_host(0x7000_0000);
//! let live = slot.acquire::<Rec>();
//! let _tma_map = live.tma_map(); // what cp.async.bulk.tensor reads
//! // ... loads with the map; then a proof that none of them still reads it:
//! let done = Drained::after_bulk_read_wait::<Rec>();
//! let next = live.retire(&done)
//!     .rewrite::<Rec>(&GroupValues::new(0x7f00_0020_0000).dim(1, 768))
//!     .release::<Rec>()
//!     .acquire::<Rec>();
//! assert_eq!(next.tma_map(), 0x7000_0000);
//! LOG.with(|l| assert_eq!(l.borrow()[1..], [
//!     "wait_group.read 0", "address 0x70000000 0x7f0000200000", "dim 0x70000000 1 768",
//!     "release", "acquire 0x70000000",
//! ]));
//! ```

use core::marker::PhantomData;

pub use smemdesc_core::tma::{GroupValues, GroupedMap, GroupedMapError, MAX_REWRITES};

mod problem;
pub use problem::{
    check_groups, pack_tile, unpack_tile, GroupMatrix, GroupShape, GroupTile, GroupedError,
    GroupedTiles,
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

/// The slot may be read by TMA: acquired after its last rewrite.
pub struct Live;
/// No TMA operation reads the slot any more: it may be rewritten.
pub struct Retired;
/// Rewritten, not yet released to the tensormap proxy.
pub struct Rewritten;
/// Released (or written by the host): acquire before TMA reads it.
pub struct Released;

/// Proof that no TMA operation issued before it still reads a map: every load's bytes landed
/// ([`crate::pipeline::Producer::wait_landed`], which borrows the producer so no load is issued
/// while the proof lives) or every bulk store read its source
/// ([`after_bulk_read_wait`](Self::after_bulk_read_wait)).
pub struct Drained<'p> {
    p: PhantomData<&'p mut ()>,
}

impl Drained<'_> {
    /// Waits until every bulk (TMA) store this thread issued has read its source and map
    /// (`cp.async.bulk.wait_group.read 0`).
    #[inline(always)]
    pub fn after_bulk_read_wait<O: TensorMapOps>() -> Drained<'static> {
        O::bulk_wait_read_all();
        Drained { p: PhantomData }
    }

    #[inline(always)]
    pub(crate) fn loads_landed<'p>() -> Drained<'p> {
        Drained { p: PhantomData }
    }
}

/// A 128-B tensor map slot in global memory in state `S` (see the module).
#[must_use = "a map slot is consumed by each transition"]
pub struct MapSlot<M, S> {
    slot: u64,
    p: PhantomData<fn() -> (M, S)>,
}

impl<M: GroupedMapDecl> MapSlot<M, Released> {
    /// The slot at `slot` (global, 128-B aligned), as the host wrote it (`cuda::upload`): acquire
    /// before the first TMA use.
    #[inline(always)]
    pub const fn from_host(slot: u64) -> MapSlot<M, Released> {
        MapSlot {
            slot,
            p: PhantomData,
        }
    }

    /// `fence.proxy.tensormap::generic.acquire`: TMA may now read the map.
    #[inline(always)]
    pub fn acquire<O: TensorMapOps>(self) -> MapSlot<M, Live> {
        O::acquire(self.slot);
        self.to()
    }
}

impl<M, S> MapSlot<M, S> {
    #[inline(always)]
    const fn to<T>(self) -> MapSlot<M, T> {
        MapSlot {
            slot: self.slot,
            p: PhantomData,
        }
    }

    /// The slot's address (for messages and host checks; TMA takes [`MapSlot::tma_map`]).
    #[inline(always)]
    pub const fn slot(&self) -> u64 {
        self.slot
    }
}

impl<M: GroupedMapDecl> MapSlot<M, Live> {
    /// The map's address for `cp.async.bulk.tensor`.
    #[inline(always)]
    pub const fn tma_map(&self) -> u64 {
        self.slot
    }

    /// Stops using the slot, once `_proof` shows no TMA operation still reads it.
    #[inline(always)]
    pub fn retire(self, _proof: &Drained<'_>) -> MapSlot<M, Retired> {
        self.to()
    }
}

impl<M: GroupedMapDecl> MapSlot<M, Retired> {
    /// Writes the declared fields of group `g` (the unchecked form: the host checked every
    /// group with [`GroupedMap::check_group`]; [`rewrite_checked`](Self::rewrite_checked)
    /// checks here). Dims are written as `u32` (`check_group` bounds them by 2^32).
    #[inline(always)]
    pub fn rewrite<O: TensorMapOps>(self, g: &GroupValues) -> MapSlot<M, Rewritten> {
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
    ) -> MapSlot<M, Rewritten> {
        if leader {
            let _ = MapSlot::<M, Retired>::to::<Retired>(MapSlot {
                slot: self.slot,
                p: PhantomData,
            })
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
    ) -> Result<MapSlot<M, Rewritten>, (crate::TensorMapError, MapSlot<M, Retired>)> {
        match M::MAP.check_group(g) {
            Ok(_) => Ok(self.rewrite::<O>(g)),
            Err(e) => Err((e, self)),
        }
    }
}

impl<M: GroupedMapDecl> MapSlot<M, Rewritten> {
    /// `fence.proxy.tensormap::generic.release`: the rewrite is visible to the tensormap proxy.
    #[inline(always)]
    pub fn release<O: TensorMapOps>(self) -> MapSlot<M, Released> {
        O::release();
        self.to()
    }
}
