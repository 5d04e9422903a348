//! The producer side: [`Producer`] (and an sm100 pair's [`PeerProducer`]) acquire stages and
//! return a [`Fill`], whose type lists the loads still to issue.

use core::marker::PhantomData;

use super::{issue_tile, stage_parity, Load, Pipeline, PipelineOps, RawLoad, TileLoad};
use crate::grouped::{Lent, MapSlot, Retired};

/// Where a pipeline's barriers are: the storage base and the CTA's rank (copied into every
/// handle; only [`PipeAt`](super::PipeAt) hands handles out).
pub(crate) struct At<P> {
    pub(crate) base: u32,
    pub(crate) rank: u32,
    p: PhantomData<fn() -> P>,
}

impl<P> Clone for At<P> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for At<P> {}

impl<P> At<P> {
    #[inline(always)]
    pub(crate) const fn new(base: u32, rank: u32) -> At<P> {
        At {
            base,
            rank,
            p: PhantomData,
        }
    }
}

/// The producer's iteration; `S` is the map slot lent to it ([`lend`](Producer::lend)), `()`
/// when none is.
///
/// It is handed out once per pipeline instance ([`PipeAt::split`](super::PipeAt::split)) and
/// is neither `Copy` nor `Clone`: what its waits prove (a stage free, every load of a lent map
/// landed) covers every load issued through the pipeline.
pub struct Producer<P, S = ()> {
    at: At<P>,
    it: u32,
    slot: S,
}

impl<P: Pipeline> Producer<P> {
    #[inline(always)]
    pub(crate) const fn new(at: At<P>) -> Producer<P> {
        Producer {
            at,
            it: 0,
            slot: (),
        }
    }

    /// Lends a map slot acquired for loads to the producer: its fills may then
    /// [`load_lent`](Fill::load_lent) with it, and it comes back only retired, after every load
    /// that read it landed ([`reclaim`](Producer::reclaim)). This is how a grouped kernel
    /// rewrites an operand's map between groups.
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::*, grouped::*};
    /// # use smemdesc::{Arch, TensorMap, TensorMapArg, TensorMapDataType, TensorMapSwizzle};
    /// # #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (256, 64), major = K, stages = 2)]
    /// # pub struct B;
    /// # #[smem_storage(arch = sm90)]
    /// # pub struct S { b: B, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// # #[smem_pipeline(storage = S, loads = (b: B), consumers = 1)]
    /// # pub struct P;
    /// # struct MapB;
    /// # impl GroupedMapDecl for MapB {
    /// #     const MAP: GroupedMap = GroupedMap::declare(
    /// #         TensorMap::new(Arch::Sm90, TensorMapDataType::Bfloat16, 2)
    /// #             .dim(0, 4096).stride(0, 8192).box_dim(0, 64).box_dim(1, 256)
    /// #             .swizzle(TensorMapSwizzle::B128),
    /// #         &[TensorMapArg::GlobalAddress, TensorMapArg::GlobalDim(1)]);
    /// # }
    /// # struct Ops;
    /// # impl PipelineOps for Ops {
    /// #   fn init(_: u32, _: u32) {} fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
    /// #   fn arrive_expect_tx(_: u32, _: u32) {} fn arrive(_: u32) {} fn arrive_cluster(_: u32, _: u32) {}
    /// #   fn wait(_: u32, _: u32) -> bool { true } fn map_cta(a: u32, _: u32) -> u32 { a }
    /// #   fn tma_load(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    /// #   fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    /// #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    /// # }
    /// # impl TensorMapOps for Ops {
    /// #   fn replace_address(_: u64, _: u64) {} fn replace_dim<const O: u32>(_: u64, _: u32) {}
    /// #   fn replace_stride<const O: u32>(_: u64, _: u64) {} fn release() {} fn acquire(_: u64) {}
    /// #   fn bulk_wait_read_all() {}
    /// # }
    /// let mut mem = TensorMapMem::zeroed(); // in a kernel: the slot in global memory
    /// let slot = MapSlot::<MapB, Released>::new(&mut mem).acquire_for_loads::<Ops>();
    /// let (producer, _consumers) = PipeAt::<P>::new(0, 0).split();
    /// let mut producer = producer.lend(slot);
    /// let fill = producer.acquire::<Ops>().unwrap();
    /// assert_eq!(fill.load_lent::<Ops>(0, 256).issued(), 0);
    /// // Every load that read the map landed: the slot comes back retired, ready to rewrite.
    /// let (_producer, retired) = producer.reclaim::<Ops>().ok().unwrap();
    /// let _rewritten = retired.rewrite::<Ops>(&GroupValues::new(0x7f00_0000_0000).dim(1, 512));
    /// ```
    #[inline(always)]
    pub fn lend<'a, M>(self, slot: MapSlot<'a, M, Lent>) -> Producer<P, MapSlot<'a, M, Lent>> {
        Producer {
            at: self.at,
            it: self.it,
            slot,
        }
    }
}

