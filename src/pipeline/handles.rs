//! The run-time handles: a base address, a rank and an iteration counter each; every number
//! is a constant of the pipeline type.

use core::marker::PhantomData;

use super::{issue_tile, stage_parity, Load, Pipeline, PipelineOps, RawLoad, TileLoad};

/// The pipeline's barriers in one CTA: the storage base (`Storage::aligned_base`) and the CTA's
/// `%cluster_ctarank` (0 without a cluster).
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::PipeAt};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// #[smem_pipeline(storage = S, loads = (a: A), consumers = 1)]
/// pub struct P;
/// let p = PipeAt::<P>::new(0x400, 0);
/// assert_eq!((p.base(), p.rank(), core::mem::size_of::<PipeAt<P>>()), (0x400, 0, 8));
/// ```
pub struct PipeAt<P> {
    base: u32,
    rank: u32,
    p: PhantomData<fn() -> P>,
}

impl<P> Clone for PipeAt<P> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for PipeAt<P> {}

impl<P: Pipeline> PipeAt<P> {
    /// The barriers of the storage at `base` in the CTA of rank `rank`.
    #[inline(always)]
    pub const fn new(base: u32, rank: u32) -> PipeAt<P> {
        PipeAt {
            base,
            rank,
            p: PhantomData,
        }
    }

    /// The storage base.
    #[inline(always)]
    pub const fn base(&self) -> u32 {
        self.base
    }

    /// The CTA's rank in the cluster.
    #[inline(always)]
    pub const fn rank(&self) -> u32 {
        self.rank
    }

    /// Initialises every stage's barriers with the declared counts, then the init fence. One
    /// thread of the CTA; every thread then calls [`init_sync`](Self::init_sync).
    #[inline(always)]
    pub fn init<O: PipelineOps>(&self) {
        let mut s = 0;
        while s < const { P::LAYOUT.stages() } {
            O::init(P::full(self.base, s), const { P::LAYOUT.full_arrivals() });
            if const { P::LAYOUT.spec().empty_barriers } {
                O::init(P::empty(self.base, s), const { P::LAYOUT.empty_arrivals() });
            }
            s += 1;
        }
        O::fence_init();
    }

    /// The barrier after [`init`](Self::init): the CTA's, and the cluster's when peers arrive on
    /// or write to this CTA's barriers. Every thread.
    #[inline(always)]
    pub fn init_sync<O: PipelineOps>(&self) {
        O::sync_cta();
        if const { P::LAYOUT.needs_cluster_sync() } {
            O::sync_cluster();
        }
    }

    /// The producer (one thread per CTA), at iteration 0.
    #[inline(always)]
    pub const fn producer(&self) -> Producer<P> {
        Producer { at: *self, it: 0 }
    }

    /// Consumer thread `thread` (below the declared threads per consumer group) of a consumer
    /// group, at iteration 0. Threads that do not arrive (all but one per declared arrival)
    /// still wait.
    #[inline(always)]
    pub fn consumer(&self, thread: u32) -> Consumer<P> {
        let arrives = if const { arrival_stride::<P>().is_power_of_two() } {
            thread & const { arrival_stride::<P>().wrapping_sub(1) } == 0
        } else {
            thread % const { arrival_stride::<P>() } == 0
        };
        Consumer {
            at: *self,
            it: 0,
            arrives,
        }
    }
}

/// Threads per arrival of a consumer group (the declaration checks that it divides).
const fn arrival_stride<P: Pipeline>() -> u32 {
    let t = P::CONSUMER_THREADS / P::LAYOUT.spec().consumer_arrivals;
    if t == 0 {
        1
    } else {
        t
    }
}

/// The producer's iteration.
pub struct Producer<P> {
    at: PipeAt<P>,
    it: u32,
}

