//! The run-time handles: a base address, a rank and an iteration counter each; every number
//! is a constant of the pipeline type.
//!
//! Each handle is handed out once: [`PipeAt`] is neither `Copy` nor `Clone`, and
//! [`split`](PipeAt::split) consumes it into the one [`Producer`] and the one [`Consumers`]
//! set of that pipeline instance.

use super::producer::{At, PeerProducer, Producer};
use super::{stage_parity, Dependent, Independent, Pair, Pipeline, PipelineOps, Single};

/// The pipeline's barriers in one CTA: the storage base (`Storage::aligned_base`) and the CTA's
/// `%cluster_ctarank` (0 without a cluster). It initialises the barriers, then
/// [`split`](Self::split)s (consumed) into the producer and the consumer set.
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
/// let (producer, consumers) = p.split(); // `p` is gone: no second producer
/// assert_eq!((producer.iteration(), consumers.thread(0).iteration()), (0, 0));
/// ```
pub struct PipeAt<P> {
    at: At<P>,
}

impl<P: Pipeline> PipeAt<P> {
    /// The barriers of the storage at `base` in the CTA of rank `rank`.
    #[inline(always)]
    pub const fn new(base: u32, rank: u32) -> PipeAt<P> {
        PipeAt {
            at: At::new(base, rank),
        }
    }

    /// The storage base.
    #[inline(always)]
    pub const fn base(&self) -> u32 {
        self.at.base
    }

    /// The CTA's rank in the cluster.
    #[inline(always)]
    pub const fn rank(&self) -> u32 {
        self.at.rank
    }