impl<'a, P: Pipeline, M> Producer<P, MapSlot<'a, M, Lent>> {
    /// Waits until every load this producer issued landed (the full barriers of its last
    /// `STAGES` fills completed: a barrier's phases complete in order, so each stage's last
    /// fill covers the ones before), then returns the lent slot retired: no load still reads
    /// its map. `Err(self)`: a wait gave up (the slot stays lent).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn reclaim<O: PipelineOps>(self) -> Result<(Producer<P>, MapSlot<'a, M, Retired>), Self> {
        let mut j = 1;
        while j <= const { P::LAYOUT.stages() } {
            if self.it >= j {
                let (s, phase) = stage_parity::<P>(self.it - j);
                if !O::wait(P::full(self.at.base, s), phase) {
                    return Err(self);
                }
            }
            j += 1;
        }
        Ok((
            Producer {
                at: self.at,
                it: self.it,
                slot: (),
            },
            self.slot.retired(),
        ))
    }
}

impl<P: Pipeline, S: LentMap> Producer<P, S> {
    /// Waits until the next stage is free (its consumers released its previous fill), arrives on
    /// its full barrier with the declared `expect_tx` (under `cta_group::2`: the pair's bytes,
    /// on the leader), and returns the stage's loads to issue. `None`: the wait gave up.
    #[inline(always)]
    pub fn acquire<O: PipelineOps>(&mut self) -> Option<Fill<P, P::Loads, S>> {
        let (s, phase) = stage_parity::<P>(self.it);
        if const { P::LAYOUT.spec().empty_barriers }
            && !O::wait(P::empty(self.at.base, s), phase ^ 1)
        {
            return None;
        }
        let full = P::full(self.at.base, s);
        O::arrive_expect_tx(full, const { P::LAYOUT.expect_tx(0) });
        let bar = if const { P::LAYOUT.spec().cta_group == 2 } {
            // The pair's loads complete on the leader's (this CTA's) barrier, addressed in the
            // cluster window as `.cta_group::2` takes it.
            O::map_cta(full, self.at.rank)
        } else {
            full
        };
        self.it = self.it.wrapping_add(1);
        Some(Fill::new(self.at, s, bar, self.slot.map()))
    }

    /// Waits for the consumers' releases of the last fill of every stage: a producer that
    /// leaves before them would let a peer's remote arrive reach an exited CTA. `false`: a
    /// wait gave up.
    #[inline(always)]
    pub fn drain<O: PipelineOps>(&mut self) -> bool {
        drain::<P, O>(self.at, &mut self.it)
    }

    /// Iterations acquired so far.
    #[inline(always)]
    pub const fn iteration(&self) -> u32 {
        self.it
    }
}

/// The waits of [`Producer::drain`] and [`PeerProducer::drain`].
#[inline(always)]
fn drain<P: Pipeline, O: PipelineOps>(at: At<P>, it: &mut u32) -> bool {
    if !const { P::LAYOUT.spec().empty_barriers } {
        return true;
    }
    let mut ok = true;
    let mut n = 0;
    while n < const { P::LAYOUT.stages() } {
        let (s, phase) = stage_parity::<P>(*it);
        ok = ok && O::wait(P::empty(at.base, s), phase ^ 1);
        *it = it.wrapping_add(1);
        n += 1;
    }
    ok
}

/// The odd CTA of an sm100 pair ([`PairRole::Peer`](super::PairRole::Peer)): it waits for its
/// own stage to be free (the leader's MMA commit releases both CTAs), then loads its half with
/// the pair form into the leader's full barrier. It has no wait on the full barriers (they
/// count the leader's bytes; the peer's would never complete) and no `expect_tx` (the
/// leader's covers both halves).
pub struct PeerProducer<P> {
    at: At<P>,
    it: u32,
}