impl<P: Pipeline> Producer<P> {
    /// Waits until the next stage is free (its consumers released its previous fill), arrives on
    /// its full barrier with the declared `expect_tx` (under `cta_group::2`: the leader, for
    /// both CTAs), and returns the stage's loads to issue. `None`: the wait gave up.
    #[inline(always)]
    pub fn acquire<O: PipelineOps>(&mut self) -> Option<Fill<P, P::Loads>> {
        let (s, phase) = stage_parity::<P>(self.it);
        if const { P::LAYOUT.spec().empty_barriers }
            && !O::wait(P::empty(self.at.base, s), phase ^ 1)
        {
            return None;
        }
        let full = P::full(self.at.base, s);
        let bar = if const { P::LAYOUT.spec().cta_group == 2 } {
            // Every CTA's loads complete on the leader's barrier.
            if self.at.rank & 1 == 0 {
                O::arrive_expect_tx(full, const { P::LAYOUT.expect_tx(0) });
            }
            O::map_cta(full, self.at.rank & !1)
        } else {
            O::arrive_expect_tx(full, const { P::LAYOUT.expect_tx(0) });
            full
        };
        self.it = self.it.wrapping_add(1);
        Some(Fill {
            at: self.at,
            stage: s,
            bar,
            l: PhantomData,
        })
    }

    /// Waits for the consumers' releases of the last fill of every stage: a producer that
    /// leaves before them would let a peer's remote arrive reach an exited CTA. `false`: a
    /// wait gave up.
    #[inline(always)]
    pub fn drain<O: PipelineOps>(&mut self) -> bool {
        if !const { P::LAYOUT.spec().empty_barriers } {
            return true;
        }
        let mut ok = true;
        let mut n = 0;
        while n < const { P::LAYOUT.stages() } {
            let (s, phase) = stage_parity::<P>(self.it);
            ok = ok && O::wait(P::empty(self.at.base, s), phase ^ 1);
            self.it = self.it.wrapping_add(1);
            n += 1;
        }
        ok
    }

    /// Waits until the bytes of every stage this producer filled landed (the full barriers of
    /// its last `STAGES` fills completed), so no load it issued still reads a tensor map. The
    /// proof borrows the producer: no load is issued while it lives
    /// ([`crate::grouped::MapSlot::retire`] takes it). `None`: a wait gave up.
    ///
    /// Under `cta_group::2` the full barriers are the leader's: call it on the leader.
    #[inline(always)]
    pub fn wait_landed<O: PipelineOps>(&mut self) -> Option<crate::grouped::Drained<'_>> {
        let mut j = 1;
        while j <= const { P::LAYOUT.stages() } {
            if self.it >= j {
                let (s, phase) = stage_parity::<P>(self.it - j);
                if !O::wait(P::full(self.at.base, s), phase) {
                    return None;
                }
            }
            j += 1;
        }
        Some(crate::grouped::Drained::loads_landed())
    }

    /// Iterations acquired so far.
    #[inline(always)]
    pub const fn iteration(&self) -> u32 {
        self.it
    }
}

/// A stage the producer acquired, with the loads `L` it must still issue.
#[must_use = "issue the stage's declared loads, then `issued()`"]
pub struct Fill<P, L> {
    at: PipeAt<P>,
    stage: u32,
    bar: u32,
    l: PhantomData<fn() -> L>,
}

impl<P: Pipeline, L> Fill<P, L> {
    /// The stage.
    #[inline(always)]
    pub const fn stage(&self) -> u32 {
        self.stage
    }

    #[inline(always)]
    const fn next<T>(self) -> Fill<P, T> {
        Fill {
            at: self.at,
            stage: self.stage,
            bar: self.bar,
            l: PhantomData,
        }
    }
}

impl<P: TileLoad<I>, const I: usize, T> Fill<P, (Load<I>, T)> {
    /// Issues load `I` of the stage: the tile's TMA boxes at tile coordinates `(k0, mn0)` of
    /// tensor map `map` (or, multicast, this CTA's slices to the CTAs sharing the tile).
    #[inline(always)]
    pub fn load<O: PipelineOps>(self, map: u64, k0: u32, mn0: u32) -> Fill<P, T> {
        issue_tile::<P, O, I>(
            self.at.base(),
            self.at.rank(),
            self.stage,
            self.bar,
            map,
            k0,
            mn0,
        );
        self.next()
    }
}

impl<P: RawLoad<I>, const I: usize, T> Fill<P, (Load<I>, T)> {
    /// Issues load `I` with `f(dst, bar)`: the start of the load's stage and the barrier its
    /// bytes complete on (scale factors, or a copy the handles do not issue themselves). `f`
    /// must deliver exactly the load's `STAGE_BYTES`.
    #[inline(always)]
    pub fn load_with(self, f: impl FnOnce(u32, u32)) -> Fill<P, T> {
        f(P::stage_addr(self.at.base(), self.stage), self.bar);
        self.next()
    }
}