    /// Initialises every stage's barriers with the declared counts, then the init fence. One
    /// thread of the CTA; every thread then calls [`init_sync`](Self::init_sync).
    #[inline(always)]
    pub fn init<O: PipelineOps>(&self) {
        let mut s = 0;
        while s < const { P::LAYOUT.stages() } {
            O::init(
                P::full(self.at.base, s),
                const { P::LAYOUT.full_arrivals() },
            );
            if const { P::LAYOUT.spec().empty_barriers } {
                O::init(
                    P::empty(self.at.base, s),
                    const { P::LAYOUT.empty_arrivals() },
                );
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
}

impl<P: Pipeline<Group = Single, Launch = Independent>> PipeAt<P> {
    /// The pipeline's producer (one thread of the CTA issues with it) and its consumer set,
    /// both at iteration 0. Consumes the handle: a pipeline instance has one of each, so no
    /// second producer can claim that loads landed (its counter would start at 0).
    #[inline(always)]
    pub const fn split(self) -> (Producer<P>, Consumers<P>) {
        (Producer::new(self.at), Consumers { at: self.at })
    }
}

impl<P: Pipeline<Group = Pair, Launch = Independent>> PipeAt<P> {
    /// The handles of this CTA's side of an sm100 pair (`cta_group = 2`): the leader (even rank)
    /// produces and consumes (its full barriers count both CTAs' bytes); the peer only
    /// produces, into the leader's barriers, so it has no handle that waits on them.
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::*};
    /// #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
    /// pub struct A;
    /// #[smem_storage(arch = sm100)]
    /// pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// #[smem_pipeline(storage = S, loads = (a: A), consumers = 1, cta_group = 2)]
    /// pub struct P;
    /// assert!(matches!(PipeAt::<P>::new(0, 0).split_pair(), PairRole::Leader(..)));
    /// assert!(matches!(PipeAt::<P>::new(0, 1).split_pair(), PairRole::Peer(..)));
    /// ```
    #[inline(always)]
    pub const fn split_pair(self) -> PairRole<P> {
        if self.at.rank & 1 == 0 {
            PairRole::Leader(Producer::new(self.at), Consumers { at: self.at })
        } else {
            PairRole::Peer(PeerProducer::new(self.at))
        }
    }
}

impl<P: Pipeline<Group = Single, Launch = Dependent>> PipeAt<P> {
    /// [`split`](PipeAt::split) for a programmatic dependent launch (`dependent = true`): the
    /// handles come only with the proof that `griddepcontrol.wait` returned, so the producer
    /// cannot load the primary's output before it. Barrier init (`init`, `init_sync`) is the
    /// prologue and needs no proof.
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::PipeAt};
    /// # use smemdesc::pdl::{GridDepOps, Prologue};
    /// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
    /// # pub struct A;
    /// # #[smem_storage(arch = sm90)]
    /// # pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// # struct Gdc;
    /// # impl GridDepOps for Gdc { fn wait() {} fn launch_dependents() {} }
    /// #[smem_pipeline(storage = S, loads = (a: A), consumers = 1, dependent = true)]
    /// pub struct P;
    /// let prologue = Prologue::start();
    /// let pipe = PipeAt::<P>::new(0, 0); // init / init_sync here, before the wait
    /// let done = prologue.wait::<Gdc>();
    /// let (producer, _consumers) = pipe.split_after(&done);
    /// assert_eq!(producer.iteration(), 0);
    /// ```
    #[inline(always)]
    pub const fn split_after(self, _waited: &crate::pdl::Resolved) -> (Producer<P>, Consumers<P>) {
        (Producer::new(self.at), Consumers { at: self.at })
    }
}

impl<P: Pipeline<Group = Pair, Launch = Dependent>> PipeAt<P> {
    /// [`split_pair`](PipeAt::split_pair) for a programmatic dependent launch of an sm100 pair
    /// (`cta_group = 2, dependent = true`): each CTA of the pair gets its side's handles only
    /// with the proof that *its own* `griddepcontrol.wait` returned (the proof is per thread),
    /// so neither the leader's nor the peer's half loads the primary's output before it.
    ///
    /// ```
    /// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::*};
    /// # use smemdesc::pdl::{GridDepOps, Prologue};
    /// # struct Gdc;
    /// # impl GridDepOps for Gdc { fn wait() {} fn launch_dependents() {} }
    /// #[smem_tile(arch = sm100, operand = A, dtype = bf16, tile = (128, 64), major = K, stages = 2, cta_group = 2)]
    /// pub struct A;
    /// #[smem_storage(arch = sm100)]
    /// pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
    /// #[smem_pipeline(storage = S, loads = (a: A), consumers = 1, cta_group = 2, dependent = true)]
    /// pub struct P;
    /// let prologue = Prologue::start();
    /// let pipe = PipeAt::<P>::new(0, 1); // init / init_sync here, before the wait
    /// let done = prologue.wait::<Gdc>();
    /// assert!(matches!(pipe.split_pair_after(&done), PairRole::Peer(..)));
    /// ```
    #[inline(always)]
    pub const fn split_pair_after(self, _waited: &crate::pdl::Resolved) -> PairRole<P> {
        if self.at.rank & 1 == 0 {
            PairRole::Leader(Producer::new(self.at), Consumers { at: self.at })
        } else {
            PairRole::Peer(PeerProducer::new(self.at))
        }
    }
}

/// One CTA's side of an sm100 pair ([`PipeAt::split_pair`]).
pub enum PairRole<P> {
    /// The even rank: its producer arrives with the pair's `expect_tx`; its consumers (the MMA
    /// issuer) wait on its full barriers.
    Leader(Producer<P>, Consumers<P>),
    /// The odd rank: loads its half into the leader's barriers, waits on nothing they count.
    Peer(PeerProducer<P>),
}

/// The consumer set of a pipeline instance: each thread takes its [`Consumer`] from it once.
///
/// ```
/// # use smemdesc::{smem_pipeline, smem_storage, smem_tile, Mbarrier, pipeline::PipeAt};
/// # #[smem_tile(arch = sm90, operand = A, dtype = bf16, tile = (64, 64), major = K, stages = 2)]
/// # pub struct A;
/// # #[smem_storage(arch = sm90)]
/// # pub struct S { a: A, full: [Mbarrier; 2], empty: [Mbarrier; 2] }
/// # #[smem_pipeline(storage = S, loads = (a: A), consumers = 1)]
/// # pub struct P;
/// let (_producer, consumers) = PipeAt::<P>::new(0, 0).split();
/// let consumer = consumers.thread(5); // thread 5 of its consumer group
/// assert_eq!(consumer.iteration(), 0);
/// ```
pub struct Consumers<P> {
    at: At<P>,
}

impl<P: Pipeline> Consumers<P> {
    /// Consumer thread `thread` (below the declared threads per consumer group) of a consumer
    /// group, at iteration 0. Threads that do not arrive (all but one per declared arrival)
    /// still wait.
    #[inline(always)]
    pub fn thread(self, thread: u32) -> Consumer<P> {
        let arrives = if const { arrival_stride::<P>().is_power_of_two() } {
            thread & const { arrival_stride::<P>().wrapping_sub(1) } == 0
        } else {
            thread % const { arrival_stride::<P>() } == 0
        };
        Consumer {
            at: self.at,
            it: 0,
            arrives: arrives as u32,
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

/// The consumer's iteration.
pub struct Consumer<P> {
    at: At<P>,
    it: u32,
    /// 1: this thread arrives (an integer, as `Full`'s).
    arrives: u32,
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
    at: At<P>,
    stage: u32,
    /// 1: this thread arrives. An integer, not a `bool`: `Option<Full>` (what
    /// [`Consumer::wait`] returns) then has a tag of its own instead of the `bool`'s niche,
    /// which a codegen backend lowering enum payloads through the tag's bytes (cuda-oxide)
    /// would spill to the stack at every wait.
    arrives: u32,
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
        if !const { P::LAYOUT.spec().empty_barriers } || self.arrives == 0 {
            return;
        }
        let e = P::empty(self.at.base, self.stage);
        let rank = self.at.rank;
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
        if !const { P::LAYOUT.spec().empty_barriers } || self.arrives == 0 {
            return;
        }
        f(
            P::empty(self.at.base, self.stage),
            release_mask::<P>(self.at.rank),
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