impl<P: Pipeline> PeerProducer<P> {
    #[inline(always)]
    pub(crate) const fn new(at: At<P>) -> PeerProducer<P> {
        PeerProducer { at, it: 0 }
    }

    /// Waits until this CTA's next stage is free and returns its loads, which complete on the
    /// leader's full barrier. `None`: the wait gave up.
    #[inline(always)]
    pub fn acquire<O: PipelineOps>(&mut self) -> Option<Fill<P, P::Loads>> {
        let (s, phase) = stage_parity::<P>(self.it);
        if const { P::LAYOUT.spec().empty_barriers }
            && !O::wait(P::empty(self.at.base, s), phase ^ 1)
        {
            return None;
        }
        let bar = O::map_cta(P::full(self.at.base, s), self.at.rank & !1);
        self.it = self.it.wrapping_add(1);
        Some(Fill::new(self.at, s, bar, 0))
    }

    /// [`Producer::drain`] for the peer's own empty barriers.
    #[inline(always)]
    pub fn drain<O: PipelineOps>(&mut self) -> bool {
        drain::<P, O>(self.at, &mut self.it)
    }

    /// Iterations acquired so far.
    #[inline(always)]
    pub const fn iteration(&self) -> u32 {
        self.it
    }
}

/// What a producer holds: nothing (`()`), or a lent map slot.
pub trait LentMap: sealed::Sealed {
    /// The map's address (0 for none).
    fn map(&self) -> u64;
}
impl LentMap for () {
    #[inline(always)]
    fn map(&self) -> u64 {
        0
    }
}
impl<M> LentMap for MapSlot<'_, M, Lent> {
    #[inline(always)]
    fn map(&self) -> u64 {
        self.slot()
    }
}
mod sealed {
    pub trait Sealed {}
    impl Sealed for () {}
    impl<M> Sealed for crate::grouped::MapSlot<'_, M, crate::grouped::Lent> {}
}

/// A stage the producer acquired, with the loads `L` it must still issue (`S`: the
/// producer's lent map slot, if any).
#[must_use = "issue the stage's declared loads, then `issued()`"]
pub struct Fill<P, L, S = ()> {
    at: At<P>,
    stage: u32,
    bar: u32,
    lent: u64,
    l: PhantomData<fn() -> (L, S)>,
}

impl<P: Pipeline, L, S> Fill<P, L, S> {
    #[inline(always)]
    const fn new(at: At<P>, stage: u32, bar: u32, lent: u64) -> Fill<P, L, S> {
        Fill {
            at,
            stage,
            bar,
            lent,
            l: PhantomData,
        }
    }

    /// The stage.
    #[inline(always)]
    pub const fn stage(&self) -> u32 {
        self.stage
    }

    #[inline(always)]
    const fn next<T>(self) -> Fill<P, T, S> {
        Fill::new(self.at, self.stage, self.bar, self.lent)
    }
}