impl<P: Pipeline> Fill<P, ()> {
    /// Every declared load was issued; returns the stage.
    #[inline(always)]
    pub const fn issued(self) -> u32 {
        self.stage
    }
}

/// The consumer's iteration.
pub struct Consumer<P> {
    at: PipeAt<P>,
    it: u32,
    arrives: bool,
}

impl<P: Pipeline> Consumer<P> {
    /// Waits until the next stage's bytes landed (the right parity of its full barrier) and
    /// returns it. `None`: the wait gave up.
    #[inline(always)]
    pub fn wait<O: PipelineOps>(&mut self) -> Option<Full<P>> {
        let (s, phase) = stage_parity::<P>(self.it);
        if !O::wait(P::full(self.at.base, s), phase) {
            return None;
        }
        self.it = self.it.wrapping_add(1);
        Some(Full {
            at: self.at,
            stage: s,
            arrives: self.arrives,
        })
    }

    /// Iterations waited for so far.
    #[inline(always)]
    pub const fn iteration(&self) -> u32 {
        self.it
    }
}

/// A stage whose bytes landed, held until its reads are done; [`release`](Self::release)
/// consumes it.
#[must_use = "release the stage once its reads are done"]
pub struct Full<P> {
    at: PipeAt<P>,
    stage: u32,
    arrives: bool,
}

impl<P: Pipeline> Full<P> {
    /// The stage.
    #[inline(always)]
    pub const fn stage(&self) -> u32 {
        self.stage
    }

    /// Releases the stage: this thread's arrival (if it is one of the declared arrivals) on the
    /// empty barrier of every CTA whose producer wrote into it.
    #[inline(always)]
    pub fn release<O: PipelineOps>(self) {
        if !const { P::LAYOUT.spec().empty_barriers } || !self.arrives {
            return;
        }
        let e = P::empty(self.at.base(), self.stage);
        let rank = self.at.rank();
        O::arrive(e);
        let ctas = const { P::LAYOUT.ctas() };
        let all = const { P::LAYOUT.release_ctas(0) == P::LAYOUT.ctas() };
        let mut d = 1;
        while d < ctas {
            // The peer d ranks on (cluster sizes up to 16: a mask of the rank's release set).
            let q = (rank + d) % ctas;
            if all || (release_mask::<P>(rank) >> q) & 1 != 0 {
                O::arrive_cluster(e, q);
            }
            d += 1;
        }
    }

    /// Releases the stage with `f(empty, mask)`: this CTA's empty barrier and the `ctaMask` of
    /// the CTAs to release (for `tcgen05.commit … .multicast::cluster`, which arrives once the
    /// MMAs reading the stage completed). Only threads that arrive call `f`.
    #[inline(always)]
    pub fn release_with(self, f: impl FnOnce(u32, u16)) {
        if !const { P::LAYOUT.spec().empty_barriers } || !self.arrives {
            return;
        }
        f(
            P::empty(self.at.base(), self.stage),
            release_mask::<P>(self.at.rank()),
        );
    }
}

/// The release set of `rank` as arithmetic: itself, plus its cluster row (A multicast) and
/// column (B multicast).
#[inline(always)]
fn release_mask<P: Pipeline>(rank: u32) -> u16 {
    let (x, y, a, b, pair) = const {
        let spec = P::LAYOUT.spec();
        let (mut a, mut b) = (false, false);
        let loads = spec.loads();
        let mut i = 0;
        while i < loads.len() {
            if loads[i].multicast {
                match loads[i].operand {
                    Some(crate::Operand::A) => a = true,
                    Some(crate::Operand::B) => b = true,
                    None => {}
                }
            }
            i += 1;
        }
        (spec.cluster.0, spec.cluster.1, a, b, spec.cta_group == 2)
    };
    if pair {
        return if rank & 1 == 0 { 0b11 } else { 0 };
    }
    let (i, j) = (rank % x, rank / x);
    let mut m = 1u16 << rank;
    if a {
        // The CTAs with this `i`: ranks i + p·x.
        let mut row = 0u16;
        let mut p = 0;
        while p < y {
            row |= 1 << (p * x);
            p += 1;
        }
        m |= row << i;
    }
    if b {
        m |= ((1u16 << x) - 1) << (j * x);
    }
    m
}