impl<P: TileLoad<I>, const I: usize, T, S> Fill<P, (Load<I>, T), S> {
    /// Issues load `I` of the stage: the tile's TMA boxes at tile coordinates `(k0, mn0)` of
    /// tensor map `map` (or, multicast, this CTA's slices to the CTAs sharing the tile; in an
    /// sm100 pair, the pair form). `k0` and `mn0` are the tile's K and M/N origins whatever its
    /// major; the map's coordinates are innermost first, and which of them is innermost is the
    /// tile's major:
    ///
    /// * a K-major tile (its map's innermost dimension is K): box `b` at
    ///   `(c0, c1) = (k0 + k, mn0 + mn)`;
    /// * an MN-major tile (innermost M/N): `(c0, c1) = (mn0 + mn, k0 + k)`, so the first
    ///   coordinate the map sees is `mn0`. Attention's V (stored `[keys, head_dim]`,
    ///   `head_dim` contiguous: the MN-major B operand of `P·V`, N = head_dim, K = keys) is
    ///   loaded with `load(map_v, key0, d0)`: the map sees `(d0, key0)`, head_dim first.
    ///
    /// (`(mn, k)` is the box's origin in the tile, [`SmemTile::TMA_BOX_COORDS`](crate::SmemTile::TMA_BOX_COORDS).)
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::*};
    /// # use std::cell::RefCell;
    /// # thread_local!(static LOG: RefCell<Vec<(u32, u32)>> = RefCell::new(Vec::new()));
    /// // V: 64 (head_dim, N) x 64 (keys, K) bf16, head_dim contiguous.
    /// #[smem_tile(arch = sm90, operand = B, dtype = bf16, tile = (64, 64), major = MN,
    ///             swizzle = 128B, mma = m64n64k16, stages = 1)]
    /// pub struct V;
    /// #[smem_storage(arch = sm90)]
    /// pub struct S { v: V, full: [Mbarrier; 1], empty: [Mbarrier; 1] }
    /// #[smem_pipeline(storage = S, loads = (v: V), consumers = 1)]
    /// pub struct P;
    /// struct Rec; // records each box's map coordinates
    /// impl PipelineOps for Rec {
    ///     fn tma_load(_: u32, _: u64, c0: u32, c1: u32, _: u32) { LOG.with(|l| l.borrow_mut().push((c0, c1))) }
    /// #   fn init(_: u32, _: u32) {} fn fence_init() {} fn sync_cta() {} fn sync_cluster() {}
    /// #   fn arrive_expect_tx(_: u32, _: u32) {} fn arrive(_: u32) {} fn arrive_cluster(_: u32, _: u32) {}
    /// #   fn wait(_: u32, _: u32) -> bool { true } fn map_cta(a: u32, _: u32) -> u32 { a }
    /// #   fn tma_load_multicast(_: u32, _: u64, _: u32, _: u32, _: u32, _: u16) {}
    /// #   fn tma_load_pair(_: u32, _: u64, _: u32, _: u32, _: u32) {}
    /// }
    /// let (mut producer, _consumers) = PipeAt::<P>::new(0, 0).split();
    /// let (key0, d0) = (512, 64); // keys 512.., head_dim columns 64..
    /// let _ = producer.acquire::<Rec>().unwrap().load::<Rec>(0, key0, d0).issued();
    /// // The map's innermost coordinate is head_dim's: (d0, key0), then the boxes down the keys
    /// // (a 128B swizzle's box is 64 bf16 wide along head_dim).
    /// LOG.with(|l| assert_eq!(l.borrow()[0], (64, 512)));
    /// LOG.with(|l| assert!(l.borrow().iter().all(|&(c0, c1)| c0 == 64 && c1 >= 512)));
    /// ```
    #[inline(always)]
    pub fn load<O: PipelineOps>(self, map: u64, k0: u32, mn0: u32) -> Fill<P, T, S> {
        issue_tile::<P, O, I>(
            self.at.base,
            self.at.rank,
            self.stage,
            self.bar,
            map,
            k0,
            mn0,
        );
        self.next()
    }
}

impl<'a, P: TileLoad<I>, const I: usize, T, M> Fill<P, (Load<I>, T), MapSlot<'a, M, Lent>> {
    /// [`load`](Self::load) with the map of the slot lent to the producer.
    #[inline(always)]
    pub fn load_lent<O: PipelineOps>(self, k0: u32, mn0: u32) -> Fill<P, T, MapSlot<'a, M, Lent>> {
        let map = self.lent;
        self.load::<O>(map, k0, mn0)
    }
}

impl<P: RawLoad<I>, const I: usize, T, S> Fill<P, (Load<I>, T), S> {
    /// Issues load `I` with `f(dst, bar)`: the start of the load's stage and the barrier its
    /// bytes complete on (scale factors, or a copy the handles do not issue themselves). `f`
    /// must deliver exactly the load's `STAGE_BYTES` (in an sm100 pair, with `.cta_group::2`).
    #[inline(always)]
    pub fn load_with(self, f: impl FnOnce(u32, u32)) -> Fill<P, T, S> {
        f(P::stage_addr(self.at.base, self.stage), self.bar);
        self.next()
    }
}

impl<P: Pipeline, S> Fill<P, (), S> {
    /// Every declared load was issued; returns the stage.
    #[inline(always)]
    pub const fn issued(self) -> u32 {
        self.stage
    }
}
